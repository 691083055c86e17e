"""The documents say what the code does: rule tables, layers, shown output, paths, dependencies."""

from __future__ import annotations

import ast
import importlib.metadata
import importlib.util
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import require_program
from test_layers import CORE, HEAVY, IO_EDGE, LAYERS, PACKAGE

from vaultkit.cli import main
from vaultkit.lint.codes import RULES, markdown_table

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
LINT_DOC = ROOT / "docs" / "lint.md"
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
# Every document a reader follows to the code (CHANGELOG.md records history, old paths included).
GUIDES = (
    README,
    LINT_DOC,
    ARCHITECTURE,
    ROOT / "benchmarks" / "README.md",
    ROOT / "hooks" / "README.md",
    ROOT / "examples" / "README.md",
    ROOT / "tests" / "e2e" / "README.md",
)
REGENERATE = "python -m vaultkit.lint.codes prints the table to paste"


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _cells(line: str) -> tuple[str, ...]:
    """A GFM table row's cells; ``\\|`` is a pipe inside a cell."""
    cells = re.split(r"(?<!\\)\|", line.strip())[1:-1]
    return tuple(cell.strip().replace("\\|", "|") for cell in cells)


def _rule_tables(text: str) -> list[list[tuple[str, ...]]]:
    """Every table whose header starts with ``code | name``, as rows of cells (no header)."""
    tables: list[list[tuple[str, ...]]] = []
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if not (line.startswith("|") and _cells(line)[:2] == ("code", "name")):
            continue
        rows = []
        for row in lines[index + 2 :]:
            if not row.startswith("|"):
                break
            rows.append(_cells(row))
        tables.append(rows)
    return tables


# --------------------------------------------------------------------------- the rule table


def test_the_rule_table_renders_every_rule_once() -> None:
    lines = markdown_table().splitlines()
    assert _cells(lines[0]) == ("code", "name", "severity", "meaning")
    assert [_cells(line) for line in lines[2:]] == [
        (r.code, r.name, r.severity, r.summary) for r in RULES.values()
    ]


@pytest.mark.parametrize("doc", [README, LINT_DOC], ids=lambda p: p.name)
def test_each_documented_rule_table_is_the_codes_table(doc: Path) -> None:
    tables = _rule_tables(_text(doc))
    assert len(tables) == 1, f"{doc.name}: one rule table expected"
    expected = [(r.code, r.name, r.severity, r.summary) for r in RULES.values()]
    assert tables[0] == expected, f"{doc.name} drifted from vaultkit/lint/codes.py; {REGENERATE}"
    assert markdown_table() in _text(doc), f"{doc.name}: {REGENERATE}"


def test_the_architecture_page_points_to_the_table_instead_of_copying_it() -> None:
    text = _text(ARCHITECTURE)
    assert _rule_tables(text) == []
    assert "vaultkit/lint/codes.py" in text


def test_lint_md_has_a_section_with_an_example_for_every_rule() -> None:
    sections = re.findall(r"^### (VK\d{3}) (\S+)$", _text(LINT_DOC), flags=re.MULTILINE)
    assert sections == [(r.code, r.name) for r in RULES.values()]


# --------------------------------------------------------------------------- the layers


def _drawn_layers(text: str) -> set[tuple[str, str]]:
    blocks = re.findall(r"```mermaid\n(.*?)```", text, flags=re.DOTALL)
    assert len(blocks) == 1, "ARCHITECTURE.md: one Mermaid picture of the layers expected"
    return set(re.findall(r"^\s*(\w+) --> (\w+)\s*$", blocks[0], flags=re.MULTILINE))


FLOOR = frozenset({"errors", "base"})


def _layer_arrows() -> set[tuple[str, str]]:
    """The arrows the picture must have: every import LAYERS allows into a package above the
    floor, and one into the floor for each package that would otherwise have no arrow."""
    upper = {(a, b) for a, targets in LAYERS.items() for b in targets if b not in FLOOR}
    bare = [a for a, targets in LAYERS.items() if targets and a not in {a for a, _ in upper}]
    return upper | {(a, "base" if "base" in LAYERS[a] else "errors") for a in bare}


