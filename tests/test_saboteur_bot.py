"""The declared bot of base Saboteur, `dwarf` (rulesets/saboteur.rules): our reading of
seed 001's priority lists ("Goldsucher und Steinsucher haben Prioritäten für Aktionen
in Reihenfolge: Schatzkarte benutzen, Werkzeug reparieren, Andere Rollen sperren,
Pfadkarte setzen, ...") for a miner and a saboteur. Seed 000 has no computer players;
its miners win "The gold card is reached by a valid path from start card".
"""

from __future__ import annotations

import random

from saboteur_support import OFFICIAL, SABOTEUR, rules  # noqa: F401 - rules is a fixture
from test_saboteur import choosing, corridor, start

import rulelang
from rulelang import Game, Ruleset


def bot_step(g: Game) -> str:
    """The dwarf's choice at the pending decision, applied; its text."""
    action = g.bot_choice("dwarf")
    g.apply(action)
    return action.text


def test_every_seat_plays_the_dwarf_by_default() -> None:
    """simulate and play --bots take the rules' declared bots: base Saboteur and its
    official rules (which extend it) now have one for every seat."""
    for path in (SABOTEUR, OFFICIAL):
        g = rulelang.compile_file(path).new_game(5, seed=3)
        assert [g.bot_for(p) for p in range(5)] == ["dwarf"] * 5


MINER_HAND = ["map", "map", "tunnel W-E", "dead end S", "repair cart", "rockfall"]


def test_a_miner_lays_the_tunnel_next_to_a_goal_that_may_hold_the_gold(rules: Ruleset) -> None:
    """With nothing seen, the goal at 8,0 may hold the gold: the tunnel next to it comes
    before a map. The gold lies at 8,2: the bot does not read the face-down goals."""
    g = start(rules, 5, ["miner"] * 4 + ["saboteur"], hands=[MINER_HAND])
    corridor(g)
    assert [bot_step(g) for _ in range(3)] == ["tunnel W-E", "play", "7,0"]


def test_a_miner_uses_what_its_map_showed(rules: Ruleset) -> None:
    """Its map showed a stone at 8,0 ("Schatzkarte: schaut sich eine der Zielkarten an
    und aktualisiert ein Array mit den Positionen der Zielkarten"): the tunnel next to
    it no longer leads where the gold may lie, so it looks at another goal first."""
    g = start(rules, 5, ["miner"] * 4 + ["saboteur"], hands=[MINER_HAND], draws=["broken pick"])
    for choice in ("map", "play", "8,0"):
        g.apply(choice)
    for _ in range(4):  # the four others discard
        g.apply(g.legal_actions()[0])
        g.apply("discard")
    corridor(g)
    assert choosing(g) == "c" and g.current_player() == 0
    assert [bot_step(g) for _ in range(2)] == ["map", "play"]
    assert bot_step(g) in ("8,2", "8,-2")  # never the goal it saw


def test_a_saboteur_breaks_another_players_tool(rules: Ruleset) -> None:
    """Saboteurs: "Andere Rollen sperren" comes first in their list."""
    hand = ["tunnel W-E", "dead end S", "map", "broken pick", "repair cart", "rockfall"]
    g = start(rules, 5, ["saboteur"] + ["miner"] * 4, hands=[hand])
    assert [bot_step(g) for _ in range(2)] == ["broken pick", "play"]
    assert bot_step(g) != "P1"


def gold_reached(rules: Ruleset, seed: int, bots: bool) -> bool:
    g = rules.new_game(4, seed, {"rounds": "1"})
    g.playout(random.Random(seed), bots=bots)
    return any("reaches the gold" in line for line in g.history())


def test_dwarf_miners_reach_the_gold_where_random_ones_do_not(rules: Ruleset) -> None:
    """Random miners never get a path to the gold in a round; the dwarves often do
    (four players, one round, 40 seeds)."""
    dwarves = sum(gold_reached(rules, seed, True) for seed in range(1, 41))
    randoms = sum(gold_reached(rules, seed, False) for seed in range(1, 41))
    assert randoms <= 2 and dwarves >= 10


def test_strength_plays_only_the_seeds_that_deal_the_seat_the_role(rules: Ruleset) -> None:
    """benchmarks/strength.py --only: a saboteur seat is dealt in about one seed in six
    at four players; -n then counts the seeds that deal it, each checked at setup."""
    import argparse
    import importlib.util
    import sys

    path = SABOTEUR.parent.parent / "benchmarks" / "strength.py"
    spec = importlib.util.spec_from_file_location("strength_only", path)
    assert spec is not None and spec.loader is not None
    strength = importlib.util.module_from_spec(spec)
    sys.modules["strength_only"] = strength  # dataclasses look their module up
    spec.loader.exec_module(strength)
    args = argparse.Namespace(
        games=5, seed=100, players=4, option=[("rounds", "1")], role="role", only="saboteur", seat=2
    )
    seeds = list(strength.chosen_seeds(rules, args))
    assert len(seeds) == 5 and seeds == sorted(set(seeds)) and seeds[-1] > 104
    for seed in range(100, seeds[-1] + 1):
        dealt = str(rules.new_game(4, seed, {"rounds": "1"}).attribute("role", 1))
        assert (dealt == "saboteur") == (seed in seeds)
