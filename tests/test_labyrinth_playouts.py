"""Random labyrinth games: they end, they replay, and no player's view or log ever holds
what the game master keeps: a position, a wall, a push direction or a portal kind.

The secrecy checks read only what the API gives each seat (`Game.view(seat)`,
`Game.history(seat)`), never the rule file's declarations: whatever the rules said, a
seat must not be able to find those things in what it is shown.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from labyrinth_support import rules  # noqa: F401 - rules is a fixture

from rulelang import PUBLIC, Game, Ruleset, replay

DIRECTIONS = re.compile(r"\b(up|right|down|left|north|east|south|west)\b")
CELL = re.compile(r"\b\d+ ?, ?\d+\b|\(\d+")  # "3,4", "(3", "3, 4"
PORTAL_KINDS = re.compile(r"\b(fake|AB|ABC|portal [AB123F]|F)\b", re.I)
OWN_ATTRIBUTES = {"name", "seat", "treasure", "item", "injured", "lost_turns"}
# The notebook: the player's own frame, derived from its messages alone (its "0,1"
# are not cells of the maze; tests/test_labyrinth_bot.py derives it from the log).
NOTEBOOK = {"spot", "box", "visited", "walls_seen", "exits_seen", "ways_out", "treasure_seen",
            "shops_seen", "hospitals_seen", "marshes_seen", "fresh", "rim", "met"}  # fmt: skip
# the only lines with a direction: a player's own attempts, which it chose itself
GAMES = 30  # random games per player count
OWN_ATTEMPT = "{me} (tries to go|cannot move|shoots) (up|right|down|left)[. ]"


def check_secrecy(game: Game) -> None:
    n = game.players
    names = game.player_names
    for seat in range(n):
        view = game.view(seat)
        assert view["board_state"] == {"maze": {}}
        for other, row in enumerate(view["players"]):
            if other == seat:
                assert set(row) <= OWN_ATTRIBUTES | NOTEBOOK
            else:
                assert set(row) == {"name", "seat"}, (seat, row)
        shown = {k: v for k, v in view.items() if k not in ("log", "private", "players")}
        shown["players"] = [
            {k: v for k, v in r.items() if k not in NOTEBOOK} for r in view["players"]
        ]
        text = json.dumps(shown)
        assert not CELL.search(text) and not PORTAL_KINDS.search(text), text
        if "options" in view:  # a direction may be asked, never told
            assert set(view["options"]) != set() and view["to_act"] == names[seat]
        own = re.compile(OWN_ATTEMPT.format(me=names[seat]))
        for line in game.history(seat):
            assert not CELL.search(line), (seat, line)
            assert not PORTAL_KINDS.search(line), (seat, line)
            if DIRECTIONS.search(re.sub(r"\bpicks? (it )?up\b", "", line)):
                assert own.match(line), (seat, line)
    for line in game.history(PUBLIC):  # a spectator learns the order and the winner
        assert line.startswith("Turn order: ") or "won the game" in line, line


def play(rules: Ruleset, players: int, seed: int, steps: int, check_every: int = 0) -> Game:
    game = rules.new_game(players, seed=seed)
    rng = random.Random(seed)
    for step in range(steps):
        if game.is_over():
            break
        if check_every and step % check_every == 0:
            check_secrecy(game)
        actions = game.legal_actions()
        game.apply(actions[int(rng.random() * len(actions))])
    return game


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_no_view_or_log_holds_a_position_a_wall_a_push_or_a_portal(
    rules: Ruleset, players: int
) -> None:
    for seed in range(3):
        game = play(rules, players, seed, 1000, check_every=100)
        check_secrecy(game)
        # the rules did happen: walls were met, rivers and portals were taken
        told = " ".join(line for s in range(players) for line in game.history(s))
        assert "Blocked by wall" in told


def test_every_message_of_the_game_master_happens_and_stays_private(rules: Ruleset) -> None:
    heard: set[str] = set()
    for seed in range(8):
        game = play(rules, 4, seed, 3000)
        check_secrecy(game)
        for seat in range(4):
            for line in game.history(seat):
                heard.add(re.sub(r"P\d", "P", line))
    for message in [
        "P cannot move up. Blocked by wall.",
        "P walks into a SAFE clearing.",
        "P is flushed by the river one tile.",
        "P enters and exits a portal.",
        "P sinks into a MARSH.",
        "P enters a SHOP.",
        "P enters a HOSPITAL.",
        "P also stumbles across a pile of TREASURE.",
        "P has found an exit, but has no treasure.",
        "P meets P.",
    ]:
        assert message in heard, message


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_end(rules: Ruleset, players: int) -> None:
    """Random games end with one winner; report how long they take (-s shows it)."""
    decisions, turns, cut = [], [], 0
    for seed in range(GAMES):
        game = rules.new_game(players, seed=seed)
        taken = game.playout(random.Random(seed), max_decisions=100_000)
        if not game.is_over():
            cut += 1
            continue
        assert game.results().count("win") == 1
        decisions.append(taken)
        turns.append(game.turn_number)
    print(
        f"\n{players} players: {cut} of {GAMES} cut off at 100,000 decisions; "
        f"median {sorted(decisions)[len(decisions) // 2]} decisions, "
        f"{sorted(turns)[len(turns) // 2]} turns"
    )
    assert cut == 0


def test_a_game_replays_from_its_record(rules: Ruleset) -> None:
    game = play(rules, 4, 3, 400)
    again = replay(rules, 4, 3, game.record())
    assert again.view(None) == game.view(None)
    assert [again.history(s) for s in range(4)] == [game.history(s) for s in range(4)]
