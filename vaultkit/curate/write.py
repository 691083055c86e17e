"""The agent's writes to a wiki: a new note or one section of a note, atomic, refused when the
note changed since it was read (its content hash), and held back while the linter's error
checks find anything in it (ghost links come back with the closest existing note names).
Under the vault's write lock, after settling a move a kill interrupted
(:mod:`vaultkit.curate.journal`)."""

from __future__ import annotations

import difflib
import hashlib
import re
from pathlib import Path

from vaultkit.base.config import Config
from vaultkit.base.fsio import atomic_write_bytes
from vaultkit.curate import journal as jr
from vaultkit.curate.apply import follow, vault_path
from vaultkit.errors import VaultkitError
from vaultkit.lint.context import LintContext
from vaultkit.lint.links import is_placeholder, link_rules
from vaultkit.vault.load import load_vault, through_link
from vaultkit.vault.model import Finding
from vaultkit.vault.parse import parse_note
from vaultkit.vault.resolve import build_file_index, match_key, resolve_all, resolve_target
from vaultkit.vault.value import Vault

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$")
_GIVEN = re.compile(r"^[ \t]*(#{1,6})?[ \t]*(.*?)[ \t#]*$")
GHOST_CODES = frozenset({"VK101", "VK102", "VK107"})  # said as ghosts, with the closest names
Json = dict[str, object]


def content_hash(data: bytes) -> str:
    """What ``read_note`` returns and a write must quote: the note's bytes' SHA-256."""
    return hashlib.sha256(data).hexdigest()


def landed(vault: Vault, path: str, text: str) -> Vault:
    """``vault`` with the note at ``path`` holding ``text`` (added or replaced): its notes, its
    file index (the note's aliases included) and the note's links resolved in it."""
    note = parse_note(path, text.encode("utf-8"))
    notes = tuple(sorted([*(n for n in vault.notes if n.path != path), note], key=lambda n: n.path))
    paths = list(vault.index.paths)
    if path not in paths:
        paths.append(path)
    index = build_file_index(paths, {n.path: n.aliases for n in notes if n.aliases})
    return Vault(
        vault.root, notes, vault.attachments, index, resolve_all(index, [note]), note.findings
    )


def ghosts(vault: Vault, candidate: Vault, path: str) -> list[Json]:
    """The links of the note at ``path`` in ``candidate`` (:func:`landed`) that name nothing,
    each with the closest names of ``vault``'s notes."""
    note = next(n for n in candidate.notes if n.path == path)
    names = sorted({n.name for n in vault.notes})
    keys = {match_key(n): n for n in names}
    found: list[Json] = []
    for link in note.links:
        if link.is_self or is_placeholder(link.target):
            continue
        if resolve_target(candidate.index, path, link.target).path is not None:
            continue
        close = difflib.get_close_matches(match_key(link.target), list(keys), n=3, cutoff=0.5)
        found.append(
            {"target": link.target, "line": link.line, "closest": [keys[c] for c in close]}
        )
    return found


def lint_errors(candidate: Vault, path: str) -> list[Finding]:
    """The linter's error findings (parse errors, VK101/VK102/VK107 ghosts) on the note at
    ``path`` in ``candidate`` (:func:`landed`)."""
    found = [*candidate.findings, *link_rules(LintContext(candidate, Config()))]
    return sorted(
        {f for f in found if f.path == path and f.severity == "error"}, key=Finding.sort_key
    )


def _note_path(root: Path, given: str) -> str:
    path = vault_path(root, given.strip().removeprefix("wiki/"))
    if not path.lower().endswith(".md"):
        path += ".md"
    if through_link(root, path):
        raise VaultkitError(f"{path}: a symbolic link is on the way; never written through")
    return path


def _land(root: Path, state: Path, vault: Vault, path: str, text: str) -> Json:
    """Write ``text`` to ``path`` unless the linter finds an error in it (then the ghost links,
    with the closest note names, and the other errors come back instead)."""
    candidate = landed(vault, path, text)
    errors = lint_errors(candidate, path)
    missing = ghosts(vault, candidate, path) if errors else []
    broken = [f.render() for f in errors if f.code not in GHOST_CODES]
    if not missing:  # a ghost only the linter knows of (its own rules) still holds it back
        broken += [f.render() for f in errors if f.code in GHOST_CODES]
    if missing or broken:
        return {"written": False, "path": path, "ghosts": missing, "errors": broken}
    file = root / path
    file.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    atomic_write_bytes(file, data)
    follow(root, state)
    return {"written": True, "path": path, "hash": content_hash(data), "ghosts": [], "errors": []}


