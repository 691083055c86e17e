"""Condense an agent's transcript by streaming its adapter's entries, in bounded memory.

The agent's reader (:mod:`vaultkit.agents.readers`: each agent's own ``reader`` part) gives
prompts, the assistant's visible text, tool calls and session facts, having dropped tool results,
injected context (vaultkit's own included), system and bookkeeping records; this keeps the
prompts, the text and a one-line trail of tool actions, without what the user marked
``<private>…</private>``. The most recent turns are kept in full within the character budget;
early turns are kept in a short, trimmed head. Everything returned has been redacted.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vaultkit.agents import jsonlines, readers
from vaultkit.agents.adapter import ASSISTANT, META, TOOL, USER, Entry
from vaultkit.agents.known import DEFAULT
from vaultkit.session.transcripts.redact import redact

__all__ = ["Digest", "condense", "iter_lines", "iter_records"]

MAX_LINE_BYTES = 16 * 1024 * 1024  # longer lines (huge pastes / tool dumps) are skipped
HEAD_SHARE = 5  # 1/5 of the budget for the head, the rest for the tail
HEAD_TURN_CHARS = 600
PROMPT_CHARS = 400
LAST_TEXT_CHARS = 4_000
KEEP_PROMPTS = 12
KEEP_FILES = 60
KEEP_COMMANDS = 40


@dataclass(frozen=True, slots=True)
class Digest:
    """What one streaming pass learned about a transcript (all text already redacted)."""

    text: str
    first_prompt: str
    recent_prompts: tuple[str, ...]
    last_assistant: str
    git_branch: str | None
    cwd: str
    files_touched: tuple[str, ...]
    commands: tuple[str, ...]
    turns: int
    omitted_turns: int
    lines: int
    bad_lines: int


def iter_lines(path: Path) -> Iterator[bytes | None]:
    """Each raw line (with its newline), or None for a line longer than ``MAX_LINE_BYTES``."""
    return jsonlines.iter_lines(path, MAX_LINE_BYTES)


def iter_records(path: Path) -> Iterator[dict[str, Any] | None]:
    """Each line as a JSON object, or None for a broken, non-object or overlong line."""
    return jsonlines.iter_objects(path, MAX_LINE_BYTES)


def _trim_middle(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    half = max(1, (limit - 20) // 2)
    return f"{text[:half]}\n[… {len(text) - 2 * half} characters cut …]\n{text[-half:]}"


def _one_line(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _relative(path: str, cwd: str) -> str:
    if cwd and path.startswith(cwd.rstrip("/\\") + ("/" if "/" in cwd else "\\")):
        return path[len(cwd.rstrip("/\\")) + 1 :]
    return path


def tool_action(entry: Entry, cwd: str) -> str:
    """One line for a tool call: ``→ Edit src/app.py``, ``→ Bash: pytest -q``."""
    name = entry.tool or "tool"
    if entry.target:
        return f"→ {name} {_relative(entry.target, cwd)}"
    return f"→ {name}: {_one_line(entry.text, 200)}" if entry.text.strip() else f"→ {name}"


class _Turns:
    """Rendered turns within a character budget: every turn while they fit; past that, the
    earliest turns trimmed into a bounded head and the newest kept in full in a tail deque."""

    def __init__(self, budget: int) -> None:
        self.budget = max(1_000, budget)
        self.head_budget = self.budget // HEAD_SHARE
        self.turn_cap = max(200, (self.budget - self.head_budget) // 2)
        self.head: list[str] = []
        self.head_chars = 0
        self.head_open = True
        self.tail: deque[str] = deque()
        self.tail_chars = 0
        self.omitted = 0
        self.count = 0

    def add(self, text: str) -> None:
        self.count += 1
        text = _trim_middle(text, self.turn_cap)
        self.tail.append(text)
        self.tail_chars += len(text)
        while self.tail_chars + self.head_chars > self.budget and len(self.tail) > 1:
            self._evict(self.tail.popleft())

    def _evict(self, oldest: str) -> None:
        self.tail_chars -= len(oldest)
        if self.head_open:
            short = _trim_middle(oldest, HEAD_TURN_CHARS)
            if self.head_chars + len(short) <= self.head_budget:
                self.head.append(short)
                self.head_chars += len(short)
                return
            self.head_open = False
        self.omitted += 1

    def render(self) -> str:
        middle = [f"[… {self.omitted} earlier turns omitted …]"] if self.omitted else []
        return "\n\n".join([*self.head, *middle, *self.tail])


class _Scanner:
    """Consumes entries one by one; holds only bounded state."""

    def __init__(self, budget: int, cwd: str = "") -> None:
        self.turns = _Turns(budget)
        self.turn: str | None = None
        self.parts: list[str] = []
        self.parts_chars = 0
        self.texts: list[str] = []
        self.first_prompt = ""
        self.prompts: deque[str] = deque(maxlen=KEEP_PROMPTS)
        self.last_assistant = ""
        self.branch: str | None = None
        self.cwd = cwd
        self.files: OrderedDict[str, None] = OrderedDict()
        self.commands: deque[str] = deque(maxlen=KEEP_COMMANDS)

    def feed(self, entry: Entry) -> None:
        if entry.kind == META:
            self.branch = entry.git_branch or self.branch
            self.cwd = entry.cwd or self.cwd
        elif entry.kind == USER:
            self._user(entry.text)
        elif entry.kind in (ASSISTANT, TOOL):
            self._reply(entry)

    def _user(self, raw: str) -> None:
        text = redact(raw).strip()  # redact drops <private> spans too
        if not text:
            return
        self._close_assistant()
        if not self.first_prompt:
            self.first_prompt = _one_line(text, PROMPT_CHARS)
        self.prompts.append(_one_line(text, PROMPT_CHARS))
        self.turns.add(f"## User\n{text}")

    def _reply(self, entry: Entry) -> None:
        if entry.turn and entry.turn != self.turn:
            self._close_assistant()
            self.turn = entry.turn
        if entry.kind == TOOL:
            self._part(redact(tool_action(entry, self.cwd)).strip())
            self._remember_tool(entry)
            return
        text = redact(entry.text).strip()
        if text:
            self._part(text)
            self.texts.append(text)

    def _part(self, text: str) -> None:
        self.parts.append(text)
        self.parts_chars += len(text)
        if self.parts_chars > 4 * self.turns.turn_cap:
            joined = _trim_middle("\n".join(self.parts), 2 * self.turns.turn_cap)
            self.parts, self.parts_chars = [joined], len(joined)
            self.texts = [_trim_middle("\n\n".join(self.texts), LAST_TEXT_CHARS)]

    def _remember_tool(self, entry: Entry) -> None:
        for path in entry.paths:
            self.files.pop(path, None)
            self.files[path] = None
            if len(self.files) > KEEP_FILES:
                self.files.popitem(last=False)
        if entry.command:
            self.commands.append(_one_line(entry.command, 300))

    def _close_assistant(self) -> None:
        if self.parts:
            self.turns.add("## Assistant\n" + "\n".join(self.parts))
        if self.texts:
            self.last_assistant = _trim_middle("\n\n".join(self.texts), LAST_TEXT_CHARS)
        self.parts, self.parts_chars, self.texts, self.turn = [], 0, [], None

    def digest(self, tally: jsonlines.Tally) -> Digest:
        self._close_assistant()
        cwd = self.cwd
        return Digest(
            text=redact(self.turns.render()),
            first_prompt=redact(self.first_prompt),
            recent_prompts=tuple(redact(p) for p in self.prompts),
            last_assistant=redact(self.last_assistant),
            git_branch=self.branch,
            cwd=cwd,
            files_touched=tuple(redact(_relative(f, cwd)) for f in self.files),
            commands=tuple(_one_line(redact(c), 300) for c in self.commands),
            turns=self.turns.count,
            omitted_turns=self.turns.omitted,
            lines=tally.lines,
            bad_lines=tally.bad,
        )


def condense(path: Path, budget: int, agent: str = DEFAULT, cwd: str = "") -> Digest:
    """Stream ``agent``'s transcript at ``path`` once and return its condensed, redacted
    :class:`Digest` (``cwd``: the session's folder until the transcript names one)."""
    scanner = _Scanner(budget, cwd)
    tally = jsonlines.Tally()
    for entry in readers.read(path, agent, tally):
        scanner.feed(entry)
    return scanner.digest(tally)


def last_assistant_text(path: Path) -> str:
    """The assistant's last visible text (redacted), or ``""``."""
    return condense(path, 2_000).last_assistant


def first_user_prompt(path: Path) -> str:
    """The first human prompt, flattened to one line (redacted), or ``""``."""
    return condense(path, 2_000).first_prompt


def files_touched(path: Path) -> tuple[str, ...]:
    """Files the assistant edited or wrote, oldest first, relative to the session's cwd."""
    return condense(path, 2_000).files_touched


def commands_run(path: Path) -> tuple[str, ...]:
    """Recent shell commands the assistant ran, oldest first."""
    return condense(path, 2_000).commands
