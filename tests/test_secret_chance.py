"""Chance and choices seen only by some players: `roll X = DIE secret [to EXPR]`,
`pick X in LIST secret [to EXPR]`, `choose ... secret to EXPR`. The value and its line
reach only the audience (and the referee); the others read the `else` text or nothing;
the same seed gives the same game; a record replays it with the same views."""

from __future__ import annotations

import builtins
import random
import re
from pathlib import Path

import pytest
from cli_support import cli

import rulelang
from rulelang import PUBLIC, Game, replay

RULES = """
players 2..4
die d6 = [1, 2, 3, 4, 5, 6]
global { t: int = 0 }
turn {
  roll a = d6 secret log "{current} secretly rolls {a}" else "{current} rolls in secret"
  roll b = d6 secret to [next_player(current), current] log "the omen is {b}"
  pick c in [10, 20, 30] secret to next_player(current) log "{current} passes {c} on"
  pick e in [7, 8, 9] secret to []
  choose x in [1, 2] secret to players[0]
    log "{current} takes {x}" else "{current} takes something"
  roll f = d6 secret
  say "a battle message" to [current, next_player(current)]
  set t += 1
}
end when t >= 3 { win [current] }
"""


@pytest.fixture(scope="module")
def rules() -> rulelang.Ruleset:
    return rulelang.compile_source(RULES, "secret.rules")


def play(rules: rulelang.Ruleset, seed: int) -> Game:
    g = rules.new_game(3, seed=seed)
    rng = random.Random(seed)
    while not g.is_over():
        g.apply(rng.choice(g.legal_actions()))
    return g


def values(g: Game) -> dict[str, object]:
    """The values drawn and chosen in P1's turn, from the omniscient events."""
    out: dict[str, object] = {}
    for e in g.events():
        name = e.decision.name if hasattr(e, "decision") else None
        if name is not None and name not in out:
            out[name] = e.value
    return out


def test_each_value_reaches_exactly_its_audience(rules: rulelang.Ruleset) -> None:
    g = play(rules, 3)
    v = values(g)
    a, b, c, x, f = v["a"], v["b"], v["c"], v["x"], v["f"]
    ref, p1, p2, p3, pub = (g.history(w)[:8] for w in (None, 0, 1, 2, PUBLIC))
    assert ref == [
        f"P1 secretly rolls {a}",
        f"the omen is {b}",
        f"P1 passes {c} on",
        f"picked at random: {v['e']}",  # secret to nobody: the referee alone reads it
        f"P1 takes {x}",
        f"P1 rolls {f}",
        "a battle message",
        ref[7],
    ]
    assert (
        p1
        == [
            f"P1 secretly rolls {a}",  # bare secret: the current player
            f"the omen is {b}",
            f"P1 takes {x}",  # the chooser, who is also players[0]
            f"P1 rolls {f}",
            "a battle message",
            *p1[5:8],
        ]
    )
    assert p2[:5] == [
        "P1 rolls in secret",  # the else text
        f"the omen is {b}",
        f"P1 passes {c} on",
        "P1 takes something",
        "a battle message",  # say to a list: both fighters
    ]
    assert p3[:2] == ["P1 rolls in secret", "P1 takes something"]
    assert pub[:2] == ["P1 rolls in secret", "P1 takes something"]
    # the views' logs say the same as the histories
    for seat in (0, 1, 2):
        assert g.view(seat)["log"] == g.history(seat)[-len(g.view(seat)["log"]) :]
    assert g.view(None)["log"] == g.history(None)[-len(g.view(None)["log"]) :]


def test_a_secret_choice_is_still_seen_by_its_chooser(rules: rulelang.Ruleset) -> None:
    g = play(rules, 5)
    chose = [e for e in g.events() if type(e).__name__ == "Chose"]
    assert [e.who for e in chose] == [0, 1, 2]  # t >= 3 ends the game
    second = chose[1]  # P2 chooses; seen by P2 and players[0] = P1, not by P3
    seen = f"P2 takes {second.value}"
    assert seen in g.history(0) and seen in g.history(1) and seen in g.history(None)
    assert seen not in g.history(2) and "P2 takes something" in g.history(2)


