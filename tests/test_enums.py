"""Enumerations (`enum NAME { a, b }`): values qualified and bare, the enum as the list
of its values, comparisons, texts and views that show the names, data files, variants
that replace an enum, and the hints of the diagnostics (the messages are pinned by
tests/snippets/enums.rules)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import rulelang
from rulelang import replay
from rulelang.diagnostics import RuleError

GAME = """game "suits"
players 2..3
enum suit { hearts, spades, clubs }
const deal_order = [suit.hearts, suit.spades, suit.clubs]
card playing_card count 6 {
  suit: suit = deal_order[index % 3]
  name: text = "{deal_order[index % 3]} {index}"
}
zone discard: playing_card
global { trump: suit = hearts  named: list(suit) = [] }
player { favourite: suit  score: int = 0 }

def is_trump(c: playing_card) = c.suit == trump
def black(s: suit) = s in [spades, clubs]

turn {
  choose s in suit prompt "Name a suit"
  set current.favourite = s
  set named = named + [s]
  if black(s) and s != trump {
    say "{current.name} names {s}, a black suit; trump is {trump}"
  }
  choose c in pieces(playing_card) require c.suit == s else "{c} is not of {s}"
  if is_trump(c) {
    set current.score += 2
  }
  if spades in named and clubs == s {
    set trump = suit.clubs
  }
}

end when turn_number > 6 { win [p for p in players where p.score >= 2] }
"""


def test_an_enum_is_the_list_of_its_values_and_they_show_by_name() -> None:
    game = rulelang.compile_source(GAME, "suits.rules").new_game(2, seed=1)
    assert [a.text for a in game.legal_actions()] == ["hearts", "spades", "clubs"]
    game.apply("hearts")
    # the requirement compares each card's suit with the value chosen
    assert [a.text for a in game.legal_actions()] == ["hearts 0", "hearts 3"]
    assert game.why_not("spades 1").reason == "spades 1 is not of hearts"
    game.apply("hearts 3")
    assert game.attribute("score", of=0, kind="player") == 2  # a trump
    assert game.attribute("favourite", of=0, kind="player") == "hearts"
    assert game.attribute("suit", of=4, kind="playing_card") == "spades"
    view = game.view(None)
    assert view["globals"] == {"trump": "hearts", "named": ["hearts"]}
    assert view["players"][0]["favourite"] == "hearts"
    assert view["players"][1]["favourite"] is None  # an attribute without a default
    assert game.history(None)[-2:] == ["P1 chooses hearts", "P1 chooses hearts 3"]


def test_bare_values_compare_where_the_enum_is_known() -> None:
    game = rulelang.compile_source(GAME, "suits.rules").new_game(2, seed=1)
    game.apply("spades")  # black, not the trump: said
    game.apply("spades 1")
    assert game.history(None)[-2] == "P1 names spades, a black suit; trump is hearts"
    assert game.attribute("score", of=0, kind="player") == 0
    game.apply("clubs")  # spades was named and clubs == s: clubs become trump
    game.apply("clubs 2")
    assert game.attribute("trump", kind="global") == "clubs"
    assert game.attribute("score", of=1, kind="player") == 0  # trump changed after


def test_saved_records_replay_by_the_names_shown() -> None:
    rules = rulelang.compile_source(GAME, "suits.rules")
    game = rules.new_game(3, seed=5)
    game.playout(random.Random(2))
    record = game.record()
    assert {e["option"] for e in record if e.get("choose") == "s"} <= {
        "hearts",
        "spades",
        "clubs",
    }
    again = replay(rules, 3, 5, record)
    assert again.results() == game.results()
    assert again.view(None) == game.view(None)


def test_values_are_texts_at_run_time_so_comparisons_cost_what_texts_did() -> None:
    game = rulelang.compile_source(GAME, "suits.rules").new_game(2, seed=1)
    value = game.attribute("suit", of=0, kind="playing_card")
    # the interned text of the name: `==` between two values finds them identical at once
    assert type(value) is str and value is sys.intern("hearts")


RULES = """game "data"
players 2..2
enum card_kind { path, map, rockfall }
enum tool { pick, lamp, cart }
card thing from "cards.yaml" {
  name: text
  kind: card_kind
  tools: list(tool) = []
}
turn {
  choose t in pieces(thing) require t.kind != map else "maps stay"
  if t.kind == rockfall and lamp in t.tools { say "{t}: {t.kind} with {t.tools}" }
}
end when turn_number > 2 { win [current] }
"""


def test_data_files_give_enum_values_by_name(tmp_path: Path) -> None:
    (tmp_path / "cards.yaml").write_text(
        "- {name: a, kind: path, count: 2}\n"
        "- {name: b, kind: map}\n"
        "- {name: c, kind: rockfall, tools: [lamp, cart]}\n",
        encoding="utf-8",
    )
    (tmp_path / "d.rules").write_text(RULES, encoding="utf-8")
    game = rulelang.compile_file(tmp_path / "d.rules").new_game(2)
    assert [a.text for a in game.legal_actions()] == ["a", "a", "c"]
    assert game.attribute("kind", of=3, kind="thing") is sys.intern("rockfall")
    game.apply("c")
    assert game.history(None)[-1] == "c: rockfall with [lamp, cart]"


def test_a_data_value_that_is_not_a_value_of_its_enum_is_reported_at_the_entry(
    tmp_path: Path,
) -> None:
    (tmp_path / "cards.yaml").write_text(
        "- {name: a, kind: path}\n- {name: b, kind: rockfal, tools: [lamp, drill]}\n",
        encoding="utf-8",
    )
    (tmp_path / "d.rules").write_text(RULES, encoding="utf-8")
    with pytest.raises(RuleError) as info:
        rulelang.compile_file(tmp_path / "d.rules")
    found = [(d.code, d.message, d.hint) for d in info.value.diagnostics]
    assert found == [
        (
            "E122",
            "cards.yaml, entry 2: 'kind' must be a value of card_kind, not 'rockfal'",
            "did you mean 'rockfall'?",
        ),
        (
            "E122",
            "cards.yaml, entry 2: 'tools' must be a value of tool, not 'drill'",
            "the values of tool: pick, lamp, cart",
        ),
    ]
    assert all(d.span.line == 5 for d in info.value.diagnostics)


def hints(source: str) -> list[tuple[str, str]]:
    with pytest.raises(RuleError) as info:
        rulelang.compile_source(source, "h.rules")
    return [(d.code, d.hint) for d in info.value.diagnostics]


def test_a_text_where_a_value_is_expected_gets_a_hint_that_says_how_to_write_it() -> None:
    source = """players 2..2
