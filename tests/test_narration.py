"""The log as sentences (issue 9): `log "..." [else "..."]` on choose, roll, pick and
shuffle; the default sentences; secret choices and picks seen by others; reactions;
the shipped games' logs read in every seat's view; private messages at the table."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import rulelang
from rulelang import CHANCE, PUBLIC, Game
from rulelang.cli.play import Table
from rulelang.runtime.code import ChanceSpec, ChoiceSpec

ROOT = Path(__file__).resolve().parent.parent

NARRATED = """
game "narrated"
players 2..3
die d = [1, 2, 3, 4, 5, 6]
piece token count 3 { name: text = "token {index + 1}"  at: int = 0 }
card chip count 6 { name: text = "chip {index + 1}" }
zone pile: chip
zone hand: chip per player visible to owner
global { total: int = 0 }

setup {
  add pieces(chip) to pile
  shuffle pile log "The chips are shuffled."
  deal 2 from pile to hand
  pick first_token in pieces(token) log "{first_token} is picked"
  pick secret_token in pieces(token)
    log "{secret_token} is picked in secret" else "a token is picked in secret"
}

turn {
  roll face = d log "{current} rolls {face}"
  choose mover in pieces(token) log ""
  choose steps in 1..2 prompt "Move {mover} how far?"
    log "{current} moves {mover} {steps} from {mover.at} to {mover.at + steps}"
  set mover.at += steps
  choose c in hand[current] secret allow pass
    log "{current} plays {c}" else "{current} plays a chip"
  if c != none {
    move c from hand[current] to pile
  }
  choose plain in [1, 2]
  set total += face
}

end when total > 30 { win [current] }
"""


@pytest.fixture(scope="module")
def narrated() -> rulelang.Ruleset:
    return rulelang.compile_source(NARRATED, "narrated.rules")


def drawn(game: Game, name: str) -> object:
    """The value of the last chance event named `name`, as it is shown."""
    event = [e for e in game.events() if isinstance(e, rulelang.Drew) and e.decision.name == name][
        -1
    ]
    return event.decision.show(game.state, event.value)


def step_to(game: Game, name: str) -> None:
    """Resolve chances until the choice `name` is asked."""
    while game.current_player() == CHANCE:
        game.resolve_chance()
    spec = game.state.pending
    assert isinstance(spec, ChoiceSpec) and spec.name == name


def test_templates_read_the_value_and_the_names_in_scope(narrated: rulelang.Ruleset) -> None:
    game = narrated.new_game(2, seed=3)
    step_to(game, "mover")
    face = drawn(game, "face")
    game.apply("token 2")
    game.apply("2")
    lines = game.history(PUBLIC)
    assert lines[-2:] == [f"P1 rolls {face}", "P1 moves token 2 2 from 0 to 2"]
    # an empty log text leaves the choice out; nothing names a variable
    assert not any("mover" in line or "steps" in line for line in lines)


def test_secret_choice_others_see_the_else_text(narrated: rulelang.Ruleset) -> None:
    game = narrated.new_game(2, seed=3)
    step_to(game, "mover")
    game.apply("token 1")
    game.apply("1")
    card = game.legal_actions()[0].text
    game.apply(game.legal_actions()[0])
    assert game.history(0)[-1] == f"P1 plays {card}"
    assert game.history(None)[-1] == f"P1 plays {card}"
    assert game.history(1)[-1] == "P1 plays a chip"
    assert game.history(PUBLIC)[-1] == "P1 plays a chip"
    assert card not in " ".join(game.history(1))


def test_pass_and_the_default_sentence(narrated: rulelang.Ruleset) -> None:
    game = narrated.new_game(2, seed=3)
    step_to(game, "mover")
    game.apply("token 1")
    game.apply("1")
    game.apply("pass")
    assert game.history(PUBLIC)[-1] == "P1 passes"
    game.apply("2")  # `plain` has no log text: a sentence, not "P1: plain 2"
    assert "P1 chooses 2" in game.history(PUBLIC)[-3:]
    assert not any("plain" in line for line in game.history(PUBLIC))


def test_pick_and_shuffle_lines(narrated: rulelang.Ruleset) -> None:
    game = narrated.new_game(2, seed=3)
    step_to(game, "mover")
    first, hidden = drawn(game, "first_token"), drawn(game, "secret_token")
    public = game.history(PUBLIC)
    assert public[:3] == [
        "The chips are shuffled.",
        f"{first} is picked",
        "a token is picked in secret",
    ]
    assert f"{hidden} is picked in secret" in game.history(None)
    assert f"{hidden} is picked in secret" not in game.history(0)


DEFAULTS = """
game "defaults"
players 2..2
die d = [1, 2, 3]
global { total: int = 0 }
turn {
  roll face = d
  pick n in [7, 8]
  choose c in ["left", "right"] secret
  choose k in [1, 2]
  set total += face
}
end when total > 8 { win [current] }
"""


def test_default_sentences_name_the_player_not_the_variable() -> None:
    game = rulelang.compile_source(DEFAULTS, "defaults.rules").new_game(2, seed=1)
    step_to(game, "c")
    face, n = drawn(game, "face"), drawn(game, "n")
    game.apply("left")
    game.apply("2")
    assert game.history(1)[:4] == [
        f"P1 rolls {face}",
        "something is picked at random",
        "P1 chooses in secret",
        "P1 chooses 2",
    ]
    assert game.history(0)[2] == "P1 chooses left"
    assert game.history(None)[1] == f"picked at random: {n}"


def test_reaction_lines() -> None:
    source = """
