"""Link rules: ghost links and embeds (VK101/102), alias-only links (VK103), ambiguous links
(VK104) and broken heading or block anchors (VK105). A template placeholder is never a ghost."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import NamedTuple

from vaultkit.lint.codes import finding
from vaultkit.lint.context import LintContext
from vaultkit.vault.model import NOTE_SUFFIX, Finding, Link, Note
from vaultkit.vault.resolve import FileIndex, ResolvedLink, resolve_target, screened

# Formats Obsidian opens itself; a ghost with one of these suffixes is a missing attachment.
_IMAGES = ("avif", "bmp", "gif", "jpeg", "jpg", "png", "svg", "webp")
_MEDIA = ("flac", "m4a", "mp3", "ogg", "wav", "webm", "3gp", "mkv", "mov", "mp4", "ogv")
ATTACHMENT_SUFFIXES = frozenset((*_IMAGES, *_MEDIA, "pdf", "canvas", "base"))


def written(link: Link) -> str:
    """The link as a reader would type it, e.g. ``[[Plan#Goals]]``, ``![[img.png]]`` or
    ``[text](notes/plan.md)``."""
    sub = f"#{link.subpath}" if link.subpath else ""
    bang = "!" if link.embed else ""
    if link.kind == "markdown":
        return f"{bang}[{link.display or ''}]({link.target}{sub})"
    return f"{bang}[[{link.target}{sub}]]"


def _suffix(target: str) -> str:
    name = target.rstrip().rpartition("/")[2]
    return name.rpartition(".")[2].casefold() if "." in name else ""


def is_attachment_target(link: Link) -> bool:
    """True when a link names a non-note file: a known attachment suffix, or an embed with any
    suffix other than ``.md``."""
    suffix = _suffix(link.target)
    if not suffix or suffix == NOTE_SUFFIX[1:]:
        return False
    if suffix in ATTACHMENT_SUFFIXES:
        return True
    # an embed of another format; not when digits only (``![[2021.07.17]]``) or with a heading
    # or block (``![[v1.2#^id]]``): those name a note with a dot in its name
    return link.embed and suffix.isalnum() and not suffix.isdigit() and not link.subpath


def attachments_named(index: FileIndex, target: str) -> tuple[str, ...]:
    """The attachments a link written without a suffix may mean: ``pic`` for ``pic.png``
    (Obsidian resolves no such link; the file needs its suffix). Only in the link's folder
    when it names one."""
    folder, _, name = target.strip().rpartition("/")
    if not name or _suffix(name) in ATTACHMENT_SUFFIXES:
        return ()
    found = [p for s in sorted(ATTACHMENT_SUFFIXES) for p in index.files_named(f"{name}.{s}")]
    if folder:
        wanted = "/" + folder.casefold()
        found = [p for p in found if ("/" + p.rpartition("/")[0].casefold()).endswith(wanted)]
    return tuple(sorted(found, key=lambda p: (len(p), p)))


def link_name(path: str) -> str:
    """The text a bare link uses for a note path: its file name without ``.md``."""
    base = path.rpartition("/")[2]
    return base[: -len(NOTE_SUFFIX)] if base.lower().endswith(NOTE_SUFFIX) else base


def _link_text_for(index: FileIndex, source: str, path: str) -> str:
    """The shortest link text that resolves to ``path`` from ``source``, unambiguously: the bare
    name when that suffices, else the full vault path without ``.md``."""
    name = link_name(path)
    found = resolve_target(index, source, name)
    if found.path == path and not found.ambiguous:
        return name
    return path[: -len(NOTE_SUFFIX)] if path.lower().endswith(NOTE_SUFFIX) else path


def alias_fix(item: ResolvedLink, index: FileIndex, owner: str) -> str:
    """The suggested replacement for an alias-only link to ``owner``: ``[[target|Alias]]``
    (``#sub`` kept)."""
    link = item.link
    sub = f"#{link.subpath}" if link.subpath else ""
    shown = link.display if link.display else link.target.strip()
    target = _link_text_for(index, item.source, owner)
    return f"{'!' if link.embed else ''}[[{target}{sub}|{shown}]]"


def is_placeholder(target: str) -> bool:
    """True for a template placeholder rather than a note name: ``{{date}}`` (the core Templates
    plugin) or ``<% tp.date.now() %>`` (Templater), filled in when the template is used."""
    return ("{{" in target and "}}" in target) or ("<%" in target and "%>" in target)


def exact_owners(ctx: LintContext, item: ResolvedLink) -> tuple[str, ...]:
    """The notes among a ghost's alias owners whose alias is the link text exactly, letter
    case included (owners are found ignoring case, as Obsidian's alias search does; ``[[man]]``
    is no link to the note whose alias is ``MAN``)."""
    text = item.link.target
    index = ctx.vault.index
    return tuple(p for p in item.resolution.alias_of if index.has_alias_as_written(p, text))


def _ghost(item: ResolvedLink, ctx: LintContext) -> Finding:
    link = item.link
    owners = exact_owners(ctx, item) if item.resolution.alias_of else ()
    if len(owners) == 1:
        message = (
            f"{written(link)} matches no file; {link.target.strip()!r} is an alias of "
            f"{owners[0]} (aliases do not resolve links): write "
            f"{alias_fix(item, ctx.vault.index, owners[0])}"
        )
        return finding(item.source, link.line, link.col, "VK103", message)
    if owners:
        message = (
            f"{written(link)} matches no file; {link.target.strip()!r} is an alias of "
            f"{len(owners)} notes (aliases do not resolve links), so --fix leaves it: link to "
            f"one of the candidates {', '.join(owners)}"
        )
        return finding(item.source, link.line, link.col, "VK103", message)
    if is_attachment_target(link):
        message = f"{written(link)}: attachment {link.target.strip()!r} does not exist"
        return finding(item.source, link.line, link.col, "VK102", message)
    message = f"{written(link)}: no note named {link.target.strip()!r}"
    code = "VK107" if link.kind == "frontmatter" else "VK101"  # a property: often on purpose
    files = attachments_named(ctx.vault.index, link.target)
    if files:  # worded as a suggestion, so a baseline keys the finding without it
        suffix = files[0].rpartition(".")[2]
        sub = f"#{link.subpath}" if link.subpath else ""
        fixed = f"{'!' if link.embed else ''}[[{link.target.strip()}.{suffix}{sub}]]"
        also = f" (also {', '.join(files[1:])})" if len(files) > 1 else ""
        message += (
            f"; did you mean {fixed}? {files[0]} exists{also}: a link to an attachment "
            "needs its suffix"
        )
    return finding(item.source, link.line, link.col, code, message)


def _ambiguous(item: ResolvedLink) -> Finding:
    winner, *others = item.resolution.candidates
    message = (
        f"{written(item.link)} matches {len(item.resolution.candidates)} files: resolves to "
        f"{winner}; not to {', '.join(others)} (use a longer path to choose)"
    )
    return finding(item.source, item.link.line, item.link.col, "VK104", message)


def _heading_key(text: str) -> str:
    """Compare headings leniently: NFC, case-folded, only letters and digits."""
    folded = unicodedata.normalize("NFC", text).casefold()
    return "".join(filter(str.isalnum, folded))


class _Keys(NamedTuple):
    """One lint run's heading keys: each linked note's, once folded, and each heading text's
    (a vault's headings repeat: 410,000 of them, 29,000 distinct, in the big benchmark vault)."""

    notes: dict[str, frozenset[str]]
    texts: dict[str, str]

    def of(self, note: Note) -> frozenset[str]:
        found = self.notes.get(note.path)
        if found is None:
            texts = (heading.text for heading in note.headings)
            found = self.notes[note.path] = frozenset(map(self.fold, texts))
        return found

    def fold(self, text: str) -> str:
        """:func:`_heading_key` of ``text``."""
        key = self.texts.get(text)
        if key is None:
            key = self.texts[text] = _heading_key(text)
        return key


def _anchor_missing(note: Note, subpath: str, keys: _Keys) -> bool:
    """True when ``subpath`` names no block or heading of ``note``."""
    if subpath.startswith("^"):
        return subpath[1:] not in note.block_ids
    wanted = keys.fold(subpath.rpartition("#")[2])
    return wanted != "" and wanted not in keys.of(note)


def _broken_anchor(item: ResolvedLink, target: Note) -> Finding:
    kind = "block" if item.link.subpath.startswith("^") else "heading"
    message = f"{written(item.link)}: {kind} {item.link.subpath!r} not found in {target.path}"
    return finding(item.source, item.link.line, item.link.col, "VK105", message)


def link_rules(ctx: LintContext) -> Iterator[Finding]:
    """VK101-VK105 over every resolved link of the vault (a packed note's links judged once
    per distinct target and subpath, see ``resolve.screened``)."""

    keys = _Keys({}, {})

    def quiet(item: ResolvedLink) -> bool:
        return not _link_findings(item, ctx, keys)

    for item in screened(ctx.vault.links, quiet):
        found = _link_findings(item, ctx, keys)
        if found:
            yield from found


def _link_findings(item: ResolvedLink, ctx: LintContext, keys: _Keys) -> tuple[Finding, ...]:
    """One link's VK101-VK105 findings (``keys``: see :class:`_Keys`): whether there are any
    depends on its source, target, subpath and resolution alone."""
    path = item.resolution.path
    if path is None:
        return () if is_placeholder(item.link.target) else (_ghost(item, ctx),)
    found = (_ambiguous(item),) if item.resolution.ambiguous else ()
    target, subpath = ctx.vault.note(path), item.link.subpath
    if subpath and target is not None and _anchor_missing(target, subpath, keys):
        return (*found, _broken_anchor(item, target))
    return found
