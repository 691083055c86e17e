"""Distil one session: condense → prompt → one LLM call (+ one retry) → markers → two notes.

Quality self-check (docs/ARCHITECTURE.md, "The session pipeline"): a missing HANDOFF or WIKI
part, empty output, a timeout or an error
gets one retry; if that fails too a degraded note is still written from the offline extract plus
whatever partial output exists. Infrastructure failures raise :class:`InfraError` and write
nothing, so the caller keeps the job queued. INDEX.md and retention are the caller's business.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Literal

from vaultkit.agents.known import DEFAULT
from vaultkit.base.author import current_author
from vaultkit.base.config import Config
from vaultkit.base.log import append_log
from vaultkit.base.store import Store
from vaultkit.base.templates import read_template
from vaultkit.errors import VaultkitError
from vaultkit.session.distill.backends import (
    BackendResult,
    OfflineFacts,
    choose,
    hint,
    offline_parts,
    offline_title,
    run_backend,
)
from vaultkit.session.distill.candidates import Candidate, select
from vaultkit.session.distill.catalogue_written import noting
from vaultkit.session.distill.costs import NO_USAGE, Usage
from vaultkit.session.distill.markers import Parsed, parse_markers
from vaultkit.session.distill.selfcheck import rejection
from vaultkit.session.notes.links import settle, write_stubs
from vaultkit.session.notes.write import NoteMeta, write_session_notes
from vaultkit.session.transcripts.condense import Digest, condense
from vaultkit.session.transcripts.redact import redact
from vaultkit.vault.load import list_vault_files

PROMPT_TEMPLATE = "distill-prompt.md"
PARTIAL_MAX = 20_000
_PLACEHOLDER = re.compile(r"\{\{\s*(\w+)\s*\}\}")


class InfraError(VaultkitError):
    """The backend could not run (login, quota, network, missing binary); no note was written."""


@dataclass(frozen=True, slots=True)
class SessionInfo:
    session_id: str
    transcript: Path  # the raw copy in sessions/raw/
    project: str
    cwd: str
    git_branch: str | None
    ended_at: datetime  # timezone-aware local time
    reason: str = "other"
    agent: str = DEFAULT  # vaultkit.agents.known.AGENTS: whose session this was


class NoUserTurn(Exception):
    """The session has no user turn (Codex's hook-trust session, an aborted start): it leaves
    no note, only its raw copy."""


@dataclass(frozen=True, slots=True)
class DistillOutcome:
    title: str
    summary_path: Path
    wiki_path: Path
    quality: Literal["ok", "degraded"]
    degraded_reason: str | None
    retries: int
    usage: Usage = NO_USAGE  # what every attempt cost together, as the backend reported it
    backend: str = ""  # the backend that wrote the notes ("offline" when no LLM was called)


def build_prompt(
    template: str, info: SessionInfo, digest: Digest, existing: Sequence[Candidate]
) -> str:
    """Fill ``{{placeholders}}`` in one pass (inserted text is never re-scanned)."""
    values = {
        "project": info.project,
        "session_id": info.session_id,
        "date": info.ended_at.isoformat(timespec="minutes"),
        "branch": info.git_branch or digest.git_branch or "(none)",
        "existing_notes": "\n".join(c.line() for c in existing) or "(none yet)",
        "transcript": digest.text or "(the transcript has no conversation text)",
    }
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), template)


def _source(store: Store, transcript: Path) -> str:
    try:
        return transcript.resolve().relative_to(store.root.resolve()).as_posix()
    except ValueError:
        return str(transcript)


def _checked(result: BackendResult, template: str, transcript: str) -> BackendResult:
    """``result`` as the self-check sees it: an echo or an empty answer is ``rejected``."""
    if result.status != "ok" or result.backend == "offline":
        return result
    why = rejection(parse_markers(result.output), template, transcript)
    return result if why is None else replace(result, status="rejected", detail=why)


def _attempts(
    store: Store, info: SessionInfo, prompts: tuple[str, str], config: Config, facts: OfflineFacts
) -> list[BackendResult]:
    """One attempt, and one retry when it failed or the self-check rejected it; ``prompts`` are
    the template and the prompt made from it."""
    template, prompt = prompts
    results: list[BackendResult] = []
    for attempt in (1, 2):
        result = run_backend(prompt, config, offline=facts, agent=info.agent)
        result = _checked(result, template, facts.digest.text)
        append_log(
            store.log,
            f"distill {info.session_id}: attempt {attempt} via {result.backend}: "
            f"{result.status} ({result.detail})",
        )
        if result.status == "infra":
            raise InfraError(
                f"distillation backend unavailable for session {info.session_id}: {result.detail}",
                hint=f"{hint(result.backend)}; the session stays queued",
            )
        results.append(result)
        if result.status == "ok":
            break
    return results


def _fallback(offline: Parsed, results: list[BackendResult]) -> tuple[str, str]:
    best = max(results, key=lambda r: len(r.output.strip()))
    partial = parse_markers(best.output)
    handoff, wiki = offline.handoff, offline.wiki
    if partial.handoff or partial.wiki:
        if partial.handoff:
            handoff += "\n\n## Partial LLM output\n\n" + partial.handoff[:PARTIAL_MAX]
        if partial.wiki:
            wiki += "\n\n## Partial LLM output\n\n" + partial.wiki[:PARTIAL_MAX]
    elif best.output.strip():
        handoff += "\n\n## Unstructured LLM output\n\n" + best.output.strip()[:PARTIAL_MAX]
    return handoff, wiki


def distill_session(store: Store, info: SessionInfo, config: Config) -> DistillOutcome:
    """Distil ``info``'s transcript and write its two notes (replacing earlier ones); raises
    :class:`NoUserTurn` for a session without a user turn."""
    digest = _condense(info, config)
    facts = OfflineFacts(digest, info.cwd, info.project, info.session_id)
    offline = offline_parts(facts)
    meta = _meta(store, info, digest)
    backend = choose(config, info.agent)
    if backend == "offline" or digest.turns == 0:
        reason = "offline" if digest.turns else "empty-transcript"  # no LLM call for nothing
        if backend == "offline" != config.distill.backend:  # auto found no CLI to run
            append_log(store.log, f"distill {info.session_id}: auto: no runnable CLI, offline")
        meta = _degraded(meta, reason, 0)
        parts = (offline.handoff, offline.wiki)
        outcome = _write(store, meta, offline.title, parts, _settling(config))
        return replace(outcome, backend="offline")
    template = read_template(PROMPT_TEMPLATE)
    offered = select(store, digest.text, info.session_id, config.distill.candidates_budget)
    prompt = build_prompt(template, info, digest, offered)
    settling = _settling(config, {c.path: c.aliases for c in offered if c.aliases})
    results = _attempts(store, info, (template, prompt), config, facts)
    retries = len(results) - 1
    final = results[-1]
    usage = NO_USAGE
    for result in results:
        usage = usage.plus(result.usage)
    if final.status == "ok":
        parsed = parse_markers(final.output)
        meta = _with_retries(meta, retries)
        title = parsed.title or offline_title(facts)
        outcome = _write(store, meta, title, (parsed.handoff, parsed.wiki), settling)
        return replace(outcome, usage=usage, backend=final.backend)
    kept = [r for r in results if r.status != "rejected"]  # nothing of an echo is worth keeping
    handoff, wiki = _fallback(offline, kept) if kept else (offline.handoff, offline.wiki)
    title = (parse_markers(kept[-1].output).title if kept else "") or offline.title
    meta = _degraded(meta, final.detail if final.status == "rejected" else final.status, retries)
    outcome = _write(store, meta, title, (handoff, wiki), settling)
    return replace(outcome, usage=usage, backend=final.backend)


def offline_session(store: Store, info: SessionInfo, config: Config, reason: str) -> DistillOutcome:
    """The offline (extractive) notes of ``info``, marked degraded with ``reason``; no LLM call."""
    digest = _condense(info, config)
    facts = OfflineFacts(digest, info.cwd, info.project, info.session_id)
    offline = offline_parts(facts)
    meta = _degraded(_meta(store, info, digest), reason, 0)
    parts = (offline.handoff, offline.wiki)
    return _write(store, meta, offline.title, parts, _settling(config))


def _condense(info: SessionInfo, config: Config) -> Digest:
    try:
        digest = condense(info.transcript, config.distill.transcript_budget, info.agent, info.cwd)
    except OSError as exc:
        raise VaultkitError(
            f"{info.transcript}: cannot read transcript: {exc.strerror or exc}",
            hint="check the raw copy exists, then run `vaultkit ingest` on it again",
        ) from exc
    if not digest.first_prompt:
        raise NoUserTurn(info.session_id)
    return digest


def _meta(store: Store, info: SessionInfo, digest: Digest) -> NoteMeta:
    branch = info.git_branch or digest.git_branch
    source = _source(store, info.transcript)
    author = current_author(info.cwd or str(store.project))
    return NoteMeta(
        info.session_id,
        info.project,
        info.ended_at,
        source,
        branch,
        agent=info.agent,
        author=author,
    )


def _with_retries(meta: NoteMeta, retries: int) -> NoteMeta:
    return replace(meta, quality="ok", degraded_reason=None, retries=retries)


def _degraded(meta: NoteMeta, reason: str, retries: int) -> NoteMeta:
    return replace(meta, quality="degraded", degraded_reason=reason, retries=retries)


def _write(
    store: Store,
    meta: NoteMeta,
    title: str,
    parts: tuple[str, str],
    settle_with: Settling,
) -> DistillOutcome:
    handoff, wiki, meta, stubs = _settled(store, meta, parts, settle_with)
    with noting(store, meta.session_id) as record:  # the next selection need not look
        summary_path, wiki_path = write_session_notes(store, meta, title, handoff, wiki)
        folder = settle_with.stub_folder
        write_stubs(store.wiki, folder, stubs, wiki_path.stem, meta.ended_at)
        record([wiki_path, *(store.wiki / f"{folder}/{s}.md" for s in stubs if folder)])
    quality: Literal["ok", "degraded"] = "degraded" if meta.quality == "degraded" else "ok"
    return DistillOutcome(
        title=redact(" ".join(title.split())) or "untitled",
        summary_path=summary_path,
        wiki_path=wiki_path,
        quality=quality,
        degraded_reason=meta.degraded_reason,
        retries=meta.retries,
    )


@dataclass(frozen=True, slots=True)
class Settling:
    """How an answer's links settle: the aliases offered (wiki paths) and the stub folder
    (inside wiki/, None for plain text)."""

    aliases: Mapping[str, Sequence[str]]
    stub_folder: str | None


def _settling(config: Config, aliases: Mapping[str, Sequence[str]] | None = None) -> Settling:
    stub = config.distill.stub_folder.replace("\\", "/").strip("/")
    return Settling(aliases or {}, stub if config.distill.ghost_links == "stub" else None)


def _settled(
    store: Store, meta: NoteMeta, parts: tuple[str, str], how: Settling
) -> tuple[str, str, NoteMeta, tuple[str, ...]]:
    """Both parts with no ghost link (:mod:`vaultkit.session.notes.links`): the wiki note
    against the wiki, the handoff against the whole store; the names that were ghosts go
    into the frontmatter."""
    handoff, wiki = parts
    files = list_vault_files(store.root)  # the vault engine's walk: loop-safe
    in_wiki = [path[len("wiki/") :] for path in files if path.startswith("wiki/")]
    stub = how.stub_folder
    settled_wiki = settle(wiki, in_wiki, how.aliases, stub_folder=stub)
    store_aliases = {f"wiki/{path}": names for path, names in how.aliases.items()}
    settled_handoff = settle(
        handoff, files, store_aliases, stub_folder=None if stub is None else f"wiki/{stub}"
    )
    unresolved = dict.fromkeys((*settled_wiki.unresolved, *settled_handoff.unresolved))
    stubs = dict.fromkeys((*settled_wiki.stubs, *settled_handoff.stubs))
    meta = replace(meta, unresolved_links=tuple(unresolved))
    return settled_handoff.text, settled_wiki.text, meta, tuple(stubs)
