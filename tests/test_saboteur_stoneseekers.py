"""Saboteur with stone seekers (rulesets/saboteur-stoneseekers.rules): scripted positions.

Spec: /work/shared/seeds/001_*.txt and /work/shared/reference/saboteur-stoneseekers.md.
Each test starts a game (chance resolved by the seed), then lays out the position it
needs with `Game.edit()`: roles, hands, the maze, where the goals lie. Only the public
engine API is used.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

import rulelang
from rulelang import Game, Ruleset

ROOT = Path(__file__).resolve().parent.parent
STONESEEKERS = ROOT / "rulesets" / "saboteur-stoneseekers.rules"
GOAL_CELLS = ["8,2", "8,0", "8,-2"]
STONES = ["stone N-E", "stone N-W"]
# the reading of the reference: [saboteurs, gold seekers, stone seekers] per player count
ROLE_CARDS = {
    3: (1, 2, 1),
    4: (1, 2, 2),
    5: (2, 2, 2),
    6: (2, 3, 2),
    7: (3, 3, 2),
    8: (3, 3, 3),
    9: (3, 4, 3),
    10: (4, 4, 3),
}
ROLES = ("saboteur", "gold_seeker", "stone_seeker")


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return rulelang.compile_file(STONESEEKERS)


# --------------------------------------------------------------------------- positions
def texts(g: Game) -> list[str]:
    return [a.text for a in g.legal_actions()]


def names(g: Game, ids: Sequence[int]) -> list[str]:
    return [g.name_of("playcard", i) for i in ids]


def spare(g: Game, name: str) -> int:
    """A card of that name from the deck or the discard pile."""
    for zone in ("deck", "discard"):
        for c in g.items(zone):
            if g.name_of("playcard", c) == name:
                return int(c)
    raise AssertionError(f"no spare {name}")


def game(
    rules: Ruleset,
    roles: Sequence[str],
    hands: dict[int, Sequence[str]] | None = None,
    gold_at: str = "8,0",
    seed: int = 1,
) -> Game:
    """A game of len(roles) players, P1 to play; every hand as given (else empty), the
    roles as given, the gold face down at gold_at and the stones on the other goals."""
    g = rules.new_game(len(roles), seed=seed)
    while g.current_player() != 0:  # a seed where P1 plays first
        seed += 1
        g = rules.new_game(len(roles), seed=seed)
    edit = g.edit()
    for p, role in enumerate(roles):  # the role card and the attribute that copies it
        edit.set("role", role, of=p)
        (held,) = g.items("role_card", p)
        if g.attribute("role", of=held, kind="dwarf") != role:
            card = next(
                d for d in g.items("dwarf_box") if g.attribute("role", of=d, kind="dwarf") == role
            )
            edit.move(held, "dwarf_box")
            edit.move(card, "role_card", p)
    for p in range(len(roles)):
        for c in g.items("hand", p):
            edit.move(c, "discard")
    for p, cards in (hands or {}).items():
        for name in cards:
            edit.move(spare(g, name), "hand", p)
    stones = iter(STONES)
    for at in GOAL_CELLS:
        edit.clear("maze", at)
    for at in GOAL_CELLS:
        card = "gold" if at == gold_at else next(stones)
        edit.place("maze", at, edit.item("playcard", card), face_down=True)
    return g


def put(g: Game, at: str, name: str, turn: int = 0) -> None:
    g.edit().place("maze", at, spare(g, name), turn)


def corridor(g: Game, to: int) -> None:
    """Through-tunnels open west and east along row 0 from the start to column `to`."""
    kinds = ["tunnel N-E-S-W"] * 4 + ["tunnel E-S-W"] * 5
    for x in range(1, to + 1):
        put(g, f"{x},0", kinds[x - 1])


def wall(g: Game, at: str) -> None:
    """Any spare tunnel card on that cell, in the way of a path."""
    card = next(c for c in g.items("deck") if g.attribute("kind", of=c, kind="playcard") == "path")
    g.edit().place("maze", at, card)


def points(g: Game) -> list[int]:
    return [int(g.attribute("points", of=p)) for p in range(g.players)]


def play(g: Game, card: str, *choices: str) -> None:
    g.apply(card)
    g.apply("play")
    for c in choices:
        g.apply(c)


def bot_turn(g: Game) -> list[str]:
    """The choices the declared bot makes for the seat to play, until its turn is done."""
    seat, turn, made = g.current_player(), g.turn_number, []
    while not g.is_over() and g.current_player() == seat and g.turn_number == turn:
        assert g.bot_for(seat) == "dwarf"
        action = g.bot_choice()
        made.append(action.text)
        g.apply(action)
    return made


def role_counts(g: Game) -> tuple[int, ...]:
    dealt = [str(g.attribute("role", of=p)) for p in range(g.players)]
    dealt += [str(g.attribute("role", of=d, kind="dwarf")) for d in g.items("aside")]
    return tuple(dealt.count(r) for r in ROLES)


# --------------------------------------------------------------------------- roles
@pytest.mark.parametrize("n", range(3, 11))
def test_roles_follow_the_table(rules: Ruleset, n: int) -> None:
    for seed in range(3):
        g = rules.new_game(n, seed=seed)
        assert role_counts(g) == ROLE_CARDS[n]
        assert len(g.items("aside")) == 1  # one role card set aside unseen
        assert {str(g.attribute("role", of=p)) for p in range(n)} <= set(ROLES)


def test_a_role_is_seen_by_its_player_only(rules: Ruleset) -> None:
    g = rules.new_game(4, seed=2)
    assert g.attribute("role", of=1, viewer=1) in ROLES
    with pytest.raises(rulelang.UsageError):
        g.attribute("role", of=1, viewer=0)


# --------------------------------------------------------------------------- points
def test_a_path_card_scores_one_more_than_its_neighbours(rules: Ruleset) -> None:
    g = game(rules, ["gold_seeker"] * 3, {0: ["tunnel W-E"], 1: ["tunnel N-E-S-W"]})
    play(g, "tunnel W-E", "1,0", "0")  # next to the start only
    assert points(g) == [2, 0, 0]
    for at in ("3,0", "2,1", "2,-1"):
        put(g, at, "tunnel N-E-S-W")
    play(g, "tunnel N-E-S-W", "2,0", "0")  # four cards around it
    assert points(g) == [2, 5, 0]


def test_a_card_next_to_a_face_down_goal_counts_it(rules: Ruleset) -> None:
    g = game(rules, ["gold_seeker", "stone_seeker", "saboteur"], {0: ["tunnel N-S"]})
    corridor(g, 6)
    put(g, "7,0", "tunnel N-W")
    put(g, "7,1", "tunnel N-S")
    play(g, "tunnel N-S", "7,2", "0")  # 7,1 below, the goal at 8,2 beside it
    assert points(g) == [3, 0, 0]
    assert g.tile("maze", "8,2", 0) == {**g.tile("maze", "8,2", 0), "secret": True}
    assert not g.is_over()


def test_action_cards_score_two(rules: Ruleset) -> None:
    g = game(
        rules,
        ["gold_seeker", "stone_seeker", "saboteur"],
        {0: ["broken pick"], 1: ["rockfall"], 2: ["repair pick"]},
    )
    put(g, "1,0", "tunnel W-E")
    play(g, "broken pick", "P3")
    assert names(g, g.items("front", 2)) == ["broken pick"]
    play(g, "rockfall", "1,0")
    assert g.tile("maze", "1,0") is None
    play(g, "repair pick", "P3")
    assert g.items("front", 2) == []
    assert points(g) == [2, 2, 2]


def test_a_discard_scores_nothing(rules: Ruleset) -> None:
    g = game(rules, ["gold_seeker"] * 3, {0: ["broken pick", "map"]})
    g.apply("broken pick")
    g.apply("discard")
    assert points(g) == [0, 0, 0]


# --------------------------------------------------------------------------- the endings
def reach_goal(rules: Ruleset, roles: Sequence[str], gold_at: str) -> Game:
    """P1 lays the last tunnel before the goal at 8,0; every hand is scripted."""
    hands = {
        0: ["tunnel W-E", "repair pick", "broken lamp"],  # after the lay: 10 + 5
        1: ["rockfall", "tunnel N-S", "dead end W"],  # 3 + 1 + 1
        2: ["map", "repair cart"],  # 0 + 10
        3: ["broken cart"],  # 5
    }
    g = game(rules, roles, hands, gold_at=gold_at)
    corridor(g, 6)
    play(g, "tunnel W-E", "7,0", "0")
    return g


def test_the_gold_reached_wins_for_the_gold_seekers(rules: Ruleset) -> None:
    g = reach_goal(rules, ["gold_seeker", "gold_seeker", "stone_seeker", "saboteur"], "8,0")
    assert g.is_over()
    assert g.results() == ["win", "win", "loss", "loss"]
    assert g.attribute("ending") == "gold_seeker"
    # the lay scores 3 (the crossing at 6,0 and the goal); the winners add their hands
    assert points(g) == [3 + 15, 5, 0, 0]
    assert g.tile("maze", "8,0", 3) == {**g.tile("maze", "8,0", 3), "tile": "gold"}


def test_a_stone_reached_wins_for_the_stone_seekers(rules: Ruleset) -> None:
    g = reach_goal(rules, ["stone_seeker", "gold_seeker", "stone_seeker", "saboteur"], "8,2")
    assert g.is_over()
    assert g.results() == ["win", "loss", "win", "loss"]
    assert g.attribute("ending") == "stone_seeker"
    assert points(g) == [3 + 15, 0, 10, 0]


def test_a_role_nobody_plays_wins_nothing(rules: Ruleset) -> None:
    g = reach_goal(rules, ["gold_seeker", "gold_seeker", "saboteur", "saboteur"], "8,2")
    assert g.is_over()
    assert g.results() == ["loss"] * 4


def last_card(rules: Ruleset, roles: Sequence[str]) -> Game:
    """The deck is empty and P1 holds the last card of the game."""
    g = game(rules, roles, {0: ["map"]})
    edit = g.edit()
    for c in g.items("deck"):
        edit.move(c, "discard")
    return g


def test_every_card_gone_wins_for_the_saboteurs(rules: Ruleset) -> None:
    g = last_card(rules, ["gold_seeker", "saboteur", "stone_seeker", "saboteur"])
    g.edit().set("points", 30, of=0)
    g.apply("map")
    g.apply("discard")
    assert g.is_over()
    assert g.results() == ["loss", "win", "loss", "win"]
    assert g.attribute("ending") == "saboteur"


def test_without_saboteurs_the_most_points_win(rules: Ruleset) -> None:
    g = last_card(rules, ["gold_seeker", "stone_seeker", "stone_seeker", "gold_seeker"])
    edit = g.edit()
    for p, score in enumerate([4, 9, 2, 9]):
        edit.set("points", score, of=p)
    g.apply("map")
    g.apply("discard")
    assert g.is_over()
    assert g.results() == ["loss", "win", "loss", "win"]  # a tie shares the win
    assert g.attribute("ending") is None


def test_the_game_goes_on_while_a_hand_holds_cards(rules: Ruleset) -> None:
    g = last_card(rules, ["gold_seeker", "saboteur", "stone_seeker"])
    g.edit().move(spare(g, "rockfall"), "hand", 2)
    g.apply("map")
    g.apply("discard")
    assert not g.is_over()
    assert g.current_player() == 2  # P2 has no cards and passes


# --------------------------------------------------------------------------- the bots
SEEKER_HAND = ["tunnel W-E", "rockfall", "broken lamp", "repair pick", "map", "dead end W"]


def test_a_seeker_plays_its_map_first(rules: Ruleset) -> None:
    g = game(rules, ["gold_seeker", "saboteur", "stone_seeker"], {0: SEEKER_HAND})
    g.edit().move(spare(g, "broken pick"), "front", 0)
    assert bot_turn(g)[:2] == ["map", "play"]
    looked = next(line for line in g.history(0) if "You look at the goal" in line)
    seen = g.attribute("seen", of=0, viewer=0)
    stones = g.attribute("stones", of=0, viewer=0)
    assert len(seen) == 1
    assert stones == ([] if "gold" in looked else seen)


def knows(g: Game, seat: int, seen: Sequence[str], stones: Sequence[str]) -> None:
    """`seat` has looked at the goals `seen`, of which `stones` hold a stone."""
    edit = g.edit()
    edit.set("seen", list(seen), of=seat)
    edit.set("stones", list(stones), of=seat)


def test_a_seeker_looks_only_at_goals_it_does_not_know(rules: Ruleset) -> None:
    g = game(rules, ["gold_seeker", "saboteur", "stone_seeker"], {0: ["map"]})
    knows(g, 0, ["8,2"], ["8,2"])  # a stone: the gold is one of the other two
    made = bot_turn(g)
    assert made[:2] == ["map", "play"] and made[2] in {"8,0", "8,-2"}


def test_a_seeker_repairs_its_own_tool_before_blocking(rules: Ruleset) -> None:
    g = game(rules, ["gold_seeker", "saboteur", "stone_seeker"], {0: SEEKER_HAND[:4], 1: ["map"]})
    edit = g.edit()
    edit.move(spare(g, "broken pick"), "front", 0)
    edit.move(spare(g, "broken pick"), "front", 1)  # P2's is broken too
    assert bot_turn(g) == ["repair pick", "play", "P1"]
    assert g.items("front", 0) == []


def test_a_seeker_blocks_another_player_before_laying_a_path(rules: Ruleset) -> None:
    g = game(rules, ["gold_seeker", "saboteur", "stone_seeker"], {0: SEEKER_HAND[:3]})
    made = bot_turn(g)
    assert made[:2] == ["broken lamp", "play"] and made[2] in {"P2", "P3"}


def test_a_saboteur_blocks_before_repairing(rules: Ruleset) -> None:
    g = game(rules, ["saboteur", "gold_seeker", "stone_seeker"], {0: SEEKER_HAND})
    g.edit().move(spare(g, "broken pick"), "front", 0)
    made = bot_turn(g)
    assert made[:2] == ["broken lamp", "play"] and made[2] in {"P2", "P3"}


def test_a_seeker_lays_a_through_tunnel_closest_to_its_goals(rules: Ruleset) -> None:
    g = game(
        rules,
        ["gold_seeker", "saboteur", "stone_seeker"],
        {0: ["tunnel W-E", "dead end W-E", "rockfall"]},
    )
    corridor(g, 3)
    assert bot_turn(g) == ["tunnel W-E", "play", "4,0", "0"]
    assert points(g)[0] == 2


def test_a_saboteur_lays_a_dead_end(rules: Ruleset) -> None:
    g = game(
        rules,
        ["saboteur", "gold_seeker", "stone_seeker"],
        {0: ["tunnel W-E", "dead end W-E", "map"]},
    )
    corridor(g, 3)
    assert bot_turn(g)[:3] == ["dead end W-E", "play", "4,0"]


@pytest.mark.parametrize(("aim", "spot"), [("8,2", "1,1"), ("8,-2", "1,-1")])
def test_a_path_goes_towards_the_goals_still_aimed_at(rules: Ruleset, aim: str, spot: str) -> None:
    g = game(rules, ["gold_seeker", "saboteur", "stone_seeker"], {0: ["tunnel N-S"]}, gold_at=aim)
    put(g, "1,0", "tunnel N-E-S-W")
    knows(g, 0, [aim], [])  # it saw the gold there
    assert bot_turn(g)[:3] == ["tunnel N-S", "play", spot]


def test_a_path_goes_around_cards_in_the_way(rules: Ruleset) -> None:
    g = game(rules, ["gold_seeker", "saboteur", "stone_seeker"], {0: ["tunnel N-S"]})
    put(g, "1,0", "tunnel N-E-S-W")
    knows(g, 0, ["8,0"], [])  # it saw the gold there
    # from 1,1 or 1,-1 the gold is 8 steps away; a wall of cards at x = 3 above the
    # corridor makes the way from 1,1 longer
    for y in range(1, 8):
        wall(g, f"3,{y}")
    wall(g, "2,0")
    assert bot_turn(g)[:3] == ["tunnel N-S", "play", "1,-1"]


def test_a_saboteur_clears_the_through_tunnel_closest_to_a_goal(rules: Ruleset) -> None:
    g = game(rules, ["saboteur", "gold_seeker", "stone_seeker"], {0: ["rockfall", "map"]})
    g.edit().move(spare(g, "broken pick"), "front", 0)  # no path for it
    corridor(g, 5)
    put(g, "6,1", "dead end W")  # closer, but a dead end
    assert bot_turn(g) == ["rockfall", "play", "5,0"]


def test_a_seeker_clears_the_dead_end_closest_to_a_goal(rules: Ruleset) -> None:
    g = game(rules, ["stone_seeker", "saboteur", "gold_seeker"], {0: ["rockfall"]})
    g.edit().move(spare(g, "broken pick"), "front", 0)
    corridor(g, 5)
    put(g, "1,1", "dead end S")
    put(g, "4,1", "dead end W")
    assert bot_turn(g) == ["rockfall", "play", "4,1"]


def test_a_saboteur_discards_a_useless_card(rules: Ruleset) -> None:
    hand = ["map", "tunnel N-S", "dead end W", "repair lamp"]
    g = game(rules, ["saboteur", "gold_seeker", "stone_seeker"], {0: hand})
    g.edit().move(spare(g, "broken pick"), "front", 0)
    made = bot_turn(g)
    assert made[0] in {"map", "tunnel N-S"} and made[1] == "discard"


def test_a_seeker_discards_a_dead_end(rules: Ruleset) -> None:
    hand = ["map", "tunnel N-S", "dead end W", "repair lamp"]
    g = game(rules, ["gold_seeker", "saboteur", "stone_seeker"], {0: hand})
    edit = g.edit()
    edit.move(spare(g, "broken pick"), "front", 0)
    knows(g, 0, ["8,0"], [])  # the gold: no map to play
    assert bot_turn(g) == ["dead end W", "discard"]


def test_with_nothing_useless_a_bot_discards_any_card(rules: Ruleset) -> None:
    g = game(rules, ["gold_seeker", "saboteur", "stone_seeker"], {0: ["tunnel N-S", "map"]})
    edit = g.edit()
    edit.move(spare(g, "broken pick"), "front", 0)
    knows(g, 0, ["8,2", "8,-2"], ["8,2", "8,-2"])  # the stones: the gold is at 8,0
    made = bot_turn(g)
    assert made[0] in {"tunnel N-S", "map"} and made[1] == "discard"


# --------------------------------------------------------------------------- what maps imply
# Seed 001, "Pfadkarte setzen": "Die Positionen der Zielkarten sind am Anfang in einer
# Liste gespeichert. [...] Mit den benutzten Schatzkarten werden aus dieser Liste die
# entsprechenden Zielkarten entfernt. Beim Goldsucher werden dementsprechend
# Steinkarten entfernt und bei Steinsuchern die Goldkarte." (the goals are one gold and
# two stones: once the seen goals leave one possibility, the bot knows the rest)
DEDUCE_ROLES = ["saboteur", "stone_seeker"]


def looked_at(rules: Ruleset, role: str, goals: Sequence[str], hand: Sequence[str]) -> Game:
    """P1 (`role`) looks at `goals` with its own maps, one a turn, while P2 and P3
    discard; then it holds `hand`. The gold lies at 8,0; nobody draws (empty deck)."""
    others = ["dead end W", "dead end S", "dead end N-E", "dead end N-W"]
    g = game(
        rules,
        [role, *DEDUCE_ROLES],
        {0: ["map"] * len(goals) + list(hand), 1: others[:2], 2: others[2:]},
    )
    edit = g.edit()
    for c in g.items("deck"):
        edit.move(c, "discard")
    for at in goals:
        play(g, "map", at)
        for seat in (1, 2):
            assert g.current_player() == seat
            g.apply(names(g, g.items("hand", seat))[0])
            g.apply("discard")
    assert g.current_player() == 0 and g.attribute("seen", of=0, viewer=0) == list(goals)
    return g


def test_a_gold_seeker_that_saw_both_stones_digs_instead_of_mapping_the_gold(
    rules: Ruleset,
) -> None:
    """The two stones seen leave only the gold in a gold seeker's list: "Beim
    Goldsucher werden dementsprechend Steinkarten entfernt"; the last goal is the gold,
    so no map is spent on it and the path card goes towards it."""
    g = looked_at(rules, "gold_seeker", ["8,2", "8,-2"], ["map", "tunnel W-E"])
    assert bot_turn(g)[:3] == ["tunnel W-E", "play", "1,0"]


def test_a_stone_seeker_that_saw_the_gold_stops_mapping(rules: Ruleset) -> None:
    """ "[...] und bei Steinsuchern die Goldkarte": the gold seen, the two goals left
    are both stones, so a stone seeker has nothing left to look at and digs."""
    g = looked_at(rules, "stone_seeker", ["8,0"], ["map", "tunnel W-E"])
    assert bot_turn(g)[:3] == ["tunnel W-E", "play", "1,0"]


def test_a_stone_seeker_that_saw_both_stones_does_not_dig_towards_the_gold(
    rules: Ruleset,
) -> None:
    """Both stones seen, the third goal is the gold, which a stone seeker's list drops
    ("bei Steinsuchern die Goldkarte"): it digs towards a stone, not the gold. Next to
    the gold at 8,0 (7,0) no stone can be reached past the cards at 7,1 and 7,-1."""
    hand = ["tunnel W-E", "tunnel N-S"]
    g = looked_at(rules, "stone_seeker", ["8,2", "8,-2"], hand)
    for x in range(1, 5):
        put(g, f"{x},0", "tunnel N-E-S-W")
    put(g, "5,0", "tunnel W-E")
    put(g, "6,0", "tunnel N-E-S-W")
    put(g, "7,1", "tunnel N-E")  # closed to the south and west
    put(g, "7,-1", "dead end S")  # closed to the north and west
    made = bot_turn(g)
    assert made[0] == "tunnel N-S" and made[2] in {"6,1", "6,-1"}


def test_a_stone_lying_face_up_counts_as_seen(rules: Ruleset) -> None:
    """Reading (the seed's bots only meet goals by maps): a goal turned face up, left
    beside the maze when no way up fits, is seen by every player. With one stone on a
    map and the other face up, a gold seeker knows the gold lies at the third goal."""
    g = game(rules, ["gold_seeker", "saboteur", "stone_seeker"], {0: ["map", "tunnel W-E"]})
    knows(g, 0, ["8,2"], ["8,2"])
    edit = g.edit()
    stone = g.tile("maze", "8,-2")["item"]
    edit.clear("maze", "8,-2")
    edit.place("maze", "8,-2", stone)
    assert not g.tile("maze", "8,-2", 0)["secret"]
    assert bot_turn(g)[:3] == ["tunnel W-E", "play", "1,0"]


# --------------------------------------------------------------------------- what a bot sees
def hide_differently(g: Game, seat: int) -> Game:
    """A copy of g where only what `seat` cannot see differs: the other players' roles
    and hands, the order of the deck, and the goals it has not looked at."""
    other = g.clone()
    edit = other.edit()
    n = other.players
    roles = [str(other.attribute("role", of=p)) for p in range(n)]
    for p in range(n):
        if p != seat:
            edit.set("role", roles[(p + 1) % n] if (p + 1) % n != seat else roles[p], of=p)
    deck = list(other.items("deck"))
    for p in range(n):
        if p != seat:
            for c in other.items("hand", p):
                if deck:
                    swap = deck.pop(0)
                    edit.move(c, "deck")
                    edit.move(swap, "hand", p)
    for c in other.items("deck")[: len(other.items("deck")) // 2]:
        edit.move(c, "deck")  # a new order
    seen = set(other.attribute("seen", of=seat, viewer=seat))
    hidden = [a for a in GOAL_CELLS if a not in seen and other.tile("maze", a, seat)["secret"]]
    if len(hidden) >= 2:
        a, b = hidden[:2]
        ta, tb = other.tile("maze", a)["item"], other.tile("maze", b)["item"]
        edit.clear("maze", a)
        edit.clear("maze", b)
        edit.place("maze", a, tb, face_down=True)
        edit.place("maze", b, ta, face_down=True)
    return other


@pytest.mark.parametrize("n", [3, 5, 8])
def test_a_bot_choice_ignores_what_its_player_cannot_see(rules: Ruleset, n: int) -> None:
    g = rules.new_game(n, seed=n)
    checked = changed = 0
    while not g.is_over() and checked < 120:
        seat = g.current_player()
        if seat < 0:
            break
        other = hide_differently(g, seat)  # before g's bot draws
        hands = [other.items("hand", p) != g.items("hand", p) for p in range(n)]
        assert not hands[seat]
        changed += any(hands)
        choice = g.bot_choice()
        assert other.bot_choice() == choice
        g.apply(choice)
        checked += 1
    assert checked > 20 and changed > 20


def test_bots_play_every_player_count_to_an_end(rules: Ruleset) -> None:
    for n in range(3, 11):
        g = rules.new_game(n, seed=7)
        while not g.is_over():
            g.apply(g.bot_choice())
        assert g.attribute("decided") is True
        assert g.attribute("round") == 1  # one round only


def test_the_estimate_of_each_role_follows_the_tunnel(rules: Ruleset) -> None:
    """A tunnel towards the goals raises the seekers' estimates and lowers the
    saboteur's; ending next to the gold (8,0), the gold seeker's is the highest."""
    g = game(rules, ["gold_seeker", "stone_seeker", "saboteur"])
    before = g.estimate()
    corridor(g, 6)
    after = g.estimate()
    assert before is not None and after is not None
    gold, stone, saboteur = (after[p] - before[p] for p in range(3))
    assert gold > 0 and stone > 0 and saboteur < 0
    assert after[0] > after[1] > after[2]


def test_the_estimate_counts_broken_tools_per_side(rules: Ruleset) -> None:
    """A broken tool before a player of one seeker side lowers that side's estimate and
    raises the saboteur's (that side will lay fewer tunnels; the other side's rises by
    less than the point the estimate is counted in); one before the saboteur lowers the
    saboteur's and raises the seekers' (it lays no dead end). Four players: two gold
    seekers, a stone seeker, a saboteur, the tunnel halfway to the gold."""
    g = game(rules, ["gold_seeker", "gold_seeker", "stone_seeker", "saboteur"])
    corridor(g, 4)
    before = g.estimate()
    g.edit().move(spare(g, "broken pick"), "front", 2)  # the stone seeker's pick
    after = g.estimate()
    assert before is not None and after is not None
    gold, gold2, stone, saboteur = (a - b for a, b in zip(after, before, strict=True))
    assert gold >= 0 and gold2 == gold and stone < 0 and saboteur > 0
    g.edit().move(spare(g, "broken lamp"), "front", 3)  # the saboteur's lamp
    blocked = g.estimate()
    assert blocked is not None
    assert blocked[3] < after[3] and blocked[0] > after[0] and blocked[2] > after[2]


def test_the_estimate_follows_the_cards_left_per_step(rules: Ruleset) -> None:
    """The saboteurs win when "the draw pile is empty and no player holds a card"
    (reference, Endings): the same tunnel with 30 cards fewer to play lowers the
    seekers' estimates and raises the saboteur's (the old estimate read the maze only)."""
    g = game(rules, ["gold_seeker", "stone_seeker", "saboteur"])
    corridor(g, 4)
    before = g.estimate()
    for c in g.items("deck")[:30]:
        g.edit().move(c, "discard")
    after = g.estimate()
    assert before is not None and after is not None
    assert after[0] < before[0] and after[1] < before[1] and after[2] > before[2]
    assert before[0] >= 0.15 and after[0] <= 0.05  # pace 12 (27 in 100), then 4 (1)


def test_with_no_saboteur_the_points_decide_what_no_side_reaches(rules: Ruleset) -> None:
    """The reference (Endings): "The draw pile is empty and the game has no saboteur:
    the player(s) with the most points win". With the cards run out and no saboteur in
    play, the player 15 points ahead is the likely winner, its partner of the same role
    not."""
    g = game(rules, ["gold_seeker", "gold_seeker", "stone_seeker", "stone_seeker"])
    for c in g.items("deck"):
        g.edit().move(c, "discard")
    g.edit().set("points", 20, of=0)
    for p in (1, 2, 3):
        g.edit().set("points", 5, of=p)
    est = g.estimate()
    assert est is not None
    assert est[0] >= 0.8 and est[1] <= 0.1
