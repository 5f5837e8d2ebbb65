"""rulesets/examples/hanabi.rules: a small Hanabi, and its bot `spark`.

The rules are the file's own words (its header, quoted in each test). The bot reads the
other hands through `known(me, ...)` and its own cards through the hints it was given:
changing only what its player may not see (its own hand, the deck) never changes its
choice; changing what its player sees (a partner's hand) can.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang import Game

RULES = Path(__file__).parent.parent / "rulesets" / "examples" / "hanabi.rules"
RED, YELLOW, GREEN, BLUE, WHITE = range(5)
FIRST_OF = {1: 0, 2: 3, 3: 5, 4: 7, 5: 9}  # where each value's copies start in a colour


@pytest.fixture(scope="module")
def hanabi() -> rulelang.Ruleset:
    return rulelang.compile_file(RULES)


def card(colour: int, value: int, copy: int = 0) -> int:
    """The index of a card (the cards of a colour: 1 1 1 2 2 3 3 4 4 5)."""
    return colour * 10 + FIRST_OF[value] + copy


def hold(game: Game, seat: int, cards: list[int]) -> None:
    """Give `seat` exactly these cards (oldest first), from the deck: its hand keeps its
    size, so what it was told keeps its slots."""
    assert len(cards) == len(game.items("hand", seat))
    ed = game.edit()
    for c in game.items("hand", seat):
        ed.move(c, "deck")
    for c in cards:
        assert c in game.items("deck") or c in cards, c
        ed.move(c, "hand", seat)


def start(hanabi: rulelang.Ruleset, players: int = 3, seed: int = 1) -> Game:
    return hanabi.new_game(players, seed=seed)


def names(game: Game, seat: int) -> list[str]:
    return list(game.zone("hand", seat))  # type: ignore[arg-type]


# ------------------------------------------------------------------ the rules
@pytest.mark.parametrize(("players", "size"), [(2, 5), (3, 5), (4, 4), (5, 4)])
def test_hands_face_the_table(hanabi: rulelang.Ruleset, players: int, size: int) -> None:
    """The rules: "Everyone holds their hand facing the table: they see every other hand, never
    their own." (5 cards each for 2 or 3 players, 4 for 4 or 5.)"""
    game = start(hanabi, players)
    assert len(game.items("deck")) == 50 - players * size
    for seat in range(players):
        view = game.view(seat)["zones"]
        assert view[f"hand[P{seat + 1}]"] == {"size": size}
        for other in range(players):
            if other != seat:
                assert view[f"hand[P{other + 1}]"] == names(game, other)
    assert game.attribute("hints") == 8 and game.attribute("fuses") == 3


def test_a_card_that_fits_is_played_and_one_that_does_not_burns_a_fuse(
    hanabi: rulelang.Ruleset,
) -> None:
    """The rules: "On a turn a player plays a card (it must be the next of its colour, else a fuse
    burns)"."""
    game = start(hanabi)
    hold(game, 0, [card(RED, 1), card(RED, 3), card(BLUE, 4), card(GREEN, 2), card(WHITE, 5)])
    game.edit().set("told_value", [1, 0, 0, 0, 0], of=0)
    game.apply("play")
    game.apply("1")
    assert game.attribute("piles") == [1, 0, 0, 0, 0]
    assert game.zone("shown") == ["red 1"] and len(game.items("hand", 0)) == 5
    assert game.attribute("told_value", of=0) == [0, 0, 0, 0, 0]  # slot 1 left; a new card
    assert "P1 plays red 1." in game.history()
    assert [game.attribute("score", of=p) for p in range(3)] == [1, 1, 1]
    hold(game, 1, [card(RED, 3), card(BLUE, 1), card(BLUE, 2), card(GREEN, 1), card(WHITE, 1)])
    game.apply("play")
    game.apply("1")  # red 3 on red 1
    assert game.attribute("fuses") == 2 and game.zone("discards") == ["red 3"]
    assert game.attribute("piles") == [1, 0, 0, 0, 0]


