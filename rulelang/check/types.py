"""The types of rule expressions."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class T:
    name: str  # int bool text player entity enum list none any zone node table
    arg: str = ""  # kind name (entity, zone), board name (node) or enum name (enum)
    elem: T | None = None  # list element, table value

    def __str__(self) -> str:
        if self.name == "list":
            return f"list({self.elem})"
        if self.name in ("node", "side"):
            return f"{self.name}({self.arg})"
        if self.name == "sides":  # an edge attribute: a value per side
            return f"{self.elem} per side of {self.arg}"
        if self.name == "enum":
            return self.arg
        if self.name in ("entity", "zone"):
            return self.arg if self.name == "entity" else f"zone of {self.arg}"
        if self.name == "table":
            return f"table of {self.elem}"
        return self.name


INT = T("int")
BOOL = T("bool")
TEXT = T("text")
PLAYER = T("player")
NONE = T("none")
ANY = T("any")


def list_of(elem: T) -> T:
    return T("list", elem=elem)


def entity(kind: str) -> T:
    return T("entity", kind)


def compatible(want: T, got: T) -> bool:
    """Can a value of type `got` be used where `want` is expected?"""
    if want == got or ANY in (want, got):
        return True
    numeric = {"int", "node"}
    if want.name in numeric and got.name in numeric:
        return True
    if got == NONE and want.name in ("entity", "player", "node", "int", "text", "enum", "side"):
        return True
    if want.name == "list" and got.name == "list":
        assert want.elem is not None and got.elem is not None
        return got.elem == NONE or compatible(want.elem, got.elem)
    return False


def join(a: T, b: T) -> T:
    """The type of a list holding values of both types, or ANY when they do not mix."""
    if compatible(a, b):
        return b if a in (NONE, ANY) else a
    if compatible(b, a):
        return b
    return ANY
