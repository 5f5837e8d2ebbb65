"""The engine API: one game in progress, and the whole contract a caller needs (a test,
a bot, the CLI, another engine checked against this one): who acts, the pending
decision and its options, moves, chance outcomes, clones and playouts. What a game
shows (views, attributes, zones, history) is in queries.py; compiling a rule file
into a `Ruleset` that starts games is in ruleset.py.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from rulelang.diagnostics import Span, UsageError, did_you_mean
from rulelang.runtime import helpers
from rulelang.runtime.bots import RANDOM, bot_generator, ranked
from rulelang.runtime.code import (
    CHANCE,
    OVER,
    PAUSE,
    PUBLIC,
    TERMINAL,
    ChanceSpec,
    ChoiceSpec,
    Code,
    Op,
    Value,
    run,
)
from rulelang.runtime.lines import placed
from rulelang.runtime.queries import GameQueries
from rulelang.runtime.state import BY_PC, OPTION_SETS, TEXTS, State
from rulelang.runtime.views import replay_into

if TYPE_CHECKING:
    from rulelang.runtime.measures import EndReason
    from rulelang.runtime.ruleset import Ruleset

_new = tuple.__new__
_PAUSE = int(PAUSE)  # compared as a plain int: faster than the enum
_OVER = int(OVER)
# A choice whose option sets seldom come again (a hand: one card changed each turn) is
# kept by value only, once it has kept this many sets: a set looked up and missed costs
# two hashes of the tuple and a place in the table's bound (KEPT_ACTIONS), which such a
# choice fills, and with it every choice's kept actions and texts are thrown away.
BY_VALUE = True  # off: every choice's actions kept by option set as well (as before)
BY_VALUE_AFTER = 250
SUBSCRIPT = True  # off: the kept texts looked up with `.get` and a test for each option
# A choice's kept option sets read by subscript, a KeyError where a set is new: since
# BY_VALUE takes the choices whose sets seldom come again out of this keeping, the sets
# looked up are mostly found, where `.get` and a test of None cost a call more
SETS_BY_SUBSCRIPT = True  # off: `.get` and a test of None
# `legal_actions` tries a kept set first, in a `try` that any other case leaves for the
# whole way: a few loads, stores and tests a decision fewer
SHORT_LEGAL = True  # off: the whole way at every call


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
    reaction: bool = False  # asked of the reacting player of a reaction round


class Game(GameQueries):
    """One game in progress: every query and move goes through here."""

    def __init__(self, ruleset: Ruleset, state: State):
        self.rules = ruleset
        self.state = state
        self._keep = ruleset._fixed_names  # legal actions may be kept (see legal_actions)
        self._resumes = ruleset.code.resumes  # see apply
        self._ops = ruleset.code.paused_ops  # see apply
        # the actions kept for the table per choice (see legal_actions): found when
        # first asked, so that a clone (a search's playout) does not pay for it
        self._offered: list[dict[object, list[Action]] | None] | None = None
        self._bot_rngs: dict[int, random.Random] = {}  # each seat's bot generator

    # ---------------------------------------------------------------- running
    def _run(self, pc: int) -> None:
        run(self.rules.code, self.state, pc)

    # ---------------------------------------------------------------- the table
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

    def end_reason(self) -> EndReason | None:
        """Which end rule ended the game: its text (`end when ...`) and where it is
        written (`where`: "file.rules:LINE"); None while the game goes on."""
        st = self.state
        if not st.over or st.ended < 0:
            return None
        return self.rules.end_reasons[st.ended]

    def measures(self) -> dict[str, Value]:
        """The value of each `measure` of the rules, by name, in the order declared: a
        number (True/False for a yes/no measure), or a list with one per player for a
        measure `per player`; none where the rule gives none. Meant for a finished game
        (a measure reads everything, hidden or not); before the end, it measures the
        position so far."""
        st, n = self.state, self.players
        return {name: m.value(st, n) for name, m in self.rules.measures.items()}

    def estimate(self) -> list[float] | None:
        """Every player's chance of winning from here, 0 to 1, by the rules' `estimate`
        (the real result once the game is over, unless every player lost: then the
        estimate of where it ended, which tells apart the ends the result does not, a
        cooperative show that burnt out and one that scored 18); None when the rules
        have none."""
        est = self.rules.estimate
        if self.state.over and (est is None or any(r != "loss" for r in self.results())):
            return self.returns()
        return None if est is None else est.scores(self.state, self.players)

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
                spec.audience is not None,  # a secret roll or pick
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
            spec.reaction,
        )

    def legal_values(self) -> Sequence[Value]:
        """The values of the legal options (fast: no texts)."""
        st = self.state
        return () if st.over or st.pending is None else st.options

    def legal_actions(self) -> list[Action]:
        st = self.state
        if SHORT_LEGAL:  # the common way first, in as few bytecodes as it takes
            try:  # (no kept table yet, no decision or no key: as below, from the start)
                kept = self._offered[st.pending.pc]  # type: ignore[index, union-attr]
                if kept is not None and SETS_BY_SUBSCRIPT:
                    return kept[st.options].copy()
            except (TypeError, AttributeError, KeyError):
                pass
        # every way: a set not kept yet, a choice kept by value, a chance event, options
        # that cannot be a key, the end
        spec = st.pending
        if spec is not None:  # (a game that is over waits for nothing)
            # the same options at the same decision give the same actions: they are kept
            # for the table, per decision by options (by value: options are often made
            # anew; kept by identity as well, they cost more than they saved)
            offered = self._offered
            if offered is None:
                offered = self._offered = _offered(self.rules, st)
            kept = offered[spec.pc]
            if kept is not None:
                if SETS_BY_SUBSCRIPT:  # a set kept, as mostly: no `.get`, no test of None
                    try:
                        return kept[st.options].copy()
                    except KeyError:  # (a choice: only they have a dict)
                        return _keep(st, cast(ChoiceSpec, spec), kept).copy()
                    except TypeError:  # options that cannot be a key
                        return self._actions(cast(ChoiceSpec, spec))
                try:
                    known = kept.get(st.options)
                except TypeError:  # options that cannot be a key
                    return self._actions(cast(ChoiceSpec, spec))
                if known is None:  # (a choice: only they have a dict)
                    known = _keep(st, cast(ChoiceSpec, spec), kept)
                return known.copy()
            if self._keep and BY_VALUE and type(spec) is ChoiceSpec and not st.over:
                try:  # a choice kept by value only (see `_keep`)
                    return _each_kept(st, spec, st.cfg.actions)
                except TypeError:  # a value that cannot be a key
                    return self._actions(spec)
        if st.over or spec is None:
            return []
        if isinstance(spec, ChanceSpec):
            return _outcomes(st, spec)
        return self._actions(spec)

    def _actions(self, spec: ChoiceSpec) -> list[Action]:
        st, show = self.state, spec.show
        return [_new(Action, (v, "pass" if v is None else show(st, v))) for v in st.options]

    def choice_point(self) -> tuple[int, bool] | None:
        """Which `choose` of the rule file asks the pending choice, as a value equal for
        every time it asks (and whether a reaction round asks it); None at a chance
        event or at the end. Cheap: no texts, no options."""
        spec = self.state.pending
        if self.state.over or not isinstance(spec, ChoiceSpec):
            return None
        return (spec.pc, spec.reaction)

    # ---------------------------------------------------------------- moves
    def find(self, text: str) -> Action | None:
        return by_text(self.legal_actions(), text)

    def apply(self, action: Action | str) -> None:
        """Take a legal action (or the text of one); refuse anything else."""
        st = self.state
        spec = st.pending
        if type(action) is Action and spec is not None:  # (a game over waits for nothing)
            value = action[0]
            resume = self._resumes[spec.pc]  # a choice's (Codegen.resumes), or None
            if resume is not None and value in st.options:  # `_resume`, `run` written out
                try:
                    pc = resume(st, spec, value)
                except Exception as exc:  # placed on its rule line, as by run()
                    err = placed(exc, self.rules.code.spans[spec.pc + 1])
                    if err is exc:
                        raise
                    raise err from None
                if pc != _PAUSE:  # ran on, or the game ended (seldom: resumes pause)
                    after_resume(self, st, pc)
                return
            if type(spec) is ChoiceSpec and not st.over and value in st.options:
                self._resume(st, spec, value)
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
        self._resume(st, spec, value)

    def _resume(self, st: State, spec: ChoiceSpec, value: Value) -> None:
        """Record the chosen value and run on to the next pause (as `apply` does)."""
        code = self.rules.code
        resume = self._resumes[spec.pc]
        try:  # most decisions end at the next pause, within the generated resume
            if resume is not None:  # it records the value and runs on (Codegen.resumes)
                pc = resume(st, spec, value)
            else:  # a secret choice (its record has an audience), or none generated
                st.loc[spec.slot] = value
                if not st.quiet:  # a quiet game (see `quiet`) keeps no record
                    st.log = helpers.choice_record(st, spec, st.who, value)
                st.pending = None
                pc = code.ops[spec.pc + 1](st)
        except Exception as exc:  # placed on its rule line, as by run()
            err = placed(exc, code.spans[spec.pc + 1] if st.pending is None else spec.span)
            if err is exc:
                raise
            raise err from None
        if pc != _PAUSE:
            run(code, st, pc)

    def apply_chance(self, outcome: Value) -> None:
        """Decide the pending chance event: for a roll, the face (or its text); for a
        pick, the item picked (or its text); for a shuffle, the new order as a list of
        the items (or their texts), last item on top."""
        st = self.state
        spec = st.pending
        if not isinstance(spec, ChanceSpec) or st.over:
            raise UsageError("the game is not waiting for a chance event")
        if spec.kind == "generate":  # the seed of its drawing: a number in 0..2**31-1
            if isinstance(outcome, bool) or not isinstance(outcome, int):
                raise UsageError(f"a generate ('{spec.name}') needs a number to seed it")
            self.chance_index(outcome)
            return
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
        wanted = loosely(text)
        if self.find(text) is not None:
            return Refusal("it is legal", None)
        saved = st.loc[spec.slot]
        try:
            for v in spec.domain(st):
                if loosely(spec.show(st, v)) != wanted:
                    continue
                st.loc[spec.slot] = v
                for r in spec.requires:
                    if not r.cond(st):
                        return Refusal(str(r.reason(st)), r.span)
                if spec.unfinished is not None:  # it passes every require
                    return Refusal(str(spec.unfinished(st)), spec.span)
                if spec.complete is not None:
                    return Refusal(
                        f"'{text}' has no way to complete its effect: a later choice "
                        "would have no option",
                        spec.span,
                    )
        finally:
            st.loc[spec.slot] = saved
        shown = ", ".join(a.text for a in self.legal_actions()[:12])
        return Refusal(
            f"'{text}' is not an option for '{spec.name}'; the options are: {shown}", spec.span
        )

    # ---------------------------------------------------------------- fast paths
    def quiet(self) -> Game:
        """Make this game quiet for good, and return it: from now on no `say` statement
        runs and no decision or roll is logged, as in `playout(rng, quiet=True)`, for a
        caller that reads results, measures, attributes and options but never the log
        (a reinforcement-learning loop, a script that plays many games). The same game,
        faster; `events()`, `history()`, `record()` and the log parts of `view()` refuse
        (UsageError) from then on, and so do its clones', which are quiet too."""
        st = self.state
        st.quiet = st.mute = st.hushed = True
        return self

    @property
    def is_quiet(self) -> bool:
        """Is this game quiet (see `quiet`)?"""
        return self.state.mute

    def playout(
        self,
        rng: random.Random,
        max_decisions: int | None = None,
        bots: bool = False,
        quiet: bool = False,
    ) -> int:
        """Play on with uniformly random decisions until the end (or max_decisions,
        by default the ruleset's `limits.decisions`); return how many decisions were
        taken. The fast path for simulations: the generated code takes each decision
        where it is asked, without pausing. `bots`: each decision is the declared bot's
        that plays the seat (`bot_for`; random where none does), its ties drawn from
        `rng` (not from the seats' bot generators). `quiet`: no `say` statement runs and
        no decision or roll is logged (for a caller that reads results, measures and
        attributes, never the log): the same game, faster, but its log has holes from
        then on, so `events()`, `history()`, `record()` and the log parts of `view()`
        refuse (UsageError). A quiet game (`quiet()`) plays quietly whatever `quiet` says."""
        if max_decisions is None:
            max_decisions = self.rules.limits.decisions
        st = self.state
        quiet = quiet or st.mute
        st.quiet = quiet  # read by the generated code, until the playout ends
        st.hushed = st.hushed or quiet
        code = self.rules.code
        declared = tuple(self.rules.bots.values()) if bots else ()
        taken = 0
        try:
            while not st.over and taken < max_decisions:
                spec = st.pending
                if isinstance(spec, ChanceSpec):
                    self.resolve_chance()
                    continue
                assert spec is not None
                options = st.options
                if declared:
                    options = ranked(declared, st, st.who, spec, options) or options
                value = options[int(rng.random() * len(options))]
                st.loc[spec.slot] = value
                if not quiet:
                    st.log = (
                        (spec, st.who, value, st.log)
                        if spec.audience is None
                        else helpers.choice_record(st, spec, st.who, value)
                    )
                st.pending = None
                taken += 1
                if declared:  # the code pauses at each decision, for its bot to take it
                    run(code, st, spec.pc + 1)
                    continue
                st.bot, st.budget = rng.random, max_decisions - taken
                try:
                    run(code, st, spec.pc + 1)
                finally:
                    taken = max_decisions - st.budget
                    st.budget = 0
        finally:
            st.quiet = st.mute
        return taken

    def clone(self) -> Game:
        other = type(self)(self.rules, self.state.clone())
        for seat, rng in self._bot_rngs.items():
            copy = random.Random.__new__(random.Random)
            copy.setstate(rng.getstate())
            other._bot_rngs[seat] = copy
        return other

    def determinize(self, seat: int | None, rng: random.Random) -> Game:
        """A clone in which what `seat` cannot see is dealt anew from `rng`, and the
        dice are reseeded (seat None: only the dice): see runtime/determinize.py."""
        from rulelang.runtime.determinize import determinize

        if seat is not None and (isinstance(seat, bool) or not 0 <= seat < self.players):
            raise UsageError(f"no player {seat!r} to determinize for")
        return determinize(self, seat, rng)

    # ---------------------------------------------------------------- bots
    def bot_for(self, seat: int) -> str:
        """The name of the declared bot that plays this seat now: the first bot (in the
        order declared) whose `for` condition holds for it, else "random"."""
        for bot in self.rules.bots.values():
            if bot.applies(self.state, seat):
                return bot.name
        return RANDOM

    def bot_options(self) -> list[Value] | None:
        """The options the declared bot that plays the deciding seat (`bot_for`) keeps at
        the pending choice, before its ties are drawn; None where no declared bot plays
        the seat. `UsageError` at a chance event or at the end."""
        st = self.state
        spec = st.pending
        if not isinstance(spec, ChoiceSpec) or st.over:
            raise UsageError("the game is not waiting for a player's decision")
        return ranked(tuple(self.rules.bots.values()), st, st.who, spec, st.options)

    def bot_choice(self, bot: str | None = None) -> Action:
        """The action a bot takes at the pending choice, for the seat asked: the named
        bot (a declared one, or "random"), by default the one `bot_for` names. Its
        ties are drawn from the seat's bot generator (derived from the game's seed,
        separate from the dice), so the same seed and moves give the same choices."""
        st = self.state
        spec = st.pending
        if not isinstance(spec, ChoiceSpec) or st.over:
            raise UsageError("the game is not waiting for a player's decision")
        seat = st.who
        name = self.bot_for(seat) if bot is None else bot
        options = list(st.options)
        if name != RANDOM:
            found = self.rules.bots.get(name)
            if found is None:
                known = [RANDOM, *self.rules.bots]
                hint = did_you_mean(name, known)
                raise UsageError(f"unknown bot '{name}'" + (f"; {hint}" if hint else ""))
            options = found.rank(st, seat, spec, options)
        rng = self._bot_rngs.get(seat)
        if rng is None:
            rng = self._bot_rngs[seat] = bot_generator(st.cfg.seed, seat)
        value = options[int(rng.random() * len(options))]
        show = spec.show
        return _new(Action, (value, "pass" if value is None else show(st, value)))


