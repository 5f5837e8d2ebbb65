"""More of the code generator's optimisations (issue 21, the labyrinth's random games):
a text whose one value is a player read from a table of its texts per seat
(`Config.named`) instead of made anew at each message.

As in test_compiler_opts.py, each is shown to fire on the generated source, and the
optimised code to play the very games the plain code plays (`exprgen.OPTIMISED` off);
every shipped game is played both ways there (test_the_optimised_code_plays_the_same_games).
"""

from __future__ import annotations

import random
import re

from compile_support import compiled

from rulelang import Ruleset, Said


def plays(rules: Ruleset, seed: int) -> tuple[object, ...]:
    g = rules.new_game(2, seed=seed)
    g.playout(random.Random(seed))
    return g.record(), g.results(), [e.text for e in g.events() if isinstance(e, Said)]


WALKS = """
global { winner: player = none }
turn {
  say "{current} walks." to current
  say "{winner} has won." to players
  say "{current} and {current} again." to current
  choose n in 1..2
}
end when turn_number == 4 { }
"""


def test_a_text_whose_one_value_is_a_player_is_read_from_a_table() -> None:
    rules, plain = compiled(WALKS), compiled(WALKS, optimised=False)
    source = "\n".join(rules.code.source)
    assert set(re.findall(r"cfg\.named\[(\d+)\]", source)) == {"0", "1"}
    assert "and {" in source  # the text with two values: an f-string still
    assert "cfg.named[" not in "\n".join(plain.code.source)
    for seed in range(1, 4):
        assert plays(rules, seed) == plays(plain, seed)
    texts = plays(rules, 1)[2]
    assert "none has won." in texts  # none shown as the formatter shows it
    assert "P1 walks." in texts


def test_the_table_of_texts_follows_the_players_names() -> None:
    rules = compiled(WALKS)
    for names in (("Ann", "Bob"), ("Cy", "Di"), ("Ann", "Bob")):
        g = rules.new_game(2, seed=1, names=names)
        said = [e.text for e in g.events() if isinstance(e, Said)]
        assert f"{names[0]} walks." in said
        assert not any(n in t for t in said for n in ("P1", "P2"))
