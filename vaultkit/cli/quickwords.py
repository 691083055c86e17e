"""The plain words of a typer-free command line: positionals, option values and flags, or None.

The quick paths (``cli/*_run.py``) read only the forms typer would read the same way:
``--opt value``, ``--opt=value``, ``-o value`` and bare flags. Anything else (``--help``, an
unknown option, ``--``, ``--flag=x``, a missing or dash-led value other than ``-`` itself, which
click takes as a value too, one positional too many) is refused with ``None``, and the command
line goes to typer, whose help and usage errors stay its own.
"""

from __future__ import annotations

from vaultkit.base.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection, Mapping


class Words(Record):
    """A command line split: ``values`` are (field, value) and ``flags`` (field, spelling), each
    in the order given."""

    positional: list[str]
    values: list[tuple[str, str]]
    flags: list[tuple[str, str]]


def split(
    argv: list[str], options: Mapping[str, str], valued: Collection[str], *, most: int
) -> Words | None:
    """``argv`` read with ``options`` (spelling → field; fields in ``valued`` take a value) and at
    most ``most`` positionals; ``None`` for anything but the plain forms."""
    words = Words([], [], [])
    items = iter(argv)
    for word in items:
        name, eq, attached = word.partition("=") if word.startswith("--") else (word, "", "")
        field = options.get(name)
        if field is None:
            if word.startswith("-") or len(words.positional) == most:
                return None
            words.positional.append(word)
        elif field not in valued:
            if eq:
                return None
            words.flags.append((field, name))
        else:
            value = attached if eq else next(items, "")
            if not value or (value.startswith("-") and value != "-"):
                return None
            words.values.append((field, value))
    return words
