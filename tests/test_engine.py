"""Engine features beyond Heimlich: runtime errors, variants, params, tables, zones,
hidden information, out-of-turn choices, phases, scripted chance, clones, boards.

Reference: docs/language.md. Small games are compiled from text with compile_source;
tests/games/cards.rules is a card game with zones, a secret bid and two phases.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang import CHANCE, TERMINAL, Game, Ruleset, UsageError
from rulelang.diagnostics import GameRuntimeError, Span
from rulelang.runtime.code import none_used

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "tests" / "games" / "cards.rules"
HEIMLICH = ROOT / "rulesets" / "heimlich.rules"
QUICK = ROOT / "rulesets" / "heimlich-quick.rules"
VALUES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
DECK = [f"number{i}" for i in range(1, 21)]  # the cards' first order, bottom first
D6 = ["1", "2", "3", "4", "5", "6"]


def game_text(body: str, players: str = "2..4") -> str:
    return f'game "Test"\nplayers {players}\n{body}'


def compile_text(body: str, name: str = "snippet.rules", players: str = "2..4") -> Ruleset:
    return rulelang.compile_source(game_text(body, players), name)


def line_of(text: str, fragment: str) -> int:
    """The line number of the first line holding `fragment` (counted from 1)."""
    hits = [i for i, line in enumerate(text.splitlines(), start=1) if fragment in line]
    assert hits, fragment
    return hits[0]


def runtime_error(
    rules: Ruleset, moves: list[str], players: int = 2, **kw: Any
) -> GameRuntimeError:
    with pytest.raises(GameRuntimeError) as info:
        g = rules.new_game(players, **kw)
        for m in moves:
            g.apply(m)
    return info.value


def texts(g: Game) -> list[str]:
    return [a.text for a in g.legal_actions()]


def random_playout(g: Game, seed: int, limit: int = 5000) -> Game:
    rng = random.Random(seed)
    for _ in range(limit):
        if g.is_over():
            return g
        if g.current_player() == CHANCE:
            g.resolve_chance()
        else:
            g.apply(rng.choice(g.legal_actions()))
    raise AssertionError(f"no end after {limit} moves")


# --------------------------------------------------------------------------- runtime errors
LOOP = """global { x: int = 0 }
turn {
  choose n in 1..2
  while true {
    set x += 1
  }
}
end when false { }
"""


def test_step_budget_stops_an_endless_while() -> None:
    text = game_text(LOOP)
    rules = rulelang.compile_source(text, "loop.rules")
    g = rules.new_game(2)  # the loop comes after the first choice
    assert texts(g) == ["1", "2"]
    with pytest.raises(GameRuntimeError) as info:
        g.apply("1")
    err = info.value
    assert err.code == "R001"
    assert err.span.file == "loop.rules"
    assert err.span.line == line_of(text, "while true")
    assert err.span.col == 3
    assert "100000" in err.message
    assert str(err).startswith(f"loop.rules:{err.span.line}:3: runtime error[R001]: ")


def test_step_budget_at_game_start_and_in_other_loops() -> None:
    text = game_text("""global { x: int = 0 }
setup {
  repeat 5 { set x += 1 }
}
turn {
  for p in players {
    set x += 1
  }
  while x > 0 {
    set x += 1
  }
  choose n in 1..2
}
end when false { }
""")
    err = runtime_error(rulelang.compile_source(text, "start.rules"), [])
    assert err.code == "R001"
    assert err.span.line == line_of(text, "while x > 0")


def test_step_budget_counts_rounds_between_decisions_only() -> None:
    # 60000 rounds before each decision: below the budget, however many decisions.
    rules = compile_text("""global { x: int = 0 }
turn {
  let i = 0
  while i < 60000 {
    set i += 1
  }
  set x += 1
  choose n in 1..2
}
end when x >= 3 { win [current] }
""")
    g = rules.new_game(2)
    g.apply("1")
    g.apply("2")
    assert g.is_over()
    assert g.view(None)["globals"]["x"] == 3


def test_turns_that_ask_nobody_stop_with_r001() -> None:
    text = game_text("""global { x: int = 0 }
turn {
  if x > 5 {
    set x += 1
  } else {
    choose n in 1..2
    set x = 10
  }
}
end when false { }
""")
    rules = rulelang.compile_source(text, "idle.rules")
    g = rules.new_game(2)
    with pytest.raises(GameRuntimeError) as info:
        g.apply("1")
    assert info.value.code == "R001"


def test_r002_choice_without_options_at_run_time() -> None:
    text = game_text("""player { score: int = 0 }
