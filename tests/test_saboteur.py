"""Scripted Saboteur scenarios: every chance event is chosen by the test (auto_chance=False).

Spec: /work/shared/seeds/000_*.txt and /work/shared/reference/saboteur.md; the official
variant is rulesets/saboteur-official.rules. Deals are scripted by giving each shuffle the
new order of its cards; a maze that a scenario needs is laid with `Game.edit()` after
setup. Only the public engine API is used.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from saboteur_support import (  # noqa: F401 - rules and official are fixtures
    MINER_CARDS,
    NUGGETS,
    OFFICIAL,
    PLAYCARDS,
    SABOTEUR,
    SABOTEUR_CARDS,
    check_playcards,
    nuggets_held,
    official,
    rules,
)

from rulelang import CHANCE, TERMINAL, Decision, Game, Ruleset, UsageError

HAND_SIZE = {3: 6, 4: 6, 5: 6, 6: 5, 7: 5, 8: 4, 9: 4, 10: 4}
NUGGET_VALUES = [1] * 16 + [2] * 8 + [3] * 4  # nugget card i is worth NUGGET_VALUES[i]
# the goal cards as the round's shuffle lists them (`goals` orders them by index here),
# and the cells they go to in turn
GOALS = ["gold", "stone N-E", "stone N-W"]
GOAL_CELLS = ["8,2", "8,0", "8,-2"]
GOLD_MIDDLE = (1, 0, 2)  # the gold at 8,0, stone N-E at 8,2, stone N-W at 8,-2
HIDDEN_TILE = {"tile": "?", "secret": True}  # a face-down card as the players see it
# cards that pad the hands a test does not script: ones no scenario needs
PADDING = [
    "tunnel N-S",
    "tunnel N-W",
    "tunnel N-E",
    "dead end W",
    "dead end S",
    "dead end N-E",
    "dead end N-W",
    "dead end N-S",
    "dead end N-E-S",
    "dead end E-S-W",
    "map",
    "rockfall",
    "repair pick",
    "repair lamp",
    "repair cart",
    "repair pick+lamp",
    "repair pick+cart",
    "repair lamp+cart",
    "tunnel N-E-S",
    "broken pick",
    "broken lamp",
    "broken cart",
]


@pytest.fixture(scope="module", params=["saboteur", "official"])
def either(request: pytest.FixtureRequest, rules: Ruleset, official: Ruleset) -> Ruleset:
    return rules if request.param == "saboteur" else official


# --------------------------------------------------------------------------- reading the game
def card_names(g: Game, ids: Sequence[int]) -> list[str]:
    return [g.name_of("playcard", i) for i in ids]


def nugget_values(g: Game, ids: Sequence[int]) -> list[int]:
    return [int(g.attribute("value", of=i, kind="nugget")) for i in ids]


def role_on(g: Game, dwarf: int) -> str:
    """The role on a dwarf card."""
    return str(g.attribute("role", of=dwarf, kind="dwarf"))


def gold_of(g: Game, p: int) -> int:
    return sum(nugget_values(g, g.items("gold", p)))


def roles(g: Game) -> list[str]:
    return [p["role"] for p in g.view(None, only={"players"})["players"]]


def texts(g: Game) -> list[str]:
    return [a.text for a in g.legal_actions()]


def waiting_for(g: Game) -> Decision:
    decision = g.pending()
    assert decision is not None, "the game is over"
    return decision


def choosing(g: Game) -> str:
    decision = waiting_for(g)
    assert decision.kind == "choice", "the game waits for a chance event"
    assert g.current_player() == decision.player >= 0
    return decision.name


def current(g: Game) -> str:
    return g.player_names[g.turn_player]


def maze(g: Game, viewer: int | None = None) -> dict[str, Any]:
    cells = g.view(viewer, only={"boards"})["boards"]["maze"]
    # the omniscient view also names each card ("item"); compare what is on the table
    return {c: {k: v for k, v in t.items() if k != "item"} for c, t in cells.items()}


def tile(g: Game, at: str, viewer: int | None = None) -> dict[str, Any]:
    """The card on a cell of the maze, as `viewer` sees it (None: the referee)."""
    found = g.tile("maze", at, viewer)
    assert found is not None, f"no card at {at}"
    return found


def face_down(g: Game, at: str) -> bool:
    """Is the card at `at` face down: secret, and only a '?' to every player?"""
    return tile(g, at)["secret"] is True and all(
        tile(g, at, p) == HIDDEN_TILE for p in range(g.players)
    )


def log(g: Game, viewer: int | None = None) -> list[str]:
    return g.history(viewer)


# --------------------------------------------------------------------------- scripted chance
def expect_chance(g: Game, kind: str, name: str) -> None:
    assert g.current_player() == CHANCE
    decision = waiting_for(g)
    assert (decision.kind, decision.name) == (kind, name)


def arrange(
    items: Sequence[Any],
    last_first: Sequence[Any],
    key: Callable[[Any], Any],
    pad: Sequence[Any] = (),
) -> list[Any]:
    """A new order of `items` (for a shuffle) that ends with items matching `last_first`
    (the first one last, as pop() takes it first). None in `last_first` takes any item,
    preferring the keys in `pad` in that order."""
    left = list(range(len(items)))
    chosen: list[int | None] = []
    for want in last_first:
        if want is None:
            chosen.append(None)
            continue
        j = next((j for j in left if key(items[j]) == want), None)
        assert j is not None, f"no {want!r} left to arrange"
        left.remove(j)
        chosen.append(j)
    fill = sorted(
        left, key=lambda j: pad.index(key(items[j])) if key(items[j]) in pad else len(pad)
    )
    used = fill[: chosen.count(None)]
    picks = iter(used)
    order = [j if j is not None else next(picks) for j in chosen]
    rest = [j for j in left if j not in used]
    return [items[j] for j in rest + order[::-1]]


def nuggets_on_top(values: Sequence[int]) -> list[int]:
    """An order of the nugget cards that puts cards of these values on top, in this order."""
    return arrange(range(NUGGETS), list(values), lambda i: NUGGET_VALUES[i])


def deal_roles(g: Game, role_list: Sequence[str] | None) -> None:
    """Resolve the shuffle of the role cards: P1 gets role_list[0], P2 role_list[1]..."""
    expect_chance(g, "shuffle_zone", "aside")
    aside = g.items("aside")
    if role_list is None:
        g.apply_chance(aside)  # as they lie
        return
    g.apply_chance(arrange(aside, list(role_list), lambda d: role_on(g, d)))


def start_round(
    g: Game,
    goals: Sequence[int] = (0, 1, 2),
    hands: Sequence[Sequence[str]] = (),
    draws: Sequence[str] = (),
) -> None:
    """Resolve the shuffles of a round: goals by `goals`, the deck so that P1, P2... are
    dealt `hands` (the rest padded) and then draw `draws` in that order."""
    expect_chance(g, "shuffle", "goals")
    g.apply_chance([GOALS[i] for i in goals])
    expect_chance(g, "shuffle_zone", "deck")
    n = g.players
    wanted: list[str | None] = []
    for p in range(n):
        hand = list(hands[p]) if p < len(hands) else []
        assert len(hand) <= HAND_SIZE[n]
        wanted += hand + [None] * (HAND_SIZE[n] - len(hand))
    wanted += list(draws)
    deck = g.items("deck")
    name = {c: g.name_of("playcard", c) for c in deck}
    g.apply_chance(arrange(deck, wanted, name.__getitem__, PADDING))


def start(
    rules: Ruleset,
    n: int = 5,
    role_list: Sequence[str] | None = None,
    first: int = 0,
    goals: Sequence[int] = (0, 1, 2),
    hands: Sequence[Sequence[str]] = (),
    draws: Sequence[str] = (),
    nuggets: Sequence[int] | None = None,
) -> Game:
    g = rules.new_game(n, seed=1, auto_chance=False)
    expect_chance(g, "shuffle_zone", "nuggets")
    # by default the nugget cards in order: the 3-gold cards on top
    g.apply_chance(list(nuggets) if nuggets is not None else list(range(NUGGETS)))
    deal_roles(g, role_list)
    expect_chance(g, "pick", "first_player")
    assert texts(g) == [f"P{i + 1}" for i in range(n)]
    g.apply_chance(f"P{first + 1}")
    start_round(g, goals, hands, draws)
    assert g.current_player() == first
    return g


# --------------------------------------------------------------------------- scenario edits
def take(g: Game, name: str) -> int:
    """A card of that name from the deck (for laying a maze or a broken tool)."""
    card = next((c for c in g.items("deck") if g.name_of("playcard", c) == name), None)
    assert card is not None, f"no {name} left in the deck"
    return card


def put(g: Game, x: int, y: int, name: str, turn: int = 0) -> int:
    """Lay a card from the deck face up on the maze (a scenario shortcut)."""
    card = g.edit().place("maze", f"{x},{y}", take(g, name), turn)
    assert card not in g.items("deck")
    return card


def turn_face_up(g: Game, x: int, y: int) -> None:
    g.edit().reveal("maze", f"{x},{y}")


def corridor(g: Game, to: int = 6) -> None:
    """Through-tunnels along row 0 from the start to column `to` (none of them W-E)."""
    kinds = ["tunnel E-S-W"] * 5 + ["tunnel N-E-S-W"] * 5
    for x in range(1, to + 1):
        put(g, x, 0, kinds[x - 1])


def break_tool(g: Game, p: int, tool: str) -> None:
    card = g.edit().move(take(g, f"broken {tool}"), "front", p)
    assert card not in g.items("deck")


def front(g: Game, p: int) -> list[str]:
    return card_names(g, g.items("front", p))


def discard_pile(g: Game) -> list[str]:
    return card_names(g, g.items("discard"))


def play(g: Game, card: str, *choices: str) -> None:
    g.apply(card)
    g.apply("play")
    for c in choices:
        g.apply(c)


def take_gold(g: Game, pick: Callable[[list[str]], str] = max) -> list[int]:
    """Let every taker pick (by default the most valuable card); the seats in order."""
    seats = []
    while not g.is_over() and g.current_player() >= 0 and choosing(g) == "n":
        seats.append(g.current_player())
        g.apply(pick(texts(g)))
    return seats


def empty_but_one(g: Game) -> None:
    """The deck and every hand go to the discard pile but one card of the current player."""
    me = g.current_player()
    edit = g.edit()
    for c in g.items("deck"):
        edit.move(c, "discard")
    for p in range(g.players):
        hand = g.items("hand", p)
        for c in hand[1:] if p == me else hand:
            edit.move(c, "discard")


def check_counts(g: Game) -> None:
    """Every play card is in one place, and every nugget card in one zone."""
    check_playcards(g)
    assert nuggets_held(g) == list(range(NUGGETS))


# =========================================================================== setup
@pytest.mark.parametrize("n", range(3, 11))
def test_setup_deals_roles_hands_and_lays_the_maze(rules: Ruleset, n: int) -> None:
    g = rules.new_game(n, seed=n)
    v = g.view(None)
    zones = v["zones"]
    for p in range(n):
        assert len(zones[f"hand[P{p + 1}]"]) == HAND_SIZE[n]
        assert zones[f"role_card[P{p + 1}]"] == [v["players"][p]["role"]]
        assert zones[f"front[P{p + 1}]"] == []
        assert zones[f"gold[P{p + 1}]"] == []
    assert len(zones["aside"]) == 1
    in_play = roles(g) + zones["aside"]
    assert in_play.count("saboteur") == SABOTEUR_CARDS[n]
    assert in_play.count("miner") == MINER_CARDS[n]
    assert len(zones["deck"]) == PLAYCARDS - 4 - n * HAND_SIZE[n]
    assert sorted(zones["nuggets"]) == sorted(f"{v} gold" for v in NUGGET_VALUES)
    board = v["boards"]["maze"]
    assert set(board) == {"0,0", *GOAL_CELLS}
    assert board["0,0"]["tile"] == "start"
    assert board["0,0"]["open"] == [True, True, True, True]
    assert all(board[c]["secret"] is True for c in GOAL_CELLS)
    assert all(face_down(g, c) for c in GOAL_CELLS)
    check_playcards(g)
    assert nuggets_held(g) == list(range(NUGGETS))
    assert v["globals"]["round"] == 1


def test_scripted_start(rules: Ruleset) -> None:
    g = start(
        rules,
        5,
        ["miner", "saboteur", "miner", "miner", "saboteur"],
        first=3,
        goals=GOLD_MIDDLE,
        hands=[["map", "rockfall"], [], [], ["broken lamp"]],
        draws=["repair cart"],
    )
    assert roles(g) == ["miner", "saboteur", "miner", "miner", "saboteur"]
    assert current(g) == "P4"
    zones = g.view(None)["zones"]
    assert zones["hand[P1]"][:2] == ["map", "rockfall"]
    assert zones["hand[P4]"][0] == "broken lamp"
    assert zones["deck"][-1] == "repair cart"
    assert zones["aside"] == ["miner"]
    assert [tile(g, f"8,{y}")["tile"] for y in (2, 0, -2)] == ["stone N-E", "gold", "stone N-W"]
    assert all(face_down(g, f"8,{y}") for y in (2, 0, -2))
    # P4 discards: the card drawn is the next one from the deck
    g.apply("broken lamp")
    g.apply("discard")
    assert "repair cart" in g.view(None)["zones"]["hand[P4]"]
    assert current(g) == "P5"


# =========================================================================== path cards
def test_a_mismatched_edge_is_refused(rules: Ruleset) -> None:
    g = start(rules, 3, hands=[["tunnel N-S"]])
    g.apply("tunnel N-S")
    g.apply("play")
    assert choosing(g) == "spot"
    assert texts(g) == ["0,-1", "0,1"]
    refusal = g.why_not("1,0")
    assert refusal.reason == "tunnel N-S does not fit there, either way up"
    assert refusal.span is not None
    assert g.why_not("-1,0").reason == "tunnel N-S does not fit there, either way up"
    with pytest.raises(UsageError):
        g.apply("1,0")


def test_a_card_must_meet_every_neighbour(rules: Ruleset) -> None:
    g = start(rules, 3, hands=[["tunnel N-E-S", "tunnel W-E"]])
    put(g, 1, 0, "tunnel W-E")  # its N side is closed
    put(g, 0, 1, "tunnel E-S-W")  # its E side is open, towards 1,1
    # 1,1 touches the network through 0,1, so a card there needs W open, and S closed
    # above 1,0: the tee has S open either way up
    tee = g.clone()
    tee.apply("tunnel N-E-S")
    tee.apply("play")
    assert "1,1" not in texts(tee)
    assert tee.why_not("1,1").reason == "tunnel N-E-S does not fit there, either way up"
    g.apply("tunnel W-E")
    g.apply("play")
    assert "1,1" in texts(g)
    g.apply("1,1")
    assert texts(g) == ["0", "180"]
    g.apply("0")
    assert maze(g)["1,1"]["tile"] == "tunnel W-E"


def test_a_spot_not_joined_to_the_start_is_refused(rules: Ruleset) -> None:
    g = start(rules, 3, hands=[["tunnel N-E-S-W"]])
    put(g, 1, 0, "tunnel W-E")
    g.apply("tunnel N-E-S-W")
    g.apply("play")
    spots = texts(g)
    # next to a placed card, but only across its closed sides; far away; next to a goal
    for far in ["1,1", "1,-1", "5,5", "7,0", "8,1"]:
        assert far not in spots
        refusal = g.why_not(far)
        assert "is not an option for 'spot'" in refusal.reason
    with pytest.raises(UsageError):
        g.apply("7,0")
    assert set(spots) == {"0,1", "0,-1", "-1,0", "2,0"}


def test_a_dead_end_does_not_carry_the_path(rules: Ruleset) -> None:
    g = start(rules, 3, hands=[["dead end W-E"], ["tunnel W-E", "tunnel W-E"]])
    play(g, "dead end W-E", "1,0", "0")
    assert maze(g)["1,0"] == {
        "tile": "dead end W-E",
        "turn": 0,
        "open": [False, True, False, True],
        "joined": False,
        "secret": False,
    }
    assert current(g) == "P2"
    g.apply("tunnel W-E")
    g.apply("play")
    assert "2,0" not in texts(g)  # beyond the dead end: not joined to the start
    assert texts(g) == ["-1,0"]
    assert "is not an option for 'spot'" in g.why_not("2,0").reason
    # with a through-tunnel in its place the same spot is open
    other = start(rules, 3, hands=[["tunnel W-E"], ["tunnel W-E"]])
    play(other, "tunnel W-E", "1,0", "0")
    other.apply("tunnel W-E")
    other.apply("play")
    assert "2,0" in texts(other)


def test_a_dead_end_next_to_the_gold_does_not_reach_it(rules: Ruleset) -> None:
    g = start(rules, 3, goals=GOLD_MIDDLE, hands=[["dead end W-E"]])
    corridor(g)
    play(g, "dead end W-E", "7,0", "0")
    assert face_down(g, "8,0")  # still face down
    assert g.view(None)["globals"]["round_over"] is False
    assert current(g) == "P2" and choosing(g) == "c"
    assert not any("reaches" in line for line in log(g))


def test_turning_180_degrees_makes_a_card_fit(rules: Ruleset) -> None:
    g = start(rules, 3, hands=[["tunnel N-E"]])
    g.apply("tunnel N-E")
    g.apply("play")
    assert "0,1" in texts(g)  # above the start: needs an open S side
    g.apply("0,1")
    assert texts(g) == ["180"]
    refusal = g.why_not("0")
    assert refusal.reason == "turned 0 degrees, tunnel N-E does not fit there"
    assert refusal.span is not None
    g.apply("180")
    assert maze(g)["0,1"] == {
        "tile": "tunnel N-E",
        "turn": 2,
        "open": [False, False, True, True],
        "joined": True,
        "secret": False,
    }


def test_no_turn_needed_below_the_start(rules: Ruleset) -> None:
    g = start(rules, 3, hands=[["tunnel N-E"]])
    play(g, "tunnel N-E", "0,-1")
    assert texts(g) == ["0"]
    assert g.why_not("180").reason == "turned 180 degrees, tunnel N-E does not fit there"


@pytest.mark.parametrize(
    "goals", [(0, 1, 2), GOLD_MIDDLE, (0, 2, 1)], ids=["stone N-E", "gold", "stone N-W"]
)
@pytest.mark.parametrize("card", ["tunnel W-E", "tunnel N-W", "tunnel N-E-S-W"])
def test_any_card_may_go_next_to_a_face_down_goal(
    rules: Ruleset, goals: tuple[int, ...], card: str
) -> None:
    g = start(rules, 3, goals=goals, hands=[[card]])
    corridor(g)
    g.apply(card)
    g.apply("play")
    assert "7,0" in texts(g)
    g.apply("7,0")
    assert "0" in texts(g)  # whatever lies face down at 8,0


def test_a_face_up_goal_must_be_matched(rules: Ruleset) -> None:
    g = start(rules, 3, goals=(0, 1, 2), hands=[["tunnel W-E"]])
    corridor(g)
    turn_face_up(g, 8, 0)  # stone N-E, turned 0: its W side is closed
    g.apply("tunnel W-E")
    g.apply("play")
    assert "7,0" not in texts(g)
    assert g.why_not("7,0").reason == "tunnel W-E does not fit there, either way up"


# =========================================================================== goals
@pytest.mark.parametrize(
    ("goals", "stone", "turn", "sides"),
    [
        ((0, 1, 2), "stone N-E", 2, [False, False, True, True]),
        ((0, 2, 1), "stone N-W", 0, [True, False, False, True]),
    ],
)
def test_a_stone_goal_reached_is_turned_over_to_fit(
    rules: Ruleset, goals: tuple[int, ...], stone: str, turn: int, sides: list[bool]
) -> None:
    g = start(rules, 5, goals=goals, hands=[["tunnel W-E"]])
    corridor(g)
    play(g, "tunnel W-E", "7,0", "0")
    assert maze(g)["8,0"] == {
        "tile": stone,
        "turn": turn,
        "open": sides,
        "joined": True,
        "secret": False,
    }
    assert not face_down(g, "8,0")
    for p in range(5):  # every player sees it now
        assert maze(g, p)["8,0"]["tile"] == stone
        assert f"The path reaches the goal at 8,0: it is {stone}." in log(g, p)
    assert face_down(g, "8,2") and face_down(g, "8,-2")
    # play goes on
    assert g.view(None)["globals"]["round_over"] is False
    assert g.view(None)["globals"]["round"] == 1
    assert current(g) == "P2" and choosing(g) == "c"
    assert all(gold_of(g, p) == 0 for p in range(5))


def test_one_card_reaching_two_stone_goals_turns_both_over(rules: Ruleset) -> None:
    # stone N-E at 8,2, stone N-W at 8,0, the gold at 8,-2; a path comes in at 8,1
    g = start(rules, 3, goals=(1, 2, 0), hands=[["tunnel N-E-S"]])
    corridor(g, 6)
    put(g, 6, 1, "tunnel N-E-S")
    put(g, 7, 1, "tunnel W-E")
    g.apply("tunnel N-E-S")
    g.apply("play")
    g.apply("8,1")
    assert texts(g) == ["180"]  # open N, S and W
    g.apply("180")
    board = maze(g)
    # reached from below, stone N-E is turned to S-W; reached from above, N-W stays
    assert board["8,2"] == {
        "tile": "stone N-E",
        "turn": 2,
        "open": [False, False, True, True],
        "joined": True,
        "secret": False,
    }
    assert board["8,0"] == {
        "tile": "stone N-W",
        "turn": 0,
        "open": [True, False, False, True],
        "joined": True,
        "secret": False,
    }
    assert face_down(g, "8,-2")
    assert g.view(None)["globals"]["round_over"] is False
    assert current(g) == "P2"


def test_the_gold_reached_ends_the_round(rules: Ruleset) -> None:
    g = start(
        rules,
        5,
        ["miner", "saboteur", "miner", "miner", "saboteur"],
        goals=GOLD_MIDDLE,
        hands=[["tunnel W-E"]],
    )
    corridor(g)
    deck = len(g.items("deck"))
    play(g, "tunnel W-E", "7,0", "0")
    lines = log(g)
    assert "The path reaches the goal at 8,0: it is gold." in lines
    assert "P1 reaches the gold: the miners win round 1." in lines
    assert maze(g)["8,0"]["tile"] == "gold"
    assert choosing(g) == "n" and g.current_player() == 0
    assert len(g.items("hand", 0)) == 5  # nothing is drawn after the find
    assert len(g.items("deck")) == deck
    take_gold(g)
    # the next round begins, started by the player after the finder
    expect_chance(g, "shuffle", "goals")
    assert g.view(None)["globals"]["round"] == 2
    assert g.view(None)["globals"]["starter"] == "P2"
    start_round(g)
    assert current(g) == "P2"
    assert maze(g).keys() == {"0,0", *GOAL_CELLS}
    assert all(face_down(g, c) for c in GOAL_CELLS)
    check_counts(g)
    assert all(g.items("front", p) == [] for p in range(5))
    assert g.items("discard") == []


# =========================================================================== sharing the gold
SIX_ROLES = ["miner", "saboteur", "miner", "miner", "saboteur", "miner"]


def find_gold(rules: Ruleset, n: int, role_list: Sequence[str], finder: int) -> Game:
    hands: list[list[str]] = [[] for _ in range(n)]
    hands[finder] = ["tunnel W-E"]
    g = start(rules, n, role_list, first=finder, goals=GOLD_MIDDLE, hands=hands)
    corridor(g)
    play(g, "tunnel W-E", "7,0", "0")
    return g


def test_gold_is_shared_clockwise_from_the_finder(rules: Ruleset) -> None:
    g = find_gold(rules, 6, SIX_ROLES, finder=2)
    # as many nugget cards as players, from the top of the shuffled nuggets
    assert sorted(nugget_values(g, g.items("shared"))) == sorted(NUGGET_VALUES[-6:])
    assert len(g.items("nuggets")) == 22
    assert g.current_player() == 2
    assert sorted(texts(g)) == sorted(f"{v} gold" for v in NUGGET_VALUES[-6:])
    assert take_gold(g) == [2, 3, 5, 0, 2, 3]  # P3, P4, P6, P1 and round again
    assert gold_of(g, 1) == gold_of(g, 4) == 0  # saboteurs get nothing
    assert g.items("shared") == []
    assert sum(gold_of(g, p) for p in range(6)) == sum(NUGGET_VALUES[-6:])
    assert [len(g.items("gold", p)) for p in range(6)] == [1, 0, 2, 2, 0, 1]


def test_gold_is_shared_counter_clockwise_in_the_official_rules(official: Ruleset) -> None:
    g = find_gold(official, 6, SIX_ROLES, finder=2)
    assert len(g.items("shared")) == 6
    assert take_gold(g) == [2, 0, 5, 3, 2, 0]  # P3, P1, P6, P4 and round again
    assert gold_of(g, 1) == gold_of(g, 4) == 0
    assert [len(g.items("gold", p)) for p in range(6)] == [2, 0, 2, 1, 0, 1]


def test_a_saboteur_who_completes_the_path_gets_nothing(rules: Ruleset) -> None:
    g = find_gold(rules, 6, SIX_ROLES, finder=1)
    assert "P2 reaches the gold: the miners win round 1." in log(g)
    assert g.current_player() == 2  # the first miner after the saboteur starts
    assert take_gold(g) == [2, 3, 5, 0, 2, 3]
    assert gold_of(g, 1) == gold_of(g, 4) == 0
    expect_chance(g, "shuffle", "goals")
    assert g.view(None)["globals"]["starter"] == "P3"


def test_each_taker_picks_the_card_they_want(rules: Ruleset) -> None:
    # the nuggets shuffled so that a 2, a 1 and a 3 are drawn
    g2 = start(
        rules,
        3,
        ["miner", "miner", "miner"],
        goals=GOLD_MIDDLE,
        hands=[["tunnel W-E"]],
        nuggets=nuggets_on_top([2, 1, 3]),
    )
    corridor(g2)
    play(g2, "tunnel W-E", "7,0", "0")
    assert sorted(texts(g2)) == ["1 gold", "2 gold", "3 gold"]
    g2.apply("2 gold")
    assert g2.current_player() == 1
    assert sorted(texts(g2)) == ["1 gold", "3 gold"]
    g2.apply("1 gold")
    assert texts(g2) == ["3 gold"]
    g2.apply("3 gold")
    assert [gold_of(g2, p) for p in range(3)] == [2, 1, 3]


@pytest.mark.parametrize(
    ("which", "cards", "order"),
    [
        ("saboteur", 10, [0, 1, 2, 3, 4, 5, 6, 0, 1, 2]),
        ("official", 9, [0, 6, 5, 4, 3, 2, 1, 0, 6]),
    ],
)
def test_ten_players_share_ten_or_nine_cards(
    rules: Ruleset, official: Ruleset, which: str, cards: int, order: list[int]
) -> None:
    ruleset = rules if which == "saboteur" else official
    role_list = ["miner"] * 7 + ["saboteur"] * 3
    g = find_gold(ruleset, 10, role_list, finder=0)
    assert len(g.items("shared")) == cards
    assert len(g.items("nuggets")) == NUGGETS - cards
    seats = take_gold(g)
    assert seats == order  # the 7 miners in turn, the saboteurs P8-P10 passed over
    assert sum(len(g.items("gold", p)) for p in range(10)) == cards
    assert all(gold_of(g, p) == 0 for p in range(7, 10))


def test_the_gold_each_miner_takes_is_hidden_from_the_others(rules: Ruleset) -> None:
    """Which nugget a miner takes is their secret (the choice is logged as '?', gold is
    seen by its owner only): a saboteur looking on must not learn it from anything."""
    views: list[tuple[dict[str, Any], list[str]]] = []
    for pick in ("3 gold", "1 gold"):
        g = start(
            rules,
            5,
            ["miner", "miner", "miner", "saboteur", "saboteur"],
            goals=GOLD_MIDDLE,
            hands=[["tunnel W-E"]],
            nuggets=nuggets_on_top([1, 2, 3, 1, 2]),
        )
        corridor(g)
        play(g, "tunnel W-E", "7,0", "0")
        assert sorted(texts(g)) == ["1 gold", "1 gold", "2 gold", "2 gold", "3 gold"]
        g.apply(pick)
        assert g.view(3)["log"][-1] == "P1 takes a gold card"
        assert g.view(3)["zones"]["gold[P1]"] == {"size": 1}
        views.append((g.view(3), g.history(3)))
    # the cards still waiting to be taken would tell which one P1 took
    assert views[0][0]["zones"]["shared"] == views[1][0]["zones"]["shared"]
    assert views[0] == views[1]


# =========================================================================== tools
def test_a_broken_tool_stops_path_cards(either: Ruleset) -> None:
    g = start(either, 3, hands=[["broken pick"], ["tunnel W-E", "map"]])
    play(g, "broken pick")
    assert choosing(g) == "victim"
    assert texts(g) == ["P1", "P2", "P3"]
    assert "pick" in g.prompt()
    g.apply("P2")
    assert front(g, 1) == ["broken pick"]
    assert g.view(2)["zones"]["front[P2]"] == ["broken pick"]  # lies face up
    assert current(g) == "P2"
    g.apply("tunnel W-E")
    assert texts(g) == ["discard"]
    refusal = g.why_not("play")
    assert refusal.reason == "a broken tool stops you from playing path cards"
    assert refusal.span is not None
    with pytest.raises(UsageError):
        g.apply("play")
    g.apply("discard")
    assert current(g) == "P3"
    # action cards are still allowed to a player with a broken tool
    g2 = start(either, 3, hands=[["map"]])
    break_tool(g2, 0, "lamp")
    g2.apply("map")
    assert texts(g2) == ["play", "discard"]


@pytest.mark.parametrize("tool", ["pick", "lamp", "cart"])
def test_a_tool_cannot_be_broken_twice(rules: Ruleset, tool: str) -> None:
    g = start(rules, 3, hands=[[f"broken {tool}"]])
    break_tool(g, 1, tool)
    break_tool(g, 1, "pick" if tool != "pick" else "lamp")
    play(g, f"broken {tool}")
    assert "P2" not in texts(g)
    assert texts(g) == ["P1", "P3"]
    assert g.why_not("P2").reason == f"P2's {tool} is already broken"
    # a player may have all three broken
    other = [t for t in ["pick", "lamp", "cart"] if t != tool]
    g2 = start(rules, 3, hands=[[f"broken {tool}"]])
    for t in other:
        break_tool(g2, 1, t)
    play(g2, f"broken {tool}", "P2")
    assert sorted(front(g2, 1)) == sorted(f"broken {t}" for t in ["pick", "lamp", "cart"])


def test_a_single_repair(either: Ruleset) -> None:
    g = start(either, 3, hands=[["repair lamp"]])
    break_tool(g, 1, "lamp")
    break_tool(g, 1, "cart")
    break_tool(g, 2, "pick")
    play(g, "repair lamp")
    assert choosing(g) == "patient"
    assert texts(g) == ["P2"]
    assert g.why_not("P3").reason == "P3 has no broken tool that repair lamp repairs"
    assert g.why_not("P1").reason == "P1 has no broken tool that repair lamp repairs"
    g.apply("P2")
    if g.current_player() == 0 and choosing(g) == "fixed":  # the official rules ask
        assert texts(g) == ["broken lamp"]
        g.apply("broken lamp")
    assert front(g, 1) == ["broken cart"]
    assert front(g, 2) == ["broken pick"]
    assert sorted(discard_pile(g)) == ["broken lamp", "repair lamp"]
    assert current(g) == "P2"


def test_a_repair_with_nothing_to_repair_cannot_be_played(either: Ruleset) -> None:
    g = start(either, 3, hands=[["repair pick+cart"]])
    break_tool(g, 1, "lamp")
    g.apply("repair pick+cart")
    assert texts(g) == ["discard"]
    assert g.why_not("play").reason == (
        "repair pick+cart has nowhere to go now; you can discard it"
    )


def test_a_double_repair_repairs_both_broken_tools(rules: Ruleset) -> None:
    g = start(rules, 3, hands=[["repair pick+lamp"]])
    break_tool(g, 1, "pick")
    break_tool(g, 1, "lamp")
    break_tool(g, 1, "cart")
    play(g, "repair pick+lamp", "P2")
    assert front(g, 1) == ["broken cart"]
    assert sorted(discard_pile(g)) == ["broken lamp", "broken pick", "repair pick+lamp"]
    assert current(g) == "P2"


def test_a_double_repair_repairs_one_chosen_tool_in_the_official_rules(official: Ruleset) -> None:
    for chosen, kept in [("broken pick", "broken lamp"), ("broken lamp", "broken pick")]:
        g = start(official, 3, hands=[["repair pick+lamp"]])
        break_tool(g, 1, "pick")
        break_tool(g, 1, "lamp")
        play(g, "repair pick+lamp", "P2")
        assert choosing(g) == "fixed" and g.current_player() == 0
        assert sorted(texts(g)) == ["broken lamp", "broken pick"]
        g.apply(chosen)
        assert front(g, 1) == [kept]
        assert sorted(discard_pile(g)) == sorted([chosen, "repair pick+lamp"])
        assert current(g) == "P2"


def test_a_double_repair_with_one_matching_tool_repairs_that_one(either: Ruleset) -> None:
    g = start(either, 3, hands=[["repair lamp+cart"]])
    break_tool(g, 2, "pick")
    break_tool(g, 2, "cart")
    play(g, "repair lamp+cart")
    assert texts(g) == ["P3"]
    g.apply("P3")
    if g.current_player() == 0 and choosing(g) == "fixed":  # the official rules ask
        assert texts(g) == ["broken cart"]
        g.apply("broken cart")
    assert front(g, 2) == ["broken pick"]
    assert sorted(discard_pile(g)) == ["broken cart", "repair lamp+cart"]
    assert current(g) == "P2"


def test_a_repaired_player_may_play_path_cards_again(rules: Ruleset) -> None:
    g = start(rules, 3, hands=[["repair cart"], ["tunnel W-E"]])
    break_tool(g, 1, "cart")
    play(g, "repair cart", "P2")
    g.apply("tunnel W-E")
    assert texts(g) == ["play", "discard"]


# =========================================================================== rockfall
def test_rockfall_removes_tunnels_and_dead_ends_never_the_start_or_a_goal(rules: Ruleset) -> None:
    g = start(rules, 3, hands=[["rockfall"], ["rockfall"], ["rockfall"]])
    corridor(g, 6)
    put(g, -1, 0, "dead end W-E")
    put(g, 7, 0, "tunnel W-E")
    turn_face_up(g, 8, 0)  # a goal turned over stays, too
    play(g, "rockfall")
    assert choosing(g) == "s"
    spots = texts(g)
    assert set(spots) == {"-1,0", *(f"{x},0" for x in range(1, 8))}
    for fixed in ["0,0", "8,0", "8,2", "8,-2"]:
        assert g.why_not(fixed).reason == "only tunnels fall, not the start or a goal"
    g.apply("3,0")
    assert "3,0" not in maze(g)
    assert sorted(discard_pile(g)) == ["rockfall", "tunnel E-S-W"]
    # the dead end can fall too
    play(g, "rockfall", "-1,0")
    assert "-1,0" not in maze(g)
    assert sorted(discard_pile(g)) == ["dead end W-E", "rockfall", "rockfall", "tunnel E-S-W"]
    # the corridor is cut: 4,0 and beyond no longer join the start
    assert current(g) == "P3"
    play(g, "rockfall")
    assert "4,0" in texts(g)  # a cut-off tunnel may still be removed
    g.apply("4,0")
    assert {"0,0", "8,0", "8,2", "8,-2"} <= maze(g).keys()
    check_playcards(g)


def test_rockfall_needs_a_tunnel_on_the_maze(rules: Ruleset) -> None:
    g = start(rules, 3, hands=[["rockfall"]])
    g.apply("rockfall")
    assert texts(g) == ["discard"]
    assert g.why_not("play").reason == "rockfall has nowhere to go now; you can discard it"


def test_a_gap_left_by_rockfall_can_be_filled(rules: Ruleset) -> None:
    g = start(rules, 3, hands=[["rockfall"], ["tunnel W-E"]])
    corridor(g, 3)
    play(g, "rockfall", "2,0")
    g.apply("tunnel W-E")
    g.apply("play")
    assert "2,0" in texts(g)


# =========================================================================== map
def test_a_map_peek_is_seen_by_the_peeker_only(either: Ruleset) -> None:
    g = start(either, 4, goals=GOLD_MIDDLE, hands=[["map"]])
    play(g, "map")
    assert choosing(g) == "g"
    assert texts(g) == GOAL_CELLS
    g.apply("8,2")
    line = "You look at the goal at 8,2: it is stone N-E."
    assert line in log(g, 0)
    for p in (1, 2, 3):
        assert not any("You look at" in x for x in log(g, p))
        assert not any("stone" in x or "gold" in x for x in log(g, p))
        assert "P1 plays a map and looks at the goal at 8,2" in log(g, p)  # public
        assert not any(x.startswith("P1 chooses") for x in log(g, p))  # the card: no line
    # the goal stays face down: the peeker's view shows it (still secret), no one else's
    assert maze(g)["8,2"]["secret"] is True
    assert maze(g, 0)["8,2"]["tile"] == "stone N-E" and maze(g, 0)["8,2"]["secret"] is True
    assert maze(g, 0)["8,0"] == maze(g, 0)["8,-2"] == HIDDEN_TILE
    for viewer in (1, 2, 3):
        assert maze(g, viewer)["8,2"] == HIDDEN_TILE
    assert discard_pile(g) == ["map"]
    assert current(g) == "P2"
    # a search for the peeker keeps the goal it saw; the two others it deals anew (the
    # others' worlds, drawn from their belief, hold several of the 6 orders)
    for seat, peeked in ((0, True), (1, False)):
        goals = set()
        for k in range(12):
            twin = g.determinize(seat, random.Random(k))
            goals.add(tuple(twin.tile("maze", c)["tile"] for c in ("8,2", "8,0", "8,-2")))
        assert len(goals) == 2 if peeked else len(goals) >= 3
        assert all(x[0] == "stone N-E" for x in goals) == peeked
    # taken off the board and laid back face down, the same card is unknown again
    edit = g.edit()
    item = g.tile("maze", "8,2", viewer=None)["item"]
    edit.clear("maze", "8,2")
    edit.place("maze", "8,2", item, face_down=True)
    assert maze(g, 0)["8,2"] == HIDDEN_TILE


def test_a_map_looks_only_at_face_down_goals(rules: Ruleset) -> None:
    g = start(rules, 3, hands=[["map"], ["map"]])
    turn_face_up(g, 8, 0)
    play(g, "map")
    assert texts(g) == ["8,2", "8,-2"]
    g.apply("8,-2")
    turn_face_up(g, 8, 2)
    turn_face_up(g, 8, -2)
    g.apply("map")
    assert texts(g) == ["discard"]
    assert g.why_not("play").reason == "map has nowhere to go now; you can discard it"


# =========================================================================== saboteurs win
@pytest.mark.parametrize(
    ("n", "role_list", "pay"),
    [
        (3, ["miner", "saboteur", "miner"], 4),
        (4, ["saboteur", "miner", "miner", "miner"], 4),
        (5, ["miner", "saboteur", "miner", "miner", "saboteur"], 3),
        (7, ["saboteur", "miner", "saboteur", "miner", "miner", "saboteur", "miner"], 3),
        (
            10,
            [
                "saboteur",
                "miner",
                "saboteur",
                "miner",
                "saboteur",
                "miner",
                "miner",
                "saboteur",
                "miner",
                "miner",
            ],
            2,
        ),
    ],
    ids=["1-of-3", "1-of-4", "2-of-5", "3-of-7", "4-of-10"],
)
def test_the_saboteurs_win_when_the_cards_run_out(
    either: Ruleset, n: int, role_list: list[str], pay: int
) -> None:
    g = start(either, n, role_list, first=n - 1)
    assert roles(g) == role_list
    empty_but_one(g)
    card = texts(g)[0]
    g.apply(card)
    g.apply("discard")
    assert "Every hand is empty: the saboteurs win round 1." in log(g)
    for p in range(n):
        assert gold_of(g, p) == (pay if role_list[p] == "saboteur" else 0)
    saboteurs = role_list.count("saboteur")
    assert sum(nugget_values(g, g.items("nuggets"))) == sum(NUGGET_VALUES) - saboteurs * pay
    check_counts(g)
    # the next round begins (the official rules first deal the roles again)
    assert g.current_player() == CHANCE
    assert waiting_for(g).name in ("goals", "aside")
    assert g.view(None)["globals"]["round"] == 2
    assert g.view(None)["globals"]["starter"] == "P1"  # after the last player


def test_no_saboteurs_in_play_means_no_pay(rules: Ruleset) -> None:
    g = start(rules, 3, ["miner", "miner", "miner"])
    assert g.items("aside") and role_on(g, g.items("aside")[0]) == "saboteur"
    empty_but_one(g)
    g.apply(texts(g)[0])
    g.apply("discard")
    assert "Every hand is empty: the saboteurs win round 1." in log(g)
    assert all(gold_of(g, p) == 0 for p in range(3))
    assert len(g.items("nuggets")) == NUGGETS


def test_the_round_goes_on_while_a_hand_holds_cards(rules: Ruleset) -> None:
    g = start(rules, 3, ["miner", "saboteur", "miner"])
    empty_but_one(g)
    g.edit().move(g.items("discard")[-1], "hand", 2)  # P3 still holds a card
    g.apply(texts(g)[0])
    g.apply("discard")
    assert g.view(None)["globals"]["round_over"] is False
    # P2 has no cards: passes without a decision
    assert "P2 has no cards and passes." in log(g)
    assert current(g) == "P3" and choosing(g) == "c"
    g.apply(texts(g)[0])
    g.apply("discard")
    assert "Every hand is empty: the saboteurs win round 1." in log(g)
    assert gold_of(g, 1) == 4


def test_a_player_with_an_empty_hand_passes_and_draws_nothing(rules: Ruleset) -> None:
    g = start(rules, 3)
    for c in g.items("hand", 1):
        g.edit().move(c, "discard")
    deck = len(g.items("deck"))
    g.apply(texts(g)[0])
    g.apply("discard")
    assert len(g.items("deck")) == deck - 1  # P1 drew
    assert "P2 has no cards and passes." in log(g)
    assert len(g.items("deck")) == deck - 1 and g.items("hand", 1) == []
    assert current(g) == "P3"


# =========================================================================== rounds and the match
def saboteurs_round(g: Game) -> None:
    empty_but_one(g)
    g.apply(texts(g)[0])
    g.apply("discard")


def next_round(g: Game, role_list: Sequence[str] | None) -> None:
    if waiting_for(g).kind == "shuffle_zone":  # the official rules deal roles again
        deal_roles(g, role_list)
    start_round(g)


def test_three_rounds_and_a_single_winner(either: Ruleset) -> None:
    role_list = ["miner", "miner", "saboteur"]
    g = start(either, 3, role_list, first=0)
    starters = []
    for r in (1, 2, 3):
        assert g.view(None)["globals"]["round"] == r
        starters.append(current(g))
        assert not g.is_over()
        saboteurs_round(g)
        assert gold_of(g, 2) == 4 * r
        if r < 3:
            assert not g.is_over()
            next_round(g, role_list)
    assert starters == ["P1", "P2", "P3"]
    assert g.is_over()
    assert g.current_player() == TERMINAL
    assert g.legal_actions() == []
    assert g.results() == ["loss", "loss", "win"]
    assert g.view(None)["results"] == {"P1": "loss", "P2": "loss", "P3": "win"}
    assert "Round 4 begins." not in log(g)


def test_a_tie_shares_the_win(either: Ruleset) -> None:
    role_list = ["miner", "saboteur", "miner", "miner", "saboteur"]
    g = start(either, 5, role_list, first=2)
    for r in (1, 2, 3):
        saboteurs_round(g)
        if r < 3:
            next_round(g, role_list)
    assert g.is_over()
    assert gold_of(g, 1) == gold_of(g, 4) > 0
    assert g.results() == ["loss", "win", "loss", "loss", "win"]


def test_the_most_gold_over_three_rounds_wins(rules: Ruleset) -> None:
    """Round 1: P1 finds the gold (P1 3, P2 3, P3 3); rounds 2 and 3: the saboteur P3 wins 4
    each time: P3 leads with 11."""
    role_list = ["miner", "miner", "saboteur", "miner"]
    g = find_gold(rules, 4, role_list, finder=0)
    assert take_gold(g) == [0, 1, 3, 0]
    assert [gold_of(g, p) for p in range(4)] == [6, 3, 0, 3]
    start_round(g)
    assert current(g) == "P2"
    saboteurs_round(g)
    start_round(g)
    saboteurs_round(g)
    assert g.is_over()
    # the 3-gold cards went to the miners: the saboteur is paid 2+2 in each round
    assert [gold_of(g, p) for p in range(4)] == [6, 3, 8, 3]
    assert g.results() == ["loss", "loss", "win", "loss"]


def test_the_rounds_option(rules: Ruleset) -> None:
    g = rules.new_game(3, seed=4, options={"rounds": "1"}, auto_chance=False)
    g.apply_chance(list(range(NUGGETS)))
    deal_roles(g, ["saboteur", "miner", "miner"])
    g.apply_chance("P1")
    start_round(g)
    saboteurs_round(g)
    assert g.is_over()
    assert g.results() == ["win", "loss", "loss"]


def test_a_new_round_gathers_every_card_and_mends_every_tool(either: Ruleset) -> None:
    g = start(either, 4, ["miner", "saboteur", "miner", "miner"], hands=[["broken pick"]])
    play(g, "broken pick", "P2")
    break_tool(g, 3, "cart")
    corridor(g, 3)
    turn_face_up(g, 8, 2)
    saboteurs_round(g)
    next_round(g, ["miner", "saboteur", "miner", "miner"])
    assert all(g.items("front", p) == [] for p in range(4))
    assert g.items("discard") == [] and g.items("box") == []
    assert set(maze(g)) == {"0,0", *GOAL_CELLS}
    assert all(face_down(g, c) for c in GOAL_CELLS)
    assert all(len(g.items("hand", p)) == 6 for p in range(4))
    assert len(g.items("deck")) == PLAYCARDS - 4 - 4 * 6
    check_counts(g)


def test_roles_are_kept_between_rounds(rules: Ruleset) -> None:
    role_list = ["miner", "saboteur", "miner", "miner", "saboteur"]
    g = start(rules, 5, role_list)
    role_cards = [list(g.items("role_card", p)) for p in range(5)]
    aside = list(g.items("aside"))
    saboteurs_round(g)
    expect_chance(g, "shuffle", "goals")  # no new deal of the roles
    start_round(g)
    assert roles(g) == role_list
    assert [g.items("role_card", p) for p in range(5)] == role_cards
    assert g.items("aside") == aside


def test_roles_are_dealt_again_each_round_in_the_official_rules(official: Ruleset) -> None:
    g = start(official, 5, ["miner", "saboteur", "miner", "miner", "saboteur"])
    saboteurs_round(g)
    new_roles = ["saboteur", "miner", "miner", "saboteur", "miner"]
    deal_roles(g, new_roles)
    start_round(g)
    assert roles(g) == new_roles
    for p in range(5):
        cards = g.items("role_card", p)
        assert len(cards) == 1 and role_on(g, cards[0]) == new_roles[p]
        assert g.view(p)["players"][p]["role"] == new_roles[p]
        assert g.view(p)["zones"][f"role_card[P{p + 1}]"] == [new_roles[p]]
    # the same players + 1 role cards: one set aside, the rest back in the box
    assert len(g.items("aside")) == 1
    in_play = [*new_roles, role_on(g, g.items("aside")[0])]
    assert sorted(in_play) == ["miner"] * 4 + ["saboteur"] * 2
    assert len(g.items("dwarf_box")) == 11 - 6
    # the gold earned in round 1 is kept
    assert gold_of(g, 1) == gold_of(g, 4) == 3


def test_the_gold_found_in_the_last_round_is_shared_before_the_match_ends(rules: Ruleset) -> None:
    """The match ends after the last round is over, and a round found by the miners is
    over once its gold is shared out: the last round's gold counts for the winner."""
    g = rules.new_game(3, seed=2, options={"rounds": "1"}, auto_chance=False)
    g.apply_chance(list(range(NUGGETS)))  # the 3-gold cards on top
    deal_roles(g, ["miner", "miner", "saboteur"])
    g.apply_chance("P1")
    start_round(g, GOLD_MIDDLE, hands=[["tunnel W-E"]])
    corridor(g)
    play(g, "tunnel W-E", "7,0", "0")
    assert "P1 reaches the gold: the miners win round 1." in log(g)
    assert not g.is_over()  # the gold is shared first
    assert g.current_player() == 0 and choosing(g) == "n"
    assert take_gold(g) == [0, 1, 0]
    assert g.is_over()
    assert g.items("shared") == []
    assert [gold_of(g, p) for p in range(3)] == [6, 3, 0]
    assert g.results() == ["win", "loss", "loss"]


