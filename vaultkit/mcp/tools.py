"""What the MCP server's tools answer, as plain functions over one store (compact JSON values).

Paths are relative to the store's ``sessions/`` folder (``wiki/…``, ``summary/…``), line numbers
come first, and full text only when asked for (``read_note``, ``latest_handoff``), paged.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vaultkit.base.author import clean_author
from vaultkit.base.config import Config, load_config
from vaultkit.base.leanmeta import meta_str
from vaultkit.base.store import Store, current_branch, read_problem
from vaultkit.continuity.summaries import (
    CANDIDATES,
    explain,
    latest,
    me,
    pinned,
    read_safe,
    recent_summaries,
)
from vaultkit.errors import VaultkitError

if TYPE_CHECKING:
    from vaultkit.vault.value import Vault

PAGE_LINES = 200
MAX_LIMIT = 50  # results per call; a larger ``limit`` is clamped to it, not refused
MAX_LINES = 1000  # lines per page
WORST = 5
Json = dict[str, object]


@dataclass(frozen=True, slots=True)
class Memory:
    """The store the server answers for (found from its working directory at start)."""

    store: Store
    folder: Path | None = None  # the folder the server was started for (default: the project's)

    @property
    def where(self) -> Path:
        return self.folder if self.folder is not None else self.store.project

    @property
    def root(self) -> Path:
        return self.store.root

    def config(self) -> Config:
        try:
            return load_config(self.store.config_file)
        except VaultkitError:
            return Config()


def _wiki(memory: Memory) -> Vault:

    from vaultkit.vault.load import load_vault  # the engine only when a tool needs the graph

    if not memory.store.wiki.is_dir():
        raise VaultkitError(f"{memory.store.wiki}: no session wiki yet", hint="end a session first")
    from vaultkit.curate.journal import settle  # a move a kill interrupted, first

    settle(memory.store.wiki, memory.store.state)
    return load_vault(memory.store.wiki)


def search(
    memory: Memory,
    query: str,
    kinds: list[str],
    since: str,
    tag: str,
    limit: int,
    author: str = "",
    all_projects: bool = False,
) -> Json:
    """Ranked hits: path, line, kind, title, date, author and the matching line (and, over
    every project's store, the project each hit is from)."""
    from vaultkit import api
    from vaultkit.search.corpus import KINDS

    unknown = sorted(set(kinds) - set(KINDS))
    if unknown:
        raise VaultkitError(f"unknown type {', '.join(unknown)}", hint=f"use {', '.join(KINDS)}")
    narrow: dict[str, Any] = {
        "kinds": kinds,
        "since": since,
        "tags": (tag,) if tag else (),
        "limit": clamp(limit),
        "author": author,
    }
    if all_projects:
        across = api.search_everywhere(query, here=memory.root, **narrow).as_json()
        return {**across, **({"note": clamped(limit)} if clamped(limit) else {})}
    found = api.search(memory.root, query, **narrow)
    said = [found.note, clamped(limit)]
    note = {"note": "; ".join(n for n in said if n)} if any(said) else {}
    answer: Json = {"query": query, "results": [h.as_json() for h in found.hits], **note}
    if found.advice:  # why nothing (or only part of the query) matched, and what to try
        answer["advice"] = list(found.advice)
    return answer


def clamp(limit: int, most: int = MAX_LIMIT) -> int:
    """``limit`` within 1 .. ``most``: more than the maximum gives the maximum."""
    return max(1, min(limit, most))


def clamped(limit: int, most: int = MAX_LIMIT) -> str:
    """What the answer says when ``limit`` was above the maximum ("" otherwise)."""
    return f"limit {limit} is above the maximum, {most} were asked for" if limit > most else ""


def _file_for(memory: Memory, note: str) -> Path:
    """A store path (``wiki/x.md``), a wiki path (``x.md``) or a name resolved like ``[[x]]``.

    Only Markdown files in the wiki, the summaries and the readable transcripts are readable:
    never the raw transcripts, the derived state or anything outside the store."""
    from vaultkit.search.corpus import store_corpus

    wanted = note.strip().lstrip("/")
    readable = [s.folder.resolve() for s in store_corpus(memory.store).sources]
    for candidate in (memory.root / wanted, memory.store.wiki / wanted):
        resolved = candidate.resolve()
        inside = any(resolved.is_relative_to(folder) for folder in readable)
        if inside and read_problem(memory.store, candidate):
            raise VaultkitError(
                f"{wanted}: {read_problem(memory.store, candidate)}; vaultkit does not read it",
                hint="`vaultkit doctor` lists such links and the command that removes each",
            )
        if inside and resolved.suffix.lower() == ".md" and resolved.is_file():
            return resolved
    from vaultkit.search.related import find_note

    return memory.store.wiki / find_note(_wiki(memory), wanted)


def _shown(memory: Memory, path: Path) -> str:
    return Path(os.path.relpath(path, memory.root)).as_posix()


def read_note(memory: Memory, note: str, offset: int, max_lines: int) -> Json:
    """One page of a note's text: lines ``offset`` .. ``offset + max_lines - 1`` (1-based)."""
    import hashlib

    path = _file_for(memory, note)
    data = path.read_bytes()
    lines = data.decode("utf-8", errors="replace").splitlines()
    start = max(1, offset)
    count = clamp(max_lines, MAX_LINES)
    page = lines[start - 1 : start - 1 + count]
    end = start + len(page) - 1
    return {
        "path": _shown(memory, path),
        "total_lines": len(lines),
        "start_line": start,
        "end_line": end,
        "next_offset": end + 1 if end < len(lines) else None,
        "text": read_safe("\n".join(page)),  # a teammate's note, redacted again as it is read
        "hash": hashlib.sha256(data).hexdigest(),  # what edit_note must quote
    }


def links(memory: Memory, note: str) -> Json:
    """A wiki note's outgoing links (with where each resolves) and its backlinks."""
    vault = _wiki(memory)
    path = _shown(memory, _file_for(memory, note)).removeprefix("wiki/")
    out = [
        {
            "line": r.link.line,
            "target": r.link.target,
            "resolved": _wiki_path(r.resolution.path),
            "kind": r.link.kind,
        }
        for r in vault.links
        if r.source == path
    ]
    back = [
        {"source": "wiki/" + r.source, "line": r.link.line}
        for r in vault.links
        if r.resolution.path == path and r.source != path
    ]
    return {"path": "wiki/" + path, "outgoing": out, "backlinks": back}


def related(memory: Memory, note: str, limit: int) -> Json:
    """The wiki notes nearest to ``note``, ranked, each with why."""
    from vaultkit import api

    path = _shown(memory, _file_for(memory, note)).removeprefix("wiki/")
    found = api.related(memory.store.wiki, path, clamp(limit))
    rows = [{**r.as_json(), "path": "wiki/" + r.path} for r in found.related]
    said = {"note": clamped(limit)} if clamped(limit) else {}
    return {"path": "wiki/" + found.note, "related": rows, **said}


def _wiki_path(path: str | None) -> str | None:
    """A wiki path as every tool gives paths: relative to ``sessions/`` (``wiki/…``)."""
    return None if path is None else "wiki/" + path


def recent_sessions(memory: Memory, limit: int) -> Json:
    """The newest handoff summaries: path, title, date, session id and quality."""

    rows = []
    now = time.time()
    for summary in recent_summaries(memory.store, clamp(limit), now):
        rows.append(
            {
                "path": _shown(memory, Path(summary.path)),
                "title": meta_str(summary.meta, "title") or summary.name,
                "date": meta_str(summary.meta, "date"),
                "session_id": summary.session_id,
                "quality": "degraded" if summary.degraded else "ok",
                "author": clean_author(meta_str(summary.meta, "author")),  # a teammate's text
                "not_latest_because": pinned(memory.store, summary, now),
            }
        )
    return {"sessions": rows}


def latest_handoff(memory: Memory, max_lines: int) -> Json:
    """The newest handoff summary's text (paged like ``read_note``)."""

    now, project = time.time(), memory.store.project
    summaries = recent_summaries(memory.store, now=now)
    user = me(summaries, project)
    chosen = latest(memory.store, summaries, current_branch(project), now, user).chosen
    if chosen is None:
        return {"path": None, "text": "", "note": "no handoff has been written in this project yet"}
    return read_note(memory, _shown(memory, Path(chosen.path)), 1, max_lines)


def vault_health(memory: Memory) -> Json:
    """Ghost, orphan and degraded counts with the worst offenders."""

    from vaultkit.vault import analysis

    vault = _wiki(memory)
    ghosts = analysis.ghosts(vault)
    by_note = Counter(g.source for g in ghosts)
    return {
        "notes": len(vault.notes),
        "ghosts": len(ghosts),
        "orphans": len(analysis.orphans(vault)),
        "degraded": len(analysis.degraded(vault)),
        "worst_ghost_notes": [
            {"path": "wiki/" + p, "ghosts": n} for p, n in by_note.most_common(WORST)
        ],
        "orphan_notes": ["wiki/" + p for p in analysis.orphans(vault)[:WORST]],
        "degraded_notes": ["wiki/" + p for p in analysis.degraded(vault)[:WORST]],
    }


SOURCES = ("startup", "clear", "compact")


def restore(memory: Memory, source: str, session_id: str) -> Json:
    """What the SessionStart hook would inject now for ``source`` (``vaultkit restore``), with
    which summary it would choose and why the newer ones were passed over."""
    from vaultkit.continuity import startup

    if source not in SOURCES:
        raise VaultkitError(f"unknown source {source!r}", hint=f"use {', '.join(SOURCES)}")
    payload: dict[str, object] = {
        "source": source,
        "cwd": str(memory.where),
        "session_id": session_id,
    }
    composed = startup.compose(payload, os.environ, spawn=None)  # looks only: no backfill
    text = startup.status_first(payload, os.environ, composed)
    answer: Json = {"source": source, "text": text}
    if not text:
        answer["note"] = f"nothing would be injected for source {source!r}"
    if source == "startup" and memory.store.summary.is_dir():
        now = time.time()
        found = recent_summaries(memory.store, CANDIDATES, now)
        branch = current_branch(memory.where)
        chosen, passed = explain(latest(memory.store, found, branch, now), branch)
        answer["latest_session"] = chosen
        answer["passed_over"] = [{"name": n, "why": why} for n, why in passed]
    return answer


def memory_cost(memory: Memory) -> Json:
    """What distilling sessions cost today and this month (``vaultkit doctor``'s cost lines)."""
    from datetime import datetime

    from vaultkit.session.distill import costs

    today = datetime.now().astimezone().date().isoformat()
    day, month = costs.totals(memory.store, today), costs.totals(memory.store, today[:7])
    cap = memory.config().distill.daily_budget

    def period(total: costs.Totals) -> Json:
        return {
            "sessions": total.sessions,
            "input_tokens": total.input_tokens,
            "output_tokens": total.output_tokens,
            "cost_usd": round(total.cost_usd, 6),
        }

    reached = cap > 0 and day.cost_usd >= cap
    return {
        "today": {"date": today, **period(day)},
        "this_month": {"month": today[:7], **period(month)},
        "daily_budget_usd": cap if cap > 0 else None,
        "budget_reached": reached,
        "line": costs.cost_line(day, month, cap)
        + (": reached, sessions get offline notes until tomorrow" if reached else ""),
    }


def save(memory: Memory, text: str, title: str) -> Json:
    """Save a handoff the agent wrote (only offered with ``--allow-write``)."""
    if not text.strip():
        raise VaultkitError("the handoff text is empty", hint="pass the handoff as Markdown")

    from vaultkit.continuity.handoff import save_handoff  # the note writer (PyYAML) on use

    session = os.environ.get("CLAUDE_CODE_SESSION_ID", "")
    saved = save_handoff(
        memory.store, text, session_id=session, title=title, config=memory.config()
    )
    return {"path": _shown(memory, saved.path), "missing_sections": list(saved.missing)}


SESSION_ENV = "CLAUDE_CODE_SESSION_ID"  # Claude Code sets it in the servers it starts


def _logged(memory: Memory, tool: str, what: str) -> None:
    """One line in the store's log for each write a tool made, naming the agent session that
    made it: ``CLAUDE_CODE_SESSION_ID`` of the server's environment (what Claude Code gives the
    MCP servers it starts, as ``save_handoff`` records it), ``unknown`` without it."""
    from vaultkit.base.log import append_log

    session = os.environ.get(SESSION_ENV, "").strip() or "unknown"
    append_log(memory.store.log, f"mcp[{os.getpid()}] {tool} {what} session={session}")


def move_note(memory: Memory, note: str, to: str) -> Json:
    """Move a wiki note (only offered with ``--allow-write``) and rewrite every link to it,
    as ``vaultkit mv`` does; ``to`` is a path inside ``wiki/``."""
    from vaultkit.curate.apply import move  # the curation engine on use

    wiki = memory.store.wiki
    source = _file_for(memory, note)
    if not source.resolve().is_relative_to(wiki.resolve()):
        raise VaultkitError(f"{note}: not a wiki note", hint="move_note moves notes of wiki/ only")
    old = source.resolve().relative_to(wiki.resolve()).as_posix()
    outcome = move(wiki, old, to.strip().removeprefix("wiki/"), state_dir=memory.store.state)
    data = outcome.as_json()
    data["moved"] = [{"from": "wiki/" + a, "to": "wiki/" + b} for a, b in outcome.moves]
    data["changed"] = ["wiki/" + p for p in outcome.changed]
    for a, b in outcome.moves:
        _logged(memory, "move_note", f"wiki/{a} -> wiki/{b}")
    return data


def write_note(memory: Memory, path: str, text: str) -> Json:
    """Create a wiki note (``--allow-write``); held back while it has ghost links."""
    from vaultkit.curate.write import write_note as write

    return _in_wiki_logged(
        memory, "write_note", write(memory.store.wiki, memory.store.state, path, text)
    )


def edit_note(
    memory: Memory, note: str, expected: str, heading: str, text: str, append: bool
) -> Json:
    """Replace or append one section of a wiki note read with hash ``expected``."""
    from vaultkit.curate.write import edit_note as edit

    wiki = memory.store.wiki
    source = _file_for(memory, note).resolve()
    if not source.is_relative_to(wiki.resolve()):
        raise VaultkitError(f"{note}: not a wiki note", hint="edit_note edits notes of wiki/ only")
    old = source.relative_to(wiki.resolve()).as_posix()
    result = edit(wiki, memory.store.state, old, expected, heading, text, append)
    return _in_wiki_logged(memory, "edit_note", result)


def _in_wiki_logged(memory: Memory, tool: str, result: Json) -> Json:
    shown = {**result, "path": "wiki/" + str(result["path"])}
    if shown.get("written"):
        _logged(memory, tool, str(shown["path"]))
    return shown
