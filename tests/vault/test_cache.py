"""The note cache: warm loads equal cold ones, only changed files are read, damage is rebuilt."""

from __future__ import annotations

import dataclasses
import marshal
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import FIXTURES

from vaultkit.base import sqlitedb
from vaultkit.vault import cache, records, strategy, thresholds
from vaultkit.vault.load import Vault, load_vault

VAULTS = FIXTURES / "vaults"
FIXTURE_NAMES = sorted(p.name for p in VAULTS.iterdir() if (p / "vault").is_dir())
OLD_NS = 1_700_000_000 * 10**9  # a mtime long before any run: rows written for it are not racy


def _same(a: Vault, b: Vault) -> None:
    assert a.notes == b.notes
    assert a.links == b.links
    assert a.findings == b.findings
    assert a.attachments == b.attachments
    assert a.index.paths == b.index.paths
    assert a.index.same_name_notes() == b.index.same_name_notes()


def _write(root: Path, rel: str, text: str, *, old: bool = True) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if old:
        os.utime(path, ns=(OLD_NS, OLD_NS))
    return path


def _vault(root: Path) -> Path:
    _write(root, "Home.md", "---\naliases: [Start]\ntags: [hub]\n---\n# Home\n[[Plan]] [[Ghost]]\n")
    _write(
        root, "projects/Plan.md", "# Plan\n## Steps\n[[Home#Missing]] ![[pic.png]] [[../Home]]\n"
    )
    _write(root, "archive/Plan.md", "Old plan. [[Plan]] [[Start]] [[New idea]]\n")
    _write(root, "Code.md", "```\n[[Not a link]]\n```\n%% [[Hidden]] %%\n[md](projects/Plan.md)\n")
    _write(root, "Bad.md", "---\n: [unclosed\n---\nbody [[Home\n")
    (root / "Binary.md").write_bytes(b"\x00\x01\x02")
    (root / "pic.png").write_bytes(b"\x89PNG")
    return root


def _rows(root: Path) -> dict[str, tuple[int, int, int]]:
    with sqlite3.connect(cache.cache_path(root)) as conn:
        found = conn.execute("SELECT path, size, mtime_ns, racy FROM notes")
        return {r[0]: (r[1], r[2], r[3]) for r in found}


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixture_vaults_load_the_same_cold_first_and_warm(name: str, tmp_path: Path) -> None:
    root = tmp_path / name
    shutil.copytree(VAULTS / name / "vault", root, symlinks=True)
    cold = load_vault(root, cache=False)
    assert not (root / ".vaultkit").exists()
    first = load_vault(root, cache=True)
    assert cache.cache_path(root).is_file()
    _same(cold, first)
    _same(cold, load_vault(root, cache=True))


