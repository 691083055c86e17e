"""The reader shared with a forked child (``splitread.split_read``): the same results as one
process, and nothing lost or left running when the child cannot start, fails, or is abandoned."""

from __future__ import annotations

import marshal
import os
import sys
from pathlib import Path

import pytest

from vaultkit.vault import records, splitread, strategy, thresholds
from vaultkit.vault.load import load_vault

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")


def _vault(root: Path, notes: int = 120) -> list[records.Job]:
    root.mkdir(parents=True, exist_ok=True)
    for n in range(notes):
        text = f"---\ntags: [t{n % 3}]\n---\n# N{n}\n[[n{(n * 7) % notes}]] [[gone {n}]]\n"
        (root / f"n{n}.md").write_text(text, encoding="utf-8")
    (root / "Binary.md").write_bytes(b"\x00\x01\x02")
    paths = sorted(p.name for p in root.iterdir())
    return [(p, None) for p in [*paths, "Missing.md"]]


def _values(results: list[records.Parsed]) -> list[object]:
    return [
        (p.path, p.size, p.digest, p.error, p.record and marshal.loads(p.record)) for p in results
    ]


def _no_children_left() -> bool:
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def test_split_read_gives_what_one_process_gives(tmp_path: Path) -> None:
    jobs = _vault(tmp_path / "v")
    single = list(strategy.read_all(str(tmp_path / "v"), jobs, workers=1))
    seen: list[tuple[int, int]] = []
    split = list(splitread.split_read(str(tmp_path / "v"), jobs, lambda d, n: seen.append((d, n))))
    assert _values(split) == _values(single)
    assert split[-1].error is not None  # Missing.md: a read error, in order, not a crash
    counts = [d for d, _ in seen]
    assert counts == sorted(counts) and counts[-1] == len(jobs)
    assert {n for _, n in seen} == {len(jobs)}
    assert _no_children_left()


def test_a_failing_child_means_this_process_reads_its_half(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    jobs = _vault(tmp_path / "v")
    expected = _values(list(strategy.read_all(str(tmp_path / "v"), jobs, workers=1)))
    parent = os.getpid()

    def chunk(root: str, part: object) -> list[records.ParsedRow]:
        if os.getpid() != parent:
            raise RuntimeError("the child breaks")
        raise AssertionError("the parent never reads a chunk's rows")

    monkeypatch.setattr(splitread, "chunk_rows", chunk)
    assert _values(list(splitread.split_read(str(tmp_path / "v"), jobs))) == expected
    assert _no_children_left()


def test_no_fork_means_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    jobs = _vault(tmp_path / "v")
    expected = _values(list(strategy.read_all(str(tmp_path / "v"), jobs, workers=1)))

    def refuse() -> int:
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refuse)
    assert _values(list(splitread.split_read(str(tmp_path / "v"), jobs))) == expected


def test_the_child_takes_a_share_of_the_chunks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    jobs = _vault(tmp_path / "v")
    taken: list[int] = []
    seen = splitread._collect

    def collect(child: splitread.Child, chunks: object) -> splitread.Taken:
        got = seen(child, chunks)  # type: ignore[arg-type]
        taken.extend(got)
        return got

    monkeypatch.setattr(splitread, "_collect", collect)
    assert len(list(splitread.split_read(str(tmp_path / "v"), jobs))) == len(jobs)
    assert taken  # the child read some chunks (all of them is possible only on a stalled parent)


def test_a_reader_stopped_early_leaves_no_child(tmp_path: Path) -> None:
    jobs = _vault(tmp_path / "v")
    reader = splitread.split_read(str(tmp_path / "v"), jobs)
    assert next(reader).path == jobs[0][0]
    reader.close()
    assert _no_children_left()


def test_mid_sized_loads_split_and_others_do_not() -> None:
    on_linux = sys.platform.startswith("linux") and strategy.cores() >= 2
    table = thresholds.TABLE

    def splits(files: int) -> bool:
        return strategy.choose(files).reader == "split"

    assert splits(table.split_min_files) is on_linux
    assert splits(table.pool_min_files - 1) is on_linux
    assert not splits(table.split_min_files - 1)
    assert not splits(table.pool_min_files)  # the pool's


def test_a_split_cold_load_equals_an_uncached_one(tmp_path: Path) -> None:
    _vault(tmp_path / "v", notes=150)
    root = tmp_path / "v"
    first = load_vault(root, cache=True)  # 151 notes: split on two cores
    plain = load_vault(root, cache=False)
    assert first.notes == plain.notes and first.links == plain.links
    assert first.findings == plain.findings
