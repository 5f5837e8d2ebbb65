"""Pass 0: nesting within limits. Runs before the other passes (which recurse over the
tree) and stops the check when a rule nests past MAX_NESTING levels."""

from __future__ import annotations

from rulelang import errors
from rulelang.check.context import Checker
from rulelang.syntax import ast as A
from rulelang.syntax.limits import MAX_NESTING


def run(c: Checker) -> None:
    """Report the first node of each declaration that nests too deeply."""
    for decl in c.decls:
        node = _too_deep(decl)
        if node is not None:
            c.report(errors.nests_too_deeply(MAX_NESTING, node.span))


def _too_deep(root: object) -> A.Expr | A.Stmt | None:
    stack: list[tuple[object, int]] = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, tuple | list):
            stack.extend((x, depth) for x in node)
            continue
        if not hasattr(node, "__dataclass_fields__"):
            continue
        if isinstance(node, A.Expr | A.Stmt):
            depth += 1
            if depth > MAX_NESTING:
                return node
        stack.extend((getattr(node, f), depth) for f in node.__dataclass_fields__)
    return None