turn {
  choose n in 1..3
  set current.score += n
  choose q in [p for p in players where p.score > 5]
}
end when false { }
""")
    rules = rulelang.compile_source(text, "r002.rules")
    err = runtime_error(rules, ["3"])
    assert err.code == "R002"
    assert err.span.line == line_of(text, "choose q in")
    assert "'q'" in err.message


def test_r012_pick_from_an_empty_list() -> None:
    text = game_text("""player { score: int = 0 }
turn {
  choose n in 1..3
  pick lucky in [p for p in players where p.score > 100]
}
end when false { }
""")
    err = runtime_error(rulelang.compile_source(text, "pick.rules"), ["1"])
    assert err.code == "R012"
    assert err.span.line == line_of(text, "pick lucky")


def test_empty_choice_with_pass_is_allowed() -> None:
    rules = compile_text("""player { score: int = 0 }
global { passed: int = 0 }
turn {
  choose q in [p for p in players where p.score > 5] allow pass
  if q == none { set passed += 1 }
}
end when passed >= 2 { win players }
""")
    g = rules.new_game(2)
    assert texts(g) == ["pass"]
    g.apply("pass")
    g.apply("pass")
    assert g.results() == ["win", "win"]


def test_r003_index_out_of_range_with_span() -> None:
    text = game_text("""global { x: int = 0 }
turn {
  choose n in 0..4
  let xs = [10, 20, 30]
  set x = xs[n]
}
end when false { }
""")
    rules = rulelang.compile_source(text, "index.rules")
    g = rules.new_game(2)
    g.apply("2")
    assert g.view(None)["globals"]["x"] == 30
    with pytest.raises(GameRuntimeError) as info:
        g.apply("3")
    err = info.value
    assert err.code == "R003"
    assert err.span.file == "index.rules"
    assert err.span.line == line_of(text, "set x = xs[n]")
    assert err.span.col == text.splitlines()[err.span.line - 1].index("xs[n]") + 1
    assert "3" in err.message


def test_r013_table_key_without_entry() -> None:
    text = game_text("""table bonus { 1: 10, 2..3: 20 }
global { x: int = 0 }
turn {
  choose n in 1..5
  set x = bonus[n]
}
end when false { }
""")
    rules = rulelang.compile_source(text, "table.rules")
    g = rules.new_game(2)
    g.apply("3")
    assert g.view(None)["globals"]["x"] == 20
    with pytest.raises(GameRuntimeError) as info:
        g.apply("4")
    assert info.value.code == "R013"
    assert info.value.span.line == line_of(text, "set x = bonus[n]")


def test_r003_negative_index() -> None:
    rules = compile_text("""global { x: int = 0 }
turn {
  choose n in -1..0
  set x = [10, 20, 30][n]
}
end when false { }
""")
    g = rules.new_game(2)
    g.apply("0")
    assert g.view(None)["globals"]["x"] == 10
    with pytest.raises(GameRuntimeError) as info:
        g.apply("-1")  # not the last item, as in Python
    assert info.value.code == "R003"


@pytest.mark.parametrize(
    ("expr", "code"),
    [
        ("first([y for y in [1, 2] where y > n * 5])", "R004"),
        ("max(y for y in [1, 2] where y > n * 5)", "R004"),
        ('number(without(["7", "x"], ["7", "x"][1 - n])[0])', "R018"),
    ],
)
def test_r004_r018(expr: str, code: str) -> None:
    text = game_text(f"""global {{ x: int = 0 }}
turn {{
  choose n in 0..1
  set x = {expr}
}}
end when false {{ }}
""")
    rules = rulelang.compile_source(text, "r.rules")
    g = rules.new_game(2)
    g.apply("0")
    with pytest.raises(GameRuntimeError) as info:
        g.apply("1")
    assert info.value.code == code
    assert info.value.span.line == 6


@pytest.mark.parametrize("op", ["/", "%"])
def test_r005_division_by_zero(op: str) -> None:
    text = game_text(f"""global {{ x: int = 0 }}
turn {{
  choose n in 0..4
  set x = 12 {op} n
}}
end when false {{ }}
""")
    rules = rulelang.compile_source(text, "div.rules")
    g = rules.new_game(2)
    g.apply("4")
    assert g.view(None)["globals"]["x"] == (3 if op == "/" else 0)
    with pytest.raises(GameRuntimeError) as info:
        g.apply("0")
    assert info.value.code == "R005"
    assert info.value.span.line == line_of(text, f"set x = 12 {op} n")


def test_division_rounds_down_and_remainder_takes_the_divisor_sign() -> None:
    rules = compile_text("""global { a: int = 0  b: int = 0 }
