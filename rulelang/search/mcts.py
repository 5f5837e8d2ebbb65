"""Monte Carlo tree search on the public engine API (docs/bots.md).

One algorithm serves both bots: single-observer information-set MCTS (Cowling,
Powley and Whitehouse 2012), open loop. Neither reads a secret: each searches
determinizations of the real game (`Game.determinize` for the deciding seat: what the
seat cannot see is dealt anew, the dice reseeded). `ismcts` deals a new one for every
iteration; `mcts` deals one per decision and searches that world, reseeding only the
dice for each iteration (plain UCT on one guess: exact where nothing is hidden, as
`ismcts` then).

An iteration has the four steps of OpenSpiel's `mcts.py`: the tree policy walks down
the tree, choosing among the options legal in its determinization by UCB1 with
availability counts (`_select`) and adding one node where an option was never tried
(`_expand`); the evaluation plays on with the fast `Game.playout` and scores where it
stops (`Evaluator`); the backup credits each node with the result of the player who
moved into it (`_backup`). The root's children then give the move: the most visited
option (`_final_choice`), or, where the rules declare a bot for the seat, its option
unless a challenger beats it in a duel played in the same worlds (`_duel_choice`).

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rulelang.runtime.code import Value
from rulelang.runtime.engine import Game

# The most decisions one expansion adds (the rest of a move, see `_tree_policy`): a rule
# that asks the same player again and again (a move refused by a wall, say) is scored
# there.
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
        # move refused by a known wall does not)? See `_final_choice`.
        self.moves = False


def _key(who: int, value: Value) -> object:
    if type(value) is list:  # not hashable: its text form stands for it
        return (who, repr(value))
    return (who, value)


# The root's options are known by their text, as the seat sees them: in a world, the
# card the seat holds may be another copy of the same card (the world's copy of it was
# laid before, where a card that looks the same was seen laid), and by its value it was
# another option, never the real one: a card drawn late was tried in few of the
# worlds, or none, and could not be chosen (two identical cards are one choice).
def _root_keys(g: Game, who: int) -> dict[object, object]:
    """The key of each option of `g` at the root (by `_key`): its text."""
    return {_key(who, a.value): ("as seen", who, a.text) for a in g.legal_actions()}


class Evaluator:
    """The evaluation step: plays a determinization on from the end of the tree and
    scores where it stops; and, with `estimate ... by bots`, the prior the tree policy
    gives the declared bots' options."""

    def __init__(self, game: Game, playout_limit: int | None):
        rules = game.rules
        self.decisions = rules.limits.decisions  # the most a playout ever takes
        self.limit = self.decisions if playout_limit is None else playout_limit
        self.estimated = rules.estimate is not None  # the rules' score of a stopped playout
        self.by_bots = False  # do the rules' declared bots play the playouts, guide the tree?
        self.duels: int | None = None  # where the duel's playouts stop, if the rules say
        if rules.estimate is not None:
            self.limit = min(self.limit, rules.estimate.after)
            self.by_bots = rules.estimate.by_bots
            self.duels = rules.estimate.duels
        self.cut = [1.0 / game.players] * game.players
        self.taken = 0  # the decisions the last evaluation's playout took

    def evaluate(self, g: Game, rng: random.Random) -> list[float]:
        """Every player's reward: the result, else the estimate where the playout
        stopped, else 1 / players for a playout cut off by its limit. Where every player
        lost, the estimate scores the end (`Game.estimate`): a cooperative game's show
        that scored 18 is worth more than one that scored 16, though both lose."""
        return self._played(g, rng, self.limit)

    def _played(self, g: Game, rng: random.Random, limit: int) -> list[float]:
        """Every player's reward after a playout of at most `limit` decisions."""
        self.taken = 0
        if not g.is_over() and limit:
            self.taken = g.playout(rng, limit, self.by_bots, quiet=True)
        return self.score(g)

    def score(self, g: Game) -> list[float]:
        """Where `g` stands: the result, or where nobody won, the estimate of the end;
        the estimate of a game not over; else 1 / players (cut off by its limit)."""
        if self.estimated:
            scores = g.estimate()
            assert scores is not None
            return scores
        return g.returns() if g.is_over() else self.cut

    def finish(self, g: Game, rng: random.Random, reach: int) -> list[float]:
        """The duel's score: as `evaluate`, but where the rules' bots take the playout,
        it goes on up to `reach` decisions, and if that ends the game its result counts
        (the win); else the score where the tree's playouts stop (the estimate's
        horizon: a pictured world is not trusted further). Where the rules say `duels
        after M decisions`, it stops M decisions past the option and is scored there."""
        if self.duels is not None:
            return self._played(g, rng, self.duels)
        rewards = self.evaluate(g, rng)
        taken = self.taken
        if self.by_bots and reach > taken and not g.is_over():
            self.taken = taken + g.playout(rng, reach - taken, bots=True, quiet=True)
            if g.is_over():
                return self.score(g)
        return rewards

    def prior(self, g: Game) -> list[Value] | None:
        """With `by bots`: the options the deciding seat's declared bot keeps, which
        the tree tries first (None without `by bots`, or where no declared bot plays)."""
        return g.bot_options() if self.by_bots else None


