"""The engine API: compile once, then start, query and advance games.

`Ruleset` is a checked rule file compiled once; `Game` is one game in progress, and the
whole contract a caller needs (a test, a bot, the CLI, another engine checked against
this one): who acts, the pending decision and its options, moves, chance outcomes,
views derived from the visibility declarations, clones, results and the history.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from rulelang.check.symbols import AttrSym, Program, ValueSym
from rulelang.check.types import T
from rulelang.diagnostics import GameRuntimeError, Span, UsageError
from rulelang.runtime import boards, helpers
from rulelang.runtime.code import (
    CHANCE,
    OVER,
    PAUSE,
    TERMINAL,
    ChanceSpec,
    ChoiceSpec,
    Chose,
    Code,
    Drew,
    Event,
    Ranked,
    Said,
    Value,
    run,
    too_deep,
)
from rulelang.runtime.codegen import Codegen
from rulelang.runtime.edit import Editor
from rulelang.runtime.exprgen import MEMO_UNSET, ExprGen
from rulelang.runtime.state import Config, State, events_of
from rulelang.runtime.values import plain
from rulelang.runtime.views import ViewPlan, log_lines, record, replay_into, tile_cell, view
from rulelang.syntax import ast as A

_new = tuple.__new__
PUBLIC = -1  # a viewer who is none of the players: sees only what all may see


class Action(NamedTuple):
    """One legal action: its value and its canonical text."""

    value: Value
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action is not legal: the reason and where the rule file says so."""

    reason: str
    span: Span | None

    def __str__(self) -> str:
        where = f" ({self.span})" if self.span else ""
        return self.reason + where


@dataclass(frozen=True, slots=True)
class Decision:
    """What the game waits for: a player's choice, or a chance event.

    `name` is the variable the rule file chooses (`choose card in ...` gives "card"),
    or the die, list or zone of a chance event. For a roll or pick, `options` lists the
    possible outcomes; a shuffle lists none (there are too many orders).
    """

    kind: str  # "choice", "roll", "pick", "shuffle" or "shuffle_zone"
    name: str
    player: int  # the seat that decides, or CHANCE
    prompt: str
    options: tuple[Action, ...]
    secret: bool = False  # other players do not see what is chosen
    span: Span | None = None