turn {
  choose n in [-7]
  set a = n / 2
  set b = n % 3
}
end when false { }
""")
    g = rules.new_game(2)
    g.apply("-7")
    assert g.view(None)["globals"] == {"a": -4, "b": 2}


def test_runtime_error_pickles() -> None:
    import pickle

    err = GameRuntimeError("R003", "bad index", rulelang.diagnostics.Span("f.rules", 3, 4))
    again = pickle.loads(pickle.dumps(err))
    assert (again.code, again.message, again.span) == (err.code, err.message, err.span)
    assert str(again) == str(err)


# --------------------------------------------------------------------------- variants, params
@pytest.fixture(scope="module")
def quick() -> Ruleset:
    return rulelang.compile_file(QUICK)


@pytest.fixture(scope="module")
def heimlich() -> Ruleset:
    return rulelang.compile_file(HEIMLICH)


def agent_scores(g: Game) -> list[int]:
    return [row["score"] for row in g.view(None)["pieces"]["agent"]]


def ends_at(rules: Ruleset, score: int, **options: str) -> bool:
    """Does the game end when an agent reaches `score` points? (The win_score param, read
    through play: Perry is set to score - 1 and steps onto the safe in building 1, worth
    1 point.)"""
    g = rules.new_game(3, seed=1, options={**options, "safe_start": "1"}, auto_chance=False)
    g.resolve_chance()  # the deal
    edit = g.edit()
    perry = edit.item("agent", "Perry")
    edit.set("score", score - 1, of=perry, kind="agent")
    g.apply_chance("1-3")
    for text in ("1", "Perry", "1"):
        g.apply(text)
    assert g.attribute("score", of=perry, kind="agent") == score
    return g.is_over()


def win_score(rules: Ruleset, **options: str) -> int:
    """The smallest score (from 1 to 60) that ends the game."""
    return next(s for s in range(1, 61) if ends_at(rules, s, **options))


def test_extends_override_changes_params(quick: Ruleset, heimlich: Ruleset) -> None:
    assert quick.title == "Heimlich & Co (quick)"
    g = quick.new_game(3, seed=1)
    assert g.view(None)["globals"]["safe"] == "building 5"  # safe_start
    assert win_score(quick) == 30
    base = heimlich.new_game(3, seed=1)
    assert base.view(None)["globals"]["safe"] == "building 7"
    assert win_score(heimlich) == 42
    # everything not overridden is the base game
    assert [r["name"] for r in g.view(None)["pieces"]["agent"]] == [
        r["name"] for r in base.view(None)["pieces"]["agent"]
    ]


def play_tracking_scores(g: Game, seed: int) -> list[int]:
    """Random playout; returns the highest agent score seen before the last move."""
    rng = random.Random(seed)
    best_before_end = 0
    for _ in range(5000):
        if g.is_over():
            return [best_before_end, max(agent_scores(g))]
        best_before_end = max(best_before_end, *agent_scores(g))
        g.apply(rng.choice(g.legal_actions()))
    raise AssertionError("no end")


def test_variant_game_ends_at_its_own_win_score(quick: Ruleset) -> None:
    finals = []
    for seed in range(6):
        g = quick.new_game(3, seed=seed)
        before, final = play_tracking_scores(g, seed)
        assert before < 30 <= final
        finals.append(final)
    # the base game would have gone on: at least one game ended below 42
    assert min(finals) < 42


def test_options_override_param_defaults(quick: Ruleset, heimlich: Ruleset) -> None:
    g = quick.new_game(4, seed=3, options={"win_score": "12", "safe_start": "3"})
    assert g.view(None)["globals"]["safe"] == "building 3"
    assert win_score(quick, win_score="12") == 12
    before, final = play_tracking_scores(g, 3)
    assert before < 12 <= final
    # the defaults are untouched by an earlier game with options
    assert quick.new_game(4, seed=3).view(None)["globals"]["safe"] == "building 5"
    assert win_score(quick) == 30
    with pytest.raises(UsageError, match="unknown option 'speed'"):
        heimlich.new_game(3, options={"speed": "1"})
    with pytest.raises(UsageError, match="whole number"):
        heimlich.new_game(3, options={"win_score": "many"})


def test_bool_and_text_params_from_options() -> None:
    rules = compile_text("""param fast = false
