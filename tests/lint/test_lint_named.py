"""A lint of named notes reports exactly what a whole-vault lint reports for them.

The reference is the full computation with no cache (every note loaded, every rule run, every
note's suppressions read), filtered to what a run naming some notes reports: their findings and
the link findings on links elsewhere that name them or a path that is gone, found from the
loaded vault. The named run goes through the lint cache and finishes only those findings
(:mod:`vaultkit.lint.cache.named`). Fixture vaults and a generated one get seeded random small
edits, deletions and renames, with near-name hints' budget both ample and nearly spent.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, require_program

from benchmarks.generate import write_vault
from vaultkit.lint import suggest
from vaultkit.lint.cache.named import lint_named, reported
from vaultkit.lint.cache.reach import reached_links
from vaultkit.lint.cache.run import lint_vault
from vaultkit.lint.context import LintContext
from vaultkit.lint.runner import collect, finish, lint_target, read_index_text
from vaultkit.vault.load import list_vault_files, load_vault
from vaultkit.vault.model import Finding

FIXTURE_VAULTS = sorted(
    [p / "vault" for p in (FIXTURES / "vaults").iterdir() if (p / "vault").is_dir()]
    + [p / "vault" for p in (FIXTURES / "lint").iterdir() if (p / "vault").is_dir()]
)
NAMES = ("Plan", "Idea", "café", "Notes", "Draft", "Plam", "Ideas")


def expected(root: Path, only: frozenset[str], gone: frozenset[str]) -> list[Finding]:
    """What a whole-vault lint without any cache reports for ``only`` and ``gone``."""
    target = lint_target(root)
    vault = load_vault(root, cache=False)
    found = collect(LintContext(vault, target.config, read_index_text(root)))
    every = finish(target, [note.path for note in vault.notes], found)
    links = reached_links(target, only | gone, cache=False) if only | gone else set()
    wanted = reported(only, links)
    return [f for f in every if wanted(f)]


def check(
    root: Path, only: set[str], gone: set[str] | None = None, cache: bool | None = True
) -> list[Finding]:
    """The named run's findings, after checking them against :func:`expected`."""
    gone = gone or set()
    got = lint_named(lint_target(root), frozenset(only), frozenset(gone), cache=cache)
    want = expected(root, frozenset(only), frozenset(gone))
    assert got.findings == want, (sorted(only), sorted(gone))
    return got.findings


class Edits:
    """Seeded small changes of a vault; each returns the paths a commit would list."""

    def __init__(self, root: Path, rng: random.Random) -> None:
        self.root, self.rng = root, rng

    def notes(self) -> list[str]:
        return [p for p in list_vault_files(self.root) if p.endswith(".md")]

    def pick(self) -> str:
        return self.rng.choice(self.notes())

    def text(self, path: str) -> str:
        return (self.root / path).read_bytes().decode("utf-8", errors="replace")

    def link(self) -> str:
        name = self.pick().rpartition("/")[2][:-3]
        roll = self.rng.random()
        if roll < 0.3:
            return f"[[{self.rng.choice(NAMES)}]]"  # a ghost, often near an existing name
        if roll < 0.45:
            return f"[[{name}#Part]]"
        return f"[[{name}]]"

    def edit(self) -> tuple[set[str], set[str]]:
        path = self.pick()
        extra = self.rng.choice(
            [f"See {self.link()}.", "## Part", "%% vaultkit: ignore VK101 %%", "Words. ^blk1"]
        )
        (self.root / path).write_text(self.text(path) + f"\n{extra}\n", encoding="utf-8")
        return {path}, set()

    def create(self) -> tuple[set[str], set[str]]:
        path = f"{self.rng.choice(['', 'new/'])}{self.rng.choice(NAMES)} {self.rng.randrange(3)}.md"
        (self.root / path).parent.mkdir(parents=True, exist_ok=True)
        (self.root / path).write_text(f"# New\n\n## Part\n\n{self.link()}\n", encoding="utf-8")
        return {path}, set()

    def delete(self) -> tuple[set[str], set[str]]:
        path = self.pick()
        if len(self.notes()) < 4:
            return {path}, set()
        (self.root / path).unlink()
        return set(), {path}

    def rename(self) -> tuple[set[str], set[str]]:
        old = self.pick()
        new = f"{self.rng.choice(['', 'moved/'])}{self.rng.choice(NAMES)}.md"
        if (self.root / new).exists():
            return {old}, set()
        (self.root / new).parent.mkdir(parents=True, exist_ok=True)
        (self.root / old).rename(self.root / new)
        return {new}, {old}

    def alias(self) -> tuple[set[str], set[str]]:
        path = self.pick()
        head = f"---\naliases: [{self.rng.choice(NAMES)}]\n---\n"
        (self.root / path).write_text(head + self.text(path), encoding="utf-8")
        return {path}, set()

    def step(self) -> tuple[set[str], set[str]]:
        change = self.rng.choice(
            [self.edit, self.edit, self.create, self.delete, self.rename, self.alias]
        )
        only, gone = change()
        if self.rng.random() < 0.3:
            only.add(self.pick())  # and a note the change did not touch
        return only, gone


