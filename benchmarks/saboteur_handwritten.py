"""Hand-written baseline: random matches of Saboteur, as rulesets/saboteur.rules plays them.

Plain, idiomatic Python used as the baseline for interpreter benchmarks. It follows the
rule file exactly (a match of 3 rounds, the cards of rulesets/saboteur-cards.yaml) and
takes its random decisions at the same granularity: every `choose` of the rule file is
one decision, uniform among the options that pass its `require`s (the card, play or
discard, the spot, the turn, the victim, the patient, the goal to look at, the tunnel
that collapses, each gold card taken). Shuffles and the first player are chance events.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml

CARDS_FILE = Path(__file__).resolve().parent.parent / "rulesets" / "saboteur-cards.yaml"

ROUNDS = 3
SABOTEUR_CARDS = {3: 1, 4: 1, 5: 2, 6: 2, 7: 3, 8: 3, 9: 3, 10: 4}
MINER_CARDS = {3: 3, 4: 4, 5: 4, 6: 5, 7: 5, 8: 6, 9: 7, 10: 7}
HAND_SIZE = {3: 6, 4: 6, 5: 6, 6: 5, 7: 5, 8: 4, 9: 4, 10: 4}
SABOTEUR_PAY = {0: 0, 1: 4, 2: 3, 3: 3, 4: 2}  # by the number of saboteurs
NUGGETS = [1] * 16 + [2] * 8 + [3] * 4

# The maze: x grows towards the goals, y upwards. Directions: 0 N, 1 E, 2 S, 3 W.
X_RANGE, Y_RANGE = range(-6, 15), range(-8, 9)
START = (0, 0)
GOALS = ((8, 2), (8, 0), (8, -2))
OPPOSITE = (2, 3, 0, 1)

Cell = tuple[int, int]
Edges = tuple[bool, bool, bool, bool]  # open sides N, E, S, W of a card as it lies
T = TypeVar("T")


def _neighbours(x: int, y: int) -> tuple[Cell | None, ...]:
    out: list[Cell | None] = []
    for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
        nx, ny = x + dx, y + dy
        out.append((nx, ny) if nx in X_RANGE and ny in Y_RANGE else None)
    return tuple(out)


# NEIGHBOURS[cell][d]: the next cell in direction d, or None off the table
NEIGHBOURS = {(x, y): _neighbours(x, y) for x in X_RANGE for y in Y_RANGE}


@dataclass(frozen=True, eq=False, slots=True)
class Card:
    name: str
    kind: str  # path, start, gold, stone, broken, repair, map, rockfall
    edges: Edges  # turned 0 degrees
    edges_180: Edges  # turned 180 degrees
    joined: bool  # False: a dead end, no path passes through it
    tools: tuple[str, ...]


def load_cards(path: Path = CARDS_FILE) -> list[Card]:
    cards = []
    for entry in yaml.safe_load(path.read_text()):
        e = entry.get("edges", [False] * 4)
        edges: Edges = (e[0], e[1], e[2], e[3])
        card = Card(
            entry["name"],
            entry["kind"],
            edges,
            (e[2], e[3], e[0], e[1]),
            entry.get("joined", True),
            tuple(entry.get("tools", [])),
        )
        cards += [card] * entry.get("count", 1)
    return cards


CARDS = load_cards()
START_CARD = next(c for c in CARDS if c.kind == "start")
GOAL_CARDS = [c for c in CARDS if c.kind in ("gold", "stone")]
DECK = [c for c in CARDS if c.kind not in ("start", "gold", "stone")]


class Maze:
    """The cards on the table: cell -> (card, open sides as it lies); goals face down."""

    def __init__(self, goals: list[Card]):
        self.tiles: dict[Cell, tuple[Card, Edges]] = {START: (START_CARD, START_CARD.edges)}
        for cell, card in zip(GOALS, goals, strict=True):
            self.tiles[cell] = (card, card.edges)
        self.face_down = set(GOALS)
        self._network: tuple[set[Cell], list[Cell], list[Cell]] | None = None

    def place(self, cell: Cell, card: Card, edges: Edges) -> None:
        self.tiles[cell] = (card, edges)
        self._network = None

    def remove(self, cell: Cell) -> None:
        del self.tiles[cell]
        self._network = None

    def reveal(self, cell: Cell, edges: Edges) -> None:
        self.face_down.discard(cell)
        self.tiles[cell] = (self.tiles[cell][0], edges)
        self._network = None

    def open_side(self, cell: Cell | None, d: int) -> bool:
        tile = self.tiles.get(cell) if cell is not None else None
        return tile is not None and cell not in self.face_down and tile[1][d]

    def network(self) -> tuple[set[Cell], list[Cell], list[Cell]]:
        """(cells joined to the start, face-down cells it touches, empty cells it touches);
        kept until a card comes, goes or is turned over."""
        if self._network is None:
            tiles, face_down = self.tiles, self.face_down
            reached = {START}
            touching: list[Cell] = []
            spots: list[Cell] = []
            todo = [START]
            while todo:
                cell = todo.pop()
                edges = tiles[cell][1]
                for d, nb in enumerate(NEIGHBOURS[cell]):
                    if nb is None or nb in reached or not edges[d]:
                        continue
                    tile = tiles.get(nb)
                    if tile is None:
                        if nb not in spots:
                            spots.append(nb)
                    elif nb in face_down:
                        if nb not in touching:
                            touching.append(nb)
                    elif tile[1][OPPOSITE[d]] and tile[0].joined:
                        reached.add(nb)
                        todo.append(nb)
            self._network = (reached, touching, spots)
        return self._network

    def fits(self, cell: Cell, edges: Edges) -> bool:
        """Every side meets a matching side; empty cells, the table's edge and face-down
        cards match anything."""
        for d, nb in enumerate(NEIGHBOURS[cell]):
            if nb is None or nb in self.face_down:
                continue
            tile = self.tiles.get(nb)
            if tile is not None and tile[1][OPPOSITE[d]] != edges[d]:
                return False
        return True

    def joins(self, spot: Cell, edges: Edges) -> bool:
        """A card with these sides fits on the spot and meets the start's network."""
        if not self.fits(spot, edges):
            return False
        reached = self.network()[0]
        return any(
            edges[d] and nb in reached and self.open_side(nb, OPPOSITE[d])
            for d, nb in enumerate(NEIGHBOURS[spot])
        )

    def faces_network(self, cell: Cell) -> bool:
        reached = self.network()[0]
        return any(
            nb in reached and self.open_side(cell, d) and self.open_side(nb, OPPOSITE[d])
            for d, nb in enumerate(NEIGHBOURS[cell])
        )


