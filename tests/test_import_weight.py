"""A hook process loads only the standard library and lean vaultkit modules (proved, not assumed).

Each hook runs as a real process under ``python -X importtime``, which reports every module the
process imports; heavy libraries must not appear. The SessionEnd and SessionStart processes,
run through the command ``vaultkit hooks install`` writes, exactly as Claude Code runs them, must
not load the slow standard-library modules either (issue 7: each hook within 3x
``python -c pass``). The worker the SessionEnd hook spawns is a separate process and may import
what it needs.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hook_start_support import add_session, write_index
from hook_start_support import make_project as make_start_project
from worker_support import (
    claude_projects,
    exited,
    fixture_session_id,
    hook_env,
    make_project,
    payload_bytes,
    spawned_pids,
    wait_for,
    write_transcript,
)

from vaultkit.agents import hookcmd
from vaultkit.base.store import Store

FORBIDDEN = {"typer", "click", "networkx", "markdown_it", "yaml", "frontmatter", "rich"}
# Standard-library modules a lean hook process does without (each costs milliseconds, most of
# them pull in more: dataclasses -> inspect -> ast/dis, pathlib -> urllib -> ipaddress, ...).
SLOW_STDLIB = {
    "dataclasses",
    "inspect",
    "typing",
    "pathlib",
    "tempfile",
    "shutil",
    "random",
    "urllib",
    "ipaddress",
    "tomllib",
    "datetime",
    "contextlib",
    "subprocess",
    "unicodedata",
    "runpy",
}
HOOKS = Path(__file__).resolve().parent.parent / "vaultkit" / "hooks"
SCRIPT = Path(sys.executable).parent / "vaultkit-hook"  # pip's script (Codex and Gemini hooks)
# What `vaultkit hooks install` writes for Claude: this Python, -I -S …/vaultkit/vaultkit_hook.py.
INSTALLED = hookcmd.hook_command(sys.executable, "vaultkit-hook")
assert INSTALLED[0] == sys.executable, INSTALLED


def _events() -> list[str]:
    names = [p.stem for p in HOOKS.glob("*.py") if p.stem not in ("__init__", "common")]
    return sorted("".join(part.title() for part in name.split("_")) for name in names)


def imported_modules(
    event: str, stdin: bytes, cwd: Path, *, entry: tuple[str, ...] = ("-m", "vaultkit.hookentry")
) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *entry, event],
        input=stdin,
        cwd=cwd,
        env=hook_env(VAULTKIT_SETTLE_SECONDS="0.05"),
        capture_output=True,
        timeout=30,
        check=True,
    )
    lines = done.stderr.decode().splitlines()
    rows = [line.split("|")[-1].strip() for line in lines if line.startswith("import time:")]
    return {row for row in rows if row and row != "package"}


def test_events_are_discovered() -> None:
    assert "SessionEnd" in _events()


@pytest.mark.parametrize("event", _events())
def test_hook_process_imports_no_heavy_library(event: str, tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    missing = tmp_path / "never-written.jsonl"  # the spawned worker drops the job at once
    stdin = payload_bytes("session_end_other.json", missing, project)
    stdin = stdin.replace(b'"SessionEnd"', f'"{event}"'.encode())
    modules = imported_modules(event, stdin, project)
    handler = "vaultkit.hooks." + "".join(
        f"_{c.lower()}" if c.isupper() else c for c in event
    ).lstrip("_")
    assert handler in modules, "the handler itself must have run"
    heavy = sorted(m for m in modules if m.split(".")[0] in FORBIDDEN)
    assert heavy == []
    assert not any(m.startswith("vaultkit.cli") for m in modules)
    pids = spawned_pids(Store(project / "sessions"))
    wait_for(lambda: all(exited(pid) for pid in pids), 10, "spawned workers to exit")


def test_the_check_would_notice_a_heavy_import(tmp_path: Path) -> None:
    """The same measurement on a typer command does see typer and click, so the test can fail
    (``vaultkit version`` no longer loads typer: it is answered before the CLI is imported)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "vaultkit", "hooks", "--help"],
        capture_output=True,
        timeout=30,
        check=True,
    )
    assert "typer" in done.stderr.decode()
    assert "click" in done.stderr.decode()


