"""``vaultkit.toml``: typed settings with defaults; an unknown key or a wrong type is an error.

Add a setting by adding a field (with a default) to one of the section records below; the
loader, the error messages and ``vaultkit config`` pick it up from the field list.

Lean: the hooks read their settings here. :mod:`tomllib` is imported only when a TOML text has
to be parsed; the hooks keep the parsed settings of a valid file in a small JSON cache keyed by
the file's exact text (:func:`load_cached`), so an unchanged ``vaultkit.toml`` costs them a read
and a comparison.
"""

from __future__ import annotations

import os

from vaultkit.base import leanjson
from vaultkit.base.record import Record, field
from vaultkit.base.store import DEFAULT_SHARE, SHAREABLE
from vaultkit.errors import VaultkitError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vaultkit.base.store import Store

CACHE_VERSION = 1
CACHE_NAME = "config-cache.json"  # in the store's .vaultkit/ folder
_SEEN: dict[str, tuple[str, Config]] = {}  # cache file -> (text, config) read in this process


class LintConfig(Record):
    select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    strict: bool = False
    exclude: list[str] = field(default_factory=list)  # globs, relative to the vault root
    # ``[lint.per-file-ignores]``: glob -> codes, e.g. ``"Templates/**" = ["VK101"]``
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)


class IndexConfig(Record):
    description_max: int = 120


# ``[distill] backend``: ``auto`` is the CLI of the agent whose session it is (else claude, else
# offline); the others name one backend for every session.
BACKENDS = ("auto", "claude", "codex", "gemini", "openai", "command", "offline")


GHOST_LINKS = ("text", "stub")


class DistillConfig(Record):
    backend: str = "auto"  # one of BACKENDS
    model: str = "sonnet"  # the claude backend's model
    timeout: int = 300
    command: list[str] = field(default_factory=list)
    strip_api_key: bool = False
    max_attempts: int = 5
    transcript_budget: int = 60_000
    claude_path: str = "claude"
    codex_path: str = "codex"
    codex_model: str = ""  # "" = Codex's own default (its config.toml)
    gemini_path: str = "gemini"
    gemini_model: str = ""  # "" = Gemini CLI's default
    daily_budget: float = 0.0  # USD a day for LLM distillation; 0 means no cap
    openai_base_url: str = "http://127.0.0.1:11434/v1"  # an OpenAI-compatible server (Ollama's)
    openai_model: str = ""  # the model the server runs, e.g. "qwen2.5:7b"; required for openai
    openai_key_env: str = ""  # the environment variable holding its key ("" = send none)
    openai_stream: bool = True
    candidates_budget: int = 1_500  # tokens of existing note names the prompt offers
    ghost_links: str = "text"  # an answer's link to no note: "text" (plain text) or "stub"
    stub_folder: str = "stubs"  # where "stub" puts the stub notes, inside wiki/


class InjectConfig(Record):
    budget: int = 9_000
    on_clear: bool = False
    recent: int = 3


class RetentionConfig(Record):
    keep_summaries: int = 10


class BatonConfig(Record):
    lifetime_minutes: int = 60
    command: str = "handoff"  # slash command name installed for the agent
    thinking_chars: int = 3_000


class ResumeConfig(Record):
    stale_after: int = 100  # activity entries after a handoff that make it stale
    recent_entries: int = 25  # path C (and B) restores from this many latest entries
    since_entries: int = 60  # path A shows at most this many entries written after the handoff
    manual_window_minutes: int = 120  # a manual handoff beats a newer automatic one this close
    on_session_start: bool = False  # SessionStart injects the resume text instead of the summary
    command: str = "save-handoff"  # slash command that makes the agent run `vaultkit save`


class ActivityConfig(Record):
    enabled: bool = True
    prompt_text: bool = False  # also record the first 200 characters of each prompt


class TranscriptsConfig(Record):
    enabled: bool = True  # the worker writes sessions/transcripts/<stem>.md


class PressureConfig(Record):
    enabled: bool = True
    threshold: int = 70  # percent of the context window
    window: int = 200_000  # the model's context window in tokens


