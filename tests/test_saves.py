"""Saved games: leaving a game saves it, `resume` continues it, damaged saves are refused,
and a save records moves by the rule file's names, so it survives a change to the
generated code."""

from __future__ import annotations

import builtins
import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang import Game, replay
from rulelang.cli.main import run
from rulelang.runtime import codegen
from rulelang.storage import saves

ROOT = Path(__file__).resolve().parent.parent
HEIMLICH = str(ROOT / "rulesets" / "heimlich.rules")
SABOTEUR = str(ROOT / "rulesets" / "saboteur.rules")


def position(g: Game) -> tuple[object, ...]:
    """Everything about a game, through the public API."""
    return (g.view(None), g.history(None), g.record(), g.pending(), g.current_player(), g.results())


def is_event(event: Any) -> bool:
    """A decision by name, seat and option text, or a chance event by name and outcome."""
    return isinstance(event, dict) and (
        set(event) == {"choose", "by", "option"} or set(event) == {"chance", "outcome"}
    )


def answers(monkeypatch: pytest.MonkeyPatch, replies: list[str], then: BaseException) -> None:
    """Answer every prompt from `replies`, then raise `then` (Ctrl-C or end of input)."""
    it: Iterator[str] = iter(replies)

    def fake_input(prompt: str = "") -> str:
        for reply in it:
            return reply
        raise then

    monkeypatch.setattr(builtins, "input", fake_input)


def leave_after(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], moves: int
) -> tuple[int, str]:
    answers(monkeypatch, ["1"] * moves, KeyboardInterrupt())
    code = run(argv)
    return code, capsys.readouterr().err


def test_leaving_a_game_saves_it_and_says_how_to_continue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, err = leave_after(
        monkeypatch,
        capsys,
        ["play", HEIMLICH, "-p", "3", "--bots", "2,3", "--seed", "4", "--no-store"],
        5,
    )
    assert code == 130
    assert "Game left. Saved to heimlich-seed4.save.json" in err
    assert "rulelang resume heimlich-seed4.save.json" in err
    data = json.loads((tmp_path / "heimlich-seed4.save.json").read_text(encoding="utf-8"))
    assert data["format"] == "rulelang-save/3" and data["checksum"] == saves.checksum(data)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["heimlich-seed4.save.json"]  # no temp
    record = saves.read(tmp_path / "heimlich-seed4.save.json")
    assert (record.players, record.seed, record.bots) == (3, 4, [1, 2])
    assert all(is_event(e) for e in record.log)
    mine = [e for e in record.log if "choose" in e and e["by"] == 0]
    assert len(mine) >= 5
    assert {e["choose"] for e in mine} <= {"points", "mover", "steps", "target"}
    assert all(isinstance(e["option"], str) for e in mine)