param greeting = "hello"
global { said: text = "" }
turn {
  if fast { set said = greeting + "!" } else { set said = greeting }
  choose n in 1..2
}
end when false { }
""")
    assert rules.new_game(2).view(None)["globals"]["said"] == "hello"
    for raw in ("true", "yes", "TRUE"):
        g = rules.new_game(2, options={"fast": raw, "greeting": "hi there"})
        assert g.view(None)["globals"]["said"] == "hi there!"
    assert rules.new_game(2, options={"fast": "no"}).view(None)["globals"]["said"] == "hello"
    with pytest.raises(UsageError, match="true or false"):
        rules.new_game(2, options={"fast": "maybe"})


@pytest.mark.parametrize(("players", "agents"), [(2, 5), (3, 6), (4, 7), (5, 7), (6, 7), (7, 7)])
def test_table_by_player_count_heimlich(heimlich: Ruleset, players: int, agents: int) -> None:
    g = heimlich.new_game(players)
    assert len(g.view(None)["pieces"]["agent"]) == agents


def test_table_by_player_count_snippet() -> None:
    rules = compile_text(
        """table start_money { 2: 10, 3..4: 20, 5: 35 }
const money = start_money[player_count]
player { gold: int = money }
global { pot: int = start_money[player_count] * 2 }
turn { choose n in 1..2 }
end when false { }
""",
        players="2..5",
    )
    expected = {2: 10, 3: 20, 4: 20, 5: 35}
    for n, gold in expected.items():
        v = rules.new_game(n).view(None)
        assert [p["gold"] for p in v["players"]] == [gold] * n
        assert v["globals"]["pot"] == gold * 2


def test_player_count_outside_the_range(heimlich: Ruleset) -> None:
    for n in (0, 1, 8):
        with pytest.raises(UsageError, match="2 to 7 players"):
            heimlich.new_game(n)


# --------------------------------------------------------------------------- the card game
@pytest.fixture(scope="module")
def cards() -> Ruleset:
    return rulelang.compile_file(CARDS)


def card_value(name: str) -> int:
    return VALUES[(int(name.removeprefix("number")) - 1) % len(VALUES)]


def scripted_cards(cards: Ruleset, players: int = 3, **options: str) -> Game:
    """A card game whose deck is in its original order (number1 at the bottom)."""
    g = cards.new_game(players, seed=5, options=options, auto_chance=False)
    assert g.current_player() == CHANCE
    assert g.legal_actions() == []  # a shuffle lists no outcomes
    deck = g.items("deck")
    assert [g.name_of("number", c) for c in deck] == DECK
    g.apply_chance(deck)  # the new order, by the cards' values: number20 stays on top
    return g


def bid_all(g: Game, bids: list[int]) -> None:
    for b in bids:
        g.apply(str(b))


@pytest.mark.parametrize(("players", "hand_size"), [(2, 3), (3, 3), (4, 3), (2, 5), (4, 4)])
def test_cards_deal_sizes(cards: Ruleset, players: int, hand_size: int) -> None:
    g = cards.new_game(players, seed=players, options={"hand_size": str(hand_size)})
    names = [f"P{i + 1}" for i in range(players)]
    everything = g.view(None)["zones"]
    for name in names:
        assert len(everything[f"hand[{name}]"]) == hand_size
    assert len(everything["deck"]) == 20 - players * hand_size
    assert everything["table"] == []
    dealt = [c for name in names for c in everything[f"hand[{name}]"]] + everything["deck"]
    assert sorted(dealt) == sorted(f"number{i}" for i in range(1, 21))
    for p in range(players):
        zones = g.view(p)["zones"]
        assert zones["deck"] == {"size": 20 - players * hand_size}
        assert zones["table"] == []


def test_cards_hand_visible_to_its_owner_only(cards: Ruleset) -> None:
    g = cards.new_game(3, seed=8)
    hands = {name: g.view(None)["zones"][f"hand[{name}]"] for name in ("P1", "P2", "P3")}
    for p, me in enumerate(("P1", "P2", "P3")):
        zones = g.view(p)["zones"]
        for name, hand in hands.items():
            if name == me:
                assert zones[f"hand[{name}]"] == hand
            else:
                assert zones[f"hand[{name}]"] == {"size": 3}
        # nothing of another hand leaks into the players or the log
        others = [c for name, hand in hands.items() if name != me for c in hand]
        shown = repr(g.view(p)["players"]) + repr(g.view(p)["log"])
        assert not any(re.search(rf"\b{c}\b", shown) for c in others)


def test_cards_deal_from_the_top_of_the_shuffled_deck(cards: Ruleset) -> None:
    g = scripted_cards(cards)
    zones = g.view(None)["zones"]
    assert zones["hand[P1]"] == ["number20", "number19", "number18"]
    assert zones["hand[P2]"] == ["number17", "number16", "number15"]
    assert zones["hand[P3]"] == ["number14", "number13", "number12"]
    assert zones["deck"] == [f"number{i}" for i in range(1, 12)]
    # another order of the same shuffle
    g2 = cards.new_game(2, seed=5, auto_chance=False)
    g2.apply_chance(g2.items("deck")[::-1])
    assert g2.view(None)["zones"]["hand[P1]"] == ["number1", "number2", "number3"]
    # the record keeps the order as positions in the shuffled zone
    assert g2.record()[0] == {"chance": "deck", "outcome": list(reversed(range(20)))}


def test_cards_bad_shuffle_outcomes_are_refused(cards: Ruleset) -> None:
    g = cards.new_game(2, seed=5, auto_chance=False)
    deck = g.items("deck")
    for bad in [deck[:19], [deck[0]] * 20, [*deck[1:], len(deck)], [*deck, deck[0]]]:
        with pytest.raises(UsageError, match="not an order of its 20 items"):
            g.apply_chance(bad)
    for one in [0, "number1", None]:  # one item is not an order
        with pytest.raises(UsageError, match="needs the new order as a list"):
            g.apply_chance(one)
    assert g.current_player() == CHANCE
    assert g.events() == []
    g.apply_chance(deck)
    assert g.current_player() == 0


def test_cards_secret_bid_and_private_say(cards: Ruleset) -> None:
    g = cards.new_game(3, seed=4)
    assert g.view(None)["phase"] == "bidding"
    assert g.prompt() == "Bid how many points?"
    assert texts(g) == ["0", "1", "2"]
    g.apply("2")
    mine, theirs, everything = g.view(0)["log"], g.view(1)["log"], g.view(None)["log"]
    assert "P1 chooses 2" in mine and "you bid 2" in mine
    assert "P1 chooses in secret" in theirs and "P1 chooses 2" not in theirs
    assert "you bid 2" not in theirs
    assert "P1 chooses 2" in everything and "you bid 2" in everything
    assert g.view(2)["log"] == theirs
    # the bid attribute is visible to its owner only
    assert g.view(0)["players"][0]["bid"] == 2
    assert "bid" not in g.view(1)["players"][0]
    assert g.view(1)["players"][1]["bid"] == 0
    assert [p["bid"] for p in g.view(None)["players"]] == [2, 0, 0]
    g.apply("1")
    assert "P2 chooses in secret" in g.view(0)["log"]
    assert "you bid 1" in g.view(1)["log"] and "you bid 1" not in g.view(0)["log"]
    assert g.view(1)["log"].count("you bid 2") == 0


def test_cards_phases_bidding_then_play(cards: Ruleset) -> None:
    g = scripted_cards(cards)
    seen = []
    for bid in (0, 1, 2):
        seen.append((g.view(None)["phase"], g.current_player()))
        g.apply(str(bid))
    assert seen == [("bidding", 0), ("bidding", 1), ("bidding", 2)]
    assert g.view(None)["phase"] == "play"
    assert g.prompt() == "Play which card?"
    who = g.current_player()
    assert texts(g) == g.view(None)["zones"][f"hand[P{who + 1}]"]


def test_cards_out_of_turn_choice_with_pass(cards: Ruleset) -> None:
    g = scripted_cards(cards)
    bid_all(g, [0, 1, 2])
    player = g.current_player()
    name = f"P{player + 1}"
    card = texts(g)[0]
    g.apply(card)
    assert g.view(None)["zones"]["table"] == [card]
    assert g.current_player() == CHANCE
    assert texts(g) == D6
    g.apply_chance(6)  # a six, by its face
    points = card_value(card) + 6
    assert g.view(None)["players"][player]["points"] == points
    assert f"P{player + 1} rolls 6" in g.view((player + 1) % 3)["log"]
    # every other player is asked in turn, out of turn, and may pass
    first = (player + 1) % 3
    second = (player + 2) % 3
    others = sorted([first, second])
    asked = g.current_player()
    assert asked == others[0]
    v = g.view(None)
    assert v["current"] == name  # still the player's turn
    assert v["to_act"] == f"P{asked + 1}"
    assert g.prompt() == "Discard a card to steal 1 point?"
    hand = g.view(None)["zones"][f"hand[P{asked + 1}]"]
    assert texts(g) == [*hand, "pass"]
    # only the one asked sees the question and its options
    assert g.view(asked)["options"] == [*hand, "pass"]
    assert "options" not in g.view(player) and "prompt" not in g.view(player)
    g.apply("pass")
    assert f"P{asked + 1} passes" in g.view(None)["log"]
    asked2 = g.current_player()
    assert asked2 == others[1]
    stolen = g.view(None)["zones"][f"hand[P{asked2 + 1}]"][1]
    g.apply(stolen)
    v = g.view(None)
    assert v["zones"]["table"] == [card, stolen]
    assert stolen not in v["zones"][f"hand[P{asked2 + 1}]"]
    assert v["players"][asked2]["points"] == 1
    assert v["players"][player]["points"] == points - 1
    assert v["players"][asked]["points"] == 0
    # the turn is over: the next player plays a card
    assert g.current_player() == (player + 1) % 3
    assert g.prompt() == "Play which card?"


def test_next_phase_starts_with_the_player_after_the_last_turn() -> None:
    """docs/language.md, setup/turn/phase: 'When a phase ends, the next phase starts with
    the player after the one who just took a turn ... unless it says order ... from'."""
    rules = compile_text(
        """global { moves: int = 0 }
phase first {
  turn {
    choose n in 1..2 prompt "first"
    set moves += 1
  }
  end when moves == 2
  next second
}
phase second {
  turn {
    choose n in 1..2 prompt "second"
    set moves += 1
  }
  end when moves == 4
  next first
}
end when moves >= 6 { win [current] }
""",
        players="3..3",
    )
    g = rules.new_game(3)
    assert (g.prompt(), g.current_player()) == ("first", 0)
    g.apply("1")
    assert (g.prompt(), g.current_player()) == ("first", 1)
    g.apply("1")  # P2 took the last turn of phase 'first'
    assert g.prompt() == "second"
    assert g.current_player() == 2


