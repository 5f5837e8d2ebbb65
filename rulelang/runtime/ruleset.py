"""A checked rule file compiled once into generated Python: the values fixed for a
table (params, consts, tables, dice, boards), the template state of each table, and
`new_game`."""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rulelang import errors
from rulelang.check.layout import SIDES
from rulelang.check.symbols import AttrSym, BoardAttrSym, Program, ValueSym, imagine_proc
from rulelang.check.types import T
from rulelang.diagnostics import UsageError
from rulelang.limits import DEFAULT_LIMITS, Limits
from rulelang.runtime import board_build, boards, inlined, late
from rulelang.runtime.bots import Bot, Estimate
from rulelang.runtime.code import Code, Value
from rulelang.runtime.codegen import Codegen
from rulelang.runtime.engine import Game
from rulelang.runtime.exprgen import MEMO_UNSET, ExprGen
from rulelang.runtime.measures import Measure, end_reasons
from rulelang.runtime.state import Config, State
from rulelang.runtime.views import ViewPlan
from rulelang.syntax import ast as A
from rulelang.words import player_range


class Ruleset:
    """A checked rule file compiled once into generated Python; starts any number of
    games. Its `limits` are written into the generated code."""

    def __init__(self, program: Program, limits: Limits = DEFAULT_LIMITS):
        assert program.layout is not None
        self.program = program
        self.limits = limits
        self.layout = program.layout
        self.title = program.title
        self.is_library = program.library
        self.min_players = program.min_players
        self.max_players = program.max_players
        gen = Codegen(program, self.layout, limits)
        self.code: Code = gen.build()
        self.ex: ExprGen = gen.ex
        # its games' class: Game, with an `apply` of its own once resumes settle
        # (runtime/inlined.py), compiled again as each does
        # (named as Game is, so that its games print as Game's: `help()`, reprs)
        shown = {"__doc__": Game.__doc__, "__module__": Game.__module__}
        self.game_class: type[Game] = type("Game", (Game,), shown)
        self.code.on_settled = functools.partial(inlined.rebuild, self)
        inlined.rebuild(self)  # (resumes compiled at once, without LAZY)
        self.params = {v.name: v for v in program.values if v.what == "param"}
        # the shape of the game's data, for tools that show it (the CLI draws boards
        # with it): each piece and card kind's attributes, and the globals, with the
        # type of each as the rule file writes it (e.g. "node(town)")
        self.kinds: dict[str, dict[str, str]] = {
            k.name: {a.name: str(a.type) for a in k.attrs.values()} for k in program.kinds
        }
        self.pieces = [k.name for k in program.kinds if k.decl.category == "piece"]
        self.globals: dict[str, str] = {g.name: str(g.type) for g in program.globals}
        self._values = [(v, self._value_fn(v)) for v in program.values]
        self._defaults = [(a, ex_lambda(self.ex, a.default, a.type)) for a in program.columns]
        self._global_defaults = [
            (g, ex_lambda(self.ex, g.default, g.type)) for g in program.globals
        ]
        self._counts = [
            (k, self.ex.lambda_of(k.decl.count)) for k in program.kinds if k.decl.count is not None
        ]
        self._templates: dict[object, State] = {}
        # texts of values are fixed for a game when no rule changes a `name` attribute
        # (late.names_fixed): then the actions of a decision are built once and kept
        self._fixed_names = gen.names_fixed
        self._changing = late.changed_columns(program)
        for ops in self.ex.tiles.values():  # tiles' masks kept by tile (TileOps.masks_of)
            ops.fixed_edges = ops.edges_col not in self._changing
        self.view_plan = ViewPlan(self)
        # the declared bots, in the order written (see runtime/bots.py)
        self.bots: dict[str, Bot] = {b.name: Bot(b, self.ex, limits.steps) for b in program.bots}
        # how search bots score a playout they stop (`estimate`), if the rules say
        est = program.estimate
        self.estimate = None if est is None else Estimate(est, self.ex, limits.steps)
        # what the reports read of a finished game: why it ended, and the rules' measures
        self.end_reasons = end_reasons(program)
        self.measures = {m.name: Measure(m, self.ex, limits.steps) for m in program.measures}
        # how a player pictures what it cannot see (`imagine`), if the rules say: see
        # runtime/imagine.py; what a determinization forgets before it runs the block
        imagine = imagine_proc(program.procs)
        self.imagines = imagine is not None
        self.imagine_me = imagine.params[0].slot if imagine is not None else -1
        columns = self.layout.columns
        self.imagine_forgets = Forgets(
            tuple(a.slot for a in columns if a.visibility == "none"),
            tuple(a.slot for a in self.layout.globals if a.visibility == "none"),
            tuple(a.slot for a in columns if a.visibility == "owner"),
            tuple(a.slot for a in columns if a.visibility == "others"),
        )

    def _value_fn(self, v: ValueSym) -> Callable[[State], Value]:
        d = v.decl
        ex = self.ex
        match d:
            case A.ParamDecl():
                return ex.lambda_of(d.default)
            case A.ConstDecl():
                return ex.lambda_of(d.value)
            case A.DieDecl():
                faces = ex.lambda_of(d.faces)
                return lambda st: tuple(faces(st))
            case A.TableDecl():
                entries = [(lo, hi, ex.lambda_of(e)) for lo, hi, e in d.entries]
                limit = self.limits.items
                if sum(hi - lo + 1 for lo, hi, _e in entries) > limit:
                    span = d.span

                    def too_big(st: State) -> Value:
                        raise errors.table_too_large(d.name, limit, span)

                    return too_big
                return lambda st: {k: f(st) for lo, hi, f in entries for k in range(lo, hi + 1)}
            case A.BoardDecl():
                return self._board_fn(d)
        raise AssertionError(d)

    def _board_fn(self, d: A.BoardDecl) -> Callable[[State], Value]:
        args = [self.ex.lambda_of(a) for a in d.args]
        attrs = [(n, self.ex.lambda_of(e)) for n, e in d.attrs]
        limit = self.limits.items

        def board(st: State) -> boards.Board:
            try:
                b = board_build.build(d.name, d.shape, [a(st) for a in args], limit)
            except ValueError as exc:
                too_many = isinstance(exc, boards.TooLarge)
                raise errors.board_not_built(str(exc), d.span, too_many) from None
            for name, f in attrs:
                values = tuple(f(st))
                if len(values) != len(b):
                    raise errors.board_attribute_length(name, len(values), len(b), d.span)
                b.attrs[name] = values
            return b

        return board

    # ------------------------------------------------------------------ games
    def new_game(
        self,
        players: int,
        seed: int = 0,
        options: dict[str, str] | None = None,
        names: Sequence[str] | None = None,
        auto_chance: bool = True,
        quiet: bool = False,
    ) -> Game:
        """Start a game. With auto_chance=False every chance event (deals, shuffles,
        rolls) waits for `Game.apply_chance`, so a test can script them by value. With
        quiet=True the game is quiet from its setup on (`Game.quiet`): no message, no
        log, the same game."""
        p = self.program
        if p.library:
            raise UsageError(f"'{self.title}' is a library of definitions, not a game")
        if (
            isinstance(players, bool)
            or not isinstance(players, int)
            or not p.min_players <= players <= p.max_players
        ):
            raise UsageError(
                f"{self.title} is for {player_range(p.min_players, p.max_players)}, not {players}"
            )
        opts = self._options(options) if options else {}
        key = (players, tuple(sorted(opts.items()))) if opts else players
        template = self._templates.get(key)
        if template is None:
            template = self._templates[key] = self._template(players, opts)
        if names:
            player_names = tuple(str(n) for n in names)
            if len(player_names) != players:
                raise UsageError(f"{len(player_names)} names given for {players} players")
        else:
            player_names = template.cfg.player_names  # P1, P2, ...
        st = template.clone()
        st.cfg = template.cfg.for_game(player_names, seed)
        st.rng = random.Random(seed)
        st.rng_shared = False
        st.auto_chance = auto_chance
        st.quiet = st.mute = st.hushed = bool(quiet)
        game = self.game_class(self, st)
        game._run(0)
        return game

    def _template(self, players: int, opts: dict[str, Value]) -> State:
        """The state before setup for a player count and options: computed once, cloned."""
        p = self.program
        cfg = Config(
            players,
            tuple(range(players)),
            tuple(f"P{i + 1}" for i in range(players)),
            [None] * len(p.values),
            {},
            {},
            {},
            0,
            opts,
            [MEMO_UNSET] * len(self.ex.memo_slots),
            changing=self._changing,
            named_sites=tuple(self.ex.named_sites),
        )
        cfg.named = cfg.named_for(cfg.player_names)
        st = State(cfg, random.Random(0))
        st.loc = [None] * self.layout.n_locals
        for v, f in self._values:
            value = opts[v.name] if v.what == "param" and v.name in opts else f(st)
            cfg.consts[v.slot] = value
            if v.what == "board":
                cfg.boards[v.name] = value
                if value.bounded:  # (`nodes` of a grid without bounds is E257)
                    cfg.nodes[v.name] = tuple(range(len(value)))
        self._populate(st)
        cfg.blank = st  # never changed: games are clones of it (imagine.py reads it)
        return st

    def table_for(self, players: int, options: dict[str, str] | None = None) -> TableFacts:
        """What is fixed before setup runs at a table of `players` with these options
        (-o name=value): every declared value by name (params, consts, tables, dice,
        boards), and each kind's pieces or cards with their attributes' starting
        values. For tools that describe a game without playing it (the rulebook).
        Raise UsageError for an unknown option, a RuleError of R codes if a value
        cannot be computed."""
        opts = self._options(options) if options else {}
        st = self._template(players, opts)
        values = {v.name: st.cfg.consts[v.slot] for v in self.program.values}
        items: dict[str, list[dict[str, Value]]] = {}
        for k in self.program.kinds:
            n = len(st.cfg.entities.get(k.name, ()))
            items[k.name] = [{a: st.cols[s.slot][i] for a, s in k.attrs.items()} for i in range(n)]
        return TableFacts(values, items)

    def _options(self, given: dict[str, str]) -> dict[str, Value]:
        out: dict[str, Value] = {}
        for key, raw in given.items():
            param = self.params.get(key)
            if param is None:
                known = ", ".join(sorted(self.params)) or "none"
                raise UsageError(f"unknown option '{key}' (options of this game: {known})")
            kind = param.type.name
            if kind == "int":
                out[key] = _whole(key, raw)
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
        for k, f in self._counts:
            n = f(st)
            if not isinstance(n, int) or n < 0:
                raise errors.bad_kind_count(k.name, n, k.decl.span)
            if n > self.limits.items:
                raise errors.kind_too_large(n, k.name, self.limits.items, k.decl.span)
            counts[k.name] = n
            cfg.entities[k.name] = tuple(range(n))
        for kind, rows in p.data_rows.items():
            counts[kind] = len(rows)
            cfg.entities[kind] = tuple(range(len(rows)))
        st.cols = [[None] * _items(a, cfg, counts) for a in p.columns]
        for a, default in self._defaults:
            data = p.data_rows.get(a.owner)
            col = st.cols[a.slot]
            for i in range(len(col)):
                if data is not None and a.name in data[i]:
                    col[i] = data[i][a.name]
                elif default is not None:
                    st.index = i
                    col[i] = default(st)
        self._check_tiles(st)
        st.vars = [f(st) if f else None for _g, f in self._global_defaults]
        st.zones = [()] * self.layout.zone_slots
        st.layers = [{} for _ in range(self.layout.n_layers)]
        st.loc = [None] * self.layout.n_locals

    def _check_tiles(self, st: State) -> None:
        """Tiles whose edges a default computes have a value per side (R026); a data
        file's were checked before (E124)."""
        for layer in self.layout.tiles.values():
            for edges in st.cols[layer.edges_col]:
                if edges is None or len(edges) != SIDES:  # none: no default given
                    span = next(k.decl.span for k in self.program.kinds if k.name == layer.kind)
                    raise errors.tile_sides(layer.kind, SIDES, len(edges or ()), span)


