"""`any` and `all` over a generator written as a loop in a function of their own
(issue 21, item 1).

In Python 3.11 `any(E for v in S)` makes a function object and a generator at each
evaluation and resumes the generator for each item: about 250 ns more than a loop
over three items, at every evaluation (a card game asks `any(can_break(c, p) for p
in players)` for a card at each turn). The generated code calls instead a function
made for it, `_any3(st, c)`:

    def _any3(st, c):
        for p in cfg.players:
            if E:
                return True
        return False

(`all`: `if not E: return False` and `return True`); the generator's conditions (`for
v in S if C`) become an `if` around the test. The items are taken, tested and stopped
at as the generator would: the same values, errors at the same item. The function
receives the locals the generator reads; it carries the mark of the statement it comes
from (lines.py), so that an error raised in it is placed on the same rule line.

A list comprehension `[E for v in S if C]` of the function's own scope likewise
(`loops.LISTED`): a call of a function made for it, which builds the list in a loop
(`_made.append(E)`) and returns it. In Python 3.11 the comprehension is a function
object made at every evaluation (and a frame), with the locals it reads made cells
or, where cells.py rewrote it, passed in a tuple it unpacks: about 1,600 machine
instructions a call more than the loop over a tile game's few spots (callgrind), where
an item appended costs a few bytecodes more than `LIST_APPEND`. The same items are
taken, tested and appended in the same order, an error raised at the same item.

The reads of the state an item's test repeats, though no expression changes them while it
is evaluated (`st.cols[2]`, a column of the table at a constant index; `st.layers[0]`, a
board's layer of tiles; `st.zones`, `st.cfg`, `st.current`), are read once before the
loop into locals of the function (`loops.HOISTED`): `st.cols[2][c]` is then one
`BINARY_SUBSCR` an item instead of four bytecodes more. Read there, before the source
is, they cannot raise (a constant index of a list the table sizes for it).

One holding a generator or comprehension of its own (`loops.NESTED`: a def written in
place in a generator, `any(c.marks[0] not in [d.marks[0] for d in pile[p]] for p in
players)`) is a loop function too, and the one inside it is looked at again in that
function (`Namespace.loop`): a call of a function each, where Python made a function
object and a frame for each at every evaluation.

Left as it is: a generator or comprehension inside another comprehension or a lambda,
one with more than one `for`, holding a lambda (or, without NESTED, a comprehension)
of its own, or a `:=` whose name the function reads elsewhere (Python binds it in the
function around it; a name the code generator made for one value, read only there,
moves with it: with `TEMPS_BY_LINE`, "there" is its statement), one whose variable has
the name of a local, and one on a line continued on the next.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from functools import partial

from rulelang.runtime.cells import continued, offsets, statement

LOOPED = True  # off: `any`/`all` over a generator evaluated as written
LISTED = True  # off: a list comprehension evaluated as written (on only with LOOPED)
HOISTED = True  # off: each item's test reads the state's columns and layers itself
# off: a generator or comprehension holding one of its own is left as written; on, it is
# a loop function too, and the one inside it is looked at again in that function
NESTED = True
TEMPS_BY_LINE = True  # off: a `:=` name is private to a loop if read nowhere else at all
_TEMP = re.compile(r"_t[0-9]+$")  # a name ExprGen.temp makes
MADE = "_made"  # the list a comprehension's function builds (no generated name)
MARK = re.compile(r"  # @\d+$")
_SCOPES = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)
_SKIP = (*_SCOPES, ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await)
# what a generator or comprehension may hold and still be a loop function (NESTED)
_NESTED_OK = (ast.NamedExpr, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
# compiles a loop's function from its parameters and lines, gives its name
Make = Callable[[list[str], list[str]], str]


def looped(body: list[str], local: set[str], make: Make) -> list[str]:
    """The body of a function whose locals are `local` with each `any`/`all` over a
    generator of its own scope a call of a function `make` compiles (see above)."""
    if not LOOPED:
        return body
    lines = list(body)
    whole = "\n".join(body)
    mark = ""  # the mark of the statement the line belongs to
    for at, line in enumerate(body):
        found = MARK.search(line)
        mark = found.group(0) if found else mark
        if " for " not in line or not wanted(line):
            continue
        if continued(body, at):
            continue
        text = line.lstrip()
        tree = statement(text)
        if tree is None:
            continue
        edits = [_edit(text, call, local, make, mark, whole) for call in _calls(tree)]
        for start, end, call_text in sorted(filter(None, edits), reverse=True):
            text = text[:start] + call_text + text[end:]  # right to left
        lines[at] = line[: len(line) - len(line.lstrip())] + text
    return lines


def wanted(text: str) -> bool:
    """Might the text hold what `looped` writes as a loop?"""
    return "any(" in text or "all(" in text or (LISTED and "[" in text and " for " in text)


def _calls(tree: ast.AST) -> list[ast.Call | ast.ListComp]:
    """The calls `any(<generator>)` and `all(<generator>)` of the function's own scope,
    and its list comprehensions (LISTED)."""
    found: list[ast.Call | ast.ListComp] = []
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        for child in ast.iter_child_nodes(node):
            if _any_all(child) or (LISTED and isinstance(child, ast.ListComp)):
                found.append(child)  # type: ignore[arg-type]
            elif not isinstance(child, _SCOPES):
                todo.append(child)
    return found


def _any_all(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("any", "all")
        and len(node.args) == 1
        and not node.keywords
        and isinstance(node.args[0], ast.GeneratorExp)
    )


def _edit(
    text: str, call: ast.Call | ast.ListComp, local: set[str], make: Make, mark: str, whole: str
) -> tuple[int, int, str] | None:
    """(start, end, the call that replaces it) for one `any`/`all` or list
    comprehension, None if left."""
    gen = call if isinstance(call, ast.ListComp) else call.args[0]
    assert isinstance(gen, (ast.GeneratorExp, ast.ListComp))
    if len(gen.generators) != 1 or gen.generators[0].is_async or call.end_col_offset is None:
        return None
    inner = [n for n in ast.walk(gen) if n is not gen]
    allowed = _NESTED_OK if NESTED else (ast.NamedExpr,)
    if any(isinstance(n, _SKIP) and not isinstance(n, allowed) for n in inner):
        return None
    start, end = offsets(text, call.col_offset, call.end_col_offset)
    private = _private(inner, text[start:end], text, whole)
    if private is None:
        return None
    comp = gen.generators[0]
    names = [n for n in ast.walk(gen) if isinstance(n, ast.Name)]
    bound = {n.id for n in names if not isinstance(n.ctx, ast.Load)} - private
    if bound & local or not all(isinstance(n, ast.Name) for n in _targets(comp.target)):
        return None
    if MADE in {n.id for n in names}:
        return None
    params = sorted({n.id for n in names if isinstance(n.ctx, ast.Load)} & local - bound - private)

    def source(node: ast.expr) -> str:
        assert node.end_col_offset is not None
        start, end = offsets(text, node.col_offset, node.end_col_offset)
        return text[start:end]

    test = source(gen.elt)
    body = [f"for {source(comp.target)} in {source(comp.iter)}:{mark}"]
    pad = "    "
    if comp.ifs:
        body.append(f"    if {' and '.join(f'({source(c)})' for c in comp.ifs)}:")
        pad = "        "
    if isinstance(call, ast.ListComp):
        body = [f"{MADE} = []", *body, f"{pad}{MADE}.append({test})", f"return {MADE}"]
    else:
        found, done = ("True", "False") if call.func.id == "any" else ("False", "True")  # type: ignore[attr-defined]
        body += [
            f"{pad}if {'' if found == 'True' else 'not '}({test}):",
            f"{pad}    return {found}",
            f"return {done}",
        ]
    if HOISTED:
        body = hoisted(body)
    name = make(params, body)
    return start, end, f"{name}({', '.join(params)})"


# What the test of an item reads of the state that no expression changes while it is
# evaluated: (the read, its local's name: `\1` the constant index). Each is rebound only
# where a state is made, cloned or edited, never by generated code evaluating an
# expression (statelocals.py relies on the same).
INVARIANT = (
    (re.compile(r"(?<![\w.])(?:st\.)?cols\[(\d+)\]"), r"_col\1"),
    (re.compile(r"(?<![\w.])st\.layers\[(\d+)\]"), r"_lay\1"),
    (re.compile(r"(?<![\w.])st\.(zones|cfg|current)\b"), r"_st_\1"),
)


def hoisted(body: list[str]) -> list[str]:
    """A loop's function (its lines, the `for` among them) with INVARIANT's reads of
    the lines after the `for` read once before it."""
    at = next(i for i, line in enumerate(body) if line.startswith("for "))
    after = "\n".join(body[at + 1 :])
    taken = set(re.findall(r"\b_(?:col|lay|st_)\w*", "\n".join(body)))
    reads: dict[str, str] = {}  # local -> what it reads
    for pattern, local in INVARIANT:
        for m in pattern.finditer(after):
            name = m.expand(local)
            if name not in taken:
                reads.setdefault(name, m.group(0))
        after = pattern.sub(partial(_local, local=local, taken=taken), after)
    if not reads:
        return body
    head = [f"{name} = {read}" for name, read in reads.items()]
    return [*body[:at], *head, body[at], *after.split("\n")]


def _local(m: re.Match[str], local: str, taken: set[str]) -> str:
    name = m.expand(local)
    return m.group(0) if name in taken else name


def _private(inner: list[ast.AST], own: str, line: str, whole: str) -> set[str] | None:
    """The names `:=` binds inside the generator or comprehension (which Python binds
    in the function around it), if each is read nowhere else in the function (a name
    the code generator made for a value it reads twice, `(_t7[0] if (_t7 := ...) else
    ...)`): then the loop's function may hold it. None if one is read elsewhere.
    With TEMPS_BY_LINE, a name of ExprGen.temp (`_t7`) is looked for in its statement
    (`line`) alone: it names one value of one expression, and where the same name
    stands on another line that line is a copy of the statement (a chained op repeats
    a turn's lines, a def written in place twice), which binds it before reading it."""
    private = set()
    for n in inner:
        if isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name):
            name = re.compile(rf"\b{re.escape(n.target.id)}\b")
            where = line if TEMPS_BY_LINE and _TEMP.match(n.target.id) else whole
            if len(name.findall(where)) != len(name.findall(own)):
                return None
            private.add(n.target.id)
    return private


def _targets(target: ast.expr) -> list[ast.expr]:
    """The names a `for` binds: one, or a tuple of them (nested tuples left out)."""
    return list(target.elts) if isinstance(target, ast.Tuple) else [target]
