"""CLI start-up: the quick answers equal typer's, load no typer, and every command still works.

Real processes throughout: ``python -m vaultkit`` is the quick path, ``run_typer`` (through
``python -c``) is the full typer CLI the quick path must be indistinguishable from.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
import typer.main
from conftest import EXAMPLES, FIXTURES
from typer.core import TyperGroup
from typer.testing import CliRunner

from vaultkit import __version__
from vaultkit.cli import lint_run, registry
from vaultkit.cli.app import app
from vaultkit.cli.lint_cmd import LintFormat
from vaultkit.cli.lint_run import LintArgs, read_quick

HEAVY = {"typer", "click", "pydantic", "rich"}
PROG = "python -m vaultkit"
TYPER = (
    f"import sys; from vaultkit.cli import run_typer; sys.exit(run_typer(sys.argv[1:], {PROG!r}))"
)
SCRIPT = Path(sys.executable).parent / "vaultkit"  # the installed script a user types


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    return {**env, **extra}


def quick(*args: str, cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=_env(**env),
        timeout=60,
    )


def full(*args: str, cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", TYPER, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=_env(**env),
        timeout=60,
    )


def imported(*args: str, cwd: Path | None = None) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "vaultkit", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=_env(),
        timeout=60,
    )
    rows = [ln.split("|")[-1].strip() for ln in done.stderr.splitlines() if "import time:" in ln]
    return {row for row in rows if row}


@pytest.fixture
def example(tmp_path: Path) -> Path:
    shutil.copytree(EXAMPLES, tmp_path / "examples", ignore=shutil.ignore_patterns(".vaultkit"))
    return tmp_path


def _heavy(modules: set[str]) -> set[str]:
    return {m for m in modules if m.split(".")[0] in HEAVY}


@pytest.mark.parametrize("columns", ["80", "200"])
def test_the_help_constant_is_what_typer_renders(columns: str) -> None:
    rendered = full("--help", COLUMNS=columns)
    assert rendered.returncode == 0, rendered.stderr
    assert registry.top_help(PROG) == rendered.stdout, (
        "the quick vaultkit --help (registry.top_help, made from registry.TABLE) is no longer "
        "what typer renders: fix the layout in vaultkit/cli/registry.py (a line breaking after "
        "a hyphen inside a word, say). Typer's text:\n" + rendered.stdout
    )


@pytest.mark.parametrize("limit", [20, 45, 62])
@pytest.mark.parametrize(
    "text",
    [
        "Print vaultkit's version.",
        "Compare a vs. b and keep the newer one. Exit 1 when they differ.",
        "One sentence with no period at all but many words to shorten somewhere",
        "First paragraph, with a\nline break.\n\nSecond paragraph.",
        "Exactly twenty chars",
        "Self-describing, hyphen-joined, well-known words only shortened at spaces here.",
    ],
)
def test_the_short_help_is_what_click_lists(text: str, limit: int) -> None:
    assert registry.short_help(text, limit) == click.Command("x", help=text).get_short_help_str(
        limit
    )


def test_help_and_version_answer_without_typer() -> None:
    for args in (["--help"], ["-h"]):
        done = quick(*args)
        assert done.returncode == 0 and done.stderr == ""
        assert done.stdout == registry.top_help(PROG)
    script = subprocess.run([SCRIPT, "-h"], capture_output=True, text=True, env=_env(), timeout=60)
    assert script.stdout == registry.top_help("vaultkit")
    for args in (["--version"], ["-V"], ["version"]):
        done = quick(*args)
        assert (done.returncode, done.stdout, done.stderr) == (0, f"{__version__}\n", "")
    assert _heavy(imported("--help")) == set() and _heavy(imported("--version")) == set()


def test_no_arguments_prints_the_help_on_stderr_and_exits_2_like_typer() -> None:
    done, typer_done = quick(), full()
    assert done.returncode == typer_done.returncode == 2
    assert done.stdout == typer_done.stdout == ""
    assert done.stderr == typer_done.stderr


def test_a_narrow_terminal_gets_typers_own_wrapping() -> None:
    done = quick("--help", COLUMNS="60")
    assert done.returncode == 0
    assert done.stdout != registry.top_help(PROG)
    assert all(len(line) <= 58 for line in done.stdout.splitlines())
    assert done.stdout == full("--help", COLUMNS="60").stdout


def _group() -> TyperGroup:
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    return group


def _modules(command: object) -> set[str]:
    """The modules of a command's callback, or of all its subcommands' for a group."""
    subcommands = getattr(command, "commands", None)
    if subcommands:
        return {m for sub in subcommands.values() for m in _modules(sub)}
    callback = getattr(command, "callback", None)
    return {callback.__module__} if callback else set()


def test_the_table_names_every_command_of_the_app_and_its_module() -> None:
    registry.load(None)
    group = _group()
    assert sorted(group.commands) == sorted(registry.COMMANDS)
    for name, command in group.commands.items():
        assert _modules(command) == {f"vaultkit.cli.{registry.COMMANDS[name]}"}, name
        # registered through cli.app.command or group: the table's line opens its --help
        assert (command.help or "").partition("\n\n")[0] == registry.HELP[name], name


def test_only_the_module_of_the_running_command_is_imported(example: Path) -> None:
    # links through typer: --format json --format text is not a plain form (see links_run)
    argv = ["links", "Idempotent imports", "examples/sessions/wiki", "-f", "json", "-f", "text"]
    modules = imported(*argv, cwd=example)
    commands = {m for m in modules if m.startswith("vaultkit.cli.") and m.endswith("_cmd")}
    assert commands == {"vaultkit.cli.graph_cmd"} and "typer" in modules
    assert "networkx" not in modules  # links needs no graph


@pytest.mark.slow
def test_every_command_answers_help_and_its_h_alias() -> None:
    registry.load(None)
    runner = CliRunner()
    for command in registry.COMMANDS:
        long = runner.invoke(app, [command, "--help"], prog_name="vaultkit")
        short = runner.invoke(app, [command, "-h"], prog_name="vaultkit")
        assert long.exit_code == short.exit_code == 0, command
        assert long.output == short.output
        assert long.output.startswith(f"Usage: vaultkit {command} ")
        assert "-h, --help" in long.output


def test_subcommands_take_h_too() -> None:
    done = quick("hooks", "install", "-h")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Usage: python -m vaultkit hooks install [OPTIONS]")


@pytest.mark.slow
def test_typer_errors_are_unchanged() -> None:
    for args in (["bogus"], ["lint", "--bogus"], ["lint", "--format", "xml"], ["--bogus"]):
        done, typer_done = quick(*args), full(*args)
        assert done.returncode == typer_done.returncode == 2, args
        assert "Error:" in done.stderr and "Traceback" not in done.stderr
        assert done.stderr == typer_done.stderr


LINT_FORMS = [
    ["examples/sessions/wiki"],
    ["--format", "json", "examples/sessions/wiki"],
    ["examples/sessions/wiki", "-f", "github", "--strict"],
    ["--select", "VK1", "--select=VK3", "--ignore=VK103", "examples/sessions/wiki"],
    ["-q", "--no-cache", "examples/sessions/wiki"],
    ["--select", "VK3", "examples/sessions/wiki"],  # warnings only: exit 0
    ["--select", "VK3", "--strict", "examples/sessions/wiki"],  # ... and 1 with --strict
    ["--fix", "--dry-run", "examples/sessions/wiki"],
    ["--select", "VK999", "examples/sessions/wiki"],  # a VaultkitError: one error line, exit 2
    ["examples/no-such-vault"],
    [  # notes named: their findings and those on links to them
        "examples/sessions/wiki/Glossary.md",
        "examples/sessions/wiki/2026-11-12_1020_9e3b7c55_SQLite schema migration.md",
    ],
    ["examples/sessions/wiki", "examples/sessions/wiki/Glossary.md", "-q"],
    ["examples/sessions/wiki/Glossary.md", "examples/sessions/wiki/Gone.md"],  # an error
]


@pytest.mark.parametrize("args", LINT_FORMS, ids=[" ".join(a) for a in LINT_FORMS])
def test_quick_lint_equals_the_typer_command(example: Path, args: list[str]) -> None:
    assert read_quick(args) is not None
    done, typer_done = quick("lint", *args, cwd=example), full("lint", *args, cwd=example)
    assert (done.returncode, done.stdout, done.stderr) == (
        typer_done.returncode,
        typer_done.stdout,
        typer_done.stderr,
    )
    if done.returncode == 2:
        assert done.stderr.startswith("error: ") and "Traceback" not in done.stderr


def test_quick_lint_loads_no_typer(example: Path) -> None:
    assert _heavy(imported("lint", "examples/sessions/wiki", cwd=example)) == set()


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["-h"],
        ["--bogus"],
        ["-", "b"],
        ["--format"],
        ["--format", "xml"],
        ["--format=Json"],
        ["-qf", "json"],
        ["-fjson"],
        ["--strict=yes"],
        ["--", "vault"],
        ["--select", "--strict"],
    ],
)
def test_anything_but_the_plain_forms_is_left_to_typer(args: list[str]) -> None:
    assert read_quick(args) is None


def test_a_list_on_standard_input_is_read_alike_on_both_paths(example: Path) -> None:
    wiki = example / "examples" / "sessions" / "wiki"
    listed = f"{wiki / 'Glossary.md'}\n{wiki / 'Gone.md'}\n"  # one note, one path gone
    args = ["lint", "--files-from", "-", str(wiki), "--format", "json"]
    assert read_quick(args[1:]) is not None
    both = ([sys.executable, "-m", "vaultkit", *args], [sys.executable, "-c", TYPER, *args])
    runs = [
        subprocess.run(argv, input=listed, capture_output=True, text=True, env=_env(), timeout=60)
        for argv in both
    ]
    quick_done, typer_done = ((r.returncode, r.stdout, r.stderr) for r in runs)
    assert quick_done == typer_done
    assert "Gone.md no longer exists" in runs[0].stderr
    assert json.loads(runs[0].stdout)["vault"]


def test_quick_reading_of_each_option() -> None:
    args = ["v", "--format=github", "--select", "VK1,VK2", "--ignore", "VK104", "--strict"]
    assert read_quick([*args, "--fix", "--dry-run", "-q", "--no-cache"]) == LintArgs(
        paths=(Path("v"),),
        fmt="github",
        select=("VK1,VK2",),
        ignore=("VK104",),
        strict=True,
        fix=True,
        dry_run=True,
        quiet=True,
        no_cache=True,
    )
    assert read_quick([]) == LintArgs()
    assert read_quick(["v", "a.md", "--files-from", "-"]) == LintArgs(
        paths=(Path("v"), Path("a.md")), files_from="-"
    )


def test_quick_options_are_exactly_the_typer_commands() -> None:
    registry.load("lint")
    command = _group().commands["lint"]
    names: dict[str, str] = {}
    valued: set[str] = set()
    for param in command.params:
        if param.param_type_name != "option" or param.name == "help":
            continue
        assert param.name is not None
        field = param.name
        names |= dict.fromkeys(param.opts, field)
        if not getattr(param, "is_flag", False):
            valued.add(field)
        if field == "fmt":
            assert tuple(f.value for f in LintFormat) == lint_run.FORMATS
    assert names == lint_run.OPTIONS
    assert valued == lint_run.VALUED


WARM_LINT = """
import json, sys
from pathlib import Path
from vaultkit.lint.cache.run import lint_vault
result = lint_vault(Path(sys.argv[1]).resolve())
parser = sorted(m for m in sys.modules if m.split(".")[0] in ("markdown_it", "yaml", "frontmatter"))
print(json.dumps({"how": result.how, "parser": parser, "findings": len(result.findings)}))
"""


def test_a_warm_lint_loads_no_parser_and_keeps_the_cache_a_parsing_run_wrote(
    example: Path,
) -> None:
    """The cache version must not depend on whether the parser was imported: a run that parsed
    (and wrote the cache) and a warm run that did not must agree, or they empty each other's
    cache every time."""
    fill = "import sys; from pathlib import Path; from vaultkit.lint.cache.run import lint_vault; "
    fill += "lint_vault(Path(sys.argv[1]).resolve(), cache=True)"
    vault = "examples/sessions/wiki"
    subprocess.run([sys.executable, "-c", fill, vault], cwd=example, check=True, timeout=60)
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", WARM_LINT, vault],
            cwd=example,
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
        assert json.loads(done.stdout) == {"how": "stored", "parser": [], "findings": 4}
    log = example / "examples" / "sessions" / ".vaultkit" / "vaultkit.log"
    assert not log.exists() or "version" not in log.read_text(encoding="utf-8")


@pytest.mark.parametrize("quick_path", [True, False])
@pytest.mark.parametrize(
    ("error", "expected"), [(KeyboardInterrupt, (130, "")), (EOFError, (1, "\nAborted!\n"))]
)
def test_ctrl_c_or_eof_during_lint_end_alike_on_both_paths(
    quick_path: bool,
    error: type[BaseException],
    expected: tuple[int, str],
    example: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from vaultkit.cli import lint_cmd, main, run_typer

    def interrupted(_args: LintArgs) -> int:
        raise error

    monkeypatch.setattr(lint_run, "run", interrupted)
    monkeypatch.setattr(lint_cmd, "run", interrupted)
    monkeypatch.chdir(example)
    argv = ["lint", "examples/sessions/wiki"]
    code = main(argv) if quick_path else run_typer(argv, PROG)
    assert (code, capsys.readouterr().err) == expected


def _options_of(command_name: str) -> tuple[dict[str, str], set[str]]:
    """The typer command's option spellings -> parameter name, and the names that take a value."""
    registry.load(command_name)
    command = _group().commands[command_name]
    names: dict[str, str] = {}
    valued: set[str] = set()
    for param in command.params:
        if param.param_type_name != "option" or param.name == "help":
            continue
        assert param.name is not None
        names |= dict.fromkeys([*param.opts, *param.secondary_opts], param.name)
        if not getattr(param, "is_flag", False):
            valued.add(param.name)
    return names, valued


