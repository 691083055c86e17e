"""Record values behave like frozen slotted dataclasses, and dataclasses' helpers accept them."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from vaultkit.base.record import Record, field


class Point(Record):
    x: int
    y: int = 0
    tags: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.x + self.y


def test_construction_defaults_equality_hash_and_repr() -> None:
    p = Point(1, y=2)
    assert (p.x, p.y, p.tags, p.total) == (1, 2, [], 3)
    assert p == Point(x=1, y=2) and p != Point(1, 3)
    assert Point(1).tags is not Point(1).tags  # a fresh default each time
    assert repr(Point(1)) == "Point(x=1, y=0, tags=[])"
    assert hash(Point(1, 2, ())) == hash(Point(1, 2, ()))  # type: ignore[arg-type]
    assert not hasattr(p, "__dict__")


def test_wrong_arguments_are_refused() -> None:
    with pytest.raises(TypeError, match="missing argument 'x'"):
        Point()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected argument 'z'"):
        Point(1, z=2)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="two values"):
        Point(1, x=2)  # type: ignore[misc]
    with pytest.raises(TypeError, match="takes 3 arguments"):
        Point(1, 2, [], 4)  # type: ignore[call-arg]


def test_immutable() -> None:
    p = Point(1)
    with pytest.raises(AttributeError):
        p.x = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del p.x


def test_replace_pickle_and_copy() -> None:
    p = Point(1, 2, ["a"])
    assert p.replace(y=5) == Point(1, 5, ["a"])
    assert p.as_dict() == {"x": 1, "y": 2, "tags": ["a"]}
    assert pickle.loads(pickle.dumps(p)) == p
    assert copy.deepcopy(p) == p and copy.copy(p) == p


def test_dataclasses_helpers_accept_records() -> None:
    p = Point(1, 2)
    assert dataclasses.is_dataclass(p)
    assert dataclasses.replace(p, x=7) == Point(7, 2)
    assert dataclasses.asdict(p) == {"x": 1, "y": 2, "tags": []}
    assert [f.name for f in dataclasses.fields(Point)] == ["x", "y", "tags"]
