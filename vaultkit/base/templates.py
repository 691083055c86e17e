"""Find vaultkit's editable templates: ``<repo>/templates/`` (editable install) or the wheel's
``vaultkit/_templates/``."""

from __future__ import annotations

from pathlib import Path

from vaultkit.base import dist
from vaultkit.errors import VaultkitError

_PACKAGE = Path(__file__).resolve().parent.parent  # vaultkit/, beside the repository's templates/


def template_dirs() -> tuple[Path, ...]:
    """Folders searched for templates, first match wins."""
    return (_PACKAGE / "_templates", _PACKAGE.parent / "templates")


def template_path(name: str) -> Path:
    """The file for template ``name`` (e.g. ``"distill-prompt.md"``)."""
    for folder in template_dirs():
        candidate = folder / name
        if candidate.is_file():
            return candidate
    searched = ", ".join(str(d) for d in template_dirs())
    raise VaultkitError(
        f"template {name} not found (searched {searched})",
        hint=f"reinstall vaultkit (pip install --force-reinstall {dist.DISTRIBUTION})",
    )


def read_template(name: str) -> str:
    """The UTF-8 text of template ``name``."""
    path = template_path(name)
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise VaultkitError(
            f"{path}: cannot read template: {exc}", hint=f"re-save {path} as UTF-8"
        ) from exc