def test_a_discard_wins_back_a_hint_token_and_is_refused_when_all_are_on_the_table(
    hanabi: rulelang.Ruleset,
) -> None:
    """The rules: "discards one (winning back a hint token)"."""
    game = start(hanabi)
    assert game.why_not("discard").reason == "every hint token is on the table"
    game.edit().set("hints", 5)
    game.apply("discard")
    dropped = game.items("hand", 0)[0]
    game.apply("1")
    assert game.attribute("hints") == 6 and game.items("discards") == [dropped]


def test_a_hint_tells_every_card_of_a_colour_or_value_and_costs_a_token(
    hanabi: rulelang.Ruleset,
) -> None:
    """The rules: "or spends a hint token to tell another player which of their cards are of one
    colour or of one value"."""
    game = start(hanabi)
    hold(game, 1, [card(RED, 1), card(BLUE, 1), card(RED, 4), card(GREEN, 2), card(WHITE, 5)])
    game.apply("hint")
    assert game.why_not("P1").reason == "hint another player"
    game.apply("P2")
    assert sorted(a.text for a in game.legal_actions()) == sorted(
        ["red", "blue", "green", "white", "1", "2", "4", "5"]
    )
    game.apply("red")
    assert game.attribute("told_colour", of=1) == [RED, -1, RED, -1, -1]
    assert game.attribute("notes", of=1) == ["red ?", "? ?", "red ?", "? ?", "? ?"]
    assert game.attribute("hints") == 7
    game.apply("hint")
    game.apply("P1")
    game.apply(game.legal_actions()[0].text)
    game.edit().set("hints", 0)
    assert game.why_not("hint").reason == "no hint token is left"


def test_a_five_gives_back_a_hint_and_five_complete_fireworks_win(
    hanabi: rulelang.Ruleset,
) -> None:
    """A complete firework wins back a hint token; "The show ends ... when all five
    fireworks are complete"; "The score is the number of cards played"."""
    game = start(hanabi)
    game.edit().set("piles", [4, 5, 5, 5, 5])
    game.edit().set("hints", 3)
    hold(game, 0, [card(RED, 5), card(RED, 1), card(BLUE, 4), card(GREEN, 2), card(WHITE, 3)])
    game.apply("play")
    game.apply("1")
    assert game.is_over() and game.results() == ["win", "win", "win"]
    assert game.attribute("hints") == 4 and game.attribute("score", of=2) == 25


def test_the_third_fuse_ends_the_show_with_no_score(hanabi: rulelang.Ruleset) -> None:
    """The rules: "The show ends when the fuses are burnt (it fails: score 0)"."""
    game = start(hanabi)
    game.edit().set("fuses", 1)
    game.edit().set("piles", [2, 0, 0, 0, 0])
    hold(game, 0, [card(BLUE, 3), card(RED, 1), card(BLUE, 4), card(GREEN, 2), card(WHITE, 3)])
    game.apply("play")
    game.apply("1")
    assert game.is_over() and game.results() == ["loss", "loss", "loss"]
    assert [game.attribute("score", of=p) for p in range(3)] == [0, 0, 0]
    assert "The third fuse burns: the show fails." in game.history()


def test_the_show_ends_one_round_after_the_last_card_is_drawn(hanabi: rulelang.Ruleset) -> None:
    """The rules: "or one round after the last card is drawn"."""
    game = start(hanabi)
    game.edit().set("hints", 2)
    ed = game.edit()
    for c in game.items("deck")[1:]:
        ed.move(c, "discards")
    assert len(game.items("deck")) == 1
    game.apply("discard")
    game.apply("1")  # seat 0 draws the last card
    assert game.attribute("turns_left") == 3  # seat 1, seat 2, then seat 0 once more
    for _ in range(3):
        assert not game.is_over()
        game.apply("discard")
        game.apply("1")
    assert game.is_over() and game.turn_number == 4


