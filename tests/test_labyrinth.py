"""Scripted labyrinth scenarios on the fixed map of tests/labyrinth/fixed.rules: one test
per rule of the seed (002) and of /work/shared/reference/labyrinth.md, asserting the
state and what each player was told. Dice are scripted (auto_chance=False).

The map (x right, y up):

    y=4: safe      safe      safe      safe      safe      safe     (where the others wait)
    y=3: safe+T    hospital  marsh     river v   safe      portal B
    y=2: portal A  shop      safe      river v   safe      safe
    y=1: safe      safe |    safe      river >   river >   river >  (mouth; exit)
    y=0: portal F  portal 1  safe+T    portal 2  safe      portal 3
         x=0       x=1       x=2       x=3       x=4       x=5

Walls stand between 2,1 and 2,2, between 1,1 and 2,1, and between rows 3 and 4 but at
x=0; an exit below 2,0, and one right of 5,1 (the river's mouth) unless mouth_exit is
false. The players start on row 4, P1 on 2,1; each test moves them where it needs.
"""

from __future__ import annotations

import re

import pytest
from labyrinth_support import (  # noqa: F401 - fixed and rules are fixtures
    fixed,
    others_never_heard,
    rules,
    scenario,
    tile_attr,
)

from rulelang import CHANCE, Game, Ruleset


def heard(game: Game, seat: int) -> list[str]:
    """What a seat was told, without the line each turn starts with for the others
    ("P2's turn."), which the first test checks."""
    return [line for line in game.history(seat) if not TURN_LINE.fullmatch(line)]


TURN_LINE = re.compile(r"P\d+'s turn\.")


def at(game: Game, seat: int) -> str:
    return str(game.attribute("at", of=seat))


def last(game: Game, seat: int) -> str:
    return heard(game, seat)[-1]


def options(game: Game) -> list[str]:
    return [a.text for a in game.legal_actions()]


# ---------------------------------------------------------------- turn order


def test_the_turn_order_is_drawn_at_random_and_told_to_everyone(fixed: Ruleset) -> None:
    game = scenario(fixed, order=["P3", "P1", "P2"], p1={"at": "0,4"})
    assert all(heard(game, seat) == ["Turn order: P3, P1, P2"] for seat in range(3))
    seen = []
    for way in ["left", "right", "left", "right", "left", "right"]:  # along row 4
        seen.append(game.turn_player)
        game.apply(way)
    assert seen == [2, 0, 1, 2, 0, 1]
    # the others learn whose turn it is, and nothing of what happens in it
    for seat in range(3):
        told = [line for line in game.history(seat) if TURN_LINE.fullmatch(line)]
        assert told == [f"P{p + 1}'s turn." for p in seen + [2] if p != seat]


def test_the_order_differs_between_seeds(rules: Ruleset) -> None:
    orders = {tuple(rules.new_game(4, seed=s).history(0)[:1]) for s in range(20)}
    assert len(orders) > 5 and all(o[0].startswith("Turn order: ") for o in orders)


# ---------------------------------------------------------------- walls and exits


def test_the_outer_wall_blocks_too(fixed: Ruleset) -> None:
    game = scenario(fixed, p1={"at": "4,0"})
    game.apply("down")
    assert last(game, 0) == "P1 cannot move down. Blocked by wall."
    assert game.turn_player == 0 and at(game, 0) == "4,0"


# ---------------------------------------------------------------- tiles


def test_the_river_cannot_push_through_the_outer_wall(fixed: Ruleset) -> None:
    game = scenario(fixed, options={"mouth_exit": "false"}, p1={"at": "5,2"})
    game.apply("down")  # into 5,1, whose flow leaves the board: the outer wall
    assert at(game, 0) == "5,1"
    assert last(game, 0) == "The river tries to flush P1, but a wall prevents him/her from moving."
    assert game.turn_player == 1


def test_the_river_cannot_push_a_player_without_treasure_out(fixed: Ruleset) -> None:
    game = scenario(fixed, p1={"at": "5,2"})
    game.apply("down")
    assert at(game, 0) == "5,1" and not game.is_over()
    assert last(game, 0) == (
        "The river tries to flush P1 out through an exit, but P1 has no treasure."
    )


