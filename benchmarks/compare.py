"""Fair CPU-time comparison: rulelang against hand-written Python, in one process.

Three programs play random games of the same rules, each decision uniform among the
legal options:

  fast  rulelang's simulation fast path, `game.playout(rng, quiet=True)`;
  plain the yardstick: plain Python of the same rules, written outside the project
        (../shared/yardsticks/<game>_plain.py; `--against hand` takes the project's
        own benchmarks/heimlich_handwritten.py instead, for Heimlich);
  api   rulelang through the public API, one `legal_actions()` (with the action
        texts) and one `apply()` per decision. It plays exactly the games the fast
        path plays: same game seeds, same decision generator.

Two more compare like with like, as the first three do not: `fast` is quiet (it keeps
no log) where `api` keeps one, so `api / fast` mixes a loud path with a quiet one.

  fast-loud  the fast path keeping its log, `game.playout(rng)`: `api / fast-loud`
             compares two loud paths;
  api-quiet  the API path of quiet games, `new_game(..., quiet=True)`, which keep no
             log either: `api-quiet / fast` compares two quiet paths.

The programs alternate in blocks (the order rotates from block to block), each block
timed with time.process_time(); the slowdowns reported are medians over the blocks of
the per-block ratios, so a noisy shared machine affects both sides of each ratio alike.

    python benchmarks/compare.py --game saboteur
    python benchmarks/compare.py --game heimlich
    python benchmarks/compare.py --game saboteur clone view validate
    python benchmarks/compare.py --game saboteur digest    # the same games on two trees?

Heimlich's yardstick spends a move one (agent, steps) choice at a time where the rule
file asks agent and steps apart, so it takes fewer decisions a game: the slowdown is
per game, and the decisions printed beside each program show what each game did.

Stdlib only, besides rulelang itself.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import importlib
import os
import platform
import random
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import rulelang

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

MEASURES = ("playouts", "clone", "view", "validate", "digest")
# game -> (rule file, the project's own hand-written module or None, default players).
# Saboteur has none: the one it had was 2.4x slower than the yardstick (it searched
# the maze afresh for every card), so it made rulelang look faster than it is.
GAMES: dict[str, tuple[str, str | None, tuple[int, ...]]] = {
    "heimlich": ("heimlich.rules", "heimlich_handwritten", (2, 4, 7)),
    "saboteur": ("saboteur.rules", None, (3, 5, 10)),
}
YARDSTICKS = ROOT.parent / "shared" / "yardsticks"


class Yardstick:
    """A yardstick module seen as `play_game(players, rng) -> (result, decisions)`."""

    def __init__(self, game: str, folder: Path):
        sys.path.insert(0, str(folder))
        self.module = importlib.import_module(f"{game}_plain")
        self.game = game

    def play_game(self, players: int, rng: random.Random) -> tuple[object, int]:
        if self.game == "saboteur":
            winners, decisions = self.module.play_match(players, rng)
            return winners, decisions
        winners, _turns, decisions = self.module.play(players, rng, "split")
        return winners, decisions


# ------------------------------------------------------------------ rulelang's names
# Everything this file needs from rulelang is reached through these few functions, so
# that a change of import names in the runtime is adapted here and nowhere else.
def compile_rules(path: Path) -> Any:
    return rulelang.compile_file(path)


def new_game(rules: Any, players: int, seed: int, quiet: bool = False) -> Any:
    """A game; a quiet one keeps no log (`Game.quiet`)."""
    return rules.new_game(players, seed, quiet=quiet)


def public(game: Any) -> Any:
    """What every player sees of a game."""
    return game.view(rulelang.PUBLIC)


def chance_player() -> int:
    """The value of current_player() when a chance event waits."""
    return int(rulelang.CHANCE)


def validate_command(rules_file: Path) -> list[str]:
    """A cold `rulelang validate FILE`, as a user types it."""
    script = Path(sys.executable).with_name("rulelang")
    if script.exists():
        return [str(script), "validate", str(rules_file)]
    code = "import sys; from rulelang.cli.main import main; sys.argv[0] = 'rulelang'; main()"
    return [sys.executable, "-c", code, "validate", str(rules_file)]


CHANCE = chance_player()


# ------------------------------------------------------------------ the programs
# Each plays `games` games and returns the decisions taken. Block b of every program
# uses the decision generator random.Random(seed + b); rulelang game i of block b has
# the seed game_seed(seed, b, i), so the fast and API paths play the same games.
def game_seed(seed: int, block: int, i: int) -> int:
    return seed * 1_000_003 + block * 100_003 + i


def run_fast(rules: Any, players: int, games: int, seed: int, block: int) -> int:
    rng = random.Random(seed + block)
    decisions = 0
    for i in range(games):
        decisions += new_game(rules, players, game_seed(seed, block, i)).playout(rng, quiet=True)
    return decisions


def run_fast_loud(rules: Any, players: int, games: int, seed: int, block: int) -> int:
    rng = random.Random(seed + block)
    decisions = 0
    for i in range(games):
        decisions += new_game(rules, players, game_seed(seed, block, i)).playout(rng)
    return decisions


def run_api(
    rules: Any, players: int, games: int, seed: int, block: int, quiet: bool = False
) -> int:
    rng = random.Random(seed + block)
    decisions = 0
    for i in range(games):
        decisions += api_game(new_game(rules, players, game_seed(seed, block, i), quiet), rng)
    return decisions


def api_game(game: Any, rng: random.Random, limit: int | None = None) -> int:
    """Play on through the public API (to the end, or `limit` decisions)."""
    decisions = 0
    while not game.is_over() and (limit is None or decisions < limit):
        if game.current_player() == CHANCE:
            game.resolve_chance()
        else:
            actions = game.legal_actions()
            game.apply(actions[int(rng.random() * len(actions))])
            decisions += 1
    return decisions


def run_hand(module: Any, players: int, games: int, seed: int, block: int) -> int:
    rng = random.Random(seed + block)
    decisions = 0
    for _ in range(games):
        decisions += module.play_game(players, rng)[1]
    return decisions


def timed(run: Callable[[], int]) -> tuple[float, int]:
    gc.collect()
    start = time.process_time()
    decisions = run()
    return time.process_time() - start, decisions


def calibrate(run: Callable[[int], int], seconds: float) -> float:
    """Games per CPU second, from a warm-up of about `seconds`. The first game, which
    pays one-off costs (e.g. the template of a player count), is not counted."""
    run(1)
    games, spent = 0, 0.0
    batch = 1
    while spent < seconds:
        spent += timed(lambda b=batch: run(b))[0]
        games += batch
        batch *= 2
    return games / spent


# ------------------------------------------------------------------ measurements
def playouts(args: argparse.Namespace, rules: Any, module: Any) -> None:
    print(
        f"{'players':>7} {'program':<9} {'games/block':>11} {'games/s':>9} "
        f"{'decisions/game':>14} {'slowdown (median, min-max over blocks)':>40}"
    )
    print("        (fast and api-quiet keep no log, api and fast-loud keep one)")
    for players in args.players:

        def fast(g: int, b: int = -1, p: int = players) -> int:
            return run_fast(rules, p, g, args.seed, b)

        def api(g: int, b: int = -1, p: int = players) -> int:
            return run_api(rules, p, g, args.seed, b)

        def fast_loud(g: int, b: int = -1, p: int = players) -> int:
            return run_fast_loud(rules, p, g, args.seed, b)

        def api_quiet(g: int, b: int = -1, p: int = players) -> int:
            return run_api(rules, p, g, args.seed, b, quiet=True)

        def hand(g: int, b: int = -1, p: int = players) -> int:
            return run_hand(module, p, g, args.seed, b)

        # warm-up and block sizes: each block of fast and hand takes about
        # --block-seconds; the API path plays the very games of the fast path
        n_rl = max(1, round(calibrate(fast, args.warmup) * args.block_seconds))
        n_hand = max(1, round(calibrate(hand, args.warmup) * args.block_seconds))
        calibrate(api, args.warmup / 2)
        calibrate(api_quiet, args.warmup / 4)
        programs = {
            "fast": (fast, n_rl),
            args.against: (hand, n_hand),
            "api": (api, n_rl),
            "fast-loud": (fast_loud, n_rl),
            "api-quiet": (api_quiet, n_rl),
        }
        seconds: dict[str, list[float]] = {name: [] for name in programs}
        decisions: dict[str, int] = dict.fromkeys(programs, 0)
        names = list(programs)
        for block in range(args.blocks):
            turn = block % len(names)
            for name in names[turn:] + names[:turn]:
                fn, games = programs[name]
                spent, taken = timed(lambda fn=fn, games=games, b=block: fn(games, b))
                seconds[name].append(spent)
                decisions[name] += taken
        per_game = {name: [s / programs[name][1] for s in seconds[name]] for name in names}
        vs_hand = [f / h for f, h in zip(per_game["fast"], per_game[args.against], strict=True)]
        slowdowns = {
            "fast": (f"fast / {args.against}", vs_hand),
            "api": ("api / fast", per_block(per_game, "api", "fast")),
            "fast-loud": ("api / fast-loud", per_block(per_game, "api", "fast-loud")),
            "api-quiet": ("api-quiet / fast", per_block(per_game, "api-quiet", "fast")),
        }
        for name in names:
            games = programs[name][1]
            rate = games * args.blocks / sum(seconds[name])
            mean = decisions[name] / (games * args.blocks)
            text = ""
            if name in slowdowns:
                label, blocks = slowdowns[name]
                text = (
                    f"{label} {statistics.median(blocks):5.2f}x "
                    f"({min(blocks):.2f}-{max(blocks):.2f})"
                )
            print(f"{players:>7} {name:<9} {games:>11} {rate:>9.1f} {mean:>14.1f} {text:>40}")
        for name in ("api", "fast-loud", "api-quiet"):
            if decisions[name] != decisions["fast"]:
                print(
                    f"{'':>7} warning: {name} took {decisions[name]} decisions, the fast "
                    f"path {decisions['fast']}: they did not play the same games"
                )
        sys.stdout.flush()


def per_block(per_game: dict[str, list[float]], top: str, bottom: str) -> list[float]:
    """Per block, top's time a game over bottom's."""
    return [a / b for a, b in zip(per_game[top], per_game[bottom], strict=True)]


def in_progress(rules: Any, players: int, seed: int, after: int) -> Any:
    game = new_game(rules, players, seed)
    api_game(game, random.Random(seed), limit=after)
    return game


def per_call(call: Callable[[], object], calls: int, batches: int) -> float:
    """Median over batches of the CPU µs per call."""
    results = []
    for _ in range(batches):
        gc.collect()
        start = time.process_time()
        for _ in range(calls):
            call()
        results.append((time.process_time() - start) / calls * 1e6)
    return statistics.median(results)


def clones_and_views(args: argparse.Namespace, rules: Any, what: str) -> None:
    """µs per game.clone() or game.view(p), of games after --after decisions."""
    for players in args.players:
        samples = []
        for k in range(args.positions):
            game = in_progress(rules, players, args.seed + k, args.after)
            viewer = k % players
            if what == "clone":
                call: Callable[[], object] = game.clone
            else:

                def call(game: Any = game, viewer: int = viewer) -> object:
                    return game.view(viewer)

            call()
            calls = 400 if what == "clone" else 40
            samples.append(per_call(call, calls, args.batches))
        print(
            f"{what:>8}: {players:>2} players, after {args.after} decisions: "
            f"{statistics.median(samples):8.1f} µs per call (median over {args.positions} "
            f"games x {args.batches} batches; games: {min(samples):.1f}-{max(samples):.1f})"
        )


def digest(args: argparse.Namespace, rules: Any, games: int = 40) -> None:
    """One hash of what `games` fast-path games at each player count did (seeds 1..N,
    decisions drawn from random.Random(seed)): decisions, results, measures, record
    and public view. Two trees that print the same digest played the same games."""
    h = hashlib.sha256()
    for players in args.players:
        for seed in range(1, games + 1):
            game = new_game(rules, players, seed)
            decisions = game.playout(random.Random(seed))
            seen = (decisions, game.results(), game.measures(), game.record(), public(game))
            h.update(repr(seen).encode())
    counts = "/".join(str(p) for p in args.players)
    print(f"  digest: {games} games at {counts} players each: {h.hexdigest()[:16]}")


def child_cpu(argv: list[str]) -> float:
    # bytecode kept, as pip writes it when it installs rulelang: without it (say
    # PYTHONDONTWRITEBYTECODE=1 and an editable install) every start compiles the
    # sources again, about 0.05-0.1 s more
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def validate(args: argparse.Namespace, rules_file: Path) -> None:
    """A cold `rulelang validate` of the file as it is (its AST kept from an earlier
    run), of a copy just edited (a comment added before each run: it must be parsed),
    and `python -c pass`, the floor."""
    command = validate_command(rules_file.relative_to(ROOT))  # run in ROOT
    reference = [sys.executable, "-c", "pass"]
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / rules_file.name
        for data in rules_file.parent.glob("*.yaml"):  # the data files it may read
            shutil.copy(data, folder)
        text = rules_file.read_text(encoding="utf-8")
        edited = validate_command(copy)

        def edit(run: int) -> None:
            copy.write_text(f"{text}\n# edited {time.time()} {run}\n", encoding="utf-8")

        rows = (("validate", command, None), ("edited", edited, edit), ("python", reference, None))
        for label, argv, before in rows:
            if before is not None:
                before(-1)
            child_cpu(argv)  # not timed: writes the bytecode and the kept AST
            runs = []
            for run in range(args.runs):
                if before is not None:
                    before(run)
                runs.append(child_cpu(argv))
            shown = shlex.join(
                ["python", *argv[1:]] if label == "python" else ["rulelang", *argv[1:]]
            )
            if label == "edited":
                shown = f"rulelang validate {rules_file.name}"
            print(
                f"{label:>8}: {statistics.median(runs):6.3f} CPU s, median of {args.runs} "
                f"({min(runs):.3f}-{max(runs):.3f})  `{shown}`"
                + (" (a copy, edited before each run)" if label == "edited" else "")
            )


# ------------------------------------------------------------------ the command
def command_line(args: argparse.Namespace, what: list[str]) -> str:
    parts = [
        "python",
        "benchmarks/compare.py",
        "--game",
        args.game,
        "--players",
        *map(str, args.players),
        "--seed",
        str(args.seed),
    ]
    if "playouts" in what:
        parts += [
            "--blocks",
            str(args.blocks),
            "--block-seconds",
            str(args.block_seconds),
            "--warmup",
            str(args.warmup),
            "--against",
            args.against,
        ]
    if "clone" in what or "view" in what:
        parts += [
            "--after",
            str(args.after),
            "--positions",
            str(args.positions),
            "--batches",
            str(args.batches),
        ]
    if "validate" in what:
        parts += ["--runs", str(args.runs)]
    return shlex.join(parts + what)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "what",
        nargs="*",
        help="what to measure: playouts (the default), clone, view, validate, or all",
    )
    parser.add_argument("--game", choices=sorted(GAMES), default="saboteur")
    parser.add_argument(
        "--players",
        type=int,
        nargs="+",
        help="player counts (default: heimlich 2 4 7, saboteur 3 5 10)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--blocks", type=int, default=9, help="blocks of each program")
    parser.add_argument(
        "--block-seconds",
        type=float,
        default=0.7,
        help="CPU seconds of a block of the fast path or hand-written games",
    )
    parser.add_argument(
        "--warmup", type=float, default=0.5, help="CPU seconds of warm-up that sizes the blocks"
    )
    parser.add_argument(
        "--after", type=int, default=50, help="clone, view: decisions played before measuring"
    )
    parser.add_argument(
        "--positions", type=int, default=5, help="clone, view: games in progress measured"
    )
    parser.add_argument(
        "--batches", type=int, default=15, help="clone, view: timed batches per game in progress"
    )
    parser.add_argument("--runs", type=int, default=7, help="validate: runs of each command")
    parser.add_argument(
        "--against",
        choices=("plain", "hand"),
        default="plain",
        help="playouts: the yardstick (plain, the default) or benchmarks/<game>_handwritten.py",
    )
    parser.add_argument(
        "--yardsticks", type=Path, default=YARDSTICKS, help="the yardsticks' folder"
    )
    args = parser.parse_args()
    asked = args.what or ["playouts"]
    for w in asked:
        if w not in MEASURES + ("all",):
            parser.error(f"nothing called '{w}' to measure: {', '.join(MEASURES)} or all")
    what = [w for w in MEASURES if w in asked or "all" in asked]
    rules_name, module_name, default_players = GAMES[args.game]
    args.players = args.players or list(default_players)
    rules_file = ROOT / "rulesets" / rules_name

    print(f"{args.game}: {command_line(args, what)}")
    print(
        f"python {platform.python_version()} on {platform.machine()}, "
        f"rulelang from {Path(rulelang.__file__).parent}"
    )
    start = time.perf_counter()
    rules = compile_rules(rules_file) if what != ["validate"] else None
    if "playouts" in what:
        if args.against == "plain":
            module: Any = Yardstick(args.game, args.yardsticks)
        elif module_name is None:
            parser.error(f"--against hand: no hand-written {args.game} here; the yardstick is")
        else:
            module = importlib.import_module(module_name)
        playouts(args, rules, module)
    for w in ("clone", "view"):
        if w in what:
            clones_and_views(args, rules, w)
    if "validate" in what:
        validate(args, rules_file)
    if "digest" in what:
        digest(args, rules)
    print(f"({time.perf_counter() - start:.0f} s wall clock)")


if __name__ == "__main__":
    main()