class GitConfig(Record):
    share: list[str] = field(default_factory=lambda: list(DEFAULT_SHARE))  # the rest is private


class PrivacyConfig(Record):
    redact_raw: bool = False  # the raw copy gets the prompt's redaction and <private> stripping


class Config(Record):
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
    git: GitConfig = field(default_factory=GitConfig)
    privacy: PrivacyConfig = field(default_factory=PrivacyConfig)


def _check_value(path: object, key: str, value: Any, default: Any) -> Any:
    expected = type(default)
    if expected in (int, float) and isinstance(value, bool):
        ok = False
    elif expected is float and isinstance(value, int):
        return float(value)  # ``daily_budget = 2`` means 2.0
    elif expected is list:
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
    elif expected is dict:  # a table of string lists (``[lint.per-file-ignores]``)
        ok = isinstance(value, dict) and all(
            isinstance(v, list) and all(isinstance(c, str) for c in v) for v in value.values()
        )
        if not ok:
            raise VaultkitError(
                f"{path}: setting {key} must be a table of lists of strings",
                hint=f'edit {path}: e.g. [{key.replace("_", "-")}] "Templates/**" = ["VK101"]',
            )
    else:
        ok = isinstance(value, expected)
    if not ok:
        raise VaultkitError(
            f"{path}: setting {key} must be {expected.__name__}, got {type(value).__name__}",
            hint=f"edit {path} and set {key} to a {expected.__name__}",
        )
    return value


def _build_section(path: object, name: str, cls: type[Record], raw: Any) -> Any:
    if not isinstance(raw, dict):
        raise VaultkitError(f"{path}: [{name}] must be a table", hint=f"edit {path}")
    defaults = cls()
    known = set(cls._fields)
    values: dict[str, Any] = {}
    for written, value in raw.items():
        key = written.replace("-", "_")  # ruff spells them ``per-file-ignores``
        if key not in known:
            raise VaultkitError(
                f"{path}: unknown setting {name}.{written}",
                hint=f"remove it or use one of: {', '.join(sorted(known))}",
            )
        values[key] = _check_value(path, f"{name}.{key}", value, getattr(defaults, key))
    return cls(**values)


def build_config(data: dict[str, Any], path: object) -> Config:
    """A :class:`Config` from parsed TOML data (checked); ``path`` is only used in messages."""
    sections = set(Config._fields)
    defaults = Config()
    built: dict[str, Any] = {}
    for name, raw in data.items():
        if name not in sections:
            raise VaultkitError(
                f"{path}: unknown section [{name}]",
                hint=f"remove it or use one of: {', '.join(sorted(sections))}",
            )
        section_type = type(getattr(defaults, name))
        built[name] = _build_section(path, name, section_type, raw)
    if "git" in built:
        _check_share(path, built["git"].share)
    if "distill" in built:
        _check_distill(path, built["distill"])
    return Config(**built)


def _check_distill(path: object, distill: DistillConfig) -> None:
    if distill.backend not in BACKENDS:
        raise VaultkitError(
            f"{path}: distill.backend is {distill.backend!r}, not a backend",
            hint=f"set distill.backend to one of: {', '.join(BACKENDS)}",
        )
    if distill.backend == "openai" and not distill.openai_model.strip():
        raise VaultkitError(
            f"{path}: distill.backend is openai but distill.openai_model is not set",
            hint='set distill.openai_model to the model your server runs, e.g. "qwen2.5:7b"',
        )
    if not distill.openai_base_url.startswith(("http://", "https://")):
        raise VaultkitError(
            f"{path}: distill.openai_base_url {distill.openai_base_url!r} is not an http(s) URL",
            hint='set it to the server\'s API root, e.g. "http://127.0.0.1:11434/v1"',
        )
    if distill.ghost_links not in GHOST_LINKS:
        raise VaultkitError(
            f"{path}: distill.ghost_links is {distill.ghost_links!r}",
            hint=f"set distill.ghost_links to one of: {', '.join(GHOST_LINKS)}",
        )
    parts = distill.stub_folder.replace("\\", "/").split("/")
    if not distill.stub_folder or any(p in ("", ".", "..") or p.startswith(".") for p in parts):
        raise VaultkitError(
            f"{path}: distill.stub_folder {distill.stub_folder!r} is not a folder inside wiki/",
            hint='set distill.stub_folder to a relative folder name such as "stubs"',
        )
    for key in ("claude_path", "codex_path", "gemini_path"):
        if not getattr(distill, key).strip():
            raise VaultkitError(
                f"{path}: distill.{key} is empty",
                hint=f"set distill.{key} to the CLI's name or path, or remove the line",
            )


