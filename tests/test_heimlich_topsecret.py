"""Scripted scenarios of Heimlich & Co's top-secret mode (rulesets/heimlich-topsecret.rules).

Every die roll and the deal are chosen by the test (auto_chance=False); positions are
set with edit(). Spec: /work/shared/seeds/003_*.txt ("Top-Secret Mode") and
/work/shared/reference/heimlich.md ("Top-secret mode", "The 25 cards", "Known bugs of
the original engine (do not copy)").
"""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang import CHANCE, PUBLIC, Game, Reaction, Ruleset

ROOT = Path(__file__).resolve().parent.parent
TOPSECRET = ROOT / "rulesets" / "heimlich-topsecret.rules"
AGENTS = ["Perry", "Schulz", "Doyle", "Jaques", "Bucci", "Mirkov", "Larsson"]
AGENT_COUNT = {2: 5, 3: 6, 4: 7, 5: 7, 6: 7, 7: 7}
BUILDINGS = ["church", *[f"building {i}" for i in range(1, 11)], "ruin"]
FACES = ["1-3", "2", "3", "4", "5", "6"]

# The 25 cards of heimlich.md, in the data file's order: (name, effect, copies).
CARDS = [
    ("move safe", "move_safe", 2),
    ("add points", "add_points", 2),
    ("back 1 or 2", "back_1_or_2", 2),
    ("plus or minus 1", "plus_or_minus_1", 2),
    ("two back 1", "two_back_1", 2),
    ("two forward 1", "two_forward_1", 2),
    ("safe agent plus or minus 1", "safe_agent_plus_or_minus_1", 2),
    ("to the ruin", "to_ruin", 2),
    ("all to church", "all_to_church", 1),
    ("swap", "swap", 1),
    ("follow", "follow", 1),
    ("ruin to church", "ruin_to_church", 2),
    ("forward 1 to 3", "forward_1_to_3", 2),
    ("to the safe", "to_safe", 2),
]
NAMES = [name for name, _, copies in CARDS for _ in range(copies)]  # by card index


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return rulelang.compile_file(TOPSECRET)


# --------------------------------------------------------------------------- helpers
def start(
    rules: Ruleset,
    players: int = 4,
    hands: dict[int, list[str]] | None = None,
    top: list[str] | tuple[str, ...] = (),
) -> Game:
    """A game whose agents are dealt in order (P1 Perry, P2 Schulz...), each seat
    holding exactly `hands[seat]` (no card for a seat not named), and whose stack
    has `top` on top, the first to be drawn first."""
    hands = hands or {}
    g = rules.new_game(players, seed=1, auto_chance=False)
    assert (g.pending().kind, g.pending().name) == ("shuffle", "order")
    g.apply_chance([g.edit().item("agent", a) for a in AGENTS[: AGENT_COUNT[players]]])
    assert (g.pending().kind, g.pending().name) == ("shuffle_zone", "deck")
    pool = list(range(len(NAMES)))

    def take(name: str) -> int:
        card = next(i for i in pool if NAMES[i] == name)
        pool.remove(card)
        return card

    wanted = {seat: [take(n) for n in hands.get(seat, [])] for seat in range(players)}
    on_top = [take(n) for n in top]
    fillers = {seat: [pool.pop() for _ in range(2 - len(wanted[seat][:2]))] for seat in wanted}
    dealt = {seat: wanted[seat][:2] + fillers[seat] for seat in wanted}
    from_top = [c for seat in range(players) for c in dealt[seat]] + on_top
    extras = [c for seat in wanted for c in wanted[seat][2:]]
    g.apply_chance(extras + pool + from_top[::-1])  # bottom first: the last ends on top
    edit = g.edit()
    for seat in range(players):
        for c in fillers[seat]:
            edit.move(c, "played")
        for c in wanted[seat][2:]:
            edit.move(c, "hand", seat)
    assert [sorted(g.zone("hand", s)) for s in range(players)] == [
        sorted(hands.get(s, [])) for s in range(players)
    ]
    assert g.zone("deck")[len(g.zone("deck")) - len(top) :][::-1] == list(top)
    return g


def one_each(*cards: str) -> dict[int, list[str]]:
    """Seat 0 holds the first card, seat 1 the second..."""
    return {seat: [card] for seat, card in enumerate(cards)}


def place(g: Game, **where: str) -> None:
    edit = g.edit()
    for agent, building in where.items():
        edit.set("at", building, of=edit.item("agent", agent), kind="agent")


