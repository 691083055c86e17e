"""``read_problem``: what may be read through a store, on real folders and symlinks."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from vaultkit.base.store import Store, may_read, read_problem, store_of_wiki
from vaultkit.base.storelinks import linked_store, refused_links
from vaultkit.vault.load import list_vault_files


def _store(tmp_path: Path) -> Store:
    top = tmp_path / "proj" / "sessions"
    for part in ("wiki", "summary", "raw", "logs", ".vaultkit", "transcripts"):
        (top / part).mkdir(parents=True)
    (top / "wiki" / "Plain.md").write_text("plain\n")
    (top / "summary" / "S.md").write_text("s\n")
    (top / "raw" / "r.jsonl").write_text("{}\n")
    (top / ".vaultkit" / "vaultkit.log").write_text("log\n")
    (top / "logs" / "a.log").write_text("log\n")
    (tmp_path / "secret.md").write_text("secret\n")
    return Store(top)


def test_plain_files_and_links_inside_the_shared_folders_may_be_read(tmp_path: Path) -> None:
    store = _store(tmp_path)
    wiki = store.wiki
    (wiki / "alias.md").symlink_to("../summary/S.md")
    assert read_problem(store, wiki / "Plain.md") == ""
    assert may_read(store, wiki / "alias.md")
    assert may_read(store, wiki / "missing.md")  # not there: nothing to refuse, reading fails


def test_links_out_of_the_store_and_into_its_private_parts_are_refused(tmp_path: Path) -> None:
    store = _store(tmp_path)
    wiki = store.wiki
    (wiki / "out.md").symlink_to(tmp_path / "secret.md")
    (wiki / "raw.md").symlink_to("../raw/r.jsonl")
    (wiki / "log.md").symlink_to("../.vaultkit/vaultkit.log")
    (wiki / "act.md").symlink_to("../logs/a.log")
    (wiki / "dir").symlink_to(tmp_path, target_is_directory=True)
    out = read_problem(store, wiki / "out.md")
    assert out == f"links outside the store, to {os.path.realpath(tmp_path / 'secret.md')}"
    assert "private raw/" in read_problem(store, wiki / "raw.md")
    assert "private .vaultkit/" in read_problem(store, wiki / "log.md")
    assert "private logs/" in read_problem(store, wiki / "act.md")
    assert "outside the store" in read_problem(store, wiki / "dir" / "secret.md")
    # ``..`` in a name is resolved before the rule is applied
    assert "outside the store" in read_problem(store, wiki / ".." / ".." / ".." / "secret.md")
    assert "private raw/" in read_problem(store, wiki / ".." / "raw" / "r.jsonl")
    assert len(refused_links(store)) == 5
    assert list_vault_files(wiki) == ["Plain.md"]


def test_a_wiki_folder_that_is_itself_a_link_out_is_not_read(tmp_path: Path) -> None:
    store = _store(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "Stolen.md").write_text("x\n")
    (store.wiki / "Plain.md").unlink()
    store.wiki.rmdir()
    store.wiki.symlink_to(elsewhere, target_is_directory=True)
    assert "outside the store" in read_problem(store, store.wiki / "Stolen.md")
    assert store_of_wiki(store.wiki) == store
    assert list_vault_files(store.wiki) == []
    assert [r.path for r in refused_links(store)] == ["sessions/wiki"]
    assert refused_links(store)[0].fix == f"rm -- {store.wiki}"


def test_any_other_vault_follows_links_as_obsidian_does(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "Shared.md").write_text("x\n")
    (vault / "link").symlink_to(tmp_path / "outside", target_is_directory=True)
    assert store_of_wiki(vault) is None
    assert list_vault_files(vault) == ["link/Shared.md"]


def test_a_committed_sessions_link_out_of_the_project_is_named(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "summary").mkdir(parents=True)
    project = tmp_path / "proj"
    project.mkdir()
    (project / "sessions").symlink_to(elsewhere, target_is_directory=True)
    store = Store(project / "sessions")
    found = linked_store(store)
    assert found is not None and found[1] is False  # not in git: the user's own link, maybe
    assert found[0].fix == f"rm -- {store.top}"
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-C", str(project)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "sessions"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "link"], check=True)
    link, tracked = linked_store(store) or (None, False)
    assert tracked and link is not None
    assert link.fix == f"git -C {project} rm -- sessions"
    assert link.reason.startswith(f"is a link out of the project, to {elsewhere.resolve()}")
    (project / "sessions").unlink()
    (project / "sessions").mkdir()
    assert linked_store(store) is None


def test_the_link_candidates_offered_to_the_llm_come_from_the_store_only(tmp_path: Path) -> None:
    from vaultkit.session.distill.catalogue_update import catalogue

    store = _store(tmp_path)
    outside = tmp_path / "home"
    outside.mkdir()
    (outside / "Secret plan.md").write_text("---\naliases: [LEAKED-ALIAS]\n---\nx\n")
    (store.wiki / "home").symlink_to(outside, target_is_directory=True)
    (store.wiki / "Passwd.md").symlink_to(tmp_path / "secret.md")
    paths = sorted(e.path for e in catalogue(store))
    assert paths == ["Plain.md"]