class Tree:
    """One search: the root, where its determinizations come from, how it scores."""

    def __init__(
        self,
        game: Game,
        rng: random.Random,
        information_sets: bool,
        exploration: float,
        playout_limit: int | None,
    ):
        self.seat = game.current_player()
        self.root = Node(-1)
        self.rng = rng
        self.exploration = exploration
        self.evaluator = Evaluator(game, playout_limit)
        # ismcts: a new deal of the unseen every iteration; mcts: one deal, searched
        self._world = game if information_sets else game.determinize(self.seat, rng)
        self._observer = self.seat if information_sets else None

    def deal(self) -> Game:
        """The determinization one iteration searches (the one place it is made)."""
        g = self._world.determinize(self._observer, self.rng)
        g.auto_chance = True  # a replayed game waits at chance events: not the search
        return g

    def iterate(self) -> None:
        """One iteration: tree policy (selection and expansion), evaluation, backup."""
        g = self.deal()
        path = _tree_policy(self, g)
        _backup(path, self.evaluator.evaluate(g, self.rng))


def _tree_policy(tree: Tree, g: Game) -> list[Node]:
    """Walk down from the root, choosing in `g` as it goes, until the game ends or a
    node is added with the rest of its player's move: the path of nodes taken."""
    root = node = tree.root
    path = [root]
    asked = _question(g)
    grown = 0  # nodes added in this iteration
    while not g.is_over():
        who = g.current_player()
        keys = _root_keys(g, who) if node is root else None
        fresh, known = _available(node, g, who, keys)
        kept = tree.evaluator.prior(g)
        if fresh:  # expand: new nodes to the end of the player's move
            turn = g.turn_number
            child = _expand(node, g, who, fresh, kept, tree.rng.random, keys)
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
        child = _select(g, known, kept, tree.exploration)
        if node is root:
            child.moves = child.moves or _moved(g, asked)
        path.append(child)
        node = child
    return path


def _available(
    node: Node, g: Game, who: int, keys: dict[object, object] | None = None
) -> tuple[list[Value], list[tuple[Value, Node]]]:
    """The legal options of `g` not yet tried from `node`, and those tried with their
    nodes; each tried one counts this iteration as one in which it was available.
    `keys`: the options' keys where they are not `_key`'s (at the root)."""
    children = node.children
    fresh = []
    known = []
    seen = set()
    for v in g.legal_values():
        k = _key(who, v) if keys is None else keys[_key(who, v)]
        if k in seen:  # another option that looks the same: one choice
            continue
        seen.add(k)
        c = children.get(k)
        if c is None:
            fresh.append(v)
        else:
            c.avail += 1
            known.append((v, c))
    return fresh, known


def _expand(
    node: Node,
    g: Game,
    who: int,
    fresh: list[Value],
    kept: Sequence[Value] | None,
    draw: Callable[[], float],
    keys: dict[object, object] | None = None,
) -> Node:
    """Add a node for one option never tried (the declared bot's first, with a prior),
    drawn at random, and take it in `g`."""
    if kept is not None:
        fresh = [v for v in fresh if v in kept] or fresh
    value = fresh[int(draw() * len(fresh))]
    key = _key(who, value) if keys is None else keys[_key(who, value)]
    child = node.children[key] = Node(who)
    child.avail = 1
    g.choose(value)
    return child


