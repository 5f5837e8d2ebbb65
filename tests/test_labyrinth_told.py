"""The labyrinth offers a player only what the game master told them (issue 24): the
option to pick up a treasure or to attack someone follows from the messages, never
from where things really are. Scripted on the fixed map of tests/labyrinth/fixed.rules
(its picture is in tests/test_labyrinth.py): portal A at 0,2 leads to B at 5,3, the
river runs down 3,3 and 3,2, then right along row 1 out of the exit at 5,1.

Seed 002: "The game master will tell you one of the following responses if you
encounter any of the following tiles", and for "A Tile containing Treasure": "`player`
also stumbles across a pile of TREASURE"; "Important: The game master will NEVER give
away the location of anyone in the game except when a player is found by another
player."
"""

from __future__ import annotations

from labyrinth_support import fixed, scenario  # noqa: F401 - fixed is a fixture

from rulelang import CHANCE, Game, Ruleset

TREASURE = "P1 also stumbles across a pile of TREASURE."


def options(game: Game) -> list[str]:
    return [a.text for a in game.legal_actions()]


def shot_and_dropped(
    fixed: Ruleset, p1: str, p2: str, p3: str, aim: str, walk: str, **opts: str
) -> Game:
    """P3 shoots P2, who holds a treasure at `p2`: P2 drops it there; then P3 walks off
    (`walk`) and it is P1's turn. P1 has heard nothing of it."""
    game = scenario(
        fixed,
        options=opts or None,
        order=["P3", "P1", "P2"],
        p1={"at": p1},
        p2={"at": p2, "treasure": True},
        p3={"at": p3, "item": "rusty_bullet"},
    )
    game.apply("shoot")
    game.apply(aim)
    assert game.attribute("injured", of=1) is True
    assert game.attribute("treasure", of=1) is False
    game.apply(walk)
    assert game.turn_player == 0
    assert not any("treasure" in line.lower() for line in game.history(0))
    return game


def test_treasure_where_a_portal_leads_is_announced_and_may_be_picked_up(
    fixed: Ruleset,
) -> None:
    """Seed: "A Tile containing Treasure: '`player` also stumbles across a pile of
    TREASURE'. The player can pick up the treasure only if he/she is not injured." A
    player carried by a portal onto the treasure encounters that tile, and is told."""
    game = shot_and_dropped(fixed, p1="0,1", p2="5,3", p3="5,2", aim="up", walk="left")
    game.apply("up")  # into portal A, out on B
    assert str(game.attribute("at", of=0)) == "5,3"
    said = game.history(0)
    assert said[-2:] == ["P1 enters and exits a portal.", TREASURE]
    assert options(game) == ["pick up the treasure", "leave it"]
    game.apply("pick up the treasure")
    assert game.attribute("treasure", of=0) is True


def test_treasure_where_the_river_pushes_a_player_is_announced(fixed: Ruleset) -> None:
    """Seed: "A River Tile: ... The player will end up moving 2 tiles this turn"; the
    tile the river leaves the player on is encountered, so its treasure is told:
    "`player` also stumbles across a pile of TREASURE"."""
    game = shot_and_dropped(fixed, p1="2,2", p2="3,1", p3="5,1", aim="left", walk="up")
    game.apply("right")  # into the river at 3,2, pushed down to 3,1
    assert str(game.attribute("at", of=0)) == "3,1"
    assert game.history(0)[-2:] == ["P1 is flushed by the river one tile.", TREASURE]
    assert options(game) == ["pick up the treasure", "leave it"]


def test_treasure_on_a_river_tile_that_holds_the_player_is_announced(fixed: Ruleset) -> None:
    """Seed: "If the next tile downstream of the river is a wall ... 'The river tries to
    flush `player`, but a wall prevents him/her from moving.'" The player stays on the
    river tile, and encounters its treasure: "also stumbles across a pile of TREASURE"."""
    game = shot_and_dropped(
        fixed, p1="5,2", p2="5,1", p3="3,1", aim="right", walk="left", mouth_exit="false"
    )
    game.apply("down")  # into the river's last tile, which pushes against the outer wall
    assert str(game.attribute("at", of=0)) == "5,1"
    assert game.history(0)[-2] == (
        "The river tries to flush P1, but a wall prevents him/her from moving."
    )
    assert game.history(0)[-1] == TREASURE
    assert options(game) == ["pick up the treasure", "leave it"]


def test_treasure_never_told_is_never_offered(fixed: Ruleset) -> None:
    """Seed: the treasure is told by "`player` also stumbles across a pile of TREASURE",
    and "The game master will NEVER give away the location of anyone". P2 walks in
    where P1 and P3 stand, fights P3, loses and drops its treasure; a battle is told to
    the two fighters alone, so P1 is never offered a treasure it was never told of."""
    game = scenario(
        fixed,
        order=["P2", "P1", "P3"],
        p1={"at": "4,2"},
        p2={"at": "4,3", "treasure": True},
        p3={"at": "4,2"},
    )
    game.apply("down")
    assert game.history(0)[-1] == "P2 meets P1 and P3."
    game.apply("fight P3")
    game.apply_chance(1)
    game.apply_chance(6)
    assert game.attribute("injured", of=1) is True and game.attribute("treasure", of=1) is False
    assert game.turn_player == 0
    assert not any("treasure" in line.lower() for line in game.history(0))
    assert "pick up the treasure" not in options(game)