class Ruleset:
    """A checked rule file compiled once into generated Python; starts any number of
    games."""

    def __init__(self, program: Program):
        assert program.layout is not None
        self.program = program
        self.layout = program.layout
        self.title = program.title
        self.is_library = program.library
        self.min_players = program.min_players
        self.max_players = program.max_players
        gen = Codegen(program, self.layout)
        self.code: Code = gen.build()
        self.ex: ExprGen = gen.ex
        self.params = {v.name: v for v in program.values if v.what == "param"}
        self._values = [(v, self._value_fn(v)) for v in program.values]
        self._defaults = [(a, ex_lambda(self.ex, a.default)) for a in program.columns]
        self._global_defaults = [(g, ex_lambda(self.ex, g.default)) for g in program.globals]
        self._counts = [
            (k, self.ex.lambda_of(k.decl.count)) for k in program.kinds if k.decl.count is not None
        ]
        self._templates: dict[object, State] = {}
        assigned = _assigned(program)
        # texts of values are fixed for a game when no rule changes a `name` attribute:
        # then the actions of a decision are built once per game and kept
        self._fixed_names = not any(a.name == "name" for a in assigned)
        self._changing = tuple(a.slot for a in program.columns if a in assigned)
        self.view_plan = ViewPlan(self)

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
                return lambda st: {k: f(st) for lo, hi, f in entries for k in range(lo, hi + 1)}
            case A.BoardDecl():
                return self._board_fn(d)
        raise AssertionError(d)

    def _board_fn(self, d: A.BoardDecl) -> Callable[[State], Value]:
        args = [self.ex.lambda_of(a) for a in d.args]
        attrs = [(n, self.ex.lambda_of(e)) for n, e in d.attrs]

        def board(st: State) -> boards.Board:
            try:
                b = boards.build(d.name, d.shape, [a(st) for a in args])
            except ValueError as exc:
                raise GameRuntimeError("R008", str(exc), d.span) from None
            for name, f in attrs:
                values = tuple(f(st))
                if len(values) != len(b):
                    raise GameRuntimeError(
                        "R008",
                        f"board attribute '{name}' has {len(values)} values for {len(b)} nodes",
                        d.span,
                    )
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
    ) -> Game:
        """Start a game. With auto_chance=False every chance event (deals, shuffles,
        rolls) waits for `Game.apply_chance`, so a test can script them by value."""
        p = self.program
        if p.library:
            raise UsageError(f"'{self.title}' is a library of definitions, not a game")
        if (
            isinstance(players, bool)
            or not isinstance(players, int)
            or not p.min_players <= players <= p.max_players
        ):
            raise UsageError(
                f"{self.title} is for {p.min_players} to {p.max_players} players, not {players}"
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
        game = Game(self, st)
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
        )
        st = State(cfg, random.Random(0))
        st.loc = [None] * self.layout.n_locals
        for v, f in self._values:
            value = opts[v.name] if v.what == "param" and v.name in opts else f(st)
            cfg.consts[v.slot] = value
            if v.what == "board":
                cfg.boards[v.name] = value
                cfg.nodes[v.name] = tuple(range(len(value)))
        self._populate(st)
        return st

    def _options(self, given: dict[str, str]) -> dict[str, Value]:
        out: dict[str, Value] = {}
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
        for k, f in self._counts:
            n = f(st)
            if not isinstance(n, int) or n < 0:
                raise GameRuntimeError("R008", f"the count of '{k.name}' is {n}", k.decl.span)
            counts[k.name] = n
            cfg.entities[k.name] = tuple(range(n))
        for kind, rows in p.data_rows.items():
            counts[kind] = len(rows)
            cfg.entities[kind] = tuple(range(len(rows)))
        st.cols = [
            [None] * (cfg.n if a.owner == "player" else counts.get(a.owner, 0)) for a in p.columns
        ]
        for a, default in self._defaults:
            data = p.data_rows.get(a.owner)
            col = st.cols[a.slot]
            for i in range(len(col)):
                if data is not None and a.name in data[i]:
                    col[i] = data[i][a.name]
                elif default is not None:
                    st.index = i
                    col[i] = default(st)
        st.vars = [f(st) if f else None for _g, f in self._global_defaults]
        st.zones = [()] * self.layout.zone_slots
        st.layers = [{} for _ in range(self.layout.n_layers)]
        st.loc = [None] * self.layout.n_locals


def ex_lambda(ex: ExprGen, e: A.Expr | None) -> Callable[[State], Value] | None:
    return ex.lambda_of(e) if e is not None else None


def _assigned(program: Program) -> set[AttrSym]:
    """The attributes some `set` statement changes."""
    assigned: set[AttrSym] = set()
    stack: list[object] = list(program.decls)
    while stack:
        node = stack.pop()
        if isinstance(node, tuple | list):
            stack.extend(node)
        elif isinstance(node, A.Set):
            sym = program.refs.get(id(node.target))
            if isinstance(sym, AttrSym):
                assigned.add(sym)
        elif hasattr(node, "__dataclass_fields__") and not isinstance(node, A.Expr):
            stack.extend(getattr(node, f) for f in node.__dataclass_fields__)
    return assigned


