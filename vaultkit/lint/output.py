"""Lint output formats: ``text`` (``path:line:col: CODE message``), ``json`` and ``github``.

JSON schema (version 1, stable; fields are only ever added)::

    {"version": 1,
     "vault": "<the vault folder as given>",
     "findings": [{"path": "<vault-relative POSIX>", "line": 1, "col": 1, "code": "VK101",
                   "name": "ghost-link", "severity": "error", "message": "..."}],
     "summary": {"notes": 15, "findings": 4, "errors": 1, "warnings": 3,
                 "by_code": {"VK101": 1}, "exit_code": 1}}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

from vaultkit.lint.codes import rule_name
from vaultkit.vault.model import Finding

Format = Literal["text", "json", "github"]
SCHEMA_VERSION = 1


def escape_text(text: str) -> str:
    """One line of text output: control characters (a newline in a file name) escaped."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def _shown(prefix: str, path: str) -> str:
    return f"{prefix.rstrip('/')}/{path}" if prefix and prefix != "." else path


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary_line(findings: Sequence[Finding], notes: int) -> str:
    """One line for stderr, e.g. ``4 findings (1 error, 3 warnings) in 15 notes``."""
    errors = sum(f.severity == "error" for f in findings)
    warnings = sum(f.severity == "warning" for f in findings)
    where = f"in {_plural(notes, 'note')}"
    if not findings:
        return f"no findings {where}"
    counts = f"{_plural(errors, 'error')}, {_plural(warnings, 'warning')}"
    return f"{_plural(len(findings), 'finding')} ({counts}) {where}"


def render_text(findings: Sequence[Finding], prefix: str = "") -> str:
    """``path:line:col: CODE message``, one per line, paths shown under ``prefix``."""
    return "".join(
        f"{escape_text(_shown(prefix, f.path))}:{f.line}:{f.col}: {f.code} "
        f"{escape_text(f.message)}\n"
        for f in findings
    )


def render_json(findings: Sequence[Finding], *, vault: str, notes: int, exit_code: int) -> str:
    """The versioned JSON document described in the module docstring."""
    import json  # only this format needs it: a text lint does not pay for the import

    document = {
        "version": SCHEMA_VERSION,
        "vault": vault,
        "findings": [
            {
                "path": f.path,
                "line": f.line,
                "col": f.col,
                "code": f.code,
                "name": rule_name(f.code),
                "severity": f.severity,
                "message": f.message,
            }
            for f in findings
        ],
        "summary": {
            "notes": notes,
            "findings": len(findings),
            "errors": sum(f.severity == "error" for f in findings),
            "warnings": sum(f.severity == "warning" for f in findings),
            "by_code": dict(sorted(Counter(f.code for f in findings).items())),
            "exit_code": exit_code,
        },
    }
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(findings: Sequence[Finding], prefix: str = "") -> str:
    """GitHub Actions workflow commands: ``::error file=…,line=…,col=…,title=CODE::message``."""
    lines = []
    for f in findings:
        level = "error" if f.severity == "error" else "warning"
        props = (
            f"file={_escape_property(_shown(prefix, f.path))},line={f.line},col={f.col},"
            f"title={f.code}"
        )
        lines.append(f"::{level} {props}::{_escape_data(f.message)}\n")
    return "".join(lines)
