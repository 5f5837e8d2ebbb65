"""Pass: data files. Pieces and cards listed in YAML, checked against their kind.

`card tunnel from "cards.yaml" { ... }` reads a list of entries, one per design; each
entry gives attribute values and an optional `count` of copies (default 1). An
attribute an entry leaves out takes its default. The loader has already refused a data
file outside the folders a rule file may read (E110); here it is read without blocking
and at most `MAX_FILE_BYTES` of it.
"""

from __future__ import annotations

import copy
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from rulelang import errors
from rulelang.check.context import Checker
from rulelang.check.layout import SIDES
from rulelang.check.symbols import KindSym
from rulelang.check.types import T
from rulelang.loader import Refused, data_path, read_limited, shown
from rulelang.syntax import ast as A


def run(c: Checker) -> None:
    boards = _tile_boards(c)
    for kind in c.kinds:
        if kind.decl.data:
            rows = _load(c, kind, boards.get(kind.name))
            if rows is not None:
                c.data_rows[kind.name] = rows


# How deep a data file may nest lists and maps (an entry's list of lists is 3): libyaml's
# composer recurses in C, and a file nested 50,000 deep crashed the process (SIGSEGV);
# a few thousand deep overflowed Python's own recursion when the value was copied
MAX_DEPTH = 64


class TooDeep(Exception):
    """A data file nesting lists and maps deeper than MAX_DEPTH, at this line."""

    def __init__(self, line: int) -> None:
        super().__init__(line)
        self.line = line


@lru_cache(maxsize=16)
def _parsed(text: str) -> Any:
    import yaml  # only rule files with data files need it: the others start without it

    # libyaml's parser when PyYAML has it: the same safe constructors, built as plain
    # Python would build them, in a tenth of the time (a deck of 70 cards: ~25 ms)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    _check_depth(yaml.parse(text, Loader=loader))
    return yaml.load(text, Loader=loader)


def _check_depth(events: Any) -> None:
    """Raise TooDeep where the events (yaml.parse's: the parser keeps its own stack,
    it does not recurse) open a list or map more than MAX_DEPTH deep."""
    import yaml

    depth = 0
    try:
        for event in events:
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    mark = event.start_mark
                    raise TooDeep(mark.line + 1 if mark is not None else 0)
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.MarkedYAMLError as exc:  # PyYAML 6.0.4's scanner stops deep flows itself
        if "nesting depth" not in str(exc.problem):
            raise
        raise TooDeep(exc.problem_mark.line + 1 if exc.problem_mark is not None else 0) from None


def _yaml(text: str) -> Any:
    """The YAML text's value, parsed once per text in a process (a language server
    checks the same data file at every edit of the rules), copied for the caller."""
    return copy.deepcopy(_parsed(text))


def _tile_boards(c: Checker) -> dict[str, str]:
    """Kind -> a board that holds it as tiles (its rows must then have a tile's shape)."""
    return {d.tiles: d.name for d in c.decls if isinstance(d, A.BoardDecl) and d.tiles}


def _load(c: Checker, kind: KindSym, board: str | None) -> list[dict[str, Any]] | None:
    import yaml  # for its errors; only rule files with data files need it

    d = kind.decl
    where = data_path(d)
    text = c.data_texts.get(where)  # read by the loader (perhaps on another machine)
    try:
        entries = _yaml(read_limited(Path(where)) if text is None else text)
    except Refused as why:
        c.report(errors.refused(f"data file '{shown(d.data)}'", why.reason, d.span, why.hint))
        return None
    except TooDeep as deep:
        nested = f"it nests lists and maps more than {MAX_DEPTH} deep (line {deep.line})"
        c.report(errors.refused(f"data file '{shown(d.data)}'", nested, d.span))
        return None
    except UnicodeDecodeError:
        c.report(errors.cannot_read(f"data file '{shown(d.data)}'", "it is not UTF-8 text", d.span))
        return None
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "the path cannot be read"
        c.report(errors.cannot_read(f"data file '{shown(d.data)}'", reason, d.span))
        return None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        c.report(errors.data_not_yaml(d.data, line, d.span))
        return None
    if not isinstance(entries, list):
        c.report(errors.data_not_a_list(d.data, d.category, d.span))
        return None
    rows: list[dict[str, Any]] = []
    most = c.limits.items
    lists = _Lists()
    for number, entry in enumerate(entries, 1):
        row = _entry(c, kind, number, entry, lists)
        if row is None:
            continue
        if board is not None:
            _tile_shape(c, kind, board, number, row)
        copies = entry.get("count", 1)
        if len(rows) + copies > most:  # before copying: a count may be 10^8 or more
            where = f"{d.data}, entry {number}"
            total = len(rows) + copies
            c.report(errors.data_too_many(where, copies, total, kind.name, most, d.span))
            return None
        rows.extend(dict(row) for _ in range(copies))
    return rows