class Game:
    """One game in progress: every query and move goes through here."""

    def __init__(self, ruleset: Ruleset, state: State):
        self.rules = ruleset
        self.state = state
        self._keep = ruleset._fixed_names  # legal actions may be kept (see legal_actions)

    # ---------------------------------------------------------------- running
    def _run(self, pc: int) -> None:
        run(self.rules.code, self.state, pc)

    # ---------------------------------------------------------------- the table
    @property
    def players(self) -> int:
        return self.state.cfg.n

    @property
    def player_names(self) -> tuple[str, ...]:
        return self.state.cfg.player_names

    @property
    def seed(self) -> int:
        return self.state.cfg.seed

    @property
    def options(self) -> dict[str, Value]:
        return dict(self.state.cfg.options)

    @property
    def turn_number(self) -> int:
        return self.state.turn

    @property
    def round_number(self) -> int:
        return (max(self.state.turn, 1) - 1) // self.state.cfg.n + 1

    @property
    def phase(self) -> str:
        phases = self.rules.program.phases
        return phases[self.state.phase].name if phases else ""

    @property
    def auto_chance(self) -> bool:
        """False: chance events wait for `apply_chance` (scripted dice, replays)."""
        return self.state.auto_chance

    @auto_chance.setter
    def auto_chance(self, value: bool) -> None:
        self.state.auto_chance = bool(value)

    @property
    def turn_player(self) -> int:
        """The seat whose turn it is (another player may be deciding: see `current_player`)."""
        return self.state.current

    # ---------------------------------------------------------------- queries
    def current_player(self) -> int:
        """The seat that must act, CHANCE (-1) for a chance event, TERMINAL (-4) at the end."""
        st = self.state
        return TERMINAL if st.over else st.who

    def is_over(self) -> bool:
        return self.state.over

    def is_chance_node(self) -> bool:
        return not self.state.over and isinstance(self.state.pending, ChanceSpec)

    def results(self) -> list[str]:
        """'win', 'draw' or 'loss' for every player, once the game is over."""
        return list(self.state.outcome or [])

    def returns(self) -> list[float]:
        score = {"win": 1.0, "draw": 0.5, "loss": 0.0}
        return [score[r] for r in self.results()]

    def prompt(self) -> str:
        spec = self.state.pending
        if spec is None:
            return ""
        return str(spec.prompt(self.state)) if isinstance(spec, ChoiceSpec) else spec.name

    def pending(self) -> Decision | None:
        """The decision the game waits for, or None when it is over."""
        st = self.state
        spec = st.pending
        if st.over or spec is None:
            return None
        if isinstance(spec, ChanceSpec):
            return Decision(
                spec.kind,
                spec.name,
                CHANCE,
                spec.name,
                tuple(self.legal_actions()),
                False,
                spec.span,
            )
        return Decision(
            "choice",
            spec.name,
            st.who,
            self.prompt(),
            tuple(self.legal_actions()),
            spec.secret,
            spec.span,
        )

    def legal_values(self) -> Sequence[Value]:
        """The values of the legal options (fast: no texts)."""
        st = self.state
        return () if st.over or st.pending is None else st.options

    def legal_actions(self) -> list[Action]:
        st = self.state
        spec = st.pending
        if type(spec) is ChoiceSpec and not st.over and self._keep:
            # the same options at the same decision give the same actions: they are kept
            # by the identity of the options (often the very same tuple), else by value
            opts = st.options
            kept = st.cfg.actions
            hit = kept.get(id(opts))
            if hit is not None and hit[0] is opts and hit[1] is spec:
                return list(hit[2])
            try:
                key: object = (spec.pc, opts)
                known = kept.get(key)
            except TypeError:  # options that cannot be a key
                key, known = None, None
            if known is None:
                known = (opts, spec, self._actions(spec))
                if key is not None:
                    kept[key] = known
            kept[id(opts)] = known  # holds opts, so that its id is not reused meanwhile
            return list(known[2])
        if st.over or spec is None:
            return []
        if isinstance(spec, ChanceSpec):
            if spec.kind not in ("roll", "pick"):
                return []
            return [_new(Action, (v, spec.show(st, v))) for v in spec.source(st)]
        return self._actions(spec)

    def _actions(self, spec: ChoiceSpec) -> list[Action]:
        st, show = self.state, spec.show
        return [_new(Action, (v, "pass" if v is None else show(st, v))) for v in st.options]

    # ---------------------------------------------------------------- moves
    def find(self, text: str) -> Action | None:
        wanted = " ".join(text.split()).lower()
        for a in self.legal_actions():
            if a.text.lower() == wanted:
                return a
        return None

    def apply(self, action: Action | str) -> None:
        """Take a legal action (or the text of one); refuse anything else."""
        st = self.state
        spec = st.pending
        if (
            type(action) is Action
            and type(spec) is ChoiceSpec
            and not st.over
            and action.value in st.options
        ):  # the common case, without further calls
            value = action.value
            st.loc[spec.slot] = value
            st.log = (spec, st.who, value, st.log)
            st.pending = None
            code = self.rules.code
            try:  # most decisions end at the next pause within one op
                pc = code.ops[spec.pc + 1](st)
            except RecursionError:
                raise too_deep(code, spec.pc + 1) from None
            if pc != PAUSE:
                run(code, st, pc)
            return
        if st.over or st.pending is None:
            raise UsageError("the game is over")
        if isinstance(action, str):
            found = self.find(action)
            if found is None:
                raise UsageError(f"'{action}' is not a legal move here: {self.why_not(action)}")
            action = found
        if isinstance(st.pending, ChanceSpec):
            self.apply_chance(action.value)
        else:
            self.choose(action.value)

    def choose(self, value: Value) -> None:
        """Resume after a decision with the chosen value (no texts)."""
        st = self.state
        spec = st.pending
        if not isinstance(spec, ChoiceSpec) or st.over:
            raise UsageError("the game is not waiting for a player's decision")
        if value not in st.options:
            raise UsageError(f"{value!r} is not one of the options for '{spec.name}'")
        st.loc[spec.slot] = value
        st.log = (spec, st.who, value, st.log)
        st.pending = None
        run(self.rules.code, st, spec.pc + 1)

    def apply_chance(self, outcome: Value) -> None:
        """Decide the pending chance event: for a roll, the face (or its text); for a
        pick, the item picked (or its text); for a shuffle, the new order as a list of
        the items (or their texts), last item on top."""
        st = self.state
        spec = st.pending
        if not isinstance(spec, ChanceSpec) or st.over:
            raise UsageError("the game is not waiting for a chance event")
        source = tuple(spec.source(st))
        if spec.kind in ("roll", "pick"):
            index = _position(source, outcome, spec, st)
            if index is None:
                shown = ", ".join(spec.show(st, v) for v in source[:12])
                raise UsageError(
                    f"{outcome!r} is not a possible outcome of '{spec.name}' (one of: {shown})"
                )
            self.chance_index(index)
            return
        if isinstance(outcome, str) or not isinstance(outcome, Sequence):
            raise UsageError(
                f"a shuffle of '{spec.name}' needs the new order as a list of "
                f"its {len(source)} items"
            )
        order = _permutation(source, list(outcome), spec, st)
        if order is None:
            raise UsageError(
                f"the order given for '{spec.name}' is not an order of its {len(source)} items"
            )
        self.chance_index(order)

    def chance_index(self, outcome: int | tuple[int, ...]) -> None:
        """Decide the pending chance event by position (see `Drew`)."""
        st = self.state
        spec = st.pending
        if not isinstance(spec, ChanceSpec) or st.over:
            raise UsageError("the game is not waiting for a chance event")
        size = len(spec.source(st))
        if isinstance(outcome, int):
            if isinstance(outcome, bool) or not 0 <= outcome < size:
                raise UsageError(f"chance outcome {outcome!r} is not one of 0..{size - 1}")
        elif sorted(outcome) != list(range(size)):
            raise UsageError(f"a shuffle outcome must be an order of 0..{size - 1}")
        st.pending = None
        helpers.settle(st, spec, outcome)
        run(self.rules.code, st, spec.pc + 1)

    def resolve_chance(self) -> None:
        """Decide the pending chance event from the game's seeded generator."""
        st = self.state
        spec = st.pending
        if not isinstance(spec, ChanceSpec) or st.over:
            raise UsageError("the game is not waiting for a chance event")
        st.pending = None
        helpers.settle(st, spec, helpers.sample(st, spec))
        run(self.rules.code, st, spec.pc + 1)

    def why_not(self, text: str) -> Refusal:
        """Why `text` is not a legal action now: the failed require, or what is allowed."""
        st = self.state
        spec = st.pending
        if st.over or spec is None:
            return Refusal("the game is over", None)
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
                for r in spec.requires:
                    if not r.cond(st):
                        return Refusal(str(r.reason(st)), r.span)
        finally:
            st.loc[spec.slot] = saved
        shown = ", ".join(a.text for a in self.legal_actions()[:12])
        return Refusal(
            f"'{text}' is not an option for '{spec.name}'; the options are: {shown}", spec.span
        )

    # ---------------------------------------------------------------- fast paths
    def playout(self, rng: random.Random, max_decisions: int = 1_000_000) -> int:
        """Play on with uniformly random decisions until the end (or max_decisions);
        return how many decisions were taken. The fast path for simulations: the
        generated code takes each decision where it is asked, without pausing."""
        st = self.state
        code = self.rules.code
        taken = 0
        while not st.over and taken < max_decisions:
            spec = st.pending
            if isinstance(spec, ChanceSpec):
                self.resolve_chance()
                continue
            assert spec is not None
            value = st.options[int(rng.random() * len(st.options))]
            st.loc[spec.slot] = value
            st.log = (spec, st.who, value, st.log)
            st.pending = None
            taken += 1
            st.bot, st.budget = rng.random, max_decisions - taken
            try:
                run(code, st, spec.pc + 1)
            finally:
                taken = max_decisions - st.budget
                st.budget = 0
        return taken

    def clone(self) -> Game:
        return Game(self.rules, self.state.clone())

    # ---------------------------------------------------------------- what players see
    def view(self, player: int | None, only: Collection[str] | None = None) -> dict[str, Any]:
        """Everything `player` may see, as plain typed data: None sees everything, PUBLIC
        only what every player sees. `only` limits it to some parts (e.g. {"players"})."""
        return view(self, self._viewer(player), only)

    def _viewer(self, viewer: int | None) -> int | None:
        """None (everything), PUBLIC (what all may see) or a seat; anything else is refused."""
        if viewer is None or viewer == PUBLIC:
            return viewer
        if (
            isinstance(viewer, bool)
            or not isinstance(viewer, int)
            or not 0 <= viewer < self.players
        ):
            raise UsageError(
                f"no player {viewer!r} to view as: seats are 0..{self.players - 1}, "
                "or PUBLIC, or None for everything"
            )
        return viewer

    def attribute(
        self, name: str, of: int | None = None, viewer: int | None = None, kind: str = "player"
    ) -> Value:
        """A global (of=None), or an attribute of a player's seat (kind "player", the
        default) or of a piece or card of `kind` by its index, as plain data. With a
        viewer, an attribute that viewer may not see is refused."""
        sym = self._attr(name, of, kind)
        viewer = self._viewer(viewer)
        if viewer is not None and not _may_see(
            sym.visibility, viewer, of if sym.owner == "player" else None
        ):
            raise UsageError(f"'{name}' is not visible to {self.player_names[viewer]}")
        st = self.state
        value = st.vars[sym.slot] if of is None else st.cols[sym.slot][of]
        return plain(self, sym.type, value)

    def _attr(self, name: str, of: int | None, kind: str = "player") -> AttrSym:
        p = self.rules.program
        if of is None:
            found = next((g for g in p.globals if g.name == name), None)
            if found is None:
                raise UsageError(f"no global '{name}' in {self.rules.title}")
            return found
        found = next((a for a in p.columns if a.name == name and a.owner == kind), None)
        if found is None:
            raise UsageError(f"no attribute '{name}' of {kind} in {self.rules.title}")
        size = len(self.state.cols[found.slot])
        if isinstance(of, bool) or not isinstance(of, int) or not 0 <= of < size:
            raise UsageError(f"there is no {kind} {of!r} (0..{size - 1})")
        return found

    def value(self, name: str) -> Value:
        """A param (as this game set it), const, table, die or board value, by name."""
        sym = next((v for v in self.rules.program.values if v.name == name), None)
        if sym is None:
            raise UsageError(f"no param or const '{name}' in {self.rules.title}")
        value = self.state.cfg.consts[sym.slot]
        if sym.what in ("table", "board"):
            return value
        return plain(self, sym.type, value)

    def zone(
        self, name: str, owner: int | None = None, viewer: int | None = None
    ) -> list[Value] | int:
        """A zone's contents as plain data, bottom first; if a viewer may not see
        inside it, only how many items it holds."""
        z = next((z for z in self.rules.program.zones if z.name == name), None)
        if z is None:
            raise UsageError(f"no zone '{name}' in {self.rules.title}")
        if z.per_player and (owner is None or not 0 <= owner < self.players):
            raise UsageError(f"zone '{name}' belongs to each player: say whose")
        items = self.state.zones[self.rules.layout.zone_base[name] + (owner or 0)]
        viewer = self._viewer(viewer)
        if viewer is not None and not _may_see(z.visibility, viewer, owner):
            return len(items)
        elem = z.type.elem or T("any")
        return [plain(self, elem, v) for v in items]

    def items(self, zone: str, owner: int | None = None) -> list[Value]:
        """A zone's contents as values (piece and card indices), bottom first;
        omniscient."""
        z = next((z for z in self.rules.program.zones if z.name == zone), None)
        if z is None:
            raise UsageError(f"no zone '{zone}' in {self.rules.title}")
        return list(self.state.zones[self.rules.layout.zone_base[zone] + (owner or 0)])

    def name_of(self, kind: str, item: int) -> str:
        """The text of a piece or card of `kind` (its name attribute)."""
        return str(plain(self, T("entity", kind), item))

    @property
    def boards(self) -> dict[str, boards.Board]:
        """The boards of this game: read-only topology, node names and attributes."""
        return dict(self.state.cfg.boards)

    def node(self, board: str, at: Value) -> int:
        """A node of a board by index or name; on a grid, "x,y" names a cell."""
        return self.edit().node(board, at)

    def tile(self, board: str, at: Value, viewer: int | None = None) -> dict[str, Value] | None:
        """The tile on a cell of a tiled board, as a view shows it to `viewer` (the
        omniscient view, viewer None, also gives the item), or None."""
        viewer = self._viewer(viewer)
        ops = self.rules.ex.tiles.get(board)
        if ops is None:
            raise UsageError(f"board '{board}' holds no tiles")
        node = self.node(board, at)
        if node not in self.state.layers[ops.layer]:
            return None
        return tile_cell(self, ops, node, viewer)

    def edit(self) -> Editor:
        """Change the position by hand (tests, trying a rule): see runtime/edit.py."""
        return Editor(self)

    def history(self, viewer: int | None = None) -> list[str]:
        """The event log as text, each event shown only as far as `viewer` may see it."""
        return log_lines(self, self._viewer(viewer))

    def events(self) -> list[Event]:
        """Every event so far, in order (omniscient: for referees, tests and saves)."""
        return events_of(self.state)

    def record(self) -> list[dict[str, Value]]:
        """The log by stable identity, for saved games: each decision by its name and
        the chosen option's text, each chance event by its name and outcome."""
        return record(self)


