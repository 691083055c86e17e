"""A very long note is planned window by window (bounded memory) and parses exactly as in one
piece; a 50 MB note lints in a real process within seconds and a bounded RSS."""

from __future__ import annotations

import random
import resource
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from benchmarks.bench_bignote import PEAK, write_note
from vaultkit.vault import fastparse, parse, thresholds
from vaultkit.vault.bulkscan import BulkLinks, scan_bulk
from vaultkit.vault.model import PackedLinks
from vaultkit.vault.parse import parse_note, parse_note_with

BLOCKS = (
    "# Heading {n} [[Head {n}]]\n",
    "A paragraph with [[Note {n}]] and [md](Other%20{n}.md) and `[[not {n}]]`.\nIt goes on.\n",
    "- item [[List {n}]]\n  - nested [[Nested {n}]]\n- second\n",
    "1. ordered [[Ordered {n}]]\n2. two\n",
    "```\n[[In code {n}]]\n\n[[still code]]\n```\n",
    "> [!note] Callout [[Callout {n}]]\n> more\n",
    "| a | b |\n|---|---|\n| [[Cell {n}]] | x |\n",
    "Text with a block id. ^blk{n}\n",
    "Paragraph\nthat continues [[Cont {n}]]\n    indented [[Lazy {n}]]\n",
    "---\n",
    "Setext [[Setext {n}]]\n===\n",
)
# Blocks that may run on over blank lines: after the first, the body has no more cuts, so
# the rest of it is one window.
RUNNING = (
    "<div>\n[[In html {n}]]\n</div>\n",
    "%% comment [[Hidden {n}]]\n\nstill hidden %%\n",
    "$$\n[[math {n}]]\n$$\n",
)