def _fresh(cwd: Path) -> Path:
    """``cwd`` with every derived-state folder (search index, caches) removed: each path starts
    from the same state, so the index statistics in the output agree."""
    for state in sorted(cwd.rglob(".vaultkit"), reverse=True):
        shutil.rmtree(state)
    return cwd


def _same_on_both_paths(command: str, args: list[str], cwd: Path) -> None:
    done = quick(command, *args, cwd=_fresh(cwd))
    typer_done = full(command, *args, cwd=_fresh(cwd))
    assert (done.returncode, done.stdout, done.stderr) == (
        typer_done.returncode,
        typer_done.stdout,
        typer_done.stderr,
    )
    assert "Traceback" not in done.stderr


SEARCH_FORMS = [
    ["schema", "examples/sessions"],
    ["schema migration", "examples/sessions", "--format", "json"],
    ["-f", "json", "migr*", "examples/sessions", "--limit", "2"],
    ["schema", "examples/sessions", "-t", "wiki", "--type=summary", "-n", "1"],
    ["schema", "examples/sessions", "--since", "2026-11-12", "--no-refresh", "-q"],
    ["schema", "examples/sessions", "--tag", "sqlite", "--tag=python", "--refresh"],
    ["schema", "examples/sessions", "--agent", "codex", "--quiet"],
    ["zzzqqq", "examples/sessions"],  # no results: exit 1, the count on stderr
    ["zzzqqq", "examples/sessions", "--format=json"],
    ['"unclosed', "examples/sessions"],  # a malformed query: one error line, exit 2
    ["a OR", "examples/sessions"],
    ["schema", "examples/sessions", "--since", "yesterday"],  # not a date: exit 2
    ["schema", "examples/no-such-store"],
    ["schema"],  # the project's store: none in the temporary folder
]
SEARCH_TO_TYPER = [
    ["--help"],
    ["schema", "-h"],
    [],
    ["schema", "a", "b"],
    ["schema", "--bogus"],
    ["schema", "--type", "wikis"],
    ["schema", "--limit", "0"],
    ["schema", "--limit", "x"],
    ["schema", "--limit"],
    ["schema", "--format", "xml"],
    ["schema", "--quiet=yes"],
    ["schema", "--since", "2026-11-01", "--since", "2026-11-02"],
    ["--", "-excluded"],
    ["-excluded"],
]


