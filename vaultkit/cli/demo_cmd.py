"""``vaultkit demo``: the main job in seconds, nothing written outside a temporary folder."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from vaultkit.cli.app import command
from vaultkit.cli.demo_run import Demo, run
from vaultkit.cli.options import FormatOpt, OutputFormat
from vaultkit.errors import VaultkitError

KeepOpt = Annotated[
    bool, typer.Option("--keep", help="Keep the temporary project (its path is printed).")
]


@command("demo")
def demo(keep: KeepOpt = False, fmt: FormatOpt = OutputFormat.text) -> None:
    root = Path(tempfile.mkdtemp(prefix="vaultkit-demo-"))
    try:
        shown = run(root)
    except (VaultkitError, OSError, TimeoutError) as exc:
        hint = f"the temporary project is kept for a look: {root}"
        if isinstance(exc, VaultkitError):
            raise VaultkitError(
                exc.message, hint=f"{exc.hint}; {hint}" if exc.hint else hint
            ) from exc
        raise VaultkitError(f"the demo failed: {exc}", hint=hint) from exc
    if not keep:
        shutil.rmtree(root, ignore_errors=True)
    if fmt is OutputFormat.json:
        typer.echo(json.dumps(_as_json(shown, keep), ensure_ascii=False, indent=2))
        return
    typer.echo(_as_text(shown, keep))


def _as_json(shown: Demo, kept: bool) -> dict[str, object]:
    return {
        "project": str(shown.project),
        "kept": kept,
        "note": str(shown.note.relative_to(shown.project)),
        "note_text": shown.note_text,
        "index_line": shown.index_line,
        "session_start": shown.next_session,
        "distilled_seconds": round(shown.distilled_seconds, 2),
        "seconds": round(shown.seconds, 2),
    }


def _as_text(shown: Demo, kept: bool) -> str:
    note = shown.note.relative_to(shown.project).as_posix()
    where = (
        f"It is kept in {shown.project}: try `vaultkit search exchange` there."
        if kept
        else f"Nothing was written outside {shown.root}, and it is removed (--keep keeps it)."
    )
    parts = [
        f"A recorded Claude Code session ended in a temporary project; its SessionEnd hook queued"
        f" it and the worker distilled it offline in {shown.distilled_seconds:.1f} s"
        f" ({shown.seconds:.1f} s in all).",
        f"\n== The wiki note it wrote: {note}\n",
        shown.note_text.rstrip("\n"),
        "\n== Its line in sessions/wiki/INDEX.md\n",
        shown.index_line,
        "\n== What the next session's SessionStart hook gives the agent\n",
        shown.next_session.rstrip("\n"),
        f"\n{where}",
        "Next: `vaultkit hooks install` sets up your agents, `vaultkit doctor` checks them.",
    ]
    return "\n".join(parts)
