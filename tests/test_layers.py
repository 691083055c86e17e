"""Imports point downward: heavy libraries stay in their modules, the core never reaches up."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "vaultkit"

# Third-party modules and the only vaultkit modules allowed to import them (prefix match).
HEAVY: dict[str, tuple[str, ...]] = {
    "typer": ("vaultkit.cli",),
    "click": ("vaultkit.cli",),
    "networkx": ("vaultkit.graph", "vaultkit.api"),
    "markdown_it": ("vaultkit.wikilink", "vaultkit.parse"),
}

# The pure core must not import the I/O edge or the surfaces.
CORE = (
    "vaultkit.model",
    "vaultkit.gcpause",
    "vaultkit.fastparse",
    "vaultkit.wikilink",
    "vaultkit.parse",
    "vaultkit.resolve",
    "vaultkit.analysis",
    "vaultkit.index",
    "vaultkit.inject",
    "vaultkit.settings",
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


def test_core_never_imports_upward() -> None:
    offences = [
        f"{module} imports {imported}"
        for module, imports in _all_modules().items()
        if _under(module, CORE)
        for imported in imports
        if _under(imported, UPPER)
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
        if _under(module, ("vaultkit.lint",))
        for imported in imports
        if _under(imported, ("vaultkit.lintcache", "vaultkit.cache"))
    ]
    assert offences == []