def test_phase_order_from_and_counterclockwise() -> None:
    rules = compile_text(
        """global { moves: int = 0 }
phase first {
  order counterclockwise from players[2]
  turn {
    choose n in 1..2 prompt "first"
    set moves += 1
  }
  end when moves == 2
  next second
}
phase second {
  order clockwise from players[1]
  turn {
    choose n in 1..2 prompt "second"
    set moves += 1
  }
  end when moves == 4
  next first
}
end when moves >= 6 { win [current] }
""",
        players="4..4",
    )
    g = rules.new_game(4)
    seen = []
    while not g.is_over():
        seen.append((g.prompt(), g.current_player()))
        g.apply("1")
    assert seen == [
        ("first", 2),
        ("first", 1),
        ("second", 1),
        ("second", 2),
        ("first", 2),
        ("first", 1),
    ]
    # the end rules are checked before the next player is chosen: P2 moved last
    assert g.results() == ["loss", "win", "loss", "loss"]


def test_cards_rank_gives_one_win(cards: Ruleset) -> None:
    for seed in range(8):
        g = random_playout(cards.new_game(3, seed=seed), seed)
        results = g.results()
        assert results.count("win") == 1
        assert results.count("loss") == 2
        points = [p["points"] for p in g.view(None)["players"]]
        best = max(points)
        assert results[points.index(best)] == "win"  # ties: the first seat listed
        order = sorted(range(3), key=lambda p: -points[p])
        ranking = "ranking: " + ", ".join(f"P{p + 1}" for p in order)
        assert g.view(None)["log"][-1] == ranking
        assert ranking in g.view(0)["log"]
        assert all(len(g.view(None)["zones"][f"hand[P{i}]"]) == 0 for i in (1, 2, 3))
        assert g.current_player() == TERMINAL
        assert g.view(1)["results"] == dict(zip(["P1", "P2", "P3"], results, strict=True))


