"""`NamedTuple` as `typing.NamedTuple` makes it, without its start-up cost.

`typing.NamedTuple` turns each field's annotation — text, under `from __future__ import
annotations` — into a `ForwardRef`, compiling it: about 0.05 ms a class and 0.02 ms a field
more than the class itself costs. A ruling's path defines some thirty of these value types (160
fields): 5 ms, a twentieth of the start-up of every command. This class statement builds the
same class, `collections.namedtuple` with the body's defaults, methods and docstring (and
`Generic` type parameters), and keeps the annotations as written; the type checker sees
`typing.NamedTuple`.
"""

from __future__ import annotations

import collections
from typing import TYPE_CHECKING, Any, Generic

if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:
    _NOT_COPIED = frozenset({"__annotations__", "__name__", "__module__"})
    _RESERVED = frozenset(
        {"_fields", "_field_defaults", "_source", "__slots__", "_asdict", "__getnewargs__"}
        | {"_replace", "__init__", "__new__", "_make"}
    )

    class _NamedTupleMeta(type):
        def __new__(cls, name: str, bases: tuple[type, ...], body: dict[str, Any]) -> type:
            if not bases:  # NamedTuple itself
                return super().__new__(cls, name, bases, body)
            if any(base is not NamedTuple and base is not Generic for base in bases):
                raise TypeError("can only inherit from a NamedTuple type and Generic")
            fields = tuple(body.get("__annotations__", {}))
            defaults = [body[field] for field in fields if field in body]
            if defaults and any(field not in body for field in fields[-len(defaults) :]):
                raise TypeError(f"{name}: a field without a default follows one with a default")
            made = collections.namedtuple(
                name, fields, defaults=defaults, module=body["__module__"]
            )
            made.__annotations__ = body.get("__annotations__", {})
            generic = Generic in bases
            if generic:  # subscriptable (`Deck[Card]`) as Generic's subclass
                made.__bases__ = (tuple, Generic)
            for key, value in body.items():
                if key in _RESERVED:
                    raise AttributeError(f"cannot overwrite NamedTuple attribute {key}")
                if key not in _NOT_COPIED and key not in fields:
                    setattr(made, key, value)
            if generic:
                made.__init_subclass__()
            return made

    class NamedTuple(metaclass=_NamedTupleMeta):
        """Base of a named tuple class (see the module)."""
