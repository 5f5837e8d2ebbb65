"""Running the cases of a rule test file: each case starts its own game, with every
chance event waiting for the test (what the test does not script is drawn from the
seed), and stops at the first line whose expectation does not hold."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rulelang import Game, Ruleset, UsageError
from rulelang.diagnostics import GameRuntimeError, RuleError, did_you_mean, render
from rulelang.words import digits
from rulelang.workbench.reading import Failed, Reader, show, shown_list
from rulelang.workbench.testfile import CHANCE, SETUP, Case, Line, Malformed, TestFile, split_list

CHANCE_KINDS = {
    "roll": ("roll",),
    "pick": ("pick",),
    "shuffle": ("shuffle", "shuffle_zone"),
    "generate": ("generate",),
}
EDITS = {"set", "move", "place", "reveal", "clear"}
PLACE = re.compile(
    r"(?P<tile>.+?) at (?P<board>\S+) (?P<cell>\S+)"
    r"(?: turned (?P<turn>[0-3]))?(?P<down> face down)?"
)


@dataclass
class Failure:
    """A case that failed: at which line, why, and what was expected and found."""

    path: str
    case: str
    line: int
    text: str
    message: str
    expected: list[str] | None = None
    actual: list[str] | None = None

    def __str__(self) -> str:
        out = [f'{self.path}:{self.line}: case "{self.case}": {self.message}', f"    {self.text}"]
        if self.expected is not None and self.actual is not None:
            out += side_by_side(self.expected, self.actual)
        return "\n".join(out)


def side_by_side(expected: list[str], actual: list[str]) -> list[str]:
    """Expected and actual, one item a row, the rows that differ marked with '!'."""
    if len(expected) <= 1 and len(actual) <= 1:
        return [f"  expected: {shown_list(expected)}", f"  actual:   {shown_list(actual)}"]
    width = max([8, *(len(e) for e in expected)])
    rows = [f"    {'expected':<{width}}   actual"]
    for i in range(max(len(expected), len(actual))):
        e = expected[i] if i < len(expected) else ""
        a = actual[i] if i < len(actual) else ""
        mark = "  " if i < len(expected) and i < len(actual) and e == a else "! "
        rows.append(f"  {mark}{e:<{width}}   {a}")
    return rows


def load_rules(test: TestFile) -> Ruleset:
    """The ruleset the test file names: a path beside it, or a shipped game by name.
    Raise Malformed for a file that is not there, RuleError for one with errors."""
    from rulelang.api import compile_file
    from rulelang.loader import GAME_NAME, shipped_games

    if not test.rules:
        raise Malformed(test.path, 1, 'name the rule file first: rules "game.rules"')
    path = test.path.parent / test.rules
    if not path.is_file() and GAME_NAME.fullmatch(test.rules):
        games = shipped_games()
        if test.rules not in games:
            hint = did_you_mean(test.rules, games) or f"shipped games: {', '.join(sorted(games))}"
            what = f"no rule file '{test.rules}' beside the test, nor a shipped game of that name"
            raise Malformed(test.path, test.rules_line or 1, f"{what}; {hint}")
        path = games[test.rules]
    if path.suffix != ".rules":  # as a save's: a test file cannot quote any file's lines
        raise Malformed(test.path, test.rules_line or 1, f"'{test.rules}' is not a .rules file")
    if not path.is_file():
        raise Malformed(test.path, test.rules_line or 1, f"no rule file '{test.rules}'")
    rules = compile_file(path)
    if rules.is_library:  # no game to start: every case would fail alike
        what = f"'{rules.title}' is a library of definitions, not a game"
        raise Malformed(
            test.path, test.rules_line or 1, f"{what}: test it through a game that imports it"
        )
    return rules


def run_file(test: TestFile) -> list[Failure | None]:
    """One outcome per case: None when it passed. RuleError, Malformed as load_rules."""
    rules = load_rules(test)
    return [run_case(rules, test, case) for case in test.cases]


def rules_problems(error: RuleError) -> str:
    return "\n".join(render(d, error.sources) for d in error.diagnostics)


def run_case(rules: Ruleset, test: TestFile, case: Case) -> Failure | None:
    run = CaseRun(rules, test.path)
    for line in case.lines:
        try:
            run.step(line)
        except Failed as why:
            number, text = why.at or (line.number, line.text)
            return Failure(
                str(test.path), case.name, number, text, why.message, why.expected, why.actual
            )
        except UsageError as error:
            return Failure(str(test.path), case.name, line.number, line.text, str(error))
        except GameRuntimeError as error:
            message = f"a rule failed: {error}"
            return Failure(str(test.path), case.name, line.number, line.text, message)
    return None


class CaseRun:
    """One case being run: the table it sets up, then the game it plays."""

    def __init__(self, rules: Ruleset, path: Path) -> None:
        self.rules, self.path = rules, path
        self.players, self.seed = rules.min_players, 0
        self.names: list[str] | None = None
        self.options: dict[str, str] = {}
        self.table: list[Line] = []  # the lines that set the table up, in order
        self.started: Game | None = None
        # the log of the last move: its lines lie between these two marks
        self.mark: object = None
        self.after: object = None
        # edits made before the game first reached a player's decision, while its setup
        # waited on a chance event: each with a test that it still holds once the setup
        # has run to its end (see `_undone`)
        self.reached = False
        self.early: list[tuple[Line, str, Callable[[], str | None]]] = []
        self.drawn: list[str] = []  # the chance events drawn from the seed since then

    @property
    def game(self) -> Game:
        if self.started is None:
            names = tuple(self.names) if self.names else None
            try:
                self.started = self.rules.new_game(
                    self.players, self.seed, self.options, names, auto_chance=False
                )
            except UsageError as error:
                raise self._refused(error) from None
            self.mark = self.after = self.started.mark()
        return self.started

    def step(self, line: Line) -> None:
        if line.keyword in SETUP:
            if self.started is not None:
                raise Malformed(
                    self.path, line.number, f"'{line.keyword}' comes before the first move"
                )
            self._setup(line)
            return
        if line.keyword not in CHANCE | EDITS | {"log"}:
            self.settle()  # a move or a check meets the game at its next decision
        reader = Reader(self.game)
        if line.keyword in CHANCE or line.keyword in EDITS or line.keyword == "play":
            self.mark = self.game.mark()
            if line.keyword in CHANCE:
                self._chance(line)
            elif line.keyword in EDITS:
                early = not self.reached and self.game.is_chance_node()
                waiting = self.game.pending() if early else None
                stands = self._edit(line, reader)
                if waiting is not None and stands is not None:
                    self.early.append((line, waiting.name, stands))
            else:
                self._play(line.rest)
            self.after = self.game.mark()
            self.drawn = []
        else:
            self._check(line, reader)

    # ------------------------------------------------------------ the table
    def _refused(self, error: UsageError) -> Failed:
        """The rules refuse the table (a player count, an option): the failure is the
        line that set what they refuse, found by trying each option alone."""
        counts = [line for line in self.table if line.keyword == "players"]
        if counts and not self.rules.min_players <= self.players <= self.rules.max_players:
            at: Line | None = counts[-1]  # the count the case plays with
        else:
            options = (line for line in self.table if line.keyword == "option")
            at = next((line for line in options if not self._takes(line)), None)
        return Failed(str(error), at=(at.number, at.text) if at else None)

    def _takes(self, line: Line) -> bool:
        """Whether the rules take this option line's value, alone."""
        name, _, value = line.rest.partition("=")
        try:
            self.rules.table_for(self.rules.min_players, {name.strip(): value.strip()})
        except UsageError:
            return False
        except (RuleError, GameRuntimeError):
            return True  # taken, and failing further on: not this line's doing
        return True

    def _setup(self, line: Line) -> None:
        self.table.append(line)
        k, rest = line.keyword, line.rest
        if k == "players":
            if digits(rest):  # a case's count replaces the background's names
                self.players, self.names = int(rest), None
            else:
                self.names = split_list(rest)
                self.players = len(self.names)
        elif k == "seed":
            if not re.fullmatch(r"-?\d+", rest):
                raise Malformed(self.path, line.number, f"a seed is a whole number, not '{rest}'")
            self.seed = int(rest)
        else:
            name, eq, value = rest.partition("=")
            if not eq:
                raise Malformed(self.path, line.number, "write option NAME = VALUE")
            self.options[name.strip()] = value.strip()

    def settle(self) -> None:
        """Draw the chance events the test leaves unscripted, from the seed."""
        while self.game.is_chance_node():
            self._draw()
        if not self.reached:
            self.reached = True
            self._undone()

    def _draw(self) -> None:
        """Draw the pending chance event from the seed."""
        decision = self.game.pending()
        assert decision is not None
        self.drawn.append(decision.name)
        self.game.resolve_chance()

    def _undone(self) -> None:
        """Fail at an edit made before the first decision, while a chance event waited,
        if the lines run after that event undid it (`set Ann.coins = 2` as a case's
        first line, where the setup gives every player 18 coins after its shuffle): the
        case would test another position than the one it sets up, most often without
        failing."""
        for line, waiting, stands in self.early:
            now = stands()
            if now is not None:
                who = self.game.player_names[self.game.current_player()]
                raise Failed(
                    f"the rules undid this edit before the first decision ({now}): it was "
                    f"made while the chance event '{waiting}' waited, and the lines after "
                    f"that event (the setup's, most often) ran after the edit; make it at "
                    f"the first decision, after a line that looks at the game "
                    f"(`to act: {who}`)",
                    at=(line.number, line.text),
                )
        self.early.clear()

    # ------------------------------------------------------------ chance
    def _chance(self, line: Line) -> None:
        name, _, outcome = line.rest.partition(":")
        name, outcome = name.strip(), outcome.strip()
        top = name.endswith(" top")
        name = name.removesuffix(" top").strip()
        game = self.game
        while game.is_chance_node():
            decision = game.pending()
            assert decision is not None
            if decision.name == name and decision.kind in CHANCE_KINDS[line.keyword]:
                # the `| ...` lines under it, one item a line, or the list after the colon
                items = line.block if line.block is not None else split_list(outcome)
                game.apply_chance(self._outcome(decision.kind, name, outcome, top, items))
                return
            self._draw()
        raise Failed(
            f"no chance event '{name}' came: {self._waiting()} (a line that looks at the "
            "game draws the chance events before it from the seed: script them first)"
        )

    def _outcome(self, kind: str, name: str, outcome: str, top: bool, items: list[str]) -> object:
        if kind == "generate":
            if not digits(outcome):
                raise Failed(f"a generate outcome is a number, not '{outcome}'")
            return int(outcome)
        if kind == "shuffle" and top:
            raise Failed(f"only the shuffle of a zone has a top; give all of '{name}'")
        if kind == "shuffle":
            return items
        if kind == "shuffle_zone":
            return self._zone_order(name, items, top)
        return outcome

    def _zone_order(self, zone: str, texts: list[str], top: bool) -> list[object]:
        """The zone's new order, bottom first, as items: all of them given, or (`top`)
        those given drawn first, the first given on top, the rest below as they lie."""
        reader = Reader(self.game)
        lying = self.game.items(zone)
        kind = reader.zone_kind(zone)
        chosen = reader.pick_items(kind, texts, among=lying)
        if top:
            rest = [i for i in lying if i not in chosen]
            return [*rest, *reversed(chosen)]
        return list(chosen)

    def _waiting(self) -> str:
        game = self.game
        if game.is_over():
            return "the game is over"
        decision = game.pending()
        assert decision is not None
        if game.is_chance_node():
            return f"the chance event '{decision.name}' ({decision.kind}) waits"
        who = game.player_names[decision.player]
        return f"{who} is to choose '{decision.name}' ({game.prompt()})"

    # ------------------------------------------------------------ edits
    def _edit(self, line: Line, reader: Reader) -> Callable[[], str | None] | None:
        """Make the edit; for a `set` or a `move`, return a test of whether it still
        holds (None if it does, else what the game holds instead)."""
        edit, k, rest = self.game.edit(), line.keyword, line.rest
        if k == "set":
            target, eq, value = rest.partition(" = ")
            if not eq:
                raise Failed("write set WHAT = VALUE")
            target = target.strip()
            reader.set(target, value.strip())
            was = reader.read(target, None)
            return lambda: _changed(target, was, Reader(self.game).read(target, None))
        if k == "move":
            item, to, zone = rest.rpartition(" to ")
            if not to:
                raise Failed("write move ITEM to ZONE")
            name, owner = reader.zone(zone.strip())
            chosen = reader.move(item.strip(), zone.strip())
            gone = f"{item.strip()} is no longer in {zone.strip()}"
            return lambda: None if chosen in self.game.items(name, owner) else gone
        if k == "place":
            found = PLACE.fullmatch(rest)
            if found is None:
                raise Failed("write place TILE at BOARD CELL [turned 0-3] [face down]")
            board, cell = found["board"], found["cell"]
            tiles = reader.tile_kind(board)
            [tile] = reader.pick_items(tiles, [found["tile"]], among=reader.off_board(tiles))
            edit.place(board, cell, tile, int(found["turn"] or 0), bool(found["down"]))
            return None
        board, _, cell = rest.partition(" ")
        (edit.reveal if k == "reveal" else edit.clear)(board, cell.strip())
        return None

    # ------------------------------------------------------------ checks
    def _check(self, line: Line, reader: Reader) -> None:
        k, rest = line.keyword, line.rest
        game = self.game
        if k == "refuse":
            move, _, reason = rest.partition(": ")
            self._refuse(move.strip(), reason.strip())
        elif k == "options":
            self._options(line)
        elif k == "prompt":
            _same([rest], [game.prompt() if not game.is_over() else "(the game is over)"], "prompt")
        elif k == "to act":
            who = "nobody" if game.is_over() else game.player_names[game.current_player()]
            _same([rest], [who], "the player to act")
        elif k in ("expect", "sees"):
            target, _, value = rest.partition(" = ")
            viewer = reader.viewer(line.who) if k == "sees" else None
            _same([value.strip()], [reader.read(target.strip(), viewer)], target.strip())
        elif k == "log":
            self._log(line, reader)
        elif k == "screen":
            self._screen(line, reader)
        elif k == "bot keeps":
            self._bot_keeps(line)
        elif k == "measure":
            self._measure(line)
        else:
            self._end(line)

    def _move(self, text: str) -> str:
        """A move's text as the test writes it: `""` is the empty text (but an option
        written `""` itself, if there is one)."""
        return "" if text == '""' and self.game.find(text) is None else text

    def _play(self, text: str) -> None:
        game = self.game
        if game.is_over():
            raise Failed(f"'{text}' cannot be played: the game is over")
        action = game.find(self._move(text))
        if action is None:
            reason = game.why_not(text).reason
            raise Failed(f"'{text}' is not legal: {reason}")
        game.apply(action)

    def _refuse(self, move: str, reason: str) -> None:
        actual = self.game.why_not(self._move(move)).reason
        if actual == "it is legal":
            raise Failed(f"'{move}' is legal")
        if reason.endswith("...") and actual.startswith(reason[:-3]):
            return
        _same([reason], [actual], f"the reason '{move}' is refused")

    def _options(self, line: Line) -> None:
        actual = [show(a.text) for a in self.game.legal_actions()]  # "" as `""`
        wanted = line.block if line.block is not None else split_list(line.rest)
        if line.how == "include":
            missing = [w for w in wanted if w not in actual]
            if missing:
                raise Failed(f"not among the options: {shown_list(missing)}", wanted, actual)
        elif line.how == "exclude":
            present = [w for w in wanted if w in actual]
            if present:
                raise Failed(f"among the options: {shown_list(present)}", wanted, actual)
        else:
            _same(wanted, actual, "options")

    def _log(self, line: Line, reader: Reader) -> None:
        viewer = reader.viewer(line.who)
        if line.how == "never":
            said = [t for t in self.game.history(viewer) if line.rest in t]
            if said:
                raise Failed(f"the log says '{line.rest}': {said[0]}")
            return
        new = self.game.history(viewer, since=self.mark)
        later = self.game.history(viewer, since=self.after)  # drawn since, by the seed
        new = new[: len(new) - len(later)]
        wanted = line.block if line.block is not None else [line.rest]
        missing = [w for w in wanted if w not in new]
        hint = self._log_hint(missing, later)
        if line.how == "includes":
            if missing:
                message = f"not in the log since the last move: {missing[0]}{hint}"
                raise Failed(message, wanted, new)
            return
        if wanted != new:
            raise Failed(f"the log since the last move: not as expected{hint}", wanted, new)

    def _log_hint(self, missing: list[str], later: list[str]) -> str:
        """Why lines looked for are not the last move's, where the game tells: written
        since, once chance events the test left to the seed were drawn, or not yet, as
        a chance event waits. A reader expects every line so far."""
        pending = self.game.pending()
        if any(w in later for w in missing):
            drawn = ", ".join(f"'{name}'" for name in dict.fromkeys(self.drawn))
            return (
                f" (it was written after the last move, by what ran once the chance events "
                f"the test left unscripted were drawn from the seed ({drawn}): script them "
                f"to read their lines)"
            )
        if missing and pending is not None and self.game.is_chance_node():
            waits = f"the chance event '{pending.name}' waits"
            return f" ({waits}: what comes after it is not written yet)"
        return ""

    def _screen(self, line: Line, reader: Reader) -> None:
        """A line of the screen `rulelang play` shows the viewer (trimmed), or no text."""
        from rulelang.render.text import render_view

        viewer = reader.viewer(line.who)
        lines = [row.strip() for row in render_view(self.game, self.game.view(viewer)).splitlines()]
        if line.how == "never":
            shown = [row for row in lines if line.rest in row]
            if shown:
                raise Failed(f"the screen shows '{line.rest}': {shown[0]}")
        elif line.rest not in lines:
            raise Failed(f"no line of the screen is '{line.rest}'", [line.rest], lines)

    def _bot_keeps(self, line: Line) -> None:
        """The options the declared bot of the seat to act keeps, before it draws among
        them: one when its choice is certain."""
        game = self.game
        if game.is_over():
            raise Failed("the game is over: no bot is asked")
        kept = game.bot_options()
        if kept is None:
            who = game.player_names[game.current_player()]
            raise Failed(f"no declared bot plays {who} (the rules' `bot_for`)")
        texts = {a.value: a.text for a in game.legal_actions()}
        _same(split_list(line.rest), [texts[v] for v in kept], "the options the bot keeps")

    def _measure(self, line: Line) -> None:
        name, _, value = line.rest.partition(" = ")
        name = name.strip()
        measures = self.game.measures()
        if name not in measures:
            hint = did_you_mean(name, list(measures))
            known = ", ".join(measures) or "none"
            raise Failed(f"no measure '{name}' in the rules ({hint or 'measures: ' + known})")
        _same([value.strip()], [show(measures[name])], f"the measure {name}")

    def _end(self, line: Line) -> None:
        game = self.game
        if line.keyword == "not over":
            if game.is_over():
                raise Failed("the game is over", ["not over"], ["over"])
            return
        if not game.is_over():
            raise Failed(f"the game is not over: {self._waiting()}")
        results = game.results()
        if line.keyword == "winners":
            won = [game.player_names[s] for s, r in enumerate(results) if r == "win"]
            wanted = [] if line.rest == "none" else split_list(line.rest)
            _same(wanted or ["none"], won or ["none"], "the winners")
        elif line.keyword == "results":
            _same(split_list(line.rest), results, "the results")
        elif line.keyword == "ended by":
            self._ended_by(line.rest)

    def _ended_by(self, wanted: str) -> None:
        """Which end rule ended the game: its text (`end when ...`, as the rules write
        it) or where it is written (`file.rules:LINE`)."""
        reason = self.game.end_reason()
        if reason is None:
            _same([wanted], ["no end rule (the game ran out of moves or was stopped)"], "ended by")
            return
        if wanted not in (reason.rule, reason.where, str(reason)):
            _same([wanted], [str(reason)], "the end rule that ended the game")


def _changed(target: str, was: str, now: str) -> str | None:
    return None if now == was else f"{target} is {now}, not {was}"


def _same(expected: list[str], actual: list[str], what: str) -> None:
    if expected != actual:
        raise Failed(f"{what}: not as expected", expected, actual)
