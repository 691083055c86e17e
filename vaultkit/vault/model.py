"""Immutable values shared by every layer: notes, links, headings and findings."""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import islice
from operator import eq
from typing import Literal, NamedTuple, Protocol, overload

LinkKind = Literal["wikilink", "embed", "markdown", "frontmatter"]
Severity = Literal["error", "warning", "info"]

NOTE_SUFFIX = ".md"


class Link(NamedTuple):
    """One outgoing reference found in a note.

    ``target`` is the path part as written (trimmed; percent-decoded for Markdown links) and is
    empty for a self-link such as ``[[#Heading]]``. ``subpath`` is what followed the first ``#``
    (``"Heading"``, ``"Heading#Sub"`` or ``"^block"``), or ``""``. ``display`` is the text after
    ``|`` (for embeds that may be a size such as ``"100"``) or a Markdown link's text. ``line`` and
    ``col`` are 1-based positions of the link's first character in the original file.

    A named tuple rather than a frozen dataclass: a vault of 100,000 notes has a million links,
    and a tuple is built about seven times faster (immutable and hashable all the same).
    """

    kind: LinkKind
    target: str
    subpath: str = ""
    display: str | None = None
    line: int = 1
    col: int = 1
    embed: bool = False

    @property
    def is_self(self) -> bool:
        return self.target == ""


_KINDS: tuple[LinkKind, ...] = ("wikilink", "embed", "markdown", "frontmatter")
_FLAGS = {(kind, embed): 2 * n + embed for n, kind in enumerate(_KINDS) for embed in (0, 1)}
_make_link = partial(tuple.__new__, Link)  # Link(*fields) at C speed, from a tuple of fields
_BATCH = 20_000  # links turned into columns at a time
PackedKey = tuple[int, int, int, int]  # a packed link's target, subpath and display ids, its flag