@pytest.mark.parametrize("args", SEARCH_FORMS, ids=[" ".join(a) for a in SEARCH_FORMS])
def test_quick_search_equals_the_typer_command(example: Path, args: list[str]) -> None:
    from vaultkit.cli import search_run

    assert search_run.read_quick(args) is not None
    _same_on_both_paths("search", args, example)


@pytest.mark.parametrize("args", SEARCH_TO_TYPER, ids=[" ".join(a) for a in SEARCH_TO_TYPER])
def test_search_forms_typer_must_answer_are_left_to_it(example: Path, args: list[str]) -> None:
    from vaultkit.cli import search_run

    assert search_run.read_quick(args) is None
    _same_on_both_paths("search", args, example)


def test_quick_search_exit_codes_and_output(example: Path) -> None:
    done = quick("search", "schema", "examples/sessions", "--format", "json", cwd=example)
    assert done.returncode == 0 and json.loads(done.stdout)["results"]
    done = quick("search", "zzzqqq", "examples/sessions", cwd=example)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.startswith("no results for 'zzzqqq'")
    done = quick("search", '"unclosed', "examples/sessions", cwd=example)
    assert done.returncode == 2 and done.stderr.startswith("error: search query")


def test_quick_search_reads_each_option() -> None:
    from vaultkit.cli.search_run import SearchArgs, read_quick

    args = ["q", "f", "-t", "wiki", "--type=note", "--since=2026-01-02", "--tag", "a"]
    args += ["--agent", "codex", "-n", "3", "--format", "json", "--no-refresh", "-q"]
    assert read_quick(args) == SearchArgs(
        query="q",
        folder=Path("f"),
        kind=("wiki", "note"),
        since="2026-01-02",
        tag=("a",),
        agent="codex",
        limit=3,
        fmt="json",
        refresh=False,
        quiet=True,
    )
    assert read_quick(["q", "--refresh"]) == SearchArgs(query="q", refresh=True)