@pytest.mark.parametrize(
    "start, way, end",
    [
        ("0,1", "down", "0,0"),  # fake: leads to itself
        ("0,1", "up", "5,3"),  # A to B
        ("4,3", "right", "0,2"),  # B to A
        ("1,1", "down", "3,0"),  # 1 to 2
        ("2,0", "right", "5,0"),  # 2 to 3
        ("4,0", "right", "1,0"),  # 3 to 1
    ],
)
def test_a_portal_teleports_without_telling_its_kind(
    fixed: Ruleset, start: str, way: str, end: str
) -> None:
    game = scenario(fixed, p1={"at": start})
    game.apply(way)
    assert at(game, 0) == end
    assert last(game, 0) == "P1 enters and exits a portal."
    assert game.turn_player == 1  # the portal reached is not entered again
    others_never_heard(game, 0, "portal")


def test_a_marsh_costs_the_next_turn(fixed: Ruleset) -> None:
    game = scenario(fixed, p1={"at": "2,2"})
    game.apply("up")
    assert at(game, 0) == "2,3" and last(game, 0) == "P1 sinks into a MARSH."
    assert game.attribute("lost_turns", of=0) == 1
    game.apply("left")  # P2 from 5,4 to 4,4
    game.apply("left")  # P3 from 3,4 to 2,4
    # P1's turn is lost: P2 decides next
    assert game.turn_player == 1 and game.turn_number == 5
    assert "P1 loses this turn." in heard(game, 0)
    assert game.attribute("lost_turns", of=0) == 0
    others_never_heard(game, 0, "MARSH", "loses")


@pytest.mark.parametrize(
    "face, item",
    [
        (1, "rusty_bullet"),
        (2, "rusty_bullet"),
        (3, "first_aid_kit"),
        (4, "first_aid_kit"),
        (5, "pile_of_junk"),
        (6, "pile_of_junk"),
    ],
)
def test_the_shop_sells_an_item_by_a_die_the_buyer_alone_sees(
    fixed: Ruleset, face: int, item: str
) -> None:
    game = scenario(fixed, p1={"at": "1,1"})
    game.apply("up")
    assert heard(game, 0)[-1] == "P1 enters a SHOP."
    assert options(game) == ["roll for an item", "leave the shop"]
    game.apply("roll for an item")
    assert game.current_player() == CHANCE and game.pending().name == "face"
    game.apply_chance(face)
    assert game.attribute("item", of=0) == item
    got = {
        "rusty_bullet": "a rusty bullet",
        "first_aid_kit": "a first aid kit",
        "pile_of_junk": "a pile of junk",
    }[item]
    assert heard(game, 0)[-2:] == [f"P1 rolls {face} in the shop.", f"P1 gets {got}."]
    others_never_heard(game, 0, "SHOP", "rolls", "gets")


def test_the_shop_sells_nothing_to_a_player_holding_an_item(fixed: Ruleset) -> None:
    game = scenario(fixed, p1={"at": "1,1", "item": "pile_of_junk"})
    assert options(game) == ["drop the junk", "move"]
    game.apply("move")
    game.apply("up")
    assert last(game, 0) == "P1 already holds an item and cannot buy another."
    assert game.turn_player == 1
    # in the shop the junk cannot be thrown away: P1's next turn offers only the move
    game.apply("left")
    game.apply("left")
    assert game.turn_player == 0 and game.pending().name == "way"


def test_the_shop_may_be_left_without_buying(fixed: Ruleset) -> None:
    game = scenario(fixed, p1={"at": "1,1"})
    game.apply("up")
    game.apply("leave the shop")
    assert game.attribute("item", of=0) is None and game.turn_player == 1


def test_the_hospital_heals_at_the_cost_of_the_next_turn(fixed: Ruleset) -> None:
    game = scenario(fixed, p1={"at": "1,2", "injured": True})
    game.apply("up")
    assert last(game, 0) == "P1 enters a HOSPITAL."
    assert options(game) == ["heal", "leave the hospital"]
    game.apply("heal")
    assert game.attribute("injured", of=0) is False
    assert last(game, 0) == "P1 is healed, and will lose the next turn."
    game.apply("left")
    game.apply("left")
    assert game.turn_player == 1 and "P1 loses this turn." in heard(game, 0)