def test_the_layer_picture_is_the_layer_table() -> None:
    # The page's premise: every package but __main__ may import base and errors.
    for package, allowed in LAYERS.items():
        if package not in FLOOR and package != "__main__":
            assert allowed >= FLOOR, f"{package}: the page's note on base/errors is wrong now"
    drawn, wanted = _drawn_layers(_text(ARCHITECTURE)), _layer_arrows()
    order = list(LAYERS)[::-1]  # top of the table first
    arrows = "\n".join(
        f"    {a} --> {b}" for a, b in sorted(wanted, key=lambda e: (order.index(e[0]), e[1]))
    )
    assert drawn == wanted, f"docs/ARCHITECTURE.md: draw tests/test_layers.py's LAYERS:\n{arrows}"
    assert {name for arrow in drawn for name in arrow} == set(LAYERS)


def test_the_architecture_page_names_the_modules_the_layer_rules_name() -> None:
    text = _text(ARCHITECTURE)
    for module in (*CORE, *IO_EDGE):
        assert f"`{module.removeprefix('vaultkit.')}`" in text, module
    for library in HEAVY:
        assert f"`{library}`" in text, library


# --------------------------------------------------------------------------- commands and output


def _help(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """What ``vaultkit ARGS --help`` prints, through the CLI's own entry point."""
    capsys.readouterr()
    assert main([*args, "--help"]) == 0
    return capsys.readouterr().out


def _command_paths(capsys: pytest.CaptureFixture[str], args: list[str] | None = None) -> list[str]:
    """Every command the CLI's ``--help`` lists, groups expanded (``vaultkit hooks install``)."""
    args = args or []
    text = _help(args, capsys)
    usage = text.splitlines()[0]
    if not usage.rstrip().endswith("COMMAND [ARGS]..."):
        return [" ".join(["vaultkit", *args])]
    listed = re.findall(r"^  (\S+)", text.split("\nCommands:\n", 1)[1], flags=re.MULTILINE)
    return [path for name in listed for path in _command_paths(capsys, [*args, name])]


def test_every_command_appears_in_the_readme(capsys: pytest.CaptureFixture[str]) -> None:
    commands = _command_paths(capsys)
    assert "vaultkit lint" in commands and "vaultkit hooks install" in commands
    text = _text(README)
    assert [c for c in commands if c not in text] == []


def _code_blocks(text: str) -> list[list[str]]:
    """The lines of each fenced code block whose info string is empty or ``console``."""
    blocks: list[list[str]] = []
    fence: str | None = None  # the info string of the open fence
    for line in text.splitlines():
        if not line.startswith("```"):
            if fence in ("", "console"):
                blocks[-1].append(line)
        elif fence is None:
            fence = line[3:].strip()
            blocks.append([])
        else:
            fence = None
    return blocks


Shown = tuple[str, list[str], list[str]]  # command, its output lines, the `echo $?` line


def _shown_sessions(text: str) -> list[Shown]:
    """Each ``$ vaultkit ...`` line of a code block that reads the bundled example (and writes
    nothing), with the output shown under it and the exit code a following ``$ echo $?`` shows."""
    found: list[Shown] = []
    for block in _code_blocks(text):
        target: list[str] | None = None  # where the lines under the current command go
        for line in block:
            if not line.startswith("$ "):
                if target is not None:
                    target.append(re.sub(r"\s+<- on stderr$", "", line))
                continue
            command = line[2:]
            if command == "echo $?" and target is not None and target is found[-1][1]:
                target = found[-1][2]
            elif (
                command.startswith("vaultkit ") and "examples/" in command and " -o " not in command
            ):
                found.append((command, [], []))
                target = found[-1][1]
            else:
                target = None
    return found


def _run(command: str) -> tuple[list[str], int]:
    """Run a shown command in the repository; stdout then stderr (``; echo $?`` adds the code)."""
    argv = shlex.split(command.removesuffix("; echo $?"))
    script = Path(sys.executable).parent / "vaultkit"
    entry = [str(script)] if script.exists() else [sys.executable, "-m", "vaultkit"]
    done = subprocess.run(
        [*entry, *argv[1:]], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    lines = [*done.stdout.splitlines(), *done.stderr.splitlines()]
    if command.endswith("; echo $?"):
        lines.append(str(done.returncode))
    return lines, done.returncode


SHOWN = [(doc.name, *shown) for doc in (README, LINT_DOC) for shown in _shown_sessions(_text(doc))]


def test_the_shown_example_sessions_are_found() -> None:
    commands = [command for _, command, _, _ in SHOWN]
    assert "vaultkit lint examples/sessions/wiki" in commands
    assert "vaultkit lint --diff --unsafe-fixes examples/sessions/wiki" in commands
    assert "vaultkit index --check examples/sessions/wiki; echo $?" in commands
    assert ("README.md", "vaultkit lint examples/sessions/wiki") in {(d, c) for d, c, _, _ in SHOWN}
    assert any(code == ["1"] for _, _, _, code in SHOWN)  # the README's `$ echo $?`


@pytest.mark.parametrize(
    ("doc", "command", "shown", "code"), SHOWN, ids=[f"{s[0]}: {s[1]}" for s in SHOWN]
)
def test_shown_output_is_what_the_command_prints(
    doc: str, command: str, shown: list[str], code: list[str]
) -> None:
    lines, returncode = _run(command)
    # A document cannot keep trailing blanks (a diff's empty context line is one space).
    lines, shown = [line.rstrip() for line in lines], [line.rstrip() for line in shown]
    assert lines == shown, f"{doc}: `{command}` prints something else than the document shows"
    if code:
        assert code == [str(returncode)], f"{doc}: `{command}` exits with another code"


# --------------------------------------------------------------------------- paths


_PACKAGE_PATH = re.compile(r"(?<![\w./-])vaultkit/[\w./]*")
_DOMAIN_PATH = re.compile(
    r"(?<![\w./-])(?:base|vault|lint|agents|session|continuity|hooks|cli)/[\w./]*\w"
)
_MODULE = re.compile(r"(?<![\w./-])(\w+\.py)\b")
_DOTTED = re.compile(r"(?<![\w./-])vaultkit(?:\.[a-z_]+)+")
_NOT_MODULES = ("vaultkit.toml", "vaultkit.log")


def _repo_files() -> set[str]:
    require_program("git")
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True, timeout=30
    ).stdout.splitlines()
    return set(listed)


def _importable(dotted: str) -> bool:
    """A module, or a name a module defines (``vaultkit.api.build_graph``)."""
    try:
        return importlib.util.find_spec(dotted) is not None
    except ModuleNotFoundError:  # a parent is a module, not a package: look for an attribute
        module, _, attribute = dotted.rpartition(".")
        try:
            return hasattr(importlib.import_module(module), attribute)
        except ModuleNotFoundError:
            return False


@pytest.mark.parametrize("doc", GUIDES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_source_path_a_guide_names_exists(doc: Path) -> None:
    text = _text(doc)
    names = {Path(f).name for f in _repo_files()}
    missing = [p for p in _PACKAGE_PATH.findall(text) if not (ROOT / p.rstrip(".")).exists()]
    missing += [
        p
        for p in _DOMAIN_PATH.findall(text)
        if not (ROOT / "vaultkit" / p).exists() and not (ROOT / p).exists()
    ]
    missing += [m for m in _MODULE.findall(text) if m not in names]
    missing += [d for d in _DOTTED.findall(text) if d not in _NOT_MODULES and not _importable(d)]
    assert missing == [], f"{doc.relative_to(ROOT)} names files that do not exist"


# --------------------------------------------------------------------------- declared dependencies


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@pytest.mark.slow
def test_every_declared_dependency_is_imported_by_vaultkit() -> None:
    """pyproject.toml's dependency list is part of the documentation: nothing in it is unused."""
    project = tomllib.loads(_text(ROOT / "pyproject.toml"))["project"]
    declared = {
        _normalised(m.group(0))
        for spec in project["dependencies"]
        if (m := re.match(r"[A-Za-z0-9_.-]+", spec))
    }
    imported: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                imported.add(node.module.split(".")[0])
    distributions = importlib.metadata.packages_distributions()
    used = {_normalised(d) for name in imported for d in distributions.get(name, [])}
    assert "python-frontmatter" in declared
    assert sorted(declared - used) == []