class Match:
    """One match of `ROUNDS` rounds between `n` players, every decision at random."""

    def __init__(self, n: int, rng: random.Random):
        self.n = n
        self.rng = rng
        self.decisions = 0
        self.nuggets = NUGGETS.copy()  # the last one is on top
        rng.shuffle(self.nuggets)
        aside = ["saboteur"] * SABOTEUR_CARDS[n] + ["miner"] * MINER_CARDS[n]
        rng.shuffle(aside)
        self.roles = [aside.pop() for _ in range(n)]  # one role card is left aside
        self.gold: list[list[int]] = [[] for _ in range(n)]
        self.starter = rng.randrange(n)
        # the state of a round
        self.deck: list[Card] = []
        self.hands: list[list[Card]] = []
        self.fronts: list[list[Card]] = []  # broken tools lying before each player
        self.maze = Maze(GOAL_CARDS)
        self.round_over = False

    def choose(self, options: Sequence[T]) -> T:
        """One decision, uniform among the legal options."""
        self.decisions += 1
        return self.rng.choice(options)

    def play(self) -> list[str]:
        for _ in range(ROUNDS):
            self.play_round()
        scores = [sum(gold) for gold in self.gold]
        best = max(scores)
        return ["win" if s == best else "loss" for s in scores]  # ties share the win

    def play_round(self) -> None:
        rng = self.rng
        goals = GOAL_CARDS.copy()
        rng.shuffle(goals)
        self.maze = Maze(goals)
        self.deck = DECK.copy()  # every card comes back each round
        rng.shuffle(self.deck)
        size = HAND_SIZE[self.n]
        self.hands = [[self.deck.pop() for _ in range(size)] for _ in range(self.n)]
        self.fronts = [[] for _ in range(self.n)]
        self.round_over = False
        player = self.starter
        while not self.round_over:
            self.play_turn(player)
            player = (player + 1) % self.n
        self.starter = player  # the next round starts after the last player

    def broken(self, p: int) -> list[str]:
        return [b.tools[0] for b in self.fronts[p]]

    def targets(self, card: Card, p: int) -> list[Any]:
        """Where player p could play the card (spots, victims, patients, goals or
        tunnels); empty if it cannot be played now."""
        maze = self.maze
        if card.kind == "path":
            if self.fronts[p]:
                return []  # a broken tool stops path cards
            return [
                s
                for s in maze.network()[2]
                if maze.joins(s, card.edges) or maze.joins(s, card.edges_180)
            ]
        if card.kind == "broken":
            return [v for v in range(self.n) if card.tools[0] not in self.broken(v)]
        if card.kind == "repair":
            return [v for v in range(self.n) if any(t in card.tools for t in self.broken(v))]
        if card.kind == "map":
            return [g for g in GOALS if g in maze.face_down]
        assert card.kind == "rockfall"
        return [s for s, (c, _) in maze.tiles.items() if c.kind == "path"]

    def play_turn(self, p: int) -> None:
        hand = self.hands[p]
        if hand:  # a player with no cards passes
            card = self.choose(hand)
            targets = self.targets(card, p)
            action = self.choose(["play", "discard"] if targets else ["discard"])
            hand.remove(card)  # played or discarded face down
            if action == "play":
                target = self.choose(targets)
                if card.kind == "path":
                    self.play_path(p, card, target)
                elif card.kind == "broken":
                    self.fronts[target].append(card)
                elif card.kind == "repair":
                    self.fronts[target] = [
                        b for b in self.fronts[target] if b.tools[0] not in card.tools
                    ]
                elif card.kind == "rockfall":
                    self.maze.remove(target)
                # map: the player looks at the goal; nothing changes
            if not self.round_over and self.deck:
                hand.append(self.deck.pop())
        if not self.round_over and not self.deck and not any(self.hands):
            self.saboteurs_win()

    def play_path(self, p: int, card: Card, spot: Cell) -> None:
        maze = self.maze
        ways = [edges for edges in (card.edges, card.edges_180) if maze.joins(spot, edges)]
        maze.place(spot, card, self.choose(ways))
        for goal in maze.network()[1].copy():
            self.turn_over(goal)
        if any(maze.tiles[c][0].kind == "gold" for c in maze.network()[0]):
            self.miners_win(p)

    def turn_over(self, goal: Cell) -> None:
        """A stone is turned to fit the path if it can; it stays even if neither way fits."""
        maze = self.maze
        card = maze.tiles[goal][0]
        maze.reveal(goal, card.edges)
        if not maze.faces_network(goal):
            maze.reveal(goal, card.edges_180)
            if not maze.faces_network(goal):
                maze.reveal(goal, card.edges)

    def next_miner(self, p: int) -> int:
        return next(
            q for q in ((p + i) % self.n for i in range(1, self.n + 1)) if self.roles[q] == "miner"
        )

    def miners_win(self, p: int) -> None:
        shared = [self.nuggets.pop() for _ in range(min(self.n, len(self.nuggets)))]
        taker = p if self.roles[p] == "miner" else self.next_miner(p)
        while shared:
            nugget = self.choose(shared)
            shared.remove(nugget)
            self.gold[taker].append(nugget)
            taker = self.next_miner(taker)
        self.round_over = True

    def saboteurs_win(self) -> None:
        saboteurs = [p for p in range(self.n) if self.roles[p] == "saboteur"]
        for p in saboteurs:
            owed = SABOTEUR_PAY[len(saboteurs)]
            while owed > 0 and any(v <= owed for v in self.nuggets):
                best = max(v for v in self.nuggets if v <= owed)
                self.nuggets.remove(best)  # the bottom-most card of that value
                self.gold[p].append(best)
                owed -= best
        self.round_over = True


def play_game(n_players: int, rng: random.Random) -> tuple[list[str], int]:
    """Play one random match; return (outcome per player, number of decisions)."""
    match = Match(n_players, rng)
    results = match.play()
    return results, match.decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    total_decisions = 0
    seat1_wins = 0
    start = time.perf_counter()
    for _ in range(args.games):
        result, decisions = play_game(args.players, rng)
        total_decisions += decisions
        seat1_wins += result[1] == "win"
    seconds = time.perf_counter() - start
    print(
        f"handwritten saboteur: players={args.players} games={args.games} "
        f"seconds={seconds:.3f} games_per_second={args.games / seconds:.1f} "
        f"mean_decisions={total_decisions / args.games:.1f} "
        f"seat1_win_fraction={seat1_wins / args.games:.4f}"
    )


if __name__ == "__main__":
    main()