# ------------------------------------------------------------------ the bot
def test_the_bot_plays_a_card_it_was_told_fits(hanabi: rulelang.Ruleset) -> None:
    game = start(hanabi)
    hold(game, 0, [card(BLUE, 3), card(RED, 4), card(RED, 2), card(GREEN, 2), card(WHITE, 3)])
    game.edit().set("piles", [1, 0, 0, 0, 0])
    game.edit().set("told_colour", [-1, -1, RED, -1, -1], of=0)
    game.edit().set("told_value", [-0, 0, 2, 0, 0], of=0)
    assert game.bot_choice().text == "play"
    game.apply("play")
    assert game.bot_choice().text == "3"


def test_the_bot_discards_what_it_knows_is_useless_else_its_oldest_untold_card(
    hanabi: rulelang.Ruleset,
) -> None:
    game = start(hanabi)
    game.edit().set("hints", 0)  # no hint to give: a discard
    game.edit().set("piles", [1, 1, 1, 1, 1])
    game.edit().set("told_value", [0, 0, 0, 1, 0], of=0)  # slot 4: a 1, useless now
    assert game.bot_choice().text == "discard"
    game.apply("discard")
    assert game.bot_choice().text == "4"
    game.edit().set("told_value", [2, 0, 0, 0, 0], of=0)  # slot 1 told; nothing useless
    assert game.bot_choice().text == "2"


def test_the_bot_hints_a_partners_playable_card(hanabi: rulelang.Ruleset) -> None:
    game = start(hanabi)
    hold(game, 1, [card(BLUE, 4), card(BLUE, 3), card(GREEN, 5), card(WHITE, 4), card(RED, 4)])
    hold(game, 2, [card(GREEN, 4), card(YELLOW, 1), card(BLUE, 5), card(WHITE, 3), card(RED, 5)])
    assert game.bot_choice().text == "hint"
    game.apply("hint")
    assert game.bot_choice().text == "P3"  # the only partner with a card that fits
    game.apply("P3")
    assert game.bot_choice().text == "1"  # a 1 fits every empty pile: its value tells all
    game.apply("1")
    assert game.attribute("told_value", of=2) == [0, 1, 0, 0, 0]


def test_what_the_bot_sees_of_a_partner_changes_its_choice(hanabi: rulelang.Ruleset) -> None:
    """The adversary's other half: a partner's hand is what the bot's player sees, and
    the bot's choice follows it (a hint when a partner holds a card that fits, else a
    discard)."""
    game = start(hanabi)
    game.edit().set("hints", 4)
    useless = [card(BLUE, 4), card(BLUE, 3), card(GREEN, 5), card(WHITE, 4), card(RED, 4)]
    hold(game, 1, useless)
    hold(game, 2, [card(GREEN, 4), card(YELLOW, 3), card(BLUE, 5), card(WHITE, 3), card(RED, 5)])
    assert game.bot_choice().text == "discard"
    hold(game, 2, [card(GREEN, 4), card(YELLOW, 1), card(BLUE, 5), card(WHITE, 3), card(RED, 5)])
    assert game.bot_choice().text == "hint"


def unseen_changed(game: Game, seat: int) -> Game:
    """A copy where what `seat` may not see differs: its own hand is swapped, card for
    card, with cards of the deck (what it was told stays, slot by slot)."""
    twin = game.clone()
    own = twin.items("hand", seat)
    deck = twin.items("deck")
    fresh = [c for c in reversed(deck) if c not in own][: len(own)]
    if len(fresh) < len(own):
        return twin
    hold(twin, seat, fresh)
    return twin


