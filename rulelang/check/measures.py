"""The `measure` declarations: each is a number (or yes/no) the reports give for every
finished game, read after the end, so it may read anything, hidden or not. One per
player binds `me` to the player measured."""

from __future__ import annotations

from rulelang import errors
from rulelang.check.scope import Ctx
from rulelang.check.types import BOOL, INT, PLAYER, compatible
from rulelang.check.typing import ExprChecker


def check_measures(r: ExprChecker) -> None:
    c = r.c
    for m in c.measures.values():
        scopes = []
        if m.decl.per_player:
            m.me = c.new_local("me", m.span, PLAYER)
            scopes = [{"me": m.me}]
        ctx = Ctx(pause_ok=False, context=f"measure {m.name}", scopes=scopes)
        got = r.expr(m.decl.expr, ctx)
        if got == BOOL:
            m.boolean = True
        elif not compatible(INT, got):
            c.report(errors.measure_not_a_number(m.name, str(got), m.decl.expr.span))
