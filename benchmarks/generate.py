"""Seeded generator of realistic synthetic Obsidian vaults for the benchmarks (stdlib only).

A vault of N notes has notes of 1-3 KB in nested subfolders, frontmatter on most notes (title,
tags, aliases, a date), 5-15 links per note (plain, aliased, heading and block links, note and
image embeds, Markdown links, links to aliases, a few ghosts), code fences and inline code that
contain fake links, ``%%comments%%``, duplicate file names in different folders, and a few
attachments. The ``real`` profile adds what real vaults are full of: HTML blocks and comments,
callouts, GFM tables, nested and ordered lists, footnotes, math and a ``Templates/`` folder of
template placeholders. The ``big`` profile is the ``real`` one with the size of a big real vault
(issue 23: 16,500 notes in 200 MB, about 12 KB a note): most notes grow to 1-40 KB of journal
entries, pasted articles and tables, a long tail to hundreds of KB and a few of 1-3 MB. The same
``(notes, seed, profile)`` always writes the same bytes (the ``plain`` profile the same bytes as
generator version 2).

Usage: ``python -m benchmarks.generate --notes 10000 [--seed 7] [--profile real] [--out DIR]``;
the issue-23 vault: ``--notes 16500 --profile big``.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

DEFAULT_SEED = 7
GENERATOR_VERSION = 3  # part of the cached vault's name: a changed generator writes anew
PROFILES = ("plain", "real", "big")  # plain: as v2; real: real vaults' traits; big: their sizes
COMPLETE_MARK = ".generated"  # a dot-file: never part of the vault, written last
_WORD_TEXT = (
    "graph cache parser index vault link note token session memory agent summary rule lint "
    "folder alias heading block embed ghost orphan query budget stream worker queue retry "
    "backend config model schema commit branch review deploy metric trace signal latency "
    "throughput buffer socket thread process kernel module package release version plan "
    "design sketch draft outline theory proof lemma example pattern refactor migrate upgrade "
    "storage sqlite journal checkpoint snapshot replica shard partition cluster node edge "
    "vertex weight path cycle tree heap stack list array map set vector matrix tensor"
)
WORDS = tuple(_WORD_TEXT.split())
UNICODE_WORDS = ("café", "naïve", "Größe", "日本語", "résumé", "Ångström", "smörgåsbord")
FOLDERS_PER_LEVEL = 6
ATTACHMENTS = 40
TEMPLATES = 5  # notes in the real profile's Templates/ folder
# The big profile's note sizes: (share of notes, fewest bytes, most bytes); the rest stay 1-3 KB.
BIG_SIZES = ((0.0006, 1_000_000, 3_000_000), (0.015, 50_000, 400_000), (0.18, 8_000, 40_000))
BIG_SMALL = (1_000, 8_000)
BIG_LINK_EVERY = 6  # a link on one filler line in this many


@dataclass(frozen=True, slots=True)
class PlannedNote:
    """One note's place and the names other notes may link by."""

    path: str
    name: str
    alias: str | None
    headings: tuple[str, ...]
    block: str


def cache_root() -> Path:
    """Where generated vaults live: ``$VAULTKIT_BENCH_DIR`` or ``/tmp/vaultkit-bench``."""
    return Path(os.environ.get("VAULTKIT_BENCH_DIR", "/tmp/vaultkit-bench"))


def _folders(rng: random.Random) -> list[str]:
    top = [f"{w.title()}s" for w in rng.sample(WORDS, FOLDERS_PER_LEVEL)]
    folders = ["", *top]
    for parent in top:
        for word in rng.sample(WORDS, 3):
            folders.append(f"{parent}/{word}")
            if rng.random() < 0.3:
                folders.append(f"{parent}/{word}/deep {rng.choice(WORDS)}")
    return folders


def _title(rng: random.Random, number: int) -> str:
    words = rng.sample(WORDS, rng.randint(2, 4))
    if rng.random() < 0.03:
        words.append(rng.choice(UNICODE_WORDS))
    return f"{' '.join(words).capitalize()} {number}"


def plan_vault(notes: int, seed: int) -> list[PlannedNote]:
    """Every note's path, name, alias and headings; about 2% of names repeat in another folder."""
    rng = random.Random(seed)
    folders = _folders(rng)
    planned: list[PlannedNote] = []
    names: list[str] = []
    used: set[str] = set()
    for number in range(notes):
        if names and rng.random() < 0.02:
            name = rng.choice(names)  # a duplicate name, somewhere else
        else:
            name = _title(rng, number)
            names.append(name)
        folder = rng.choice(folders)
        path = f"{folder}/{name}.md" if folder else f"{name}.md"
        if path.lower() in used:
            path = f"{folder}/dup {number}/{name}.md".lstrip("/")
        used.add(path.lower())
        alias = f"{rng.choice(WORDS).title()} alias {number}" if rng.random() < 0.3 else None
        headings = tuple(f"{rng.choice(WORDS).title()} {h}" for h in range(rng.randint(2, 4)))
        planned.append(PlannedNote(path, name, alias, headings, f"b{number:x}"))
    return planned


