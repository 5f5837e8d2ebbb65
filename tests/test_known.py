"""`known(P, EXPR)`: a value as player P sees it, and `visible to others`.

`known` gives EXPR where P sees everything it reads now (its view, `reveal ... to`
included) and `none` for the rest: an attribute P may not see makes it none, a zone P
may not look into reads as its items with `none` for each one P was not shown. A bot
may read anything through `known(me, ...)`; the static proof (E247) stays for every
other read. `visible to others` hides a player's attribute or zone from that player
only (a hand held facing the table): views, the proof and determinizations honour it.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
from rulelang import Game, RuleError

HERE = Path(__file__).parent
PEEK = HERE / "games" / "peek.rules"

# Rules that write what `known` gives into public attributes, to read it from Python.
SEEN = """game "Seen"
players 3..3
card chip count 9 { value: int = index + 1  mark: int = index visible to none }
zone bag: chip visible to none
zone hand: chip per player visible to others
player {
  secret: int = 0 visible to owner
  badge: int = 0 visible to others
  saw_secret: list(int) = []
  saw_badge: list(int) = []
  saw_hands: list(int) = []
  saw_top: int = 0
  saw_mark: int = 0
}
setup {
  add pieces(chip) to bag
  for p in players {
    set p.secret = seat(p) + 10
    set p.badge = seat(p) + 20
    move first(bag) from bag to hand[p]
  }
}
def or_zero(x: int) = if x == none then 0 else x
turn {
  choose peek in [true, false]
  if peek { reveal last(bag) to current }
  set current.saw_secret = [or_zero(known(current, p.secret)) for p in players]
  set current.saw_badge = [or_zero(known(current, p.badge)) for p in players]
  set current.saw_hands = [or_zero(known(current, first(hand[p]).value)) for p in players]
  set current.saw_top = or_zero(known(current, last(bag).value))
  set current.saw_mark = or_zero(known(current, last(bag).mark))
}
end when turn_number > 6 { win players }
"""


@pytest.fixture(scope="module")
def seen() -> rulelang.Ruleset:
    return rulelang.compile_source(SEEN)


def attr(game: Game, name: str, seat: int) -> object:
    return game.attribute(name, of=seat)


def test_known_gives_what_the_player_sees_and_none_for_the_rest(seen: rulelang.Ruleset) -> None:
    game = seen.new_game(3, seed=1)
    game.apply("no")  # seat 0 does not peek
    assert attr(game, "saw_secret", 0) == [10, 0, 0]  # its own secret only
    assert attr(game, "saw_badge", 0) == [0, 21, 22]  # every badge but its own
    assert attr(game, "saw_hands", 0) == [0, 2, 3]  # every hand but its own
    assert attr(game, "saw_top", 0) == 0 and attr(game, "saw_mark", 0) == 0
    game.apply("yes")  # seat 1 peeks at the top chip: it knows its value, not its mark
    top = game.items("bag")[-1]
    assert attr(game, "saw_top", 1) == top + 1
    assert attr(game, "saw_mark", 1) == 0  # `mark` is visible to none: never known
    assert attr(game, "saw_hands", 1) == [1, 0, 3]


def test_what_was_shown_stops_counting_when_it_moves(seen: rulelang.Ruleset) -> None:
    game = seen.new_game(3, seed=1)
    game.apply("yes")
    assert attr(game, "saw_top", 0) == game.items("bag")[-1] + 1
    game.edit().move(game.items("bag")[-1], "hand", 1)  # the chip seen leaves the bag
    game.apply("no")
    game.apply("no")
    game.apply("no")  # seat 0 again, without a peek: the new top was never shown
    assert game.current_player() == 1 and attr(game, "saw_top", 0) == 0


def test_visible_to_others_views(seen: rulelang.Ruleset) -> None:
    game = seen.new_game(3, seed=1)
    for seat in range(3):
        view = game.view(seat)
        assert view["zones"][f"hand[P{seat + 1}]"] == {"size": 1}
        assert "badge" not in view["players"][seat]
        for other in range(3):
            if other != seat:
                assert view["zones"][f"hand[P{other + 1}]"] == game.zone("hand", other)
                assert view["players"][other]["badge"] == other + 20
    omniscient = game.view(None)
    assert [omniscient["players"][s]["badge"] for s in range(3)] == [20, 21, 22]
    assert omniscient["zones"]["hand[P1]"] == game.zone("hand", 0) == ["chip1"]
    assert game.zone("hand", 0, viewer=0) == 1 and game.zone("hand", 0, viewer=1) == ["chip1"]


def test_a_determinization_deals_a_seats_own_hand_anew_and_keeps_the_others() -> None:
    """With the bag shuffled (a hidden chance event), the seat's own hand is any chip it
    has not seen; the others' hands, which it sees, stay. (Unshuffled, the belief
    knows the hand: no chance ever made it.)"""
    shuffled = SEEN.replace("add pieces(chip) to bag\n", "add pieces(chip) to bag\n  shuffle bag\n")
    game = rulelang.compile_source(shuffled, "seen.rules").new_game(3, seed=1)
    own = set()
    for k in range(20):
        world = game.determinize(0, random.Random(k))
        assert world.items("hand", 1) == game.items("hand", 1)  # seat 0 sees them
        assert world.items("hand", 2) == game.items("hand", 2)
        own.add(tuple(world.items("hand", 0)))
    assert len(own) > 3  # its own hand, which it cannot see, is dealt anew


@pytest.mark.parametrize(
    ("rule", "shown"),
    [
        ("prefer first(hand[me]).value > 3", "'hand' is visible to every player but its owner"),
        ("prefer x and me.badge > 1", "'badge' is visible to every player but its owner"),
        (  # another player's view is no proof of what the bot's player sees
            "prefer known(next_player(me), next_player(me).secret) == 3",
            "'next_player(...).secret'",
        ),
    ],
)
def test_a_bot_outside_known_me_is_still_e247(rule: str, shown: str) -> None:
    text = SEEN.replace("choose peek in", "choose x in [true, false]\n  choose peek in")
    with pytest.raises(RuleError) as info:
        rulelang.compile_source(text + f"bot b {{ when choosing x {{ {rule} }} }}\n")
    found = [d for d in info.value.diagnostics if d.severity == "error"]
    assert [d.code for d in found] == ["E247"] and shown in found[0].message


def test_a_hidden_read_inside_known_of_another_player_says_only_known_me_is_checked() -> None:
    """`known(current, ...)` in a bot, meant for the bot's own player, was E247 on the
    read inside it (in a def it calls too) with no word of the `known` around it."""
    text = SEEN.replace("choose peek in", "choose x in [true, false]\n  choose peek in")
    text += "def top(p: player) = first(hand[p]).value\n"
    text += "bot b { when choosing x { prefer known(current, top(next_player(me))) == 3 } }\n"
    with pytest.raises(RuleError) as info:
        rulelang.compile_source(text)
    found = [d for d in info.value.diagnostics if d.severity == "error"]
    assert [d.code for d in found] == ["E247"]
    assert "zone 'hand[p]' (in def top" in found[0].message
    assert found[0].message.endswith(
        "; this is inside known(current, ...), which is proven like any read: only "
        "known(me, ...) is checked as the bot runs"
    )


@pytest.mark.parametrize(
    "line",
    [
        "global { g: int = 0 visible to others }",
        "zone pile: chip visible to others",
        "card token count 2 { v: int = 0 visible to others }",
    ],
)
def test_visible_to_others_needs_an_owner(line: str) -> None:
    text = SEEN.replace("zone bag: chip visible to none", f"zone bag: chip visible to none\n{line}")
    with pytest.raises(RuleError) as info:
        rulelang.compile_source(text)
    found = [d for d in info.value.diagnostics if d.severity == "error"]
    assert [d.code for d in found] == ["E230"]
    assert "'visible to others'" in found[0].message


# ---------------------------------------------------------- a bot that uses a peek
def peeked_game(value_on_top: int | None, seed: int = 3) -> Game:
    """A game of tests/games/peek.rules at its first `take`, the top coin replaced
    beforehand by one worth `value_on_top` (None: as dealt)."""
    rules = rulelang.compile_file(PEEK)
    game = rules.new_game(2, seed=seed)
    if value_on_top is not None:
        coin = next(
            c for c in game.items("bag") if game.attribute("value", c, kind="coin") == value_on_top
        )
        game.edit().move(coin, "bag")  # on top
    assert game.pending().name == "look"
    return game


def test_the_peeking_bot_follows_the_coin_it_was_shown() -> None:
    """Shown a good coin it takes it; shown a bad one it leaves it."""
    for value, wanted in ((6, "yes"), (1, "no")):
        game = peeked_game(value)
        game.apply(game.bot_choice())  # it looks
        assert game.pending().name == "take"
        assert game.bot_choice().text == wanted, value


def test_the_peeking_bot_ignores_a_coin_it_was_not_shown() -> None:
    """Without a look, changing the top coin (what it may not see) changes nothing:
    the same choices, tie after tie."""
    for seed in range(8):
        game = peeked_game(None, seed)
        game.apply("no")  # no look
        twin = game.clone()
        top = game.items("bag")[-1]
        other = next(c for c in game.items("bag") if c != top)
        twin.edit().move(other, "bag")  # another coin on top of the twin's bag
        assert twin.items("bag")[-1] != game.items("bag")[-1]
        for _ in range(4):
            assert game.bot_choice().text == twin.bot_choice().text


# ---------------------------------------------------------- the adversary
# A bot that tries to read everything through known(me, ...): its own hand, the others'
# hands, secrets and badges, the bag's top coin and its hidden mark. Its choice follows
# the parity of what it reads, so any secret leaking in would flip it about half the time.
NOSY = """
def total(p: player) =
  sum(or_zero(known(p, first(hand[q]).value)) for q in players)
  + sum(or_zero(known(p, q.secret)) + or_zero(known(p, q.badge)) for q in players)
  + or_zero(known(p, last(bag).value)) + or_zero(known(p, last(bag).mark))
  + sum(or_zero(known(p, c.value)) for c in known(p, bag))
