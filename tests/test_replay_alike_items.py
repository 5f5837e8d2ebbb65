"""A record names a chosen item by its text, and where several items read alike (two
rockfall cards in a hand) by the item too: replaying it takes the very item chosen, so
the replayed game is the game played, down to the order of a hand (docs/api.md,
"Records and replay"). A record without the item (an older save) replays the first
item that reads so."""

from __future__ import annotations

from pathlib import Path

import rulelang
from rulelang import replay

RULES = """game "Twins"
players 2..2
card c count 6 { name: text = if index % 2 == 0 then "twin" else "odd" }
zone deck: c visible to none
zone hand: c per player visible to owner
zone pile: c visible to all
setup { add pieces(c) to deck  deal 3 from deck to hand }
turn { choose x in hand[current]  move x from hand[current] to pile }
end when turn_number > 2 { draw players }
"""


def _game(tmp_path: Path) -> tuple[rulelang.Ruleset, rulelang.Game]:
    path = tmp_path / "twins.rules"
    path.write_text(RULES)
    rules = rulelang.compile_file(path)
    return rules, rules.new_game(2, seed=0)


def _second_of_a_pair(game: rulelang.Game) -> rulelang.Action:
    actions = game.legal_actions()
    texts = [a.text for a in actions]
    twin = next(t for t in texts if texts.count(t) > 1)
    return [a for a in actions if a.text == twin][1]


def test_the_very_item_chosen_is_replayed(tmp_path: Path) -> None:
    rules, game = _game(tmp_path)
    seed = 0
    assert _has_twins(game)
    game.apply(_second_of_a_pair(game))
    record = game.record()
    assert "item" in record[-1]
    again = replay(rules, 2, seed, record)
    assert again.view(None) == game.view(None)
    older = [{k: v for k, v in e.items() if k != "item"} for e in record]
    first = replay(rules, 2, seed, older)  # an older record: the first that reads so
    assert first.view(None)["zones"]["pile"] == game.view(None)["zones"]["pile"]


def _has_twins(game: rulelang.Game) -> bool:
    texts = [a.text for a in game.legal_actions()]
    return len(set(texts)) < len(texts)
