"""The public engine API (rulelang/__init__.py, Game in rulelang/runtime/engine.py): end
rules on the clock, chance outcomes by value, true omniscient views of face-down tiles,
who acts, the pending decision, clones, legal actions and visibility-aware reads."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
from rulelang import (
    CHANCE,
    PUBLIC,
    TERMINAL,
    Action,
    Decision,
    Game,
    ReplayError,
    Ruleset,
    UsageError,
    replay,
)

ROOT = Path(__file__).resolve().parent.parent
HEIMLICH = ROOT / "rulesets" / "heimlich.rules"
SABOTEUR = ROOT / "rulesets" / "saboteur.rules"
CARDS = ROOT / "tests" / "games" / "cards.rules"
AGENTS = ["Perry", "Schulz", "Doyle", "Jaques", "Bucci", "Mirkov", "Larsson"]
FACES = ["1-3", "2", "3", "4", "5", "6"]
GOALS = ["8,2", "8,0", "8,-2"]


def compile_text(body: str, players: str = "2..3", name: str = "api.rules") -> Ruleset:
    return rulelang.compile_source(f'game "API"\nplayers {players}\n{body}', name)


def tile(g: Game, cell: str, viewer: int | None = None) -> dict[str, object]:
    """The tile on a cell of the Saboteur maze, which must hold one."""
    shown = g.tile("maze", cell, viewer)
    assert shown is not None, cell
    return shown


def position(g: Game) -> tuple[object, ...]:
    """Everything about a game, through the public API."""
    return (g.view(None), g.history(None), g.record(), g.pending(), g.current_player(), g.results())


def texts(g: Game) -> list[str]:
    return [a.text for a in g.legal_actions()]


def line_of(path: Path, fragment: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if fragment in line)


@pytest.fixture(scope="module")
def heimlich() -> Ruleset:
    return rulelang.compile_file(HEIMLICH)


@pytest.fixture(scope="module")
def saboteur() -> Ruleset:
    return rulelang.compile_file(SABOTEUR)


@pytest.fixture(scope="module")
def cards() -> Ruleset:
    return rulelang.compile_file(CARDS)


# --------------------------------------------------------------------------- end rules on time
@pytest.mark.parametrize(
    ("rule", "decisions"),
    [("turn_number > 3", 3), ("round_number > 2", 4), ("turn_number >= 1", 0)],
)
def test_an_end_rule_on_the_clock_ends_the_game_on_time(rule: str, decisions: int) -> None:
    """The turns change nothing but the clock: the end rule is still checked every turn."""
    rules = compile_text(
        f"turn {{ choose n in 1..2 }}\nend when {rule} {{ win [current] }}\n", players="2..2"
    )
    g = rules.new_game(2)
    for taken in range(decisions):
        assert not g.is_over(), f"over after {taken} decisions"
        assert g.turn_number == taken + 1
        g.apply("1")
    assert g.is_over()
    assert g.current_player() == TERMINAL
    assert g.turn_number == decisions + 1  # checked as the next turn starts
    assert len(g.history(None)) == decisions
    winner = decisions % 2  # whose turn it would have been
    assert g.results() == ["win" if p == winner else "loss" for p in range(2)]


def test_an_end_rule_on_the_clock_in_a_game_with_dice() -> None:
    rules = compile_text("""import dice
