"""JSON for the hooks without importing :mod:`json`, whose import compiles six regular
expressions and loads :mod:`re` and :mod:`enum` (about 8 ms of a SessionEnd hook's CPU).

:func:`loads` runs CPython's own C scanner (``_json.make_scanner``, the one :mod:`json` uses) and
:func:`dumps` writes the flat objects vaultkit keeps in small files (a queued job) with the C
string encoder. Both give exactly what :mod:`json` gives: anything outside their fast path (an
error, bytes that are not plain UTF-8, a nested value to write, another Python without ``_json``)
is handed to :mod:`json` itself, so errors and their messages are :mod:`json`'s too.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    Scanner = Callable[[str, int], tuple[object, int]]

WHITESPACE = " \t\n\r"  # what json.decoder.WHITESPACE skips around a document
_CONSTANTS = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}


class _Context:
    """The decoder settings ``_json.make_scanner`` reads: those of ``json.loads`` by default."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = _CONSTANTS.__getitem__


def _make_scanner() -> Scanner | None:
    try:
        import _json
    except ImportError:
        return None
    make = getattr(_json, "make_scanner", None)
    try:
        return make(_Context()) if make is not None else None
    except Exception:  # an interpreter whose scanner wants other settings: json does the work
        return None


def _make_encoder() -> Callable[[str], str] | None:
    try:
        import _json
    except ImportError:
        return None
    encode: Callable[[str], str] | None = getattr(_json, "encode_basestring", None)
    return encode


_SCAN = _make_scanner()
_QUOTE = _make_encoder()
_MISSING = object()


def _text(document: str | bytes | bytearray) -> str | None:
    """The document as text, or None when only :mod:`json` can say (a BOM, UTF-16/32)."""
    if isinstance(document, str):
        return document
    head = bytes(document[:4])
    if head.startswith(b"\xef\xbb\xbf") or b"\x00" in head:
        return None
    try:
        return bytes(document).decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return None


def _scan(text: str) -> object:
    if _SCAN is None:
        return _MISSING
    start = len(text) - len(text.lstrip(WHITESPACE))
    try:
        value, end = _SCAN(text, start)
    except Exception:  # json.loads below raises the true error: the C scanner builds its own
        return _MISSING  # from json.decoder, which is not loaded here (it gives a SystemError)
    return value if not text[end:].strip(WHITESPACE) else _MISSING


def loads(document: str | bytes | bytearray) -> object:
    """``json.loads(document)``: the same value, or the same :class:`ValueError`."""
    text = _text(document)
    value = _MISSING if text is None else _scan(text)
    if value is _MISSING:
        import json  # the slow path: errors, unusual encodings, no C scanner

        result: object = json.loads(document)
        return result
    return value


def _scalar(value: object) -> str | None:
    """One value's JSON as :mod:`json` writes it; None for anything but str, int, bool, None."""
    if isinstance(value, str):
        return _QUOTE(value) if _QUOTE is not None else None
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if type(value) is int:
        return int.__repr__(value)
    return None


def dumps(data: Mapping[str, object], *, indent: int | None = None) -> str:
    """``json.dumps(data, ensure_ascii=False, indent=indent)`` for a mapping of str keys."""
    plain = all(isinstance(key, str) for key in data)
    parts = [(_scalar(key), _scalar(value)) for key, value in data.items()]
    if not plain or any(k is None or v is None for k, v in parts):
        import json  # nested or unusual values: json writes them

        return json.dumps(data, ensure_ascii=False, indent=indent)
    items = [f"{k}: {v}" for k, v in parts]
    if not items:
        return "{}"
    if indent is None:
        return "{" + ", ".join(items) + "}"
    pad = "\n" + " " * indent
    return "{" + pad + ("," + pad).join(items) + "\n}"
