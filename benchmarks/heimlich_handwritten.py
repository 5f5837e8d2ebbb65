"""Hand-written baseline: random games of Heimlich & Co (basic game).

Plain, idiomatic Python used as the baseline for interpreter benchmarks.
"""

from __future__ import annotations

import argparse
import random
import time

N_BUILDINGS = 12
SAFE_START = 7
WIN_SCORE = 42
DIE_FACES: list[int | str] = ["1-3", 2, 3, 4, 5, 6]
# Building i scores i points for 1..10, the church (0) scores 0, the ruin (11) -3.
BUILDING_POINTS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -3]
AGENTS_FOR_PLAYERS = {2: 5, 3: 6, 4: 7, 5: 7, 6: 7, 7: 7}


def play_game(n_players: int, rng: random.Random) -> tuple[list[str], int]:
    """Play one random game; return (outcome per player, number of decisions)."""
    n_agents = AGENTS_FOR_PLAYERS[n_players]
    positions = [0] * n_agents
    scores = [0] * n_agents
    safe = SAFE_START
    perm = list(range(n_agents))
    rng.shuffle(perm)
    secret = perm[:n_players]  # player i's secret agent is perm[i]
    decisions = 0
    player = 0

    while True:
        face = rng.choice(DIE_FACES)
        if face == "1-3":
            points = rng.choice([1, 2, 3])
            decisions += 1
        else:
            assert isinstance(face, int)
            points = face

        left = points
        moved: set[int] = set()
        while left > 0:
            agent = rng.randrange(n_agents)
            steps = rng.randint(1, left)
            decisions += 2
            positions[agent] = (positions[agent] + steps) % N_BUILDINGS
            left -= steps
            moved.add(agent)

        if any(positions[agent] == safe for agent in moved):
            for agent in range(n_agents):
                scores[agent] += BUILDING_POINTS[positions[agent]]
            if max(scores) >= WIN_SCORE:
                break
            safe = rng.choice([b for b in range(N_BUILDINGS) if b != safe])
            decisions += 1

        player = (player + 1) % n_players

    return outcomes(scores, secret), decisions


def outcomes(scores: list[int], secret: list[int]) -> list[str]:
    """Map final agent scores to a win/draw/loss result for each player."""
    best = max(scores)
    top_players = [p for p, agent in enumerate(secret) if scores[agent] == best]
    if not top_players:
        return ["draw"] * len(secret)
    if len(top_players) == 1:
        return ["win" if p in top_players else "loss" for p in range(len(secret))]
    return ["draw" if p in top_players else "loss" for p in range(len(secret))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    total_decisions = 0
    seat1_wins = 0
    seat1_draws = 0

    start = time.perf_counter()
    for _ in range(args.games):
        result, decisions = play_game(args.players, rng)
        total_decisions += decisions
        seat1_wins += result[1] == "win"
        seat1_draws += result[1] == "draw"
    seconds = time.perf_counter() - start

    print(
        f"handwritten heimlich: players={args.players} games={args.games} "
        f"seconds={seconds:.3f} games_per_second={args.games / seconds:.1f} "
        f"mean_decisions={total_decisions / args.games:.1f}"
    )
    print(
        f"seat 1: win_fraction={seat1_wins / args.games:.4f} "
        f"draw_fraction={seat1_draws / args.games:.4f}"
    )


if __name__ == "__main__":
    main()
