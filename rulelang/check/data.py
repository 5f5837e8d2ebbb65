"""Pass: data files. Pieces and cards listed in YAML, checked against their kind.

`card tunnel from "cards.yaml" { ... }` reads a list of entries, one per design; each
entry gives attribute values and an optional `count` of copies (default 1). An
attribute an entry leaves out takes its default. The loader has already refused a data
file outside the folders a rule file may read (E110); here it is read without blocking
and at most `MAX_FILE_BYTES` of it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from rulelang.check.context import Checker
from rulelang.check.symbols import KindSym
from rulelang.check.types import T
from rulelang.diagnostics import did_you_mean
from rulelang.loader import REFUSED, Refused, read_limited, shown


def run(c: Checker) -> None:
    for kind in c.kinds:
        if kind.decl.data:
            rows = _load(c, kind)
            if rows is not None:
                c.data_rows[kind.name] = rows


def _load(c: Checker, kind: KindSym) -> list[dict[str, Any]] | None:
    d = kind.decl
    path = Path(d.span.file).parent / d.data
    try:
        entries = yaml.safe_load(read_limited(path))
    except Refused as why:
        message = f"refused to read data file '{shown(d.data)}': {why.reason}"
        c.error(REFUSED, message, d.span, why.hint)
        return None
    except UnicodeDecodeError:
        c.error("E104", f"cannot read data file '{shown(d.data)}': it is not UTF-8 text", d.span)
        return None
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "the path cannot be read"
        c.error("E104", f"cannot read data file '{shown(d.data)}': {reason}", d.span)
        return None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        c.error("E109", f"data file '{d.data}' is not valid YAML{where}", d.span)
        return None
    if not isinstance(entries, list):
        c.error(
            "E109",
            f"data file '{d.data}' must be a list of entries, one per {d.category} design",
            d.span,
        )
        return None
    rows: list[dict[str, Any]] = []
    for number, entry in enumerate(entries, 1):
        row = _entry(c, kind, number, entry)
        if row is None:
            continue
        copies = entry.get("count", 1)
        rows.extend(dict(row) for _ in range(copies))
    return rows


def _entry(c: Checker, kind: KindSym, number: int, entry: Any) -> dict[str, Any] | None:
    d = kind.decl
    where = f"{d.data}, entry {number}"
    if not isinstance(entry, dict):
        c.error("E109", f"{where}: expected 'name: value' pairs", d.span)
        return None
    count = entry.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        c.error("E109", f"{where}: count must be a whole number, not {count!r}", d.span)
        return None
    row: dict[str, Any] = {}
    for key, value in entry.items():
        if key == "count":
            continue
        attr = kind.attrs.get(str(key))
        if attr is None:
            c.error(
                "E109",
                f"{where}: {kind.name} has no attribute '{key}'",
                d.span,
                did_you_mean(str(key), kind.attrs),
            )
            continue
        converted = _convert(value, attr.type)
        if converted is _BAD:
            c.error("E109", f"{where}: '{key}' must be {attr.type}, not {value!r}", d.span)
            continue
        row[attr.name] = converted
    for name, attr in kind.attrs.items():
        if name not in row and attr.default is None:
            c.error(
                "E109", f"{where}: '{name}' is missing, and {kind.name} gives it no default", d.span
            )
    return row


_BAD = object()


def _convert(value: Any, t: T) -> Any:
    if t.name == "int":
        return value if isinstance(value, int) and not isinstance(value, bool) else _BAD
    if t.name == "bool":
        return value if isinstance(value, bool) else _BAD
    if t.name == "text":
        return str(value) if isinstance(value, str | int | float) else _BAD
    if t.name == "list" and t.elem is not None:
        if not isinstance(value, list):
            return _BAD
        items = [_convert(v, t.elem) for v in value]
        return _BAD if any(i is _BAD for i in items) else tuple(items)
    return _BAD  # pieces, players and nodes cannot be written in a data file