def _check_share(path: object, share: list[str]) -> None:
    unknown = [name for name in share if name not in SHAREABLE]
    if unknown:
        raise VaultkitError(
            f"{path}: git.share names {', '.join(map(repr, unknown))}, not a shareable part",
            hint=f"use some of: {', '.join(SHAREABLE)} (logs/ and .vaultkit/ are always private)",
        )


def _toml(text: str, path: object) -> dict[str, Any]:
    import tomllib  # only when a TOML text must be parsed (it costs a hook more than all else)

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VaultkitError(
            f"{path}: invalid TOML: {exc}", hint=f"fix the syntax in {path}"
        ) from exc


def parse_config(text: str, path: object) -> Config:
    """Parse TOML text into a :class:`Config`; ``path`` is only used in messages."""
    return build_config(_toml(text, path), path)


def _read_text(path: str | os.PathLike[str]) -> str | None:
    """The file's text; None when it does not exist."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise VaultkitError(f"{os.fspath(path)}: cannot read: {exc.strerror}") from exc
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = os.fspath(path)
        raise VaultkitError(f"{where}: not UTF-8", hint=f"re-save {where} as UTF-8") from exc


def load_config(path: str | os.PathLike[str]) -> Config:
    """Load ``path``; a missing file gives the defaults."""
    text = _read_text(path)
    if text is None:
        return Config()
    return parse_config(text, os.fspath(path))


def _cached_data(cache: str, text: str) -> dict[str, Any] | None:
    try:
        with open(cache, "rb") as handle:
            saved = leanjson.loads(handle.read())
    except (OSError, ValueError):
        return None
    if not isinstance(saved, dict) or saved.get("version") != CACHE_VERSION:
        return None
    data = saved.get("data")
    return data if saved.get("source") == text and isinstance(data, dict) else None


def _save(cache: str, text: str, data: dict[str, Any]) -> None:
    import json  # a cache miss only: the hook that parsed the TOML writes its data once

    from vaultkit.base.fsio import atomic_write_text

    payload = {"version": CACHE_VERSION, "source": text, "data": data}
    try:  # noqa: SIM105  (contextlib would cost every hook an import)
        atomic_write_text(cache, json.dumps(payload, ensure_ascii=False) + "\n")
    except OSError:
        pass  # a cache that cannot be written only costs the next hook a TOML parse


def load_cached(path: str | os.PathLike[str], cache: str) -> Config:
    """:func:`load_config`, reusing the parse of the same text stored in ``cache`` (JSON).

    The cache holds the file's exact text and its parsed data; it is used only when the text is
    unchanged, and only valid files are cached, so the result and the errors are those of
    :func:`load_config`.
    """
    text = _read_text(path)
    if text is None:
        return Config()
    seen = _SEEN.get(cache)
    if seen is not None and seen[0] == text:  # a hook reads its settings more than once
        return seen[1]
    where = os.fspath(path)
    data = _cached_data(cache, text)
    parsed = data is None
    if data is None:
        data = _toml(text, where)
    config = build_config(data, where)
    if parsed:  # only a valid file is cached: build_config has accepted it
        _save(cache, text, data)
    _SEEN[cache] = (text, config)
    return config


def store_config(store: Store) -> Config:
    """The store's ``vaultkit.toml`` as the hooks read it (through the cache, see
    :func:`load_cached`); a missing file gives the defaults."""
    return load_cached(store.at("config_file"), os.path.join(store.at("state"), CACHE_NAME))