def _note(seed: int, blocks: int) -> bytes:
    rng = random.Random(seed)
    parts = ["---\ntitle: Big\n---\n"]
    for n in range(blocks):
        kinds = BLOCKS + RUNNING if n > blocks * 2 // 3 else BLOCKS
        parts.append(rng.choice(kinds).format(n=n))
        parts.append("\n" * rng.choice((1, 1, 1, 2, 0)))
    return "".join(parts).encode()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_long_note_parses_the_same_window_by_window(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _note(seed, 3000)
    whole = parse_note("Big.md", data)  # below big_body_lines: one plan
    monkeypatch.setattr(
        thresholds, "TABLE", replace(thresholds.TABLE, big_body_lines=100, window_lines=40)
    )
    lines = data.decode().split("\n")
    windowed = fastparse.windows(lines, 3)
    assert windowed is not None and len(windowed.bounds) > 10  # many windows
    for low, high in zip(windowed.bounds, windowed.bounds[1:], strict=False):
        # the kinds a window is planned with are those of its lines, blank before them
        assert windowed.kinds[:high] == fastparse.block_kinds(lines, low, high)
        fastparse.let_go(lines, windowed.kinds, low, high)
    assert parse_note("Big.md", data) == whole
    assert len(whole.links) > 1000


# Bulk paragraphs (only simple wikilinks and embeds), with an indent, trailing spaces and tabs,
# among blocks the bulk scan must not read (a fence, a list item, prose without links, and a
# paragraph with an indented line, which the fast scanner leaves to markdown-it).
BULK = (
    "[[A {n}]] words ![[pic {n}.png]]\nand [[B {n}#h|shown]]   \n",
    "   indented [[C {n}]]\nnext [[D {n}]]\t\nlast ![[D {n}#^b|300]] \t\n",
    "x [[G {n}]]\n  lazy [[H {n}]]\n",
    "[[E]] [[E]] [[E|e]] ![[E]]\n",
    "```\n[[In code {n}]]\n```\n",
    "- item [[L {n}]]\n",
    "plain words\n",
)


def test_bulk_paragraphs_window_by_window_match_markdown_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(8)
    parts = ["---\ntitle: Big\n---\n# Big\n\nfirst [[F]]\n\n"]
    for n in range(600):
        parts.append(rng.choice(BULK).format(n=n) + "\n" * rng.choice((0, 1, 1, 2)))
    data = "".join(parts).encode()
    reference = parse_note_with("Big.md", data, fast=False)  # markdown-it, whole
    table = replace(thresholds.TABLE, big_body_lines=100, window_lines=40)
    monkeypatch.setattr(thresholds, "TABLE", table)
    scanned: list[int] = []

    def counting(lines: Sequence[str], spans: Sequence[tuple[int, int]]) -> BulkLinks:
        found = scan_bulk(lines, spans)
        scanned.append(len(found.keys))
        return found

    monkeypatch.setattr(parse, "scan_bulk", counting)
    windowed = parse_note("Big.md", data)
    assert isinstance(windowed.links, PackedLinks)
    assert windowed == reference
    assert sum(scanned) > 0.5 * len(reference.links)  # most links were read by the bulk scan
    assert sum(link.embed for link in windowed.links) > 100


def test_a_long_note_with_a_reference_definition_is_planned_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(thresholds, "TABLE", replace(thresholds.TABLE, big_body_lines=100))
    text = _note(4, 400).decode() + "\n[ref]: Target.md\n"
    assert fastparse.windows(text.split("\n"), 3) is None


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_50_mb_note_lints_in_seconds_and_bounded_memory(tmp_path: Path) -> None:
    rng = random.Random(5)
    words = ("alpha", "beta", "gamma", "delta", "notes", "about", "the", "thing", "we", "logged")
    chunks, size, i = ["# Big\n\n"], 0, 0
    while size < 50_000_000:
        line = " ".join(rng.choice(words) for _ in range(14))
        line += " see [[Other]]\n" if i % 25 == 0 else "\n"
        line += "\n" if i % 8 == 7 else ""
        chunks.append(line)
        size += len(line)
        i += 1
    (tmp_path / "Big.md").write_text("".join(chunks), encoding="utf-8")
    del chunks
    (tmp_path / "Other.md").write_text("[[Big]]\n", encoding="utf-8")
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    out = subprocess.run(
        [sys.executable, "-m", "vaultkit", "lint", "--no-cache", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert out.returncode == 0, out.stderr
    assert out.stderr.endswith("no findings in 2 notes\n")
    # Issue 23 aims at 300 MB; benchmarks/bench_bignote.py reports the figure. This bound only
    # catches a regression (a copy of the whole note per link) on any machine.
    assert max(peak_kb, before) <= 450 * 1024, f"{peak_kb / 1024:.0f} MB"


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads /proc/self/status")
@pytest.mark.timeout(300)
def test_a_link_dense_note_holds_little_more_than_its_links(tmp_path: Path) -> None:
    """10 MB with a link on every line (about 330,000 of them, each resolving): the peak stays
    near what reading the file takes (a walked window's lines let go, its links packed, the
    resolved links made on access, no marshalled copy of an uncached note): 160 MB, then 100,
    about 77 now."""
    rng = random.Random(6)
    words = ("alpha", "beta", "gamma", "delta", "notes", "about", "the", "thing", "we", "logged")
    chunks, size, i = ["# Big\n\n"], 0, 0
    while size < 10_000_000:
        line = " ".join(rng.choice(words) for _ in range(4))
        line += " [[Other]]\n" if i % 2 else " [[Big#Big]]\n"
        chunks.append(line + ("\n" if i % 8 == 7 else ""))
        size += len(chunks[-1])
        i += 1
    (tmp_path / "Big.md").write_text("".join(chunks), encoding="utf-8")
    del chunks
    (tmp_path / "Other.md").write_text("[[Big]]\n", encoding="utf-8")
    peak = tmp_path / "peak.txt"
    command = [sys.executable, "-c", PEAK, str(peak), "lint", "--no-cache", str(tmp_path)]
    out = subprocess.run(command, capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "" and out.stderr.endswith("no findings in 2 notes\n")
    peak_kb = int(peak.read_text().split()[1])
    assert peak_kb <= 95 * 1024, f"{peak_kb / 1024:.0f} MB"


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads /proc/self/status")
@pytest.mark.timeout(300)
def test_a_50_mb_note_with_a_link_on_every_line_lints_within_300_mb(tmp_path: Path) -> None:
    """Issue 11's bound on the benchmark's dense note (about 1.6 million links, each resolving):
    413 MB before its links were packed, about 265 now."""
    links = write_note(tmp_path / "vault", 50_000_000, dense=True)
    assert links > 1_500_000
    peak = tmp_path / "peak.txt"
    command = [sys.executable, "-c", PEAK, str(peak), "lint", "--no-cache", "vault"]
    out = subprocess.run(command, capture_output=True, text=True, timeout=240, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "" and out.stderr.endswith("no findings in 2 notes\n")
    peak_kb = int(peak.read_text().split()[1])
    assert peak_kb <= 300 * 1024, f"{peak_kb / 1024:.0f} MB"