def loosely(text: str) -> str:
    """A text as typed and as shown compared: case and runs of blanks do not matter."""
    return " ".join(text.split()).lower()


def by_text(actions: Sequence[Action], text: str) -> Action | None:
    """The action of this text: the one written exactly so, else the first alike but
    for case and blanks. Exact first: of two options "a" and "A" each is found, and an
    option whose text has a double or an end blank (a `{...}` of it empty) is found
    too."""
    for a in actions:
        if a.text == text:
            return a
    wanted = loosely(text)
    for a in actions:
        if loosely(a.text) == wanted:
            return a
    return None


def after_resume(game: Game, st: State, pc: int) -> None:
    """What `apply` does after a resume that did not pause (the generated `apply` of
    runtime/inlined.py too): the ops run on from pc, and the end of a game that ended."""
    if pc >= 0:  # ops on until one pauses or ends
        pc = _onward(game.rules.code, game._ops, st, pc)
    if pc == _OVER:
        st.over = True
        st.pending = None
        st.options = ()


def _onward(code: Code, ops: list[Op], st: State, pc: int) -> int:
    """`run` over `ops` (the ops as `apply` runs them, Code.paused_ops), without the
    end's stores, which `apply` makes: apart from `apply`, whose every call would
    otherwise read them and its op's pc before the resume, for the few that go on."""
    try:
        while pc >= 0:
            pc = ops[pc](st)
    except Exception as exc:  # placed on its rule line, as by run()
        err = placed(exc, code.spans[pc])
        if err is exc:
            raise
        raise err from None
    return pc


