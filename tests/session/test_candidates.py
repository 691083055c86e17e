"""The notes a distillation prompt offers: the related ones first, from every folder, by budget."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import sys
import textwrap
from datetime import datetime, timedelta, timezone
from pathlib import Path

from vaultkit.base.config import Config, DistillConfig
from vaultkit.base.store import Store
from vaultkit.session.distill.candidates import select
from vaultkit.session.distill.catalogue import CATALOGUE
from vaultkit.session.distill.catalogue_update import catalogue
from vaultkit.session.distill.pipeline import SessionInfo, distill_session

SID = "e5f6a7b8-1111-2222-3333-444455556666"
WHEN = datetime(2026, 11, 30, 9, 5, tzinfo=timezone(timedelta(hours=9)))


def busy_store(root: Path, sessions: int = 300) -> Store:
    """300 session notes at the wiki root (newest last written) and concept notes in folders."""
    store = Store(root / "sessions")
    (store.wiki / "concepts" / "billing").mkdir(parents=True)
    (store.wiki / "decisions").mkdir()
    (store.wiki / "concepts" / "billing" / "Idempotency keys.md").write_text(
        "---\naliases: [dedup key, request key]\n---\n# Idempotency keys\n", encoding="utf-8"
    )
    (store.wiki / "concepts" / "Money as integer cents.md").write_text("# Money\n", "utf-8")
    (store.wiki / "decisions" / "ADR-001 SQLite over Postgres.md").write_text("# ADR\n", "utf-8")
    for n in range(sessions):
        name = f"2026-11-{1 + n % 28:02d}_{n % 24:02d}00_{n:08x}_Session number {n}.md"
        (store.wiki / name).write_text(f"# Session {n}\n\nroutine work\n", encoding="utf-8")
    return store


TRANSCRIPT = (
    "## User\nThe payment retries charge twice. Use an idempotency key per request.\n\n"
    "## Assistant\nAdded the dedup key column; amounts stay money as integer cents.\n"
)


def test_the_notes_a_session_is_about_come_first_with_their_aliases(tmp_path: Path) -> None:
    store = busy_store(tmp_path)
    offered = select(store, TRANSCRIPT, "", 1500)
    paths = [c.path for c in offered]
    assert paths[:2] == [
        "concepts/Money as integer cents.md",
        "concepts/billing/Idempotency keys.md",
    ]
    keys = offered[1]
    assert keys.link == "Idempotency keys" and keys.aliases == ("dedup key", "request key")
    assert keys.line() == (
        "- [[Idempotency keys]] (also written [[Idempotency keys|dedup key]],"
        " [[Idempotency keys|request key]])"
    )
    assert "decisions/ADR-001 SQLite over Postgres.md" in paths  # recent notes fill the rest
    assert sum(len(c.line()) // 4 + 1 for c in offered) <= 1500 and len(offered) < 303


def test_the_budget_is_in_tokens_and_the_own_session_is_left_out(tmp_path: Path) -> None:
    store = busy_store(tmp_path, sessions=20)
    own = "0000000a-aaaa-bbbb-cccc-dddddddddddd"
    offered = select(store, TRANSCRIPT, own, 40)
    assert sum(len(c.line()) // 4 + 1 for c in offered) <= 40
    assert offered[0].path == "concepts/Money as integer cents.md"
    everything = [c.path for c in select(store, TRANSCRIPT, own, 10_000)]
    assert len(everything) == 22 and not any("_0000000a_" in p for p in everything)


def test_aliases_are_read_again_only_when_a_note_changes(tmp_path: Path) -> None:
    store = busy_store(tmp_path, sessions=3)
    select(store, "x", "", 1500)
    saved = {e.path: e for e in catalogue(store)}
    assert saved["concepts/billing/Idempotency keys.md"].aliases == ("dedup key", "request key")
    note = store.wiki / "concepts" / "billing" / "Idempotency keys.md"
    note.write_text("---\naliases: [replay guard]\n---\n# Idempotency keys\n", encoding="utf-8")
    os.utime(note, ns=(1, 1))
    found = {c.path: c for c in select(store, "a replay guard here", "", 1500)}
    assert found["concepts/billing/Idempotency keys.md"].aliases == ("replay guard",)
    assert next(iter(found)) == "concepts/billing/Idempotency keys.md"  # written by its alias


def test_the_prompt_offers_them_to_a_real_backend(tmp_path: Path) -> None:
    store = busy_store(tmp_path / "p")
    raw = store.raw / f"2026-11-30_0905_{SID}.jsonl"
    raw.parent.mkdir(parents=True)
    row = {"sessionId": SID, "cwd": "/w/p", "type": "user"}
    lines = [{**row, "message": {"role": "user", "content": TRANSCRIPT}}]
    raw.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    script = tmp_path / "llm.py"
    script.write_text(
        textwrap.dedent(f"""
            import sys
            open({str(tmp_path / "prompt.txt")!r}, "w", encoding="utf-8").write(sys.stdin.read())
            print("@@@TITLE@@@\\nRetries\\n@@@HANDOFF@@@\\n## Done\\n- keys\\n@@@WIKI@@@\\n"
                  "Uses [[Idempotency keys|dedup key]] and [[request key]].")
        """),
        encoding="utf-8",
    )
    config = Config(distill=DistillConfig(backend="command", command=[sys.executable, str(script)]))
    info = SessionInfo(SID, raw, "p", str(tmp_path), None, WHEN)
    outcome = distill_session(store, info, config)
    prompt = (tmp_path / "prompt.txt").read_text(encoding="utf-8")
    assert "- [[Idempotency keys]] (also written [[Idempotency keys|dedup key]]" in prompt
    wiki = outcome.wiki_path.read_text(encoding="utf-8")
    assert "[[Idempotency keys|dedup key]] and [[Idempotency keys|request key]]" in wiki


def test_a_heading_or_a_rare_tag_of_a_note_brings_it_in(tmp_path: Path) -> None:
    store = busy_store(tmp_path, sessions=40)
    concepts = store.wiki / "concepts"
    (concepts / "Payments.md").write_text(
        "# Payments\n\n## Webhook signature checks\n\nverify first\n\n"
        "```\n## Not a heading in code\n```\n",
        encoding="utf-8",
    )
    (concepts / "Ledger.md").write_text(
        "---\ntags: [ledger/reconciliation]\n---\n# Ledger\n\nsee #nightly-close\n", "utf-8"
    )
    for n in range(8):  # a tag carried by many notes says nothing about one of them
        (concepts / f"Common {n}.md").write_text("# C\n\n#everywhere\n", encoding="utf-8")
    said = (
        "## User\nthe webhook signature check fails on retries; is the nightly close done?\n"
        "also everywhere\n"
    )
    paths = [c.path for c in select(store, said, "", 1500)]
    assert paths[:2] == ["concepts/Payments.md", "concepts/Ledger.md"]
    assert not any("Common" in p for p in paths[:2])
    saved = {e.path: e for e in catalogue(store)}
    assert saved["concepts/Payments.md"].extra == ("payment", "webhook signature check")
    assert "not a heading in code" not in saved["concepts/Payments.md"].extra
    assert saved["concepts/Ledger.md"].extra == ("ledger", "ledger reconciliation", "nightly close")
    reconcile = [c.path for c in select(store, "the ledger reconciliation is off", "", 1500)]
    assert reconcile[0] == "concepts/Ledger.md"  # by its name, but the hierarchical tag too


def test_an_unchanged_wiki_is_not_scanned_and_any_change_is_seen(tmp_path: Path) -> None:
    store = busy_store(tmp_path, sessions=3)
    note = "concepts/billing/Idempotency keys.md"
    select(store, "x", "", 1500)
    with sqlite3.connect(store.state / CATALOGUE) as db:  # what a scan would put right
        db.execute("UPDATE notes SET aliases = 'stale' WHERE path = ?", (note,))
    found = {c.path: c for c in select(store, "x", "", 1500)}
    assert found[note].aliases == ("stale",)  # the folders and notes did not change: not scanned
    (store.wiki / note).write_text("---\naliases: [replay guard]\n---\n# I\n", "utf-8")
    found = {c.path: c for c in select(store, "a replay guard", "", 1500)}
    assert next(iter(found)) == note and found[note].aliases == ("replay guard",)  # edited in place
    deep = store.wiki / "concepts" / "billing" / "empty"
    deep.mkdir()
    select(store, "x", "", 1500)
    (deep / "Ledger close.md").write_text("---\naliases: [books shut]\n---\n", "utf-8")
    found = {c.path: c for c in select(store, "the books shut early", "", 1500)}
    assert next(iter(found)) == "concepts/billing/empty/Ledger close.md"  # added in a new folder
    (deep / "Ledger close.md").unlink()
    assert "concepts/billing/empty/Ledger close.md" not in [
        c.path for c in select(store, "x", "", 1500)
    ]


def test_every_word_of_a_name_counts_only_when_one_of_them_is_rare(tmp_path: Path) -> None:
    store = busy_store(tmp_path, sessions=5)
    (store.wiki / "concepts" / "Ledger reconciliation.md").write_text("# L\n", "utf-8")
    for n in range(17):  # in more than BAG_DF_MAX names: a word that says little
        (store.wiki / "concepts" / f"area{n}").mkdir()
        (store.wiki / "concepts" / f"area{n}" / "Alpha beta.md").write_text("# A\n", "utf-8")
    newest = store.wiki / "concepts" / "Zeta.md"
    newest.write_text("# Z\n", "utf-8")
    os.utime(newest, ns=(4_000_000_000_000_000_000, 4_000_000_000_000_000_000))
    said = "the reconciliation of the ledger and the beta of alpha failed"
    paths = [c.path for c in select(store, said, "", 1500)]
    assert paths[0] == "concepts/Ledger reconciliation.md"  # its words apart
    assert paths[1] == "concepts/Zeta.md"  # the newest: no "Alpha beta" came in by its words


def test_a_copied_store_is_not_told_by_the_catalogue_of_the_original(tmp_path: Path) -> None:
    store = busy_store(tmp_path / "a", sessions=3)
    select(store, "x", "", 1500)
    shutil.copytree(store.root, tmp_path / "b" / "sessions")
    copy = Store(tmp_path / "b" / "sessions")
    added = "2026-12-01_1000_0badcafe_Only in the copy.md"
    (copy.wiki / added).write_text("# Copy\n", encoding="utf-8")
    assert added in [c.path for c in select(copy, "x", "", 1500)]
    assert added not in [c.path for c in select(store, "x", "", 1500)]