global { total: int = 0 }
turn {
  roll r = d6
  choose n in 1..2
  set total += n
}
end when turn_number > 5 { win players }
""")
    for seed in range(3):
        g = rules.new_game(3, seed=seed)
        for _ in range(5):
            g.apply(g.legal_actions()[0])
        assert g.is_over()
        assert g.attribute("total") == 5
        assert g.results() == ["win"] * 3


# --------------------------------------------------------------------------- chance by value
CHANCE_GAME = """import dice
card token count 4 {
  name: text = "token {index + 1}"
}
zone pile: token visible to none
global {
  face: int = 0
  side: text = ""
  lucky: player = none
  dealt: list(int) = []
}
setup {
  add pieces(token) to pile
  shuffle pile
}
turn {
  roll f = d6
  set face = f
  roll s = coin
  set side = s
  pick p in players
  set lucky = p
  shuffle xs = [10, 20, 30, 40]
  set dealt = xs
  choose n in 1..2
}
end when false { }
"""


@pytest.fixture(scope="module")
def chance_rules() -> Ruleset:
    return compile_text(CHANCE_GAME)


def at(g: Game, kind: str, name: str) -> Decision:
    """Decide chance events from the seed until the one named `name` of `kind` waits."""
    for _ in range(10):
        d = g.pending()
        assert d is not None and d.player == CHANCE, d
        if (d.kind, d.name) == (kind, name):
            return d
        g.resolve_chance()
    raise AssertionError(f"no {kind} {name}")


def test_the_pending_chance_events_list_their_outcomes(chance_rules: Ruleset) -> None:
    g = chance_rules.new_game(3, auto_chance=False)
    d = at(g, "shuffle_zone", "pile")
    assert (d.options, d.secret, g.legal_actions()) == ((), False, [])
    g.resolve_chance()
    d = at(g, "roll", "f")
    assert [(a.value, a.text) for a in d.options] == [(i, str(i)) for i in range(1, 7)]
    g.apply_chance(1)
    d = at(g, "roll", "s")
    assert [(a.value, a.text) for a in d.options] == [("heads", "heads"), ("tails", "tails")]
    g.apply_chance("tails")
    d = at(g, "pick", "p")
    assert [a.text for a in d.options] == ["P1", "P2", "P3"]
    assert [a.value for a in d.options] == [0, 1, 2]  # players are seats
    g.apply_chance(0)
    d = at(g, "shuffle", "xs")
    assert d.options == ()


@pytest.mark.parametrize("outcome", [4, "4"])
def test_apply_chance_roll_by_face_or_its_text(chance_rules: Ruleset, outcome: object) -> None:
    g = chance_rules.new_game(3, auto_chance=False)
    at(g, "roll", "f")
    g.apply_chance(outcome)
    assert g.attribute("face") == 4
    assert g.history(None)[-1] == "P1 rolls 4"
    assert g.record()[-1] == {"chance": "f", "outcome": 3}  # the record keeps positions
    g.apply_chance("heads")
    assert g.attribute("side") == "heads"


@pytest.mark.parametrize("outcome", [2, "P3", "p3"])
def test_apply_chance_pick_by_item_or_its_text(chance_rules: Ruleset, outcome: object) -> None:
    g = chance_rules.new_game(3, auto_chance=False)
    at(g, "pick", "p")
    g.apply_chance(outcome)
    assert g.attribute("lucky") == "P3"
    assert g.history(0)[-1] == "something is picked at random"


def test_apply_chance_shuffle_by_the_new_order(chance_rules: Ruleset) -> None:
    g = chance_rules.new_game(3, auto_chance=False)
    pile = g.items("pile")
    assert [g.name_of("token", t) for t in pile] == ["token 1", "token 2", "token 3", "token 4"]
    # a zone: the items in their new order, the last on top
    g.apply_chance([pile[2], pile[0], pile[3], pile[1]])
    assert g.zone("pile") == ["token 3", "token 1", "token 4", "token 2"]
    assert g.record()[0] == {"chance": "pile", "outcome": [2, 0, 3, 1]}
    # a list: its values in their new order
    at(g, "shuffle", "xs")
    g.apply_chance((40, 10, 30, 20))
    assert g.attribute("dealt") == [40, 10, 30, 20]
    assert g.record()[-1] == {"chance": "xs", "outcome": [3, 0, 2, 1]}
    assert g.current_player() == 0


def test_apply_chance_zone_shuffle_by_the_items_texts(chance_rules: Ruleset) -> None:
    g = chance_rules.new_game(3, auto_chance=False)
    g.apply_chance(["token 3", "token 1", "token 4", "token 2"])
    assert g.zone("pile") == ["token 3", "token 1", "token 4", "token 2"]


def test_apply_chance_list_shuffle_by_the_items_texts(heimlich: Ruleset) -> None:
    g = heimlich.new_game(4, auto_chance=False)
    g.apply_chance(AGENTS[::-1])
    assert g.attribute("agent", of=0) == "Larsson"


# Outcomes that fit no chance event here; UsageError for each, never a TypeError.
BAD_ROLLS = [0, 7, -1, "7", "six", True, 4.5, None, [4], (4,), {"face": 4}]
BAD_SHUFFLES = [
    0,
    3,
    "10",
    None,
    True,
    [10, 20, 30],
    [10, 20, 30, 40, 10],
    [10, 10, 30, 40],
    [10, 20, 30, 50],
    [[10], [20], [30], [40]],
    {10: 1},
]


@pytest.mark.parametrize("bad", BAD_ROLLS, ids=repr)
def test_apply_chance_refuses_a_non_face_at_a_roll(chance_rules: Ruleset, bad: object) -> None:
    g = chance_rules.new_game(3, auto_chance=False)
    at(g, "roll", "f")
    before = position(g)
    with pytest.raises(
        UsageError, match="not a possible outcome of 'f' \\(one of: 1, 2, 3, 4, 5, 6\\)"
    ):
        g.apply_chance(bad)
    assert position(g) == before


@pytest.mark.parametrize("bad", BAD_SHUFFLES, ids=repr)
def test_apply_chance_refuses_a_non_order_at_a_shuffle(chance_rules: Ruleset, bad: object) -> None:
    g = chance_rules.new_game(3, auto_chance=False)
    at(g, "shuffle", "xs")
    before = position(g)
    with pytest.raises(UsageError, match="'xs'"):
        g.apply_chance(bad)
    assert position(g) == before


@pytest.mark.parametrize("bad", [0, 1, [0, 1, 2], "P1", None], ids=repr)
def test_apply_chance_refuses_a_non_order_at_a_zone_shuffle(
    chance_rules: Ruleset, bad: object
) -> None:
    g = chance_rules.new_game(3, auto_chance=False)
    with pytest.raises(UsageError, match="'pile'"):
        g.apply_chance(bad)
    assert g.events() == []


@pytest.mark.parametrize("bad", [["a", "b", "c", "d"], ["10", "20", "30", "50"]], ids=repr)
def test_apply_chance_refuses_texts_that_are_no_items_at_a_shuffle(
    chance_rules: Ruleset, bad: list[str]
) -> None:
    g = chance_rules.new_game(3, auto_chance=False)
    at(g, "shuffle", "xs")
    with pytest.raises(UsageError, match="'xs'"):
        g.apply_chance(bad)


def test_apply_chance_when_no_chance_event_waits(chance_rules: Ruleset) -> None:
    g = chance_rules.new_game(3)  # auto_chance: the dice roll themselves
    assert g.current_player() == 0
    for outcome in (0, "1", [10, 20, 30, 40]):
        with pytest.raises(UsageError, match="not waiting for a chance event"):
            g.apply_chance(outcome)
    with pytest.raises(UsageError, match="not waiting for a chance event"):
        g.resolve_chance()


# --------------------------------------------------------------------------- face-down tiles
def goals_dealt(saboteur: Ruleset, order: list[str]) -> Game:
    """A Saboteur game whose goal cards lie at (8,2), (8,0), (8,-2) in `order`."""
    g = saboteur.new_game(4, seed=1, auto_chance=False)
    at(g, "shuffle", "goals")
    g.apply_chance([g.edit().item("playcard", name) for name in order])
    g.auto_chance = True
    g.resolve_chance()  # the deck
    assert g.current_player() in range(4)
    return g


def test_the_omniscient_view_shows_face_down_tiles_truly(saboteur: Ruleset) -> None:
    g = goals_dealt(saboteur, ["stone N-E", "gold", "stone N-W"])
    hidden = {"tile": "?", "secret": True}
    for cell, name in zip(GOALS, ["stone N-E", "gold", "stone N-W"], strict=True):
        true = g.tile("maze", cell)
        assert true is not None
        assert (true["tile"], true["secret"], true["turn"]) == (name, True, 0)
        assert g.view(None)["boards"]["maze"][cell] == true
        for viewer in [*range(4), PUBLIC]:
            assert g.tile("maze", cell, viewer) == hidden
            assert g.view(viewer)["boards"]["maze"][cell] == hidden
    assert tile(g, "8,0")["open"] == [True, True, True, True]  # the gold: all sides
    assert tile(g, "8,2")["open"] == [True, True, False, False]  # N-E
    # the start lies face up: everyone sees it alike
    start = g.tile("maze", "0,0")
    assert start is not None and (start["tile"], start["secret"]) == ("start", False)
    # ... but only the omniscient view names the item itself
    assert g.name_of("playcard", start.pop("item")) == "start"
    assert all(g.tile("maze", "0,0", p) == start for p in [*range(4), PUBLIC])
    assert g.tile("maze", "1,0") is None
    # turned over, the gold is seen by all
    g.edit().reveal("maze", "8,0")
    for viewer in [None, *range(4), PUBLIC]:
        shown = g.tile("maze", "8,0", viewer)
        assert shown is not None and (shown["tile"], shown["secret"]) == ("gold", False)
    assert g.tile("maze", "8,2", 0) == hidden


def test_the_goals_follow_the_shuffle(saboteur: Ruleset) -> None:
    g = goals_dealt(saboteur, ["gold", "stone N-W", "stone N-E"])
    assert [tile(g, c)["tile"] for c in GOALS] == ["gold", "stone N-W", "stone N-E"]


# --------------------------------------------------------------------------- who acts
def test_current_player_is_a_seat_number(heimlich: Ruleset, cards: Ruleset) -> None:
    g = heimlich.new_game(4, seed=3)
    rng = random.Random(3)
    while not g.is_over():
        who = g.current_player()
        assert type(who) is int and who in range(4)
        d = g.pending()
        assert d is not None and d.player == who
        assert g.view(None)["to_act"] == g.player_names[who]
        assert g.turn_player == who  # in Heimlich, only the player whose turn it is acts
        g.apply(rng.choice(g.legal_actions()))
    assert g.current_player() == TERMINAL
    # out of turn: another seat decides during the turn of the player who played a card
    c = cards.new_game(3, seed=1)
    for _ in range(3):
        c.apply("0")  # the bids
    turn = c.current_player()
    c.apply(c.legal_actions()[0])
    assert c.turn_player == turn
    assert c.current_player() in range(3) and c.current_player() != turn
    # a chance event: nobody's seat
    s = heimlich.new_game(2, auto_chance=False)
    assert s.current_player() == CHANCE and s.is_chance_node()


# --------------------------------------------------------------------------- the decision
def test_pending_gives_the_decision_with_values_and_texts(heimlich: Ruleset) -> None:
    g = heimlich.new_game(4, seed=1, auto_chance=False)
    d = g.pending()
    assert d is not None and (d.kind, d.name, d.player, d.options) == (
        "shuffle",
        "order",
        CHANCE,
        (),
    )
    g.apply_chance([g.edit().item("agent", a) for a in AGENTS])
    d = g.pending()
    assert d is not None and (d.kind, d.name, d.player) == ("roll", "face", CHANCE)
    assert [(a.value, a.text) for a in d.options] == [(f, f) for f in FACES]
    assert d.span is not None and d.span.line == line_of(HEIMLICH, "roll face = spy_die")
    g.apply_chance("1-3")
    d = g.pending()
    assert d is not None
    assert d == Decision(
        "choice",
        "points",
        0,
        "The die shows 1-3: take how many move points?",
        (Action(1, "1"), Action(2, "2"), Action(3, "3")),
        False,
        d.span,
    )
    assert g.prompt() == d.prompt
    g.apply("2")
    d = g.pending()
    assert d is not None and (d.kind, d.name, d.player) == ("choice", "mover", 0)
    assert d.prompt == "Move which agent? (2 move points left)"
    assert [a.text for a in d.options] == AGENTS
    assert [a.value for a in d.options] == [g.edit().item("agent", a) for a in AGENTS]
    assert [g.name_of("agent", a.value) for a in d.options] == AGENTS
    assert d.span is not None and d.span.line == line_of(HEIMLICH, "choose mover in")
    assert tuple(g.legal_actions()) == d.options
    assert list(g.legal_values()) == [a.value for a in d.options]


def test_pending_of_a_secret_choice_with_pass_and_at_the_end(cards: Ruleset) -> None:
    g = cards.new_game(3, seed=2)
    d = g.pending()
    assert d is not None and (d.name, d.prompt, d.secret) == ("b", "Bid how many points?", True)
    for _ in range(3):
        g.apply("0")
    g.apply(g.legal_actions()[0])  # a card; then another player may react, or pass
    d = g.pending()
    assert d is not None and (d.name, d.secret) == ("r", False)
    assert d.options[-1] == Action(None, "pass")
    hand = g.zone("hand", d.player)
    assert isinstance(hand, list)
    assert [a.text for a in d.options] == [*hand, "pass"]
    end = cards.new_game(2, seed=2)
    while not end.is_over():
        end.apply(end.legal_actions()[-1])
    assert end.pending() is None and end.legal_actions() == [] and end.prompt() == ""


# --------------------------------------------------------------------------- legal actions
def test_legal_actions_are_values_with_texts(heimlich: Ruleset) -> None:
    g = heimlich.new_game(3, seed=5, auto_chance=False)
    g.apply_chance([g.edit().item("agent", a) for a in AGENTS[:6]])
    g.apply_chance("6")
    actions = g.legal_actions()
    assert all(isinstance(a, Action) and str(a) == a.text for a in actions)
    assert texts(g) == AGENTS[:6]
    # find is forgiving about case and spaces, and gives the very action
    assert g.find("  perry ") == actions[0]
    assert g.find("Bond") is None
    # a move by its text, by its action or by its value is one and the same
    by_text, by_action, by_value = g.clone(), g.clone(), g.clone()
    by_text.apply("Schulz")
    by_action.apply(actions[1])
    by_value.choose(actions[1].value)
    assert position(by_text) == position(by_action) == position(by_value)
    assert texts(by_text) == ["1", "2", "3", "4", "5", "6"]
    with pytest.raises(UsageError, match="'Bond' is not a legal move here"):
        g.apply("Bond")
    with pytest.raises(UsageError):
        g.choose(99)
    with pytest.raises(UsageError, match="not waiting for a player's decision"):
        heimlich.new_game(3, auto_chance=False).choose(0)


# --------------------------------------------------------------------------- clones
def test_a_clone_is_independent_of_its_original(cards: Ruleset) -> None:
    g = cards.new_game(3, seed=6)
    for bid in ("1", "0", "2"):
        g.apply(bid)
    before = position(g)
    c = g.clone()
    assert position(c) == before
    # moves and edits on the clone leave the original as it was...
    c.apply(c.legal_actions()[0])
    c.edit().set("points", 50, of=0)
    c.edit().move(c.items("hand", 1)[0], "table")
    assert position(g) == before
    assert g.zone("table") == [] and g.attribute("points", of=0) == 0
    # ...and the other way round
    after = position(c)
    g.apply(g.legal_actions()[-1])
    g.edit().set("points", 7, of=1)
    assert position(c) == after
    assert c.attribute("points", of=1) != 7


def test_a_clone_continues_exactly_like_its_original(heimlich: Ruleset) -> None:
    g = heimlich.new_game(4, seed=8)
    rng = random.Random(8)
    for _ in range(20):
        g.apply(rng.choice(g.legal_actions()))
    c = g.clone()
    assert (c.seed, c.players, c.player_names) == (g.seed, g.players, g.player_names)
    # the same decisions give the same dice: each game rolls from its own copy of the seed
    for i in range(60):
        if g.is_over():
            break
        assert c.legal_actions() == g.legal_actions()
        pick = i % len(g.legal_actions())
        g.apply(g.legal_actions()[pick])
        c.apply(c.legal_actions()[pick])
    assert c.record() == g.record()
    assert position(c) == position(g)


def test_a_clone_at_a_chance_event_draws_the_same_outcome(heimlich: Ruleset) -> None:
    g = heimlich.new_game(3, seed=4, auto_chance=False)
    g.resolve_chance()  # the deal
    c = g.clone()
    # drawing on the clone does not move the original's generator
    for _ in range(5):
        d = c.clone()
        d.resolve_chance()
    c.resolve_chance()
    g.resolve_chance()
    assert g.record() == c.record()
    assert g.history(None)[-1] == c.history(None)[-1]
    assert position(g) == position(c)


# --------------------------------------------------------------------------- visibility
def test_attribute_respects_visibility(heimlich: Ruleset, cards: Ruleset) -> None:
    g = heimlich.new_game(3, seed=1, auto_chance=False)
    g.apply_chance(
        [
            g.edit().item("agent", a)
            for a in ["Doyle", "Perry", "Schulz", "Jaques", "Bucci", "Mirkov"]
        ]
    )
    # a global for all to see
    assert [g.attribute("safe", viewer=v) for v in (None, 0, 2, PUBLIC)] == ["building 7"] * 4
    # the secret agent: its owner sees it, nobody else does
    assert g.attribute("agent", of=0) == "Doyle"
    assert g.attribute("agent", of=0, viewer=0) == "Doyle"
    assert g.attribute("agent", of=1, viewer=1) == "Perry"
    for viewer in (1, 2, PUBLIC):
        with pytest.raises(UsageError, match="'agent' is not visible to"):
            g.attribute("agent", of=0, viewer=viewer)
    # an attribute of a piece, for all to see
    doyle = g.edit().item("agent", "Doyle")
    assert g.attribute("at", of=doyle, viewer=1, kind="agent") == "church"
    assert g.attribute("score", of=doyle, viewer=PUBLIC, kind="agent") == 0
    with pytest.raises(UsageError, match="no attribute 'colour'"):
        g.attribute("colour", of=0)
    # the bid of the card game is the owner's secret too
    c = cards.new_game(3, seed=3)
    c.apply("2")
    assert c.attribute("bid", of=0) == 2
    assert c.attribute("bid", of=0, viewer=0) == 2
    with pytest.raises(UsageError, match="'bid' is not visible to P2"):
        c.attribute("bid", of=0, viewer=1)
    assert c.attribute("points", of=0, viewer=1) == 0


def test_zone_respects_visibility(cards: Ruleset) -> None:
    g = cards.new_game(3, seed=3)
    hand = g.zone("hand", 0)
    assert isinstance(hand, list) and len(hand) == 3
    assert all(isinstance(card, str) and card.startswith("number") for card in hand)
    assert [g.name_of("number", c) for c in g.items("hand", 0)] == hand
    # a hand: its owner sees the cards, the others only how many
    assert g.zone("hand", 0, viewer=0) == hand
    assert [g.zone("hand", 0, viewer=v) for v in (1, 2, PUBLIC)] == [3, 3, 3]
    assert g.view(1)["zones"]["hand[P1]"] == {"size": 3}
    # the deck: nobody but the omniscient viewer; the table: everybody
    deck = g.zone("deck")
    assert isinstance(deck, list) and len(deck) == 20 - 9
    assert [g.zone("deck", viewer=v) for v in (0, 1, 2, PUBLIC)] == [11] * 4
    assert [g.zone("table", viewer=v) for v in (None, 0, 1, PUBLIC)] == [[]] * 4
    with pytest.raises(UsageError, match="belongs to each player: say whose"):
        g.zone("hand")
    with pytest.raises(UsageError, match="no zone 'discard'"):
        g.zone("discard")


def test_value_reads_params_as_the_game_set_them(heimlich: Ruleset) -> None:
    g = heimlich.new_game(4, options={"win_score": "30"})
    assert g.value("win_score") == 30
    assert heimlich.new_game(4).value("win_score") == 42
    assert g.value("agent_names")[0] == "Perry"
    with pytest.raises(UsageError):
        g.value("no_such_value")


def test_attribute_of_an_item_needs_its_kind_and_a_real_index(heimlich: Ruleset) -> None:
    g = heimlich.new_game(4)
    assert g.attribute("at", of=0, kind="agent") == "church"
    with pytest.raises(UsageError, match="no attribute 'at' of player"):
        g.attribute("at", of=0)
    for bad in (-1, 7, True):
        with pytest.raises(UsageError, match="there is no agent"):
            g.attribute("at", of=bad, kind="agent")


def test_a_replayed_game_goes_on_with_the_same_dice(heimlich: Ruleset) -> None:
    g = heimlich.new_game(4, seed=9)
    g.playout(random.Random(2), max_decisions=40)
    again = replay(heimlich, 4, 9, g.record())
    again.auto_chance = True
    for game in (g, again):
        game.playout(random.Random(5))
    assert again.record() == g.record()
    assert again.results() == g.results()


def test_a_record_with_another_seat_for_a_decision_is_refused(heimlich: Ruleset) -> None:
    g = heimlich.new_game(4, seed=3)
    g.playout(random.Random(1), max_decisions=10)
    record = g.record()
    first = next(i for i, e in enumerate(record) if "choose" in e)
    record[first] = {**record[first], "by": (record[first]["by"] + 1) % 4}
    with pytest.raises(ReplayError, match="chosen by seat"):
        replay(heimlich, 4, 3, record)
