"""Which findings a vault's own settings keep out: excluded files, per-file ignores, templates.

Read once per command from ``vaultkit.toml`` (``[lint] exclude``, ``[lint.per-file-ignores]``)
and from Obsidian's settings in ``.obsidian/``:

- ``app.json`` ``userIgnoreFilters`` ("Excluded files"): each filter is a path prefix
  (``Archive/``) or, written ``/…/``, a JavaScript regular expression tested against the
  vault-relative path, as Obsidian applies them. Obsidian keeps excluded files in the vault
  (they still resolve links, only search and the graph play them down), so vaultkit keeps them
  as link targets and their links still count; it only reports nothing *in* them.
- ``templates.json`` ``folder`` (the core Templates plugin) and Templater's
  ``plugins/templater-obsidian/data.json`` ``templates_folder``: a template is not a note yet,
  so in those folders ghosts, orphans and frontmatter that does not parse (placeholders such as
  ``{{date}}``) are not findings; a malformed wikilink or an unreadable file still is.

Filtering is applied to the finished findings, so the cached and the uncached lint agree.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from vaultkit.lint.globs import match_any
from vaultkit.vault.model import Finding, FindingFields

# What a template folder is not checked for (VK106 malformed and VK202 unreadable still are).
TEMPLATE_CODES = ("VK101", "VK102", "VK103", "VK105", "VK107", "VK201", "VK301")
TEMPLATER_DATA = ".obsidian/plugins/templater-obsidian/data.json"


@dataclass(frozen=True, slots=True)
class Scope:
    """A vault's exclusions and ignores, as values (see the module docstring)."""

    exclude: tuple[str, ...] = ()  # globs from [lint] exclude
    prefixes: tuple[str, ...] = ()  # Obsidian filters that are path prefixes
    patterns: tuple[re.Pattern[str], ...] = ()  # Obsidian filters written /regex/
    templates: tuple[str, ...] = ()  # template folders, with a trailing "/"
    per_file: tuple[tuple[str, tuple[str, ...]], ...] = ()  # glob -> code prefixes

    def excluded(self, path: str) -> bool:
        """True when nothing is reported in ``path``."""
        if any(path.startswith(p) for p in self.prefixes):
            return True
        if any(p.search(path) for p in self.patterns):
            return True
        return match_any(path, self.exclude)

    def ignored(self, path: str) -> tuple[str, ...]:
        """The code prefixes not reported in ``path`` (per-file ignores and template rules)."""
        codes = [
            code for glob, group in self.per_file if match_any(path, (glob,)) for code in group
        ]
        if any(path.startswith(folder) for folder in self.templates):
            codes.extend(TEMPLATE_CODES)
        return tuple(codes)

    def keeps(self, finding: FindingFields) -> bool:
        if self.excluded(finding.path):
            return False
        return not any(finding.code.startswith(code) for code in self.ignored(finding.path))


def _json(path: Path) -> Mapping[str, object]:
    """A settings file of Obsidian's as a mapping; empty when missing or not a JSON object
    (Obsidian itself falls back to its defaults then)."""
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _regex(filter_: str) -> re.Pattern[str] | None:
    try:
        return re.compile(filter_[1:-1])
    except re.error:
        return None  # Obsidian ignores a filter that is not a valid regex too


def obsidian_filters(root: Path) -> tuple[tuple[str, ...], tuple[re.Pattern[str], ...]]:
    """``userIgnoreFilters`` of ``.obsidian/app.json``: (path prefixes, regexes)."""
    filters = _json(root / ".obsidian" / "app.json").get("userIgnoreFilters")
    prefixes: list[str] = []
    patterns: list[re.Pattern[str]] = []
    for item in filters if isinstance(filters, list) else ():
        if not isinstance(item, str) or not item.strip():
            continue
        if len(item) > 2 and item.startswith("/") and item.endswith("/"):
            compiled = _regex(item)
            if compiled is not None:
                patterns.append(compiled)
        else:
            prefixes.append(item)
    return tuple(prefixes), tuple(patterns)


def _folder(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    folder = value.strip().strip("/")
    return f"{folder}/" if folder and folder != "." else None


def template_folders(root: Path) -> tuple[str, ...]:
    """The folders Obsidian's Templates plugin and Templater take templates from."""
    found = (
        _folder(_json(root / ".obsidian" / "templates.json").get("folder")),
        _folder(_json(root / TEMPLATER_DATA).get("templates_folder")),
    )
    return tuple(sorted({f for f in found if f is not None}))


def load_scope(
    root: Path, exclude: Iterable[str] = (), per_file: Mapping[str, Iterable[str]] | None = None
) -> Scope:
    """The scope of the vault at ``root`` from its ``.obsidian/`` settings and ``[lint]``."""
    prefixes, patterns = obsidian_filters(root)
    ignores = tuple(
        (glob, tuple(c.strip().upper() for c in codes)) for glob, codes in (per_file or {}).items()
    )
    return Scope(tuple(exclude), prefixes, patterns, template_folders(root), ignores)


def in_scope(findings: Iterable[Finding], scope: Scope) -> list[Finding]:
    """The findings ``scope`` keeps, in their order."""
    return [f for f in findings if scope.keeps(f)]
