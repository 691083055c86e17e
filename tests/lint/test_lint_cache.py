"""The lint cache (stored and incremental runs) always gives the full, uncached findings.

A seeded random walk of vault mutations (bodies, links, headings, block ids, aliases, notes and
attachments created/renamed/deleted, duplicate names, degraded notes, INDEX.md, vaultkit.toml,
non-UTF-8 files, same-timestamp rewrites) compares every cached run with ``collect`` over a
vault loaded without any cache, and checks that every full run had a legitimate reason: a bug
in the incremental path must fail here, never hide behind a silent full run.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType

import pytest
from conftest import REPO
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.generate import write_vault
from vaultkit.base import config as config_module
from vaultkit.base import store as store_module
from vaultkit.base.config import load_config
from vaultkit.base.store import config_file_for_vault, state_dir_for_vault
from vaultkit.cli import main
from vaultkit.errors import VaultkitError
from vaultkit.lint.cache import merge, plan, run, state
from vaultkit.lint.cache.run import LintResult, lint_cache_path, lint_vault
from vaultkit.lint.cache.walk import walk_vault
from vaultkit.lint.compact import FindingRow
from vaultkit.lint.context import LintContext
from vaultkit.lint.runner import collect, finish, lint_target, read_index_text
from vaultkit.vault.indexer import regenerate_index
from vaultkit.vault.load import list_vault_files, load_vault
from vaultkit.vault.model import Finding

WORDS = ("Plan", "Idea", "café", "Notes", "Draft", "Ghost", "Alias one", "x")
# Why a cached run may take the full path, and the mutations that may cause it (None: any).
# A damaged database is not among them: nothing in the walks below damages one.
FULL_REASONS: dict[str, frozenset[str] | None] = {
    "settings changed": frozenset({"config"}),
    "INDEX.md appeared": frozenset({"index"}),
    "too many notes to lint again": None,
    "a note to lint again cannot be read": None,
}


def truth(root: Path) -> tuple[list[Finding], int]:
    """The full computation, no cache read or written, with the vault's exclusions and
    suppressions applied."""
    vault = load_vault(root, cache=False)
    config = load_config(config_file_for_vault(root))
    found = collect(LintContext(vault, config, read_index_text(root)))
    notes = [note.path for note in vault.notes]
    return finish(lint_target(root), notes, found), len(vault.notes)


def check(root: Path) -> LintResult:
    result = lint_vault(root, cache=True)
    expected, notes = truth(root)
    if result.findings != expected:
        extra = sorted(set(result.findings) - set(expected), key=Finding.sort_key)
        missing = sorted(set(expected) - set(result.findings), key=Finding.sort_key)
        raise AssertionError(f"{result.how}: extra {extra[:5]} missing {missing[:5]}")
    assert result.notes == notes
    return result


def check_after(root: Path, mutation: str) -> LintResult:
    """``check``, and a full run only for a reason ``mutation`` can cause."""
    result = check(root)
    if result.how == "full":
        assert result.why in FULL_REASONS, f"after {mutation}: full run because {result.why}"
        allowed = FULL_REASONS[result.why]
        assert allowed is None or mutation in allowed, f"after {mutation}: {result.why}"
    return result


def fallbacks_logged(root: Path) -> list[str]:
    log = state_dir_for_vault(root) / "vaultkit.log"
    text = log.read_text(encoding="utf-8") if log.exists() else ""
    return [line for line in text.splitlines() if "lint cache" in line]


class Mutator:
    """Random, seeded edits of a vault folder."""

    def __init__(self, root: Path, rng: random.Random) -> None:
        self.root = root
        self.rng = rng

    def notes(self) -> list[Path]:
        return [self.root / p for p in list_vault_files(self.root) if p.endswith(".md")]

    def note(self) -> Path:
        return self.rng.choice(self.notes())

    def name(self) -> str:
        return self.note().stem

    def text(self, path: Path) -> str:
        try:
            return path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            return "# was binary\n"

    def link(self) -> str:
        rng = self.rng
        roll = rng.random()
        target = self.note()
        rel = target.relative_to(self.root).as_posix()[:-3]
        headings = [ln[3:] for ln in self.text(target).splitlines() if ln.startswith("## ")]
        if roll < 0.15 and headings:
            return f"[[{target.stem}#{rng.choice(headings)}]]"
        if roll < 0.25:
            return f"[[{target.stem}#^blk{rng.randrange(3)}]]"
        if roll < 0.35:
            return f"[[{rng.choice(WORDS)}]]"
        if roll < 0.42:
            return f"[[{rel}]]"
        if roll < 0.48:
            return f"[[../{target.stem}]]"
        if roll < 0.52:
            return f"![[pic {rng.randrange(4)}.png]]"
        if roll < 0.56:
            return f"[[Missing {rng.randrange(5)}]]"
        if roll < 0.6:
            return f"[[#{rng.choice(headings) if headings else 'Top'}]]"
        return f"[[{target.stem}]]"

    def write(self, path: Path, text: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    # ----------------------------------------------------------------- mutations

    def edit_body(self) -> None:
        path = self.note()
        self.write(path, self.text(path) + f"\nMore words {self.rng.random()}.\n")

    def add_link(self) -> None:
        path = self.note()
        self.write(path, self.text(path) + f"\nSee {self.link()} here.\n")

    def remove_link(self) -> None:
        path = self.note()
        lines = self.text(path).splitlines(keepends=True)
        with_links = [i for i, ln in enumerate(lines) if "[[" in ln]
        if with_links:
            del lines[self.rng.choice(with_links)]
            self.write(path, "".join(lines))

    def heading(self) -> None:
        path = self.note()
        lines = self.text(path).splitlines(keepends=True)
        heads = [i for i, ln in enumerate(lines) if ln.startswith("## ")]
        roll = self.rng.random()
        if heads and roll < 0.4:
            lines[self.rng.choice(heads)] = f"## {self.rng.choice(WORDS)} {self.rng.randrange(9)}\n"
        elif heads and roll < 0.7:
            del lines[self.rng.choice(heads)]
        else:
            lines.append(f"\n## {self.rng.choice(WORDS)}\n")
        self.write(path, "".join(lines))

    def block(self) -> None:
        path = self.note()
        text = self.text(path)
        if "^blk" in text and self.rng.random() < 0.5:
            self.write(path, text.replace(f" ^blk{self.rng.randrange(3)}", ""))
        else:
            self.write(path, text + f"\nA block line. ^blk{self.rng.randrange(3)}\n")

    def create_note(self) -> None:
        folder = self.rng.choice(["", "a/", "a/b/", "new/"])
        name = f"{self.rng.choice(WORDS)} {self.rng.randrange(6)}"
        body = f"# {name}\n\n## Part\n\nText {self.link()} and {self.link()}. ^blk1\n"
        self.write(self.root / f"{folder}{name}.md", body)

    def duplicate_name(self) -> None:
        source = self.note()
        self.write(self.root / "dup" / source.name, f"# Copy\n\n{self.link()}\n")

    def rename_note(self) -> None:
        path = self.note()
        if path.name == "INDEX.md":
            return
        folder = self.root / self.rng.choice(["", "a", "moved"])
        folder.mkdir(parents=True, exist_ok=True)
        path.rename(folder / f"{self.rng.choice(WORDS)} {self.rng.randrange(6)}.md")

    def delete_note(self) -> None:
        if len(self.notes()) > 5:
            self.note().unlink()

    def attachment(self) -> None:
        folder = self.root / "attachments"
        folder.mkdir(exist_ok=True)
        existing = sorted(folder.glob("*.png"))
        roll = self.rng.random()
        if existing and roll < 0.3:
            self.rng.choice(existing).unlink()
        elif existing and roll < 0.5:
            self.rng.choice(existing).rename(folder / f"pic {self.rng.randrange(4)}.png")
        else:
            (folder / f"pic {self.rng.randrange(4)}.png").write_bytes(b"\x89PNG\r\n")

    def frontmatter(self, line: str) -> None:
        path = self.note()
        text = self.text(path)
        if text.startswith("---\n"):
            text = "---\n" + line + "\n" + text[4:]
        else:
            text = f"---\n{line}\n---\n" + text
        self.write(path, text)

    def alias(self) -> None:
        self.frontmatter(f"aliases: [{self.rng.choice(WORDS)}]")

    def degraded(self) -> None:
        self.frontmatter("quality: degraded\ndegraded_reason: test")

    def bad_yaml(self) -> None:
        self.frontmatter("title: [unclosed")

    def index(self) -> None:
        index = self.root / "INDEX.md"
        roll = self.rng.random()
        if roll < 0.4:
            try:
                regenerate_index(self.root)
            except VaultkitError as exc:  # the binary mutation hit INDEX.md: refused, by design
                assert "not UTF-8" in str(exc), exc
        elif roll < 0.6 and index.exists():
            index.unlink()
        elif index.exists():
            self.write(index, self.text(index) + f"- [[{self.name()}]] by hand\n")
        else:
            self.write(index, f"# Index\n\n- [[{self.name()}]]\n")

    def config(self) -> None:
        path = config_file_for_vault(self.root)
        roll = self.rng.random()
        if roll < 0.3 and path.exists():
            path.unlink()
        elif roll < 0.6:
            glob = self.rng.choice(["a/**", "*.md", "new", "dup/*.md"])
            codes = self.rng.choice(['["VK1"]', '["VK301", "VK105"]'])
            path.write_text(
                f'[lint]\nexclude = ["{self.rng.choice(WORDS)}*"]\n'
                f'[lint.per-file-ignores]\n"{glob}" = {codes}\n'
            )
        else:
            path.write_text(f"[index]\ndescription_max = {self.rng.choice([20, 60, 120])}\n")

    def suppression(self) -> None:
        path = self.note()
        lines = self.text(path).splitlines(keepends=True)
        code = self.rng.choice(["VK101", "VK1", "VK105", "VK999", ""])
        at = self.rng.randrange(len(lines) + 1)
        lines.insert(at, f"%% vaultkit: ignore {code} %%\n")
        self.write(path, "".join(lines))

    def ignore_key(self) -> None:
        self.frontmatter(f"vaultkit-ignore: [{self.rng.choice(['VK301', 'VK10', 'VK7'])}]")

    def obsidian_settings(self) -> None:
        folder = self.root / ".obsidian"
        folder.mkdir(exist_ok=True)
        filters = self.rng.choice(['["a/"]', '["/^new/"]', "[]", '["dup"]'])
        (folder / "app.json").write_text(f'{{"userIgnoreFilters": {filters}}}')
        (folder / "templates.json").write_text(f'{{"folder": "{self.rng.choice(["a/b", "x"])}"}}')

    def binary(self) -> None:
        path = self.note()
        path.write_bytes(b"\xff\xfe not utf-8 \x80\x81" * self.rng.randint(1, 3))

    def racy_rewrite(self) -> None:
        """Same size, same mtime: only the content hash can tell."""
        path = self.note()
        data = path.read_bytes()
        info = path.stat()
        check(self.root)
        flipped = data.replace(b"a", b"e", 1) if b"a" in data else data.replace(b"e", b"a", 1)
        path.write_bytes(flipped)
        os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))

    def all(self) -> list[Callable[[], None]]:
        return [
            self.edit_body,
            self.add_link,
            self.add_link,
            self.remove_link,
            self.heading,
            self.heading,
            self.block,
            self.create_note,
            self.duplicate_name,
            self.rename_note,
            self.delete_note,
            self.attachment,
            self.alias,
            self.degraded,
            self.bad_yaml,
            self.index,
            self.config,
            self.binary,
            self.racy_rewrite,
            self.suppression,
            self.ignore_key,
            self.obsidian_settings,
        ]


def _vault(tmp_path: Path, notes: int, seed: int, *, index: bool = True) -> Path:
    root = write_vault(tmp_path / "vault", notes, seed)
    if index:
        regenerate_index(root)
    return root


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_mutations_match_the_full_computation(tmp_path: Path, seed: int) -> None:
    root = _vault(tmp_path, 60, seed, index=seed != 3)  # seed 3: no INDEX.md until one appears
    rng = random.Random(seed)
    mutator = Mutator(root, rng)
    first = check(root)
    assert (first.how, first.why) == ("full", "no stored state")
    hows = [first.how]
    for _ in range(45):
        mutation = rng.choice(mutator.all())
        mutation()
        hows.append(check_after(root, mutation.__name__).how)
        if rng.random() < 0.2:  # a second run over the same files: stored, or racy-verified
            again = check(root)
            assert again.how in ("stored", "incremental"), again.why
            hows.append(again.how)
    assert "incremental" in hows  # the walk really exercised the incremental path
    assert hows.count("full") <= 12, hows  # most runs never fall back
    assert fallbacks_logged(root) == []  # nothing was found damaged, nothing rebuilt


def test_unchanged_old_vault_reuses_the_stored_findings(tmp_path: Path) -> None:
    root = _vault(tmp_path, 40, 5)
    old = 1_000_000_000_000_000_000
    for path in root.rglob("*"):
        if path.is_file() and ".vaultkit" not in path.parts:
            os.utime(path, ns=(old, old))
    assert check(root).how == "full"
    assert check(root).how == "stored"
    note = next(p for p in sorted(root.glob("*.md")) if p.name != "INDEX.md")
    note.write_text(note.read_text(encoding="utf-8") + "\n<!-- edit -->\n", encoding="utf-8")
    assert check(root).how == "incremental"
    assert check(root).how in ("stored", "incremental")  # racy: verified by hash


@pytest.mark.slow
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(st.integers(min_value=0, max_value=18), min_size=1, max_size=8))
def test_any_sequence_of_mutations(
    tmp_path_factory: pytest.TempPathFactory, steps: list[int]
) -> None:
    root = _vault(tmp_path_factory.mktemp("hyp"), 25, 11)
    mutator = Mutator(root, random.Random(len(steps)))
    check(root)
    for step in steps:
        mutation = mutator.all()[step]
        mutation()
        check_after(root, mutation.__name__)
    assert fallbacks_logged(root) == []


def test_corrupt_cache_gives_the_same_findings_and_one_log_line(tmp_path: Path) -> None:
    root = _vault(tmp_path, 30, 3)
    check(root)
    lint_cache_path(root).write_bytes(b"this is not a database" * 100)
    for side in ("-wal", "-shm"):
        (lint_cache_path(root).parent / (lint_cache_path(root).name + side)).unlink(missing_ok=True)
    assert check(root).how == "full"
    log = (state_dir_for_vault(root) / "vaultkit.log").read_text(encoding="utf-8")
    assert sum("lint cache" in line for line in log.splitlines()) == 1
    check(root)


def test_damaged_stored_values_fall_back_to_the_full_path(tmp_path: Path) -> None:
    import sqlite3

    root = _vault(tmp_path, 30, 4)
    check(root)
    with sqlite3.connect(lint_cache_path(root)) as conn:
        conn.execute("UPDATE meta SET value = x'00ff' WHERE key IN ('findings', 'files')")
        conn.execute("UPDATE meta SET value = x'00' WHERE key = 'fingerprint'")
    assert check(root).how == "full"
    log = (state_dir_for_vault(root) / "vaultkit.log").read_text(encoding="utf-8")
    assert sum("lint cache" in line for line in log.splitlines()) == 1


def test_foreign_database_is_replaced(tmp_path: Path) -> None:
    import sqlite3

    root = _vault(tmp_path, 20, 6)
    lint_cache_path(root).parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(lint_cache_path(root)) as conn:
        conn.execute("CREATE TABLE other (x)")
    assert check(root).how == "full"
    assert check(root).how in ("stored", "incremental")


def test_no_cache_for_small_vaults_unless_asked(tmp_path: Path) -> None:
    root = _vault(tmp_path, 20, 6)
    result = lint_vault(root)
    assert result.how == "full"
    assert not lint_cache_path(root).exists()
    assert result.findings == truth(root)[0]


_CHILD = """
import sys
from pathlib import Path
from vaultkit.lint.cache.run import lint_vault
from vaultkit.vault.model import Finding
result = lint_vault(Path(sys.argv[1]), cache=True)
print("\\n".join(f.render() for f in result.findings))
"""


def test_two_concurrent_lints_are_both_right(tmp_path: Path) -> None:
    root = _vault(tmp_path, 60, 8)
    check(root)
    Mutator(root, random.Random(8)).create_note()
    expected = "\n".join(f.render() for f in truth(root)[0])
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    children = [
        subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(root)], stdout=subprocess.PIPE, text=True, env=env
        )
        for _ in range(2)
    ]
    outputs = [child.communicate(timeout=120)[0].strip() for child in children]
    assert [child.returncode for child in children] == [0, 0]
    assert outputs == [expected, expected]
    check(root)


def _edited(root: Path) -> Path:
    """A new note linking to an existing one: every global rule runs again."""
    other = next(p for p in sorted(root.rglob("*.md")) if p.name != "INDEX.md")
    note = root / "Fresh note.md"
    note.write_text(f"# Fresh\n\nSee [[{other.stem}]].\n", encoding="utf-8")
    return note


@pytest.mark.parametrize(
    ("module", "name", "error"),
    [
        (plan, "dirty_paths", TypeError),
        (plan, "resolve_subset", AttributeError),
        (merge, "recount_incoming", KeyError),
        (merge, "index_rules_again", AssertionError),
    ],
)
def test_a_bug_in_the_incremental_path_is_raised_not_hidden(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: object, name: str, error: type
) -> None:
    root = _vault(tmp_path, 30, 9)
    check(root)
    _edited(root)

    def broken(*args: object, **kwargs: object) -> None:
        raise error("a bug")

    monkeypatch.setattr(module, name, broken)
    with pytest.raises(error, match="a bug"):
        lint_vault(root, cache=True)
    assert fallbacks_logged(root) == []
    monkeypatch.undo()
    assert check(root).how == "incremental"  # the state the failed run left is still sound


def test_a_warm_run_is_the_stat_walk_and_the_stored_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _vault(tmp_path, 40, 14)
    old = 1_000_000_000_000_000_000  # no note is racy: nothing needs its hash checked
    for path in root.rglob("*"):
        if path.is_file() and ".vaultkit" not in path.parts:
            os.utime(path, ns=(old, old))
    expected = check(root).findings

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("a warm run opened, parsed or planned something")

    from vaultkit.lint.cache import plan
    from vaultkit.vault import records, strategy

    for module, name in [
        (records, "read_one"),
        (run, "read_one"),
        (plan, "read_one"),
        (strategy, "read_all"),
        (records, "parse_note"),
        (run, "relint"),
        (run, "merge"),
    ]:
        monkeypatch.setattr(module, name, forbidden)
    monkeypatch.setattr(state.LintStore, "rows", forbidden)
    result = lint_vault(root, cache=True)
    assert (result.how, result.findings) == ("stored", expected)


def test_a_bug_in_the_stored_path_is_raised_not_hidden(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _vault(tmp_path, 30, 10)
    check(root)

    def broken(self: object) -> None:
        raise AttributeError("a bug")

    monkeypatch.setattr(state.LintStore, "finding_rows", broken)  # what the stored path reads
    with pytest.raises(AttributeError, match="a bug"):
        lint_vault(root, cache=True)


def test_damaged_note_rows_are_a_logged_rebuild(tmp_path: Path) -> None:
    import sqlite3

    root = _vault(tmp_path, 30, 12)
    check(root)
    with sqlite3.connect(lint_cache_path(root)) as conn:
        conn.execute("UPDATE notes SET data = x'e300000000'")  # marshal: a truncated tuple
    edited = _edited(root)
    result = check(root)
    assert (result.how, result.why.startswith("damaged: stored note row")) == ("full", True)
    assert len(fallbacks_logged(root)) == 1
    assert edited.exists() and check(root).how in ("stored", "incremental")


_COUNTED = {
    "load_config": config_module.load_config.__code__,
    "config_file_for_vault": store_module.config_file_for_vault.__code__,
    "state_dir_for_vault": store_module.state_dir_for_vault.__code__,
    "find_store": store_module.find_store.__code__,
}


def _lookups(args: list[str]) -> dict[str, int]:
    """How often one in-process ``vaultkit lint`` loads the settings and finds the store."""
    codes = {code: name for name, code in _COUNTED.items()}
    counts = dict.fromkeys(_COUNTED, 0)

    def profile(frame: FrameType, event: str, arg: object) -> None:
        name = codes.get(frame.f_code)
        if event == "call" and name is not None:
            counts[name] += 1

    sys.setprofile(profile)
    try:
        main(["lint", "-q", *args])
    finally:
        sys.setprofile(None)
    return counts


@pytest.mark.slow
def test_one_lint_loads_the_settings_once_and_finds_the_state_folder_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "sessions"
    (store / "raw").mkdir(parents=True)
    wiki = write_vault(store / "wiki", 210, 13)  # over CACHE_MIN_NOTES: both caches are used
    (store / "vaultkit.toml").write_text("[index]\ndescription_max = 80\n", encoding="utf-8")
    (wiki / "INDEX.md").write_text("# Index\n\n- [[Nothing here]]\n", encoding="utf-8")
    # the state folder twice: once more by the check for an unfinished `vaultkit mv` (journal)
    once = {"load_config": 1, "config_file_for_vault": 1, "state_dir_for_vault": 2}
    for args in ([], [], ["--fix"], []):  # full, stored, fix (INDEX.md rewritten), incremental
        assert _lookups([*args, str(wiki)]) == {**once, "find_store": 0}, args
    capsys.readouterr()
    assert (store / ".vaultkit" / "lint.sqlite").is_file()
    assert (store / ".vaultkit" / "cache.sqlite").is_file()
    assert not (wiki / ".vaultkit").exists()  # the store's state folder, found once, was used


def test_rows_served_from_the_store_read_as_findings_too(tmp_path: Path) -> None:
    """A run asked for rows keeps the store's rows unbuilt in ``found``, and ``findings`` still
    gives every finding (it gave [] when the rows lived beside an empty findings list)."""
    root = _vault(tmp_path, 40, 5)
    full = check(root)
    assert full.findings, "the seeded vault has findings"
    target = lint_target(root)
    served = run.all_findings(target, walk_vault(root), None, True, None, rows=True)
    assert served.how == "stored"
    assert all(isinstance(f, FindingRow) for f in served.found)
    built = run.all_findings(target, walk_vault(root), None, True, None)
    assert all(isinstance(f, Finding) for f in built.found)
    assert served.findings == built.findings
    assert len(served.findings) == len(served.found) > 0