def _may_see(visibility: str, viewer: int | None, owner: int | None) -> bool:
    if viewer is None or visibility == "all":
        return True
    return visibility == "owner" and owner == viewer


def _position(source: tuple[Value, ...], outcome: Value, spec: ChanceSpec, st: State) -> int | None:
    for i, v in enumerate(source):
        if v == outcome and type(v) is type(outcome):
            return i
    if isinstance(outcome, str):
        wanted = outcome.lower()
        for i, v in enumerate(source):
            if spec.show(st, v).lower() == wanted:
                return i
    return None


def _permutation(
    source: tuple[Value, ...], order: list[Value], spec: ChanceSpec, st: State
) -> tuple[int, ...] | None:
    if len(order) != len(source):
        return None
    free = list(range(len(source)))
    out = []
    for item in order:
        pos = next((j for j in free if source[j] == item and type(source[j]) is type(item)), None)
        if pos is None and isinstance(item, str):
            pos = next((j for j in free if spec.show(st, source[j]).lower() == item.lower()), None)
        if pos is None:
            return None
        free.remove(pos)
        out.append(pos)
    return tuple(out)


def replay(
    ruleset: Ruleset,
    players: int,
    seed: int,
    log: Sequence[object],
    options: dict[str, str] | None = None,
    names: Sequence[str] | None = None,
) -> Game:
    """Rebuild a game from its events (`Game.events()`) or its record (`Game.record()`)."""
    game = ruleset.new_game(players, seed, options, names, auto_chance=False)
    replay_into(game, log)
    return game


__all__ = [
    "CHANCE",
    "OVER",
    "PUBLIC",
    "TERMINAL",
    "Action",
    "Chose",
    "Decision",
    "Drew",
    "Game",
    "Ranked",
    "Refusal",
    "Ruleset",
    "Said",
    "UsageError",
    "replay",
]
