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
        if (" for " not in line and "lambda" not in line) or _continued(body, at):
            continue
        tree = _statement(line)
        if tree is None:
            continue
        edits = [e for e in map(lambda n: _edit(line, n, local), _outermost_scopes(tree)) if e]
        for start, end, before, after in sorted(edits, reverse=True):  # right to left
            line = line[:start] + before + line[start:end] + after + line[end:]
        lines[at] = line
    return lines


def _continued(body: list[str], at: int) -> bool:
    """Is the line, or the one before it, continued on the next (a `\\` at its end)?"""
    return body[at].endswith("\\") or (at > 0 and body[at - 1].endswith("\\"))


def _statement(line: str) -> ast.Module | None:
    """The line parsed as a statement on its own, its offsets those of the line: its
    offsets moved by its indentation, the head of a block given a body."""
    text = line.lstrip()
    pad = len(line) - len(text)
    if text.startswith("elif "):
        text = "if   " + text[5:]  # the same length
    try:
        tree = ast.parse(text)
    except SyntaxError:
        try:  # the head of a block: given one
            tree = ast.parse(text + "\n    pass")
        except SyntaxError:
            return None  # a head this does not know (`except`): left as it is
    for node in ast.walk(tree):  # the offsets of the line, as its indentation was
        if isinstance(node, ast.expr | ast.stmt | ast.arg):
            node.col_offset += pad
            if node.end_col_offset is not None:
                node.end_col_offset += pad
    return tree


Edit = tuple[int, int, str, str]  # start, end, text put before, text put after


def _edit(line: str, node: ast.expr, local: set[str]) -> Edit | None:
    """(start, end, text put before, text put after) for one comprehension or lambda
    of the function's own scope in the line, None where it reads no local as a cell or
    is left as it is (a variable of it shares a local's name)."""
    bound = _bound(node)
    named = {n.target.id for n in ast.walk(node) if isinstance(n, ast.NamedExpr)}
    read = sorted((_loaded(node) - bound - named) & local)
    if node.end_col_offset is None or bound & local or not (_celled(node) - named) & local:
        return None
    start, end = _utf8_offsets(line, node.col_offset, node.end_col_offset)
    if isinstance(node, ast.Lambda):  # called at once with the locals as defaults
        return start, end, f"((lambda {', '.join(f'{n}={n}' for n in read)}: (", "))())"
    assert isinstance(node, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp)
    target = _utf8_offsets(line, node.generators[0].target.col_offset, 0)[0]
    keyword = line.rfind("for", start, target)  # the first `for` of the comprehension
    names = ", ".join(read)
    one = f"({names},)" if len(read) == 1 else f"(({names}),)"
    return keyword, keyword, f"for {names} in {one} ", ""


def _utf8_offsets(line: str, start: int, end: int) -> tuple[int, int]:
    """ast's offsets count bytes of UTF-8; the line's characters."""
    raw = line.encode("utf-8")
    return len(raw[:start].decode("utf-8")), len(raw[:end].decode("utf-8"))


def _outermost_scopes(tree: ast.AST) -> list[ast.expr]:
    """The comprehensions and lambdas of the op's own scope (not those inside one)."""
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


def _bound(node: ast.AST) -> set[str]:
    """The names bound inside a comprehension or lambda: its variables and its
    parameters (what `:=` names inside binds in the enclosing function)."""
    named = {id(n.target) for n in ast.walk(node) if isinstance(n, ast.NamedExpr)}
    names = {
        n.id
        for n in ast.walk(node)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and id(n) not in named
    }
    names |= {a.arg for n in ast.walk(node) if isinstance(n, ast.Lambda) for a in _args(n)}
    return names


def _args(node: ast.Lambda) -> list[ast.arg]:
    a = node.args
    return [*a.posonlyargs, *a.args, *a.kwonlyargs, *filter(None, (a.vararg, a.kwarg))]


def _loaded(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _celled(node: ast.expr) -> set[str]:
    """The names read inside the comprehension's own function (what would be cells):
    all it reads, but for what its first source reads, worked out outside it."""
    if isinstance(node, ast.Lambda):
        return _loaded(node.body)
    assert isinstance(node, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp)
    first, *more = node.generators
    parts: list[ast.AST] = [first.target, *first.ifs, *more]
    parts += [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
    return set().union(*(_loaded(p) for p in parts))
