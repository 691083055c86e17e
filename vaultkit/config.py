"""``vaultkit.toml``: typed settings with defaults; an unknown key or a wrong type is an error.

Add a setting by adding a field (with a default) to one of the section dataclasses below; the
loader, the error messages and ``vaultkit config`` pick it up from the field list.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vaultkit.errors import VaultkitError


@dataclass(frozen=True, slots=True)
class LintConfig:
    select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    strict: bool = False


@dataclass(frozen=True, slots=True)
class IndexConfig:
    description_max: int = 120


@dataclass(frozen=True, slots=True)
class DistillConfig:
    backend: str = "claude"  # "claude" | "command" | "offline"
    model: str = "sonnet"
    timeout: int = 300
    command: list[str] = field(default_factory=list)
    strip_api_key: bool = False
    max_attempts: int = 5
    transcript_budget: int = 60_000
    claude_path: str = "claude"


@dataclass(frozen=True, slots=True)
class InjectConfig:
    budget: int = 9_000
    on_clear: bool = False
    recent: int = 3


@dataclass(frozen=True, slots=True)
class RetentionConfig:
    keep_summaries: int = 10


@dataclass(frozen=True, slots=True)
class BatonConfig:
    lifetime_minutes: int = 60
    command: str = "handoff"  # slash command name installed for the agent
    thinking_chars: int = 3_000


@dataclass(frozen=True, slots=True)
class ResumeConfig:
    stale_after: int = 100  # activity entries after a handoff that make it stale
    recent_entries: int = 25  # path C (and B) restores from this many latest entries
    since_entries: int = 60  # path A shows at most this many entries written after the handoff
    manual_window_minutes: int = 120  # a manual handoff beats a newer automatic one this close
    on_session_start: bool = False  # SessionStart injects the resume text instead of the summary
    command: str = "save-handoff"  # slash command that makes the agent run `vaultkit save`


@dataclass(frozen=True, slots=True)
class ActivityConfig:
    enabled: bool = True
    prompt_text: bool = False  # also record the first 200 characters of each prompt


@dataclass(frozen=True, slots=True)
class TranscriptsConfig:
    enabled: bool = True  # the worker writes sessions/transcripts/<stem>.md


@dataclass(frozen=True, slots=True)
class PressureConfig:
    enabled: bool = True
    threshold: int = 70  # percent of the context window
    window: int = 200_000  # the model's context window in tokens


@dataclass(frozen=True, slots=True)
class Config:
    lint: LintConfig = field(default_factory=LintConfig)
    index: IndexConfig = field(default_factory=IndexConfig)
    distill: DistillConfig = field(default_factory=DistillConfig)
    inject: InjectConfig = field(default_factory=InjectConfig)
    retention: RetentionConfig = field(default_factory=RetentionConfig)
    baton: BatonConfig = field(default_factory=BatonConfig)
    resume: ResumeConfig = field(default_factory=ResumeConfig)
    activity: ActivityConfig = field(default_factory=ActivityConfig)
    transcripts: TranscriptsConfig = field(default_factory=TranscriptsConfig)
    pressure: PressureConfig = field(default_factory=PressureConfig)


def _check_value(path: Path, key: str, value: Any, default: Any) -> Any:
    expected = type(default)
    if expected is int and isinstance(value, bool):
        ok = False
    elif expected is list:
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
    else:
        ok = isinstance(value, expected)
    if not ok:
        raise VaultkitError(
            f"{path}: setting {key} must be {expected.__name__}, got {type(value).__name__}",
            hint=f"edit {path} and set {key} to a {expected.__name__}",
        )
    return value


def _build_section(path: Path, name: str, cls: type[Any], raw: Any) -> Any:
    if not isinstance(raw, dict):
        raise VaultkitError(f"{path}: [{name}] must be a table", hint=f"edit {path}")
    defaults = cls()
    known = {f.name for f in dataclasses.fields(cls)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in known:
            raise VaultkitError(
                f"{path}: unknown setting {name}.{key}",
                hint=f"remove it or use one of: {', '.join(sorted(known))}",
            )
        values[key] = _check_value(path, f"{name}.{key}", value, getattr(defaults, key))
    return cls(**values)


def parse_config(text: str, path: Path) -> Config:
    """Parse TOML text into a :class:`Config`; ``path`` is only used in messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VaultkitError(
            f"{path}: invalid TOML: {exc}", hint=f"fix the syntax in {path}"
        ) from exc
    sections = {f.name: f for f in dataclasses.fields(Config)}
    built: dict[str, Any] = {}
    for name, raw in data.items():
        if name not in sections:
            raise VaultkitError(
                f"{path}: unknown section [{name}]",
                hint=f"remove it or use one of: {', '.join(sorted(sections))}",
            )
        section_type = type(getattr(Config(), name))
        built[name] = _build_section(path, name, section_type, raw)
    return Config(**built)


def load_config(path: Path) -> Config:
    """Load ``path``; a missing file gives the defaults."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Config()
    except OSError as exc:
        raise VaultkitError(f"{path}: cannot read: {exc.strerror}") from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise VaultkitError(f"{path}: not UTF-8", hint=f"re-save {path} as UTF-8") from exc
    return parse_config(text, path)