def roll(g: Game, face: str) -> None:
    assert g.current_player() == CHANCE
    assert texts(g) == FACES
    g.apply_chance(face)


def move(g: Game, agent: str, steps: int) -> None:
    g.apply(agent)
    g.apply(str(steps))


def texts(g: Game) -> list[str]:
    return [a.text for a in g.legal_actions()]


def agent_rows(g: Game) -> dict[str, dict[str, Any]]:
    return {row["name"]: row for row in g.view(None)["pieces"]["agent"]}


def at(g: Game, agent: str) -> str:
    return str(agent_rows(g)[agent]["at"])


def score(g: Game, agent: str) -> int:
    return int(agent_rows(g)[agent]["score"])


def safe(g: Game) -> str:
    return str(g.attribute("safe"))


def reacting(g: Game) -> bool:
    decision = g.pending()
    return decision is not None and decision.reaction


def pass_round(g: Game) -> list[int]:
    """Everyone passes until the round is over; the seats asked, in order."""
    asked = []
    while reacting(g):
        asked.append(g.current_player())
        g.apply("pass")
    return asked


def play(g: Game, seat: int, card: str, *choices: str) -> None:
    """Seat plays `card` at its opportunity, then makes the card's choices."""
    assert reacting(g) and g.current_player() == seat
    g.apply(card)
    for choice in choices:
        assert g.current_player() == seat
        g.apply(choice)


def quiet_turn(g: Game) -> None:
    """The mover rolls 2 and moves Bucci 2 steps: nothing else happens."""
    roll(g, "2")
    move(g, "Bucci", 2)


# --------------------------------------------------------------------------- the cards as data
def test_the_25_cards_come_from_the_data_file_with_their_effects(rules: Ruleset) -> None:
    assert rules.kinds["secret_card"] == {"name": "text", "effect": "card_effect"}
    g = rules.new_game(4, seed=3)
    everything = g.view(None)["zones"]
    held = everything["deck"] + everything["played"]
    held += [c for s in range(4) for c in everything[f"hand[P{s + 1}]"]]
    assert Counter(held) == Counter({name: copies for name, _, copies in CARDS})
    assert len(held) == 25
    effects = [effect for _, effect, copies in CARDS for _ in range(copies)]
    for index, (name, effect) in enumerate(zip(NAMES, effects, strict=True)):
        assert g.name_of("secret_card", index) == name
        assert g.attribute("effect", of=index, kind="secret_card") == effect


def test_card_effects_are_an_enum_not_texts(tmp_path: Path) -> None:
    for name in ["heimlich.rules", "heimlich-topsecret.rules", "heimlich-topsecret-cards.yaml"]:
        (tmp_path / name).write_text((ROOT / "rulesets" / name).read_text(encoding="utf-8"))
    variant = tmp_path / "heimlich-topsecret.rules"
    with variant.open("a", encoding="utf-8") as out:
        out.write('\ndef by_text(c: secret_card) = c.effect == "swap"\n')
    with pytest.raises(rulelang.RuleError) as caught:
        rulelang.compile_file(variant)
    assert [d.code for d in caught.value.diagnostics] == ["E210"]
    # a misspelt effect in the data file is refused, with a suggestion
    cards = tmp_path / "heimlich-topsecret-cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("effect: to_safe", "effect: to_saf"))
    (tmp_path / "heimlich-topsecret.rules").write_text(
        (ROOT / "rulesets" / "heimlich-topsecret.rules").read_text(encoding="utf-8")
    )
    with pytest.raises(rulelang.RuleError) as caught:
        rulelang.compile_file(variant)
    [diagnostic] = caught.value.diagnostics
    assert diagnostic.code == "E122" and "to_safe" in (diagnostic.hint or diagnostic.message)


# --------------------------------------------------------------------------- setup and draws
@pytest.mark.parametrize("players", [2, 4, 7])
def test_setup_runs_the_base_setup_then_deals_two_cards(rules: Ruleset, players: int) -> None:
    g = rules.new_game(players, seed=5)
    # do base: every player has a secret agent, all different
    agents = [p["agent"] for p in g.view(None)["players"]]
    assert len(set(agents)) == players and set(agents) <= set(AGENTS)
    assert [len(g.zone("hand", s)) for s in range(players)] == [2] * players
    assert len(g.zone("deck")) == 25 - 2 * players
    assert g.zone("played") == []
    assert g.turn_number == 1 and g.current_player() == 0