def _select(
    g: Game, known: list[tuple[Value, Node]], kept: Sequence[Value] | None, exploration: float
) -> Node:
    """Take the tried option with the highest UCB1 score (mean reward plus exploration
    over availability, plus the progressive bias of the prior's options) in `g`."""
    log, sqrt = math.log, math.sqrt
    best = -1.0
    value, child = known[0]
    for v, c in known:
        score = c.total / c.visits + exploration * sqrt(log(c.avail) / c.visits)
        if kept is not None and v in kept:
            score += BIAS / (c.visits + 1)
        if score > best:
            best, value, child = score, v, c
    g.choose(value)
    return child


def _backup(path: list[Node], rewards: Sequence[float]) -> None:
    """Credit every node on the path (not the root) with its mover's reward."""
    for visited in path[1:]:
        reward = rewards[visited.who]
        visited.visits += 1
        visited.total += reward


def _question(g: Game) -> tuple[object, tuple[Value, ...], int]:
    """What the game asks now: the `choose` statement, its options, the turn."""
    return (g.choice_point(), tuple(g.legal_values()), g.turn_number)


def _moved(g: Game, asked: tuple[object, tuple[Value, ...], int]) -> bool:
    """After the root's option: is the game anywhere but at the same question, asked of
    the same player in the same turn with the same options?"""
    return g.is_over() or _question(g) != asked


def _grow(
    game: Game,
    budget: Budget,
    rng: random.Random,
    information_sets: bool,
    exploration: float,
    playout_limit: int | None,
) -> Tree:
    """The tree after the budget is spent."""
    tree = Tree(game, rng, information_sets, exploration, playout_limit)
    if budget.seconds is None:
        for _ in range(budget.iterations):
            tree.iterate()
    else:
        deadline = time.perf_counter() + budget.seconds
        while time.perf_counter() < deadline:
            tree.iterate()
    return tree


def _root_options(tree: Tree, game: Game) -> list[tuple[Value, Node]]:
    """The options of `game` (the real one) that the search tried, in their order."""
    children, keys = tree.root.children, _root_keys(game, tree.seat)
    out = []
    for v in game.legal_values():
        c = children.get(keys[_key(tree.seat, v)])
        if c is not None:
            out.append((v, c))
    return out


def search_root(
    game: Game,
    budget: Budget,
    rng: random.Random,
    information_sets: bool,
    exploration: float = 0.7,
    playout_limit: int | None = None,
) -> list[tuple[Value, int, float]]:
    """Search the game's pending choice: every option, in the order of the options,
    with its visits and total reward at the root after the budget is spent."""
    options = list(game.legal_values())
    tree = _grow(game, budget, rng, information_sets, exploration, playout_limit)
    children, keys = tree.root.children, _root_keys(game, tree.seat)
    stats = []
    for v in options:
        c = children.get(keys[_key(tree.seat, v)])
        stats.append((v, 0, 0.0) if c is None else (v, c.visits, c.total))
    return stats


def search(
    game: Game,
    budget: Budget,
    rng: random.Random,
    information_sets: bool,
    exploration: float = 0.7,
    playout_limit: int | None = None,
) -> Value:
    """The value of the option to take at the game's pending choice (`_final_choice`)."""
    options = list(game.legal_values())
    if len(options) == 1:
        return options[0]
    tree = _grow(game, budget, rng, information_sets, exploration, playout_limit)
    tried = _root_options(tree, game)
    if not tried:  # a time budget spent before the first iteration
        return options[0]
    # the declared bot's options (it reads only what its seat sees: check/hidden.py)
    tried = _doers(tried)
    preferred = game.bot_options()
    if preferred is None:
        return _final_choice(tried)
    # an option as the seat sees it: two identical cards are one choice, and a world may
    # hold the other one (nothing the seat saw tells them apart)
    texts = {_key(tree.seat, a.value): a.text for a in game.legal_actions()}
    return _duel_choice(tree, tried, preferred, texts)