enum card_kind { path, map, rockfall }
card c count 2 { kind: card_kind = "path" }
global { last: card_kind = path }
turn {
  choose k in card_kind
  if k == "rockfall" { set last = "map" }
  if k in ["map", "path"] { }
  if k == "stone" { }
}
end when false { }
"""
    how = "values of the enum card_kind are written without quotes: "
    assert hints(source) == [
        ("E201", how + "card_kind.path"),
        ("E210", how + "card_kind.rockfall"),
        ("E234", how + "card_kind.map"),
        ("E209", how + "card_kind.map, card_kind.path"),
        ("E210", "card_kind is an enum; its values are path, map, rockfall"),
    ]


def test_a_misspelt_value_suggests_the_close_one() -> None:
    source = """players 2..2
enum card_kind { path, map, rockfall }
global { last: card_kind = card_kind.rockfal }
turn { choose k in card_kind  if k == rokfall { } }
end when false { }
"""
    assert hints(source) == [("E101", "did you mean 'rockfall'?")] * 2


def test_names_that_hold_a_value_of_the_enum_hide_its_bare_values_others_do_not() -> None:
    source = """players 2..2
enum use { play, discard }
card c count 2 { }
zone discard: c               # a zone: a value of use cannot be one, so 'discard' is
global { play: use = discard }    # the value here; a global of the enum hides 'play'
turn {
  choose u in use
  if u == discard { say "discarded" }
  if u == play { say "as the global: {play}" }
}
end when false { }
"""
    game = rulelang.compile_source(source, "h.rules").new_game(2)
    game.apply("discard")
    assert game.history(None)[-2:] == ["discarded", "as the global: discard"]


def test_a_variant_may_replace_an_enum(tmp_path: Path) -> None:
    (tmp_path / "base.rules").write_text(
        'game "roles"\nplayers 2..2\nenum role { miner, saboteur }\n'
        "player { role: role = miner }\n"
        "turn { choose r in role  set current.role = r }\n"
        "end when any(p.role == saboteur for p in players) { win [current] }\n",
        encoding="utf-8",
    )
    (tmp_path / "v.rules").write_text(
        'extends "base.rules"\noverride enum role { miner, saboteur, gold_seeker }\n',
        encoding="utf-8",
    )
    game = rulelang.compile_file(tmp_path / "v.rules").new_game(2)
    assert [a.text for a in game.legal_actions()] == ["miner", "saboteur", "gold_seeker"]


def test_a_tool_sets_an_enum_attribute_by_the_value_s_name() -> None:
    game = rulelang.compile_source(GAME, "suits.rules").new_game(2, seed=1)
    game.edit().set("trump", "spades", of=None)
    assert game.attribute("trump", kind="global") is sys.intern("spades")
    game.edit().set("favourite", "clubs", of=1)
    assert game.view(None)["players"][1]["favourite"] == "clubs"
    with pytest.raises(rulelang.UsageError, match=r"holds a value of suit \(hearts, spades"):
        game.edit().set("trump", "diamonds", of=None)
    game.apply("spades")
    game.apply("spades 1")
    assert game.attribute("score", of=0, kind="player") == 2  # spades are trump now


def test_a_value_named_like_a_proc_outside_its_enum_s_places_says_how_to_write_it() -> None:
    """A card game with a value `guard` and a proc `guard` (the guard's effect): where
    the enum is not expected (`choose g in [guard, spy]`) the name is the proc, and
    E205 said only "'guard' is a proc, not a value"."""
    source = """players 2..2
enum kind { guard, spy }
enum role { spy, guard }
proc guard { }
turn { choose g in [guard] }
end when false { }
"""
    assert hints(source) == [
        ("E205", "the value of enum kind is written kind.guard here (or role.guard)")
    ]
