"""Random Saboteur games for 3 to 10 players: termination, replay, every card accounted
for at every step, hidden information at every step, roles across rounds.

Spec: /work/shared/seeds/000_*.txt and /work/shared/reference/saboteur.md. Only the public
engine API is used.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from saboteur_support import (  # noqa: F401 - rules and official are fixtures
    DWARF_ZONES,
    DWARVES,
    MINER_CARDS,
    NUGGETS,
    OFFICIAL,
    PLAYCARDS,
    SABOTEUR,
    SABOTEUR_CARDS,
    check_playcards,
    in_zones,
    nuggets_held,
    official,
    rules,
    snapshot,
)

from rulelang import TERMINAL, Game, Ruleset, UsageError, replay

PLAYERS = range(3, 11)
GOAL_CELLS = ("8,2", "8,0", "8,-2")
MAX_STEPS = 5000
HIDDEN = "?"
HIDDEN_TILE = {"tile": HIDDEN, "secret": True}  # a face-down card as the players see it
PEEK_LINE = re.compile(r"^(P\d+) plays a map and looks at the goal at (\S+)$")
TAKE_LINE = re.compile(r"^(P\d+) takes (.*)$")  # a gold card taken: secret to others
HIDDEN_TAKE = "a gold card"


def ruleset_of(which: str, rules: Ruleset, official: Ruleset) -> Ruleset:
    return rules if which == "saboteur" else official


# --------------------------------------------------------------------------- reading the game
def player_roles(g: Game) -> list[str]:
    return [str(g.attribute("role", of=p, kind="player")) for p in range(g.players)]


def round_of(g: Game) -> int:
    return int(g.attribute("round"))


def deciding(g: Game) -> str:
    decision = g.pending()
    assert decision is not None
    return decision.name


def face_down(g: Game) -> set[str]:
    """The cells of the maze whose card lies face down (only goals ever do)."""
    down = {c for c in GOAL_CELLS if (tile := g.tile("maze", c)) and tile["secret"] is True}
    assert all(g.tile("maze", c) is not None for c in GOAL_CELLS)
    return down


def role_on(g: Game, dwarf: int) -> str:
    """The role on a dwarf card."""
    return str(g.attribute("role", of=dwarf, kind="dwarf"))


def check_cards(g: Game) -> None:
    """Every play card, nugget and dwarf card is in exactly one place."""
    n = g.players
    check_playcards(g)
    assert nuggets_held(g) == list(range(NUGGETS))
    dwarves = in_zones(g, DWARF_ZONES, ("role_card",))
    assert sorted(dwarves) == list(range(DWARVES))
    # the role cards dealt match the role each player holds
    roles = player_roles(g)
    for p in range(n):
        held = g.items("role_card", p)
        assert len(held) == 1 and role_on(g, held[0]) == roles[p]
    in_play = [*roles, *(role_on(g, d) for d in g.items("aside"))]
    assert in_play.count("saboteur") == SABOTEUR_CARDS[n]
    assert in_play.count("miner") == MINER_CARDS[n]


def scores(g: Game) -> list[int]:
    return [
        sum(int(g.attribute("value", of=i, kind="nugget")) for i in g.items("gold", p))
        for p in range(g.players)
    ]


def digger(g: Game, rng: random.Random) -> Any:
    """A random player that mostly digs towards the goals, so that goals are reached and
    gold is shared out; one move in five or so is uniformly random."""
    actions = g.legal_actions()
    var = deciding(g)
    texts = [a.text for a in actions]
    if rng.random() < 0.8:
        if var == "action" and "play" in texts:
            return actions[texts.index("play")]
        if var == "c":
            tunnels = [a for a in actions if a.text.startswith("tunnel")]
            if tunnels:
                return rng.choice(tunnels)
        if var == "spot":

            def ahead(a: Any) -> float:
                x, y = (int(v) for v in a.text.split(","))
                return x - abs(y) / 2

            return max(actions, key=ahead)
    return rng.choice(actions)


def playout(
    ruleset: Ruleset,
    n: int,
    seed: int,
    options: dict[str, str] | None = None,
    on_step: Callable[[Game], None] | None = None,
) -> Game:
    g = ruleset.new_game(n, seed=seed, options=options)
    rng = random.Random(seed * 100 + n)
    for _ in range(MAX_STEPS):
        if on_step is not None:
            on_step(g)
        if g.is_over():
            return g
        assert g.legal_actions(), "a game that is not over must offer an action"
        assert g.current_player() in range(n)  # auto_chance: no chance stops
        g.apply(digger(g, rng))
    raise AssertionError(f"no end after {MAX_STEPS} steps")


# --------------------------------------------------------------------------- playouts
@pytest.mark.parametrize("which", ["saboteur", "official"])
@pytest.mark.parametrize("n", PLAYERS)
def test_random_playout(rules: Ruleset, official: Ruleset, which: str, n: int) -> None:
    ruleset = ruleset_of(which, rules, official)
    seed = 40 + n
    rounds: dict[int, list[str]] = {}

    def on_step(g: Game) -> None:
        check_cards(g)
        rounds.setdefault(round_of(g), player_roles(g))

    g = playout(ruleset, n, seed, on_step=on_step)
    assert g.is_over()
    assert g.current_player() == TERMINAL
    assert g.legal_actions() == []
    with pytest.raises(UsageError):
        g.apply("discard")
    # three rounds were played, each ended by the gold or by the cards running out
    assert sorted(rounds) == [1, 2, 3]
    lines = g.history()
    assert "Round 3 begins." in lines and "Round 4 begins." not in lines
    ends = [x for x in lines if "the miners win round" in x or "the saboteurs win round" in x]
    assert [int(x.rstrip(".").split()[-1]) for x in ends] == [1, 2, 3]
    if which == "saboteur":  # the seed: roles are kept for the whole match
        assert rounds[1] == rounds[2] == rounds[3]
    assert g.view(None)["globals"]["round"] == 3
    assert [p["role"] for p in g.view(None)["players"]] == player_roles(g)
    # the most gold wins; ties share the win
    best = max(scores(g))
    assert g.results() == ["win" if s == best else "loss" for s in scores(g)]
    # replaying the log rebuilds the same game
    again = replay(ruleset, n, seed, g.events())
    assert snapshot(again) == snapshot(g)
    assert again.results() == g.results()
    assert again.current_player() == TERMINAL


@pytest.mark.parametrize("which", ["saboteur", "official"])
def test_replay_midgame(rules: Ruleset, official: Ruleset, which: str) -> None:
    ruleset = ruleset_of(which, rules, official)
    g = ruleset.new_game(6, seed=7)
    rng = random.Random(7)
    for _ in range(120):
        g.apply(rng.choice(g.legal_actions()))
    assert not g.is_over()
    again = replay(ruleset, 6, 7, g.events())
    assert snapshot(again) == snapshot(g)
    assert again.legal_actions() == g.legal_actions()
    for p in [None, *range(6)]:
        assert again.view(p) == g.view(p)


def test_roles_are_dealt_again_in_some_later_round_of_the_official_rules(
    official: Ruleset, rules: Ruleset
) -> None:
    changed = {"saboteur": 0, "official": 0}
    for which, ruleset in [("saboteur", rules), ("official", official)]:
        for seed in range(6):
            g = ruleset.new_game(5, seed=seed)
            first = player_roles(g)
            rng = random.Random(seed)
            while round_of(g) == 1:
                g.apply(rng.choice(g.legal_actions()))
            check_cards(g)
            if player_roles(g) != first:
                changed[which] += 1
    assert changed["saboteur"] == 0
    assert changed["official"] > 0


# --------------------------------------------------------------------------- hidden information
def check_views(g: Game) -> None:
    """No view shows another player's hand, role, role card or gold; the deck, the discard
    pile and the set-aside role card only as sizes; face-down goals as '?'; another
    player's card choices as '?'; a map peek only to the peeker."""
    n = g.players
    names = [f"P{i + 1}" for i in range(n)]
    full = g.view(None)
    truth = full["zones"]
    roles = [p["role"] for p in full["players"]]
    down = face_down(g)
    # who looked at which goal, from the omniscient log
    peeks = {name: 0 for name in names}
    peeked: dict[str, set[str]] = {name: set() for name in names}  # the goals each saw
    full_log = g.history()
    assert full["log"] == full_log[-len(full["log"]) :]
    for i, line in enumerate(full_log):
        if line.startswith("Round ") and line.endswith(" begins."):
            for cells in peeked.values():  # the goals are dealt anew: what was seen is void
                cells.clear()
        if line.startswith("You look at"):
            m = PEEK_LINE.match(full_log[i - 1])
            assert m is not None
            peeks[m.group(1)] += 1
            peeked[m.group(1)].add(m.group(2))
    for p in range(n):
        v = g.view(p)
        me = names[p]
        for q, entry in enumerate(v["players"]):
            if q == p:
                assert entry["role"] == roles[p]
            else:
                assert "role" not in entry, f"{me} sees {names[q]}'s role"
        zones = v["zones"]
        for q in range(n):
            for z in ("hand", "role_card", "gold"):
                label = f"{z}[{names[q]}]"
                if q == p:
                    assert zones[label] == truth[label]
                else:
                    assert zones[label] == {"size": len(truth[label])}, f"{me} sees {label}"
            assert zones[f"front[{names[q]}]"] == truth[f"front[{names[q]}]"]  # face up
        for z in ("deck", "discard", "aside", "box", "nuggets", "shared"):
            assert zones[z] == {"size": len(truth[z])}, f"{me} sees the {z}"
        # the role cards not dealt: their numbers follow from the table, so all see them
        assert zones["dwarf_box"] == truth["dwarf_box"]
        # the maze as the referee sees it, but face-down cards only as '?', except the
        # goals this player looked at with a map
        board = v["boards"]["maze"]
        assert board.keys() == full["boards"]["maze"].keys()
        for c, tile in full["boards"]["maze"].items():
            assert "item" in tile and "item" not in board[c]  # which card: referees only
            face = {k: v for k, v in tile.items() if k != "item"}
            hidden = c in down and c not in peeked[me]
            assert board[c] == (HIDDEN_TILE if hidden else face), f"{me} sees {c}"
        for c in GOAL_CELLS:
            assert (board[c] == HIDDEN_TILE) == (c in down and c not in peeked[me])
        assert board["0,0"]["tile"] == "start"
        lines = g.history(p)
        tail = v["log"]
        assert 0 < len(tail) <= len(lines) and tail == lines[-len(tail) :]
        assert len(lines) == len(full_log) - sum(peeks.values()) + peeks[me]
        assert sum(x.startswith("You look at") for x in lines) == peeks[me]
        for line, whole in zip(
            [x for x in lines if not x.startswith("You look at")],
            [x for x in full_log if not x.startswith("You look at")],
            strict=True,
        ):
            m = TAKE_LINE.match(whole)
            if m is not None and m.group(1) != me:
                assert line == f"{m.group(1)} takes {HIDDEN_TAKE}", f"{me} reads {whole}"
            else:
                assert line == whole
        if "options" in v:
            assert v["to_act"] == me
        # the sides of the cards in a zone are shown only where the player sees into it
        assert all(isinstance(zones[z], list) for z in v["zone_tiles"]), f"{me} sees tiles"
        assert sum(x.startswith("You look at") for x in v["private"]) == peeks[me]
    for c, tile in full["boards"]["maze"].items():
        assert (tile["secret"] is True) == (c in down)
        if c in down:  # the referee sees the card itself
            assert full["boards"]["maze"][c]["tile"] in ("gold", "stone N-E", "stone N-W")