def _doers(tried: list[tuple[Value, Node]]) -> list[tuple[Value, Node]]:
    """The options that did something in some world searched, if any did: never one
    that only asked the same question again (else a bot could retry a known wall for
    ever, since a refused move costs nothing in the rules)."""
    moving = [(v, c) for v, c in tried if c.moves]
    return moving or tried


def _final_choice(tried: list[tuple[Value, Node]]) -> Value:
    """The most visited option (ties: the first in the order of the options)."""
    value, node = tried[0]
    for v, c in tried:
        if c.visits > node.visits:
            value, node = v, c
    return value


def _mean(node: Node) -> float:
    return node.total / node.visits


# The duel (see `_duel_choice`): how many challengers of the declared bot's option, how
# many worlds per iteration of the tree, at least, and how sure it must be (one-sided,
# about 97.5%, which also covers picking the better of two challengers).
CHALLENGERS = 2
DUEL_SHARE = 0.25
DUEL_MIN = 16
DUEL_Z = 1.96
# Where the rules' bots take the playouts (`by bots`), the duel's go on past the
# estimate's horizon towards the end of the game and are scored by its result where
# they reach it: the win, which the goal is about, rather than the designer's reading
# of a position a few decisions on, which may part from it (a side that wins when the
# cards run out, scored by its tunnels' distance to the goals). Where they do not
# reach it, the estimate at the tree's horizon scores them, as before: scored by the
# estimate further on, a search that pictures the unseen (an `imagine`) trusted its
# picture further, and lost more games than it won (docs/bots.md, "Strength"). The
# duel's playouts take at most DUEL_WORK decisions in all per iteration of the budget:
# a work budget counted in decisions, the same on every machine (so the figures stay
# reproducible), which bounds the duel's time where a wall clock would not. Each
# playout may go as far as lets DUEL_MIN worlds be played within it; the duel then
# plays as many worlds as the rest allows. In a long game whose playouts seldom reach
# the end within that, the work goes on playouts scored at the horizon all the same,
# and buys few worlds (16-20 where 25 are asked, and as few at four times the budget):
# the rules may then say `duels after M decisions`, and the duel's playouts stop there,
# scored by the estimate, and it plays as many worlds as the work allows (up to one an
# iteration): about five times as many in the game that asked for it (docs/bots.md).
DUEL_WORK = 25


def _duel_choice(
    tree: Tree,
    tried: list[tuple[Value, Node]],
    preferred: Sequence[Value],
    texts: dict[object, str],
) -> Value:
    """The declared bot's option unless a challenger beats it in a duel: the tree
    nominates its most visited options that the bot does not keep, and each is played
    beside the bot's option in the same worlds, with the same future dice and the same
    playout draws (common random numbers: what the worlds and dice do to both cancels
    out, and only what the option does is left). The challenger whose mean gain over
    the bot's option is largest is taken if that gain exceeds `DUEL_Z` standard errors
    of it. Where nothing challenges it, the bot's choice stands. `texts`: each option's
    text, by `_key`, which names it in every world."""
    kept = [(v, c) for v, c in tried if v in preferred]
    if not kept:  # none of the bot's options tried (a time budget spent), or all walls
        return _final_choice(tried)
    bot_value = max(kept, key=lambda vc: (_mean(vc[1]), vc[1].visits))[0]
    others = sorted((vc for vc in tried if vc[0] not in preferred), key=lambda vc: -vc[1].visits)
    named = {texts[_key(tree.seat, bot_value)]: bot_value}
    for v, _c in others:  # the most visited, one per text
        named.setdefault(texts[_key(tree.seat, v)], v)
    shown = list(named)[: CHALLENGERS + 1]
    if len(shown) == 1:
        return bot_value
    iterations = sum(c.visits for _v, c in tried)
    worlds = max(DUEL_MIN, int(iterations * DUEL_SHARE))
    if tree.evaluator.duels is not None:  # playouts the rules keep short: as many as
        worlds = max(DUEL_MIN, iterations)  # the work allows, one an iteration at most
    nodes = [tree.root.children[("as seen", tree.seat, t)] for t in shown]
    gains = _duel(tree, shown, nodes, worlds, max(DUEL_MIN, iterations) * DUEL_WORK)
    best, best_gain = bot_value, 0.0
    for value, diffs in zip([named[t] for t in shown[1:]], gains, strict=True):
        mean, error = _mean_error(diffs)
        if mean > DUEL_Z * error and mean > best_gain:
            best, best_gain = value, mean
    return best