def test_quick_search_options_are_exactly_the_typer_commands() -> None:
    from vaultkit.cli import search_cmd, search_run

    names, valued = _options_of("search")
    assert names == search_run.OPTIONS
    assert valued == search_run.VALUED
    assert tuple(k.value for k in search_cmd.Kind) == search_run.KINDS
    assert tuple(f.value for f in search_cmd.Format) == search_run.FORMATS


def test_quick_search_loads_no_typer(example: Path) -> None:
    assert _heavy(imported("search", "schema", "examples/sessions", cwd=example)) == set()


def test_quick_search_loads_no_dataclasses_nor_typing(example: Path) -> None:
    """``vaultkit search`` is a whole process per question: ``dataclasses`` (with ``inspect``,
    ``ast``, ``dis``) and ``typing`` were about a third of its start-up, so its records are
    ``base.record`` values and its type-only imports stay behind ``TYPE_CHECKING``. The first
    search builds the index (parsing notes may load them); the next one, the usual case, not."""
    imported("search", "schema", "examples/sessions", cwd=example)
    modules = imported("search", "schema", "examples/sessions", cwd=example)
    assert "vaultkit.search.find" in modules, "the search itself must have run"
    assert {"dataclasses", "inspect", "typing"} & modules == set()


GRAPH_FORMS = [
    ["examples/sessions/wiki"],
    ["examples/sessions/wiki", "--format", "dot"],
    ["-f", "graphml", "examples/sessions/wiki"],
    ["--format=gexf", "examples/sessions/wiki"],
    ["examples/sessions/wiki", "-o", "out.json"],
    ["examples/sessions/wiki", "--output=out.dot", "-f", "dot"],
    ["examples/sessions/wiki", "-o", "no-such-folder/out.json"],  # cannot write: exit 2
    ["examples/no-such-vault"],
    [],  # the project's wiki: none in the temporary folder
]
GRAPH_TO_TYPER = [
    ["--help"],
    ["examples/sessions/wiki", "-h"],
    ["examples/sessions/wiki", "--format", "xml"],
    ["examples/sessions/wiki", "--format"],
    ["examples/sessions/wiki", "-fdot"],
    ["examples/sessions/wiki", "--bogus"],
    ["examples/sessions/wiki", "other"],
    ["examples/sessions/wiki", "-o", "a.json", "-o", "b.json"],
    ["--", "examples/sessions/wiki"],
]


