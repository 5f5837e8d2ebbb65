"""What a bot's rule works out the same for every option, worked out once per ranking
(issue 21).

A bot's rule is a loop over the options left (bots.py `_rule_fn`), and the state does
not change while a bot ranks: a part of the rule that does not read the option
(`wanders(me)`, the text of the tile `me` stands on in `"{here(me)} {way}"`) has the
same value for every option. Such a part is worked out before the loop (`_once1 =
...`) when the loop would have worked it out first at every turn anyway:

- it reads neither the option nor the step budget, nor a value the code generator
  named (`:=`) outside it, and calls nothing but a number's text (`_INTS.get`), `len`
  and a def kept per ranking (`_h.memo_call`, bots.py), and the tuple of a list a
  comprehension builds (`action in attacks(me)`, switch COMPREHENSIONS);
- it is not under a branch (`and`, `or`, `if`, a chained comparison's later parts),
  or under one decided by a part worked out before the loop: `b` in `a or b`, where
  a is such a part, is worked out before the loop when a is false (`_once2 = (b) if
  not _once1 else None`);
- nothing that can fail is worked out before it in the rule (only names and constants
  are read, and compared for equality, before it), so that an error it raises is
  raised where it was: at the first option, before anything else.

The same part written again elsewhere in the rule, under a branch too, reads the name:
it was worked out before the loop, and is the same value. The loop runs over two
options or more (`rank` stops narrowing at one), so a part worked out before it is
one the loop would have worked out.
"""

from __future__ import annotations

import ast
import re

from rulelang.runtime.lines import parse_expr

HOISTED = True  # off: every part of a rule is worked out for each option
# off: a part builds no list (`[e for p in players]`, made a tuple): such a list was
# made again for every option (`action in attacks(me)`, a def written in place)
COMPREHENSIONS = True
OPTION = "_opt"
_CALLS = ("_INTS.get", "len", "_h.memo_call")  # what a part may call
_BUILT = (ast.ListComp, ast.comprehension)  # a list built from a source (COMPREHENSIONS)
_PLAIN = (ast.Name, ast.Constant)  # read before a part: cannot fail
# worked out child by child, in the order of ast's fields
_IN_ORDER = (
    ast.BinOp, ast.UnaryOp, ast.Subscript, ast.Attribute, ast.JoinedStr, ast.FormattedValue
)  # fmt: skip
_PARTS = (
    ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.BinOp, ast.UnaryOp,
    ast.BoolOp, ast.Compare, ast.IfExp, ast.JoinedStr, ast.FormattedValue, ast.Tuple,
    ast.Call, ast.NamedExpr, ast.Store, ast.Load, ast.operator, ast.unaryop, ast.boolop, ast.cmpop,
)  # fmt: skip


def hoisted(value: str) -> tuple[list[str], str]:
    """The assignments to put before the loop over the options, and the rule's
    expression reading their names (see the module's text)."""
    if not HOISTED or "\n" in value:
        return [], value
    try:
        tree = parse_expr(value)
    except SyntaxError:
        return [], value
    found = _Prefix()
    found.visit(tree, "")
    if not found.parts:
        return [], value
    raw = value.encode("utf-8")
    before: list[str] = []
    names: dict[str, str] = {}
    edits: list[tuple[ast.expr, str]] = []
    for part, guard, name in found.parts:
        if guard:  # read where it stands only: elsewhere it may not have been worked out
            before.append(f"{name} = ({_text(raw, part)}) if {guard} else None")
            edits.append((part, name))
        elif name not in names.values():
            before.append(f"{name} = {_text(raw, part)}")
            names[_key(part)] = name
    edits += [(n, names[_key(n)]) for n in _same_parts(tree, names)]
    for node, name in sorted(edits, key=lambda e: e[0].col_offset, reverse=True):
        raw = raw[: node.col_offset] + name.encode() + raw[node.end_col_offset or 0 :]
    return before, raw.decode("utf-8")


