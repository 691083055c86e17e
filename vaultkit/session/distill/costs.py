"""What distillation costs: one JSONL line per distillation in ``.vaultkit/costs.jsonl``; sums.

Each line is what the backend reported (``claude -p --output-format json`` gives token usage and
``total_cost_usd``; other backends report nothing, recorded as zero). The log is append-only: one
``O_APPEND`` write per line, so concurrent workers never interleave or lose a line; only
``vaultkit forget`` rewrites it, to blank a forgotten session's id. Lean (stdlib).
"""

from __future__ import annotations

import json
import os

from vaultkit.base.fsio import atomic_write_text
from vaultkit.base.record import Record
from vaultkit.base.store import Store

COST_LOG = "costs.jsonl"


class Usage(Record):
    """Tokens and cost of one or more backend calls, as the backend reported them."""

    input_tokens: int = 0  # including cache reads and writes
    output_tokens: int = 0
    cost_usd: float = 0.0
    model: str = ""

    def plus(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cost_usd + other.cost_usd,
            self.model or other.model,
        )


NO_USAGE = Usage()


class Entry(Record):
    """One distillation's line in the cost log (``date`` is the local ``YYYY-MM-DD``)."""

    date: str
    session_id: str
    backend: str
    model: str
    input_tokens: int
    output_tokens: int
    cost_usd: float


class Totals(Record):
    sessions: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0

    def add(self, entry: Entry) -> Totals:
        return Totals(
            self.sessions + 1,
            self.input_tokens + entry.input_tokens,
            self.output_tokens + entry.output_tokens,
            self.cost_usd + entry.cost_usd,
        )


def log_path(store: Store) -> str:
    return os.path.join(store.at("state"), COST_LOG)


def record(store: Store, entry: Entry) -> None:
    """Append ``entry`` as one line (one write; raises OSError when the store is not writable)."""
    line = json.dumps(entry.as_dict(), ensure_ascii=False, separators=(",", ":")) + "\n"
    path = log_path(store)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.write(fd, line.encode("utf-8"))
    finally:
        os.close(fd)


def entries(store: Store) -> list[Entry]:
    """Every readable line of the cost log (a damaged line is skipped, not fatal)."""
    try:
        with open(log_path(store), encoding="utf-8", errors="replace") as handle:
            lines = handle.readlines()
    except FileNotFoundError:
        return []
    found = []
    for line in lines:
        try:
            found.append(Entry(**json.loads(line)))
        except (ValueError, TypeError):
            continue
    return found


def forget(store: Store, session_ids: tuple[str, ...]) -> int:
    """Blank the session id of these sessions' lines (``vaultkit forget``): what they cost still
    counts towards the day's budget, but no line names them. Returns how many lines changed."""

    found = entries(store)
    kept = [e.replace(session_id="") if e.session_id in session_ids else e for e in found]
    changed = sum(a != b for a, b in zip(found, kept, strict=True))
    if changed:
        lines = (json.dumps(e.as_dict(), ensure_ascii=False, separators=(",", ":")) for e in kept)
        atomic_write_text(log_path(store), "".join(f"{line}\n" for line in lines))
    return changed


def totals(store: Store, prefix: str) -> Totals:
    """The sum of the entries whose date starts with ``prefix`` (a day or ``YYYY-MM``)."""
    total = Totals()
    for entry in entries(store):
        if entry.date.startswith(prefix):
            total = total.add(entry)
    return total


def money(value: float) -> str:
    """Dollars with two decimals, or up to four for the small sums one session costs."""
    whole, _, cents = f"{value:.4f}".partition(".")
    return f"${whole}.{cents.rstrip('0').ljust(2, '0')}"


def spent(label: str, total: Totals) -> str:
    """``today 3 session(s), 12,345 tokens, $0.04``: one period's line in ``vaultkit doctor``."""
    tokens = total.input_tokens + total.output_tokens
    return f"{label} {total.sessions} session(s), {tokens:,} tokens, {money(total.cost_usd)}"


def cost_line(day: Totals, month: Totals, cap: float) -> str:
    """Today's and this month's spending with the daily budget, as ``vaultkit doctor`` says it."""
    budget = f"daily budget {money(cap)}" if cap > 0 else "no daily budget"
    return f"{spent('today', day)}; {spent('this month', month)} ({budget})"