def test_the_hospital_asks_nothing_of_a_healthy_player(fixed: Ruleset) -> None:
    game = scenario(fixed, p1={"at": "1,2"})
    game.apply("up")
    assert last(game, 0) == "P1 enters a HOSPITAL." and game.turn_player == 1
    assert game.attribute("lost_turns", of=0) == 0


# ---------------------------------------------------------------- treasure


def test_a_healthy_player_may_pick_up_the_treasure(fixed: Ruleset) -> None:
    game = scenario(fixed, p1={"at": "2,1"})
    game.apply("down")
    assert heard(game, 0)[-2:] == [
        "P1 walks into a SAFE clearing.",
        "P1 also stumbles across a pile of TREASURE.",
    ]
    assert options(game) == ["pick up the treasure", "leave it"]
    game.apply("pick up the treasure")
    assert game.attribute("treasure", of=0) is True
    assert tile_attr(game, "treasure", "2,0") == 0
    others_never_heard(game, 0, "TREASURE", "treasure")


def test_an_injured_player_cannot_pick_up_treasure(fixed: Ruleset) -> None:
    game = scenario(fixed, p1={"at": "2,1", "injured": True})
    game.apply("down")
    assert last(game, 0) == "P1 is injured and cannot pick it up."
    assert game.attribute("treasure", of=0) is False and game.turn_player == 1
    assert tile_attr(game, "treasure", "2,0") == 1


def test_one_treasure_at_a_time(fixed: Ruleset) -> None:
    game = scenario(fixed, p1={"at": "2,1", "treasure": True})
    game.apply("down")
    assert last(game, 0) == "P1 already carries a treasure and cannot carry another."
    assert tile_attr(game, "treasure", "2,0") == 1 and game.turn_player == 1


# ---------------------------------------------------------------- items


def test_the_first_aid_kit_heals_at_once_and_is_used_up(fixed: Ruleset) -> None:
    game = scenario(fixed, p1={"at": "2,1", "injured": True, "item": "first_aid_kit"})
    assert options(game) == ["use the first aid kit", "move"]
    game.apply("use the first aid kit")
    assert game.attribute("injured", of=0) is False
    assert game.attribute("item", of=0) is None
    assert last(game, 0) == "P1 uses the first aid kit and is healed."
    assert game.pending().name == "way" and game.turn_player == 0  # the move follows


def test_the_first_aid_kit_is_not_offered_to_a_healthy_player(fixed: Ruleset) -> None:
    game = scenario(fixed, p1={"at": "2,1", "item": "first_aid_kit"})
    assert game.pending().name == "way"


def test_junk_may_be_dropped_outside_the_shop(fixed: Ruleset) -> None:
    game = scenario(fixed, p1={"at": "2,1", "item": "pile_of_junk"})
    game.apply("drop the junk")
    assert game.attribute("item", of=0) is None
    assert last(game, 0) == "P1 throws away the pile of junk."
    others_never_heard(game, 0, "junk")


# ---------------------------------------------------------------- shooting


def shoot(game: Game, way: str) -> None:
    game.apply("shoot")
    assert game.prompt() == "Shoot which way?"
    game.apply(way)


def test_a_bullet_injures_the_first_player_in_line(fixed: Ruleset) -> None:
    game = scenario(
        fixed,
        p1={"at": "2,1", "item": "rusty_bullet"},
        p2={"at": "4,1", "treasure": True},
        p3={"at": "5,1"},
    )
    shoot(game, "right")
    assert game.attribute("injured", of=1) is True
    assert game.attribute("injured", of=2) is False
    assert game.attribute("item", of=0) is None
    # the victim drops the treasure on its tile
    assert game.attribute("treasure", of=1) is False
    assert tile_attr(game, "treasure", "4,1") == 1
    assert heard(game, 0)[-2:] == ["P1 shoots right.", "P1 shoots P2."]
    assert heard(game, 1)[-3:] == ["P1 shoots P2.", "P2 is injured.", "P2 drops the treasure."]
    others_never_heard(game, 1, "drops")
    assert not any("shoot" in line for line in heard(game, 2))


