"""The locals of generated functions kept out of cells (issue 21): their
comprehensions read what they need of them as their own variables.

In Python 3.11 a comprehension, a generator expression and a lambda are functions of
their own; a local of the enclosing function that one of them reads becomes a cell, and
every read of it in the whole function goes through the cell (`LOAD_DEREF`, and a cell
made at each call), not only the comprehension's. A long op (chaining.py copies ops
into ops) holds some comprehension that reads `st`, `loc` or `cols` on a path seldom
taken, and the op's every statement pays for it; a def's `any(.. for p in players)`
makes its `st` and its parameters cells. Each such comprehension gets a first `for`
that binds them from a tuple made outside it: `[c for c in z if cols[2][c]]` becomes
`[c for cols, z in ((cols, z),) for c in z if cols[2][c]]`, read when the comprehension
starts, as before (its first source was worked out just before); a lambda is made by
one called at once with them as defaults. The function's own reads stay plain.

Left as it is: a comprehension whose variable has the name of a local (which one a read
means is for Python's scopes to say), one written over several lines, and one that
reads no local but in its first source (worked out outside it: no cell). What `:=`
names inside a comprehension still binds in the function.
"""

from __future__ import annotations

import ast

from rulelang.runtime.lines import parse

UNCELLED = True  # off: comprehensions read the op's locals as cells
_SCOPES = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)


def uncelled(body: list[str], local: set[str]) -> list[str]:
    """The body of a function whose locals (parameters included) are `local` with its
    comprehensions reading none of them as a cell (see the module's text). Called for
    a function whose compiled code has cells: most have none. Each line of generated
    code is a statement (or the head of one): only those with a comprehension or a
    lambda are parsed, one at a time."""
    if not UNCELLED or not local:
        return body
    lines = list(body)
    for at, line in enumerate(body):
        if (" for " not in line and "lambda" not in line) or continued(body, at):
            continue
        text = line.lstrip()
        tree = statement(text)
        if tree is None:
            continue
        pad = len(line) - len(text)
        edits = [_edit(text, n, local) for n in outermost_scopes(tree)]
        for start, end, before, after in sorted(filter(None, edits), reverse=True):
            text = text[:start] + before + text[start:end] + after + text[end:]  # right to left
        lines[at] = line[:pad] + text
    return lines


def continued(body: list[str], at: int) -> bool:
    """Is the line, or the one before it, continued on the next (a `\\` at its end)?"""
    return body[at].endswith("\\") or (at > 0 and body[at - 1].endswith("\\"))


def statement(text: str) -> ast.Module | None:
    """A line (without its indentation) parsed as a statement on its own, the head of
    a block given a body."""
    if text.startswith("elif "):
        text = "if   " + text[5:]  # the same length
    try:
        return parse(text)
    except SyntaxError:
        try:  # the head of a block: given one
            return parse(text + "\n    pass")
        except SyntaxError:
            return None  # a head this does not know (`except`): left as it is


Edit = tuple[int, int, str, str]  # start, end, text put before, text put after


def _edit(text: str, node: ast.expr, local: set[str]) -> Edit | None:
    """(start, end, text put before, text put after) for one comprehension or lambda
    of the function's own scope in a line, None where it reads no local as a cell or
    is left as it is (a variable of it shares a local's name)."""
    read, bound, celled = _names(node)
    if node.end_col_offset is None or bound & local or not celled & local:
        return None
    start, end = offsets(text, node.col_offset, node.end_col_offset)
    names = ", ".join(sorted(read & local))
    if isinstance(node, ast.Lambda):  # called at once with the locals as defaults
        defaults = ", ".join(f"{n}={n}" for n in sorted(read & local))
        return start, end, f"((lambda {defaults}: (", "))())"
    assert isinstance(node, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp)
    target = offsets(text, node.generators[0].target.col_offset, 0)[0]
    keyword = text.rfind("for", start, target)  # the first `for` of the comprehension
    one = f"({names},)" if "," not in names else f"(({names}),)"
    return keyword, keyword, f"for {names} in {one} ", ""


def offsets(text: str, start: int, end: int) -> tuple[int, int]:
    """ast's offsets count bytes of UTF-8; the text's characters."""
    if text.isascii():
        return start, end
    raw = text.encode("utf-8")
    return len(raw[:start].decode("utf-8")), len(raw[:end].decode("utf-8"))


def outermost_scopes(tree: ast.AST) -> list[ast.expr]:
    """The comprehensions and lambdas of the function's own scope (not those inside
    one)."""
    found: list[ast.expr] = []
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _SCOPES):
                found.append(child)
            else:
                todo.append(child)
    return found


def _names(node: ast.expr) -> tuple[set[str], set[str], set[str]]:
    """In one walk of a comprehension or lambda: the names it reads from outside (not
    its own variables, not what `:=` names, which binds in the enclosing function),
    its own variables and parameters, and what its own function reads from outside,
    which would be cells: all it reads but what only its first source reads (worked
    out outside it)."""
    first: set[int] = set()
    if not isinstance(node, ast.Lambda):
        assert isinstance(node, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp)
        first = {id(n) for n in ast.walk(node.generators[0].iter)}
    read: set[str] = set()
    inside: set[str] = set()  # read in the comprehension's own function
    stored: set[str] = set()
    named: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            if not isinstance(n.ctx, ast.Load):
                stored.add(n.id)
                continue
            read.add(n.id)
            if id(n) not in first:
                inside.add(n.id)
        elif isinstance(n, ast.NamedExpr):
            named.add(n.target.id)
        elif isinstance(n, ast.arg):
            stored.add(n.arg)
    bound = stored - named
    return read - bound - named, bound, inside - bound - named