def test_cards_omniscient_view_shows_everything(cards: Ruleset) -> None:
    g = scripted_cards(cards, players=2)
    bid_all(g, [2, 1])
    v = g.view(None)
    assert v["viewer"] is None
    assert v["zones"]["deck"] == [f"number{i}" for i in range(1, 15)]
    assert v["zones"]["hand[P1]"] == ["number20", "number19", "number18"]
    assert v["zones"]["hand[P2]"] == ["number17", "number16", "number15"]
    assert [p["bid"] for p in v["players"]] == [2, 1]
    assert {"P1 chooses 2", "P2 chooses 1", "you bid 2", "you bid 1"} <= set(v["log"])
    assert v["prompt"] == "Play which card?"
    assert v["options"] == texts(g)
    # a player sees less
    p2 = g.view(1)
    assert p2["zones"]["deck"] == {"size": 14}
    assert p2["zones"]["hand[P1]"] == {"size": 3}
    assert "bid" not in p2["players"][0]


def position(g: Game) -> tuple[object, ...]:
    """Everything about a game, through the public API."""
    return (g.view(None), g.history(None), g.record(), g.pending(), g.results())


def test_cards_clone_is_independent(cards: Ruleset) -> None:
    g = cards.new_game(3, seed=12)
    bid_all(g, [1, 0, 2])
    before = position(g)
    view_before = g.view(None)
    c = g.clone()
    assert position(c) == before
    random_playout(c, 3)
    assert c.is_over()
    assert position(g) == before
    assert g.view(None) == view_before
    assert not g.is_over()
    # the clone carries the random generator: the same moves give the same game
    a, b = g.clone(), g.clone()
    for game in (a, b):
        random_playout(game, 99)
    assert position(a) == position(b)
    assert a.results() == b.results()
    # zones and attributes of a clone are not shared
    d = g.clone()
    d.apply(texts(d)[0])
    assert len(d.view(None)["zones"]["table"]) == 1
    assert g.view(None)["zones"]["table"] == []
    assert g.view(None)["players"] == view_before["players"]


