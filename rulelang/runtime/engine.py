"""The engine API: compile once, then start, query and advance games."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from rulelang.check.symbols import Program
from rulelang.diagnostics import GameRuntimeError, Span
from rulelang.runtime import boards
from rulelang.runtime.codegen import (
    CHANCE,
    OVER,
    PAUSE,
    ChanceSpec,
    ChoiceSpec,
    Code,
    Codegen,
    apply_chance,
    sample,
)
from rulelang.runtime.exprs import ExprCompiler
from rulelang.runtime.state import State
from rulelang.runtime.tiles import TileOps
from rulelang.syntax import ast as A

TERMINAL = -4


class UsageError(Exception):
    """A request the rules cannot serve: wrong player count, unknown option or move."""


@dataclass(frozen=True)
class Action:
    """One legal action: its value and its canonical text form."""

    value: Any
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Refusal:
    """Why an action is not legal: the reason and where the rule file says so."""

    reason: str
    span: Span | None

    def __str__(self) -> str:
        where = f" ({self.span})" if self.span else ""
        return self.reason + where


@dataclass
class Config:
    """What is fixed for one game: players, options, computed values, boards."""

    n: int
    players: tuple[int, ...]
    player_names: tuple[str, ...]
    consts: list[Any]
    boards: dict[str, boards.Board]
    nodes: dict[str, tuple[int, ...]]
    entities: dict[str, tuple[int, ...]]
    seed: int
    options: dict[str, Any]


class Ruleset:
    """A checked rule file compiled once into closures; starts any number of games."""

    def __init__(self, program: Program):
        self.program = program
        self.title = program.title
        self.ec = ExprCompiler(program)
        base = 0
        for z in program.zones:
            self.ec.zone_base[z.name] = base
            base += program.max_players if z.per_player else 1
        self.zone_slots = base
        self.tiled: list[A.BoardDecl] = []
        for v in program.values:
            if isinstance(v.decl, A.BoardDecl) and v.decl.tiles:
                kind = next(k for k in program.kinds if k.name == v.decl.tiles)
                joined = kind.attrs.get("joined")
                self.ec.tile_kinds[v.name] = kind.name
                self.ec.tiles[v.name] = TileOps(v.name, 4 * len(self.tiled),
                                                kind.attrs["edges"].slot,
                                                joined.slot if joined else None)
                self.tiled.append(v.decl)
        self.ec.compile_defs()
        self.values = [(v, self._value_fn(v)) for v in program.values]
        self.defaults = [(a, self.ec.compile(a.default) if a.default is not None else None)
                         for a in program.columns]
        self.global_defaults = [(g, self.ec.compile(g.default) if g.default else None)
                                for g in program.globals]
        self.counts = [(k, self.ec.compile(k.decl.count)) for k in program.kinds
                       if k.decl.count is not None]
        self.gen = Codegen(program, self.ec)
        self.code: Code = self.gen.build()
        self.params = {v.name: v for v in program.values if v.what == "param"}
        self._templates: dict[tuple[Any, ...], State] = {}

    def _value_fn(self, v: Any) -> Any:
        d = v.decl
        ec = self.ec
        if isinstance(d, A.ParamDecl):
            return ec.compile(d.default)
        if isinstance(d, A.ConstDecl):
            return ec.compile(d.value)
        if isinstance(d, A.DieDecl):
            faces = ec.compile(d.faces)
            return lambda st: tuple(faces(st))
        if isinstance(d, A.TableDecl):
            entries = [(lo, hi, ec.compile(e)) for lo, hi, e in d.entries]

            def table(st: Any) -> dict[int, Any]:
                out: dict[int, Any] = {}
                for lo, hi, f in entries:
                    value = f(st)
                    for k in range(lo, hi + 1):
                        out[k] = value
                return out
            return table
        if isinstance(d, A.BoardDecl):
            args = [ec.compile(a) for a in d.args]
            attrs = [(n, ec.compile(e)) for n, e in d.attrs]

            def board(st: Any) -> boards.Board:
                try:
                    b = boards.build(d.name, d.shape, [a(st) for a in args])
                except ValueError as exc:
                    raise GameRuntimeError("R008", str(exc), d.span) from None
                for name, f in attrs:
                    values = tuple(f(st))
                    if len(values) != len(b):
                        raise GameRuntimeError(
                            "R008", f"board attribute '{name}' has {len(values)} values for "
                            f"{len(b)} nodes", d.span)
                    b.attrs[name] = values
                return b
            return board
        raise AssertionError(d)

    # ------------------------------------------------------------------ games
    def new_game(self, players: int, seed: int = 0, options: dict[str, str] | None = None,
                 names: list[str] | None = None, auto_chance: bool = True) -> Game:
        p = self.program
        if p.library:
            raise UsageError(f"'{self.title}' is a library of definitions, not a game")
        if not p.min_players <= players <= p.max_players:
            raise UsageError(f"{self.title} is for {p.min_players} to {p.max_players} players, "
                             f"not {players}")
        opts = self._options(options or {})
        player_names = tuple(names) if names else tuple(f"P{i + 1}" for i in range(players))
        if len(player_names) != players:
            raise UsageError(f"{len(player_names)} names given for {players} players")
        key = (players, tuple(sorted(opts.items())))
        template = self._templates.get(key)
        if template is None:
            template = self._templates[key] = self._template(players, opts)
        st = template.clone(copy_rng=False)
        st.cfg = replace(template.cfg, player_names=player_names, seed=seed)
        st.rng = random.Random(seed)
        st.auto_chance = auto_chance
        game = Game(self, st)
        game.run(self.code.start)
        return game

    def _template(self, players: int, opts: dict[str, Any]) -> State:
        """The state before setup for a player count and options: computed once, cloned."""
        p = self.program
        cfg = Config(players, tuple(range(players)), (), [None] * len(p.values),
                     {}, {}, {}, 0, opts)
        st = State(cfg, random.Random(0))
        st.loc = [None] * p.n_locals  # defs called by fixed values keep arguments here
        for v, f in self.values:
            if v.what == "param" and v.name in opts:
                value: Any = opts[v.name]
            else:
                value = f(st)
            cfg.consts[v.slot] = value
            if v.what == "board":
                cfg.boards[v.name] = value
                cfg.nodes[v.name] = tuple(range(len(value)))
        self._populate(st)
        return st

    def _options(self, given: dict[str, str]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, raw in given.items():
            param = self.params.get(key)
            if param is None:
                known = ", ".join(sorted(self.params)) or "none"
                raise UsageError(f"unknown option '{key}' (options of this game: {known})")
            kind = param.type.name
            if kind == "int":
                try:
                    out[key] = int(raw)
                except ValueError:
                    raise UsageError(f"option '{key}' needs a whole number, not '{raw}'") from None
            elif kind == "bool":
                if raw.lower() not in ("true", "false", "yes", "no"):
                    raise UsageError(f"option '{key}' needs true or false, not '{raw}'")
                out[key] = raw.lower() in ("true", "yes")
            else:
                out[key] = raw
        return out

    def _populate(self, st: State) -> None:
        p, cfg = self.program, st.cfg
        counts: dict[str, int] = {}
        for k, f in self.counts:
            n = f(st)
            if not isinstance(n, int) or n < 0:
                raise GameRuntimeError("R008", f"the count of '{k.name}' is {n}",
                                       k.decl.span)
            counts[k.name] = n
            cfg.entities[k.name] = tuple(range(n))
        for kind, rows in p.data_rows.items():
            counts[kind] = len(rows)
            cfg.entities[kind] = tuple(range(len(rows)))
        st.cols = [[None] * (cfg.n if a.owner == "player" else counts.get(a.owner, 0))
                   for a in p.columns]
        for a, default in self.defaults:
            data = p.data_rows.get(a.owner)
            col = st.cols[a.slot]
            for i in range(len(col)):
                if data is not None and a.name in data[i]:
                    col[i] = data[i][a.name]
                elif default is not None:
                    st.index = i
                    col[i] = default(st)
        st.vars = [f(st) if f else None for _g, f in self.global_defaults]
        st.zones = [[] for _ in range(self.zone_slots)]
        st.layers = []
        for d in self.tiled:
            n = len(cfg.boards[d.name])
            st.layers += [[None] * n, [0] * n, [False] * n, [-1] * counts.get(d.tiles, 0)]
        st.loc = [None] * p.n_locals


class Game:
    """One game in progress. Holds a State; every query and move goes through here."""

    def __init__(self, ruleset: Ruleset, state: State):
        self.rules = ruleset
        self.state = state

    # ---------------------------------------------------------------- running
    def run(self, pc: int) -> None:
        st = self.state
        ops = self.rules.code.ops
        try:
            while pc >= 0:
                pc = ops[pc](st)
        except RecursionError:
            raise GameRuntimeError("R001", "the rules nest too deeply",
                                   self.rules.code.spans[max(pc, 0)]) from None
        if pc == OVER:
            st.over = True
            st.pending = None

    # ---------------------------------------------------------------- queries
    def current_player(self) -> int:
        """The player who must act, CHANCE (-1) for a chance event, TERMINAL when over."""
        st = self.state
        if st.over:
            return TERMINAL
        return int(st.pending[1])

    def is_over(self) -> bool:
        return self.state.over

    def results(self) -> list[str]:
        """'win', 'draw' or 'loss' for every player, once the game is over."""
        return list(self.state.outcome or [])

    def returns(self) -> list[float]:
        score = {"win": 1.0, "draw": 0.5, "loss": 0.0}
        return [score[r] for r in self.results()]

    def prompt(self) -> str:
        pending = self.state.pending
        if pending is None:
            return ""
        spec = pending[0]
        return str(spec.prompt(self.state)) if isinstance(spec, ChoiceSpec) else spec.var

    def legal_actions(self) -> list[Action]:
        st = self.state
        if st.over or st.pending is None:
            return []
        spec, _who, opts = st.pending
        if isinstance(spec, ChanceSpec):
            return [Action(o, t) for o, t in self.chance_outcomes()]
        show = spec.show
        return [Action(v, "pass" if v is None else show(st, v)) for v in opts]

    def chance_outcomes(self) -> list[tuple[Any, str]]:
        """Outcomes of the pending chance event (not listed for shuffles: too many)."""
        st = self.state
        spec = st.pending[0] if st.pending else None
        if not isinstance(spec, ChanceSpec) or spec.kind not in ("roll", "pick"):
            return []
        source = spec.source(st)
        return [(i, spec.show(st, v)) for i, v in enumerate(source)]

    # ---------------------------------------------------------------- moves
    def find(self, text: str) -> Action | None:
        wanted = " ".join(text.split()).lower()
        for a in self.legal_actions():
            if a.text.lower() == wanted:
                return a
        return None

    def apply(self, action: Action | str) -> None:
        if isinstance(action, str):
            found = self.find(action)
            if found is None:
                raise UsageError(f"'{action}' is not a legal move here: {self.why_not(action)}")
            action = found
        st = self.state
        if st.over or st.pending is None:
            raise UsageError("the game is over")
        spec = st.pending[0]
        if isinstance(spec, ChanceSpec):
            self.apply_chance(action.value)
        else:
            self.choose(action.value)

    def choose(self, value: Any) -> None:
        """Resume after a decision with the chosen value (fast path: no text)."""
        st = self.state
        spec, who, _opts = st.pending
        st.loc[spec.slot] = value
        st.log.append(("choose", who, spec.pc, value))
        st.pending = None
        self.run(spec.pc + 1)

    def apply_chance(self, outcome: Any) -> None:
        """Resolve the pending chance event with a chosen outcome (scripted dice)."""
        st = self.state
        spec = st.pending[0]
        if not isinstance(spec, ChanceSpec):
            raise UsageError("the game is not waiting for a chance event")
        size = len(spec.source(st))
        if spec.kind in ("roll", "pick"):
            if not (isinstance(outcome, int) and 0 <= outcome < size):
                raise UsageError(f"chance outcome {outcome!r} is not one of 0..{size - 1}")
        elif sorted(outcome) != list(range(size)):
            raise UsageError(f"a shuffle outcome must be an order of 0..{size - 1}")
        st.pending = None
        apply_chance(st, spec, outcome)
        self.run(spec.pc + 1)

    def resolve_chance(self) -> None:
        """Resolve the pending chance event from the game's seeded generator."""
        st = self.state
        spec = st.pending[0]
        outcome = sample(st, spec)
        st.pending = None
        apply_chance(st, spec, outcome)
        self.run(spec.pc + 1)

    def why_not(self, text: str) -> Refusal:
        """Why `text` is not a legal action now: the failed require, or what is allowed."""
        st = self.state
        if st.over:
            return Refusal("the game is over", None)
        spec, _who, _opts = st.pending
        if isinstance(spec, ChanceSpec):
            return Refusal("the game waits for a chance event, not a move", spec.span)
        wanted = " ".join(text.split()).lower()
        if self.find(text) is not None:
            return Refusal("it is legal", None)
        saved = st.loc[spec.slot]
        try:
            for v in spec.domain(st):
                if spec.show(st, v).lower() != wanted:
                    continue
                st.loc[spec.slot] = v
                for cond, reason, span in spec.requires:
                    if not cond(st):
                        return Refusal(str(reason(st)), span)
        finally:
            st.loc[spec.slot] = saved
        shown = ", ".join(a.text for a in self.legal_actions()[:12])
        return Refusal(f"'{text}' is not an option for '{spec.var}'; "
                       f"the options are: {shown}", spec.span)

    # ---------------------------------------------------------------- copies
    def playout(self, rng: Any, max_decisions: int = 1_000_000) -> int:
        """Play to the end with uniformly random decisions; return how many were taken.

        The fast path for simulations: no Action objects and no texts.
        """
        st = self.state
        ops = self.rules.code.ops
        random = rng.random
        log = st.log
        taken = 0
        while not st.over:
            spec, who, opts = st.pending
            if who == CHANCE:
                self.resolve_chance()
                continue
            value = opts[int(random() * len(opts))]
            st.loc[spec.slot] = value
            log.append(("choose", who, spec.pc, value))
            st.pending = None
            pc = spec.pc + 1
            while pc >= 0:
                pc = ops[pc](st)
            if pc == OVER:
                st.over = True
            taken += 1
            if taken >= max_decisions:
                break
        return taken

    def clone(self) -> Game:
        return Game(self.rules, self.state.clone())

    def view(self, player: int | None) -> dict[str, Any]:
        from rulelang.runtime.views import view

        return view(self, player)


def replay(ruleset: Ruleset, players: int, seed: int, log: list[tuple[Any, ...]],
           options: dict[str, str] | None = None, names: list[str] | None = None) -> Game:
    """Rebuild a game from its event log: every decision and chance outcome, in order."""
    game = ruleset.new_game(players, seed, options, names, auto_chance=False)
    sizes = {"chance": 3, "choose": 4}
    for number, event in enumerate(log, 1):
        kind = event[0]
        if kind in sizes and len(event) != sizes[kind]:
            raise UsageError(f"event {number} of the log is damaged")
        if kind == "chance":
            game.apply_chance(event[2])
        elif kind == "choose":
            st = game.state
            if st.pending is None or st.pending[0].pc != event[2]:
                raise UsageError("the log does not fit this rule file")
            if event[3] not in st.pending[2]:
                raise UsageError(f"the log chooses {event[3]!r}, which is not an option")
            game.choose(event[3])
    return game


__all__ = ["Action", "Game", "Refusal", "Ruleset", "UsageError", "replay", "CHANCE",
           "TERMINAL", "PAUSE"]
