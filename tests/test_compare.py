"""`rulelang compare`: two variants on the same seeds, each difference with its 95%
interval; the intervals themselves against published values."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from cli_support import cli, no_traceback

from rulelang.stats import newcombe, t_quantile, welch

EDGE = Path(__file__).parent / "games" / "edge.rules"
HEIMLICH = Path(__file__).parent.parent / "rulesets" / "heimlich.rules"


def compare_json(capsys: pytest.CaptureFixture[str], *args: object) -> dict[str, Any]:
    code, out, err = cli(capsys, "compare", *args, "--json")
    assert code == 0, err
    no_traceback(out, err)
    data: dict[str, Any] = json.loads(out)
    return data


def by_what(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {d["what"]: d for d in data["differences"]}


def test_an_option_that_favours_seat_1_is_a_significant_difference(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = compare_json(capsys, EDGE, "-p", "2", "-n", "300", "--b-option", "edge=3")
    diffs = by_what(data)
    seat1 = diffs["seat 1 win rate"]
    # B: seat 1 wins 80% of the games instead of 50%
    assert seat1["significant"]
    lo, hi = seat1["ci95"]
    assert 0 < lo < 0.3 < hi
    assert seat1["difference"] == pytest.approx(seat1["b"] - seat1["a"])
    assert diffs["seat 2 win rate"]["significant"] and diffs["seat 2 win rate"]["difference"] < 0
    # what the option does not touch does not differ
    for what in ("no winner", "mean turns", "mean decisions", "mean score at the end"):
        assert not diffs[what]["significant"], what
    assert data["a"]["label"] == str(EDGE)
    assert data["b"]["label"] == f"{EDGE} -o edge=3"
    assert data["a"]["games"] == data["b"]["games"] == 300


TICTACTOE = Path(__file__).parent.parent / "rulesets" / "examples" / "tictactoe.rules"


def test_bots_of_one_variant_a_search_bot_against_random(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the same game on the same seeds, seat 1 played by random (A) and by MCTS (B)
    data = compare_json(capsys, TICTACTOE, "-p", "2", "-n", "40", "--b-bots", "1:mcts:60,2:random")
    seat1 = by_what(data)["seat 1 win rate"]
    assert seat1["significant"] and seat1["difference"] > 0.15
    assert data["a"]["label"] == str(TICTACTOE)
    assert data["b"]["label"] == f"{TICTACTOE} --bots 1:mcts:60,2:random"


def test_the_same_file_twice_differs_in_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    data = compare_json(capsys, HEIMLICH, HEIMLICH, "-p", "3", "-n", "60", "--seed", "4")
    for d in data["differences"]:
        assert d["difference"] == 0, d
        assert not d["significant"], d
        lo, hi = d["ci95"]
        assert lo <= 0 <= hi
    whats = {d["what"] for d in data["differences"]}
    assert {"seat 1 win rate", "seat 3 win rate", "no winner", "mean turns"} <= whats
    assert any(w.startswith("agent=") for w in whats)  # the secret identities too


def test_shorter_variant_is_significantly_shorter(capsys: pytest.CaptureFixture[str]) -> None:
    data = compare_json(capsys, HEIMLICH, "-p", "3", "-n", "60", "--a-option", "win_score=12")
    turns = by_what(data)["mean turns"]
    # A ends at 12 points instead of 42: B - A is positive, and sure
    assert turns["significant"] and turns["ci95"][0] > 0


def test_compare_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "compare", EDGE, "-p", "2", "-n", "200", "--b-option", "edge=4")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == f"A: {EDGE}"
    assert lines[1] == f"B: {EDGE} -o edge=4"
    assert "the same seeds 0 to 199" in lines[2]
    seat1 = next(line for line in lines if line.startswith("seat 1 win rate"))
    assert seat1.endswith("yes")
    assert next(line for line in lines if line.startswith("mean turns")).endswith("no")
    at = next(i for i, line in enumerate(lines) if "differences significant" in line)
    assert lines[at].startswith("3 of ")  # seat 1, seat 2 and the first player
    changed = int(lines[at + 1].split()[0])
    assert 0 < changed <= 200 and lines[at + 1].endswith(
        "of 200 games ended otherwise in B than in A (winners, length or final numbers)"
    )
    # then how the games ended, per side: the file's one end rule, every game
    assert lines[at + 3].split() == ["how", "games", "ended", "A", "B"]
    assert lines[at + 4].startswith("end when plays >= player_count (edge.rules:")
    assert lines[at + 4].split()[-2:] == ["200", "200"]
    assert lines[-1] == "every game ended by the same end rule in B as in A"


def test_a_change_that_never_comes_into_play_is_said_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 18: a variant whose change no bot ever used gave a table of zeros with
    intervals such as `-0.0 (-2.2 .. +2.2)` and no word that every game was the same.
    win_score=42 is Heimlich's default: B plays A's games."""
    args = (HEIMLICH, "-p", "3", "-n", "30", "--b-option", "win_score=42")
    code, out, err = cli(capsys, "compare", *args)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[-1].startswith("No difference: all 30 games ended exactly alike in A and B")
    assert not any("significant" in line for line in lines)  # no table of zeros
    data = compare_json(capsys, *args)
    assert data["identical"] is True and data["games_ending_differently"] == 0
    # a change that does come into play is counted, game by game
    data = compare_json(capsys, HEIMLICH, "-p", "3", "-n", "30", "--b-option", "win_score=30")
    assert data["identical"] is False and 0 < data["games_ending_differently"] <= 30