def test_hand_size_params(rules: Ruleset) -> None:
    g = rules.new_game(3, seed=2, options={"start_hand": "3", "max_hand": "3"})
    assert [len(g.zone("hand", s)) for s in range(3)] == [3, 3, 3]
    assert len(g.zone("deck")) == 25 - 9
    rng = random.Random(2)
    full_draws = 0
    while not g.is_over():
        decision = g.pending()
        if decision.name == "points" and len(g.zone("hand", decision.player)) == 3:
            full_draws += 1
            before = len(g.zone("deck"))
            g.apply("0")
            assert len(g.zone("deck")) == before  # a full hand draws nothing
        elif decision.reaction:
            g.apply("pass")  # nobody plays: the hands stay full
        else:
            g.apply(rng.choice(g.legal_actions()))
        assert max(len(g.zone("hand", s)) for s in range(3)) <= 3
    assert full_draws > 0


def test_setup_deals_from_the_top_of_the_shuffled_stack(rules: Ruleset) -> None:
    g = start(rules, 3, hands={0: ["swap", "follow"], 1: ["to the safe", "move safe"]})
    assert g.zone("hand", 0) == ["swap", "follow"]
    assert g.zone("hand", 1) == ["to the safe", "move safe"]


def test_choosing_0_on_1_to_3_draws_a_card_and_moves_nobody(rules: Ruleset) -> None:
    g = start(rules, 2, top=["swap", "follow"])
    roll(g, "1-3")
    assert texts(g) == ["0", "1", "2", "3"]
    g.apply("0")
    assert g.zone("hand", 0) == ["swap"]
    assert all(row["at"] == "church" for row in agent_rows(g).values())
    assert g.zone("deck")[-1] == "follow"
    # P1 holds a card, but the round starts with P2, who has none; then P1 is asked
    assert g.current_player() == 0 and reacting(g)
    assert pass_round(g) == [0]
    assert g.current_player() == CHANCE and g.turn_player == 1


def test_ending_an_agent_in_the_ruin_draws_one_card(rules: Ruleset) -> None:
    g = start(rules, 2, top=["swap", "follow"])
    place(g, Perry="building 10", Schulz="building 9")
    roll(g, "4")
    move(g, "Perry", 1)  # into the ruin
    move(g, "Schulz", 2)  # into the ruin too: still one card per move action
    move(g, "Doyle", 1)
    assert at(g, "Perry") == at(g, "Schulz") == "ruin"
    assert g.zone("hand", 0) == ["swap"]
    assert g.zone("hand", 1) == []  # only the mover draws
    assert g.zone("deck")[-1] == "follow"


def test_passing_through_the_ruin_draws_nothing(rules: Ruleset) -> None:
    g = start(rules, 2, top=["swap"])
    place(g, Perry="building 10")
    roll(g, "3")
    move(g, "Perry", 3)  # 10 -> ruin -> church -> building 1
    assert at(g, "Perry") == "building 1"
    assert g.zone("hand", 0) == []
    assert g.zone("deck")[-1] == "swap"


def test_no_draw_past_the_hand_limit(rules: Ruleset) -> None:
    four = ["swap", "follow", "to the ruin", "to the ruin"]
    g = start(rules, 2, hands={0: four}, top=["move safe"])
    roll(g, "1-3")
    g.apply("0")  # 0 is still offered; no card comes
    assert sorted(g.zone("hand", 0)) == sorted(four)
    assert g.zone("deck")[-1] == "move safe"
    pass_round(g)
    # nor by the ruin
    g2 = start(rules, 2, hands={0: four}, top=["move safe"])
    place(g2, Perry="building 9")
    roll(g2, "2")
    move(g2, "Perry", 2)
    assert at(g2, "Perry") == "ruin"
    assert len(g2.zone("hand", 0)) == 4


def test_a_hand_of_three_draws_its_fourth_card(rules: Ruleset) -> None:
    g = start(rules, 2, hands={0: ["swap", "follow", "to the ruin"]}, top=["move safe"])
    roll(g, "1-3")
    g.apply("0")
    assert len(g.zone("hand", 0)) == 4 and g.zone("hand", 0)[-1] == "move safe"