def _duel(
    tree: Tree, shown: list[str], nodes: list[Node], worlds: int, work: int
) -> list[list[float]]:
    """Per challenger (`shown[1:]`, by text), its reward less the bot option's
    (`shown[0]`) in each of up to `worlds` worlds (those in which all of them are
    options: where the options depend on what the seat cannot see, a world may rule
    one out, as the tree's availability counts), whose playouts take at most `work`
    decisions in all with `by bots` (see DUEL_WORK; else each stops where the tree's
    do, once the rest of the seat's move is taken along the tree from `nodes`)."""
    seat, rng, evaluator = tree.seat, tree.rng, tree.evaluator
    reach = _duel_reach(evaluator, work // (DUEL_MIN * len(shown)))
    gains: list[list[float]] = [[] for _ in shown[1:]]
    for _ in range(worlds):
        if work <= 0:
            break
        world = tree.deal()
        dice, draws = rng.getrandbits(64), rng.getrandbits(64)
        there = {a.text: a.value for a in world.legal_actions()}
        if any(t not in there for t in shown):
            continue  # an option hidden things rule out there: no pair in that world
        rewards = []
        for text, node in zip(shown, nodes, strict=True):
            g = world.determinize(None, random.Random(dice))  # the same future dice
            g.auto_chance = True
            turn = g.turn_number
            g.choose(there[text])
            if not evaluator.by_bots:
                _rest_of_move(g, node, seat, turn)
            rewards.append(evaluator.finish(g, random.Random(draws), reach)[seat])
            work -= (evaluator.taken + 1) if evaluator.by_bots else 0  # else as before
        for gain, reward in zip(gains, rewards[1:], strict=True):
            gain.append(reward - rewards[0])
    return gains


# The fewest visits that make a node of the rest of a move the tree's own pick (see
# `_rest_of_move`): fewer, and "the most visited" of forty spots visited once each is
# the first in the order of the options, not a judgement.
REST_VISITS = 4


def _rest_of_move(g: Game, node: Node | None, seat: int, turn: int) -> None:
    """Take the rest of the seat's move in `g` (its next decisions in the same turn)
    along the tree's most visited options from `node`, where the tree visited one at
    least REST_VISITS times; where it is thinner (or gone), as the seat's declared bot
    takes it (the most visited of the options it keeps, else the first), if one plays
    the seat. Where the rules' bots do not take the playouts, a duel scored right after
    the option would score a move half made (a card chosen, not yet laid: every card
    alike), or a move finished at an arbitrary spot."""
    while not g.is_over() and g.current_player() == seat and g.turn_number == turn:
        options = g.legal_values()
        best = _most_visited(node, options, seat, REST_VISITS)
        if best is None:
            kept = g.bot_options()
            if not kept:
                return
            best = _most_visited(node, kept, seat, 1) or (kept[0], None)
        g.choose(best[0])
        node = best[1]


def _most_visited(
    node: Node | None, options: Sequence[Value], seat: int, least: int
) -> tuple[Value, Node | None] | None:
    """The option of `options` whose node under `node` has the most visits (at least
    `least`; ties: the first), or None."""
    best: tuple[Value, Node | None] | None = None
    most = least - 1
    for v in options:
        c = None if node is None else node.children.get(_key(seat, v))
        if c is not None and c.visits > most:
            best, most = (v, c), c.visits
    return best


def _duel_reach(evaluator: Evaluator, share: int) -> int:
    """How many decisions past the option a duel's playout may take: with `by bots`,
    as many as its share of the work, never fewer than the tree's playouts take."""
    if not evaluator.by_bots:
        return evaluator.limit
    return max(evaluator.limit, min(share, evaluator.decisions))


def _mean_error(values: list[float]) -> tuple[float, float]:
    """The mean and its standard error (infinite for fewer than two values: no
    evidence)."""
    n = len(values)
    if n < 2:
        return 0.0, math.inf
    mean = sum(values) / n
    spread = sum((x - mean) ** 2 for x in values) / (n - 1)
    return mean, math.sqrt(spread / n)
