"""Simulate many random games, in parallel if asked, and summarise who wins."""

from __future__ import annotations

import math
import random
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from multiprocessing import Pool
from typing import Any

from rulelang import CHANCE, PUBLIC, Game, Ruleset
from rulelang.api import compile_file
from rulelang.cli.errors import never_ends
from rulelang.limits import DEFAULT_LIMITS, Limits
from rulelang.runtime.bots import RANDOM

CHUNK = 25


@dataclass
class Record:
    results: list[str]
    turns: int
    decisions: int
    secrets: list[dict[str, str]]  # per player: secret attribute -> value


@lru_cache(maxsize=4)
def _rules(path: str, limits: Limits) -> Ruleset:
    """The ruleset a worker plays, compiled once per process (keyed by the limits too:
    they are written into the generated code)."""
    return compile_file(path, limits=limits)


def bot_rng(seed: int) -> random.Random:
    """The random bots' generator, derived from the game's one seed."""
    return random.Random(f"bots:{seed}")


def record(game: Game, decisions: int) -> Record:
    # a secret identity: a single value a player sees of their own seat and nobody else
    # does (not a hand of cards), as the views derived from the rule file say
    public = game.view(PUBLIC, only={"players"})["players"]
    secrets = []
    for p in range(game.players):
        own = game.view(p, only={"players"})["players"][p]
        shown = public[p]
        secrets.append(
            {k: str(v) for k, v in own.items() if k not in shown and not isinstance(v, list | dict)}
        )
    return Record(game.results(), game.turn_number, decisions, secrets)


# the bot of each seat: a name ("random" or a declared bot), or None for the declared
# bots (random when the rules declare none)
SeatBots = tuple[str | None, ...]
Chunk = tuple[str, int, list[int], dict[str, str], Limits, SeatBots]


def play_chunk(args: Chunk) -> list[Record]:
    """Play the games of some seeds (in a worker process when --jobs > 1: everything it
    needs, the limits too, is in `args`)."""
    path, players, seeds, options, limits, *rest = args
    seat_bots: SeatBots = tuple(rest[0]) if rest else ()
    rules = _rules(path, limits)
    most = limits.decisions
    random_only = not rules.bots or bool(seat_bots) and all(b == RANDOM for b in seat_bots)
    out = []
    for seed in seeds:
        game = rules.new_game(players, seed, options)
        if random_only:  # the fast path: the generated code takes the decisions
            decisions = game.playout(bot_rng(seed), max_decisions=most)
        else:
            decisions = play_bots(game, seat_bots, most)
        if not game.is_over():
            raise never_ends(
                game, f"the game with seed {seed} did not end after {most} decisions by bots"
            )
        out.append(record(game, decisions))
    return out


