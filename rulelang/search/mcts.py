"""Monte Carlo tree search on the public engine API (docs/bots.md).

One algorithm serves both bots: single-observer information-set MCTS (Cowling,
Powley and Whitehouse 2012), open loop. Neither reads a secret: each searches
determinizations of the real game (`Game.determinize` for the deciding seat: what the
seat cannot see is dealt anew, the dice reseeded). `ismcts` deals a new one for every
iteration; `mcts` deals one per decision and searches that world, reseeding only the
dice for each iteration (plain UCT on one guess: exact where nothing is hidden, as
`ismcts` then). The iteration walks down the tree, choosing among the options legal
in its determinization by UCB1 with availability counts, adds one node, plays on at
random with the fast `Game.playout`, and credits each node with the result of the
player who moved into it.

Rewards are `Game.returns()`: 1 for a win, 0.5 for a draw, 0 for a loss. When the
rules declare an `estimate`, a playout stops `after` decisions past the tree and is
scored by it (each player's chance of winning); otherwise a playout cut off by its
decision limit counts 1 / players for everyone. Chance events are never nodes: they
are resolved as they come (the game's `auto_chance`), from the determinization's
generator, so the tree's nodes are sequences of decisions.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from rulelang.runtime.bots import Bot, ranked
from rulelang.runtime.code import ChoiceSpec, Value
from rulelang.runtime.engine import Game

# The most decisions one expansion adds (the rest of a move, see `search`): a rule that
# asks the same player again and again (a move refused by a wall, say) is scored there.
MOVE_DECISIONS = 64

# Progressive bias (Chaslot et al. 2008, "Progressive strategies for Monte-Carlo tree
# search"): with `by bots`, an option the declared bot keeps gains BIAS / (visits + 1)
# in the tree, a first guess that the rewards overrule as visits grow.
BIAS = 1.0


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a search may think per decision: iterations, or seconds of wall time
    (then the decision depends on the machine's speed, not only on the seed)."""

    iterations: int = 1000
    seconds: float | None = None


class Node:
    __slots__ = ("who", "children", "visits", "avail", "total", "moves")

    def __init__(self, who: int):
        self.who = who  # the seat whose move led here (its rewards are counted)
        self.children: dict[object, Node] = {}  # by (seat, key of the option)
        self.visits = 0
        self.avail = 0  # iterations in which the move was legal (information sets)
        self.total = 0.0
        # at the root: did the option ever do more than ask the same question again (a
        # move refused by a known wall does not)? See `search`.
        self.moves = False


def _key(who: int, value: Value) -> object:
    if type(value) is list:  # not hashable: its text form stands for it
        return (who, repr(value))
    return (who, value)


def search(
    game: Game,
    budget: Budget,
    rng: random.Random,
    information_sets: bool,
    exploration: float = 0.7,
    playout_limit: int | None = None,
) -> Value:
    """The value of the option to take at the game's pending choice: the most visited
    child of the root after the budget is spent."""
    options = list(game.legal_values())
    if len(options) == 1:
        return options[0]
    root = _grow(game, budget, rng, information_sets, exploration, playout_limit)
    return _pick(root, game.current_player(), options)


def search_root(
    game: Game,
    budget: Budget,
    rng: random.Random,
    information_sets: bool,
    exploration: float = 0.7,
    playout_limit: int | None = None,
) -> list[tuple[Value, int, float]]:
    """Each option at the game's pending choice, in the options' order, with the visits
    and the total reward the search gave it (what `search` chooses from)."""
    seat = game.current_player()
    root = _grow(game, budget, rng, information_sets, exploration, playout_limit)
    out = []
    for v in game.legal_values():
        c = root.children.get(_key(seat, v))
        out.append((v, 0, 0.0) if c is None else (v, c.visits, c.total))
    return out


