"""The hashed features of a seat's view (`common.encode`) read from the game's state,
without building the view.

`features.counts(view(seat, only=PARTS))` is the definition; this module gives the
same sums for the parts whose shape is simple: the header, the globals, the players,
the pieces, the boards' int, bool and text state, the decision and the results. Each
value is looked up at its path's node of the kept tree (features.py), the nodes found
once per ruleset; a value of another type goes through `plain` as the view shows it.
What the view works out with more care (zones, tiles, private messages, edge
attributes) is taken from `view(seat, only=...)` itself and walked. Visibility is the
view's: `views.may_see` on the same declarations. tests/test_interop_direct.py holds
the sums to the view's at every position of games of every shipped ruleset.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from rulelang.interop.features import Features, features_for
from rulelang.runtime.code import ChoiceSpec
from rulelang.runtime.values import plain
from rulelang.runtime.views import AS_IS, may_see, view

if TYPE_CHECKING:
    from rulelang.check.symbols import BoardAttrSym
    from rulelang.interop.features import _Path
    from rulelang.runtime.engine import Game
    from rulelang.runtime.ruleset import Ruleset

_SKIPPED = "viewer"  # a dict key the encoding leaves out, at any depth


class _Plan:
    """What a ruleset's views show, as nodes of one width's tree of paths."""

    def __init__(self, rules: Ruleset, feats: Features, root: _Path) -> None:
        p, plan = rules.program, rules.view_plan
        self.feats, self.root = feats, root
        key = self._key
        self.header = {name: key(root, name) for name in ("title", "turn", "round", "phase")}
        self.current, self.reacting = key(root, "current"), key(root, "reacting")
        self.to_act, self.prompt = key(root, "to_act"), key(root, "prompt")
        self.options = key(root, "options")
        self.results = key(root, "results")
        node = key(root, "globals")
        # per viewer: a seat sees the globals visible to all, the referee (None) all
        self.globals = {
            seat: [(g, key(node, g.name)) for g in p.globals if may_see(g.visibility, seat, None)]
            for seat in (0, None)
        }
        self.players = key(root, "players")
        self.player_rows: list[tuple[_Path, _Path, _Path]] = []
        self.player_attrs = [a for a in p.player_attrs if a.name != _SKIPPED]
        # per players' names: the counts of their rows' names and seats
        self.named: dict[tuple[str, ...], tuple[list[int], list[int], list[float]]] = {}
        self.pieces = [
            (key(key(root, "pieces"), k.name), [(a, a.name) for a in k.attrs.values()], k.name)
            for k in p.kinds
            if k.decl.category == "piece"
        ]
        # per column: its node, and the board's names with the nodes of their values
        # (made when first met: the names are the table's)
        self.board_state: list[tuple[BoardAttrSym, _Path, list[Any]]] = [
            (a, key(key(key(root, "board_state"), a.board), a.name), [None, []])
            for a in plan.board_attrs
        ]
        self.viewed = _viewed(rules)
        self.viewed_nodes = {part: key(root, part) for part in (*self.viewed, "private")}

    def _key(self, node: _Path, name: str) -> _Path:
        return self.feats.child(node, name)

    def player_row(self, seat: int) -> tuple[_Path, _Path, _Path]:
        rows = self.player_rows
        while len(rows) <= seat:
            row = self.feats.child(self.players, len(rows), by_key=False)
            rows.append((row, self.feats.child(row, "name"), self.feats.child(row, "seat")))
        return rows[seat]


def _viewed(rules: Ruleset) -> tuple[str, ...]:
    """The parts of the ruleset's views taken from the view itself."""
    plan = rules.view_plan
    parts = [("zones", plan.zones), ("zone_tiles", plan.tile_zones), ("boards", rules.ex.tiles)]
    viewed = tuple(part for part, used in parts if used)
    if any(a.edge or a.type.name not in AS_IS for a in plan.board_attrs):
        viewed += ("board_state",)
    return viewed


_PLANS: dict[int, tuple[Ruleset, _Plan]] = {}
_LAST: list[Any] = [None, None, 0]  # the last plan asked for: ruleset, plan, width


def _plan(rules: Ruleset, width: int) -> _Plan:
    last = _LAST
    if last[0] is rules and last[2] == width and last[1].root is last[1].feats.fresh():
        return last[1]  # type: ignore[no-any-return]
    feats = features_for(width)
    root = feats.fresh()
    hit = _PLANS.get(id(rules) * 1_000_003 + width)
    if hit is not None and hit[0] is rules and hit[1].root is root:
        _LAST[:] = [rules, hit[1], width]
        return hit[1]
    if len(_PLANS) > 64:
        _PLANS.clear()
    plan = _Plan(rules, feats, root)
    _PLANS[id(rules) * 1_000_003 + width] = (rules, plan)
    _LAST[:] = [rules, plan, width]
    return plan


