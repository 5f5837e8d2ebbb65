"""The statistics of many games: a record per game, summed up in a `Summary` (who
won, per seat and per role, how long games lasted, the numbers they ended with, the
games cut off), printed as a table or JSON, and read by the HTML report.

A game the bots do not end within `--max-decisions` is CUT OFF: it is counted apart
(with its seed, to replay it), never as a game without a winner, and the rates are over
the games that finished. Only when every game is cut off does the run fail (R010)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulelang import errors
from rulelang.diagnostics import NO_SPAN, GameRuntimeError, Span
from rulelang.limits import DEFAULT_LIMITS
from rulelang.simulation.measured import (
    CUT_OFF,
    UNKNOWN,
    Declared,
    Tally,
    endings_lines,
    lopsided_words,
    measures_lines,
)
from rulelang.stats import wilson
from rulelang.words import columns, counted, pad


def mean(values: list[float] | list[int]) -> float:
    return sum(values) / len(values) if values else 0.0


@dataclass(frozen=True, slots=True)
class Record:
    results: list[str]
    turns: int
    decisions: int
    secrets: list[dict[str, str]]  # per player: secret attribute -> value
    seed: int = 0
    cut_off: bool = False  # not over after --max-decisions: not counted in the rates
    waiting: Span = NO_SPAN  # a game cut off: the decision it was waiting for
    changed: set[str] = field(default_factory=set)  # secret values that changed in play
    first: int = -1  # the seat that took turn 1 (-1: unknown, see first_turn)
    # per player: the numbers the public view shows of them at the end (scores, points)
    scores: list[dict[str, float]] = field(default_factory=list)
    end: int = UNKNOWN  # which end rule ended it (Game.end_reason().index)
    # the rule file's measures at the end (Game.measures()): a value, or one per player
    measures: dict[str, Any] = field(default_factory=dict)
    # the seats whose search bot found no world that fits what they saw: the rules'
    # declared bots played them from there (worker.seat_action)
    gave_up: tuple[int, ...] = ()


def rate_text(per_second: float) -> str:
    """Games a second, as many figures as tell it: a run of slow games (search bots)
    plays 0.3 a second, not "0"."""
    if per_second >= 10:
        return f"{per_second:.0f}"
    return f"{per_second:.1f}" if per_second >= 1 else f"{per_second:.2f}"


def ending(r: Record) -> int:
    """A game's ending in one number: who won, how long it lasted in turns and
    decisions, the final public numbers, the end rule and the measures. Two runs whose
    every seed ends alike played games no figure can tell apart (a variant whose change
    never came into play)."""
    scores = tuple(tuple(sorted(row.items())) for row in r.scores)
    measured = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in r.measures.items())
    return hash((r.cut_off, tuple(r.results), r.turns, r.decisions, scores, r.end, measured))


@dataclass
class Summary:
    games: int = 0
    players: int = 0
    seat_wins: list[int] = field(default_factory=list)
    seat_draws: list[int] = field(default_factory=list)
    # "attr=value" -> [games it was in play, games a player of it won, games it drew
    # (none of it won), its seats, their wins]: players of one role win and lose
    # together, so rates count games, not seats (seats alone would narrow the interval
    # as if each were an independent game)
    identity: dict[str, list[int]] = field(default_factory=dict)
    changed: set[str] = field(default_factory=set)  # not identities: changed in a game
    no_winner: int = 0
    turns: int = 0
    decisions: int = 0
    seconds: float = 0.0
    max_decisions: int = DEFAULT_LIMITS.decisions
    cut_off_seeds: list[int] = field(default_factory=list)
    waiting: Span = NO_SPAN  # where the first game cut off was waiting
    # per finished game, for the report's distributions
    game_turns: list[int] = field(default_factory=list)
    game_decisions: list[int] = field(default_factory=list)
    # the seat that moved first: games where it is known, and its wins
    first_games: int = 0
    first_wins: int = 0
    first_others: int = 0  # the wins of the other seats in those games
    # a public number of the players at the end -> its values, per seat
    scores: dict[str, list[list[float]]] = field(default_factory=dict)
    # per seed, how its game ended (see `ending`), when asked for (compare tells
    # identical runs apart; a long simulate need not keep a dict entry per game)
    endings: dict[int, int] | None = None
    # the shortest and the longest finished game, as (decisions, seed): to replay them
    shortest: tuple[int, int] | None = None
    longest: tuple[int, int] | None = None
    # why games ended and what they measured (simulation/measured.py); what the rule
    # file declares of both, for their texts; per seed, the end rule (compare asks)
    why: Tally = field(default_factory=Tally)
    declared: Declared = field(default_factory=Declared)
    ends_by_seed: dict[int, int] | None = None
    # the games in which a search bot found no world that fits what its seat saw (the
    # rules' bots played the seat from there: worker.seat_action), and per seat how many
    gave_up_seeds: list[int] = field(default_factory=list)
    gave_up_seats: dict[int, int] = field(default_factory=dict)

    @property
    def cut_off(self) -> int:
        return len(self.cut_off_seeds)

    @property
    def runs(self) -> int:
        """Every game played: those that finished and those cut off."""
        return self.games + self.cut_off

    def add(self, r: Record) -> None:
        if self.endings is not None:
            self.endings[r.seed] = ending(r)
        if self.ends_by_seed is not None:
            self.ends_by_seed[r.seed] = CUT_OFF if r.cut_off else r.end
        self.why.add_end(CUT_OFF if r.cut_off else r.end)
        if r.gave_up:
            self.gave_up_seeds.append(r.seed)
            for seat in r.gave_up:
                self.gave_up_seats[seat] = self.gave_up_seats.get(seat, 0) + 1
        if r.cut_off:
            if not self.cut_off_seeds or r.seed < min(self.cut_off_seeds):
                self.waiting = r.waiting
            self.cut_off_seeds.append(r.seed)
            return
        if not self.seat_wins:
            self.seat_wins = [0] * len(r.results)
            self.seat_draws = [0] * len(r.results)
        self.games += 1
        self.changed |= r.changed
        self.turns += r.turns
        self.decisions += r.decisions
        self.game_turns.append(r.turns)
        self.game_decisions.append(r.decisions)
        # ties go to the lower seed, so that the order games finish in (--jobs) is moot
        if self.shortest is None or (r.decisions, r.seed) < self.shortest:
            self.shortest = (r.decisions, r.seed)
        if self.longest is None or (r.decisions, -r.seed) > (self.longest[0], -self.longest[1]):
            self.longest = (r.decisions, r.seed)
        if r.first >= 0:
            self.first_games += 1
            first_won = r.results[r.first] == "win"
            self.first_wins += first_won
            self.first_others += r.results.count("win") - first_won
        for seat, numbers in enumerate(r.scores):
            for attr, number in numbers.items():
                per_seat = self.scores.get(attr)
                if per_seat is None:
                    per_seat = self.scores[attr] = [[] for _ in r.results]
                per_seat[seat].append(number)
        self.why.add(r)
        if "win" not in r.results:
            self.no_winner += 1
        held: dict[str, list[str]] = {}  # identity -> the results of its seats
        for seat, result in enumerate(r.results):
            self.seat_wins[seat] += result == "win"
            self.seat_draws[seat] += result == "draw"
            for attr, value in r.secrets[seat].items():
                held.setdefault(f"{attr}={value}", []).append(result)
        for key, results in held.items():
            row = self.identity.setdefault(key, [0, 0, 0, 0, 0])
            won = "win" in results
            row[0] += 1
            row[1] += won
            row[2] += not won and "draw" in results
            row[3] += len(results)
            row[4] += results.count("win")

    def as_json(self) -> dict[str, Any]:
        n = self.games
        seats = []
        for i, (w, d) in enumerate(zip(self.seat_wins, self.seat_draws, strict=True)):
            lo, hi = wilson(w, n)
            seats.append(
                {
                    "seat": i + 1,
                    "wins": w,
                    "draws": d,
                    "win_rate": w / n if n else 0,
                    "win_ci95": [lo, hi],
                    "draw_rate": d / n if n else 0,
                }
            )
        identities = []
        for key, (g, w, d, seats_of, seat_wins) in sorted(self.identity.items()):
            if key.partition("=")[0] in self.changed:
                continue
            lo, hi = wilson(w, g)
            identities.append(
                {
                    "identity": key,
                    "games": g,  # the games where a player had it
                    "wins": w,  # of those, the games a player of it won
                    "draws": d,
                    "win_rate": w / g if g else 0,
                    "win_ci95": [lo, hi],
                    "seats": seats_of,  # the players who had it, over all games
                    "seat_wins": seat_wins,
                }
            )
        return {
            "games": n,  # the games that finished: every rate is over them
            "games_run": self.runs,
            "cut_off": {
                "games": self.cut_off,
                "max_decisions": self.max_decisions,
                "seeds": sorted(self.cut_off_seeds),
            },
            "players": self.players,
            "seats": seats,
            "identities": identities,
            "games_without_winner": self.no_winner,
            "mean_turns": self.turns / n if n else 0,
            "mean_decisions": self.decisions / n if n else 0,
            "first_player": self.first_player(),
            "extremes": self.extremes(),
            "scores": {
                attr: {
                    "mean": mean([v for seat in per_seat for v in seat]),
                    "seat_means": [mean(seat) for seat in per_seat],
                }
                for attr, per_seat in sorted(self.scores.items())
            },
            "search_gave_up": {
                "games": len(self.gave_up_seeds),
                "seeds": sorted(self.gave_up_seeds),
                "seats": [
                    {"seat": s + 1, "games": k} for s, k in sorted(self.gave_up_seats.items())
                ],
            },
            "endings": self.why.endings_json(self.declared, self.runs),
            "measures": self.why.measures_json(self.declared),
            "seconds": self.seconds,
            "games_per_second": self.runs / self.seconds if self.seconds else 0,
        }

    def extremes(self) -> dict[str, dict[str, Any]]:
        """The seeds of the shortest and the longest finished game, by decisions, and of
        the most lopsided (see `measured.margin`): each replays with `--seed S -n 1` and
        the same options and bots."""
        out: dict[str, dict[str, Any]] = {}
        for name, pair in (("shortest", self.shortest), ("longest", self.longest)):
            if pair is not None:
                out[name] = {"decisions": pair[0], "seed": pair[1]}
        lopsided = self.why.lopsided_json()
        if lopsided is not None:
            out["lopsided"] = lopsided
        return out

    def first_player(self) -> dict[str, Any]:
        """The seat that took turn 1 against the others, over the games where it is
        known: each one's win rate with its 95% interval."""
        n, others = self.first_games, self.first_games * max(0, self.players - 1)
        return {
            "games": n,
            "wins": self.first_wins,
            "win_rate": self.first_wins / n if n else 0,
            "win_ci95": list(wilson(self.first_wins, n)),
            "others_wins": self.first_others,
            "others_win_rate": self.first_others / others if others else 0,
            "others_win_ci95": list(wilson(self.first_others, others)),
        }

    def table(self, played_by: str | None = None) -> str:
        """The summary as text; `played_by` (who played the seats) under its first line."""
        data = self.as_json()
        lines = [
            f"{counted(data['games'], 'game')}, {counted(self.players, 'player')}, "
            f"{rate_text(data['games_per_second'])} games/s",
            "",
        ]
        if played_by:
            lines.insert(1, played_by)
        if self.cut_off:
            lines[0] = (
                f"{counted(self.runs, 'game')}, {counted(self.players, 'player')}, "
                f"{rate_text(data['games_per_second'])} games/s; "
                f"the rates are over the {data['games']} games that finished"
            )
        # one width for the first column of both tables: the longest label, so that a
        # long identity (role=gold_seeker_apprentice) does not push its row out of line
        width = max(
            [18] + [columns(row["identity"]) + 2 for row in data["identities"]],
        )
        lines.append(f"{'seat':<{width}}{'win rate':>10}{'95% interval':>18}{'draws':>9}")
        for s in data["seats"]:
            lo, hi = s["win_ci95"]
            lines.append(
                f"{'seat ' + str(s['seat']):<{width}}{s['win_rate']:>10.1%}"
                f"{f'{lo:.1%} - {hi:.1%}':>18}{s['draw_rate']:>9.1%}"
            )
        if data["identities"]:
            lines.append("")
            lines.append(
                f"{'secret identity':<{width}}{'win rate':>10}{'95% interval':>18}"
                f"{'draws':>9}{'games':>8}{'seats':>8}"
            )
            for row in data["identities"]:
                lo, hi = row["win_ci95"]
                draws = row["draws"] / row["games"] if row["games"] else 0
                lines.append(
                    f"{pad(row['identity'], width)}{row['win_rate']:>10.1%}"
                    f"{f'{lo:.1%} - {hi:.1%}':>18}{draws:>9.1%}{row['games']:>8}"
                    f"{row['seats']:>8}"
                )
            lines.append(
                "(an identity's win rate: of the games where a player had it, those a "
                "player of it won)"
            )
        lines.append("")
        first = data["first_player"]
        if first["games"] and self.players > 1:
            lo, hi = first["win_ci95"]
            olo, ohi = first["others_win_ci95"]
            lines.append(
                f"first player (took turn 1): wins {first['win_rate']:.1%} "
                f"({lo:.1%} - {hi:.1%}); each other player {first['others_win_rate']:.1%} "
                f"({olo:.1%} - {ohi:.1%})"
            )
        if self.cut_off:
            lines.append(self.cut_off_line())
        if self.gave_up_seeds:
            lines.append(self.gave_up_line())
        lines.append(
            f"games without a winner: {data['games_without_winner']} "
            f"({data['games_without_winner'] / max(1, data['games']):.1%})"
        )
        lines.append(
            f"mean game length{' (finished games)' if self.cut_off else ''}: "
            f"{data['mean_turns']:.1f} turns, "
            f"{data['mean_decisions']:.1f} decisions"
        )
        ends = data["extremes"]
        if ends and data["games"] > 1:
            lines.append(
                f"shortest game: {ends['shortest']['decisions']} decisions (seed "
                f"{ends['shortest']['seed']}); longest: {ends['longest']['decisions']} "
                f"(seed {ends['longest']['seed']}); replay one with --seed S -n 1"
            )
            lopsided = ends.get("lopsided")
            if lopsided:
                lines.append(f"most lopsided game: {lopsided_words(lopsided)}")
        lines += endings_lines(data["endings"], self.max_decisions)
        lines += measures_lines(data["measures"])
        return "\n".join(lines)

    def cut_off_line(self, shown: int = 5) -> str:
        """ "cut off by --max-decisions N: K games (x%), seeds ...": the first seeds, to
        play one again (`--seed S -n 1` with the same options)."""
        seeds = sorted(self.cut_off_seeds)
        listed = ", ".join(str(s) for s in seeds[:shown])
        more = f" and {len(seeds) - shown} more" if len(seeds) > shown else ""
        return (
            f"cut off by --max-decisions {self.max_decisions}: {self.cut_off} games "
            f"({self.cut_off / max(1, self.runs):.1%}), seeds {listed}{more}"
        )

    def gave_up_line(self, shown: int = 5) -> str:
        """In how many games a search bot found no world and the rules' bots took over."""
        seeds = sorted(self.gave_up_seeds)
        listed = ", ".join(str(s) for s in seeds[:shown])
        more = f" and {len(seeds) - shown} more" if len(seeds) > shown else ""
        seats = ", ".join(str(s + 1) for s in sorted(self.gave_up_seats))
        return (
            f"search found no world that fits what its seat saw: {counted(len(seeds), 'game')} "
            f"({len(seeds) / max(1, self.runs):.1%}), seeds {listed}{more}; from there the "
            f"rules' bots played {'seat' if len(self.gave_up_seats) == 1 else 'seats'} "
            f"{seats} (random where none are declared)"
        )

    def warning(self) -> str:
        """The stderr line when some games were cut off (and some finished)."""
        return (
            f"warning: {self.cut_off} of {self.runs} games were cut off by --max-decisions "
            f"{self.max_decisions} (first seed {min(self.cut_off_seeds)}); the win rates are "
            f"over the {self.games} games that finished"
        )

    def never_ended(self) -> GameRuntimeError:
        """R010 when every game was cut off: nothing to summarise."""
        first = min(self.cut_off_seeds)
        what = (
            f"the game with seed {first} did not end after {self.max_decisions} decisions by bots"
        )
        if self.runs > 1:
            what = f"all {self.runs} games were cut off: {what}"
        return errors.never_ends(what, self.waiting)