def test_cards_scripted_game_to_the_end(cards: Ruleset) -> None:
    """Every decision and die is scripted: the points follow the rules exactly."""
    g = scripted_cards(cards, players=2, hand_size="2")
    bid_all(g, [1, 2])
    points = [0, 0]
    rolls = iter([1, 6, 3, 4])
    while not g.is_over():
        who = g.current_player()
        assert who in (0, 1)
        card = texts(g)[0]
        g.apply(card)
        face = next(rolls)
        g.apply_chance(face)
        points[who] += card_value(card) + face
        if g.is_over():  # the last card: the end rule is checked before anyone is asked
            break
        # the other player always passes
        assert texts(g)[-1] == "pass"
        g.apply("pass")
    assert [p["points"] for p in g.view(None)["players"]] == points
    winner = 0 if points[0] >= points[1] else 1
    assert g.results()[winner] == "win"


def test_roll_scripted_by_face() -> None:
    rules = compile_text("""import dice
player { score: int = 0 }
turn {
  roll face = d6
  set current.score += face
  choose n in 1..2
}
end when false { }
""")
    g = rules.new_game(2, auto_chance=False)
    assert g.current_player() == CHANCE
    assert [(a.value, a.text) for a in g.legal_actions()] == [(i, str(i)) for i in range(1, 7)]
    assert texts(g) == D6
    for bad in (7, 0, -1, "7", True, 4.5):
        with pytest.raises(UsageError, match="is not a possible outcome of 'face'"):
            g.apply_chance(bad)
    with pytest.raises(UsageError):
        g.chance_index(6)  # by position: 0..5
    with pytest.raises(UsageError):
        g.chance_index(-1)
    g.apply_chance(4)  # the face 4
    assert g.view(None)["players"][0]["score"] == 4
    assert "P1 rolls 4" in g.view(1)["log"]
    g.apply("1")
    g.apply("6")  # apply() with a chance outcome's text
    assert g.view(None)["players"][1]["score"] == 6
    assert g.current_player() == 1
    with pytest.raises(UsageError, match="not waiting for a chance event"):
        g.apply_chance(0)
    # auto_chance: the same seed rolls the same
    a, b = rules.new_game(2, seed=3), rules.new_game(2, seed=3)
    assert a.view(None) == b.view(None)


def test_shuffle_let_and_pick_scripted() -> None:
    rules = compile_text("""global { order: list(int) = []  lucky: player = none }
turn {
  shuffle xs = [10, 20, 30, 40]
  set order = xs
  pick p in players
  set lucky = p
  choose n in 1..2
}
end when false { }
""")
    g = rules.new_game(3, auto_chance=False)
    assert g.legal_actions() == []
    g.apply_chance([40, 10, 30, 20])  # the new order, by value
    assert g.view(None)["globals"]["order"] == [40, 10, 30, 20]
    assert texts(g) == ["P1", "P2", "P3"]
    g.apply_chance("P3")  # the player picked, by text
    assert g.view(None)["globals"]["lucky"] == "P3"
    assert g.record()[:2] == [
        {"chance": "xs", "outcome": [3, 0, 2, 1]},
        {"chance": "p", "outcome": 2},
    ]
    assert "something is picked at random" in g.view(0)["log"]
    assert "picked at random: P3" in g.view(None)["log"]
    assert "P1 shuffles" in g.view(0)["log"]


# --------------------------------------------------------------------------- boards
def test_line_board_step_off_the_end_is_r014() -> None:
    text = game_text("""board track = line(5)
global { at: node(track) = 0 }
turn {
  choose k in -1..3
  set at = step(track, at, k)
}
end when false { }
""")
    rules = rulelang.compile_source(text, "line.rules")
    g = rules.new_game(2)
    g.apply("3")
    g.apply("1")
    assert g.view(None)["globals"]["at"] == "4"
    g.apply("-1")
    assert g.view(None)["globals"]["at"] == "3"
    g.apply("1")
    with pytest.raises(GameRuntimeError) as info:
        g.apply("1")
    assert info.value.code == "R014"
    assert info.value.span.line == line_of(text, "set at = step(")
    with pytest.raises(GameRuntimeError) as back:
        rules.new_game(2).apply("-1")
    assert back.value.code == "R014"