class PackedLinks(Sequence[Link]):
    """A note's links in parallel compact arrays, each :class:`Link` made when it is read.

    What a note with a million links keeps instead of a million tuples (about 21 bytes a link
    against 144): one str per distinct name, indices into them, the lines and columns as
    machine integers and a byte for kind and embed. It reads like the tuple of the same links
    and equals it (and hashes like it); build it with :class:`LinkPacker`.
    """

    __slots__ = ("_col", "_display", "_flags", "_line", "_names", "_subpath", "_target")

    def __init__(self, names: tuple[str | None, ...], columns: Sequence[array[int]]) -> None:
        self._names = names
        self._target, self._subpath, self._display, self._line, self._col = columns[:5]
        self._flags = bytes(columns[5])

    @property
    def names(self) -> tuple[str | None, ...]:
        """Every distinct target, subpath and display of the links (None for no display)."""
        return self._names

    @property
    def target_ids(self) -> array[int]:
        """For each link, the index of its target in :attr:`names`."""
        return self._target

    @property
    def subpath_ids(self) -> array[int]:
        """For each link, the index of its subpath in :attr:`names`."""
        return self._subpath

    def __len__(self) -> int:
        return len(self._line)

    def __iter__(self) -> Iterator[Link]:
        names = self._names.__getitem__
        flags = self._flags
        fields = zip(
            map(_KINDS.__getitem__, map((2).__rfloordiv__, flags)),
            map(names, self._target),
            map(names, self._subpath),
            map(names, self._display),
            self._line,
            self._col,
            map(bool, map((1).__and__, flags)),
            strict=True,
        )
        return map(_make_link, fields)

    @overload
    def __getitem__(self, index: int) -> Link: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Link, ...]: ...
    def __getitem__(self, index: int | slice) -> Link | tuple[Link, ...]:
        if isinstance(index, slice):
            return tuple(self)[index]
        i = range(len(self))[index]  # IndexError and negative indices as a tuple has them
        names, flag = self._names, self._flags[i]
        return Link(
            _KINDS[flag // 2],
            names[self._target[i]],  # type: ignore[arg-type]  # a target is never None
            names[self._subpath[i]],  # type: ignore[arg-type]
            names[self._display[i]],
            self._line[i],
            self._col[i],
            bool(flag & 1),
        )

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (PackedLinks, tuple)):
            return len(self) == len(other) and all(map(eq, self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"PackedLinks({len(self)} links: {tuple(islice(self, 3))!r}...)"

    def __reduce__(self) -> tuple[object, ...]:
        return (PackedLinks.from_columns, self.columns())

    def columns(self) -> tuple[tuple[str | None, ...], tuple[bytes, ...]]:
        """The names and each column's machine bytes (what the note cache stores)."""
        columns = (self._target, self._subpath, self._display, self._line, self._col)
        return self._names, (*(column.tobytes() for column in columns), self._flags)

    @staticmethod
    def from_columns(names: tuple[str | None, ...], blobs: Sequence[bytes]) -> PackedLinks:
        """The links :meth:`columns` gave; ValueError for columns that do not fit together."""
        columns = [array("I") for _ in range(5)]
        for column, blob in zip(columns, blobs[:5], strict=True):
            column.frombytes(blob)
        flags = blobs[5]
        if {len(column) for column in columns} != {len(flags)}:
            raise ValueError("packed link columns of different lengths")
        if flags and len(names) <= max(max(column) for column in columns[:3]):
            raise ValueError("a packed link names no known name")
        if any(flag >= 2 * len(_KINDS) for flag in set(flags)):
            raise ValueError("a packed link of no known kind")
        return PackedLinks(names, (*columns, array("B", flags)))


class LinkPacker:
    """Collects links batch by batch (each batch walked at C speed) into :class:`PackedLinks`."""

    __slots__ = ("_columns", "_ids")

    def __init__(self) -> None:
        self._ids: dict[str | None, int] = {}
        self._columns = (*(array("I") for _ in range(5)), array("B"))

    def __len__(self) -> int:
        return len(self._columns[3])

    def last(self) -> tuple[int, int] | None:
        """The line and column of the last link added, or None."""
        lines, cols = self._columns[3], self._columns[4]
        return (lines[-1], cols[-1]) if lines else None

    def key(
        self, kind: LinkKind, target: str, subpath: str, display: str | None, embed: bool
    ) -> PackedKey:
        """A link's name ids and kind byte, its names numbered as needed (for :meth:`add_keyed`)."""
        ids = self._ids
        target_id = ids.setdefault(target, len(ids))
        subpath_id = ids.setdefault(subpath, len(ids))
        return target_id, subpath_id, ids.setdefault(display, len(ids)), _FLAGS[kind, int(embed)]

    def add_keyed(
        self, keys: Sequence[PackedKey], lines: Sequence[int], cols: Sequence[int]
    ) -> None:
        """Add links given by their :meth:`key` and their lines and columns: no ``Link`` made."""
        if not len(keys) == len(lines) == len(cols):
            raise ValueError("packed link keys, lines and columns of different lengths")
        out = self._columns
        for column, ids in zip(
            (out[0], out[1], out[2], out[5]), zip(*keys, strict=True), strict=False
        ):
            column.extend(ids)
        out[3].extend(lines)
        out[4].extend(cols)

    def add(self, links: Iterable[Link]) -> None:
        found = iter(links)
        while batch := list(islice(found, _BATCH)):
            self._add(batch)

    def _add(self, batch: list[Link]) -> None:
        kinds, targets, subpaths, displays, lines, cols, embeds = zip(*batch, strict=True)
        ids = self._ids
        for column in (targets, subpaths, displays):
            for name in set(column).difference(ids):
                ids[name] = len(ids)
        out = self._columns
        for n, column in enumerate((targets, subpaths, displays)):
            out[n].extend(map(ids.__getitem__, column))
        out[3].extend(lines)
        out[4].extend(cols)
        out[5].extend(map(_FLAGS.__getitem__, zip(kinds, map(int, embeds), strict=True)))

    def packed(self) -> PackedLinks:
        return PackedLinks(tuple(self._ids), self._columns)


def pack_links(links: Iterable[Link]) -> PackedLinks:
    """``links`` as :class:`PackedLinks` (read a batch at a time: the iterable may be lazy)."""
    packer = LinkPacker()
    packer.add(links)
    return packer.packed()


@dataclass(frozen=True, slots=True)
class Heading:
    """A Markdown heading: its text as shown, its level (1-6) and its 1-based line."""

    text: str
    level: int
    line: int


class FindingFields(Protocol):
    """What reading a finding needs: a :class:`Finding`, or the lint cache's row of one
    (``vaultkit.lint.compact.FindingRow``), which a named lint reads without building it."""

    @property
    def path(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def col(self) -> int: ...
    @property
    def code(self) -> str: ...
    @property
    def message(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Finding:
    """A problem found in a vault, printed as ``path:line:col: CODE message``."""

    path: str
    line: int
    col: int
    code: str
    severity: Severity
    message: str

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.path, self.line, self.col, self.code, self.message)

    def render(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.code} {self.message}"


@dataclass(frozen=True, slots=True)
class Note:
    """A parsed Markdown note. ``path`` is vault-relative POSIX, e.g. ``"projects/Plan.md"``.

    ``frontmatter`` is the parsed YAML mapping (empty when absent or invalid; invalidity is
    reported in ``findings``). ``body_line`` is the 1-based line where the body starts in the
    original file, so that positions stay right after frontmatter. ``links`` is a tuple, or
    :class:`PackedLinks` (equal to the tuple) for a body walked window by window.
    """

    path: str
    frontmatter: Mapping[str, object] = field(default_factory=dict)
    links: Sequence[Link] = ()  # a tuple, or PackedLinks for a very long note
    headings: tuple[Heading, ...] = ()
    block_ids: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    findings: tuple[Finding, ...] = ()
    body_line: int = 1
    first_text: str = ""

    @property
    def name(self) -> str:
        """The file name without ``.md`` — what a bare ``[[link]]`` names."""
        base = self.path.rsplit("/", 1)[-1]
        return base[: -len(NOTE_SUFFIX)] if base.lower().endswith(NOTE_SUFFIX) else base

    @property
    def degraded(self) -> bool:
        """True when frontmatter says ``quality: degraded`` (never inferred from the body)."""
        value = self.frontmatter.get("quality")
        return isinstance(value, str) and value.strip().lower() == "degraded"
