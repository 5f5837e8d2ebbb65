"""What a bot's rule works out the same for every option, worked out once per ranking
(issue 21).

A bot's rule is a loop over the options left (bots.py `_rule_fn`), and the state does
not change while a bot ranks: a part of the rule that does not read the option
(`wanders(me)`, the text of the tile `me` stands on in `"{here(me)} {way}"`) has the
same value for every option. Such a part is worked out before the loop (`_once1 =
...`) when the loop would have worked it out first at every turn anyway:

- it reads neither the option nor the step budget, calls nothing but a number's text
  (`_INTS.get`), `len` and a def kept per ranking (`_h.memo_call`, bots.py), and
  names nothing with `:=`;
- it is not under a branch (`and`, `or`, `if`, a chained comparison's later parts);
- nothing that can fail is worked out before it in the rule (only names and constants
  are read before it), so that an error it raises is raised where it was: at the
  first option, before anything else.

The same part written again elsewhere in the rule, under a branch too, reads the name:
it was worked out before the loop, and is the same value. The loop runs over two
options or more (`rank` stops narrowing at one), so a part worked out before it is
one the loop would have worked out.
"""

from __future__ import annotations

import ast

HOISTED = True  # off: every part of a rule is worked out for each option
OPTION = "_opt"
_CALLS = ("_INTS.get", "len", "_h.memo_call")  # what a part may call
_PLAIN = (ast.Name, ast.Constant)  # read before a part: cannot fail
# worked out child by child, in the order of ast's fields
_IN_ORDER = (
    ast.BinOp, ast.UnaryOp, ast.Subscript, ast.Attribute, ast.JoinedStr, ast.FormattedValue
)  # fmt: skip
_PARTS = (
    ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.BinOp, ast.UnaryOp,
    ast.BoolOp, ast.Compare, ast.IfExp, ast.JoinedStr, ast.FormattedValue, ast.Tuple,
    ast.Call, ast.Load, ast.operator, ast.unaryop, ast.boolop, ast.cmpop,
)  # fmt: skip


def hoisted(value: str) -> tuple[list[str], str]:
    """The assignments to put before the loop over the options, and the rule's
    expression reading their names (see the module's text)."""
    if not HOISTED or "\n" in value:
        return [], value
    try:
        tree = ast.parse(value, mode="eval").body
    except SyntaxError:
        return [], value
    found = _Prefix()
    found.visit(tree, branched=False)
    if not found.parts:
        return [], value
    names: dict[str, str] = {}
    edits: list[tuple[int, int, str]] = []
    for part in found.parts:
        key = ast.dump(part)
        if key not in names:
            names[key] = f"_once{len(names) + 1}"
    for node in _same_parts(tree, names):
        edits.append((node.col_offset, node.end_col_offset or 0, names[ast.dump(node)]))
    raw = value.encode("utf-8")
    before = [f"{names[ast.dump(p)]} = {_text(raw, p)}" for p in _first_each(found.parts)]
    for start, end, name in sorted(edits, reverse=True):  # right to left
        raw = raw[:start] + name.encode() + raw[end:]
    return before, raw.decode("utf-8")


class _Prefix:
    """The parts of a rule worked out first and always at every turn of its loop."""

    def __init__(self) -> None:
        self.parts: list[ast.expr] = []
        self.open = True  # nothing that can fail worked out yet

    def visit(self, node: ast.expr, branched: bool) -> None:
        if isinstance(node, _PLAIN):
            return
        if self.open and not branched and _is_part(node):
            self.parts.append(node)
            return
        if isinstance(node, ast.BoolOp):
            self.visit(node.values[0], branched)
            for v in node.values[1:]:
                self.visit(v, True)
        elif isinstance(node, ast.IfExp):
            self.visit(node.test, branched)
            self.visit(node.body, True)
            self.visit(node.orelse, True)
        elif isinstance(node, ast.Compare):
            self.visit(node.left, branched)
            self.visit(node.comparators[0], branched)
            for c in node.comparators[1:]:
                self.visit(c, True)
        elif isinstance(node, _IN_ORDER):
            for child in ast.iter_child_nodes(node):  # in the order worked out
                if isinstance(child, ast.expr):
                    self.visit(child, branched)
        self.open = False  # the node's own work may fail (or was not looked into)


def _is_part(node: ast.expr) -> bool:
    """Does the expression read nothing that changes from option to option, or while
    ranking, and call only what _CALLS allows?"""
    for n in ast.walk(node):
        if not isinstance(n, _PARTS):
            return False
        if isinstance(n, ast.Name) and n.id == OPTION:
            return False
        if isinstance(n, ast.Attribute) and n.attr == "steps":
            return False
        if isinstance(n, ast.Call) and (n.keywords or ast.unparse(n.func) not in _CALLS):
            return False
    return True


def _same_parts(tree: ast.expr, names: dict[str, str]) -> list[ast.expr]:
    """Every part of the rule written as one of those worked out before the loop (not
    inside a comprehension or lambda, whose names are their own)."""
    found: list[ast.expr] = []
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.expr) and ast.dump(node) in names:
            found.append(node)
            continue
        if isinstance(node, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
            continue
        if isinstance(node, ast.Lambda):
            continue
        todo.extend(ast.iter_child_nodes(node))
    return found


def _first_each(parts: list[ast.expr]) -> list[ast.expr]:
    seen: set[str] = set()
    out = []
    for p in parts:
        key = ast.dump(p)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def _text(raw: bytes, node: ast.expr) -> str:
    return raw[node.col_offset : node.end_col_offset].decode("utf-8")