def test_a_saved_game_replays_to_the_same_position(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    save = tmp_path / "s.json"
    leave_after(
        monkeypatch,
        capsys,
        ["play", SABOTEUR, "-p", "4", "--bots", "2,3,4", "--seed", "3", "--save", str(save)],
        12,
    )
    record = saves.read(save)
    rules = rulelang.compile_file(SABOTEUR)
    first = replay(rules, 4, 3, record.log, record.options, record.names)
    again = replay(rules, 4, 3, saves.read(save).log, record.options, record.names)
    assert position(first) == position(again)
    assert first.record() == record.log
    assert not first.is_over() and first.current_player() == 0  # waiting for seat 1


def test_save_option_writes_after_every_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "game.json"
    sizes = []

    def fake_input(prompt: str = "") -> str:
        if save.exists():
            sizes.append(len(json.loads(save.read_text())["log"]))
        if len(sizes) >= 4:
            raise KeyboardInterrupt
        return "1"

    monkeypatch.setattr(builtins, "input", fake_input)
    assert run(["play", HEIMLICH, "-p", "2", "--bots", "2", "--save", str(save)]) == 130
    assert sizes == sorted(sizes) and sizes[0] < sizes[-1]
    # with the store too (the default), both have the game
    assert f"Saved as game 1: 'rulelang resume 1' (and to {save})" in capsys.readouterr().err


def test_resume_continues_to_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    leave_after(
        monkeypatch, capsys, ["play", HEIMLICH, "-p", "3", "--bots", "2,3", "--no-store"], 3
    )
    answers(monkeypatch, ["1"] * 2000, EOFError())
    assert run(["resume", "heimlich-seed0.save.json"]) == 0
    out = capsys.readouterr().out
    assert "Resuming Heimlich & Co after" in out and "Game over." in out


def damaged(tmp_path: Path, change: str) -> Path:
    good = tmp_path / "good.json"
    record = saves.Save(
        HEIMLICH, saves.fingerprint(Path(HEIMLICH)), 3, 4, {}, ["A", "B", "C"], [1, 2], []
    )
    game = rulelang.compile_file(HEIMLICH).new_game(3, 4, names=["A", "B", "C"])
    record.log = game.record()
    assert [e.get("chance") for e in record.log] == ["order", "face"]  # the deal, the die
    decision = game.pending()
    assert decision is not None
    saves.write(good, record)
    data = json.loads(good.read_text())
    path = tmp_path / "bad.json"
    if change == "not json":
        path.write_text("{garbage", encoding="utf-8")
        return path
    if change == "format":
        data["format"] = "something else"
    elif change == "field":
        data["players"] = "three"
    elif change == "event":
        data["log"][1] = ["chance"]
    elif change == "choice":
        data["log"].append(
            {"choose": decision.name, "by": decision.player, "option": "no such option"}
        )
    elif change == "decision":
        data["log"].append(
            {"choose": "no_such_choice", "by": decision.player, "option": decision.options[0].text}
        )
    elif change == "chance":
        data["log"][1]["chance"] = "no_such_die"
    elif change == "outcome":
        data["log"][0]["outcome"] = [0] * len(data["log"][0]["outcome"])
    elif change == "position":
        data["log"][1]["outcome"] = 6  # the die has faces 0..5
    elif change == "format 1":
        data["format"] = "rulelang-save/1"
        data["log"] = [["chance", 3, [0, 1, 2, 3, 4, 5]], ["chance", 5, 0]]
    elif change == "edited":
        data["players"] = 4  # an edit by hand: the checksum no longer matches
    if change not in ("edited", "format", "format 1"):
        # the cases past the checksum: a save as a buggy or foreign writer might sign it
        data["checksum"] = saves.checksum(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


REPLAY = "cannot be replayed with"


@pytest.mark.parametrize(
    "change, messages",
    [
        ("not json", ["is not a saved game (not valid JSON"]),
        (
            "format",
            ["is not a saved game of this version of rulelang (expected format rulelang-save/3)"],
        ),
        (
            "format 1",
            [
                "was saved by an earlier rulelang (rulelang-save/1)",
                "this version cannot replay it. Start the game again.",
            ],
        ),
        ("edited", ["was changed or damaged since rulelang wrote it (its checksum does not"]),
        ("field", ["is damaged: 'players' is missing or wrong"]),
        ("event", ["is damaged: event 2 of its log is not an event"]),
        ("choice", [REPLAY, "event 3: 'no such option' is not an option of"]),
        (
            "decision",
            [
                REPLAY,
                "event 3: the rules now ask for a choice of",
                "not a choice of 'no_such_choice'",
            ],
        ),
        (
            "chance",
            [
                REPLAY,
                "event 2: the rules now ask for the chance event 'face', not the "
                "chance event 'no_such_die'",
            ],
        ),
        ("outcome", [REPLAY, "event 1: a shuffle outcome must be an order of 0..5"]),
        ("position", [REPLAY, "event 2: chance outcome 6 is not one of 0..5"]),
    ],
)
def test_a_damaged_save_is_refused_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: str, messages: list[str]
) -> None:
    assert run(["resume", str(damaged(tmp_path, change))]) == 65
    captured = capsys.readouterr()
    err = captured.err
    assert all(m in err for m in messages), err
    assert "Traceback" not in err
    assert err.startswith("error: ") and err.endswith("\n") and err.count("\n") == 1
    assert captured.out == ""  # refused before anything is played


def test_a_format_1_save_is_refused_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A save of rulelang-save/1, as the earlier rulelang wrote it: moves by the compiler's
    positions, which this version cannot map back to the rule file."""
    old = tmp_path / "old.json"
    old.write_text(
        json.dumps(
            {
                "format": "rulelang-save/1",
                "rules": HEIMLICH,
                "rules_sha256": saves.fingerprint(Path(HEIMLICH)),
                "players": 3,
                "seed": 4,
                "options": {},
                "names": ["A", "B", "C"],
                "bots": [1, 2],
                "log": [["chance", 3, [2, 0, 1, 5, 4, 3]], ["chance", 5, 1], ["choose", 0, 11, 4]],
            }
        ),
        encoding="utf-8",
    )
    code = run(["resume", str(old)])
    captured = capsys.readouterr()
    assert code == 65
    assert captured.err == (
        f"error: '{old}' was saved by an earlier rulelang (rulelang-save/1), which recorded "
        "moves by the compiler's positions or without a checksum; this version cannot "
        "replay it. Start the game again.\n"
    )
    assert captured.out == ""
    with pytest.raises(saves.SaveError, match="rulelang-save/1"):
        saves.read(old)


def test_resume_of_a_missing_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["resume", str(tmp_path / "nothing.json")]) == 64
    assert capsys.readouterr().err.strip() == f"error: no such saved game: {tmp_path}/nothing.json"


# --------------------------------------------------------------------------- records
def played(rules: rulelang.Ruleset, players: int, seed: int, moves: int) -> Game:
    """A game after `moves` random decisions, not over."""
    g = rules.new_game(players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        g.apply(rng.choice(g.legal_actions()))
    assert not g.is_over()
    return g


def save_of(path: Path, rules_path: str, g: Game, bots: list[int]) -> Path:
    saves.write(
        path,
        saves.Save(
            rules_path,
            saves.fingerprint(Path(rules_path)),
            g.players,
            g.seed,
            {},
            list(g.player_names),
            bots,
            g.record(),
        ),
    )
    return path


def no_inlining(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small ops are no longer copied into the ops that jump to them: every op's code
    changes (the positions of the decisions stay)."""
    monkeypatch.setattr(codegen, "INLINE_LINES", 0)


def shifted_ops(monkeypatch: pytest.MonkeyPatch) -> None:
    """One more op at the start: every op, and so every decision, moves one position on
    (what a save of format 1 recorded)."""
    build = codegen.Codegen.build

    def shifted(self: codegen.Codegen) -> rulelang.runtime.code.Code:
        self.emit(["return 1"], self.cur_span)
        return build(self)

    monkeypatch.setattr(codegen.Codegen, "build", shifted)


@pytest.mark.parametrize("change", [no_inlining, shifted_ops], ids=lambda f: f.__name__)
@pytest.mark.parametrize(
    "path, players, bots",
    [(HEIMLICH, 3, [1, 2]), (SABOTEUR, 4, [1, 2, 3])],
    ids=["heimlich", "saboteur"],
)
def test_a_save_survives_a_change_to_the_generated_code(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    change: Any,
    path: str,
    players: int,
    bots: list[int],
) -> None:
    rules = rulelang.compile_file(path)
    g = played(rules, players, 7, 40)
    while g.current_player() != 0:  # the human's turn, as when leaving a game
        g.apply(g.legal_actions()[0])
    save = save_of(tmp_path / "game.json", path, g, bots)

    def resume(out: str) -> str:
        """Resume, leave at once (saving to `out`), and return what was shown."""
        answers(monkeypatch, [], KeyboardInterrupt())
        assert run(["resume", str(save), "--save", str(tmp_path / out)]) == 130
        return capsys.readouterr().out

    before = resume("before.json")
    change(monkeypatch)
    changed = rulelang.compile_file(path)
    # the record replays to the same position under the other generated code...
    again = replay(changed, players, 7, saves.read(save).log, {}, g.player_names)
    assert again.view(None) == g.view(None)
    assert again.history(None) == g.history(None)
    assert position(again) == position(g)
    # ...and plays on like a replay under the first code: the same decisions and dice
    base = replay(rules, players, 7, saves.read(save).log, {}, g.player_names)
    assert position(base) == position(again)
    for game in (base, again):
        game.auto_chance = True
    rng = random.Random(1)
    for _ in range(30):
        if base.is_over():
            break
        pick = rng.randrange(len(base.legal_actions()))
        base.apply(base.legal_actions()[pick])
        again.apply(again.legal_actions()[pick])
        assert again.history(None) == base.history(None)
    assert position(again) == position(base)
    # `rulelang resume` under the other code shows the same table and saves the same record
    after = resume("after.json")
    assert after == before
    assert f"Resuming {rules.title} after {len(saves.read(save).log)} events." in after
    # (a choice with one option is taken without asking: the record may have grown,
    # alike under both codes)
    kept = saves.read(save).log
    assert saves.read(tmp_path / "after.json").log == saves.read(tmp_path / "before.json").log
    assert saves.read(tmp_path / "before.json").log[: len(kept)] == kept


def test_an_edited_save_event_is_refused_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = rulelang.compile_file(HEIMLICH)
    g = played(rules, 3, 2, 25)
    save = save_of(tmp_path / "game.json", HEIMLICH, g, [1, 2])
    data = json.loads(save.read_text(encoding="utf-8"))
    number, event = next((i, e) for i, e in enumerate(data["log"], 1) if e.get("choose") == "mover")
    assert event["option"] in ("Perry", "Schulz", "Doyle", "Jaques", "Bucci", "Mirkov")
    event["option"] = "Bond"  # no agent of that name
    save.write_text(json.dumps(data), encoding="utf-8")
    assert run(["resume", str(save)]) == 65  # an edit by hand: the checksum catches it
    assert "its checksum does not match" in capsys.readouterr().err
    data["checksum"] = saves.checksum(data)  # as a buggy writer might have signed it
    save.write_text(json.dumps(data), encoding="utf-8")
    assert run(["resume", str(save)]) == 65
    captured = capsys.readouterr()
    assert captured.err == (
        f"error: the saved game {save} cannot be replayed with {HEIMLICH}: event {number}: "
        "'Bond' is not an option of 'mover' now\n"
    )
    assert captured.out == ""
    # the same record through the API: a ReplayError, which is a UsageError
    with pytest.raises(rulelang.ReplayError, match=f"event {number}: 'Bond' is not an option"):
        replay(rules, 3, 2, data["log"])
    assert issubclass(rulelang.ReplayError, rulelang.UsageError)


def signed(tmp_path: Path, **changes: Any) -> Path:
    """A save as rulelang writes it, then changed and signed again (as a buggy or foreign
    writer would): the checks past the checksum must still refuse it."""
    good = tmp_path / "good.json"
    saves.write(
        good,
        saves.Save(
            HEIMLICH, saves.fingerprint(Path(HEIMLICH)), 3, 4, {}, ["A", "B", "C"], [1, 2], []
        ),
    )
    data = json.loads(good.read_text(encoding="utf-8"))
    data.update(changes)
    data["checksum"] = saves.checksum(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"bots": [1.5]}, "bots"),
        ({"bots": [1, 1]}, "bots"),
        ({"bots": [3]}, "bots"),
        ({"bots": [True]}, "bots"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**64}, "seed"),
        ({"players": 0}, "players"),
        ({"players": 10**6}, "players"),
        ({"names": ["A"]}, "names"),
        ({"options": {"win_score": 30}}, "options"),
    ],
)
def test_signed_saves_with_impossible_fields_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], changes: dict[str, Any], field: str
) -> None:
    path = signed(tmp_path, **changes)
    assert run(["resume", str(path)]) == 65
    assert capsys.readouterr().err == (
        f"error: saved game '{path}' is damaged: '{field}' is missing or wrong\n"
    )


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,  # nested past Python's recursion limit
        '{"format": "rulelang-save/3", "seed": ' + "9" * 5000 + "}",  # a 5,000-digit seed
        "\ufeff{}",  # a byte-order mark
        "",
        "null",
        '{"format": "rulelang-save/3"}',
    ],
)
def test_files_that_are_no_saves_are_refused_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    path = tmp_path / "odd.json"
    path.write_text(text, encoding="utf-8")
    assert run(["resume", str(path)]) == 65
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err