bot nosy { when choosing peek { prefer peek == (total(me) % 2 == 0) } }
"""


def unseen_edit(game: Game, seat: int, k: int) -> Game:
    """A copy where everything `seat` may not see differs: the others' secrets, its own
    badge, every hidden mark, and its own hand (swapped with a coin of the bag) unless
    it was shown a coin of the bag (where a shown item lies in its zone counts as
    known, and an edit can only put the coin back on top)."""
    twin = game.clone()
    ed = twin.edit()
    if "known" not in game.view(seat)["zones"]["bag"]:
        mine = twin.items("hand", seat)[0]
        ed.move(twin.items("bag")[k % len(twin.items("bag"))], "hand", seat)
        ed.move(mine, "bag")
    ed.set("badge", 40 + k, of=seat)
    for p in range(3):
        if p != seat:
            ed.set("secret", 50 + k + p, of=p)
    for c in range(9):
        ed.set("mark", (c * 5 + k) % 7, of=c, kind="chip")
    return twin


def test_a_bot_reading_everything_through_known_decides_alike_whatever_it_may_not_see() -> None:
    rules = rulelang.compile_source(SEEN + NOSY)
    compared = swapped = 0
    for seed in range(10):
        game = rules.new_game(3, seed=seed)
        while not game.is_over():
            seat = game.current_player()
            twin = unseen_edit(game, seat, seed + game.turn_number)
            swapped += twin.items("hand", seat) != game.items("hand", seat)
            assert twin.view(seat) == game.view(seat)
            for _ in range(3):
                assert game.bot_choice().text == twin.bot_choice().text
            compared += 1
            game.apply(game.bot_choice() if game.turn_number % 2 else "yes")
    assert compared >= 50 and swapped >= 20


def test_a_bot_reading_through_known_follows_what_its_player_sees() -> None:
    """Change what the seat sees (another player's hand): its choice changes."""
    rules = rulelang.compile_source(SEEN + NOSY)
    game = rules.new_game(3, seed=2)
    choices = set()
    for swap in game.items("bag"):
        twin = game.clone()
        ed = twin.edit()
        theirs = twin.items("hand", 1)[0]
        ed.move(swap, "hand", 1)
        ed.move(theirs, "bag")
        choices.add(twin.bot_choice().text)
    assert choices == {"yes", "no"}


def test_a_search_refuses_a_players_own_value_visible_to_others_unless_imagined() -> None:
    """A determinization cannot deal anew a player's own `visible to others` value (its
    badge): the search bots refuse such rules, unless the rules `imagine` it; then the
    seat's own badge is forgotten (its default) and pictured, the others' kept."""
    from rulelang import UsageError
    from rulelang.search import bot_action

    game = rulelang.compile_source(SEEN).new_game(3, seed=1)
    with pytest.raises(UsageError, match="player.badge"):
        bot_action(game, "ismcts:5")
    pictured = rulelang.compile_source(SEEN + "imagine { set me.badge = me.badge + 5 }\n")
    game = pictured.new_game(3, seed=1)
    world = game.determinize(1, random.Random(0))
    assert [world.attribute("badge", of=p) for p in range(3)] == [20, 5, 22]
