"""Every graph export of the fixture vaults and a generated vault equals its committed golden."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from conftest import REPO

from benchmarks.generate import write_vault
from vaultkit.vault.graph import FORMATS, build_graph, export, export_vault
from vaultkit.vault.load import load_vault

ROOT = REPO
GOLDEN = ROOT / "tests" / "fixtures" / "graph_golden"
FIXTURES = sorted(p.name for p in (ROOT / "tests" / "fixtures" / "vaults").iterdir())
_DATE = re.compile(r'lastmodifieddate="[0-9-]+"')  # GEXF writes today's date


def _exports(root: Path) -> dict[str, str]:
    graph = build_graph(load_vault(root, cache=False))
    out = {fmt: export(graph, fmt) for fmt in FORMATS}
    out["gexf"] = _DATE.sub('lastmodifieddate="DATE"', out["gexf"])
    return out


def _golden(name: str, fmt: str) -> str:
    plain = GOLDEN / f"{name}.{fmt}"
    if plain.exists():
        return plain.read_bytes().decode("utf-8")
    return gzip.decompress((GOLDEN / f"{name}.{fmt}.gz").read_bytes()).decode("utf-8")


def _check(name: str, root: Path) -> None:
    got = _exports(root)
    for fmt in FORMATS:
        assert got[fmt] == _golden(name, fmt), f"{name}.{fmt} differs from its golden file"


@pytest.mark.parametrize("name", FIXTURES)
def test_fixture_vault_exports_match_golden(name: str) -> None:
    _check(name, ROOT / "tests" / "fixtures" / "vaults" / name / "vault")


def test_example_wiki_exports_match_golden() -> None:
    _check("example-wiki", ROOT / "examples" / "sessions" / "wiki")


def test_generated_vault_exports_match_golden(tmp_path: Path) -> None:
    _check("syn-300", write_vault(tmp_path / "vault", 300, 7))


def test_vault_json_without_networkx_equals_networkx_json(tmp_path: Path) -> None:
    roots = [ROOT / "tests" / "fixtures" / "vaults" / name / "vault" for name in FIXTURES]
    roots += [ROOT / "examples" / "sessions" / "wiki", write_vault(tmp_path / "v", 300, 7)]
    roots.append(write_vault(tmp_path / "real", 200, 3, profile="real"))
    for root in roots:
        vault = load_vault(root, cache=False)
        assert export_vault(vault, "json") == export(build_graph(vault), "json"), root