def test_same_seed_same_secrets_and_a_record_replays_them(rules: rulelang.Ruleset) -> None:
    a, b = play(rules, 11), play(rules, 11)
    assert [a.history(w) for w in (None, 0, 1, 2)] == [b.history(w) for w in (None, 0, 1, 2)]
    again = replay(rules, 3, 11, a.record())
    for w in (None, 0, 1, 2, PUBLIC):
        assert again.history(w) == a.history(w)
        assert again.view(w)["log"] == a.view(w)["log"]


def test_playouts_keep_secrets_too(rules: rulelang.Ruleset) -> None:
    g = rules.new_game(3, seed=2)
    g.playout(random.Random(2))
    assert g.is_over()
    rolls = [e for e in g.events() if type(e).__name__ == "Drew" and e.decision.name == "a"]
    assert [e.audience for e in rolls] == [(0,), (1,), (2,)]
    drawn = [e for e in g.events() if type(e).__name__ == "Drew" and e.text is None]
    assert drawn  # drawn in the playout: no line built
    for seat in (0, 1, 2):  # in a playout, the audience reads the default line only
        lines = [x for x in g.history(seat) if x.startswith(("roll: ", "pick: "))]
        assert len(lines) == sum(seat in (e.audience or ()) for e in drawn)
    assert len(g.history(None)) > len(g.history(0))


def test_scripted_secret_rolls_keep_their_audience(rules: rulelang.Ruleset) -> None:
    g = rules.new_game(2, seed=1, auto_chance=False)
    g.chance_index(3)  # a = 4, secret to P1
    g.chance_index(0)  # b = 1, secret to P2 and P1
    assert g.history(None) == ["P1 secretly rolls 4", "the omen is 1"]
    assert g.history(0) == ["P1 secretly rolls 4", "the omen is 1"]
    assert g.history(1) == ["P1 rolls in secret", "the omen is 1"]


def test_a_pending_secret_roll_says_it_is_secret(rules: rulelang.Ruleset) -> None:
    g = rules.new_game(2, seed=1, auto_chance=False)
    decision = g.pending()
    assert decision is not None and decision.kind == "roll" and decision.secret


def test_omniscient_play_says_whom_a_secret_draw_was_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "secret.rules"
    path.write_text(RULES, encoding="utf-8")
    monkeypatch.setattr(builtins, "input", lambda prompt="": "1")
    argv = ["play", path, "-p", "3", "--bots", "2,3", "--names", "Ann,Bob,Cy", "--omniscient"]
    code, out, err = cli(capsys, *argv, "--no-store")
    assert code == 0, err
    assert re.search(r"^  \(to Bob\) Bob secretly rolls \d$", out, re.M)
    assert re.search(r"^  \(to Cy, Bob\) the omen is \d$", out, re.M)
    assert re.search(r"^  \(to Cy\) Bob passes \d+ on$", out, re.M)
    assert re.search(r"^  \(hidden\) picked at random: \d$", out, re.M)  # secret to []
    assert re.search(r"^  \(to Bob, Ann\) Bob takes \d$", out, re.M)  # chooser first


def test_a_secret_draw_logged_empty_writes_no_line_even_for_its_audience() -> None:
    """language.md: "`log ""` writes no line". A secret pick told in a later sentence
    (the labyrinth's bullet among several players) left its audience a raw "pick: P2"."""
    rules = rulelang.compile_source(
        """
players 2..2
global { t: int = 0 }
turn {
  pick who in players secret to current log ""
  roll r = d6 secret to current log ""
  say "{current} picked {who}." to current
  set t += 1
}
die d6 = [1, 2, 3, 4, 5, 6]
end when t >= 2 { win [current] }
""",
        "quiet.rules",
    )
    g = rules.new_game(2, seed=3)
    while not g.is_over():
        g.resolve_chance()
    for viewer in (None, 0, 1):
        assert all(re.fullmatch(r"P\d picked P\d\.", line) for line in g.history(viewer))
    assert len(g.history(0)) == 1 and len(g.history(None)) == 2