def _slow(modules: set[str]) -> list[str]:
    return sorted({m.split(".")[0] for m in modules} & SLOW_STDLIB)


# The first hook run after vaultkit.toml changed parses it: tomllib and what it imports. Every
# later run reads the parse from the hooks' cache (vaultkit.base.config.load_cached).
TOML_PARSE = ["contextlib", "datetime", "tomllib", "typing"]


def test_session_end_process_loads_no_slow_stdlib_module(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    (project / "sessions").mkdir()
    (project / "sessions" / "vaultkit.toml").write_text('[distill]\nbackend = "offline"\n')
    seen = []
    for sid in ("s-lean-1", "s-lean-2"):
        transcript = write_transcript(claude_projects() / f"{sid}.jsonl", sid)
        stdin = payload_bytes("session_end_other.json", transcript, project)
        stdin = stdin.replace(fixture_session_id("session_end_other.json").encode(), sid.encode())
        modules = imported_modules("SessionEnd", stdin, project, entry=INSTALLED[1:])
        assert "vaultkit.hooks.session_end" in modules
        assert "vaultkit.session.queue.spawn" in modules, "the worker was started"
        seen.append(_slow(modules))
    assert seen == [TOML_PARSE, []]
    pids = spawned_pids(Store(project / "sessions"))
    wait_for(lambda: all(exited(pid) for pid in pids), 30, "spawned workers to exit")


def test_session_start_process_loads_no_slow_stdlib_module(tmp_path: Path) -> None:
    """``startup`` in a store with summaries, wiki notes, INDEX.md and a vaultkit.toml: the whole
    injection is built."""
    project = make_start_project(tmp_path / "proj")
    names = [add_session(project, 20 + i, "0900", f"sess{i}aaa", f"Work {i}") for i in range(4)]
    write_index(project, names)
    (project / "sessions" / "vaultkit.toml").write_text("[inject]\nrecent = 2\n")
    stdin = json.dumps({"session_id": "now", "cwd": str(project), "source": "startup"}).encode()
    seen = []
    for _ in range(2):
        modules = imported_modules("SessionStart", stdin, project, entry=INSTALLED[1:])
        assert "vaultkit.hooks.session_start" in modules
        assert "vaultkit.continuity.inject" in modules, "the injection was built"
        seen.append(_slow(modules))
    assert seen == [TOML_PARSE, []]


def test_the_slow_stdlib_check_would_notice_a_slow_import() -> None:
    """The same measurement on a process that imports dataclasses and pathlib reports them."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import dataclasses, pathlib"],
        capture_output=True,
        timeout=30,
        check=True,
    )
    rows = {line.split("|")[-1].strip() for line in done.stderr.decode().splitlines()}
    assert {"dataclasses", "inspect", "pathlib", "urllib"} <= set(_slow(rows))


# --- the lean set: declared once (vaultkit/leanset.py), reached exactly, tricks kept inside -----

PACKAGE = Path(__file__).resolve().parent.parent / "vaultkit"
# Outside the lean set, a module imports at its top. These keep function-level imports, each
# for a reason that is not a hook's start-up: a heavy library loaded where it is used (the
# layer rules' HEAVY), a platform's own module, an import circle, the typer-free CLI path
# (`vaultkit --version`, `lint`, `search`, `graph`, `stats` and `links` without typer, measured
# in benchmarks/README.md), or the worker's distiller loaded only for a job it holds.
LAZY = {
    "vaultkit.api": "networkx (build_graph)",
    "vaultkit.base.author": "pwd: POSIX only",
    "vaultkit.cli": "the typer-free CLI path: typer only for what quick cannot answer",
    "vaultkit.cli.quick": "the typer-free CLI path: each command's body on demand",
    "vaultkit.cli.lint_run": "the typer-free CLI path: the lint engine and cache on demand",
    "vaultkit.cli.search_run": "the typer-free CLI path: the search engine on demand",
    "vaultkit.cli.graph_run": "the typer-free CLI path: the vault engine on demand",
    "vaultkit.cli.stats_run": "the typer-free CLI path: the vault engine on demand",
    "vaultkit.cli.links_run": "the typer-free CLI path: the vault engine on demand",
    "vaultkit.cli.mcp_cmd": "the MCP server only when `vaultkit mcp` runs",
    "vaultkit.mcp.tools": "initialize answered at once: the search and vault engines, the note"
    " writer (PyYAML) and the curation engine on a tool's first call",
    "vaultkit.continuity.loop": "termios and tty (POSIX) or msvcrt (Windows)",
    "vaultkit.lint.files": "subprocess only when --staged runs git",
    "vaultkit.lint.fix": "markdown-it only when a fix rewrites a link",
    "vaultkit.lint.output": "json only for --format json",
    "vaultkit.search.document": "the parser only when a note is re-indexed",
    "vaultkit.search.index": "the parser and a process pool only when notes are re-indexed",
    "vaultkit.search.recall": "the vault engine only for related notes",
    "vaultkit.search.words": "PyStemmer, optional: without it words are not stemmed",
    "vaultkit.session.distill.childguard": "ctypes: Linux's prctl only",
    "vaultkit.session.queue.priority": "ctypes: Linux's ioprio only",
    "vaultkit.session.worker.job": "the distiller (PyYAML, markdown-it) only for a job it holds",
    "vaultkit.session.worker.steps": "the distiller (PyYAML, markdown-it) only for a job it holds",
    "vaultkit.vault.fastparse.links": "markdown-it's link normaliser only for links needing it",
    "vaultkit.vault.records": "the circle with parse",
    "vaultkit.vault.strategy": "the process pool only when the strategy picks it",
    "vaultkit.cli.common": "the typer-free CLI path: store refresh, transcript checks on demand",
    "vaultkit.lint.runner": "the store's link walk only when the vault is a session store",
    "vaultkit.vault.graph": "networkx only for the exports that need it",
    "vaultkit.vault.parallel": "the process pool and the parser in its workers",
    "vaultkit.vault.parse": "markdown-it and PyYAML only for what the fast path declines",
}
# ``TYPE_CHECKING = False`` (``import typing`` costs ~4 ms) outside the lean set: the quick
# ``--help`` and ``--version`` only (every command's run module imports typing anyway; measured in
# benchmarks/README.md, "What each speed trick buys"). The shims outside it: frontmatter read
# with the reader SessionStart uses (mcp.tools: the summaries; notes.quality and
# distill.catalogue: the store's own notes).
# The search path as well: with its records from base.record it imports no typing at all, and a
# whole `vaultkit search` is 57 against 63 ms with `import typing` added (paired, 2026-12-03).
TYPING_TRICK = {
    "vaultkit.cli.quick",
    "vaultkit.api",
    "vaultkit.cli.progress",
    "vaultkit.cli.quickwords",
    "vaultkit.search.index",
    "vaultkit.search.recall",
}
SHIM_USERS = {
    "vaultkit.mcp.tools",
    "vaultkit.session.notes.quality",
    "vaultkit.session.distill.catalogue",
}
SHIMS = {"vaultkit.base.leanjson", "vaultkit.base.leanglob", "vaultkit.base.leanmeta"}


def _module_files() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _type_checking(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and (node.test.id == "TYPE_CHECKING")
    )


def _runtime_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """Every node under ``node`` but those only type checkers see (``if TYPE_CHECKING:``)."""
    for child in ast.iter_child_nodes(node):
        if _type_checking(child):
            assert isinstance(child, ast.If)
            for other in child.orelse:
                yield other
                yield from _runtime_nodes(other)
            continue
        yield child
        yield from _runtime_nodes(child)


def _imported(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The vaultkit modules ``module`` may import at run time (any depth in the file)."""
    names: set[str] = set()
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            start = ".".join([*base, *([node.module] if node.module else [])])
            names.add(start)
            names.update(f"{start}.{alias.name}" for alias in node.names)
    found: set[str] = set()
    for name in names:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name:
            parts = name.split(".")
            found.update(".".join(parts[:n]) for n in range(1, len(parts) + 1))
    return found


def reached() -> set[str]:
    """What the hook entry points reach, with every agent's parts a hook loads by name."""
    from vaultkit import leanset
    from vaultkit.agents import known as agents

    known = _module_files()
    starts = [*leanset.ENTRY_POINTS]
    for package in agents.AGENTS.values():
        starts += [f"{package}.{part}" if part else package for part in leanset.AGENT_PARTS]
    seen: set[str] = set()
    todo = [name for name in starts if name in known]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += _imported(name, known[name], known) - seen
    return seen


def test_the_lean_set_is_exactly_what_the_hook_entry_points_reach() -> None:
    from vaultkit.leanset import LEAN

    assert list(LEAN) == sorted(set(LEAN)), "sorted, once each"
    assert sorted(reached() - set(LEAN)) == [], "on the hook path: declare it in leanset.LEAN"
    assert sorted(set(LEAN) - reached()) == [], "no longer on the hook path: remove it"


def _function_imports(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inner = ast.walk(node)
            lines += [n.lineno for n in inner if isinstance(n, ast.Import | ast.ImportFrom)]
    return sorted(set(lines))


def _typing_trick(path: Path) -> bool:
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "TYPE_CHECKING" for t in node.targets
        ):
            return True
    return False


def test_the_import_weight_tricks_stay_in_the_lean_set() -> None:
    from vaultkit.leanset import LEAN

    known = _module_files()
    outside = {name: path for name, path in known.items() if name not in set(LEAN)}
    lazy = {n: _function_imports(p) for n, p in outside.items() if n not in LAZY}
    assert {n: lines for n, lines in lazy.items() if lines} == {}, "import at the top"
    assert sorted(n for n in LAZY if not _function_imports(known[n])) == [], "plain now: unlist"
    typing_trick = sorted(n for n, p in outside.items() if _typing_trick(p))
    assert typing_trick == sorted(TYPING_TRICK), "use `from typing import TYPE_CHECKING`"
    shim_users = {n for n, p in outside.items() if _imported(n, p, known) & SHIMS}
    assert shim_users <= SHIM_USERS | SHIMS, "json, re, fnmatch or PyYAML outside the lean set"


def _vaultkit(modules: set[str]) -> set[str]:
    return {m for m in modules if m == "vaultkit" or m.startswith("vaultkit.")}


@pytest.mark.parametrize("event", _events())
def test_a_hook_process_loads_only_the_lean_set(event: str, tmp_path: Path) -> None:
    from vaultkit.leanset import LEAN

    project = make_start_project(tmp_path / "proj")
    add_session(project, 20, "0900", "sessaaaa", "Work")
    sid = "s-lean-set"
    transcript = write_transcript(claude_projects() / f"{sid}.jsonl", sid)
    stdin = json.dumps(
        {"session_id": sid, "transcript_path": str(transcript), "cwd": str(project)}
        | {"hook_event_name": event, "reason": "other", "source": "startup", "prompt": "hi"}
    ).encode()
    modules = _vaultkit(imported_modules(event, stdin, project, entry=INSTALLED[1:]))
    assert len(modules) > 10, "the hook ran"
    assert sorted(modules - set(LEAN)) == []
    pids = spawned_pids(Store(project / "sessions"))
    wait_for(lambda: all(exited(pid) for pid in pids), 30, "spawned workers to exit")