def test_no_draw_from_an_empty_stack(rules: Ruleset) -> None:
    g = start(rules, 2)
    edit = g.edit()
    for card in g.items("deck"):
        edit.move(card, "played")
    assert g.zone("deck") == []
    roll(g, "1-3")
    g.apply("0")
    assert g.zone("hand", 0) == []
    place(g, Perry="building 10")
    assert g.current_player() == CHANCE  # nobody holds a card: no one is asked
    roll(g, "2")
    move(g, "Perry", 1)
    move(g, "Doyle", 1)
    assert at(g, "Perry") == "ruin" and g.zone("hand", 1) == []
    assert g.current_player() == CHANCE and g.turn_player == 0


# --------------------------------------------------------------------------- the round
def test_round_starts_after_the_mover_and_ends_after_a_full_cycle_of_passes(
    rules: Ruleset,
) -> None:
    # bug 3 of the original engine (the round starts with the mover) is not copied
    g = start(rules, 4, hands=one_each("forward 1 to 3", "plus or minus 1", "back 1 or 2", "swap"))
    quiet_turn(g)
    assert g.view(None)["reacting"] == "P2"
    assert g.history()[-1] == "reaction round, starting with P2"
    assert pass_round(g) == [1, 2, 3, 0]
    assert g.history()[-1] == "the reaction round is over"
    assert g.current_player() == CHANCE and g.turn_player == 1


def test_round_order_from_a_later_seat(rules: Ruleset) -> None:
    g = start(rules, 4, hands=one_each("forward 1 to 3", "plus or minus 1", "back 1 or 2", "swap"))
    quiet_turn(g)
    pass_round(g)
    roll(g, "2")  # P2's turn
    move(g, "Bucci", 2)
    assert pass_round(g) == [2, 3, 0, 1]
    assert g.turn_player == 2


def test_several_cards_in_a_row_and_again_after_passing(rules: Ruleset) -> None:
    g = start(
        rules,
        4,
        hands={
            1: ["forward 1 to 3", "plus or minus 1"],
            2: ["two forward 1", "back 1 or 2", "swap"],
        },
    )
    quiet_turn(g)
    asked = []

    def step(action: str, *choices: str) -> None:
        asked.append((g.current_player(), action))
        g.apply(action)
        for c in choices:
            g.apply(c)

    step("pass")  # P2 passes
    step("two forward 1", "Perry", "Schulz")  # P3 plays ...
    step("back 1 or 2", "Perry", "-1")  # ... and plays again at once
    step("pass")  # P3 passes, keeping "swap"
    # P4 and P1 hold no card: they pass without being asked; P2 may play after passing
    step("forward 1 to 3", "Doyle", "3")
    step("plus or minus 1", "Doyle", "1")
    # P2's hand is empty: P2 passes unasked, and P3 is asked again
    assert g.current_player() == 2 and texts(g) == ["swap", "pass"]
    step("pass")
    # P4 and P1 pass unasked: the cycle of passes is complete, the round ends
    assert asked == [
        (1, "pass"),
        (2, "two forward 1"),
        (2, "back 1 or 2"),
        (2, "pass"),
        (1, "forward 1 to 3"),
        (1, "plus or minus 1"),
        (2, "pass"),
    ]
    assert not reacting(g) and g.current_player() == CHANCE and g.turn_player == 1
    assert (at(g, "Perry"), at(g, "Schulz"), at(g, "Doyle")) == (
        "church",
        "building 1",
        "building 4",
    )
    passes = [e.who for e in g.events() if isinstance(e, Reaction) and e.step == "pass"]
    assert passes == [1, 2, 3, 0, 1, 2, 3, 0]


def test_a_card_played_resets_the_cycle_of_passes(rules: Ruleset) -> None:
    g = start(rules, 3, hands={0: ["forward 1 to 3"], 1: ["back 1 or 2"], 2: ["swap"]})
    quiet_turn(g)
    assert g.current_player() == 1
    g.apply("pass")  # P2
    assert g.current_player() == 2
    g.apply("pass")  # P3
    assert g.current_player() == 0
    play(g, 0, "forward 1 to 3", "Perry", "1")  # P1, the mover, plays last in the cycle
    assert pass_round(g) == [1, 2]  # P2 and P3 must pass again before the round ends
    assert g.current_player() == CHANCE and g.turn_player == 1


def test_reactions_are_not_turns(rules: Ruleset) -> None:
    g = start(rules, 4, hands={1: ["forward 1 to 3", "forward 1 to 3"], 3: ["swap"]})
    quiet_turn(g)
    assert g.turn_number == 1 and g.view(None)["current"] == "P1"
    play(g, 1, "forward 1 to 3", "Perry", "2")
    assert g.turn_number == 1 and g.round_number == 1 and g.turn_player == 0
    assert g.view(None)["current"] == "P1"
    pass_round(g)
    assert g.turn_number == 2 and g.turn_player == 1