def _outcomes(st: State, spec: ChanceSpec) -> list[Action]:
    """The actions of a pending roll or pick (none for a shuffle). Apart from
    legal_actions, whose locals a comprehension there would make cells of, at a cost
    to every call."""
    if spec.kind not in ("roll", "pick"):
        return []
    return [_new(Action, (v, spec.show(st, v))) for v in spec.source(st)]


def _offered(ruleset: Ruleset, st: State) -> list[dict[object, list[Action]] | None]:
    """Per pc, the actions kept for a choice by options (a dict; None at a chance or
    where the texts of values may change), for the games of a table with the same names:
    a list indexed by the pending pc spares a lookup and a type check per decision."""
    kept = st.cfg.actions
    by_pc: list[dict[object, list[Action]] | None] | None = kept.get(BY_PC)
    if by_pc is None:
        by_pc = kept[BY_PC] = [None] * len(ruleset.code.ops)
        kept[TEXTS] = [None] * len(ruleset.code.ops)
        if ruleset._fixed_names:  # a value reads the same for the whole game
            for pc in ruleset.code.choices:
                by_pc[pc] = {}
    return by_pc


def _keep(st: State, spec: ChoiceSpec, mine: dict[object, list[Action]]) -> list[Action]:
    """The actions of the pending options, kept for the table per decision by options
    (see legal_actions); the count of option sets kept bounds them (Config.for_game)."""
    kept = st.cfg.actions
    actions = _each_kept(st, spec, kept)
    if BY_VALUE and len(mine) >= BY_VALUE_AFTER:  # its sets seldom come again: by value
        kept[BY_PC][spec.pc] = None  # (legal_actions then reads it by value itself)
        kept[OPTION_SETS] = kept.get(OPTION_SETS, 0) - len(mine)
        return actions
    mine[st.options] = actions  # (legal_actions found the options can be a key)
    kept[OPTION_SETS] = kept.get(OPTION_SETS, 0) + 1
    return actions


