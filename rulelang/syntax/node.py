"""Frozen, slotted AST node classes, made quickly.

`@node` does for an AST class what `@dataclass(frozen=True, slots=True)` does: fields
in order (base classes first) with their defaults, immutability, equality and hash by
value, a readable repr, pickling (for the AST cache) and `__dataclass_fields__` for
code that walks every field. It exists because the dataclass decorator compiles
several methods per class with `exec` when a module is imported: for the 61 AST
classes that was about 75 ms of every command's start. Here each class's `__init__`
is compiled the first time the class is instantiated.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")
_set = object.__setattr__
_MISSING = object()


class Node:
    """The base of every AST class: frozen, compared and hashed by its fields."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    _defaults: dict[str, object] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        cls = type(self)
        init = _compile_init(cls)
        # the class's own __init__ from now on (mypy refuses any assignment to a method)
        cls.__init__ = init  # type: ignore[method-assign]
        init(self, *args, **kwargs)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot set '{name}'")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot delete '{name}'")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self._fields)

    def __hash__(self) -> int:
        return hash((type(self).__name__, *(getattr(self, f) for f in self._fields)))

    def __repr__(self) -> str:
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields)
        return f"{type(self).__name__}({inner})"

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), tuple(getattr(self, f) for f in self._fields)))


def _rebuild(cls: type[Node], values: tuple[object, ...]) -> Node:
    obj = object.__new__(cls)
    for name, value in zip(cls._fields, values, strict=True):
        _set(obj, name, value)
    return obj


def _compile_init(cls: type[Node]) -> Any:
    params, body = ["self"], []
    env: dict[str, object] = {"_set": _set}
    for name in cls._fields:
        default = cls._defaults.get(name, _MISSING)
        if default is _MISSING:
            params.append(name)
        else:
            env[f"_d_{name}"] = default
            params.append(f"{name}=_d_{name}")
        body.append(f"    _set(self, {name!r}, {name})")
    text = f"def __init__({', '.join(params)}):\n" + "\n".join(body or ["    pass"])
    scope: dict[str, Any] = {}
    exec(compile(text, f"<node {cls.__name__}>", "exec"), env, scope)  # noqa: S102
    return scope["__init__"]


@dataclass_transform(eq_default=True, frozen_default=True)
def node(cls: type[T]) -> type[T]:
    """Make `cls` a frozen, slotted node class (see the module's docstring)."""
    own = [f for f in cls.__dict__.get("__annotations__", {})]
    base_fields: tuple[str, ...] = getattr(cls, "_fields", ())
    namespace = {
        k: v
        for k, v in cls.__dict__.items()
        if k not in own and k not in ("__dict__", "__weakref__")
    }
    defaults = dict(getattr(cls, "_defaults", {}))
    for name in own:
        if name in cls.__dict__:
            defaults[name] = cls.__dict__[name]
    fields = (*base_fields, *own)
    namespace.update(
        __slots__=tuple(own),
        _fields=fields,
        _defaults=defaults,
        __dataclass_fields__=dict.fromkeys(fields),
        __init__=Node.__init__,
    )  # each class compiles its own on first use
    bases = cls.__bases__ if issubclass(cls, Node) else (*cls.__bases__, Node)
    bases = tuple(b for b in bases if b is not object) or (Node,)
    made = type(cls.__name__, bases, namespace)
    made.__qualname__ = cls.__qualname__
    return made


def replace(obj: T, **changes: object) -> T:
    """A copy of a node with some fields changed."""
    cls = type(obj)
    values = {f: getattr(obj, f) for f in getattr(cls, "_fields", ())}
    values.update(changes)
    return cls(**values)


def nodes(value: object) -> Iterator[Node]:
    """Every AST node in `value` (a node, or a tuple or list of them), itself first,
    then depth first in the order of its fields."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Node):
            yield item
            stack.extend(getattr(item, f) for f in reversed(type(item)._fields))
        elif isinstance(item, tuple | list):
            stack.extend(reversed(item))
