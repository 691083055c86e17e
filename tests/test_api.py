"""The public API: its names, its lazy networkx import, and the example in its docstring."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import vaultkit.api as api

REPO = Path(__file__).resolve().parent.parent

EXPECTED = {
    "load_vault",
    "Vault",
    "parse_note",
    "Note",
    "Link",
    "Finding",
    "build_graph",
    "ghosts",
    "orphans",
    "isolated",
    "dead_ends",
    "backlinks",
    "degraded",
    "resolve_target",
    "search",
    "search_everywhere",
    "related",
    "filters",
    "Filters",
    "Found",
    "Hit",
    "Across",
    "ProjectHit",
    "Neighbours",
    "Related",
}


def test_public_names_are_exported() -> None:
    assert set(api.__all__) == EXPECTED
    assert all(callable(getattr(api, name)) for name in EXPECTED)


def _run(code: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=env, timeout=60
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_importing_the_api_does_not_import_networkx() -> None:
    code = (
        "import sys, vaultkit.api\n"
        "print('networkx' in sys.modules)\n"
        "from pathlib import Path\n"
        "vaultkit.api.build_graph(vaultkit.api.load_vault(Path('examples/sessions/wiki')))\n"
        "print('networkx' in sys.modules)\n"
    )
    assert _run(code).split() == ["False", "True"]


def test_docstring_example_runs() -> None:
    doc = api.__doc__ or ""
    lines = [line[4:] for line in doc.splitlines() if line.startswith("    ")]
    assert len(lines) == 8
    out = _run("\n".join(lines))
    assert "Backup and restore" in out and "Idempotency" in out
    assert "2026-11-20_0915_e0c4b9f7_Currency conversion cache.md" in out
    assert "('wiki/concepts/Idempotent imports.md', " in out  # search, typed hits
    assert "'concepts/Transaction fingerprint.md'" in out  # related


def test_parse_and_resolve_through_the_api() -> None:
    note = api.parse_note("n.md", b"See [[Other#Part|shown]].\n")
    (link,) = note.links
    assert (link.target, link.subpath, link.display) == ("Other", "Part", "shown")
    vault = api.load_vault(REPO / "examples" / "sessions" / "wiki")
    resolution = api.resolve_target(vault.index, "INDEX.md", "glossary")
    assert resolution.path == "Glossary.md"


def test_search_and_related_give_typed_redacted_results(tmp_path: Path) -> None:
    import shutil

    from vaultkit.errors import VaultkitError

    store = tmp_path / "sessions"
    shutil.copytree(
        REPO / "examples" / "sessions", store, ignore=shutil.ignore_patterns(".vaultkit")
    )
    note = store / "wiki" / "concepts" / "Idempotent imports.md"
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    note.write_text(note.read_text("utf-8") + f"\nidempotent token {secret}\n", "utf-8")
    found = api.search(store, "idempotent token", kinds=("wiki",), limit=3)
    assert isinstance(found, api.Found) and all(isinstance(h, api.Hit) for h in found.hits)
    assert found.hits[0].path == "wiki/concepts/Idempotent imports.md"
    assert all(secret not in h.snippet for h in found.hits)
    try:
        api.search(store, "x", since="soon")
    except VaultkitError as exc:
        assert "since 'soon': not a date" in str(exc)
    else:
        raise AssertionError("a bad since was taken")
    near = api.related(store / "wiki", "Idempotent imports", limit=2)
    assert isinstance(near, api.Neighbours) and isinstance(near.related[0], api.Related)
    assert near.related[0].path == "concepts/Transaction fingerprint.md"