def test_the_third_round_gold_counts(either: Ruleset) -> None:
    role_list = ["miner", "miner", "saboteur"]
    g = start(either, 3, role_list, first=0)
    saboteurs_round(g)  # the saboteur P3 is paid 4 a round: 8 after two rounds
    next_round(g, role_list)
    saboteurs_round(g)
    if waiting_for(g).kind == "shuffle_zone":
        deal_roles(g, role_list)
    start_round(g, GOLD_MIDDLE, hands=[[], [], ["tunnel W-E"]])
    assert current(g) == "P3"
    corridor(g)
    play(g, "tunnel W-E", "7,0", "0")  # the saboteur completes the path to the gold
    assert "P3 reaches the gold: the miners win round 3." in log(g)
    assert not g.is_over()
    assert len(g.items("shared")) == 3
    take_gold(g)
    assert g.is_over()
    assert gold_of(g, 2) == 8
    assert gold_of(g, 0) + gold_of(g, 1) > 0
    assert sum(len(g.items("gold", p)) for p in range(3)) == 4 + 3


# =========================================================================== for search bots
def test_the_estimate_follows_the_tunnel_towards_the_goals(rules: Ruleset) -> None:
    """The miners' chance rises as the tunnels joined to the start near a face-down
    goal, and a broken tool on a miner lowers it; the saboteurs' chance is the rest."""
    g = start(rules, 5, ["miner", "saboteur", "miner", "miner", "saboteur"], goals=GOLD_MIDDLE)
    before = g.estimate()
    assert before is not None
    assert before[0] + before[1] == pytest.approx(1.0)  # a miner and a saboteur
    corridor(g, to=4)
    nearer = g.estimate()
    assert nearer is not None and nearer[0] > before[0] and nearer[1] < before[1]
    assert nearer[1] == nearer[4]
    assert all(nearer[p] > before[p] for p in (0, 2, 3))
    break_tool(g, 2, "lamp")
    blocked = g.estimate()
    assert blocked is not None and blocked[1] > nearer[1]  # the saboteurs' chance rises


