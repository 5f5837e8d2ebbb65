"""Saved games: leaving a game saves it, `resume` continues it, damaged saves are refused."""

from __future__ import annotations

import builtins
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import rulelang
from rulelang.cli import saves
from rulelang.cli.main import run
from rulelang.runtime.engine import replay

ROOT = Path(__file__).resolve().parent.parent
HEIMLICH = str(ROOT / "rulesets" / "heimlich.rules")
SABOTEUR = str(ROOT / "rulesets" / "saboteur.rules")


def answers(monkeypatch: pytest.MonkeyPatch, replies: list[str], then: BaseException) -> None:
    """Answer every prompt from `replies`, then raise `then` (Ctrl-C or end of input)."""
    it: Iterator[str] = iter(replies)

    def fake_input(prompt: str = "") -> str:
        for reply in it:
            return reply
        raise then
    monkeypatch.setattr(builtins, "input", fake_input)


def leave_after(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                argv: list[str], moves: int) -> tuple[int, str]:
    answers(monkeypatch, ["1"] * moves, KeyboardInterrupt())
    code = run(argv)
    return code, capsys.readouterr().err


def test_leaving_a_game_saves_it_and_says_how_to_continue(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    code, err = leave_after(monkeypatch, capsys,
                            ["play", HEIMLICH, "-p", "3", "--bots", "2,3", "--seed", "4"], 5)
    assert code == 130
    assert "Game left. Saved to heimlich-seed4.save.json" in err
    assert "rulelang resume heimlich-seed4.save.json" in err
    record = saves.read(tmp_path / "heimlich-seed4.save.json")
    assert (record.players, record.seed, record.bots) == (3, 4, [1, 2])
    assert sum(1 for e in record.log if e[0] == "choose" and e[1] == 0) >= 5


def test_a_saved_game_replays_to_the_same_position(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    save = tmp_path / "s.json"
    leave_after(monkeypatch, capsys, ["play", SABOTEUR, "-p", "4", "--bots", "2,3,4",
                                      "--seed", "3", "--save", str(save)], 12)
    record = saves.read(save)
    rules = rulelang.compile_file(SABOTEUR)
    first = replay(rules, 4, 3, record.log, record.options, record.names)
    again = replay(rules, 4, 3, saves.read(save).log, record.options, record.names)
    assert first.state.fingerprint() == again.state.fingerprint()
    assert first.state.log == list(record.log)
    assert not first.is_over() and first.current_player() == 0  # waiting for seat 1


def test_save_option_writes_after_every_move(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
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
    assert f"Saved to {save}" in capsys.readouterr().err


def test_resume_continues_to_the_end(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    leave_after(monkeypatch, capsys, ["play", HEIMLICH, "-p", "3", "--bots", "2,3"], 3)
    answers(monkeypatch, ["1"] * 2000, EOFError())
    assert run(["resume", "heimlich-seed0.save.json"]) == 0
    out = capsys.readouterr().out
    assert "Resuming Heimlich & Co after" in out and "Game over." in out


def damaged(tmp_path: Path, change: str) -> Path:
    good = tmp_path / "good.json"
    record = saves.Save(HEIMLICH, saves.fingerprint(Path(HEIMLICH)), 3, 4, {}, ["A", "B", "C"],
                        [1, 2], [])
    game = rulelang.compile_file(HEIMLICH).new_game(3, 4, names=["A", "B", "C"])
    record.log = list(game.state.log)
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
        data["log"].append(["choose", 0, data["log"][-1][1] + 1000, 0])
    elif change == "outcome":
        data["log"][0][2] = [0] * len(data["log"][0][2])
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("change, message", [
    ("not json", "is not a saved game (not valid JSON"),
    ("format", "is not a saved game of this version of rulelang"),
    ("field", "is damaged: 'players' is missing or wrong"),
    ("event", "cannot be replayed with"),
    ("choice", "cannot be replayed with"),
    ("outcome", "a shuffle outcome must be an order of"),
])
def test_a_damaged_save_is_refused_with_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], change: str, message: str) -> None:
    assert run(["resume", str(damaged(tmp_path, change))]) == 65
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert err.startswith("error: ")


def test_resume_of_a_missing_file_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["resume", str(tmp_path / "nothing.json")]) == 64
    assert capsys.readouterr().err.strip() == f"error: no such saved game: {tmp_path}/nothing.json"
