"""What ``vaultkit stats`` does once its options are known, without typer: the typer command
(cli/graph_cmd.py) and the quick path (cli/quick.py) both call :func:`run`.

:func:`read_quick` reads the plain forms (``--format value``, ``--format=value``, ``-f value``,
one vault folder) and leaves anything else, or anything typer would reject, to typer (None).
``OPTIONS`` lists every option the typer command has; a test compares the two.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vaultkit.cli import quickwords
from vaultkit.cli.common import resolve_vault
from vaultkit.cli.spec import TEXT_FORMAT, spellings

if TYPE_CHECKING:
    from vaultkit.vault.load import Vault

FORMATS = ("text", "json")
OPTIONS = spellings(TEXT_FORMAT)  # spelling -> field; both take a value


@dataclass(frozen=True, slots=True)
class StatsArgs:
    """The options of one ``vaultkit stats`` run."""

    vault: Path | None = None
    fmt: str = "text"


def read_quick(argv: list[str]) -> StatsArgs | None:
    """The options of ``vaultkit stats ARGV…`` when every word is plain and valid; else None."""
    words = quickwords.split(argv, OPTIONS, OPTIONS.values(), most=1)
    if words is None or len(words.values) > 1:
        return None  # typer's call, as is a second --format
    fmt = words.values[0][1] if words.values else None
    if fmt is not None and fmt not in FORMATS:
        return None
    vault = Path(words.positional[0]) if words.positional else None
    return StatsArgs(vault, fmt or "text")


def vault_stats(vault: Vault, *, top: int = 5) -> dict[str, Any]:
    """Counts describing a vault (what ``vaultkit stats`` prints)."""
    from vaultkit.vault import analysis

    kinds = Counter(item.link.kind for item in vault.links)
    tag_counts = sorted(analysis.tags(vault).items(), key=lambda kv: (-kv[1], kv[0]))
    return {
        "notes": len(vault.notes),
        "attachments": len(vault.attachments),
        "links": {"total": len(vault.links), **dict(sorted(kinds.items()))},
        "ghosts": len(analysis.ghosts(vault)),
        "orphans": len(analysis.orphans(vault)),
        "isolated": len(analysis.isolated(vault)),
        "dead_ends": len(analysis.dead_ends(vault)),
        "degraded": len(analysis.degraded(vault)),
        "ambiguous_links": len(analysis.ambiguous(vault)),
        "tags": dict(tag_counts[:top]),
    }


def _pairs(counts: dict[str, int]) -> str:
    return ", ".join(f"{key} {value}" for key, value in counts.items()) or "-"


def _stats_text(stats: dict[str, Any]) -> str:
    lines = []
    for key, value in stats.items():
        if key == "links":
            by_kind = {k: v for k, v in value.items() if k != "total"}
            value = f"{value['total']} ({_pairs(by_kind)})" if by_kind else value["total"]
        elif key == "tags":
            value = _pairs(value)
        lines.append(f"{key.replace('_', ' ')}: {value}")
    return "\n".join(lines)


def run(args: StatsArgs) -> int:
    """Print the vault's counts as text or JSON."""
    from vaultkit.vault.load import load_vault

    result = vault_stats(load_vault(resolve_vault(args.vault)))
    if args.fmt == "json":
        print(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        print(_stats_text(result))
    return 0
