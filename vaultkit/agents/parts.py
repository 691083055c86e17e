"""What an agent's package provides, part by part (the interface :mod:`.known` hands out).

An agent is a package ``vaultkit.agents.<name>`` registered in :data:`.known.AGENTS`. Its
``__init__`` is :class:`Lean` (hooks import it); its modules are the other parts: ``reader``
and ``hooks`` are required, ``doctor``, ``distill``, ``scan`` and ``context`` optional (an agent
without a ``distill`` has its sessions distilled by the default agent's CLI or offline; one
without a ``scan`` is found by backfill only through its own SessionEnd; one without a
``context`` gets no context-pressure warning). mypy checks every agent module
against these protocols (``tests/agents/test_agent_parts.py``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Protocol

from vaultkit.agents import scan
from vaultkit.agents.adapter import Agent, Entry
from vaultkit.agents.doctor import Finding
from vaultkit.agents.install import Change, Data, Options, Scope, ScopeStatus
from vaultkit.agents.jsonlines import Tally
from vaultkit.base.config import DistillConfig
from vaultkit.base.record import Record


class Lean(Protocol):
    """The package itself: its value and what the hooks and the worker check (stdlib only)."""

    @property
    def AGENT(self) -> Agent:
        """Its value: folders, events, injection, child command."""
        ...

    @property
    def is_exit(self) -> Callable[[Mapping[str, object]], bool] | None:
        """The test for the last record it writes before it exits (``None``: it writes none;
        backfill then waits for five silent minutes)."""
        ...

    def session_id_from_name(self, path: str) -> str:
        """The session id a transcript's file name gives, or ``""``."""
        ...

    def path_problem(self, path: str, env: Mapping[str, str]) -> str | None:
        """Why ``path`` is not this agent's transcript by its path alone (a missing file
        passes), or ``None``."""
        ...

    def head_problem(self, head: bytes) -> str | None:
        """Why a non-empty file's first bytes are not the start of its transcript, or ``None``."""
        ...

    def record_session_id(self, record: Mapping[str, object]) -> str:
        """The session id one of its transcript's first records carries, or ``""``."""
        ...


class Reader(Protocol):
    """``reader``: the transcript as neutral entries."""

    def read(self, path: Path, tally: Tally | None = None) -> Iterator[Entry]:
        """Stream the transcript's entries; broken and dropped lines counted in ``tally``."""
        ...

    def git_branch(self, path: Path) -> str | None:
        """The session's git branch as the transcript records it (``None``: it records none;
        :func:`vaultkit.agents.adapter.first_branch` reads it from the entries)."""
        ...


class Hooks(Protocol):
    """``hooks``: vaultkit's hooks in the agent's own hook file, per scope."""

    @property
    def SCOPES(self) -> tuple[Scope, ...]:
        """The scopes it has a hook file for."""
        ...

    def hook_path(self, scope: Scope, project: Path, env: Mapping[str, str] | None = None) -> Path:
        """The hook file of ``scope`` (one of :attr:`SCOPES`)."""
        ...

    def install_scope(
        self, scope: Scope, project: Path, *, dry_run: bool, options: Options
    ) -> Change:
        """Add vaultkit's hooks (idempotent; foreign entries kept; a malformed file refused)."""
        ...

    def uninstall_scope(self, scope: Scope, project: Path, *, dry_run: bool) -> Change:
        """Remove vaultkit's hooks and only those."""
        ...

    def scope_status(self, scope: Scope, project: Path) -> ScopeStatus:
        """What the scope's file holds of vaultkit's hooks (errors reported, not raised)."""
        ...

    def hook_data(self, scope: Scope, project: Path) -> tuple[Path, Data]:
        """The scope's hook file and its data; raises for a malformed file."""
        ...


class Doctor(Protocol):
    """``doctor``: ``vaultkit doctor``'s lines for this agent."""

    @property
    def ALWAYS(self) -> bool:
        """Reported even when the agent is not on this machine."""
        ...

    def findings(
        self,
        rows: list[ScopeStatus],
        folder: Path,
        env: Mapping[str, str],
        *,
        others_installed: bool,
    ) -> list[Finding]:
        """Its findings, given what each scope's hook file holds (``rows``)."""
        ...


class Context(Protocol):
    """``context``: how full the agent's context is (the UserPromptSubmit warning)."""

    def tokens(self, transcript: str | os.PathLike[str]) -> int | None:
        """Tokens in context at the last reply, from the transcript (``None``: not known)."""
        ...


class Answer(Record):
    """What a distillation child printed, as its CLI reports it: the answer text, whether the
    CLI called the run a failure, the error text to judge (infra, quota, …) and the usage."""

    text: str
    failed: bool = False
    errors: str = ""
    note: str = ""  # appended to the attempt's detail ("(error_max_turns)")
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    model: str = ""


class Distill(Protocol):
    """``distill``: the agent's CLI as a distillation backend (its child command and its
    answer; :mod:`vaultkit.session.distill.agentcli` runs it)."""

    @property
    def HINT(self) -> str:
        """What to check when it could not run."""
        ...

    @property
    def INSTALL(self) -> str:
        """How to make it available (doctor's fix when the CLI is not on PATH)."""
        ...

    def program(self, settings: DistillConfig) -> str:
        """The CLI's name or path as configured."""
        ...

    def model(self, settings: DistillConfig) -> str:
        """The model its command line names (``""``: the CLI's own default)."""
        ...

    def unavailable(self, env: Mapping[str, str]) -> str:
        """Why a child cannot run with ``env`` (``""`` when it can)."""
        ...

    def prepare(self, private: str, env: Mapping[str, str]) -> tuple[dict[str, str], str]:
        """The child's environment and working folder, inside the private folder ``private``
        (removed after the attempt)."""
        ...

    def argv(self, binary: str, model: str) -> list[str]:
        """The command line: the prompt on stdin, no hooks, no saved session."""
        ...

    def answer(self, stdout: str, stderr: str, model: str = "") -> Answer | None:
        """What the child printed, or ``None`` when it is not the CLI's own format (a wrapper
        script's plain text is judged as it is)."""
        ...


class Scan(Protocol):
    """``scan``: this project's recent transcripts of the agent, for backfill."""

    def found(self, where: scan.Scope) -> list[scan.Found]:
        """Its transcripts of ``where.store``'s project changed since ``where.oldest``."""
        ...
