"""The worker tells the candidate catalogue of the note it wrote: the next selection does not
list the wiki for it, and still sees what anyone else changed."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path
from unittest import mock

from vaultkit.base.config import Config, DistillConfig
from vaultkit.base.store import Store
from vaultkit.session.distill import catalogue, catalogue_update, catalogue_written, pipeline
from vaultkit.session.distill.candidates import select
from vaultkit.session.distill.catalogue import CATALOGUE, TABLES
from vaultkit.session.distill.pipeline import DistillOutcome, SessionInfo, distill_session

WHEN = datetime(2026, 11, 30, 9, 5, tzinfo=timezone(timedelta(hours=9)))
REBUILD = catalogue.rebuild


def _store(root: Path, sessions: int = 200) -> Store:
    store = Store(root / "sessions")
    (store.wiki / "concepts" / "billing").mkdir(parents=True)
    (store.wiki / "concepts" / "billing" / "Idempotency keys.md").write_text(
        "---\naliases: [dedup key]\n---\n# Idempotency keys\n", encoding="utf-8"
    )
    for n in range(sessions):
        name = f"2026-11-{1 + n % 28:02d}_{n % 24:02d}00_{n:08x}_Session number {n}.md"
        (store.wiki / name).write_text(f"# Session {n}\n\nroutine work\n", encoding="utf-8")
    return store


def _distil(
    store: Store, tmp: Path, sid: str, title: str, meanwhile: Path | None = None
) -> DistillOutcome:
    """The worker's distillation of session ``sid`` by a real subprocess backend (which
    writes the note ``meanwhile`` into the wiki, as someone else could while it runs)."""
    raw = store.raw / f"2026-11-30_0905_{sid}.jsonl"
    raw.parent.mkdir(parents=True, exist_ok=True)
    row = {"sessionId": sid, "cwd": "/w/p", "type": "user"}
    said = "The retries charge twice; use a dedup key per request."
    raw.write_text(json.dumps({**row, "message": {"role": "user", "content": said}}) + "\n")
    script = tmp / f"llm-{sid}.py"
    answer = f"@@@TITLE@@@\\n{title}\\n@@@HANDOFF@@@\\n## Done\\n- keys\\n@@@WIKI@@@\\nUses"
    script.write_text(
        textwrap.dedent(f"""
            import sys
            sys.stdin.read()
            if {str(meanwhile) if meanwhile else ""!r}:
                open({str(meanwhile)!r}, "w", encoding="utf-8").write("# Meanwhile\\n")
            print("{answer} [[Idempotency keys]] for the charge retries of {title}.")
        """),
        encoding="utf-8",
    )
    config = Config(distill=DistillConfig(backend="command", command=[sys.executable, str(script)]))
    return distill_session(store, SessionInfo(sid, raw, "p", str(tmp), None, WHEN), config)


@contextmanager
def _no_listing() -> Iterator[None]:
    """Any listing of a folder or scan of the wiki fails the test."""
    with (
        mock.patch.object(catalogue_update, "_list_folder", side_effect=AssertionError("listed")),
        mock.patch.object(catalogue, "rebuild", side_effect=AssertionError("scanned")),
    ):
        yield


def _tables(conn: sqlite3.Connection) -> dict[str, list[tuple[object, ...]]]:
    return {t: sorted(conn.execute(f"SELECT * FROM {t}"), key=repr) for t in TABLES if t != "meta"}


def _as_built(store: Store) -> None:
    """The catalogue's tables are those a scan from scratch builds."""
    fresh = sqlite3.connect(":memory:", isolation_level=None)
    fresh.executescript(catalogue._SCHEMA)
    REBUILD(fresh, store)
    with sqlite3.connect(store.state / CATALOGUE) as kept:
        assert _tables(kept) == _tables(fresh)


def _paths(store: Store, transcript: str = "x") -> list[str]:
    return [c.path for c in select(store, transcript, "", 4000)]


def _later(path: Path) -> None:
    """``path``'s mtime a second on (a coarse file-system clock could repeat one)."""
    info = os.stat(path)
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))


