"""Imports point downward: heavy libraries stay in their modules, the core never reaches up."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "vaultkit"

# Third-party modules and the only vaultkit modules allowed to import them (prefix match).
HEAVY: dict[str, tuple[str, ...]] = {
    "typer": ("vaultkit.cli",),
    "click": ("vaultkit.cli",),
    "networkx": ("vaultkit.vault.graph", "vaultkit.api"),
    "mcp": (),  # a test dependency: the server speaks the protocol itself (vaultkit/mcp/rpc.py)
    "pydantic": (),
    "markdown_it": ("vaultkit.vault.wikilink", "vaultkit.vault.parse"),
    "yaml": ("vaultkit.vault.yamlfront", "vaultkit.session.notes.write"),
}

# The layers, bottom to top: each package may import only the packages listed for it (and
# itself). ``errors`` and ``base`` sit under everything; the vault engine and lint stand apart
# from the session side; the surfaces (hooks, cli) sit on top and nothing imports them.
LAYERS: dict[str, frozenset[str]] = {
    "errors": frozenset(),
    "base": frozenset({"errors"}),
    "vault": frozenset({"errors", "base"}),
    "lint": frozenset({"errors", "base", "vault"}),
    "search": frozenset({"errors", "base", "vault"}),
    "agents": frozenset({"errors", "base"}),
    "session": frozenset({"errors", "base", "vault", "search", "agents"}),
    "curate": frozenset({"errors", "base", "vault", "lint", "search"}),
    "continuity": frozenset({"errors", "base", "agents", "session"}),
    "mcp": frozenset(
        {
            "errors",
            "base",
            "vault",
            "search",
            "agents",
            "session",
            "continuity",
            "api",
            "curate",
        }
    ),
    "hooks": frozenset({"errors", "base", "agents", "session", "continuity"}),
    "api": frozenset({"errors", "base", "vault", "search", "session"}),
    "hookentry": frozenset({"errors", "base", "agents", "hooks"}),
    "vaultkit_hook": frozenset({"errors", "base", "hookentry"}),
    "leanset": frozenset({"errors", "base"}),  # the hook path declared; tests import it
    "cli": frozenset(
        {
            "errors",
            "base",
            "vault",
            "lint",
            "search",
            "agents",
            "session",
            "continuity",
            "mcp",
            "api",
            "curate",
        }
    ),
    "__main__": frozenset({"cli"}),
}
# The pure core of the vault engine does no I/O: it never imports the store, config or files.
CORE = (
    "vaultkit.vault.model",
    "vaultkit.vault.fastparse",
    "vaultkit.vault.wikisyntax",
    "vaultkit.vault.wikilink",
    "vaultkit.vault.yamlfront",
    "vaultkit.vault.parse",
    "vaultkit.vault.resolve",
    "vaultkit.vault.relink",
    "vaultkit.vault.analysis",
    "vaultkit.vault.index",
    "vaultkit.vault.value",
    "vaultkit.continuity.inject",
    "vaultkit.agents.claude.settings",
)
IO_EDGE = (
    "vaultkit.base.store",
    "vaultkit.base.config",
    "vaultkit.base.fsio",
    "vaultkit.base.log",
    "vaultkit.vault.load",
    "vaultkit.vault.cache",
    "vaultkit.vault.scoped",
)
UPPER = ("vaultkit.cli", "vaultkit.hooks", "vaultkit.hookentry", "vaultkit.session.worker")


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def _under(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _all_modules() -> dict[str, set[str]]:
    return {_module_name(p): _imports(p) for p in sorted(PACKAGE.rglob("*.py"))}


def test_heavy_libraries_stay_in_their_modules() -> None:
    offences = [
        f"{module} imports {imported}"
        for module, imports in _all_modules().items()
        for imported in imports
        for heavy, allowed in HEAVY.items()
        if _under(imported, (heavy,)) and not _under(module, allowed)
    ]
    assert offences == []


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "(package)"


def test_every_package_has_a_layer_and_a_one_line_purpose() -> None:
    modules = _all_modules()
    assert {_layer(m) for m in modules} - {"(package)", "__init__"} <= set(LAYERS)
    for init in sorted(PACKAGE.rglob("__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        first = doc.splitlines()[0] if doc else ""
        assert first.endswith("."), f"{init}: needs a docstring whose first line says its purpose"


def test_imports_point_down_the_layers() -> None:
    offences = [
        f"{module} imports {imported}"
        for module, imports in _all_modules().items()
        if _layer(module) in LAYERS
        for imported in imports
        if imported.startswith("vaultkit.")
        and _layer(imported) != _layer(module)
        and _layer(imported) not in LAYERS[_layer(module)]
    ]
    assert offences == []


def test_core_never_imports_upward_or_does_io() -> None:
    offences = [
        f"{module} imports {imported}"
        for module, imports in _all_modules().items()
        if _under(module, CORE)
        for imported in imports
        if _under(imported, UPPER + IO_EDGE)
    ]
    assert offences == []


def test_nothing_below_the_cli_imports_it() -> None:
    offences = [
        f"{module} imports {imported}"
        for module, imports in _all_modules().items()
        if not _under(module, ("vaultkit.cli",)) and module != "vaultkit.__main__"
        for imported in imports
        if _under(imported, ("vaultkit.cli",))
    ]
    assert offences == []


def test_lint_rules_never_import_the_lint_cache() -> None:
    """The lint cache (I/O edge) runs the rules; the rules never reach up to it."""
    offences = [
        f"{module} imports {imported}"
        for module, imports in _all_modules().items()
        if _under(module, ("vaultkit.lint",)) and not _under(module, ("vaultkit.lint.cache",))
        for imported in imports
        if _under(imported, ("vaultkit.lint.cache", "vaultkit.vault.cache"))
    ]
    assert offences == []


def _is_command_module(module: str) -> bool:
    return module.startswith("vaultkit.cli.") and module.endswith("_cmd")


def test_no_cli_command_module_imports_another_or_a_hook_module() -> None:
    """The CLI stays thin: a ``*_cmd`` module parses arguments, calls the library and formats.
    What two commands share lives in the library or in the CLI's infrastructure modules
    (app, common, options, progress, ...), never in another command module or a hook."""
    offences = [
        f"{module} imports {imported}"
        for module, imports in _all_modules().items()
        if _is_command_module(module)
        for imported in imports
        if (_is_command_module(imported) and imported != module)
        or _under(imported, ("vaultkit.hooks", "vaultkit.hookentry"))
    ]
    assert offences == []