@pytest.mark.parametrize("args", GRAPH_FORMS, ids=[" ".join(a) for a in GRAPH_FORMS])
def test_quick_graph_equals_the_typer_command(example: Path, args: list[str]) -> None:
    from vaultkit.cli import graph_run

    assert graph_run.read_quick(args) is not None
    _same_on_both_paths("graph", args, example)
    written = {"-o": "", "--output": ""}
    for word, after in itertools.pairwise([*args, ""]):
        name, eq, value = word.partition("=")
        if name in written:
            written[name] = value if eq else after
    target = example / (written["-o"] or written["--output"])
    if target == example or not target.parent.is_dir():
        return
    made = []
    for run in (quick, full):  # each path writes the file itself: the same bytes
        target.unlink()
        assert run("graph", *args, cwd=_fresh(example)).returncode == 0
        made.append(target.read_bytes())
    assert made[0] == made[1] and made[0].startswith((b"{", b"<", b"digraph", b"strict"))


@pytest.mark.parametrize("args", GRAPH_TO_TYPER, ids=[" ".join(a) for a in GRAPH_TO_TYPER])
def test_graph_forms_typer_must_answer_are_left_to_it(example: Path, args: list[str]) -> None:
    from vaultkit.cli import graph_run

    assert graph_run.read_quick(args) is None
    _same_on_both_paths("graph", args, example)