def test_a_bullet_flies_three_tiles_and_skips_the_shooters_tile(fixed: Ruleset) -> None:
    game = scenario(
        fixed, p1={"at": "2,1", "item": "rusty_bullet"}, p2={"at": "2,1"}, p3={"at": "5,1"}
    )
    shoot(game, "right")
    assert game.attribute("injured", of=2) is True
    assert game.attribute("injured", of=1) is False


def test_a_bullet_falls_short_of_its_range(fixed: Ruleset) -> None:
    game = scenario(
        fixed,
        options={"bullet_range": "2"},
        p1={"at": "2,1", "item": "rusty_bullet"},
        p3={"at": "5,1"},
    )
    shoot(game, "right")
    assert game.attribute("injured", of=2) is False
    assert last(game, 0) == "P1 has missed."
    assert game.attribute("item", of=0) is None  # spent either way


def test_a_wall_stops_the_bullet_and_the_shooter_hears_only_a_miss(fixed: Ruleset) -> None:
    game = scenario(fixed, p1={"at": "2,1", "item": "rusty_bullet"}, p2={"at": "2,2"})
    shoot(game, "up")
    assert game.attribute("injured", of=1) is False
    assert heard(game, 0)[-2:] == ["P1 shoots up.", "P1 has missed."]
    assert game.attribute("item", of=0) is None
    assert game.pending().name == "way" and game.turn_player == 0
    others_never_heard(game, 0, "shoot", "missed")


# ---------------------------------------------------------------- battles


def battle(rules: Ruleset, attacker: int, defender: int, **more: dict[str, object]) -> Game:
    # the two know they stand together (as if one had walked in: "P1 meets P2.")
    seats = {"p1": {"at": "2,2", "met": ["P2"]}, "p2": {"at": "2,2", "met": ["P1"]},
             "p3": {"at": "0,1"}}  # fmt: skip
    for key, attrs in more.items():
        seats[key] = {**seats[key], **attrs}
    return scenario(rules, **seats)


@pytest.mark.parametrize("ra, rb, loser", [(3, 3, 1), (5, 2, 1), (2, 5, 0), (1, 6, 0)])
def test_a_battle_is_two_dice_and_a_tie_goes_to_the_attacker(
    fixed: Ruleset, ra: int, rb: int, loser: int
) -> None:
    game = battle(fixed, 0, 1)
    assert options(game) == ["attack P2", "move"]
    game.apply("attack P2")
    assert game.current_player() == CHANCE
    game.apply_chance(ra)
    game.apply_chance(rb)
    assert [game.attribute("injured", of=s) for s in range(3)] == [loser == 0, loser == 1, False]
    winner = "P1" if loser == 1 else "P2"
    told = [
        "P1 attacks P2.",
        f"P1 rolls {ra}.",
        f"P2 rolls {rb}.",
        f"{winner} wins the battle.",
        f"P{loser + 1} is injured.",
    ]
    assert heard(game, 0)[-5:] == told and heard(game, 1)[-5:] == told
    assert heard(game, 2) == ["Turn order: P1, P2, P3"]
    # the attacker moves on
    assert game.turn_player == 0 and game.pending().name == "way"


def test_an_attacker_may_spend_a_bullet_to_win_at_once(fixed: Ruleset) -> None:
    game = battle(fixed, 0, 1, p1={"item": "rusty_bullet"}, p2={"item": "rusty_bullet"})
    game.apply("attack P2")
    assert options(game) == ["spend the bullet", "roll the die"]
    game.apply("spend the bullet")
    assert game.attribute("injured", of=1) is True
    assert game.attribute("item", of=0) is None
    assert game.attribute("item", of=1) == "rusty_bullet"  # the defender's gun is useless
    assert heard(game, 1)[-2:] == [
        "P1 spends the rusty bullet and wins the battle.",
        "P2 is injured.",
    ]


def test_the_loser_of_a_battle_drops_the_treasure_where_the_winner_stands(
    fixed: Ruleset,
) -> None:
    game = battle(fixed, 0, 1, p2={"treasure": True})
    game.apply("attack P2")
    game.apply_chance(4)
    game.apply_chance(4)
    assert tile_attr(game, "treasure", "2,2") == 1
    assert heard(game, 0)[-1] == "P2 drops the treasure."
    # the winner may pick it up as an action, then move
    assert options(game) == ["pick up the treasure", "move"]
    game.apply("pick up the treasure")
    assert game.attribute("treasure", of=0) is True