def _sentence(rng: random.Random, low: int = 8, high: int = 20) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high))).capitalize() + "."


def _link(rng: random.Random, plan: Sequence[PlannedNote], ghosts: int) -> str:
    target = rng.choice(plan)
    roll = rng.random()
    if roll < 0.03:
        return f"[[Missing {rng.choice(WORDS)} {rng.randrange(ghosts)}]]"
    if roll < 0.05 and target.alias:
        return f"[[{target.alias}]]"  # written by alias: a ghost that lint suggests fixing
    if roll < 0.15:
        return f"[[{target.name}|{rng.choice(WORDS)} {rng.choice(WORDS)}]]"
    if roll < 0.25:
        return f"[[{target.name}#{rng.choice(target.headings)}]]"
    if roll < 0.28:
        return f"[[{target.name}#^{target.block}]]"
    if roll < 0.33:
        return f"![[{target.name}]]"
    if roll < 0.38:
        return f"![[image {rng.randrange(ATTACHMENTS)}.png|200]]"
    if roll < 0.42:
        return f"[{rng.choice(WORDS)}]({target.path[:-3].replace(' ', '%20')}.md)"
    if roll < 0.47:
        return f"[[{target.path[:-3]}]]"  # full path, as Obsidian writes for duplicates
    return f"[[{target.name}]]"


def _frontmatter(rng: random.Random, note: PlannedNote, number: int) -> list[str]:
    if rng.random() < 0.15:
        return []
    tags = ", ".join(rng.sample(WORDS, rng.randint(1, 3)))
    created = f"2026-0{1 + number % 9}-1{number % 10}"
    lines = ["---", f"title: {note.name}", f"tags: [{tags}]", f"created: {created}"]
    if note.alias:
        lines.append(f"aliases: [{note.alias}]")
    return [*lines, "---", ""]


def _section(rng: random.Random, plan: Sequence[PlannedNote], links: list[str]) -> list[str]:
    kind = rng.random()
    if kind < 0.12:
        fake = rng.choice(plan).name
        return ["```python", f"# [[{fake}]] is not a link here", "x = graph[node]", "```", ""]
    if kind < 0.2:
        return [f"- {_sentence(rng, 4, 8)} {links.pop() if links else ''}" for _ in range(3)] + [""]
    if kind < 0.25:
        return [f"%% hidden [[{rng.choice(plan).name}]] %% {_sentence(rng)}", ""]
    text = " ".join(_sentence(rng, 5, 12) for _ in range(rng.randint(1, 3)))
    if links:
        text += f" See {links.pop()} and `[[code {rng.choice(WORDS)}]]` #{rng.choice(WORDS)}."
    if links and rng.random() < 0.6:
        text += f" Compare {links.pop()}."
    return [text, ""]


def _callout(rng: random.Random, links: list[str]) -> list[str]:
    kind = rng.choice(("note", "tip", "warning", "info", "example"))
    fold = rng.choice(("", "", "-", "+"))
    lines = [f"> [!{kind}]{fold} {_sentence(rng, 2, 4)[:-1]}", f"> {_sentence(rng, 6, 14)}"]
    if links:
        lines.append(f"> See {links.pop()}.")
    return [*lines, ""]


def _table(rng: random.Random, links: list[str]) -> list[str]:
    columns = rng.randint(2, 4)
    lines = ["| " + " | ".join(w.title() for w in rng.sample(WORDS, columns)) + " |"]
    lines.append("|" + "|".join(rng.choice(("---", ":--", "--:", ":-:")) for _ in range(columns)))
    lines[-1] += "|"
    for _ in range(rng.randint(2, 5)):
        cells = [" ".join(rng.sample(WORDS, rng.randint(1, 3))) for _ in range(columns)]
        if links and rng.random() < 0.5:
            cells[rng.randrange(columns)] = links.pop().replace("|", "\\|")
        lines.append("| " + " | ".join(cells) + " |")
    return [*lines, ""]