def counts(game: Game, seat: int, width: int) -> npt.NDArray[np.float64]:
    """The summed features of `view(seat, only=PARTS)`, one number per slot."""
    plan = _plan(game.rules, width)
    feats, st = plan.feats, game.state
    put = feats.put
    ones: list[int] = []
    slots: list[int] = []
    adds: list[float] = []
    names = st.cfg.player_names
    header = plan.header
    put(header["title"], game.rules.program.title, ones, slots, adds)
    put(header["turn"], st.turn, ones, slots, adds)
    put(header["round"], game.round_number, ones, slots, adds)
    put(header["phase"], game.phase, ones, slots, adds)
    put(plan.current, names[st.current], ones, slots, adds)
    if st.reactor >= 0 and not st.over:
        put(plan.reacting, names[st.reactor], ones, slots, adds)
    _globals(game, plan, seat, ones, slots, adds)
    _players(game, plan, seat, ones, slots, adds)
    if plan.pieces:
        _pieces(game, plan, seat, ones, slots, adds)
    if plan.board_state and "board_state" not in plan.viewed:
        _boards(game, plan, seat, ones, slots, adds)
    viewed = plan.viewed if st.private is None else (*plan.viewed, "private")
    if viewed:
        seen: Any = view(game, seat, only=viewed)
        for part in viewed:
            put(plan.viewed_nodes[part], seen[part], ones, slots, adds)
    _decision(game, plan, seat, ones, slots, adds)
    if st.over:
        put(plan.results, dict(zip(names, st.outcome or [], strict=False)), ones, slots, adds)
    return feats.summed(ones, slots, adds)


def _globals(
    game: Game, plan: _Plan, seat: int, ones: list[int], slots: list[int], adds: list[float]
) -> None:
    values, put = game.state.vars, plan.feats.put
    for g, node in plan.globals[0 if seat is not None else None]:
        if g.name == _SKIPPED:
            continue
        value = values[g.slot]
        put(node, value if g.type.name in AS_IS else plain(game, g.type, value), ones, slots, adds)


def _players(
    game: Game, plan: _Plan, seat: int, ones: list[int], slots: list[int], adds: list[float]
) -> None:
    st, put = game.state, plan.feats.put
    names = st.cfg.player_names
    # each row's name and seat are the table's: counted once per names
    fixed = plan.named.get(names)
    if fixed is None:
        if len(plan.named) > 64:  # bounded: a run with ever new names
            plan.named.clear()
        fixed = plan.named[names] = ([], [], [])
        for i in range(st.cfg.n):
            _row, name, number = plan.player_row(i)
            put(name, names[i], *fixed)
            put(number, i, *fixed)
    ones += fixed[0]
    slots += fixed[1]
    adds += fixed[2]
    attrs = plan.player_attrs
    if not attrs:
        return
    for i in range(st.cfg.n):
        row = plan.player_row(i)[0]
        for a in attrs:
            if may_see(a.visibility, seat, i):
                value = st.cols[a.slot][i]
                if a.type.name not in AS_IS:
                    value = plain(game, a.type, value)
                put(plan.feats.child(row, a.name), value, ones, slots, adds)


def _pieces(
    game: Game, plan: _Plan, seat: int, ones: list[int], slots: list[int], adds: list[float]
) -> None:
    st, feats = game.state, plan.feats
    for node, attrs, kind in plan.pieces:
        shown = [a for a, name in attrs if name != _SKIPPED and may_see(a.visibility, seat, None)]
        if not shown:
            continue
        for j, i in enumerate(st.cfg.entities.get(kind, ())):
            row = feats.child(node, j, by_key=False)
            for a in shown:
                value = st.cols[a.slot][i]
                if a.type.name not in AS_IS:
                    value = plain(game, a.type, value)
                feats.put(feats.child(row, a.name), value, ones, slots, adds)


def _boards(
    game: Game, plan: _Plan, seat: int, ones: list[int], slots: list[int], adds: list[float]
) -> None:
    """The boards' state columns of int, bool or text, each node's value at its path."""
    st, feats = game.state, plan.feats
    put = feats.put
    for a, column, kept in plan.board_state:
        if not may_see(a.visibility, seat, None):
            continue
        names = st.cfg.boards[a.board].names
        if kept[0] is not names and kept[0] != names:  # another table's board
            kept[0] = names
            kept[1] = [None if n == _SKIPPED else feats.child(column, n) for n in names]
        for node, value in zip(kept[1], st.cols[a.slot], strict=True):
            # put(), inline for the commonest case: a value met before at that node
            known = None if node is None else node.values.get(value)
            if known is None or known[0] is not type(value) or known[2] >= 0:
                if node is not None:
                    put(node, value, ones, slots, adds)
            else:
                ones.append(known[1])


def _decision(
    game: Game, plan: _Plan, seat: int, ones: list[int], slots: list[int], adds: list[float]
) -> None:
    st = game.state
    spec = st.pending
    if spec is None or st.over or not isinstance(spec, ChoiceSpec):
        return
    feats = plan.feats
    feats.put(plan.to_act, st.cfg.player_names[st.who], ones, slots, adds)
    if seat != st.who:
        return
    feats.put(plan.prompt, spec.prompt(st), ones, slots, adds)
    for index, action in enumerate(game.legal_actions()):
        feats.put(feats.child(plan.options, index, by_key=False), action.text, ones, slots, adds)