def _each_kept(st: State, spec: ChoiceSpec, kept: dict[object, Any]) -> list[Action]:
    """The actions of the pending options, each made once per table and decision: with
    the names fixed, an option's text depends on its value alone, so options made anew
    (a hand that changed by one card) make texts only for the values not seen before.
    Each text made counts in the table's bound, as an option set does."""
    texts: list[dict[Value, Action] | None] = kept[TEXTS]
    by_value = texts[spec.pc]
    if by_value is None:
        by_value = texts[spec.pc] = {}
    elif SUBSCRIPT:  # each value seen before, as mostly: subscripts, no test of a miss
        actions = []
        try:
            for v in st.options:
                actions.append(by_value[v])
            return actions
        except KeyError:  # a value not seen yet: made below
            pass
    return _made(st, spec, kept, by_value)


def _made(
    st: State, spec: ChoiceSpec, kept: dict[object, Any], by_value: dict[Value, Action]
) -> list[Action]:
    """`_each_kept`'s actions, the texts of values not seen yet made and kept."""
    actions = []
    for v in st.options:
        action = by_value.get(v)
        if action is None:
            action = by_value[v] = _new(Action, (v, "pass" if v is None else spec.show(st, v)))
            kept[OPTION_SETS] = kept.get(OPTION_SETS, 0) + 1
        actions.append(action)
    return actions


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


__all__ = ["CHANCE", "PUBLIC", "TERMINAL", "Action", "Decision", "Game", "Refusal", "replay"]