def _nested_list(rng: random.Random, links: list[str]) -> list[str]:
    ordered = rng.random() < 0.5
    lines = []
    for item in range(rng.randint(2, 4)):
        mark = f"{item + 1}." if ordered else "-"
        lines.append(f"{mark} {_sentence(rng, 3, 8)} {links.pop() if links else ''}".rstrip())
        for _ in range(rng.randint(0, 2)):
            pad = " " * (len(mark) + 1)
            lines.append(f"{pad}- {_sentence(rng, 3, 6)}")
            if rng.random() < 0.2:
                lines.append(f"{pad}  - [ ] {_sentence(rng, 2, 5)}")
    return [*lines, ""]


def _html(rng: random.Random, plan: Sequence[PlannedNote], links: list[str]) -> list[str]:
    roll = rng.random()
    if roll < 0.4:
        return [f"<!-- {_sentence(rng, 3, 6)} [[{rng.choice(plan).name}]] -->", ""]
    if roll < 0.7:
        return [
            '<div align="center">',
            f'  <img src="attachments/image {rng.randrange(ATTACHMENTS)}.png" width="300">',
            "</div>",
            "",
        ]
    body = f"{_sentence(rng, 4, 10)} {links.pop() if links else ''}".rstrip()
    return [
        "<details>",
        f"<summary>{_sentence(rng, 2, 4)}</summary>",
        "",
        body,
        "",
        "</details>",
        "",
    ]


def _footnote(rng: random.Random, plan: Sequence[PlannedNote], links: list[str]) -> list[str]:
    mark = rng.randrange(1, 4)
    text = f"{_sentence(rng)}[^{mark}] {links.pop() if links else ''}".rstrip()
    return [text, "", f"[^{mark}]: {_sentence(rng, 4, 8)}", ""]


def _math(rng: random.Random, plan: Sequence[PlannedNote], links: list[str]) -> list[str]:
    if rng.random() < 0.5:
        return ["$$", f"\\sum_{{i=1}}^{{n}} x_i = [[{rng.choice(plan).name}]]", "$$", ""]
    return [f"{_sentence(rng, 3, 6)[:-1]} $x^2 + y_{{i}}$ {_sentence(rng, 3, 6)}", ""]


Section = Callable[[random.Random, Sequence[PlannedNote], list[str]], list[str]]
# The real profile's traits and their share of a note's sections (the rest are plain ones).
TRAITS: dict[str, tuple[float, Section]] = {
    "callout": (0.12, lambda rng, plan, links: _callout(rng, links)),
    "table": (0.08, lambda rng, plan, links: _table(rng, links)),
    "nested-list": (0.10, lambda rng, plan, links: _nested_list(rng, links)),
    "html": (0.08, _html),
    "footnote": (0.05, _footnote),
    "math": (0.07, _math),
}


def _real_section(rng: random.Random, plan: Sequence[PlannedNote], links: list[str]) -> list[str]:
    roll = rng.random()
    for share, section in TRAITS.values():
        if roll < share:
            return section(rng, plan, links)
        roll -= share
    return _section(rng, plan, links)


def trait_section(trait: str) -> Section:
    """Sections for notes heavy in one trait: that trait half the time, else a plain one."""
    if trait == "plain":
        return _section
    section = TRAITS[trait][1]

    def heavy(rng: random.Random, plan: Sequence[PlannedNote], links: list[str]) -> list[str]:
        return (section if rng.random() < 0.5 else _section)(rng, plan, links)

    return heavy


def _template(rng: random.Random, number: int) -> str:
    lines = ["---", "created: {{date}}", "tags: [template]", "---", "", "# {{title}}", ""]
    lines += [f'Made <% tp.date.now("YYYY-MM-DD") %> from [[{{{{date}}}} {number}]].', ""]
    lines += ["## Links", "", "- [[<% tp.file.title %>]]", f"- {_sentence(rng)}", ""]
    return "\n".join(lines)