def test_quick_graph_options_are_exactly_the_typer_commands() -> None:
    from vaultkit.cli import graph_cmd, graph_run

    names, valued = _options_of("graph")
    assert names == graph_run.OPTIONS
    assert valued == set(graph_run.OPTIONS.values())
    assert tuple(f.value for f in graph_cmd.GraphFormat) == graph_run.FORMATS


def test_quick_graph_loads_no_typer_and_networkx_only_for_the_exports_needing_it(
    example: Path,
) -> None:
    modules = imported("graph", "examples/sessions/wiki", cwd=example)
    assert _heavy(modules) == set() and "networkx" not in modules  # JSON is written without it
    modules = imported("graph", "-f", "graphml", "examples/sessions/wiki", cwd=example)
    assert _heavy(modules) == set() and "networkx" in modules
    assert "networkx" not in imported("search", "schema", "examples/sessions", cwd=example)


STATS_FORMS = [
    ["examples/sessions/wiki"],
    ["examples/sessions/wiki", "--format", "json"],
    ["-f", "text", "examples/sessions/wiki"],
    ["--format=json", "examples/sessions/wiki"],
    ["examples/no-such-vault"],
    [],  # the project's wiki: none in the temporary folder
]
STATS_TO_TYPER = [
    ["--help"],
    ["examples/sessions/wiki", "-h"],
    ["examples/sessions/wiki", "--format", "dot"],
    ["examples/sessions/wiki", "--format"],
    ["examples/sessions/wiki", "other"],
    ["examples/sessions/wiki", "-f", "json", "-f", "text"],
    ["--", "examples/sessions/wiki"],
]