def test_compare_report(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    page = tmp_path / "ab.html"
    code, out, err = cli(
        capsys, "compare", EDGE, "-p", "2", "-n", "100", "--b-option", "edge=3", "--report", page
    )
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    assert "Edge: A/B comparison" in html
    assert f"{EDGE} -o edge=3" in html
    # the differences (rates and means), seats, identities and lengths
    assert html.count("<svg") == 5
    assert "<td class='sig'>yes</td>" in html
    assert "<script" not in html
    assert re.search(
        r"\d+ of 100 games ended otherwise in B than in A \(winners, length or final numbers\)\.",
        html,
    )


def test_compare_report_says_when_no_game_changed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    page = tmp_path / "same.html"
    args = ("-p", "3", "-n", "20", "--b-option", "win_score=42", "--report", page)
    code, out, err = cli(capsys, "compare", HEIMLICH, *args)
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    assert "No difference: all 20 games ended exactly alike in A and B" in html


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([EDGE, "-p", "2", "-n", "10"], "two rule files, or one with --a-option/--b-option"),
        ([EDGE, "-p", "2", "--a-bots", "1:random", "--b-bots", "1:random"], "--a-bots/--b-bots"),
        ([EDGE, "-p", "2", "--b-bots", "1:mxts"], "--b-bots: unknown bot 'mxts'"),
        ([EDGE, EDGE, "-n", "10"], "2 to 4 players: say how many with -p N"),
        ([EDGE, EDGE, "-p", "2", "-n", "1"], "-n must be at least 2"),
        ([EDGE, EDGE, "-p", "9", "-n", "5"], "2 to 4 players, not 9"),
        ([EDGE, "-p", "2", "--b-option", "edge"], "name=value"),
        ([EDGE, "nowhere.rules", "-p", "2"], "no such rule file"),
    ],
)
def test_compare_usage_errors(
    capsys: pytest.CaptureFixture[str], args: list[object], message: str
) -> None:
    code, out, err = cli(capsys, "compare", *args)
    assert code == 64
    assert message in err
    no_traceback(out, err)


def test_newcombe_matches_his_published_examples() -> None:
    # Newcombe (1998), Statistics in Medicine 17:873-890, table II, method 10
    lo, hi = newcombe(48, 80, 56, 70)  # p2 - p1 = 56/70 - 48/80
    assert (round(lo, 4), round(hi, 4)) == (0.0524, 0.3339)
    lo, hi = newcombe(0, 29, 5, 56)
    assert (round(lo, 4), round(hi, 4)) == (-0.0381, 0.1926)


def test_t_quantiles_and_welch() -> None:
    for df, expected in [(1, 12.7062), (2, 4.3027), (10, 2.2281), (30, 2.0423), (1000, 1.9623)]:
        assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-4)
    # two samples worked by hand: means 2 and 5, variances 2.5 and 2.5, n 5 and 5:
    # se = 1, df = 8, t(0.975, 8) = 2.3060
    lo, hi = welch([0, 1, 2, 3, 4], [3, 4, 5, 6, 7])
    assert lo == pytest.approx(3 - 2.3060, abs=1e-4)
    assert hi == pytest.approx(3 + 2.3060, abs=1e-4)
    assert welch([2, 2, 2], [2, 2]) == (0, 0)
    assert welch([1], [2, 3]) == (-math.inf, math.inf)


def test_each_variant_is_labelled_with_every_option_it_is_played_with(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`-o win_score=30 --b-option win_score=40` played A with win_score=30 but
    labelled it with the bare file, as if A were the game as shipped."""
    args = (HEIMLICH, "-p", "3", "-n", "4", "-o", "win_score=30", "--b-option", "win_score=40")
    code, out, err = cli(capsys, "compare", *args)
    assert code == 0, err
    assert out.splitlines()[:2] == [
        f"A: {HEIMLICH} -o win_score=30",
        f"B: {HEIMLICH} -o win_score=40",
    ]
    data = compare_json(capsys, *args)
    assert (data["a"]["label"], data["b"]["label"]) == (
        f"{HEIMLICH} -o win_score=30",
        f"{HEIMLICH} -o win_score=40",
    )
