"""The candidates catalogue updated note by note holds what a scan from scratch would build."""

from __future__ import annotations

import itertools
import os
import sqlite3
import tempfile
from pathlib import Path
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vaultkit.base.store import Store
from vaultkit.session.distill import catalogue, catalogue_update
from vaultkit.session.distill.candidates import select
from vaultkit.session.distill.catalogue import TABLES
from vaultkit.session.distill.catalogue_update import open_catalogue

FOLDERS = ("", "concepts", "concepts/billing", "decisions", "deep/er/still")
WORDS = ("ledger", "cache", "keys", "retry", "queue", "Ledger")
HEADINGS = ("Overview", "Retry budget", "Cache keys", "Notes on ledger")
REBUILD = catalogue.rebuild  # the scan from scratch, kept apart from the mock below


def _text(aliases: list[str], headings: list[str], tag: str | None) -> str:
    front = f"---\naliases: [{', '.join(aliases)}]\n---\n" if aliases else ""
    body = "".join(f"## {h}\n\nbody\n\n" for h in headings)
    return f"{front}# Title\n\n{body}{'#' + tag if tag else ''}\n"


names = st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join)
texts = st.builds(
    _text,
    st.lists(st.sampled_from(("CK", "retry keys", "the queue")), max_size=2, unique=True),
    st.lists(st.sampled_from(HEADINGS), max_size=3, unique=True),
    st.sampled_from((None, "cache", "ledger/close")),
)
# (kind, which note or folder, a name, a text, a session note or not)
steps = st.lists(
    st.tuples(
        st.sampled_from(("add", "add", "edit", "remove", "rename")),
        st.integers(0, 10_000),
        names,
        texts,
        st.booleans(),
    ),
    min_size=1,
    max_size=4,
)


class Clock:
    """Modification times that always move on (a coarse file-system clock could repeat one)."""

    def __init__(self) -> None:
        self.ticks = itertools.count(1_900_000_000_000_000_000, 1_000_003)

    def touch(self, *paths: Path) -> None:
        for path in paths:
            now = next(self.ticks)
            os.utime(path, ns=(now, now))


def _notes(wiki: Path) -> list[Path]:
    return sorted(p for p in wiki.rglob("*.md") if p.name != "INDEX.md")


def _target(wiki: Path, pick: int, name: str, session: bool) -> Path:
    if session:
        return wiki / f"2026-11-{1 + pick % 28:02d}_0900_{pick:08x}_{name}.md"
    return wiki / FOLDERS[pick % len(FOLDERS)] / f"{name}.md"


def _put(clock: Clock, path: Path, text: str) -> None:
    made = [p for p in path.parents if not p.exists()]
    path.parent.mkdir(parents=True, exist_ok=True)
    spare = path.with_name(".put.tmp")  # replaced, as vaultkit writes: a new inode
    spare.write_text(text, encoding="utf-8")
    os.replace(spare, path)
    clock.touch(*reversed(made), path.parent, path, *(p.parent for p in made))


def _step(clock: Clock, wiki: Path, step: tuple[str, int, str, str, bool]) -> None:
    kind, pick, name, text, session = step
    notes = _notes(wiki)
    if kind == "add" or not notes:
        _put(clock, _target(wiki, pick, name, session), text)
        return
    note = notes[pick % len(notes)]
    if kind == "edit" and (session or catalogue.is_session_note(note.name)):
        _put(clock, note, text)  # a session note is watched by its folder only
    elif kind == "edit":
        note.write_text(text, encoding="utf-8")  # in place: its folder's mtime stays
        clock.touch(note)
    elif kind == "remove":
        note.unlink()
        clock.touch(note.parent)
    elif kind == "rename":
        target = _target(wiki, pick // 7, name, session)
        if not target.exists():
            made = [p for p in target.parents if not p.exists()]
            target.parent.mkdir(parents=True, exist_ok=True)
            note.rename(target)
            clock.touch(*reversed(made), note.parent, target.parent, *(p.parent for p in made))


def _tables(conn: sqlite3.Connection) -> dict[str, list[tuple[object, ...]]]:
    return {t: sorted(conn.execute(f"SELECT * FROM {t}"), key=repr) for t in TABLES}


def _from_scratch(store: Store) -> dict[str, list[tuple[object, ...]]]:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.executescript(catalogue._SCHEMA)
    REBUILD(conn, store)
    return _tables(conn)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(steps, min_size=1, max_size=8), st.lists(names, min_size=1, max_size=6))