def _walk(root: Path, seed: int, steps: int, cache: bool | None = True) -> int:
    """Random small changes, each checked; the cache is brought up to date now and then (a
    named run after several changes sees them all). Returns how many findings were compared."""
    rng = random.Random(seed)
    edits = Edits(root, rng)
    lint_vault(root, cache=cache)
    compared = 0
    for _ in range(steps):
        only, gone = edits.step()
        compared += len(check(root, only, gone, cache))
        if rng.random() < 0.5:
            lint_vault(root, cache=cache)
    return compared


@pytest.mark.parametrize("cache", [True, None], ids=["cached", "small"])  # small: no cache
@pytest.mark.parametrize("budget", [suggest.MAX_COMPARISONS, 3], ids=["ample", "spent"])
@pytest.mark.parametrize("fixture", FIXTURE_VAULTS, ids=lambda p: p.parent.name)
def test_named_notes_of_fixture_vaults_after_random_edits(
    tmp_path: Path, fixture: Path, budget: int, cache: bool | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(suggest, "MAX_COMPARISONS", budget)
    root = tmp_path / "vault"
    shutil.copytree(fixture, root, symlinks=True, ignore=shutil.ignore_patterns(".vaultkit"))
    if not any(p.endswith(".md") for p in list_vault_files(root)):
        pytest.skip("no notes")
    _walk(root, seed=len(fixture.parent.name), steps=6, cache=cache)


@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow)])
@pytest.mark.parametrize("budget", [suggest.MAX_COMPARISONS, 40], ids=["ample", "spent"])
def test_named_notes_of_a_cached_vault_after_random_edits(
    tmp_path: Path, seed: int, budget: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(suggest, "MAX_COMPARISONS", budget)
    root = write_vault(tmp_path / "vault", 80, seed)
    for name in NAMES[:3]:  # ghosts that near names can answer
        (root / f"{name}s.md").write_text(f"# {name}\n\n[[{name}]] [[{name}x]]\n", "utf-8")
    assert _walk(root, seed, steps=12) > 0


def test_a_deleted_and_a_renamed_note_with_backlinks(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", 60, 5)
    (root / "Target.md").write_text("# Target\n\n## Part\n", encoding="utf-8")
    (root / "Other.md").write_text("# Other\n", encoding="utf-8")
    for i, path in enumerate(sorted(root.rglob("*.md"))[:6]):
        with path.open("a", encoding="utf-8") as handle:
            handle.write(f"\n[[Target]] [[Target#Part|t]] ![[Other]] {i}\n")
    lint_vault(root, cache=True)
    (root / "Target.md").unlink()
    found = check(root, set(), {"Target.md"})
    assert len([f for f in found if f.code == "VK101"]) == 12  # two ghosts in each of six
    lint_vault(root, cache=True)
    (root / "Other.md").rename(root / "Renamed.md")
    found = check(root, {"Renamed.md"}, {"Other.md"})
    assert {f.code for f in found} == {"VK101", "VK301"}  # six ghosts, and the note is orphaned


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def _json_findings(root: Path, *args: str) -> list[Finding]:
    done = subprocess.run(
        [sys.executable, "-m", "vaultkit", "lint", "--format", "json", *args],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode in (0, 1), done.stderr
    rows = json.loads(done.stdout)["findings"]
    keys = ("path", "line", "col", "code", "severity", "message")
    return [Finding(*(row[k] for k in keys)) for row in rows]


def test_staged_deletion_rename_and_edit_in_a_git_repository(tmp_path: Path) -> None:
    require_program("git")
    root = write_vault(tmp_path / "vault", 60, 6)
    (root / ".obsidian").mkdir()
    (root / "Gone.md").write_text("# Gone\n", encoding="utf-8")
    (root / "Moved.md").write_text("# Moved\n\n## Part\n", encoding="utf-8")
    for path in sorted(root.rglob("*.md"))[:5]:
        with path.open("a", encoding="utf-8") as handle:
            handle.write("\n[[Gone]] [[Moved#Part]] [[Gona]]\n")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "vault")
    assert _json_findings(root, ".") is not None  # warms the caches
    _git(root, "rm", "-q", "Gone.md")
    _git(root, "mv", "Moved.md", "Elsewhere.md")
    edited = sorted(root.rglob("*.md"))[7]
    edited.write_text(edited.read_text(encoding="utf-8") + "\n[[Movd]]\n", encoding="utf-8")
    _git(root, "add", str(edited))
    got = _json_findings(root, "--staged", ".")
    rel = edited.relative_to(root).as_posix()
    want = expected(
        root.resolve(), frozenset({rel, "Elsewhere.md"}), frozenset({"Gone.md", "Moved.md"})
    )
    assert got == want
    assert {f.code for f in got} >= {"VK101"}


def _full_lint(root: Path) -> list[Finding]:
    """Every finding of a whole-vault lint with no cache at all."""
    target = lint_target(root)
    vault = load_vault(root, cache=False)
    found = collect(LintContext(vault, target.config, read_index_text(root)))
    return finish(target, [note.path for note in vault.notes], found)


def _global(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.code in ("VK301", "VK303")]


def test_a_rename_and_a_deletion_that_move_duplicate_names_and_orphans(tmp_path: Path) -> None:
    """The incremental run forms VK303 groups again only for the names a change touched and
    counts VK301 again only for the notes it touched: a rename out of one duplicate-name group
    into another and a deletion that orphans its targets, each committed through git and
    linted as a pre-commit hook would (``--staged``), give the whole-vault lint's findings."""
    require_program("git")
    root = write_vault(tmp_path / "vault", 60, 8)
    for folder in ("a", "b", "c"):
        (root / folder).mkdir(exist_ok=True)
        (root / folder / "Twin.md").write_text("# Twin\n", encoding="utf-8")
    (root / "b" / "Pair.md").write_text("# Pair\n", encoding="utf-8")
    (root / "Hub.md").write_text("# Hub\n\n[[a/Twin]] [[Leaf]] [[Pair]]\n", encoding="utf-8")
    (root / "Leaf.md").write_text("# Leaf\n\n[[Hub]]\n", encoding="utf-8")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "vault")
    _json_findings(root, ".")  # the caches, current before the change
    before = _global(_full_lint(root))
    assert {f.path for f in before if f.code == "VK303"} >= {"b/Twin.md", "c/Twin.md"}
    _git(root, "mv", "c/Twin.md", "Pair.md")  # out of the Twin group, into the Pair group
    _git(root, "rm", "-q", "Hub.md")  # Leaf and a/Twin lose their only incoming link
    got = _json_findings(root, "--staged", ".")
    want = expected(root.resolve(), frozenset({"Pair.md"}), frozenset({"c/Twin.md", "Hub.md"}))
    assert got == want
    whole = lint_vault(root, cache=True)
    assert whole.how == "stored"  # what the named run's incremental pass stored, reused
    assert whole.findings == _full_lint(root)
    after = _global(whole.findings)
    orphaned = {f.path for f in after if f.code == "VK301"} - {f.path for f in before}
    assert {"Leaf.md", "a/Twin.md"} <= orphaned
    assert {f.path for f in after if f.code == "VK303"} >= {"b/Twin.md", "b/Pair.md"}
    assert "c/Twin.md" not in {f.path for f in after}
    _git(root, "mv", "Pair.md", "c/Twin.md")  # back: both groups as they were, Hub still gone
    again = lint_vault(root, cache=True)
    assert again.how == "incremental"
    assert again.findings == _full_lint(root)
    assert [f for f in _global(again.findings) if f.code == "VK303"] == [
        f for f in before if f.code == "VK303"
    ]


def test_note_names_are_the_link_names_of_the_paths() -> None:
    from vaultkit.lint.links import link_name

    paths = ["a/Plan.md", "Plan.md", "b/NOTE.MD", "x/İdea.Md", "c.md.md", "pic.png", "d/.md", "e/f"]
    assert suggest.note_names(paths) == {link_name(p) for p in paths}
    assert suggest.note_names(paths) == {"Plan", "NOTE", "İdea", "c.md", "pic.png", "", "f"}


def test_a_named_lint_through_the_caches_loads_no_openssl(tmp_path: Path) -> None:
    """The caches' blake2b is CPython's own: a deleted note's lint, with the note cache and
    the lint cache warm, never loads ``_hashlib`` (OpenSSL), and its digests are hashlib's."""
    import hashlib

    from vaultkit.base.digest import blake2b

    data = "café note\n".encode()
    assert blake2b(data, digest_size=16).digest() == hashlib.blake2b(data, digest_size=16).digest()
    root = write_vault(tmp_path / "vault", 60, 9)
    gone = sorted(p for p in list_vault_files(root) if p.endswith(".md"))[0]
    for _ in range(2):  # the first run builds both caches, the second makes them current
        subprocess.run([sys.executable, "-m", "vaultkit", "lint", "-q", str(root)], check=False)
    (root / gone).unlink()
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "vaultkit", "lint", "--files-from", "-", "."],
        cwd=root,
        input=f"{gone}\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode in (0, 1), done.stderr
    modules = {line.rpartition("|")[2].strip() for line in done.stderr.splitlines()}
    assert "vaultkit.lint.cache.named" in modules and "_sqlite3" in modules
    assert "_hashlib" not in modules and "hashlib" not in modules
