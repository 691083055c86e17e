"""The agent's writes to a wiki: a new note or one section of a note, atomic, refused when the
note changed since it was read (its content hash) and held back while it has ghost links."""

from __future__ import annotations

import difflib
import hashlib
import re
from pathlib import Path

from vaultkit.base.fsio import atomic_write_bytes
from vaultkit.curate.apply import follow, vault_path
from vaultkit.errors import VaultkitError
from vaultkit.vault.load import load_vault, through_link
from vaultkit.vault.parse import parse_note
from vaultkit.vault.resolve import build_file_index, match_key, resolve_target
from vaultkit.vault.value import Vault

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$")
Json = dict[str, object]


def content_hash(data: bytes) -> str:
    """What ``read_note`` returns and a write must quote: the note's bytes' SHA-256."""
    return hashlib.sha256(data).hexdigest()


def ghosts(vault: Vault, path: str, text: str) -> list[Json]:
    """The links of ``text`` (the note at ``path``) that name nothing, each with the closest
    existing note names."""
    note = parse_note(path, text.encode("utf-8"))
    aliases = {n.path: n.aliases for n in vault.notes if n.aliases}
    index = build_file_index([*vault.index.paths, path], aliases)
    names = sorted({n.name for n in vault.notes})
    keys = {match_key(n): n for n in names}
    found: list[Json] = []
    for link in note.links:
        if link.is_self or resolve_target(index, path, link.target).path is not None:
            continue
        close = difflib.get_close_matches(match_key(link.target), list(keys), n=3, cutoff=0.5)
        found.append(
            {"target": link.target, "line": link.line, "closest": [keys[c] for c in close]}
        )
    return found


def _note_path(root: Path, given: str) -> str:
    path = vault_path(root, given.strip().removeprefix("wiki/"))
    if not path.lower().endswith(".md"):
        path += ".md"
    if through_link(root, path):
        raise VaultkitError(f"{path}: a symbolic link is on the way; never written through")
    return path


def _land(root: Path, state: Path, vault: Vault, path: str, text: str) -> Json:
    """Write ``text`` to ``path`` unless it has ghost links (then they come back instead)."""
    missing = ghosts(vault, path, text)
    broken = [
        f.render() for f in parse_note(path, text.encode("utf-8")).findings if f.severity == "error"
    ]
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
    path = _note_path(root, given)
    vault = load_vault(root, state_dir=state)
    taken = [p for p in vault.index.paths if match_key(p) == match_key(path)]
    if taken or (root / path).exists():
        raise VaultkitError(
            f"{path}: exists already; write_note never overwrites",
            hint="read_note it, then edit_note with its hash",
        )
    return _land(root, state, vault, path, text)


def _section(lines: list[str], heading: str) -> tuple[int, int] | None:
    """The lines of the section under ``heading``: (its heading line, the end)."""
    for i, line in enumerate(lines):
        match = _HEADING.match(line.rstrip("\r\n"))
        if match and match.group(2).strip() == heading.strip():
            level = len(match.group(1))
            for j in range(i + 1, len(lines)):
                other = _HEADING.match(lines[j].rstrip("\r\n"))
                if other and len(other.group(1)) <= level:
                    return i, j
            return i, len(lines)
    return None


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
        return "".join(lines) + f"{gap}## {heading.strip()}\n\n{block}"
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
