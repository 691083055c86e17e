"""Shell-style matching of one path segment without :mod:`fnmatch` (which compiles a regular
expression and so loads :mod:`re`, milliseconds a hook need not pay): ``*`` is done here by
string search; a pattern with ``?`` or ``[`` goes to :func:`fnmatch.fnmatchcase`."""

from __future__ import annotations


def matches(name: str, pattern: str) -> bool:
    """``fnmatch.fnmatchcase(name, pattern)``, case-sensitive on every OS."""
    if "?" in pattern or "[" in pattern:
        from fnmatch import fnmatchcase

        return fnmatchcase(name, pattern)
    if "*" not in pattern:
        return name == pattern
    first, *middle, last = pattern.split("*")
    if len(name) < len(first) + len(last) or not name.startswith(first):
        return False
    if not name.endswith(last):
        return False
    position, stop = len(first), len(name) - len(last)
    for piece in middle:  # each piece as far left as it fits leaves the most room for the rest
        found = name.find(piece, position, stop)
        if found < 0:
            return False
        position = found + len(piece)
    return True