def _grow(
    game: Game,
    budget: Budget,
    rng: random.Random,
    information_sets: bool,
    exploration: float,
    playout_limit: int | None,
) -> Node:
    """The search tree after the budget is spent (its root)."""
    seat = game.current_player()
    root = Node(-1)
    # ismcts: a new deal of the unseen every iteration; mcts: one deal, searched
    world = game if information_sets else game.determinize(seat, rng)
    observer = seat if information_sets else None
    n = game.players
    cut = [1.0 / n] * n
    limit = game.rules.limits.decisions if playout_limit is None else playout_limit
    estimate = game.rules.estimate  # the rules' own score of a stopped playout, if any
    by_bots = False  # do the rules' declared bots play the playouts, and guide the tree?
    if estimate is not None:
        limit = min(limit, estimate.after)
        by_bots = estimate.by_bots
    declared = tuple(game.rules.bots.values()) if by_bots else ()
    deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
    log, sqrt, draw = math.log, math.sqrt, rng.random
    done = 0
    while done < budget.iterations if deadline is None else time.perf_counter() < deadline:
        done += 1
        g = world.determinize(observer, rng)
        g.auto_chance = True  # a replayed game waits at chance events: not the search
        node, path = root, [root]
        grown = 0  # nodes added in this iteration
        asked = (g.state.pending, tuple(g.legal_values()), g.turn_number)
        while not g.is_over():
            who = g.current_player()
            children = node.children
            fresh = []
            known = []
            for v in g.legal_values():  # every legal move was available in this iteration
                c = children.get(_key(who, v))
                if c is None:
                    fresh.append(v)
                else:
                    c.avail += 1
                    known.append((v, c))
            kept = _guess(g, who, declared) if declared else None
            if fresh:  # expand: new nodes to the end of the player's move
                if kept is not None:  # the declared bot's options first
                    fresh = [v for v in fresh if v in kept] or fresh
                value = fresh[int(draw() * len(fresh))]
                child = children[_key(who, value)] = Node(who)
                child.avail = 1
                turn = g.turn_number
                g.choose(value)
                if node is root:
                    child.moves = child.moves or _moved(g, asked)
                path.append(child)
                grown += 1
                if g.is_over() or g.current_player() != who or g.turn_number != turn:
                    break
                if grown >= MOVE_DECISIONS:  # a move without end (walls all round?)
                    break
                node = child  # the same player decides on in the same turn
                continue
            best = -1.0
            value, child = known[0]
            for v, c in known:
                score = c.total / c.visits + exploration * sqrt(log(c.avail) / c.visits)
                if kept is not None and v in kept:  # progressive bias to the bot's options
                    score += BIAS / (c.visits + 1)
                if score > best:
                    best, value, child = score, v, c
            g.choose(value)
            if node is root:
                child.moves = child.moves or _moved(g, asked)
            path.append(child)
            node = child
        if not g.is_over() and limit:
            g.playout(rng, max_decisions=limit, bots=by_bots)
        if g.is_over():
            rewards = g.returns()
        elif estimate is not None:
            rewards = estimate.scores(g.state, n)
        else:
            rewards = cut
        for visited in path[1:]:
            visited.visits += 1
            visited.total += rewards[visited.who]
    return root


def _pick(root: Node, seat: int, options: list[Value]) -> Value:
    """The option to take after the search."""
    # the most visited option, in the order of the options (ties go to the first); but
    # never one that in every world searched only asked the same question again while
    # another one did something (else a bot could retry a known wall for ever)
    tried = [(v, c) for v in options if (c := root.children.get(_key(seat, v))) is not None]
    if any(c.moves for _v, c in tried):
        tried = [(v, c) for v, c in tried if c.moves]
    best_visits, choice = -1, options[0]
    for v, c in tried:
        if c.visits > best_visits:
            best_visits, choice = c.visits, v
    return choice


def _guess(g: Game, who: int, declared: tuple[Bot, ...]) -> list[Value] | None:
    """With `by bots`: the options the seat's declared bot keeps at the pending choice,
    which the search tries first (None where no declared bot plays the seat)."""
    st = g.state
    spec = st.pending
    assert isinstance(spec, ChoiceSpec)
    return ranked(declared, st, who, spec, st.options)


def _moved(g: Game, asked: tuple[object, tuple[Value, ...], int]) -> bool:
    """After the root's option: is the game anywhere but at the same question, asked of
    the same player in the same turn with the same options?"""
    spec, values, turn = asked
    return (
        g.is_over()
        or g.state.pending is not spec
        or g.turn_number != turn
        or tuple(g.legal_values()) != values
    )
