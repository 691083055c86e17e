"""No ghosts in vaultkit's own notes: every link of an LLM's answer is resolved before writing.

A link that resolves in the vault stays. A ghost whose text is the alias of exactly one note
becomes ``[[Note|alias]]``. Any other ghost becomes its plain text, or, when ``distill.ghost_links
= "stub"``, a link to a stub note in the stub folder (created if missing). Both are listed for
the note's frontmatter (``unresolved_links``). The rewritten text is parsed again until no ghost
is left, and what still refuses to settle has its brackets escaped, so the written note never has
an error-severity ``vaultkit lint`` finding, whatever the answer held.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from vaultkit.base.fsio import atomic_write_text
from vaultkit.session.notes.naming import heading_text, inert_title
from vaultkit.vault.model import Link
from vaultkit.vault.parse import parse_note
from vaultkit.vault.resolve import FileIndex, build_file_index, resolve_target
from vaultkit.vault.wikisyntax import link_extent

NEW_NOTE = "vaultkit-new-note.md"  # where the note being written stands while its links settle
ROUNDS = 4


@dataclass(frozen=True, slots=True)
class Settled:
    """An answer part with its links settled, the ghosts it had, and stubs it needs."""

    text: str
    unresolved: tuple[str, ...] = ()
    stubs: tuple[str, ...] = ()  # stub names (file stems) the text now links to


def file_index(paths: Iterable[str], aliases: Mapping[str, Sequence[str]]) -> FileIndex:
    """The index links settle against: the vault's files, the new note, known aliases."""
    return build_file_index([*paths, NEW_NOTE], aliases)


def _offsets(text: str) -> list[int]:
    starts = [0]
    for line in text.split("\n")[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    return starts


def stub_name(target: str) -> str | None:
    """The stub file stem for a ghost ``target``, or None when the name is not safe as is."""
    name = target.strip()
    if not name or name != inert_title(name) or name.startswith(".") or len(name) > 120:
        return None
    if any(ch in name for ch in '\\/:*?"<>|#^[]') or name.lower().endswith(".md"):
        return None
    return name


def _alias_note(index: FileIndex, target: str) -> str | None:
    owners = index.notes_with_alias(target)
    if len(owners) != 1:
        return None
    path = owners[0]
    stem = path.rsplit("/", 1)[-1][:-3]
    found = resolve_target(index, NEW_NOTE, stem)
    return stem if found.path == path and not found.ambiguous else path[:-3]


def _plain(link: Link) -> str:
    words = link.display if link.display and not link.embed else link.target or link.subpath
    return " ".join((words or "").split()).replace("[", "(").replace("]", ")")


def _replacement(link: Link, index: FileIndex, stub_folder: str | None) -> tuple[str, str, str]:
    """(new text, unresolved name or "", stub name or "") for one ghost link."""
    target = link.target
    owner = None if link.embed else _alias_note(index, target)
    if owner is not None:
        shown = (link.display or target).replace("|", " ").replace("]", " ").strip()
        return f"[[{owner}|{shown}]]", "", ""
    if stub_folder is not None and not link.embed:
        name = stub_name(target)
        if name is not None:
            shown = (link.display or "").replace("|", " ").replace("]", " ").strip()
            return (f"[[{name}|{shown}]]" if shown else f"[[{name}]]"), target, name
    return _plain(link), target, ""


def _ghosts(text: str, index: FileIndex, source: str) -> list[Link]:
    note = parse_note(source, text.encode("utf-8"))
    found = []
    for link in note.links:
        if link.kind == "frontmatter" or link.is_self:
            continue
        if resolve_target(index, source, link.target).ghost:
            found.append(link)
    return found


def _escape_all(text: str) -> str:
    """The last resort: every ``[`` escaped, so nothing in ``text`` can be a link."""
    return text.replace("\\[", "[").replace("[", "\\[")


def settle(
    text: str,
    paths: Sequence[str],
    aliases: Mapping[str, Sequence[str]],
    *,
    stub_folder: str | None = None,
) -> Settled:
    """``text`` with every ghost link rewritten (see the module docstring) against the vault of
    ``paths`` (vault-relative) and the known ``aliases``; ``stub_folder`` (vault-relative) turns
    ghosts with safe names into stub links instead of plain text."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # lines as the parser counts them
    index = file_index(paths, aliases)
    source = NEW_NOTE
    unresolved: list[str] = []
    stubs: list[str] = []
    for _ in range(ROUNDS):
        ghosts = _ghosts(text, index, source)
        if not ghosts:
            break
        starts = _offsets(text)
        found: list[str] = []
        for link in sorted(ghosts, key=lambda g: (g.line, g.col), reverse=True):
            if link.line > len(starts):  # not where the parser said: give up on this round
                break
            at = starts[link.line - 1] + link.col - 1
            span = link_extent(text, at, link.kind == "markdown")
            new, ghost, stub = _replacement(link, index, stub_folder)
            if span is None:
                new, end = "\\[", at + 1  # a link the patterns cannot delimit: break its opener
                span = (at, end)
            text = text[: span[0]] + new + text[span[1] :]
            if ghost and ghost not in unresolved and ghost not in found:
                found.append(ghost)
            if stub and stub not in stubs:
                stubs.append(stub)
        unresolved.extend(reversed(found))
        if stubs:
            index = file_index([*paths, *(f"{stub_folder}/{s}.md" for s in stubs)], aliases)
    else:
        if _ghosts(text, index, source):
            text = _escape_all(text)
    clean = tuple(" ".join(u.replace("[", "(").replace("]", ")").split()) for u in unresolved)
    return Settled(text, tuple(u for u in clean if u), tuple(reversed(stubs)))


def stub_text(name: str, linked_from: str, date: str) -> str:
    """A stub note's text: frontmatter saying what it is, and where it was linked from."""
    title = json.dumps(name, ensure_ascii=False)  # a JSON string is a YAML string too
    return (
        f"---\ntitle: {title}\ntype: stub\ndate: {json.dumps(date)}\ntags:\n- stub\n---\n\n"
        f"# {heading_text(name)}\n\n_A stub vaultkit created for a link in [[{linked_from}]]"
        " that named no note: write the note here, or rename it to the note it meant._\n"
    )


def write_stubs(
    wiki: Path, folder: str | None, names: Sequence[str], linked_from: str, when: datetime
) -> None:
    """Create the stub notes ``names`` in ``wiki/folder`` (an existing file is left alone)."""
    if folder is None:
        return
    for name in names:
        path = wiki / folder / f"{name}.md"
        if path.exists():
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, stub_text(name, linked_from, when.date().isoformat()))