def test_the_bot_never_reads_what_its_player_may_not_see(hanabi: rulelang.Ruleset) -> None:
    """At every decision of several games, the bot of the seat to move decides the same,
    tie after tie, when its own hand and the deck are changed; its player's view and
    history are the same too, and never list its own hand."""
    compared = 0
    for seed in range(3):
        game = hanabi.new_game(3, seed=seed)
        while not game.is_over() and compared < 40 * (seed + 1):
            seat = game.current_player()
            twin = unseen_changed(game, seat)
            if twin.items("hand", seat) != game.items("hand", seat):
                assert twin.view(seat) == game.view(seat)
                assert twin.history(seat) == game.history(seat)
                assert game.view(seat)["zones"][f"hand[P{seat + 1}]"] == {
                    "size": len(game.items("hand", seat))
                }
                for _ in range(3):
                    assert game.bot_choice().text == twin.bot_choice().text
                compared += 1
            game.apply(game.bot_choice())
    assert compared >= 100


def test_the_declared_bot_scores_and_random_play_does_not(hanabi: rulelang.Ruleset) -> None:
    """A short measure (docs/bots.md has the long one): the bot builds a show, random
    play burns the fuses."""
    bot, rand = [], []
    for seed in range(10):
        for out, name in ((bot, None), (rand, "random")):
            game = hanabi.new_game(3, seed=seed)
            while not game.is_over():
                game.apply(game.bot_choice(name))
            out.append(game.attribute("score", of=0))
    assert sum(bot) / len(bot) >= 12 and sum(rand) / len(rand) < 2


@pytest.mark.parametrize("players", [2, 4])
def test_no_option_or_view_tells_a_seat_its_own_hand(
    hanabi: rulelang.Ruleset, players: int
) -> None:
    """The leak check of every shipped game (tests/test_secrecy.py): at each decision
    of random games, worlds where the seat's own hand and the deck are dealt anew
    offer the same options and show the same view."""
    from test_secrecy import play_and_check

    for seed in range(2):
        found = play_and_check(hanabi, players, seed, decisions=150)
        assert not found, found[:3]


def test_no_line_a_seat_reads_names_a_card_of_its_own_hand(hanabi: rulelang.Ruleset) -> None:
    """At the end of bot games, the cards still in a seat's hand were never named in
    its history (a card is named when it is played or discarded: names shared with a
    card played or discarded are left out)."""
    checked = 0
    for seed in range(4):
        game = hanabi.new_game(3, seed=seed)
        while not game.is_over():
            game.apply(game.bot_choice())
        public = set(game.zone("shown")) | set(game.zone("discards"))  # type: ignore[arg-type]
        for seat in range(3):
            held = set(names(game, seat)) - public
            checked += len(held)
            said = [line for line in game.history(seat) if any(c in line for c in held)]
            assert not said, (seat, held, said[:3])
    assert checked >= 5


def test_the_estimate_for_search_bots_counts_the_cards_played(hanabi: rulelang.Ruleset) -> None:
    """2 points a card played, 2 a card the show can still reach, -4 a fuse burnt, + 8."""
    game = start(hanabi)
    game.edit().set("piles", [2, 1, 0, 3, 0])
    assert game.estimate() == [0.70, 0.70, 0.70]  # 2 * 6 + 2 * 25 + 8
    game.edit().set("fuses", 2)
    assert game.estimate() == [0.66, 0.66, 0.66]


def test_the_estimate_counts_what_the_discards_put_out_of_reach(
    hanabi: rulelang.Ruleset,
) -> None:
    """A colour reaches no further than the first value whose every copy is discarded:
    one of the two red 4s costs nothing, both cost red's 4 and 5 (4 points), and so does
    the one red 5 alone (2 points)."""
    game = start(hanabi, seed=2)
    red_4s, red_5 = [card(0, 4, 0), card(0, 4, 1)], card(0, 5, 0)
    assert all(c in game.items("deck") for c in [*red_4s, red_5])
    base = game.estimate()[0]
    game.edit().move(red_4s[0], "discards")
    assert game.estimate()[0] == base
    game.edit().move(red_5, "discards")
    assert round(base - game.estimate()[0], 2) == 0.02
    game.edit().move(red_4s[1], "discards")
    assert round(base - game.estimate()[0], 2) == 0.04
