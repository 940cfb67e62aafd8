"""`dealer.kernel.tuples.NamedTuple` builds the class `typing.NamedTuple` builds, without its
start-up cost: the same fields, defaults, methods, docstring, generic parameters, pickling and
refusals, checked side by side with typing's."""

from __future__ import annotations

import pickle
import typing
from typing import Generic, TypeVar

import pytest

from dealer.kernel.tuples import NamedTuple

T = TypeVar("T")


class Ours(NamedTuple):
    """A value."""

    name: str
    count: int = 1
    tags: tuple[str, ...] = ()

    def twice(self) -> int:
        return self.count * 2

    @property
    def label(self) -> str:
        return f"{self.name}x{self.count}"


class Typings(typing.NamedTuple):
    """A value."""

    name: str
    count: int = 1
    tags: tuple[str, ...] = ()

    def twice(self) -> int:
        return self.count * 2

    @property
    def label(self) -> str:
        return f"{self.name}x{self.count}"


class Box(NamedTuple, Generic[T]):
    item: T


def test_the_same_class_as_typings() -> None:
    for cls in (Ours, Typings):
        made = cls("a", 3)
        assert (made, made.twice(), made.label) == (("a", 3, ()), 6, "ax3")
        assert cls._fields == ("name", "count", "tags")
        assert cls._field_defaults == {"count": 1, "tags": ()}
        assert made._replace(count=4) == ("a", 4, ())
        assert made._asdict() == {"name": "a", "count": 3, "tags": ()}
        assert cls.__doc__ == "A value."
        assert cls.__module__ == __name__
        assert repr(made) == f"{cls.__name__}(name='a', count=3, tags=())"
        assert pickle.loads(pickle.dumps(made)) == made
        assert isinstance(made, tuple)
    # the annotations are kept as written (typing's compiles them), and resolve alike
    assert Ours.__annotations__ == {"name": "str", "count": "int", "tags": "tuple[str, ...]"}
    assert typing.get_type_hints(Ours) == typing.get_type_hints(Typings)


def test_generic_parameters() -> None:
    assert Box[int](5).item == 5
    assert Box.__parameters__ == (T,)


def test_the_refusals_are_typings() -> None:
    with pytest.raises(TypeError, match="without a default follows"):

        class Late(NamedTuple):
            first: int = 0
            second: int  # type: ignore[misc]

    with pytest.raises(AttributeError, match="cannot overwrite NamedTuple attribute _replace"):

        class Reserved(NamedTuple):
            value: int

            def _replace(self) -> None:  # type: ignore[override]
                pass

    with pytest.raises(TypeError, match="can only inherit from a NamedTuple type and Generic"):

        class Mixed(NamedTuple, dict):  # type: ignore[misc]
            value: int
