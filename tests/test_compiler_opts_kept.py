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


PICKED = """
player { score: int = 0 }
turn {
  choose n in 1..3
  set current.score += n
  let ahead = [p for p in players where p.score > current.score]
  let all = [p.score for p in players]
  say "{ahead} {all}"
}
end when turn_number == 9 { }
"""


def test_a_list_of_some_players_is_a_tuple_grown_by_a_loop() -> None:
    """`[p for p in players where c]`: few players pass, often none, so no list is
    made and copied into a tuple; without a `where`, the loop appends to a list."""
    rules, plain = compiled(PICKED, players="3..3"), compiled(PICKED, False, "3..3")
    source = "\n".join(rules.code.source)
    assert re.search(r"_c\d+ \+= \(_v\d+,\)", source)
    assert re.search(r"_c\d+\.append\(", source)  # the list of every player's score
    assert not re.search(r"\+= \(_v\d+,\)", "\n".join(plain.code.source))
    for seed in range(1, 6):
        games = [r.new_game(3, seed=seed) for r in (rules, plain)]
        for g in games:
            g.playout(random.Random(seed))
        assert games[0].record() == games[1].record()
        said = [e.text for e in games[0].events() if isinstance(e, Said)]
        assert said == [e.text for e in games[1].events() if isinstance(e, Said)]