@pytest.mark.parametrize("args", STATS_FORMS, ids=[" ".join(a) for a in STATS_FORMS])
def test_quick_stats_equals_the_typer_command(example: Path, args: list[str]) -> None:
    from vaultkit.cli import stats_run

    assert stats_run.read_quick(args) is not None
    _same_on_both_paths("stats", args, example)


@pytest.mark.slow
@pytest.mark.parametrize("args", STATS_TO_TYPER, ids=[" ".join(a) for a in STATS_TO_TYPER])
def test_stats_forms_typer_must_answer_are_left_to_it(example: Path, args: list[str]) -> None:
    from vaultkit.cli import stats_run

    assert stats_run.read_quick(args) is None
    _same_on_both_paths("stats", args, example)


def test_quick_stats_options_are_exactly_the_typer_commands(example: Path) -> None:
    from vaultkit.cli import graph_cmd, stats_run

    names, valued = _options_of("stats")
    assert names == stats_run.OPTIONS and valued == set(stats_run.OPTIONS.values())
    assert tuple(f.value for f in graph_cmd.TextFormat) == stats_run.FORMATS
    assert _heavy(imported("stats", "examples/sessions/wiki", cwd=example)) == set()


FOLDERS = str(FIXTURES / "vaults" / "folders" / "vault")
LINKS_FORMS = [
    ["Idempotent imports", "examples/sessions/wiki"],
    ["Plan", FOLDERS, "--incoming"],  # an ambiguous name: which note is shown, on stderr
    ["concepts/Idempotent imports.md", "examples/sessions/wiki", "--incoming"],
    ["Transaction fingerprint", "examples/sessions/wiki", "--outgoing", "-f", "json"],
    ["--format=json", "Idempotent imports", "examples/sessions/wiki", "--incoming", "--outgoing"],
    ["No such note", "examples/sessions/wiki"],  # one error line, exit 2
    ["Idempotent imports", "examples/no-such-vault"],
    ["Idempotent imports"],  # the project's wiki: none in the temporary folder
]
LINKS_TO_TYPER = [
    ["--help"],
    [],
    ["", "examples/sessions/wiki"],  # typer's BadParameter
    ["  ", "examples/sessions/wiki"],
    ["Idempotent imports", "examples/sessions/wiki", "-h"],
    ["Idempotent imports", "examples/sessions/wiki", "--format", "dot"],
    ["Idempotent imports", "examples/sessions/wiki", "--incoming=yes"],
    ["Idempotent imports", "examples/sessions/wiki", "third"],
    ["Idempotent imports", "examples/sessions/wiki", "-f", "json", "-f", "text"],
    ["--", "Idempotent imports"],
]


@pytest.mark.parametrize("args", LINKS_FORMS, ids=[" ".join(a[:1]) for a in LINKS_FORMS])
def test_quick_links_equals_the_typer_command(example: Path, args: list[str]) -> None:
    from vaultkit.cli import links_run

    assert links_run.read_quick(args) is not None
    _same_on_both_paths("links", args, example)


@pytest.mark.parametrize("args", LINKS_TO_TYPER, ids=[repr(a) for a in LINKS_TO_TYPER])
def test_links_forms_typer_must_answer_are_left_to_it(example: Path, args: list[str]) -> None:
    from vaultkit.cli import links_run

    assert links_run.read_quick(args) is None
    _same_on_both_paths("links", args, example)


def test_quick_links_options_are_exactly_the_typer_commands(example: Path) -> None:
    from vaultkit.cli import graph_cmd, links_run

    names, valued = _options_of("links")
    assert names == links_run.OPTIONS and valued == {"fmt"}
    assert tuple(f.value for f in graph_cmd.TextFormat) == links_run.FORMATS
    argv = ["links", "Idempotent imports", "examples/sessions/wiki"]
    assert _heavy(imported(*argv, cwd=example)) == set()
