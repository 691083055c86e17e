"""SessionStart after a pull: the runner is started to bring INDEX.md and search up to date, and
only then; the injection is composed either way and the hook never fails over it."""

from __future__ import annotations

from pathlib import Path

from hook_start_support import add_session, make_project, write_index

from vaultkit.base import pulled
from vaultkit.base.store import Store
from vaultkit.continuity.startup import compose


def _compose(project: Path, spawned: list[Store], result: object = 1) -> str:
    def spawn(store: Store) -> object:  # the real spawn is run by tests/session/test_two_clones.py
        spawned.append(store)
        return result

    payload: dict[str, object] = {"source": "startup", "cwd": str(project), "session_id": "new"}
    return compose(payload, {}, spawn=spawn)


def test_the_runner_starts_only_when_git_changed_the_shared_notes(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    mine = add_session(project, 20, "0900", "aaaa1111", "Mine")
    write_index(project, [mine])
    store = Store(project / "sessions")
    spawned: list[Store] = []
    assert mine in _compose(project, spawned)
    assert spawned == []  # never stamped: taken as it is
    pulled.record(store)
    _compose(project, spawned)
    assert spawned == []  # nothing changed since vaultkit's own writes
    theirs = add_session(project, 21, "0900", "bbbb2222", "Theirs")  # what a pull brings
    write_index(project, [theirs, mine])
    text = _compose(project, spawned)
    assert [s.root for s in spawned] == [store.root]
    assert theirs in text  # the merged INDEX.md is shown before the runner regenerates it


def test_a_runner_that_cannot_start_is_logged_and_the_text_still_comes(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    write_index(project, [add_session(project, 20, "0900", "aaaa1111", "Mine")])
    store = Store(project / "sessions")
    pulled.record(store)
    add_session(project, 21, "0900", "bbbb2222", "Theirs")
    spawned: list[Store] = []
    assert "Theirs" in _compose(project, spawned, result=None)
    assert "notes pulled, but no worker could start" in store.log.read_text(encoding="utf-8")