def play_bots(game: Game, seat_bots: SeatBots, most: int) -> int:
    """Play on with each seat's bot (`Game.bot_choice`) until the end or `most`
    decisions; return how many were taken."""
    taken = 0
    while not game.is_over() and taken < most:
        who = game.current_player()
        if who == CHANCE:
            game.resolve_chance()
            continue
        game.apply(game.bot_choice(seat_bots[who] if who < len(seat_bots) else None))
        taken += 1
    return taken


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the main process, which stops them all at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_games(
    path: str,
    players: int,
    n: int,
    seed: int,
    options: dict[str, str],
    jobs: int,
    limits: Limits = DEFAULT_LIMITS,
    seat_bots: SeatBots = (),
) -> Iterator[list[Record]]:
    seeds = list(range(seed, seed + n))
    chunks: list[Chunk] = [
        (path, players, seeds[i : i + CHUNK], options, limits, seat_bots)
        for i in range(0, n, CHUNK)
    ]
    if jobs <= 1:
        for chunk in chunks:
            yield play_chunk(chunk)
        return
    pool = Pool(jobs, initializer=_ignore_interrupts)
    try:
        yield from pool.imap_unordered(play_chunk, chunks)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for k successes out of n."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Summary:
    games: int = 0
    players: int = 0
    seat_wins: list[int] = field(default_factory=list)
    seat_draws: list[int] = field(default_factory=list)
    # "attr=value" -> [games, wins, draws]
    identity: dict[str, list[int]] = field(default_factory=dict)
    no_winner: int = 0
    turns: int = 0
    decisions: int = 0
    seconds: float = 0.0

    def add(self, r: Record) -> None:
        if not self.seat_wins:
            self.seat_wins = [0] * len(r.results)
            self.seat_draws = [0] * len(r.results)
        self.games += 1
        self.turns += r.turns
        self.decisions += r.decisions
        if "win" not in r.results:
            self.no_winner += 1
        for seat, result in enumerate(r.results):
            self.seat_wins[seat] += result == "win"
            self.seat_draws[seat] += result == "draw"
            for attr, value in r.secrets[seat].items():
                row = self.identity.setdefault(f"{attr}={value}", [0, 0, 0])
                row[0] += 1
                row[1] += result == "win"
                row[2] += result == "draw"

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
        for key, (g, w, d) in sorted(self.identity.items()):
            lo, hi = wilson(w, g)
            identities.append(
                {
                    "identity": key,
                    "games": g,
                    "wins": w,
                    "draws": d,
                    "win_rate": w / g if g else 0,
                    "win_ci95": [lo, hi],
                }
            )
        return {
            "games": n,
            "players": self.players,
            "seats": seats,
            "identities": identities,
            "games_without_winner": self.no_winner,
            "mean_turns": self.turns / n if n else 0,
            "mean_decisions": self.decisions / n if n else 0,
            "seconds": self.seconds,
            "games_per_second": n / self.seconds if self.seconds else 0,
        }

    def table(self) -> str:
        data = self.as_json()
        lines = [
            f"{data['games']} games, {self.players} players, "
            f"{data['games_per_second']:.0f} games/s",
            "",
        ]
        lines.append(f"{'seat':<18}{'win rate':>10}{'95% interval':>18}{'draws':>9}")
        for s in data["seats"]:
            lo, hi = s["win_ci95"]
            lines.append(
                f"{'seat ' + str(s['seat']):<18}{s['win_rate']:>10.1%}"
                f"{f'{lo:.1%} - {hi:.1%}':>18}{s['draw_rate']:>9.1%}"
            )
        if data["identities"]:
            lines.append("")
            lines.append(
                f"{'secret identity':<18}{'win rate':>10}{'95% interval':>18}"
                f"{'draws':>9}{'games':>8}"
            )
            for row in data["identities"]:
                lo, hi = row["win_ci95"]
                draws = row["draws"] / row["games"] if row["games"] else 0
                lines.append(
                    f"{row['identity']:<18}{row['win_rate']:>10.1%}"
                    f"{f'{lo:.1%} - {hi:.1%}':>18}{draws:>9.1%}{row['games']:>8}"
                )
        lines.append("")
        lines.append(
            f"games without a winner: {data['games_without_winner']} "
            f"({data['games_without_winner'] / max(1, data['games']):.1%})"
        )
        lines.append(
            f"mean game length: {data['mean_turns']:.1f} turns, "
            f"{data['mean_decisions']:.1f} decisions"
        )
        return "\n".join(lines)


def simulate(
    path: str,
    players: int,
    n: int,
    seed: int,
    options: dict[str, str],
    jobs: int,
    progress: Callable[[int], None],
    limits: Limits = DEFAULT_LIMITS,
    seat_bots: SeatBots = (),
) -> Summary:
    summary = Summary(players=players)
    start = time.perf_counter()
    for chunk in run_games(path, players, n, seed, options, jobs, limits, seat_bots):
        for r in chunk:
            summary.add(r)
        progress(len(chunk))
    summary.seconds = time.perf_counter() - start
    return summary