def test_the_estimate_favours_the_miner_whose_turn_closes_the_gap(rules: Ruleset) -> None:
    """The gold goes to the finder first: "the finder ... takes one and passes the rest
    on to the next miner" (the rule file, after seed 000), so a miner of one round wins
    by reaching the gold. With the miners who can dig each laying a card in turn, the
    one whose turn falls when the gap closes scores 20 points above the others."""
    two_cards = start(
        rules, 5, ["miner", "saboteur", "miner", "miner", "saboteur"], goals=GOLD_MIDDLE
    )
    corridor(two_cards, to=5)  # two cards: P1 lays one, the next miner (P3) the last
    near = two_cards.estimate()
    assert near is not None and near[2] == pytest.approx(near[0] + 0.2) and near[0] == near[3]
    three_cards = start(
        rules, 5, ["miner", "saboteur", "miner", "miner", "saboteur"], goals=GOLD_MIDDLE
    )
    corridor(three_cards, to=4)  # three cards: P1, P3, then P4 lays the last
    far = three_cards.estimate()
    assert far is not None and far[3] == pytest.approx(far[0] + 0.2) and far[0] == far[2]


def test_a_search_bot_lays_the_last_tunnel_to_the_gold(rules: Ruleset) -> None:
    from rulelang.search import bot_action

    g = start(
        rules,
        5,
        ["miner", "saboteur", "miner", "miner", "saboteur"],
        goals=GOLD_MIDDLE,
        hands=[["broken lamp", "map", "tunnel W-E", "dead end S", "repair cart", "rockfall"]],
    )
    corridor(g)
    for _ in range(4):  # the card, play, the spot, the turn
        if choosing(g) == "n":
            break
        g.apply(bot_action(g, "ismcts:300"))
    assert "P1 reaches the gold: the miners win round 1." in log(g)