def test_no_turn_is_skipped_after_a_round(rules: Ruleset) -> None:
    # bug 2 of the original engine (a round ended in passes skips a player) is not copied
    g = start(rules, 3, hands=one_each("forward 1 to 3", "plus or minus 1", "back 1 or 2"))
    for expected_turn, mover in [(1, 0), (2, 1), (3, 2), (4, 0), (5, 1)]:
        assert (g.turn_number, g.turn_player) == (expected_turn, mover)
        roll(g, "2")
        move(g, "Bucci", 2)
        assert len(pass_round(g)) == 3


def test_players_without_cards_are_not_asked(rules: Ruleset) -> None:
    g = start(rules, 4, hands={2: ["forward 1 to 3"]})
    quiet_turn(g)
    assert pass_round(g) == [2]
    g2 = start(rules, 4)
    quiet_turn(g2)
    assert not reacting(g2) and g2.current_player() == CHANCE and g2.turn_player == 1


def test_played_cards_leave_the_game(rules: Ruleset) -> None:
    g = start(rules, 2, hands={1: ["forward 1 to 3", "swap"]})
    before = len(g.zone("played"))
    quiet_turn(g)
    play(g, 1, "forward 1 to 3", "Perry", "1")
    assert g.zone("hand", 1) == ["swap"]
    assert len(g.zone("played")) == before + 1 and g.zone("played")[-1] == "forward 1 to 3"
    assert g.history(PUBLIC)[-2:] == [
        "P2 plays forward 1 to 3",
        "P2 moves Perry 1 building forward, to building 1",
    ]


def test_a_card_with_no_legal_effect_is_not_offered(rules: Ruleset) -> None:
    g = start(rules, 2, hands={1: ["swap", "ruin to church"]})
    roll(g, "2")
    move(g, "Perry", 1)
    move(g, "Perry", 1)
    # every agent but Perry in the church, nobody in the ruin: "swap" is legal (Perry
    # stands apart), "ruin to church" is not
    assert texts(g) == ["swap", "pass"]
    assert g.why_not("ruin to church").reason == "this card has no legal effect now"


# --------------------------------------------------------------------------- every effect
def opening(rules: Ruleset, cards: list[str], players: int = 2, **where: str) -> Game:
    """P1 has moved Bucci 2 steps (the safe is far away); P2 holds `cards` and is asked."""
    g = start(rules, players, hands={1: cards})
    place(g, **where)
    roll(g, "2")
    move(g, "Bucci", 2)
    assert g.current_player() == 1 and reacting(g)
    return g


def test_move_safe(rules: Ruleset) -> None:
    g = opening(rules, ["move safe"])
    play(g, 1, "move safe")
    assert "building 7" not in texts(g) and len(texts(g)) == 11
    assert g.why_not("building 7").reason == "the safe must move to another building"
    g.apply("building 2")  # onto Bucci: placing the safe never triggers scoring
    assert safe(g) == "building 2"
    pass_round(g)
    assert score(g, "Bucci") == 0 and g.current_player() == CHANCE


def test_move_safe_cancels_a_pending_scoring(rules: Ruleset) -> None:
    g = start(rules, 2, hands={1: ["move safe"]})
    place(g, Perry="building 5")
    roll(g, "2")
    move(g, "Perry", 2)  # into the safe's building: scoring pending
    play(g, 1, "move safe", "building 5")
    pass_round(g)
    assert at(g, "Perry") == "building 7" and safe(g) == "building 5"
    assert all(score(g, a) == 0 for a in AGENTS[:5])
    assert g.current_player() == CHANCE and g.turn_player == 1


def test_add_points(rules: Ruleset) -> None:
    g = opening(rules, ["add points"])
    edit = g.edit()
    edit.set("score", 38, of=edit.item("agent", "Perry"), kind="agent")
    edit.set("score", 40, of=edit.item("agent", "Doyle"), kind="agent")
    play(g, 1, "add points")
    assert texts(g) == ["Perry", "Schulz", "Jaques", "Bucci"]  # Doyle has 40
    g.apply("Perry")
    assert texts(g) == ["Schulz", "Jaques", "Bucci"]  # a different agent
    g.apply("Jaques")
    assert (score(g, "Perry"), score(g, "Jaques"), score(g, "Doyle")) == (40, 3, 40)


