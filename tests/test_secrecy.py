"""Every shipped game offers a seat only what follows from what it was told (issue 24).

At each decision of random games, the deciding seat's information set is dealt anew
several times (`Game.determinize(seat, rng)`: what the seat cannot see re-dealt, or,
for rules with an `imagine` block, forgotten and pictured again from what the seat
knows). The options the decision offers, worked out again in each such world, its
prompt and the seat's view must be the same as in the real game (and, now and then,
the other seats' views in worlds alike for them): an option that comes and goes with
something hidden tells the seat that hidden thing (the labyrinth offered "pick up the
treasure" on a tile where nobody had told the player of a treasure). And no line a
seat reads is the engine's raw dump of a secret draw ("pick: P2") instead of a
sentence of the rules.

What this sees is bounded by determinize (docs/api.md). It keeps as they are the
values of secret choices held in the rules' local variables, and it shuffles the other
players' secret attributes among them (their values as a whole are kept: with one
other player, not re-dealt at all): a leak of those is not seen. It forgets what the
seat was told only in words (`say ... to`), so a rule offering what such a message
said would be reported though it leaks nothing (none of the shipped games does). For
the labyrinth the worlds are the rule file's own picture of the seat's notebook
(`imagine`). A decision that the rules ask or skip by something hidden is seen only
where the real game asks it. test_the_check_sees_options_that_tell_a_secret shows the
check at work on a leak made on purpose; on the labyrinth before issue 24 it found
the pick-up and the fights offered by where players really stood.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from conftest import sample

import rulelang
from rulelang import CHANCE, Game, Ruleset

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.name for p in (ROOT / "rulesets").glob("*.rules"))
WORLDS = 3  # re-dealt worlds per decision
RAW_LINE = re.compile(r"^(pick|roll|shuffle|choose): ")


@pytest.fixture(scope="module", params=GAMES)
def shipped(request: pytest.FixtureRequest) -> Ruleset:
    return rulelang.compile_file(ROOT / "rulesets" / request.param)


def offered(game: Game) -> list[str]:
    """The texts of the options the pending choice offers, worked out anew from this
    game's state (a determinization keeps the real game's list as it was)."""
    st = game.state
    spec = st.pending
    assert spec is not None
    return ["pass" if v is None else str(spec.show(st, v)) for v in spec.options(st)]


def leaks(game: Game, rng: random.Random) -> list[str]:
    """What the pending decision shows its seat (options, prompt, view) that worlds
    alike for that seat do not."""
    seat = game.current_player()
    real, prompt, view = [a.text for a in game.legal_actions()], game.prompt(), game.view(seat)
    found = []
    for _ in range(WORLDS):
        world = game.determinize(seat, random.Random(rng.random()))
        if offered(world) != real:
            found.append(f"{prompt!r}: {real} here, {offered(world)} in a world alike")
        elif world.prompt() != prompt:
            found.append(f"{prompt!r} here, {world.prompt()!r} in a world alike")
        elif world.view(seat) != view:
            found.append(f"{prompt!r}: the view depends on what is hidden")
    return found


def others_see_alike(game: Game, rng: random.Random) -> list[str]:
    """The seats not deciding: their views are the same in a world alike for each."""
    deciding = game.current_player()
    found = []
    for seat in range(game.players):
        if seat != deciding:
            world = game.determinize(seat, random.Random(rng.random()))
            if world.view(seat) != game.view(seat):
                found.append(f"seat {seat}: the view depends on what is hidden")
    return found


def play_and_check(rules: Ruleset, players: int, seed: int, decisions: int) -> list[str]:
    """A random game; the leaks found at its decisions, and raw lines in its logs."""
    game = rules.new_game(players, seed=seed)
    rng = random.Random(seed)
    found: list[str] = []
    taken = 0
    while not game.is_over() and taken < decisions:
        if game.current_player() == CHANCE:
            game.resolve_chance()
            continue
        found += [f"seat {game.current_player()} {x}" for x in leaks(game, rng)]
        if taken % 10 == 0:
            found += others_see_alike(game, rng)
        taken += 1
        game.apply(rng.choice(game.legal_actions()))
    for seat in range(players):
        found += [
            f"seat {seat} reads {line!r}" for line in game.history(seat) if RAW_LINE.match(line)
        ]
    return found


@pytest.mark.long
@pytest.mark.parametrize("players", [3, 4])
def test_every_option_and_line_follows_from_what_the_seat_was_told(
    shipped: Ruleset, players: int, full: bool
) -> None:
    """Three games of 300 decisions each with --full; by default one of 80 (each
    determinization is a world of the seat's belief: the long part of the suite)."""
    for seed in range(sample(full, 3, 1)):
        found = play_and_check(shipped, players, seed, decisions=sample(full, 300, 80))
        assert not found, found[:3]


LEAKY = """
game "Leak"
players 3..3
player { secret_number: int = 0 visible to owner }
global { moves: int = 0 }

turn {
  choose n in 1..3 secret prompt "Pick your secret number"
  set current.secret_number = n
  let other = next_player(current)
  # the options tell the chooser the next player's secret number
  choose guess in [x for x in 1..3 where x != other.secret_number] prompt "Guess"
  set moves += 1
}

end when moves >= 9 { win [current] }
"""


def test_the_check_sees_options_that_tell_a_secret() -> None:
    """The check itself: options that leave out another player's secret are seen."""
    rules = rulelang.compile_source(LEAKY, "leak.rules")
    found = play_and_check(rules, 3, 1, decisions=18)
    assert any("'Guess'" in x for x in found), found