class _Prefix:
    """The parts of a rule worked out first at every turn of its loop: always (guard
    ""), or whenever a part worked out before them says so (`and`, `or` after one)."""

    def __init__(self) -> None:
        self.parts: list[tuple[ast.expr, str, str]] = []  # (part, guard, name)
        self.named: dict[str, str] = {}  # the names of the parts worked out always
        self.open = True  # nothing that can fail worked out yet

    def visit(self, node: ast.expr, guard: str | None) -> None:
        """`guard`: "" always worked out, None under a branch, else the condition
        (on names worked out before the loop) under which it is."""
        if isinstance(node, _PLAIN) or _safe(node):
            return
        if self.open and guard is not None and _is_part(node):
            name = f"_once{len(self.parts) + 1}"
            if not guard:  # one name for the same part written again
                name = self.named.setdefault(_key(node), name)
            self.parts.append((node, guard, name))
            return
        if isinstance(node, ast.BoolOp):
            self.visit(node.values[0], guard)
            first = self.parts[-1] if self.parts else None
            after = None
            if len(node.values) == 2 and first is not None and first[0] is node.values[0]:
                after = _guarded(node.op, first, guard)
            for v in node.values[1:]:
                self.visit(v, after)
        elif isinstance(node, ast.IfExp):
            self.visit(node.test, guard)
            self.visit(node.body, None)
            self.visit(node.orelse, None)
        elif isinstance(node, ast.Compare):
            self.visit(node.left, guard)
            self.visit(node.comparators[0], guard)
            for c in node.comparators[1:]:
                self.visit(c, None)
        elif isinstance(node, _IN_ORDER):
            for child in ast.iter_child_nodes(node):  # in the order worked out
                if isinstance(child, ast.expr):
                    self.visit(child, guard)
        self.open = False  # the node's own work may fail (or was not looked into)


def _guarded(op: ast.boolop, first: tuple[ast.expr, str, str], guard: str | None) -> str | None:
    """The guard of b in `a and b` / `a or b`, where a was worked out before the loop
    (always: a guard of guards is not written)."""
    if guard != "" or first[1] != "":
        return None
    return first[2] if isinstance(op, ast.And) else f"not {first[2]}"


def _safe(node: ast.expr) -> bool:
    """Can the expression not fail, whatever the values of the rules (texts, numbers,
    truth values, none, tuples) it reads? Names and constants compared for equality
    or identity, and choices and `not` of such."""
    if isinstance(node, _PLAIN):
        return True
    if isinstance(node, ast.Compare):
        same = all(isinstance(o, ast.Eq | ast.NotEq | ast.Is | ast.IsNot) for o in node.ops)
        return same and all(_safe(x) for x in (node.left, *node.comparators))
    if isinstance(node, ast.IfExp):
        return _safe(node.test) and _safe(node.body) and _safe(node.orelse)
    if isinstance(node, ast.BoolOp):
        return all(_safe(v) for v in node.values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return _safe(node.operand)
    return False


def _is_part(node: ast.expr) -> bool:
    """Does the expression read nothing that changes from option to option, or while
    ranking, and call only what _CALLS allows?"""
    named = {n.target.id for n in ast.walk(node) if isinstance(n, ast.NamedExpr)}
    for n in ast.walk(node):
        if not isinstance(n, _PARTS) and not (COMPREHENSIONS and isinstance(n, _BUILT)):
            return False
        if isinstance(n, ast.Name) and (n.id == OPTION or _named_outside(n, named)):
            return False
        if isinstance(n, ast.Attribute) and n.attr == "steps":
            return False
        if isinstance(n, ast.Call) and (n.keywords or not _allowed(n)):
            return False
    return True


def _allowed(call: ast.Call) -> bool:
    """May a part make this call? Those of _CALLS; with COMPREHENSIONS, `tuple` of a
    list built by a comprehension too (a list of the rules is a tuple)."""
    called = ast.unparse(call.func)
    if called in _CALLS:
        return True
    one = len(call.args) == 1 and isinstance(call.args[0], ast.ListComp)
    return COMPREHENSIONS and called == "tuple" and one


def _named_outside(n: ast.Name, named: set[str]) -> bool:
    """Is the name read one that `:=` gives a value outside the part (a `_tN` of the
    code generator, named in an expression and read in it)?"""
    return isinstance(n.ctx, ast.Load) and n.id.startswith("_t") and n.id not in named


def _same_parts(tree: ast.expr, names: dict[str, str]) -> list[ast.expr]:
    """Every part of the rule written as one of those worked out before the loop (not
    inside a comprehension or lambda, whose names are their own)."""
    found: list[ast.expr] = []
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.expr) and _key(node) in names:
            found.append(node)
            continue
        if isinstance(node, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
            continue
        if isinstance(node, ast.Lambda):
            continue
        todo.extend(ast.iter_child_nodes(node))
    return found


_TEMP = re.compile(r"id='(_t[0-9]+)'")


def _key(node: ast.expr) -> str:
    """A part as its structure: the code generator's `_tN` names numbered by where they
    first stand, so that two copies of one def written in place, each given `:=` names
    of its own (exprgen.FRESH_TEMPS), are one part. Where a copy reads a name that it
    does not bind, that read stands where the other binds it (a Load, not a Store):
    the two differ."""
    order: dict[str, str] = {}

    def number(m: re.Match[str]) -> str:
        return f"id='{order.setdefault(m[1], f'_t#{len(order)}')}'"

    return _TEMP.sub(number, ast.dump(node))


def _text(raw: bytes, node: ast.expr) -> str:
    return raw[node.col_offset : node.end_col_offset].decode("utf-8")
