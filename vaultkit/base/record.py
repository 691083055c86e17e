"""Lean immutable records: ``Record`` subclasses are slotted values without importing dataclasses.

A hook process must start fast, and ``import dataclasses`` (with ``inspect``, ``ast``, ``dis``…)
costs more than the rest of a hook together; every ``@dataclass`` also compiles its methods with
``exec``. :class:`Record` gives the same value semantics with nothing to compile: keyword or
positional construction with defaults, ``==``, ``hash``, ``repr``, immutability, pickling and
:meth:`~Record.replace`. Type checkers see a frozen dataclass (``dataclass_transform``).

Code that already uses :mod:`dataclasses` keeps working: ``dataclasses.replace``, ``asdict``,
``fields`` and ``is_dataclass`` accept records (their field table is built on first use, so only
that code pays for importing :mod:`dataclasses`).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, ClassVar, Self, TypeVar

    from typing_extensions import dataclass_transform

    T = TypeVar("T")
else:

    def dataclass_transform(**_options: object) -> object:
        return lambda function: function


class _Factory:
    """A default made fresh for every instance (``field(default_factory=list)``)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], object]) -> None:
        self.make = make


def field(*, default_factory: Callable[[], T]) -> T:
    """A field whose default is ``default_factory()``, made anew for every instance."""
    return _Factory(default_factory)  # type: ignore[return-value]


class _DataclassFields:
    """``__dataclass_fields__`` of a record, built on first access from a dataclass twin."""

    def __get__(self, instance: object, owner: type[Record]) -> dict[str, Any]:
        import dataclasses  # only code that uses dataclasses on records gets here

        specs: list[tuple[str, type, Any]] = []
        for name in owner._fields:
            default = owner._defaults.get(name, dataclasses.MISSING)
            if isinstance(default, _Factory):
                spec = dataclasses.field(default_factory=default.make)
            else:
                spec = dataclasses.field(default=default)
            specs.append((name, object, spec))
        twin = dataclasses.make_dataclass(owner.__name__, specs)
        table: dict[str, Any] = getattr(twin, "__dataclass_fields__")  # noqa: B009
        type.__setattr__(owner, "__dataclass_fields__", table)  # computed once per class
        return table


class _RecordMeta(type):
    """Turns a class body of annotated fields into slots, and their values into defaults."""

    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> _RecordMeta:
        if not bases:  # Record itself
            namespace["__slots__"] = ()
            return super().__new__(mcls, name, bases, namespace)
        names = tuple(namespace.get("__annotations__", {}))
        defaults = {key: namespace.pop(key) for key in names if key in namespace}
        namespace.update(__slots__=names, _fields=names, _defaults=defaults)
        return super().__new__(mcls, name, bases, namespace)


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
class Record(metaclass=_RecordMeta):
    """Base of every record class: subclass it with annotated fields (see the module docstring).
    Records do not inherit fields from other records."""

    _fields: ClassVar[tuple[str, ...]]
    _defaults: ClassVar[dict[str, object]]
    __dataclass_fields__ = _DataclassFields()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        fields = self._fields
        if len(args) > len(fields):
            raise TypeError(f"{type(self).__name__}() takes {len(fields)} arguments")
        values = dict(zip(fields, args, strict=False))
        for name, value in kwargs.items():
            if name not in fields:
                raise TypeError(f"{type(self).__name__}() got an unexpected argument {name!r}")
            if name in values:
                raise TypeError(f"{type(self).__name__}() got two values for {name!r}")
            values[name] = value
        for name in fields:
            if name not in values:
                if name not in self._defaults:
                    raise TypeError(f"{type(self).__name__}() missing argument {name!r}")
                default = self._defaults[name]
                values[name] = default.make() if isinstance(default, _Factory) else default
            object.__setattr__(self, name, values[name])

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Record)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a {type(self).__name__}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a {type(self).__name__}")

    def __reduce__(self) -> tuple[type[Record], tuple[object, ...]]:
        return (type(self), self._values())

    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes`` applied (like :func:`dataclasses.replace`)."""
        return type(self)(**{**dict(zip(self._fields, self._values(), strict=True)), **changes})

    def as_dict(self) -> dict[str, Any]:
        """Field names to values, in field order (nested records are not converted)."""
        return dict(zip(self._fields, self._values(), strict=True))