@pytest.mark.parametrize(
    "p1, p2",
    [({"injured": True}, {}), ({"at": "1,3", "hospitals_seen": ["0,0"]}, {"at": "1,3"})],
    ids=["injured attacker", "hospital"],
)
def test_no_battle_when_injured_or_in_the_hospital(
    fixed: Ruleset, p1: dict[str, object], p2: dict[str, object]
) -> None:
    game = battle(fixed, 0, 1, p1=p1, p2=p2)
    assert game.pending().name == "way"


@pytest.mark.parametrize(
    "p1, p2, refused",
    [
        ({}, {"injured": True}, "P2 is injured: there is no battle."),
        ({"at": "1,3"}, {"at": "1,3"}, "There is no battle in the HOSPITAL."),
    ],
    ids=["injured defender", "hospital not told"],
)
def test_a_battle_that_cannot_be_is_refused_by_the_game_master(
    fixed: Ruleset, p1: dict[str, object], p2: dict[str, object], refused: str
) -> None:
    """Seed: "you may choose to attack the other player (if they are also not injured)",
    "(except for the hospital)". P1 was not told P2 is injured, nor (set there by the
    test) that this is the hospital: the attack is offered, and refused (issue 24)."""
    game = battle(fixed, 0, 1, p1=p1, p2=p2)
    assert options(game) == ["attack P2", "move"]
    game.apply("attack P2")
    assert heard(game, 0)[-1] == refused
    assert game.pending().name == "way"
    assert not any("attack" in line for line in heard(game, 1))


def test_arriving_where_others_stand_offers_a_fight_or_the_end_of_the_turn(
    fixed: Ruleset,
) -> None:
    game = scenario(fixed, p1={"at": "4,2"}, p2={"at": "4,3"}, p3={"at": "4,3"})
    game.apply("up")
    assert heard(game, 0)[-1] == "P1 meets P2 and P3."
    assert heard(game, 1)[-1] == "P1 meets P2 and P3." == heard(game, 2)[-1]
    assert "SAFE" not in heard(game, 0)[-2]  # "Fight ... or end your turn" instead
    assert game.prompt() == "Fight P2 and P3, or end your turn?"
    assert options(game) == ["fight P2", "fight P3", "end the turn"]
    game.apply("fight P3")
    game.apply_chance(6)
    game.apply_chance(1)
    assert game.attribute("injured", of=2) is True
    assert game.turn_player == 1  # the fight ended P1's turn
    # P2 saw P1 arrive but not the fight between P1 and P3
    assert not any("attacks" in line for line in heard(game, 1))


def test_a_player_met_may_attack_at_the_start_of_the_next_turn(fixed: Ruleset) -> None:
    game = scenario(fixed, p1={"at": "4,2"}, p2={"at": "4,3"})
    game.apply("up")
    game.apply("end the turn")
    assert game.turn_player == 1
    assert options(game) == ["attack P1", "move"]


def test_a_bullet_hits_one_of_several_players_on_the_first_tile_at_random(
    fixed: Ruleset,
) -> None:
    game = scenario(
        fixed, p1={"at": "2,1", "item": "rusty_bullet"}, p2={"at": "4,1"}, p3={"at": "4,1"}
    )
    shoot(game, "right")
    assert game.current_player() == CHANCE
    assert [a.text for a in game.legal_actions()] == ["P2", "P3"]
    game.apply_chance("P3")
    assert [game.attribute("injured", of=s) for s in range(3)] == [False, False, True]
    assert heard(game, 1) == ["Turn order: P1, P2, P3"] and last(game, 2) == "P3 is injured."


def test_three_others_met_are_named_in_one_line(fixed: Ruleset) -> None:
    game = scenario(
        fixed, players=4, p1={"at": "4,2"}, p2={"at": "4,3"}, p3={"at": "4,3"}, p4={"at": "4,3"}
    )
    game.apply("up")
    assert all(heard(game, s)[-1] == "P1 meets P2, P3 and P4." for s in range(4))