@dataclass(frozen=True, slots=True)
class TableFacts:
    """What `Ruleset.table_for` gives: the declared values, and each kind's items."""

    values: dict[str, Value]
    items: dict[str, list[dict[str, Value]]]


@dataclass(frozen=True, slots=True)
class Forgets:
    """The columns and globals a determinization forgets before `imagine` runs."""

    hidden_cols: tuple[int, ...]  # attributes `visible to none` (players, kinds, boards)
    hidden_vars: tuple[int, ...]  # globals `visible to none`
    owner_cols: tuple[int, ...]  # player attributes `visible to owner` (the others')
    others_cols: tuple[int, ...] = ()  # player attributes `visible to others` (its own)


# a number option as a number is written in a rule file: ASCII digits, at most 18
# (E005); int() alone also took `1_000`, other scripts' digits and any length
_WHOLE = re.compile(r"[+-]?([0-9]+)")


def _whole(key: str, raw: object) -> int:
    text = str(raw).strip()
    whole = _WHOLE.fullmatch(text)
    if whole is None:
        raise UsageError(f"option '{key}' needs a whole number, not '{raw}'")
    if len(whole.group(1)) > 18:
        raise UsageError(f"option '{key}' needs a number of at most 18 digits, not '{raw}'")
    return int(text)


def _items(a: AttrSym, cfg: Config, counts: dict[str, int]) -> int:
    """How many items a column holds: one per player, per piece or card of its kind,
    per node of a board (state), or per side number of a grid board (edge: 4 a cell)."""
    if isinstance(a, BoardAttrSym):
        return len(cfg.boards[a.board]) * (4 if a.edge else 1)
    return cfg.n if a.owner == "player" else counts.get(a.owner, 0)


def ex_lambda(ex: ExprGen, e: A.Expr | None, want: T) -> Callable[[State], Value] | None:
    return ex.lambda_of(e, want) if e is not None else None
