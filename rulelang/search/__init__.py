"""Search bots for any ruleset, built on the public engine API: `mcts` (UCT) and
`ismcts` (information-set MCTS). A seat's bot is named `mcts`, `mcts:2000`
(iterations per decision) or `mcts:0.5s` (seconds per decision); likewise `ismcts`.
See docs/bots.md."""

from __future__ import annotations

import random

from rulelang.diagnostics import UsageError
from rulelang.limits import MAX_SEARCH_ITERATIONS
from rulelang.runtime.determinize import not_redealt
from rulelang.runtime.engine import Action, Game
from rulelang.runtime.ruleset import Ruleset
from rulelang.search.mcts import Budget, search, search_root

SEARCH_BOTS = ("mcts", "ismcts")


def is_search(name: str | None) -> bool:
    """Does the bot name call for a search bot (well formed or not)?"""
    return name is not None and name.partition(":")[0].strip().lower() in SEARCH_BOTS


def parse(name: str) -> tuple[bool, Budget]:
    """(information sets?, budget) of a search bot's name; UsageError if malformed."""
    kind, _, arg = (x.strip().lower() for x in name.partition(":"))
    if kind not in SEARCH_BOTS:
        raise UsageError(f"'{name}' is not a search bot ({', '.join(SEARCH_BOTS)})")
    budget = Budget()
    if arg:
        try:
            if arg.endswith("s"):
                seconds = float(arg[:-1])
                if not 0 < seconds <= 3600:
                    raise ValueError
                budget = Budget(seconds=seconds)
            else:
                iterations = int(arg)
                if not 1 <= iterations <= MAX_SEARCH_ITERATIONS:  # each grows the tree
                    raise ValueError
                budget = Budget(iterations=iterations)
        except ValueError:
            raise UsageError(
                f"bot '{name}': after '{kind}:' give iterations per decision (a whole "
                f"number from 1 to {MAX_SEARCH_ITERATIONS}, as 2000) or seconds (up to "
                "3600, as 0.5s)"
            ) from None
    return kind == "ismcts", budget


def refuse_hidden(rules: Ruleset) -> None:
    """A search bot never reads a secret: rules whose hidden attributes it cannot deal
    anew (docs/api.md, "determinize") are refused with a UsageError naming them."""
    hidden = not_redealt(rules.program)
    if hidden:
        shown = ", ".join(hidden[:4]) + (f" and {len(hidden) - 4} more" if len(hidden) > 4 else "")
        raise UsageError(
            f"the search bots cannot play {rules.program.title}: they cannot deal anew what "
            f"nobody may see ({shown}), so they would read it; use the rules' declared "
            "bots or random"
        )


def search_rng(game: Game) -> random.Random:
    """The search's generator for the pending decision: derived from the game's seed, the
    seat and the position (turn, decision, options), never from the game's dice; so the
    same seed and moves give the same choices, also after a saved game is resumed."""
    spec = game.pending()
    assert spec is not None
    key = (game.turn_number, spec.name, tuple(map(repr, game.legal_values())))
    return random.Random(f"rulelang search {game.seed} {spec.player} {key}")


def choose(game: Game, name: str) -> Action:
    """The action the search bot `name` takes at the game's pending choice."""
    if game.is_over() or game.is_chance_node():
        raise UsageError("the game is not waiting for a player's decision")
    information_sets, budget = parse(name)
    refuse_hidden(game.rules)
    value = search(game, budget, search_rng(game), information_sets)
    for action in game.legal_actions():
        if action.value == value and type(action.value) is type(value):
            return action
    raise AssertionError("the search chose an option that is not legal")  # pragma: no cover


def bot_action(game: Game, name: str | None) -> Action:
    """The action of the seat's bot: a search bot by name, else `Game.bot_choice`
    (a declared bot, "random", or None for the rules' declared bots)."""
    if is_search(name):
        assert name is not None
        return choose(game, name)
    return game.bot_choice(name)


__all__ = [
    "SEARCH_BOTS",
    "Budget",
    "bot_action",
    "choose",
    "is_search",
    "parse",
    "refuse_hidden",
    "search",
    "search_root",
]