def test_add_points_needs_two_agents_below_40(rules: Ruleset) -> None:
    g = opening(rules, ["add points"])
    edit = g.edit()
    for agent in ["Perry", "Schulz", "Doyle", "Jaques"]:
        edit.set("score", 40, of=edit.item("agent", agent), kind="agent")
    assert texts(g) == ["pass"]
    assert g.why_not("add points").reason == "this card has no legal effect now"


def test_back_1_or_2(rules: Ruleset) -> None:
    g = opening(rules, ["back 1 or 2"])
    play(g, 1, "back 1 or 2", "Perry")
    assert texts(g) == ["-1", "-2"]
    g.apply("-2")
    assert at(g, "Perry") == "building 10"  # backwards from the church wraps round


def test_plus_or_minus_1(rules: Ruleset) -> None:
    g = opening(rules, ["plus or minus 1", "plus or minus 1"])
    play(g, 1, "plus or minus 1", "Bucci")
    assert texts(g) == ["-1", "1"]
    g.apply("1")
    assert at(g, "Bucci") == "building 3"
    play(g, 1, "plus or minus 1", "Bucci", "-1")
    assert at(g, "Bucci") == "building 2"


def test_two_back_1(rules: Ruleset) -> None:
    g = opening(rules, ["two back 1"])
    play(g, 1, "two back 1", "Bucci")
    assert "Bucci" not in texts(g) and len(texts(g)) == 4
    g.apply("Perry")
    assert (at(g, "Bucci"), at(g, "Perry")) == ("building 1", "ruin")


def test_two_forward_1(rules: Ruleset) -> None:
    g = opening(rules, ["two forward 1"])
    play(g, 1, "two forward 1", "Bucci")
    assert "Bucci" not in texts(g)
    g.apply("Doyle")
    assert (at(g, "Bucci"), at(g, "Doyle")) == ("building 3", "building 1")


def test_safe_agent_plus_or_minus_1(rules: Ruleset) -> None:
    g = opening(rules, ["safe agent plus or minus 1"])
    assert texts(g) == ["pass"]  # nobody stands with the safe
    g2 = opening(rules, ["safe agent plus or minus 1"], Doyle="building 7", Jaques="building 7")
    play(g2, 1, "safe agent plus or minus 1")
    assert texts(g2) == ["Doyle", "Jaques"]
    assert g2.why_not("Perry").reason == "that agent cannot be moved by this card"
    g2.apply("Doyle")
    assert texts(g2) == ["-1", "1"]
    g2.apply("1")
    assert at(g2, "Doyle") == "building 8"


def test_to_the_ruin(rules: Ruleset) -> None:
    g = opening(rules, ["to the ruin"], Perry="ruin")
    play(g, 1, "to the ruin")
    assert "Perry" not in texts(g)
    g.apply("Bucci")
    assert at(g, "Bucci") == "ruin"
    g2 = opening(rules, ["to the ruin"])
    place(g2, **{a: "ruin" for a in AGENTS[:5]})
    assert texts(g2) == ["pass"]  # every agent is in the ruin already


def test_all_to_church(rules: Ruleset) -> None:
    g = opening(rules, ["all to church"], Perry="ruin", Doyle="building 9")
    play(g, 1, "all to church")
    assert all(row["at"] == "church" for row in agent_rows(g).values())
    pass_round(g)
    assert all(score(g, a) == 0 for a in AGENTS[:5])  # the safe is in building 7


def test_all_to_church_with_the_safe_in_the_church_triggers_scoring(rules: Ruleset) -> None:
    g = opening(rules, ["all to church"], Perry="building 9")
    g.edit().set("safe", "church")
    play(g, 1, "all to church")
    pass_round(g)
    assert g.pending().name == "target" and g.current_player() == 0
    assert all(score(g, a) == 0 for a in AGENTS[:5])  # the church is worth 0 ...
    assert g.why_not("church").reason == "the safe must move to a different building"


def test_all_to_church_moving_nobody_into_the_safe_s_church_does_not_score(rules: Ruleset) -> None:
    """Seed 003, 4.3: "Scoring is only triggered when an agent is moved into the
    building with the safe." Every agent already stands in the church with the safe:
    "all to church" moves nobody, so nobody entered, and the next roll follows."""
    g = start(rules, 2, hands={1: ["all to church"]})
    g.edit().set("safe", "church")
    roll(g, "1-3")
    g.apply("0")  # P1 draws a card instead of moving
    play(g, 1, "all to church")
    pass_round(g)
    assert g.current_player() == CHANCE and g.turn_player == 1
    assert safe(g) == "church"