game "r"
players 2..3
global { total: int = 0 }
turn {
  react from next_player(current) as who {
    choose bid in [1, 2] allow pass log "{who} bids {bid}"
    if bid == none { pass }
    set total += bid
  }
}
end when total > 3 { win [current] }
"""
    game = rulelang.compile_source(source, "r.rules").new_game(2, seed=1)
    game.apply("2")
    game.apply("pass")
    lines = game.history(PUBLIC)
    assert lines[:3] == ["reaction round, starting with P2", "P2 bids 2", "P2 passes"]


@pytest.mark.parametrize(
    "snippet, message",
    [
        ('choose x in [1, 2] log "{y} chose"', "y"),
        ('roll f = d log "{nobody} rolls {f}"', "nobody"),
        ('choose x in [1, 2] secret log "{x}" else "{z}"', "z"),
    ],
)
def test_a_template_with_an_unknown_name_is_an_error(snippet: str, message: str) -> None:
    source = f"""
game "t"
players 2..2
die d = [1, 2]
global {{ total: int = 0 }}
turn {{
  {snippet}
  set total += 1
}}
end when total > 3 {{ win [current] }}
"""
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.compile_source(source, "t.rules")
    assert f"'{message}'" in str(err.value)


SHIPPED = [
    ("heimlich.rules", 4),
    ("heimlich-topsecret.rules", 4),
    ("saboteur.rules", 5),
    ("saboteur-official.rules", 4),
    ("saboteur-stoneseekers.rules", 5),
    ("heimlich-quick.rules", 3),
    ("labyrinth.rules", 4),
]

# the old form of a choice line ("P2: mover Bucci", "P3 reacts: first Perry") and of a
# chance line ("roll face: 6", "pick first_player: (picked)", "shuffled order")
OLD_FORMS = re.compile(r"^P\d+( reacts)?: |^(roll|pick) \w+: |^shuffled \w+$")


@pytest.mark.parametrize("rules_file, players", SHIPPED)
def test_every_choice_and_chance_of_a_shipped_game_has_a_log_text(
    rules_file: str, players: int
) -> None:
    code = rulelang.compile_file(ROOT / "rulesets" / rules_file).code
    specs: list[ChoiceSpec | ChanceSpec] = [*code.choices.values(), *code.chances.values()]
    assert specs
    for spec in specs:
        assert spec.narrate is not None, f"{rules_file}: '{spec.name}' has no log text"


@pytest.mark.parametrize("rules_file, players", SHIPPED)
def test_no_log_line_of_a_shipped_game_shows_a_variable(rules_file: str, players: int) -> None:
    rules = rulelang.compile_file(ROOT / "rulesets" / rules_file)
    for seed in range(3):
        game = rules.new_game(players, seed)
        bots = random.Random(seed)
        while not game.is_over():
            actions = game.legal_actions()
            game.apply(actions[int(bots.random() * len(actions))])
        for viewer in [None, PUBLIC, *range(players)]:
            lines = game.history(viewer)
            assert lines
            for line in lines:
                assert line.strip() == line and line, f"{rules_file}: {line!r}"
                assert not OLD_FORMS.search(line), f"{rules_file}, {viewer}: {line}"
            if viewer not in (None, PUBLIC):
                others = [p for p in range(players) if p != viewer]
                # a secret choice of another player is never shown with its value
                shown = set(lines)  # a random labyrinth game may log 30,000 lines
                for event in game.events():
                    if (
                        isinstance(event, rulelang.Chose)
                        and event.decision.secret
                        and event.who in others
                        and event.text
                    ):
                        assert event.text not in shown or event.text == event.hidden


PEEK = """
game "peek"
players 2..2
global { total: int = 0  goal: int = 7 visible to none }
turn {
  choose look in ["peek", "skip"] log "{current} chooses to {look}"
  if look == "peek" {
    say "The goal is {goal}." to current
  }
  set total += 1
}
end when total > 3 { win [current] }
"""


def test_a_private_message_reaches_the_human_at_once() -> None:
    game = rulelang.compile_source(PEEK, "peek.rules").new_game(2, seed=1)
    out: list[str] = []
    # an Enter to take the screen; from the second hand-over on, one before it to clear it
    answers = iter(["", "1", "", "", "2", "", "", "1", "", "", "2"])

    def read(prompt: str) -> str:
        out.append(prompt)
        return next(answers)

    Table(game, {}, read, out.append, clear=False).run()
    text = "\n".join(out)
    told = text.index("The goal is 7.")
    # shown to P1 right after the choice, before the screen goes to P2
    assert text.index("P1: ") < told < text.index("Pass the screen to P2")
    # and never on P2's screen
    p2 = text[text.index("Pass the screen to P2") : text.index("Pass the screen to P1", told)]
    assert "The goal is" not in p2
