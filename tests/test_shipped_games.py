"""Variants of the shipped games by name: `extends "saboteur"` from any folder, the
errors that say how to name a shipped game, and `rulelang new`, whose starter files
validate, pass their rule tests and play."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import cli, no_traceback

import rulelang
from rulelang import RuleError


def diagnostics(path: Path) -> list[rulelang.Diagnostic]:
    with pytest.raises(RuleError) as info:
        rulelang.compile_file(path)
    return info.value.diagnostics


def test_a_variant_by_name_changes_what_it_overrides(tmp_path: Path) -> None:
    variant = tmp_path / "short.rules"
    variant.write_text('extends "saboteur"\ngame "Short"\noverride param rounds = 1 "one"\n')
    rules = rulelang.compile_file(variant)
    game = rules.new_game(3, seed=2)
    assert (rules.title, game.value("rounds")) == ("Short", 1)
    assert game.attribute("round") == 1 and len(game.zone("hand", 0)) == 6


def test_a_name_no_shipped_game_has_says_the_nearest(tmp_path: Path) -> None:
    variant = tmp_path / "v.rules"
    variant.write_text('extends "sabotuer"\n')
    [diag] = diagnostics(variant)
    assert (diag.code, diag.message) == (
        "E104",
        "cannot read 'sabotuer': no shipped game of that name",
    )
    assert diag.hint == "did you mean 'saboteur'?"
    assert (diag.span.line, diag.span.col) == (1, 9)


def test_a_refused_path_says_how_to_name_the_shipped_game(tmp_path: Path) -> None:
    variant = tmp_path / "mine" / "v.rules"
    variant.parent.mkdir()
    variant.write_text('extends "../elsewhere/heimlich.rules"\n')
    [diag] = diagnostics(variant)
    assert diag.code == "E110"
    assert diag.hint.startswith(
        'to build on a shipped game, name it without a path: extends "heimlich"'
    )
    assert "saboteur-stoneseekers" in diag.hint and "--allow-path DIR" in diag.hint


@pytest.mark.parametrize(("base", "players"), [(None, 2), ("saboteur", 3), ("heimlich", 2)])
def test_new_writes_a_starter_that_validates_passes_its_tests_and_plays(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    base: str | None,
    players: int,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, "new", "my-game", *(["--from", base] if base else []))
    assert code == 0 and "wrote my-game.rules and my-game.rulestest" in out, err
    text = (tmp_path / "my-game.rules").read_text()
    assert 'game "My game"' in text
    if base:
        assert f'extends "{base}"' in text and "# override param " in text
    assert cli(capsys, "validate", "my-game.rules")[0] == 0
    code, out, err = cli(capsys, "test", "my-game.rulestest")
    assert code == 0 and "passed" in out and "failed" not in out, out + err
    code, out, err = cli(capsys, "simulate", "my-game.rules", "-p", players, "-n", 20)
    assert code == 0 and "20 games" in out, err


def test_a_changed_param_of_the_starter_variant_is_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    cli(capsys, "new", "quick", "--from", "heimlich")
    path = tmp_path / "quick.rules"
    path.write_text(
        path.read_text().replace("# override param win_score = 42", "override param win_score = 12")
    )
    assert rulelang.compile_file(path).new_game(3).value("win_score") == 12


def test_new_refuses_what_is_there_and_unknown_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "taken.rulestest").write_text("# mine\n")
    code, out, err = cli(capsys, "new", "taken")
    assert code == 64 and "taken.rulestest is there already" in err
    assert not (tmp_path / "taken.rules").exists()
    assert (tmp_path / "taken.rulestest").read_text() == "# mine\n"
    code, out, err = cli(capsys, "new", "x", "--from", "sabotuer")
    assert (code, err.strip()) == (
        64,
        "error: no shipped game 'sabotuer'; did you mean 'saboteur'?",
    )
    no_traceback(out, err)


def test_the_commands_said_after_new_and_a_save_can_be_pasted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A name with a blank was said bare ('rulelang validate my game.rules'), which a
    shell reads as two files; now it is quoted as a shell reads it."""
    import shlex

    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, "new", "my game")
    assert code == 0, err
    validate, test = out.strip().split("next: ")[1].split("; ")
    assert shlex.split(validate) == ["rulelang", "validate", "my game.rules"]
    assert shlex.split(test) == ["rulelang", "test", "my game.rulestest"]
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    code, out, err = cli(capsys, "play", "my game.rules", "-p", "2", "--no-store")
    assert code == 0, err
    resume = [x for x in (out + err).splitlines() if "rulelang resume" in x][-1].strip()
    assert shlex.split(resume) == ["rulelang", "resume", "my game-seed0.save.json"]


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("two\nlines", "may not hold control characters"),
        ("tab\tbed", "may not hold control characters"),
        ("   ", "is not a name for a game"),
        ("a" * 300, "too long"),
    ],
)
def test_new_refuses_a_name_no_file_or_title_can_hold(
    name: str,
    says: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A newline in the name made a starter whose heading comment and title broke over
    two lines (E001, E002: not the file that validates that `new` promises), and a name
    past the file system's length was an internal error (exit 1)."""
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, "new", name)
    assert code == 64 and says in err, err
    assert list(tmp_path.iterdir()) == []
    no_traceback(out, err)


def test_a_second_extends_is_refused(tmp_path: Path) -> None:
    """`extends "heimlich"` then `extends "saboteur"` validated: the second base
    silently replaced the first, whose players, params and rules were gone."""
    path = tmp_path / "two.rules"
    path.write_text('extends "heimlich"\nextends "saboteur"\ngame "Two"\n', encoding="utf-8")
    [diag] = diagnostics(path)
    assert (diag.code, diag.span.line) == ("E125", 2)
    assert diag.message == "a file extends one base: 'extends' is already given at 1:1"
