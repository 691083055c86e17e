"""``vaultkit graph``, ``links`` and ``stats`` on the example store, as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest
from conftest import REPO

from vaultkit.cli import main

WIKI = str(REPO / "examples" / "sessions" / "wiki")
NEWEST = "2026-11-20_0915_e0c4b9f7_Currency conversion cache.md"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_stats_text_as_a_real_process() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "vaultkit", "stats", WIKI],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[:3] == ["notes: 16", "attachments: 1", lines[2]]
    assert lines[2].startswith("links: 47 (embed 1, frontmatter 2, markdown 1, wikilink")
    assert "ghosts: 2" in lines and "orphans: 1" in lines and "degraded: 1" in lines
    assert "ambiguous links: 0" in lines and "isolated: 0" in lines
    assert lines[-1].startswith("tags: ledgerline 15")


def test_stats_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "stats", WIKI, "--format", "json")
    data = json.loads(out)
    assert code == 0
    assert data["links"]["embed"] == 1 and data["links"]["total"] == 47
    assert (data["ghosts"], data["orphans"], data["degraded"], data["dead_ends"]) == (2, 1, 1, 1)
    assert next(iter(data["tags"])) == "ledgerline" and len(data["tags"]) == 5


def test_links_by_bare_name_shows_both_directions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "links", "transaction FINGERPRINT", WIKI)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "outgoing from concepts/Transaction fingerprint.md (1):"
    assert lines[1].endswith(
        "wikilink  Money as integer cents -> concepts/Money as integer cents.md"
    )
    assert lines[2] == "incoming to concepts/Transaction fingerprint.md (5):"
    assert any("#^fingerprint-def" in line for line in lines[3:])


def test_links_by_path_json_incoming_only(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "links", f"{WIKI}/{NEWEST}", WIKI, "--incoming", "-f", "json")
    data = json.loads(out)
    assert code == 0
    assert data["note"] == NEWEST and "outgoing" not in data
    assert [row["source"] for row in data["incoming"]] == ["INDEX.md"]


def test_links_outgoing_marks_ghosts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "links", "Glossary.md", WIKI, "--outgoing")
    assert code == 0
    assert "incoming" not in out
    assert any(line.endswith("Backup and restore -> (ghost)") for line in out.splitlines())


def test_unknown_note_and_alias_are_errors_with_hints(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "links", "No such thing", WIKI)
    assert code == 2
    assert err.startswith("error: No such thing: no such note in ")
    assert "hint: " in err
    code, _, err = run(capsys, "links", "Idempotency", WIKI)
    assert code == 2
    assert "alias of concepts/Idempotent imports.md" in err


def test_graph_to_file_in_every_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for fmt in ("json", "graphml", "gexf", "dot"):
        target = tmp_path / f"vault.{fmt}"
        code, out, _ = run(capsys, "graph", WIKI, "--format", fmt, "-o", str(target))
        assert (code, out) == (0, "")
        assert target.stat().st_size > 1000
    again = nx.read_graphml(tmp_path / "vault.graphml")
    assert again.number_of_edges() == 47
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "vault.dot",
        "vault.gexf",
        "vault.graphml",
        "vault.json",
    ]


def test_graph_json_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "graph", WIKI)
    data = json.loads(out)
    assert code == 0
    kinds = sorted(n["kind"] for n in data["nodes"])
    assert kinds.count("ghost") == 2 and kinds.count("attachment") == 1
    assert len(data["edges"]) == 47


def test_missing_vault_folder_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "stats", str(tmp_path / "nope"))
    assert code == 2
    assert "nope: not a folder" in err


def test_default_vault_is_the_projects_session_wiki(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".git").mkdir()
    wiki = tmp_path / "sessions" / "wiki"
    wiki.mkdir(parents=True)
    (wiki / "a.md").write_text("[[b]]", encoding="utf-8")
    (wiki / "b.md").write_text("# B", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "stats", "-f", "json")
    assert code == 0
    assert json.loads(out)["notes"] == 2


@pytest.mark.parametrize("command", ["graph", "links", "stats"])
def test_help_teaches_with_an_example(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    assert "Examples:" in out and f"vaultkit {command} " in out


def test_unwritable_output_is_an_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("not a folder", encoding="utf-8")
    code, out, err = run(capsys, "graph", WIKI, "-o", str(blocker / "vault.json"))
    assert (code, out) == (2, "")
    assert err.startswith(f"error: {blocker / 'vault.json'}: cannot write")
    assert blocker.read_text(encoding="utf-8") == "not a folder"


def test_an_ambiguous_name_says_which_note_it_shows(capsys: pytest.CaptureFixture[str]) -> None:
    folders = str(REPO / "tests" / "fixtures" / "vaults" / "folders" / "vault")
    code, out, err = run(capsys, "links", "Plan", folders, "--incoming")
    assert code == 0
    assert out.splitlines()[0] == "incoming to archive/Plan.md (1):"
    assert err == "note: 'Plan' also names projects/Plan.md; showing archive/Plan.md\n"
    code, out, err = run(capsys, "links", "projects/Plan", folders, "--incoming")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "incoming to projects/Plan.md (2):"


def test_graph_as_a_real_process_cold_then_warm_writes_the_json_and_closes_its_cache(
    tmp_path: Path,
) -> None:
    from benchmarks.generate import write_vault
    from vaultkit.vault.graph import export_vault
    from vaultkit.vault.load import load_vault

    root = write_vault(tmp_path / "v", 80, 5, profile="real")
    expected = export_vault(load_vault(root, cache=False), "json")
    for _ in ("cold", "warm"):  # the process runs without the cyclic collector
        out = subprocess.run(
            [sys.executable, "-m", "vaultkit", "graph", str(root)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert (out.returncode, out.stderr) == (0, "")
        assert out.stdout == expected
        assert sorted(p.name for p in (root / ".vaultkit").iterdir()) == [
            ".gitignore",
            "cache.sqlite",
        ]
    target = tmp_path / "out.json"
    done = subprocess.run(
        [sys.executable, "-m", "vaultkit", "graph", str(root), "-o", str(target)], timeout=60
    )
    assert done.returncode == 0 and target.read_text(encoding="utf-8") == expected