def test_warm_load_equals_cold_and_keeps_parse_findings(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    cold = load_vault(root, cache=False)
    load_vault(root, cache=True)
    warm = load_vault(root, cache=True)
    _same(cold, warm)
    codes = {f.code for f in warm.findings}
    assert {"VK201", "VK202", "VK106"} <= codes
    assert set(_rows(root)) == {n.path for n in cold.notes}


def test_an_unchanged_stat_means_the_file_is_not_read_again(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    home = load_vault(root, cache=True).note("Home.md")
    assert home is not None
    marked = records.note_record(dataclasses.replace(home, first_text="from the cache"))
    with sqlite3.connect(cache.cache_path(root)) as conn:
        conn.execute("UPDATE notes SET record = ? WHERE path = 'Home.md'", (marshal.dumps(marked),))
    warm = load_vault(root, cache=True).note("Home.md")
    assert warm is not None and warm.first_text == "from the cache"  # the row, not the file
    os.chmod(root / "Home.md", 0o600)  # the ctime moves: read and hashed again
    again = load_vault(root, cache=True).note("Home.md")
    assert again is not None and again.first_text == "from the cache"  # same digest: not parsed
    with sqlite3.connect(cache.cache_path(root)) as conn:
        query = "SELECT ctime_ns, inode FROM notes WHERE path = 'Home.md'"
        row = conn.execute(query).fetchone()
    info = (root / "Home.md").stat()
    assert tuple(row) == (info.st_ctime_ns, info.st_ino)  # the row has the new stat


def test_a_rewrite_that_keeps_size_and_mtime_is_parsed_again(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    load_vault(root, cache=True)
    same_size = "# Home\n[[Plan]] [[Other]]\n".ljust(len((root / "Home.md").read_text()), "x")
    _write(root, "Home.md", same_size)  # same size, mtime put back: the ctime tells
    assert (root / "Home.md").stat().st_mtime_ns == OLD_NS
    warm = load_vault(root, cache=True)
    home = warm.note("Home.md")
    assert home is not None and home.aliases == () and [x.target for x in home.links][-1] == "Other"
    _same(load_vault(root, cache=False), warm)


def test_a_note_replaced_by_another_file_is_read_again(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    load_vault(root, cache=True)
    text = "# Replaced\n".ljust(len((root / "Code.md").read_text()), "x")
    copy = _write(root, "copy.tmp", text)  # same size, same (old) mtime
    os.replace(copy, root / "Code.md")  # another inode (and ctime), as an editor's save does
    note = load_vault(root, cache=True).note("Code.md")
    assert note is not None and note.headings[0].text == "Replaced"


_SCHEMA_2 = (  # the notes table before ctime and inode were recorded
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE notes (path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT "
    "NULL, digest BLOB NOT NULL, racy INTEGER NOT NULL, record BLOB NOT NULL)",
    "CREATE TABLE links (path TEXT PRIMARY KEY, digest BLOB NOT NULL, resolved BLOB NOT NULL)",
    "INSERT INTO meta VALUES ('version', 'schema 2')",
    "INSERT INTO notes VALUES ('Home.md', 1, 1, X'00', 0, X'00')",
)


def test_a_cache_of_the_older_schema_is_rebuilt_with_one_log_line(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    path = cache.cache_path(root)
    path.parent.mkdir(parents=True)
    with sqlite3.connect(path) as conn:
        for statement in _SCHEMA_2:
            conn.execute(statement)
    cold = load_vault(root, cache=False)
    _same(cold, load_vault(root, cache=True))
    _same(cold, load_vault(root, cache=True))
    log = (path.parent / "vaultkit.log").read_text(encoding="utf-8")
    assert log.count("\n") == 1 and "another parser version; emptied" in log
    with sqlite3.connect(path) as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(notes)")]
    assert columns[:5] == ["path", "size", "mtime_ns", "ctime_ns", "inode"]
    assert set(_rows(root)) == {n.path for n in cold.notes}


def test_touched_but_identical_file_updates_its_row_without_a_new_record(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    load_vault(root, cache=True)
    os.utime(root / "Code.md", ns=(OLD_NS + 5, OLD_NS + 5))
    load_vault(root, cache=True)
    assert _rows(root)["Code.md"][1] == OLD_NS + 5


def test_a_racy_row_is_verified_by_hash(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    fresh = _write(root, "Fresh.md", "# One\n", old=False)  # mtime is now: the row is racy
    load_vault(root, cache=True)
    assert _rows(root)["Fresh.md"][2] == 1
    stat = fresh.stat()
    fresh.write_text("# Two\n", encoding="utf-8")  # same size, same mtime: only a hash sees it
    os.utime(fresh, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    note = load_vault(root, cache=True).note("Fresh.md")
    assert note is not None and note.headings[0].text == "Two"


def test_files_created_renamed_deleted_and_aliases_edited_resolve_like_a_cold_load(
    tmp_path: Path,
) -> None:
    root = _vault(tmp_path / "v")
    load_vault(root, cache=True)
    steps: list[Callable[[], object]] = [
        lambda: _write(root, "Ghost.md", "now real\n"),  # a ghost becomes a note
        lambda: _write(root, "deep/Home.md", "a second Home\n"),  # a bare name turns ambiguous
        lambda: (root / "projects" / "Plan.md").rename(root / "projects" / "Plan B.md"),
        lambda: (root / "archive" / "Plan.md").unlink(),
        lambda: _write(root, "New.md", "---\naliases: [New idea]\n---\nx\n"),  # alias suggestion
        lambda: _write(root, "Home.md", "---\naliases: []\n---\n# Home\n[[Start]]\n"),
        lambda: (root / "pic.png").unlink(),
        lambda: (root / "deep").rename(root / "deeper"),
    ]
    for step in steps:
        step()
        warm = load_vault(root, cache=True)
        _same(load_vault(root, cache=False), warm)
    assert warm.note("Ghost.md") is not None


def test_a_corrupt_cache_is_rebuilt_with_one_log_line(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    cold = load_vault(root, cache=False)
    path = cache.cache_path(root)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"this is not a database" * 100)
    _same(cold, load_vault(root, cache=True))
    log = (path.parent / "vaultkit.log").read_text(encoding="utf-8")
    assert log.count("rebuilt") == 1 and str(path) in log
    assert set(_rows(root)) == {n.path for n in cold.notes}
    _same(cold, load_vault(root, cache=True))


def test_a_foreign_sqlite_file_is_replaced(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    path = cache.cache_path(root)
    path.parent.mkdir(parents=True)
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (x)")
    _same(load_vault(root, cache=False), load_vault(root, cache=True))
    assert "not a vaultkit cache" in (path.parent / "vaultkit.log").read_text(encoding="utf-8")


def test_another_parser_version_empties_the_cache(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    load_vault(root, cache=True)
    path = cache.cache_path(root)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = 'older' WHERE key = 'version'")
        conn.execute("UPDATE notes SET record = X'00'")  # would be wrong if it were trusted
    _same(load_vault(root, cache=False), load_vault(root, cache=True))
    assert "another parser version" in (path.parent / "vaultkit.log").read_text(encoding="utf-8")


def test_a_damaged_record_is_parsed_again(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    load_vault(root, cache=True)
    with sqlite3.connect(cache.cache_path(root)) as conn:
        conn.execute("UPDATE notes SET record = X'DEADBEEF' WHERE path = 'Home.md'")
        conn.execute("UPDATE links SET resolved = X'00'")
    _same(load_vault(root, cache=False), load_vault(root, cache=True))


def test_cache_false_writes_nothing_and_small_vaults_stay_clean_by_default(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    load_vault(root, cache=False)
    load_vault(root)
    assert not (root / ".vaultkit").exists()
    for n in range(thresholds.TABLE.cache_min_notes):
        _write(root, f"many/n{n}.md", f"[[n{n + 1}]]\n")
    load_vault(root)
    assert cache.cache_path(root).is_file()


def test_a_store_wiki_keeps_its_cache_in_the_store_state_folder(tmp_path: Path) -> None:
    wiki = _vault(tmp_path / "sessions" / "wiki")
    (tmp_path / "sessions" / "raw").mkdir()
    load_vault(wiki, cache=True)
    assert (tmp_path / "sessions" / ".vaultkit" / cache.CACHE_NAME).is_file()
    assert not (wiki / ".vaultkit").exists()


_LOCKER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.read()
"""


def test_a_cache_locked_by_another_process_is_skipped_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _vault(tmp_path / "v")
    expected = load_vault(root, cache=False)
    load_vault(root, cache=True)  # the cache file exists
    (root / "Home.md").write_text("# Home\n[[Plan]] [[New]]\n", encoding="utf-8")
    expected = load_vault(root, cache=False)
    monkeypatch.setattr(sqlitedb, "BUSY_TIMEOUT_S", 0.2)
    locker = subprocess.Popen(
        [sys.executable, "-c", _LOCKER, str(cache.cache_path(root))],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert locker.stdout is not None and locker.stdout.readline() == "locked\n"
        _same(expected, load_vault(root, cache=True))  # BEGIN IMMEDIATE fails: nothing saved
    finally:
        locker.communicate("", timeout=30)
    log = "".join(p.read_text() for p in (root / ".vaultkit").glob("*.log"))
    assert "not updated" in log and "locked" in log
    _same(expected, load_vault(root, cache=True))  # and the next run saves it


def test_an_unwritable_state_folder_means_no_cache_not_an_error(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    (root / ".vaultkit").write_text("a file where the folder should be")
    _same(load_vault(root, cache=False), load_vault(root, cache=True))


def test_pool_and_single_process_reads_give_the_same_records(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    jobs: list[records.Job] = [(p, None) for p in ("Home.md", "Bad.md", "Binary.md", "Gone.md")]
    single = list(strategy.read_all(str(root), jobs, workers=1))
    pooled = list(strategy.read_all(str(root), jobs, workers=2))
    assert [(p.path, p.size, p.digest, p.error) for p in single] == [
        (p.path, p.size, p.digest, p.error) for p in pooled
    ]
    # marshal's bytes may differ between processes (reference flags); the values may not
    assert [_record(p) for p in single] == [_record(p) for p in pooled]
    assert [p.error is None for p in pooled] == [True, True, True, False]
    assert strategy.choose(thresholds.TABLE.pool_min_files - 1).reader != "pool"


def _record(parsed: records.Parsed) -> object:
    return None if parsed.record is None else marshal.loads(parsed.record)


_LOADER = """
import hashlib, sys
from pathlib import Path
from vaultkit.vault.load import load_vault
v = load_vault(Path(sys.argv[1]), cache=True)
print(len(v.notes), len(v.links), hashlib.sha256(repr((v.notes, v.links)).encode()).hexdigest())
"""


def test_concurrent_runs_are_safe(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    for n in range(300):
        _write(root, f"bulk/n{n}.md", f"# N{n}\n[[n{(n * 7) % 300}]] [[Home]] [[gone {n}]]\n")
    expected = subprocess.run(
        [sys.executable, "-c", _LOADER.replace("cache=True", "cache=False"), str(root)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", _LOADER, str(root)], stdout=subprocess.PIPE, text=True
        )
        for _ in range(3)
    ]
    outputs = [run.communicate(timeout=90)[0] for run in runs]
    assert [run.returncode for run in runs] == [0, 0, 0]
    assert outputs == [expected] * 3
    started = time.perf_counter()
    warm = subprocess.run(
        [sys.executable, "-c", _LOADER, str(root)], capture_output=True, text=True, check=True
    )
    assert warm.stdout == expected, time.perf_counter() - started


def test_rows_saved_in_batches_make_the_same_warm_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _vault(tmp_path / "v")
    monkeypatch.setattr(cache, "SAVE_BATCH", 2)
    cold = load_vault(root, cache=True)
    assert set(_rows(root)) == {n.path for n in cold.notes}
    _same(cold, load_vault(root, cache=True))


def test_no_pool_is_forked_beside_other_threads() -> None:
    release = threading.Event()
    thread = threading.Thread(target=release.wait)
    thread.start()
    try:
        assert strategy.choose(10 * thresholds.TABLE.pool_min_files).reader == "serial"
    finally:
        release.set()
        thread.join()