def test_ring_step_and_distance() -> None:
    rules = compile_text("""board town = ring(["church", "b1", "b2", "b3", "b4", "b5",
                   "b6", "b7", "b8", "b9", "b10", "ruin"]) {
  points = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -3]
}
board track = line(6)
global {
  d1: int = 0  d2: int = 0  d3: int = 0  d4: int = 0  d5: int = 0
  s1: node(town) = 0  s2: node(town) = 0  pts: int = 0
}
turn {
  set d1 = distance(town, 10, 2)
  set d2 = distance(town, 2, 10)
  set d3 = distance(town, 5, 5)
  set d4 = distance(track, 1, 4)
  set d5 = distance(track, 4, 1)
  set s1 = step(town, 10, 3)
  set s2 = step(town, 1, -3)
  set pts = town.points[step(town, 0, -1)]
  choose n in 1..2
}
end when false { }
""")
    g = rules.new_game(2)
    assert g.view(None)["globals"] == {
        "d1": 4,
        "d2": 8,
        "d3": 0,
        "d4": 3,
        "d5": -1,
        "s1": "b1",
        "s2": "b10",
        "pts": -3,
    }


def test_board_attribute_of_wrong_length_is_r019() -> None:
    rules = compile_text("""board town = ring(3) {
  points = [1, 2]
}
turn { choose n in 1..2 }
end when false { }
""")
    with pytest.raises(GameRuntimeError) as info:
        rules.new_game(2)
    assert info.value.code == "R019"


def test_a_list_of_conditions_written_out_counts_the_true_ones() -> None:
    """`count(list)` counts the true items of a list of bools, also when the list is
    written out (its items' type was lost: every item was counted)."""
    rules = compile_text(
        """global { n: int = 0 }
turn {
  choose k in [1, 2]
  set n = count([true, false, k == 2]) + 10 * count([1, 2, 3])
}
end when n > 0 { win [current] }
"""
    )
    g = rules.new_game(2)
    g.apply("2")
    assert g.attribute("n") == 32
    g = rules.new_game(2)
    g.apply("1")
    assert g.attribute("n") == 31


NONE_GAME = """player {{ score: int = 0 }}
global {{
  who: player
  total: int = 0
}}
setup {{
{setup}
}}
turn {{
  choose k in [1, 2]
  set total += k
{turn}
}}
end when total > 3 {{ win [current] }}
"""


@pytest.mark.parametrize(
    ("setup", "turn", "fragment"),
    [
        ("", '  say "{who.name} leads"', "say"),
        ("", "  set who.score = 3", "set who.score"),
        ("", "  set total += who.score", "set total += who.score"),
        ("  set total = who.score", "", "set total = who.score"),
        ("", "  let n: int = none\n  set total += n + 1", "set total += n + 1"),
    ],
    ids=["name of none", "set an attribute of none", "read one", "in setup", "none as int"],
)
def test_none_used_as_a_value_is_a_runtime_error_at_its_statement(
    setup: str, turn: str, fragment: str
) -> None:
    """`none` where a value is needed raised a Python TypeError (an internal error);
    it is R030 at the statement that used it, on every path that runs rules."""
    text = game_text(NONE_GAME.format(setup=setup, turn=turn), "2..2")
    rules = rulelang.compile_source(text, "none.rules")
    for moves in ([], ["1"]):
        try:
            g = rules.new_game(2)
            for m in moves:
                g.apply(m)
        except GameRuntimeError as err:
            assert err.code == "R030", err
            assert err.span.line == line_of(text, fragment), err
            break
    else:
        pytest.fail("no runtime error")
    with pytest.raises(GameRuntimeError) as info:  # bots take the same path
        rules.new_game(2, seed=3).playout(random.Random(1))
    assert info.value.code == "R030"


def test_a_type_error_not_caused_by_none_stays_a_bug() -> None:
    err = TypeError("unsupported operand type(s) for +: 'int' and 'str'")
    assert none_used(err, Span("x.rules", 1, 1)) is err
    nothing: Any = None
    with pytest.raises(TypeError) as info:  # raised here, not in generated code: a bug
        nothing.score = nothing[0]
    assert none_used(info.value, Span("x.rules", 1, 1)) is info.value


def test_a_shuffle_without_a_log_says_what_is_shuffled_and_nobody_shuffles_the_setup() -> None:
    """docs/language.md: "P1 shuffles deck" (a zone); in the setup, nobody's turn, "deck
    is shuffled"."""
    rules = compile_text("""card c count 3 { name: text = "card {index + 1}" }
zone deck: c visible to none
setup { add pieces(c) to deck  shuffle deck }
turn {
  shuffle deck
  choose n in 1..2
}
end when false { }
""")
    g = rules.new_game(2, seed=1)
    assert g.history(0) == ["deck is shuffled", "P1 shuffles deck"]