def test_a_card_moving_the_real_mover_off_the_safe_cancels_after_all_to_church(
    rules: Ruleset,
) -> None:
    """Seed 003, 5.1: "scoring is only done if an agent is moved onto the field with a
    safe and the agent and the safe remain there until the end of the top-secret
    round." Perry is moved into the church with the safe; "all to church" moves nobody
    (everyone is there); a card then moves Perry out: nobody who entered remains."""
    g = start(rules, 2, hands={1: ["all to church", "plus or minus 1"]})
    g.edit().set("safe", "church")
    place(g, Perry="building 10")
    roll(g, "2")
    move(g, "Perry", 2)  # building 10 -> ruin -> church: scoring pending
    play(g, 1, "all to church")
    play(g, 1, "plus or minus 1", "Perry", "1")
    assert at(g, "Perry") == "building 1"
    pass_round(g)
    assert g.current_player() == CHANCE and g.turn_player == 1
    assert all(score(g, a) == 0 for a in AGENTS[:5])


def test_all_to_church_counts_only_the_agents_it_moves(rules: Ruleset) -> None:
    """Seed 003, 5.1: "scoring can be 'untriggered' by other cards (by moving the agent
    that triggered the scoring off the building with the safe ...)". "All to church"
    moves Perry into the safe's church; the others were there already. Moving Perry
    out again untriggers the scoring."""
    g = start(rules, 2, hands={1: ["all to church", "plus or minus 1"]})
    g.edit().set("safe", "church")
    place(g, Perry="building 9")
    roll(g, "1-3")
    g.apply("0")
    play(g, 1, "all to church")
    play(g, 1, "plus or minus 1", "Perry", "-1")
    pass_round(g)
    assert g.current_player() == CHANCE and g.turn_player == 1


def test_swap_into_the_safe_s_building_triggers_scoring(rules: Ruleset) -> None:
    g = opening(rules, ["swap"], Doyle="building 7")
    play(g, 1, "swap", "Bucci", "Doyle")  # Bucci to building 7, Doyle to building 2
    assert (at(g, "Bucci"), at(g, "Doyle")) == ("building 7", "building 2")
    pass_round(g)
    assert g.pending().name == "target"
    assert (score(g, "Bucci"), score(g, "Doyle"), score(g, "Perry")) == (7, 2, 0)


def test_swap(rules: Ruleset) -> None:
    g = start(rules, 2, hands={1: ["swap"]})
    roll(g, "1-3")
    g.apply("0")  # nobody moves: every agent in the church
    assert g.current_player() == 1 and texts(g) == ["pass"]  # no two agents apart
    g2 = opening(rules, ["swap"], Perry="building 9")
    play(g2, 1, "swap", "Perry")
    assert texts(g2) == ["Schulz", "Doyle", "Jaques", "Bucci"]
    g2.apply("Bucci")
    assert (at(g2, "Perry"), at(g2, "Bucci")) == ("building 2", "building 9")


def test_swap_offers_only_agents_in_another_building(rules: Ruleset) -> None:
    g = opening(rules, ["swap"])  # Bucci in building 2, the others in the church
    play(g, 1, "swap", "Perry")
    assert texts(g) == ["Bucci"]
    assert g.why_not("Schulz").reason == "choose an agent in another building"


def test_follow(rules: Ruleset) -> None:
    g = opening(rules, ["follow"], Perry="building 9")
    play(g, 1, "follow", "Perry")
    g.apply("Bucci")  # order matters: Perry goes to Bucci, Bucci stays
    assert (at(g, "Perry"), at(g, "Bucci")) == ("building 2", "building 2")


def test_ruin_to_church(rules: Ruleset) -> None:
    g = opening(rules, ["ruin to church"])
    assert texts(g) == ["pass"]  # nobody in the ruin
    g2 = opening(rules, ["ruin to church", "ruin to church"], Perry="ruin", Doyle="ruin")
    play(g2, 1, "ruin to church")
    assert texts(g2) == ["Perry", "Doyle"]
    g2.apply("Doyle")
    assert texts(g2) == ["Perry", "pass"]  # a second agent is optional
    g2.apply("Perry")
    assert (at(g2, "Perry"), at(g2, "Doyle")) == ("church", "church")
    place(g2, Jaques="ruin")
    play(g2, 1, "ruin to church", "Jaques")
    assert texts(g2) == ["pass"]
    g2.apply("pass")
    assert at(g2, "Jaques") == "church"