def test_a_player_who_left_unseen_is_refused_not_hidden(fixed: Ruleset) -> None:
    """Seed: "If you occupy the same tile as another adventurer (except for the hospital)
    and you are not injured you may choose to attack the other player (if they are also
    not injured)" and "Remember: If you do not attack, the other player may choose to
    attack you at the start of their next turn". P1 met P2; P2 walked off, which P1 was
    not told: P1 may still try to attack P2, and only then learns P2 is gone (the
    options alone must not tell it)."""
    game = scenario(fixed, p1={"at": "4,2"}, p2={"at": "4,3"}, p3={"at": "0,4"})
    game.apply("up")
    assert game.history(0)[-1] == "P1 meets P2."
    game.apply("end the turn")
    assert options(game) == ["attack P1", "move"]
    game.apply("move")
    game.apply("right")  # P2 into portal B, out on A
    game.apply("down")  # P3 to 0,3, where a treasure lies
    game.apply("leave it")
    assert game.turn_player == 0
    assert options(game) == ["attack P2", "move"]
    game.apply("attack P2")
    assert game.history(0)[-1] == "P2 is no longer here."
    assert options(game) == ["up", "right", "down", "left"]


def test_an_injured_player_met_cannot_be_fought(fixed: Ruleset) -> None:
    """Seed: "you may choose to attack the other player (if they are also not
    injured)". P1 was not told that P2 is injured: the fight is offered, and the game
    master refuses it."""
    game = scenario(fixed, p1={"at": "4,2"}, p2={"at": "4,3", "injured": True})
    game.apply("up")
    assert options(game) == ["fight P2", "end the turn"]
    game.apply("fight P2")
    assert game.history(0)[-2:] == ["P2 is injured: there is no battle.", "P2's turn."]
    assert game.turn_player == 1
    assert not any("attacks" in line for line in game.history(1))


def test_the_shooter_reads_sentences_when_several_stand_in_line(fixed: Ruleset) -> None:
    """Seed: "Otherwise the bullet injures the first person within 3 spaces" and the
    game master does "not give away anything else": the shooter reads who was shot, in
    words, and no raw line of the random pick among those standing there."""
    game = scenario(
        fixed, p1={"at": "2,1", "item": "rusty_bullet"}, p2={"at": "4,1"}, p3={"at": "4,1"}
    )
    game.apply("shoot")
    game.apply("right")
    assert game.current_player() == CHANCE
    game.apply_chance("P3")
    for seat in range(3):
        assert not any(line.startswith("pick") for line in game.history(seat))
    assert game.history(0)[-2:] == ["P1 shoots right.", "P1 shoots P3."]


def test_a_treasure_taken_unseen_is_found_gone(fixed: Ruleset) -> None:
    """Seed: "A Marsh: ... Lose your next turn." P1 sinks into a marsh where a treasure
    lies and leaves it; while P1 waits there, P3 walks in and takes it, which P1 is not
    told. P1 may still try to pick it up (the option must not tell that it is gone), and
    the game master says it is no longer here."""
    game = scenario(
        fixed,
        order=["P3", "P1", "P2"],
        p1={"at": "1,3"},
        p2={"at": "2,3", "treasure": True},
        p3={"at": "2,2", "item": "rusty_bullet"},
    )
    game.apply("shoot")
    game.apply("up")  # P2 is hit and drops the treasure in the marsh
    game.apply("left")  # P3 into the shop at 1,2
    game.apply("leave the shop")
    game.apply("right")  # P1 from the hospital into the marsh
    assert game.history(0)[-2:] == ["P1 sinks into a MARSH.", TREASURE]
    game.apply("leave it")
    game.apply("end the turn")
    game.apply("right")  # P2, into the river at 3,3: pushed down to 3,2
    game.apply("up")  # P3 into the hospital
    game.apply("right")  # P1 loses this turn; P2 moves on
    game.apply("right")  # P3 into the marsh: it finds the treasure and takes it
    game.apply("pick up the treasure")
    assert game.attribute("treasure", of=2) is True
    game.apply("end the turn")
    assert game.turn_player == 0
    assert not any("P3 picks up" in line for line in game.history(0))
    # P2 walked off unseen too: still offered (test_a_player_who_left_unseen_...)
    assert options(game) == ["pick up the treasure", "attack P2", "attack P3", "move"]
    game.apply("pick up the treasure")
    assert game.history(0)[-1] == "The treasure is no longer here."
    assert options(game) == ["attack P2", "attack P3", "move"]


def test_junk_is_kept_in_a_shop_the_player_was_not_told_of(fixed: Ruleset) -> None:
    """Seed: "If you are not in the thrift shop you may throw away your useless junk."
    P1 stands in the shop (set there by the test: never told so): the option must not
    tell where P1 is, so it is offered, and the game master says why it cannot be."""
    game = scenario(fixed, p1={"at": "1,2", "item": "pile_of_junk"})
    assert options(game) == ["drop the junk", "move"]
    game.apply("drop the junk")
    assert game.history(0)[-1] == "P1 is in a SHOP and may not throw the junk away here."
    assert game.attribute("item", of=0) == "pile_of_junk"
    assert options(game) == ["up", "right", "down", "left"]  # now it knows
