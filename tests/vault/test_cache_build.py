"""A first run builds its note cache in a private file and links it into place complete: killed,
failed or beaten by another run, it never leaves a wrong cache or stray files behind."""

from __future__ import annotations

import errno
import marshal
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from vaultkit.base import sqlitedb
from vaultkit.vault import cache, records, strategy
from vaultkit.vault.load import Vault, load_vault
from vaultkit.vault.model import Note


def _vault(root: Path, notes: int = 12) -> Path:
    for n in range(notes):
        path = root / f"folder {n % 3}" / f"Note {n}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        aliases = f"---\naliases: [Nick {n}]\n---\n" if n % 4 == 0 else ""
        path.write_text(f"{aliases}# N{n}\n[[Note {(n * 5) % notes}]] [[Nick 0]] [[gone {n}]]\n")
    return root


def _same(a: Vault, b: Vault) -> None:
    assert (a.notes, a.links, a.findings, a.attachments) == (
        b.notes,
        b.links,
        b.findings,
        b.attachments,
    )


def _state(root: Path) -> set[str]:
    return {p.name for p in (root / ".vaultkit").iterdir()}


def test_a_first_run_publishes_one_complete_wal_database_and_nothing_else(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    plain = load_vault(root, cache=False)
    _same(plain, load_vault(root, cache=True))
    assert _state(root) == {".gitignore", cache.CACHE_NAME}
    with sqlite3.connect(cache.cache_path(root)) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert conn.execute("SELECT count(*) FROM notes").fetchone() == (len(plain.notes),)
        assert conn.execute("SELECT count(*) FROM links").fetchone() == (len(plain.notes),)
    conn.close()
    assert set(cache.stored_rows(cache.cache_path(root))) == {n.path for n in plain.notes}
    _same(plain, load_vault(root, cache=True))  # warm, from what the first run published
    assert _state(root) == {".gitignore", cache.CACHE_NAME}


_KILLED = """
import os, signal, sys
from pathlib import Path
from vaultkit.vault import cache, records, strategy
from vaultkit.vault.load import load_vault
cache.SAVE_BATCH = 2  # rows are in the private file when the kill comes
def progress(done, total):
    if done == total - 1:
        os.kill(os.getpid(), signal.SIGKILL)
load_vault(Path(sys.argv[1]), cache=True, progress=progress)
"""


def test_a_run_killed_while_building_leaves_no_cache_and_its_file_is_removed_later(
    tmp_path: Path,
) -> None:
    root = _vault(tmp_path / "v")
    killed = subprocess.run([sys.executable, "-c", _KILLED, str(root)], check=False)
    assert killed.returncode == -signal.SIGKILL
    left = [p for p in (root / ".vaultkit").iterdir() if p.name.endswith(".building")]
    assert len(left) == 1 and not cache.cache_path(root).exists()
    with sqlite3.connect(left[0]) as conn:  # it was written to: the kill came mid-build
        assert conn.execute("SELECT count(*) FROM notes").fetchone()[0] >= 2
    conn.close()
    recent = root / ".vaultkit" / f"{cache.CACHE_NAME}.recent.building"
    recent.write_bytes(b"")  # a build of a live run: kept
    old = 1_700_000_000
    os.utime(left[0], (old, old))
    _same(load_vault(root, cache=False), load_vault(root, cache=True))
    assert _state(root) == {".gitignore", cache.CACHE_NAME, recent.name}


def test_a_cache_another_run_published_first_is_kept_as_it_is(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    path = cache.cache_path(root)
    slow = cache.NoteCache.open(path)
    assert slow is not None and slow.building is not None and not path.exists()
    fast = load_vault(root, cache=True)  # publishes first
    inode = path.stat().st_ino
    slow.save([("x.md", cache.Row(1, 2, 3, 4, b"d", 0, b"r"))], ())
    slow.close()
    assert path.stat().st_ino == inode
    assert "x.md" not in cache.stored_rows(path)
    assert _state(root) == {".gitignore", cache.CACHE_NAME}
    _same(fast, load_vault(root, cache=True))


class _Failing:
    """A connection whose every statement fails as a damaged file does."""

    def execute(self, *_args: object) -> None:
        raise sqlite3.DatabaseError("database disk image is malformed")

    def close(self) -> None:
        return None


def test_a_build_that_breaks_publishes_nothing_and_logs_one_line(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    path = cache.cache_path(root)
    store = cache.NoteCache.open(path)
    assert store is not None and store.building is not None
    building = store.building
    store.conn.close()
    store.conn = _Failing()  # type: ignore[assignment]
    assert store.rows() == {}
    store.save([("x.md", cache.Row(1, 2, 3, 4, b"d", 0, b"r"))], ())
    store.close()
    assert not path.exists() and not building.exists()
    log = (path.parent / sqlitedb.LOG_NAME).read_text(encoding="utf-8")
    assert log.count("not written") == 1 and "malformed" in log
    _same(load_vault(root, cache=False), load_vault(root, cache=True))


def test_without_hard_links_the_build_is_copied_into_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _vault(tmp_path / "v")

    def no_links(*_args: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")  # as FAT and some shares answer

    monkeypatch.setattr(os, "link", no_links)
    plain = load_vault(root, cache=False)
    _same(plain, load_vault(root, cache=True))
    assert _state(root) == {".gitignore", cache.CACHE_NAME}
    assert set(cache.stored_rows(cache.cache_path(root))) == {n.path for n in plain.notes}
    _same(plain, load_vault(root, cache=True))


def test_a_note_parsed_in_this_process_is_kept_as_parsed_and_stored_as_its_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _vault(tmp_path / "v")
    plain = load_vault(root, cache=False)

    def no_decode(blob: bytes) -> None:
        raise AssertionError("a note parsed in this process was decoded back from its record")

    monkeypatch.setattr(cache, "decode_record", no_decode)
    _same(plain, load_vault(root, cache=True))
    monkeypatch.undo()
    rows = cache.stored_rows(cache.cache_path(root), records=True)
    for note in plain.notes:
        assert records.note_from_record(marshal.loads(rows[note.path].record)) == note
    _same(plain, load_vault(root, cache=True))  # warm: every note decoded from its record


def test_a_serial_parse_decodes_nothing_and_a_pool_decodes_every_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _vault(tmp_path / "v", 120)
    paths = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.md"))
    alone = [records.parse_here(str(root), p) for p in paths]
    decoded: list[str] = []
    from_record = records.note_from_record

    def decode(record: records.Record) -> Note:
        decoded.append(record[0])
        return from_record(record)

    monkeypatch.setattr(strategy, "note_from_record", decode)
    monkeypatch.setenv(strategy.FORCE_ENV, "serial")
    assert list(strategy.parse_all(str(root), paths)) == alone
    assert decoded == []  # kept as parsed: no record made, none decoded
    monkeypatch.setenv(strategy.FORCE_ENV, "pool")
    assert list(strategy.parse_all(str(root), paths)) == alone
    assert decoded == paths  # each note crossed from a worker as its record
