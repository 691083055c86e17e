"""Command-line entry point: registers the command modules and turns errors into one line."""

from __future__ import annotations

import sys

from vaultkit.cli.app import app
from vaultkit.errors import VaultkitError

# Each module registers its commands on ``app`` when imported; the order is the order of
# ``vaultkit --help``: the vault engine first, then the session memory, then continuity.
from vaultkit.cli import lint_cmd, index_cmd, graph_cmd, watch_cmd  # noqa: F401  isort: skip
from vaultkit.cli import hooks_cmd, session_cmd, ingest_cmd, forget_cmd  # noqa: F401  isort: skip
from vaultkit.cli import search_cmd, mcp_cmd  # noqa: F401  isort: skip
from vaultkit.cli import continuity_cmd, version_cmd  # noqa: F401  isort: skip

__all__ = ["app", "main"]


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; a :class:`VaultkitError` becomes ``error: …`` on stderr and exit code 2."""
    try:
        app(args=argv, standalone_mode=True)
    except VaultkitError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return 0
        return code if isinstance(code, int) else 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
