"""The differential proof of ``vaultkit mv``: in a generated vault (same-named notes in several
folders, aliases, attachments, every link form), every link names after the move the file it
named before (the moved one at its new path), and no byte outside link targets changes."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from tempfile import TemporaryDirectory
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from vaultkit.curate.apply import move
from vaultkit.errors import VaultkitError
from vaultkit.vault.load import load_vault
from vaultkit.vault.scoped import warm
from vaultkit.vault.value import Vault

FOLDERS = ("", "a", "b", "a/c")
NAMES = ("Plan", "Other", "Note A", "Café", "x")
ATTACHMENTS = ("img.png", "doc one.pdf")
# every link form: (wikilink, embed, markdown, markdown in <>, frontmatter) x subpath, display
FORMS = (
    "[[{t}]]",
    "[[{t}#Goals|shown]]",
    "[[{t}#^blk]]",
    "![[{t}]]",
    "[text]({m})",
    "[text](<{r}>)",
    "[sec]({m}#Goals)",
    "![pic]({m})",
)
# links stripped when comparing the rest of the bytes
_LINKS = re.compile(r"!?\[\[[^\]\n]*\]\]|\]\(<[^>\n]*>[^)\n]*\)|\]\([^)\s]*\)")


def _path(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


@st.composite
def vaults(draw: st.DrawFn) -> tuple[dict[str, str], str, str]:
    """(files -> text, what to move, where to), over a vault of same-named notes."""
    spots = [(f, n) for f in FOLDERS for n in NAMES]
    chosen = draw(st.lists(st.sampled_from(spots), min_size=2, max_size=8, unique=True))
    notes = [_path(f, n) + ".md" for f, n in chosen]
    files = [*notes, *draw(st.lists(st.sampled_from(ATTACHMENTS), max_size=2, unique=True))]
    texts: dict[str, str] = {}
    for note in notes:
        lines: list[str] = []
        for _ in range(draw(st.integers(0, 6))):
            target = draw(st.sampled_from([*files, "Ghost", "Alias One"]))
            bare = target[:-3] if target.endswith(".md") else target
            style = draw(st.sampled_from(["name", "path", "relative"]))
            if style == "name":
                text = bare.rpartition("/")[2]
            elif style == "relative" and "/" not in note:
                text = "./" + bare
            else:
                text = bare
            form = draw(st.sampled_from(FORMS))
            md = text + ".md" if target.endswith(".md") else text
            lines.append("See " + form.format(t=text, m=quote(md), r=md) + " here.")
        front = ""
        if draw(st.booleans()):
            linked = draw(st.sampled_from(notes))[:-3]
            front = f'---\naliases: [Alias One]\nrelated: "[[{linked}]]"\n---\n'
        texts[note] = front + "# Title\n\n" + "\n".join(lines) + "\n\n## Goals\n\ntext ^blk\n"
    for attachment in files[len(notes) :]:
        texts[attachment] = "binary-ish\n"
    fmt = draw(st.sampled_from(["shortest", "relative", "absolute", None]))
    if fmt is not None:
        texts[".obsidian/app.json"] = f'{{"newLinkFormat": "{fmt}"}}'

    moving = draw(st.sampled_from([*files, *{n.rpartition("/")[0] for n in notes} - {""}]))
    folder = draw(st.sampled_from((*FOLDERS, "d")))
    if moving.endswith((".md", ".png", ".pdf")):
        suffix = "." + moving.rpartition(".")[2]
        name = draw(st.sampled_from((*NAMES, "Fresh"))) + suffix
        return texts, moving, _path(folder, name)
    return texts, moving, _path(folder, "moved")


def _targets(vault: Vault) -> dict[tuple[str, int], str | None]:
    """(note, link number) -> where it points."""
    out: dict[tuple[str, int], str | None] = {}
    count: dict[str, int] = {}
    for item in vault.links:
        n = count.get(item.source, 0)
        count[item.source] = n + 1
        out[(item.source, n)] = item.resolution.path
    return out


Shape = tuple[str, str, str | None, bool]


def _shape(vault: Vault) -> dict[tuple[str, int], Shape]:
    """(note, link number) -> the link's kind, subpath, display and embed flag."""
    out: dict[tuple[str, int], Shape] = {}
    count: dict[str, int] = {}
    for item in vault.links:
        n = count.get(item.source, 0)
        count[item.source] = n + 1
        link = item.link
        out[(item.source, n)] = (link.kind, link.subpath, link.display, link.embed)
    return out


def _mapping(old: str, new: str, files: list[str]) -> dict[str, str]:
    if old in files:
        return {old: new}
    return {f: new + f[len(old) :] for f in files if f.startswith(old + "/")}


def _warm(root: Path, texts: dict[str, str], edits: dict[str, str]) -> None:
    """Cache the vault (rows trusted by their stat), then append ``edits`` to some notes: the
    move reads the cache, and those notes changed since it was written."""
    past = time.time() - 3600
    for path in texts:
        os.utime(root / path, (past, past))
    load_vault(root, cache=True)
    for path, extra in edits.items():
        texts[path] += extra
        (root / path).write_bytes(texts[path].encode("utf-8"))


def _edits(data: st.DataObject, texts: dict[str, str]) -> dict[str, str]:
    notes = sorted(p for p in texts if p.endswith(".md"))
    chosen = data.draw(st.lists(st.sampled_from(notes), max_size=3, unique=True))
    names = sorted({p.rpartition("/")[2].removesuffix(".md") for p in texts} | {"Ghost"})
    return {p: f"Later [[{data.draw(st.sampled_from(names))}]].\n" for p in chosen}


@pytest.mark.slow  # about 20 s: CI runs it (.ci/run selects every mark)
@pytest.mark.parametrize("cached", [False, True], ids=["loaded", "warm-cache"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(vaults(), st.data())
def test_every_link_keeps_its_target_and_nothing_else_changes(
    cached: bool, case: tuple[dict[str, str], str, str], data: st.DataObject
) -> None:
    texts, old, new = case
    texts = dict(texts)
    with TemporaryDirectory() as tmp:
        root = Path(tmp)
        for path, text in texts.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_bytes(text.encode("utf-8"))
        if cached:
            _warm(root, texts, _edits(data, texts))
            assert warm(root) is not None  # the scoped load is the one under test
        before = load_vault(root, cache=False)
        try:
            outcome = move(root, old, new)
        except VaultkitError as exc:  # refused (a taken name, a link it cannot keep): no change
            why = next(
                w for w in ("exists already", "would break", "into itself") if w in exc.message
            )
            event("refused: " + why)
            for path, text in texts.items():
                assert (root / path).read_bytes().decode("utf-8") == text
            return
        event(f"moved, links rewritten: {min(len(outcome.rewrites), 3)}")
        moves = _mapping(old, new, list(texts))
        after = load_vault(root, cache=False)
        was, now = _targets(before), _targets(after)
        shape_was, shape_now = _shape(before), _shape(after)
        for (source, n), target in was.items():
            key = (moves.get(source, source), n)
            if target is not None:
                assert now[key] == moves.get(target, target), (source, n, target)
            assert shape_now[key] == shape_was[(source, n)]
        for path, text in texts.items():
            written = (root / moves.get(path, path)).read_bytes().decode("utf-8")
            assert _LINKS.sub("<link>", written) == _LINKS.sub("<link>", text), path