def write_note(root: Path, state: Path, given: str, text: str) -> Json:
    """Create a new note (never overwriting one)."""
    with jr.writing(root, state):
        return _write_note(root, state, given, text)


def _write_note(root: Path, state: Path, given: str, text: str) -> Json:
    path = _note_path(root, given)
    vault = load_vault(root, state_dir=state)
    taken = [p for p in vault.index.paths if match_key(p) == match_key(path)]
    if taken or (root / path).exists():
        raise VaultkitError(
            f"{path}: exists already; write_note never overwrites",
            hint="read_note it, then edit_note with its hash",
        )
    return _land(root, state, vault, path, text)


def _loose(text: str) -> str:
    return " ".join(text.split()).casefold()


def _headings(lines: list[str]) -> list[tuple[int, int, str]]:
    """Every ATX heading: (line index, level, text)."""
    found = []
    for i, line in enumerate(lines):
        match = _HEADING.match(line.rstrip("\r\n"))
        if match:
            found.append((i, len(match.group(1)), match.group(2).strip()))
    return found


def _pick(heads: list[tuple[int, int, str]], heading: str) -> tuple[int, int, str] | None:
    """The heading ``heading`` names: its text exactly, else ignoring letter case and runs of
    white space; ``## Text`` also asks for that level. Several matches: refused."""
    given = _GIVEN.match(heading)
    marks, text = (given.group(1), given.group(2)) if given else (None, heading.strip())
    level = len(marks) if marks else None
    fit = [h for h in heads if level is None or h[1] == level]
    for same in (lambda h: h[2] == text, lambda h: _loose(h[2]) == _loose(text)):
        found = [h for h in fit if same(h)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            shown = ", ".join(f"line {i + 1} {'#' * lv} {t}" for i, lv, t in found)
            raise VaultkitError(
                f"heading {heading.strip()!r} names {len(found)} sections ({shown}); "
                "nothing was written",
                hint="give the heading with its level (e.g. '### Text') or its exact text",
            )
    return None


def _section(lines: list[str], heading: str) -> tuple[int, int] | None:
    """The lines of the section under ``heading``: (its heading line, the end)."""
    heads = _headings(lines)
    found = _pick(heads, heading)
    if found is None:
        return None
    start, level, _ = found
    ends = [i for i, lv, _ in heads if i > start and lv <= level]
    return start, ends[0] if ends else len(lines)


def edit_text(old: str, heading: str, body: str, append: bool) -> str:
    """``old`` with the section under ``heading`` replaced by ``body`` (or ``body`` appended to
    it); a missing heading becomes a new ``##`` section at the end."""
    lines = old.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    block = body if body.endswith("\n") else body + "\n"
    found = _section(lines, heading)
    if found is None:
        gap = "\n" if lines and lines[-1].strip() else ""
        given = _GIVEN.match(heading)
        marks, text = (given.group(1) or "##", given.group(2)) if given else ("##", heading)
        return "".join(lines) + f"{gap}{marks} {text.strip()}\n\n{block}"
    start, end = found
    if append:
        return "".join([*lines[:end], block, *lines[end:]])
    return "".join(
        [*lines[: start + 1], "\n", block, *(["\n"] if end < len(lines) else []), *lines[end:]]
    )


def edit_note(
    root: Path, state: Path, given: str, expected: str, heading: str, body: str, append: bool
) -> Json:
    """Replace or append one section of a note, if it is still the text whose hash was read."""
    with jr.writing(root, state):
        return _edit_note(root, state, given, expected, heading, body, append)


def _edit_note(
    root: Path, state: Path, given: str, expected: str, heading: str, body: str, append: bool
) -> Json:
    path = _note_path(root, given)
    file = root / path
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        raise VaultkitError(f"{path}: no such note", hint="write_note creates one") from None
    if content_hash(data) != expected.strip():
        raise VaultkitError(
            f"{path}: changed since it was read; nothing was written",
            hint="read_note it again and redo the edit on the new text",
        )
    new = edit_text(data.decode("utf-8"), heading, body, append)
    return _land(root, state, load_vault(root, state_dir=state), path, new)