@pytest.mark.parametrize("which", ["saboteur", "official"])
@pytest.mark.parametrize("n", PLAYERS)
def test_hidden_information_at_every_step(
    rules: Ruleset, official: Ruleset, which: str, n: int
) -> None:
    ruleset = ruleset_of(which, rules, official)
    seen = {"c": 0, "steps": 0}

    def on_step(g: Game) -> None:
        seen["steps"] += 1
        check_views(g)

    # one-round games keep the logs short; the three-round games above check the cards
    g = playout(ruleset, n, 900 + n, options={"rounds": "1"}, on_step=on_step)
    assert g.is_over()
    assert seen["steps"] > n
    # the card a player discards is never named, for anyone
    assert any(line.endswith(" discards a card face down") for line in g.history(0))
    assert not any(" discards " in line and "face down" not in line for line in g.history())


def shares_gold(g: Game) -> bool:
    return any(TAKE_LINE.match(line) for line in g.history())


@pytest.mark.parametrize(("which", "n"), [("saboteur", 4), ("official", 7)])
def test_hidden_information_across_rounds(
    rules: Ruleset, official: Ruleset, which: str, n: int
) -> None:
    """A full match with gold shared out: the views checked at every step of the sharing,
    when a round changes, and every 25 steps."""
    ruleset = ruleset_of(which, rules, official)
    seed = next((s for s in range(40, 80) if shares_gold(playout(ruleset, n, s))), None)
    assert seed is not None, "no random game found the gold"
    state = {"steps": 0, "round": 1, "sharing": 0}

    def on_step(g: Game) -> None:
        state["steps"] += 1
        sharing = not g.is_over() and deciding(g) == "n"
        state["sharing"] += sharing
        if sharing or state["steps"] % 25 == 0 or round_of(g) != state["round"] or g.is_over():
            check_views(g)
            state["round"] = round_of(g)

    g = playout(ruleset, n, seed, on_step=on_step)
    assert g.is_over()
    assert state["round"] == 3
    assert state["sharing"] > 0
    # the nugget each miner took shows as '?' to the others
    for p in range(n):
        for line in g.history(p):
            m = TAKE_LINE.match(line)
            if m is not None and m.group(1) != f"P{p + 1}":
                assert m.group(2) == HIDDEN_TAKE
