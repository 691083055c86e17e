"""``vaultkit forget SESSION_ID | --before DATE``: show what sessions left in the store; delete."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Annotated

import typer

from vaultkit.base.store import Store, find_store
from vaultkit.cli.app import command
from vaultkit.cli.common import unwritable
from vaultkit.errors import VaultkitError
from vaultkit.session.forget.remove import LOCK_WAIT, Plan, apply_forget, plan_forget


def _store(arg: Path | None) -> Store:
    if arg is None:
        return find_store()
    folder = arg.expanduser()
    if not folder.is_dir():
        raise VaultkitError(f"{folder}: not a folder", hint="pass the project or its sessions/")
    return find_store(folder.resolve())


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise VaultkitError(
            f"--before {text!r} is not an ISO date", hint="write it as YYYY-MM-DD"
        ) from None


def _show(plan: Plan) -> None:
    top = plan.store.root
    typer.echo(f"store {top}")
    for known in plan.sessions:
        ended = f"ended {known.ended:%Y-%m-%d %H:%M}" if known.ended else "end time unknown"
        typer.echo(f"session {known.session_id} ({ended})")
    for path in plan.files:
        typer.echo(f"  delete  {path.relative_to(top).as_posix()}")
    for path in plan.derived:
        typer.echo(f"  delete  {path.relative_to(top).as_posix()}  (derived, rebuilt on use)")
    for line in plan.index_lines:
        typer.echo(f"  INDEX   {line.strip()}")
    if plan.log_lines:
        typer.echo(f"  log     {plan.log_lines} line(s) of .vaultkit/vaultkit.log that name them")
    if plan.activity_lines:
        typer.echo(f"  log     {plan.activity_lines} line(s) of logs/ (the activity log)")


def _again(session_id: str | None, before: str | None) -> str:
    what = f"--before {before}" if before else str(session_id)
    return f"vaultkit forget {what} --yes"


@command("forget")
def forget(
    session_id: Annotated[
        str | None, typer.Argument(help="A session id, or its first 8 or more characters.")
    ] = None,
    before: Annotated[
        str | None, typer.Option("--before", help="Every session that ended before this date.")
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", help="Delete; without it, only show.")] = False,
    store_dir: Annotated[
        Path | None, typer.Option("--store", help="Project or sessions/ folder (default: here).")
    ] = None,
    wait: Annotated[
        float,
        typer.Option(
            "--wait", min=0, help="Seconds to wait for the store lock a worker holds, then give up."
        ),
    ] = LOCK_WAIT,
) -> None:
    """\b
    Examples:
      vaultkit forget 4f6a2c1e            # show what would be deleted
      vaultkit forget 4f6a2c1e --yes
      vaultkit forget --before 2026-01-01 --yes
    """
    if (session_id is None) == (before is None):
        raise VaultkitError("pass a SESSION_ID or --before DATE", hint="vaultkit forget --help")
    plan = plan_forget(
        _store(store_dir), session_id, before=_date(before) if before is not None else None
    )
    if not plan.sessions:
        typer.echo(f"no session ended before {before}; nothing to forget")
        return
    _show(plan)
    if not yes:
        raise VaultkitError(
            f"nothing deleted: {len(plan.files) + len(plan.derived)} file(s) listed above",
            hint=_again(session_id, before),
        )
    try:
        apply_forget(plan, wait=wait, say=lambda message: typer.echo(message, err=True))
    except OSError as exc:
        nothing = "the session(s) are not (fully) forgotten"
        raise unwritable(plan.store.root, exc, nothing, _again(session_id, before)) from exc
    typer.echo(f"forgot {len(plan.sessions)} session(s)")