def _tile_shape(c: Checker, kind: KindSym, board: str, number: int, row: dict[str, Any]) -> None:
    """A tile's edges give one open-or-closed value per side of the grid (their type
    is checked with every attribute's, as the kind declares it)."""
    edges = row.get("edges")
    if isinstance(edges, tuple) and len(edges) != SIDES:
        where = f"{kind.decl.data}, entry {number}"
        c.report(errors.data_tile_sides(where, board, SIDES, len(edges), kind.decl.span))


def _entry(
    c: Checker, kind: KindSym, number: int, entry: Any, lists: _Lists
) -> dict[str, Any] | None:
    d = kind.decl
    where = f"{d.data}, entry {number}"
    if not isinstance(entry, dict):
        c.report(errors.data_entry_not_pairs(where, d.span))
        return None
    count = entry.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        c.report(errors.data_bad_count(where, count, d.span))
        return None
    row: dict[str, Any] = {}
    for key, value in entry.items():
        if key == "count":
            continue
        attr = kind.attrs.get(str(key))
        if attr is None:
            c.report(errors.data_unknown_attribute(where, kind.name, str(key), d.span, kind.attrs))
            continue
        try:
            row[attr.name] = _convert(c, value, attr.type, lists)
        except _Bad as bad:
            if bad.enum:
                values = c.enums[bad.enum].values
                c.report(errors.data_not_in_enum(where, key, bad.enum, bad.value, d.span, values))
            else:
                c.report(errors.data_wrong_type(where, key, attr.type, value, d.span))
    given = {str(key) for key in entry}
    for name, attr in kind.attrs.items():
        if name not in given and attr.default is None:  # a wrong value is reported once
            c.report(errors.data_missing(where, name, kind.name, d.span))
    return row


class _Bad(Exception):
    """A data value that does not fit; enum and value set when it is a text that is not
    one of an enum's values."""

    def __init__(self, enum: str = "", value: str = "") -> None:
        super().__init__(value)
        self.enum = enum
        self.value = value


class _Lists(dict[tuple[int, T], tuple[Any, Any]]):
    """The lists of a data file converted so far, by their identity and type: a list
    YAML names by an alias is one object however many entries name it, and is converted
    once (3,000 entries naming a list of 50,000 numbers would otherwise make 150 million
    items out of a 300 KB file). Each value keeps its list alive, so no id is reused."""


def _convert(c: Checker, value: Any, t: T, lists: _Lists) -> Any:
    if t.name == "int":
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif t.name == "bool":
        if isinstance(value, bool):
            return value
    elif t.name == "text":
        if isinstance(value, str | int | float):
            return str(value)
    elif t.name == "enum":
        # an enum value is the interned text of its name, as in the generated code
        enum = c.enums[t.arg]
        if isinstance(value, str):
            if value in enum.values:
                return sys.intern(value)
            raise _Bad(enum.name, value)
    elif t.name == "list" and t.elem is not None and isinstance(value, list):
        known = lists.get((id(value), t))
        if known is None:
            try:
                known = lists[(id(value), t)] = (value, _list(c, value, t.elem, lists))
            except _Bad as bad:
                lists[(id(value), t)] = (value, bad)
                raise
        if isinstance(known[1], _Bad):
            raise _Bad(known[1].enum, known[1].value)  # anew: its traceback stays short
        return known[1]
    raise _Bad()  # pieces, players and nodes cannot be written in a data file


def _list(c: Checker, value: list[Any], elem: T, lists: _Lists) -> tuple[Any, ...]:
    return tuple(_convert(c, v, elem, lists) for v in value)