def test_forward_1_to_3(rules: Ruleset) -> None:
    g = opening(rules, ["forward 1 to 3"])
    play(g, 1, "forward 1 to 3", "Jaques")
    assert texts(g) == ["1", "2", "3"]
    g.apply("3")
    assert at(g, "Jaques") == "building 3"


def test_to_the_safe_triggers_scoring(rules: Ruleset) -> None:
    # bug 1 of the original engine (cards never trigger scoring) is not copied
    g = opening(rules, ["to the safe"], Doyle="building 7")
    play(g, 1, "to the safe")
    assert "Doyle" not in texts(g)
    g.apply("Perry")
    assert at(g, "Perry") == "building 7"
    pass_round(g)
    assert g.prompt() == "Scoring! Move the safe to which building?"
    assert g.current_player() == 0  # the mover moves the safe
    assert (score(g, "Perry"), score(g, "Doyle"), score(g, "Bucci")) == (7, 7, 2)


def test_a_card_leaving_an_agent_with_the_safe_triggers_scoring(rules: Ruleset) -> None:
    g = opening(rules, ["forward 1 to 3"], Jaques="building 5")
    play(g, 1, "forward 1 to 3", "Jaques", "2")
    pass_round(g)
    assert g.pending().name == "target"
    assert score(g, "Jaques") == 7 and score(g, "Bucci") == 2


def test_a_card_moving_the_agent_off_the_safe_cancels_the_scoring(rules: Ruleset) -> None:
    g = start(rules, 2, hands={1: ["plus or minus 1"]})
    place(g, Perry="building 4")
    roll(g, "3")
    move(g, "Perry", 3)  # into the safe's building
    play(g, 1, "plus or minus 1", "Perry", "1")
    pass_round(g)
    assert g.current_player() == CHANCE and score(g, "Perry") == 0


def test_scoring_waits_for_the_end_of_the_round(rules: Ruleset) -> None:
    g = start(rules, 2, hands={0: ["swap"], 1: ["forward 1 to 3"]})
    place(g, Perry="building 5")
    roll(g, "2")
    move(g, "Perry", 2)
    assert reacting(g) and score(g, "Perry") == 0  # no scoring before the round
    assert pass_round(g) == [1, 0]
    assert g.pending().name == "target" and score(g, "Perry") == 7


def test_an_agent_that_did_not_enter_does_not_score(rules: Ruleset) -> None:
    # Doyle stood with the safe before the turn; moving another agent scores nothing
    g = start(rules, 2)
    place(g, Doyle="building 7")
    quiet_turn(g)
    assert g.current_player() == CHANCE and g.turn_player == 1 and score(g, "Doyle") == 0


# --------------------------------------------------------------------------- hidden information
def assert_hidden(g: Game, players: int) -> None:
    public = g.history(PUBLIC)
    for viewer in range(players):
        view = g.view(viewer)
        for seat in range(players):
            hand = view["zones"][f"hand[P{seat + 1}]"]
            if seat == viewer:
                assert hand == g.zone("hand", seat)
            else:
                assert hand == {"size": len(g.zone("hand", seat))}
                assert "agent" not in view["players"][seat]
        assert view["zones"]["deck"] == {"size": len(g.zone("deck"))}
        assert g.history(viewer) == public  # no line is private to anyone
        if g.current_player() != viewer:
            assert "options" not in view and "prompt" not in view


@pytest.mark.parametrize("players", [2, 5])
def test_hands_and_agents_stay_hidden_at_every_step(rules: Ruleset, players: int) -> None:
    g = rules.new_game(players, seed=11)
    rng = random.Random(11)
    steps = 0
    while not g.is_over() and steps < 400:
        assert_hidden(g, players)
        g.apply(rng.choice(g.legal_actions()))
        steps += 1
    assert_hidden(g, players)
    assert any(re.match(r"^P\d+ plays ", line) for line in g.history(PUBLIC))  # cards were played


# --------------------------------------------------------------------------- random games
@pytest.mark.parametrize("players", [2, 4, 7])
def test_random_games_finish(rules: Ruleset, players: int) -> None:
    for seed in range(8):
        g = rules.new_game(players, seed=seed)
        g.playout(random.Random(seed))
        assert g.is_over()
        assert set(g.results()) <= {"draw", "loss", "win"}
        assert max(score(g, a) for a in AGENTS[: AGENT_COUNT[players]]) >= 42
