"""A search seat's beliefs go with their game: a simulation of thousands of games
with search bots keeps no game alive once it is over (they piled up, and with them the
collector's pauses: 30,000 objects a game of Heimlich, a whole-heap collection growing
to a second of CPU inside a search's decision)."""

from __future__ import annotations

import gc
import random
from pathlib import Path

import rulelang
from rulelang import CHANCE, Game
from rulelang.search import bot_action

ROOT = Path(__file__).resolve().parent.parent


def games_alive() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, Game))


def search_a_few_decisions(rules: rulelang.Ruleset, seed: int) -> None:
    game = rules.new_game(4, seed=seed)
    rng = random.Random(seed)
    for _ in range(6):
        if game.current_player() == CHANCE:
            game.resolve_chance()
        elif game.current_player() == 0:
            game.apply(bot_action(game, "ismcts:20"))
        else:
            game.apply(rng.choice(game.legal_actions()))


def test_a_finished_search_game_leaves_no_game_behind() -> None:
    rules = rulelang.compile_file(ROOT / "rulesets" / "heimlich-topsecret.rules")
    search_a_few_decisions(rules, 1)
    before = games_alive()
    for seed in range(2, 6):
        search_a_few_decisions(rules, seed)
    assert games_alive() <= before, "the beliefs of finished games are still kept"


def test_a_ruleset_compiled_again_is_not_kept_by_the_search() -> None:
    """An editor or a test run compiles a file again and again: the search's lists of
    zone slots, worked out per ruleset, do not keep the old rulesets alive."""

    def rulesets_alive() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if isinstance(o, rulelang.Ruleset))

    before = rulesets_alive()
    for seed in range(3):
        rules = rulelang.compile_file(ROOT / "rulesets" / "heimlich-topsecret.rules")
        search_a_few_decisions(rules, seed)
        del rules
    assert rulesets_alive() <= before