def test_the_updated_catalogue_equals_one_built_from_scratch(
    rounds: list[list[tuple[str, int, str, str, bool]]], start: list[str]
) -> None:
    with (
        tempfile.TemporaryDirectory() as root,
        mock.patch.object(catalogue, "SHARED_MAX", 2),
        mock.patch.object(catalogue, "BAG_DF_MAX", 3),
    ):
        store = Store(Path(root) / "sessions")
        clock = Clock()
        for n, name in enumerate(start):
            _put(clock, _target(store.wiki, n, name, n % 2 == 0), _text([], ["Overview"], None))
        open_catalogue(store).close()
        with mock.patch.object(catalogue, "rebuild", side_effect=AssertionError("rebuilt")):
            for steps_of_round in rounds:
                for step in steps_of_round:
                    _step(clock, store.wiki, step)
                conn = open_catalogue(store)  # updated note by note, never built again
                updated = _tables(conn)
                conn.close()
                assert updated == _from_scratch(store)
        said = " ".join(WORDS + HEADINGS + ("CK", "retry keys", "the queue"))
        assert [c.path for c in select(store, said, "", 5000)] == [
            p.relative_to(store.wiki).as_posix() for p in _sorted_offers(store, said)
        ]


def _sorted_offers(store: Store, said: str) -> list[Path]:
    """What a selection offers from a catalogue built from scratch."""
    (store.state / catalogue.CATALOGUE).unlink()
    return [store.wiki / c.path for c in select(store, said, "", 5000)]


def test_a_stamp_of_another_place_or_version_means_a_scan_from_scratch(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    (store.wiki / "concepts").mkdir(parents=True)
    (store.wiki / "concepts" / "Ledger close.md").write_text("# L\n", encoding="utf-8")
    open_catalogue(store).close()
    with sqlite3.connect(store.state / catalogue.CATALOGUE) as db:
        db.execute("UPDATE meta SET v = '{\"folders\": [\"/elsewhere\"]}' WHERE k = 'fingerprint'")
    (store.wiki / "Ledger open.md").write_text("# L\n", encoding="utf-8")
    conn = open_catalogue(store)
    try:
        paths = sorted(row[0] for row in conn.execute("SELECT path FROM notes"))
        assert paths == ["Ledger open.md", "concepts/Ledger close.md"]
        assert not catalogue_update.update(conn, store) or _tables(conn) == _from_scratch(store)
    finally:
        conn.close()


def test_a_link_in_the_wiki_means_a_scan_every_time(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    (store.wiki / "concepts").mkdir(parents=True)
    (store.wiki / "concepts" / "Ledger close.md").write_text("# L\n", encoding="utf-8")
    (store.wiki / "linked").symlink_to(store.wiki / "concepts")
    conn = open_catalogue(store)
    try:
        assert catalogue.saved_stamp(conn) is None  # no stamp: the next selection scans
        assert catalogue_update.update(conn, store) is False  # and does not update by folders
    finally:
        conn.close()


def test_a_note_changed_during_the_update_leaves_no_stamp(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    (store.wiki / "concepts").mkdir(parents=True)
    note = store.wiki / "concepts" / "Ledger close.md"
    note.write_text("# L\n", encoding="utf-8")
    open_catalogue(store).close()
    read = catalogue.read_facts

    def edited_while_read(path: Path) -> tuple[tuple[str, ...], tuple[str, ...]]:
        facts = read(path)
        path.write_text("# L\n\n## Changed meanwhile\n", encoding="utf-8")
        os.utime(path, ns=(3, 3))
        return facts

    (store.wiki / "concepts" / "Ledger open.md").write_text("# L\n", encoding="utf-8")
    with (
        mock.patch.object(catalogue, "read_facts", side_effect=edited_while_read),
    ):
        conn = open_catalogue(store)
    try:
        assert catalogue.saved_stamp(conn) is None  # so the next selection looks again
        assert catalogue_update.update(conn, store) is False
    finally:
        conn.close()
    conn = open_catalogue(store)
    try:
        assert _tables(conn) == _from_scratch(store)
        facts = dict(conn.execute("SELECT path, facts FROM notes"))
        assert "changed meanwhile" in facts["concepts/Ledger open.md"]
    finally:
        conn.close()


def test_many_changes_at_once_build_the_tables_again(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    (store.wiki / "concepts").mkdir(parents=True)
    (store.wiki / "concepts" / "Ledger close.md").write_text("# L\n", encoding="utf-8")
    open_catalogue(store).close()
    for n in range(4):
        (store.wiki / "concepts" / f"Ledger {n}.md").write_text("# L\n", encoding="utf-8")
    with mock.patch.object(catalogue, "CHANGES_MAX", 3):
        conn = open_catalogue(store)
        try:
            assert catalogue_update.update(conn, store) is True  # nothing changed since
            assert len(_tables(conn)["notes"]) == 5 and _tables(conn) == _from_scratch(store)
        finally:
            conn.close()
