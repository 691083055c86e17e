"""The benchmark suite cannot rot: the generator is seeded and realistic, the runner runs."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import baselines, generate
from benchmarks.bench_onefile import ROWS
from vaultkit.vault.load import load_vault

REPO = Path(__file__).resolve().parent.parent


def _digest(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def test_generator_is_seeded(tmp_path: Path) -> None:
    one = generate.write_vault(tmp_path / "one", 40, seed=3)
    two = generate.write_vault(tmp_path / "two", 40, seed=3)
    other = generate.write_vault(tmp_path / "other", 40, seed=4)
    assert _digest(one) == _digest(two) != _digest(other)


def test_generated_vault_has_what_the_issue_asks_for(tmp_path: Path) -> None:
    root = generate.write_vault(tmp_path / "v", 400, seed=11)
    notes = sorted(root.rglob("*.md"))
    assert len(notes) == 400
    sizes = [p.stat().st_size for p in notes]
    assert 1000 <= sorted(sizes)[len(sizes) // 2] <= 3000  # median note 1-3 KB
    texts = [p.read_text(encoding="utf-8") for p in notes]
    assert sum(t.startswith("---\n") for t in texts) > 0.7 * len(texts)  # most have frontmatter
    assert any("```" in t and "is not a link here" in t for t in texts)  # fake links in fences
    assert len({p.name for p in notes}) < len(notes)  # duplicate names in other folders
    assert len({p.parent for p in notes}) > 10  # subfolders
    vault = load_vault(root, cache=False)
    per_note = [len(n.links) for n in vault.notes]
    assert 5 <= sorted(per_note)[len(per_note) // 2] <= 15
    kinds = {item.link.kind for item in vault.links}
    assert {"wikilink", "embed", "markdown"} <= kinds
    assert any(item.resolution.ghost for item in vault.links)
    assert any(item.resolution.alias_of for item in vault.links)
    assert any(item.link.subpath for item in vault.links)
    assert any(item.link.display for item in vault.links if item.link.kind == "wikilink")
    assert vault.attachments


def test_ensure_vault_reuses_a_complete_vault(tmp_path: Path) -> None:
    first = generate.ensure_vault(30, seed=5, root=tmp_path)
    marker = first / generate.COMPLETE_MARK
    stamp = marker.stat().st_mtime_ns
    assert generate.ensure_vault(30, seed=5, root=tmp_path) == first
    assert marker.stat().st_mtime_ns == stamp


def test_baselines_do_the_work(tmp_path: Path) -> None:
    root = generate.write_vault(tmp_path / "v", 50, seed=2)
    (root / ".obsidian").mkdir()
    (root / ".obsidian" / "app.json").write_text("{}")
    files = [p for p in root.rglob("*") if p.is_file() and ".obsidian" not in p.parts]
    assert baselines.stat_walk(root) == len([f for f in files if not f.name.startswith(".")]) + 1
    assert baselines.regex_graph(root).number_of_edges() > 200


@pytest.mark.slow
def test_quick_run_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    env = {**os.environ, "VAULTKIT_BENCH_DIR": str(tmp_path / "vaults")}
    argv = [sys.executable, "-m", "benchmarks", "--quick", "--runs", "1", "--sizes", "220"]
    argv += ["--skip-obsidiantools", "--skip-real-vault", "--skip-scripts", "--json", str(out)]
    done = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "ratio warm lint / bare stat walk" in done.stdout
    results = json.loads(out.read_text(encoding="utf-8"))
    vault = results["vaults"]["220"]
    cold = vault["cold"]["series"]
    assert cold["vk-cold"]["count"] > 1000 and cold["regex"]["count"] > 1000
    assert cold["walk"]["count"] > 220
    warm = vault["warm"]["series"]
    assert warm["vk-lint"]["runs"] == 1 and warm["vk-lint"]["count"] > 0
    assert warm["cli-lint"]["runs"] == 1 and warm["cli-lint"]["median_cpu_s"] > 0
    assert "warm `vaultkit lint`, whole process" in done.stdout
    assert cold["cli-graph"]["median_s"] > 0
    assert {r["label"] for r in vault["warm"]["ratios"]} == {
        "warm lint / bare stat walk",
        "one note edited, lint / warm lint",
    }
    name = f"syn-220-s7-g{generate.GENERATOR_VERSION}"
    assert (tmp_path / "vaults" / name / ".vaultkit" / "cache.sqlite").is_file()


@pytest.mark.slow
def test_real_vault_option(tmp_path: Path) -> None:
    vault = generate.write_vault(tmp_path / "real", 25, seed=9)
    out = tmp_path / "results.json"
    argv = [sys.executable, "-m", "benchmarks", "--runs", "1", "--sizes", "", "--skip-scripts"]
    argv += ["--real-vault", str(vault), "--json", str(out)]
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"== real vault: {vault} (25 notes)" in done.stdout
    results = json.loads(out.read_text(encoding="utf-8"))
    assert results["vaults"] == {}
    real = results["real_vaults"][str(vault)]
    assert real["notes"] == 25
    assert real["series"]["vk-cold"]["count"] == real["graphs"]["vk-cold"]["edges"] > 100
    assert real["graphs"]["vk-cold"]["notes"] == 25
    otools = "obsidiantools" in real["series"]
    assert otools == ("obsidiantools" in real["graphs"])
    if otools:
        assert real["graphs"]["obsidiantools"]["notes"] == 25
    assert not (vault / ".vaultkit").exists()  # a cold build leaves no cache behind
    missing = subprocess.run(
        [*argv[:-4], "--real-vault", str(tmp_path / "nowhere")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert missing.returncode == 2 and "not a folder" in missing.stderr


@pytest.mark.slow
def test_only_cli_runs_the_cli_start_up_bench_alone(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    argv = [sys.executable, "-m", "benchmarks", "--only", "cli", "--runs", "1", "--json", str(out)]
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    results = json.loads(out.read_text(encoding="utf-8"))
    assert results["vaults"] == {} and "hooks" not in results and "real_vaults" not in results
    cli = results["cli"]
    assert cli["exit_code"] in (0, 1), cli  # 1: a target missed (the machine may be busy)
    lines = cli["output"].splitlines()
    for row in ("python_c_pass", "help", "version", "lint_warm", "lint_cold"):
        assert any(ln.startswith(f"{row} ") and ln.endswith("x pass)") for ln in lines), row
    assert "in-process lint: first call" in cli["output"] and "load average" in cli["output"]


def test_real_profile_has_the_traits_of_real_vaults(tmp_path: Path) -> None:
    root = generate.write_vault(tmp_path / "r", 120, seed=11, profile="real")
    again = generate.write_vault(tmp_path / "r2", 120, seed=11, profile="real")
    assert _digest(root) == _digest(again)
    texts = "\n".join(p.read_text(encoding="utf-8") for p in root.rglob("*.md"))
    for trait in ("> [!", "\n|---", "<!--", "<details>", "\n1. ", "\n  - ", "[^1]: ", "\n$$\n"):
        assert trait in texts, trait
    assert "{{date}}" in (root / "Templates" / "Template 0.md").read_text(encoding="utf-8")
    assert any(item.link.target for item in load_vault(root, cache=False).links)


def test_big_profile_has_a_long_tail_of_big_notes(tmp_path: Path) -> None:
    root = generate.write_vault(tmp_path / "b", 300, seed=5, profile="big")
    again = generate.write_vault(tmp_path / "b2", 300, seed=5, profile="big")
    assert _digest(root) == _digest(again)
    sizes = sorted(p.stat().st_size for p in root.rglob("*.md"))
    assert sizes[len(sizes) // 2] < 7_000 < sum(sizes) // len(sizes)  # a mean above the median
    assert sizes[-1] > 50_000  # at least one pasted article or long journal
    vault = load_vault(root, cache=False)
    assert len(vault.links) > 300 * 5 and not any(f.code == "VK202" for f in vault.findings)


def test_plain_profile_writes_what_version_2_wrote(tmp_path: Path) -> None:
    root = generate.write_vault(tmp_path / "p", 40, seed=3)
    (root / generate.COMPLETE_MARK).unlink()  # its text now names the profile
    assert _digest(root) == "194f0fd6f30f27bfaa388c62529a42076b11299e962b4dc23ef3bf0cd45ee69c"


def test_the_recall_queries_cover_four_languages_in_both_forms() -> None:
    from benchmarks.recall_queries import FORMS, LANGUAGES, cases

    asked = cases()
    for form in FORMS:
        assert len([c for c in asked if c.form == form]) >= 60
    assert {c.lang for c in asked} == set(LANGUAGES)
    assert len({(c.lang, c.text) for c in asked}) == len(asked)  # no query asked twice


@pytest.mark.parametrize(
    ("name", "earlier", "least"),
    [
        ("recall_fresh", ("recall_queries", "recall_heldout"), 15),
        ("recall_fresh2", ("recall_queries", "recall_heldout", "recall_fresh"), 12),
        (
            "recall_fresh3",
            ("recall_queries", "recall_heldout", "recall_fresh", "recall_fresh2"),
            20,
        ),
        (
            "recall_fresh4",
            (
                "recall_queries",
                "recall_heldout",
                "recall_fresh",
                "recall_fresh2",
                "recall_fresh3",
            ),
            20,
        ),
    ],
)
def test_a_fresh_recall_set_asks_about_notes_no_earlier_set_names(
    name: str, earlier: tuple[str, ...], least: int
) -> None:
    import importlib

    from benchmarks.recall_queries import LANGUAGES

    fresh = importlib.import_module(f"benchmarks.{name}")
    asked = fresh.cases()
    for lang in LANGUAGES:
        assert len([c for c in asked if c.lang == lang]) >= least
    assert len({(c.lang, c.text) for c in asked}) == len(asked)
    named = set()
    for other in earlier:
        topics = importlib.import_module(f"benchmarks.{other}").TOPICS
        named |= {p for right, _ in topics for p in right}
    assert named, "the earlier sets name notes"
    assert not {p for right, _ in fresh.TOPICS for p in right} & named


@pytest.mark.slow
def test_the_recall_benchmark_runs_on_a_vault_it_is_pointed_at(tmp_path: Path) -> None:
    from conftest import require_program

    from benchmarks.recall_queries import TOPICS

    require_program("rg", "apt-get install ripgrep")
    help_vault = tmp_path / "obsidian-help"
    for n, (right, by_lang) in enumerate(TOPICS):
        note = help_vault / "en" / f"Topic {n}.md"
        note.parent.mkdir(parents=True, exist_ok=True)
        words = by_lang["en"][0]
        note.write_text(f"---\npermalink: {right[0]}\n---\n# {words}\n\nAbout {words}.\n", "utf-8")
    before = sorted(p.relative_to(help_vault) for p in help_vault.rglob("*"))
    out = tmp_path / "recall.json"
    argv = [sys.executable, "-m", "benchmarks.bench_recall", "--help-vault", str(help_vault)]
    argv += ["--langs", "en", "--runs", "1", "--json", str(out)]
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "| vaultkit | en | keywords |" in done.stdout
    scores = json.loads(out.read_text(encoding="utf-8"))["scores"]
    assert scores["vaultkit"]["en/keywords"]["queries"] == len(TOPICS)
    assert scores["vaultkit"]["en/keywords"]["p1"] > 0.5  # each note holds its keywords
    assert set(scores) == {"vaultkit", "ripgrep"}
    assert sorted(p.relative_to(help_vault) for p in help_vault.rglob("*")) == before


@pytest.mark.slow
def test_strategy_bench_runs_each_reader_on_the_same_vault(tmp_path: Path) -> None:
    out = tmp_path / "strategy.json"
    env = {**os.environ, "VAULTKIT_BENCH_DIR": str(tmp_path / "vaults")}
    argv = [sys.executable, "-m", "benchmarks.bench_strategy", "--sizes", "30", "--runs", "1"]
    argv += ["--strategies", "serial,pool", "--json", str(out)]
    done = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text(encoding="utf-8"))["real-30"]
    assert set(result) == {"serial", "pool"}
    assert all(got["wall"] > 0 and got["cpu"] > 0 and got["in"] > 0 for got in result.values())
    assert "vs serial" in done.stdout


@pytest.mark.slow
def test_onefile_bench_times_each_change_and_checks_what_it_reports(tmp_path: Path) -> None:
    out = tmp_path / "onefile.json"
    argv = [sys.executable, "-m", "benchmarks.bench_onefile", "--notes", "60", "--runs", "1"]
    done = subprocess.run(
        [*argv, "--json", str(out)], cwd=REPO, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    rows = json.loads(out.read_text(encoding="utf-8"))["rows"]["vaultkit"]
    assert set(rows) == set(ROWS)
    assert all(row["median_ms"] > 0 and row["peak_rss_mb"] > 0 for row in rows.values())