def test_the_note_the_worker_wrote_is_offered_without_listing_the_wiki(tmp_path: Path) -> None:
    store = _store(tmp_path)
    _paths(store)
    first = _distil(store, tmp_path, "aaaa1111-0000", "Charge retries")
    with _no_listing():
        assert _paths(store)[0] == first.wiki_path.name  # the newest note
    _as_built(store)
    again = _distil(store, tmp_path, "aaaa1111-0000", "Charge retries done twice")
    assert not first.wiki_path.exists()  # the session's earlier note replaced
    with _no_listing():
        paths = _paths(store)
    assert paths[0] == again.wiki_path.name and first.wiki_path.name not in paths
    _as_built(store)


def test_what_others_change_is_still_seen_after_the_worker_wrote(tmp_path: Path) -> None:
    store = _store(tmp_path)
    _paths(store)
    _distil(store, tmp_path, "bbbb2222-0000", "Charge retries")
    concept = store.wiki / "concepts" / "billing" / "Idempotency keys.md"
    concept.write_text("---\naliases: [replay guard]\n---\n# I\n", encoding="utf-8")
    _later(concept)  # edited in place by a human: its folder's mtime does not move
    assert _paths(store, "the replay guard")[0] == "concepts/billing/Idempotency keys.md"
    _as_built(store)
    human = store.wiki / "2026-12-01_1000_cccc3333_Written by hand.md"
    human.write_text("# By hand\n", encoding="utf-8")
    _later(store.wiki)
    assert human.name in _paths(store)
    human.unlink()
    _later(store.wiki)
    assert human.name not in _paths(store)
    _as_built(store)


def test_a_note_added_while_the_worker_ran_is_not_hidden_by_its_write(tmp_path: Path) -> None:
    store = _store(tmp_path)
    _paths(store)
    human = store.wiki / "2026-12-01_1000_dddd4444_Added meanwhile.md"
    written = _distil(store, tmp_path, "eeee5555-0000", "Charge retries", meanwhile=human)
    assert human.read_text(encoding="utf-8") == "# Meanwhile\n"  # after the prompt's selection
    paths = _paths(store)
    assert human.name in paths and written.wiki_path.name in paths
    _as_built(store)


def test_a_damaged_or_missing_catalogue_is_built_again_with_every_note(tmp_path: Path) -> None:
    store = _store(tmp_path, sessions=30)
    _paths(store)
    first = _distil(store, tmp_path, "ffff6666-0000", "Charge retries")
    (store.state / CATALOGUE).write_bytes(b"not a database" * 100)
    second = _distil(store, tmp_path, "abab7777-0000", "Refund retries")
    paths = _paths(store)
    assert {first.wiki_path.name, second.wiki_path.name} <= set(paths) and len(paths) == 31 + 2
    _as_built(store)
    (store.state / CATALOGUE).unlink()
    third = _distil(store, tmp_path, "cdcd8888-0000", "Ledger retries")
    assert {first.wiki_path.name, third.wiki_path.name} <= set(_paths(store))
    _as_built(store)


def test_a_busy_catalogue_does_not_hold_up_the_write(tmp_path: Path) -> None:
    store = _store(tmp_path, sessions=30)
    _paths(store)
    holder = sqlite3.connect(store.state / CATALOGUE, isolation_level=None)
    with mock.patch.object(catalogue_written, "LOCK_WAIT_MS", 50):
        holder.execute("BEGIN IMMEDIATE")  # another process busy with the catalogue
        try:
            # the worker's own selection would wait for it too: let it run first
            with mock.patch.object(pipeline, "select", return_value=[]):
                written = _distil(store, tmp_path, "efef9999-0000", "Charge retries")
        finally:
            holder.execute("ROLLBACK")
            holder.close()
    assert written.wiki_path.is_file()
    lister = catalogue_update._list_folder
    with mock.patch.object(catalogue_update, "_list_folder", wraps=lister) as listed:
        assert written.wiki_path.name in _paths(store)
    assert listed.called  # nothing was recorded: found by listing the root, as before
    _as_built(store)