def test_a_binary_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "odd.json"
    path.write_bytes(bytes(range(256)) * 4)
    assert run(["resume", str(path)]) == 65
    assert "is not a saved game" in capsys.readouterr().err


WRITER = """
import sys, time
from pathlib import Path
from rulelang.storage import saves
path = Path(sys.argv[1])
rules = sys.argv[2]
n = 0
while True:
    n += 1
    saves.write(path, saves.Save(rules, "x" * 64, 3, n, {}, [], [1], [{"chance": "face",
                "outcome": n % 6}] * (n % 50)))
"""


def test_a_save_killed_midway_leaves_the_old_or_the_new_save(tmp_path: Path) -> None:
    """kill -9 at random moments: the save is always whole, and at most the one
    temporary file is left, which reading the save removes."""
    path = tmp_path / "game.json"
    rng = random.Random(5)
    for _ in range(12):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path), HEIMLICH])
        deadline = time.monotonic() + 30
        while not path.exists() and time.monotonic() < deadline:  # the first save is written
            time.sleep(0.01)
        time.sleep(rng.random() * 0.1)
        proc.kill()
        proc.wait()
        record = saves.read(path)  # whole, with a right checksum
        assert record.players == 3 and record.seed >= 1
        assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_a_save_whose_rule_file_changed_needs_force(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = tmp_path / "heimlich.rules"
    rules.write_text(Path(HEIMLICH).read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    leave_after(
        monkeypatch, capsys, ["play", str(rules), "-p", "3", "--bots", "2,3", "--no-store"], 3
    )
    rules.write_text(
        rules.read_text(encoding="utf-8") + "\n# a comment added later\n", encoding="utf-8"
    )
    assert run(["resume", "heimlich-seed0.save.json"]) == 65
    captured = capsys.readouterr()
    assert captured.err.startswith(f"error: {rules} changed since this game was saved (sha256 ")
    assert captured.err.endswith("; add --force to replay it anyway\n")
    assert captured.err.count("\n") == 1 and captured.out == ""
    answers(monkeypatch, ["1"] * 2000, EOFError())
    assert run(["resume", "heimlich-seed0.save.json", "--force"]) == 0
    captured = capsys.readouterr()
    assert "replaying it anyway (--force)" in captured.err
    assert "Game over." in captured.out