def note_text(
    rng: random.Random,
    plan: Sequence[PlannedNote],
    number: int,
    profile: str = "plain",
    section: Section | None = None,
) -> str:
    """The Markdown of one planned note (1-3 KB) of the ``plain`` or ``real`` profile, or
    made of ``section`` (see :func:`trait_section`)."""
    section = section or (_real_section if profile == "real" else _section)
    note = plan[number]
    links = [_link(rng, plan, len(plan) // 20 + 1) for _ in range(rng.randint(5, 15))]
    lines = _frontmatter(rng, note, number)
    lines += [f"# {note.name}", "", f"{_sentence(rng)} ^{note.block}", ""]
    size_goal = rng.randint(800, 2600)
    heading = 0
    while links or sum(len(line) + 1 for line in lines) < size_goal:
        if heading < len(note.headings) and rng.random() < 0.4:
            lines += [f"## {note.headings[heading]}", ""]
            heading += 1
        lines += section(rng, plan, links)
        if sum(len(line) + 1 for line in lines) > 2800 and not links:
            break
    lines += [f"## {h}" for h in note.headings[heading:]]
    return "\n".join(lines) + "\n"


def _big_size(rng: random.Random) -> int:
    roll = rng.random()
    for share, low, high in BIG_SIZES:
        if roll < share:
            return rng.randint(low, high)
        roll -= share
    return rng.randint(*BIG_SMALL)


def _words(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choices(WORDS, k=rng.randint(low, high)))


def _filler(rng: random.Random, plan: Sequence[PlannedNote], kind: int, index: int) -> str:
    """One block of a big note: a journal entry, a pasted article's paragraph or a table."""
    link = _link(rng, plan, len(plan) // 20 + 1) if rng.randrange(BIG_LINK_EVERY) == 0 else ""
    if kind == 0:
        day = f"20{10 + index // 365 % 15}-{1 + index // 31 % 12:02}-{1 + index % 28:02}"
        return f"### {day}\n\n- {_words(rng, 6, 18)} {link}\n- {_words(rng, 4, 12)}\n\n"
    if kind == 1:
        return f"{_words(rng, 40, 120).capitalize()}. {link}\n\n"
    cells = " | ".join(_words(rng, 1, 3) for _ in range(3))
    return f"| {cells} | {link.replace('|', chr(92) + '|')} |\n"


def big_note_text(rng: random.Random, plan: Sequence[PlannedNote], number: int) -> str:
    """A ``real`` note grown to the ``big`` profile's size with one kind of filler."""
    text = note_text(rng, plan, number, "real")
    goal = _big_size(rng)
    if len(text) >= goal:
        return text
    kind = rng.randrange(3)
    chunks = [text, "\n## Log\n\n" if kind != 2 else "\n| A | B | C | Link |\n|---|---|---|---|\n"]
    size, index = sum(len(chunk) for chunk in chunks), 0
    while size < goal:
        chunks.append(_filler(rng, plan, kind, index))
        size += len(chunks[-1])
        index += 1
    return "".join(chunks)


def _png(rng: random.Random) -> bytes:
    return b"\x89PNG\r\n\x1a\n" + rng.randbytes(200)


def write_vault(target: Path, notes: int, seed: int = DEFAULT_SEED, profile: str = "plain") -> Path:
    """Write the vault into ``target`` (replacing it); returns ``target``."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}: one of {', '.join(PROFILES)}")
    if target.exists():
        shutil.rmtree(target)
    plan = plan_vault(notes, seed)
    rng = random.Random(seed + 1)
    made: set[str] = set()
    for number, note in enumerate(plan):
        file = target / note.path
        parent = file.parent.as_posix()
        if parent not in made:
            file.parent.mkdir(parents=True, exist_ok=True)
            made.add(parent)
        if profile == "big":
            text = big_note_text(rng, plan, number)
        else:
            text = note_text(rng, plan, number, profile)
        file.write_text(text, encoding="utf-8")
    (target / "attachments").mkdir(exist_ok=True)
    for index in range(ATTACHMENTS):
        (target / "attachments" / f"image {index}.png").write_bytes(_png(rng))
    if profile in ("real", "big"):
        (target / "Templates").mkdir(exist_ok=True)
        for index in range(TEMPLATES):
            (target / "Templates" / f"Template {index}.md").write_text(_template(rng, index))
    (target / COMPLETE_MARK).write_text(f"{notes} {seed} {profile}\n")
    return target


def vault_name(notes: int, seed: int = DEFAULT_SEED, profile: str = "plain") -> str:
    """The cached vault's folder name: ``syn-…`` (plain) or ``real-…``, with the version."""
    prefix = "syn" if profile == "plain" else profile
    return f"{prefix}-{notes}-s{seed}-g{GENERATOR_VERSION}"


def ensure_vault(
    notes: int, seed: int = DEFAULT_SEED, root: Path | None = None, profile: str = "plain"
) -> Path:
    """The cached vault for ``(notes, seed, profile)``, generated on first use."""
    target = (root or cache_root()) / vault_name(notes, seed, profile)
    mark = target / COMPLETE_MARK
    if mark.is_file() and mark.read_text() == f"{notes} {seed} {profile}\n":
        return target
    return write_vault(target, notes, seed, profile)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--profile", choices=PROFILES, default="plain")
    parser.add_argument("--out", type=Path, default=None, help="folder (default: the cache)")
    args = parser.parse_args(argv)
    if args.out is not None:
        path = write_vault(args.out, args.notes, args.seed, args.profile)
    else:
        path = ensure_vault(args.notes, args.seed, profile=args.profile)
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
