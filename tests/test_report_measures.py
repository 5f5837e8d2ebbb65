"""Issue 18, "reports say why and what": `simulate`, `compare` and `--report` count the
games each end rule ended (the games cut off by the decision limit apart), give the
rule file's measures (mean, spread, histograms), and the seed of the most lopsided
game, which replays alone with `--seed S -n 1` (docs/cli.md, docs/language.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from cli_support import cli, no_traceback

from rulelang.simulation.measured import margin
from rulelang.simulation.summary import Record, Summary

# A race to `goal`; eight rounds without a winner draw; a quarter of the tables (drawn
# in setup) are stuck: nobody moves and no end rule can hold, so the bots never end it.
DASH = """game "Dash"
players 2..3
param goal = 12 "squares to the finish"
player { pos: int = 0 }
global { rounds: int = 0  stuck: bool = false }
setup {
  pick s in [true, false, false, false]
  set stuck = s
}
turn {
  choose step in 1..3
  if not stuck { set current.pos += step }
  if current == players[len(players) - 1] { set rounds += 1 }
}
end when any(p.pos >= goal for p in players) { win [p for p in players where p.pos >= goal] }
end when rounds >= 5 and not stuck { draw players }
measure moved per player = me.pos "squares moved"
measure margin = max(p.pos for p in players) - min(p.pos for p in players) "first over last"
measure close = max(p.pos for p in players) - min(p.pos for p in players) <= 1 "a close race"
measure never = if rounds > 1000 then 1 else none
"""
WON_AT, DRAWN_AT = 15, 16  # the lines of the two end rules


@pytest.fixture
def dash(tmp_path: Path) -> Path:
    path = tmp_path / "dash.rules"
    path.write_text(DASH, encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: object) -> dict[str, Any]:
    code, out, err = cli(capsys, *args, "--json")
    assert code == 0, err
    no_traceback(out, err)
    data: dict[str, Any] = json.loads(out)
    return data


def simulate(capsys: pytest.CaptureFixture[str], dash: Path, *args: object) -> dict[str, Any]:
    return run(capsys, "simulate", dash, "-p", "2", "--max-decisions", "40", *args)


def alone(
    capsys: pytest.CaptureFixture[str], dash: Path, seed: int, *args: object
) -> dict[str, Any] | None:
    """The game of one seed, played alone; None when it is cut off (exit 70, R010)."""
    argv = ("simulate", dash, "-p", "2", "-n", "1", "--seed", seed, "--max-decisions", "40")
    code, out, err = cli(capsys, *argv, *args, "--json")
    if code == 70 and "R010" in err:
        return None
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def test_simulate_counts_the_games_each_end_rule_ended(
    capsys: pytest.CaptureFixture[str], dash: Path
) -> None:
    data = simulate(capsys, dash, "-n", "60", "--seed", "1")
    ends = data["endings"]
    assert [(e["rule"], e["where"]) for e in ends] == [
        ("end when any(p.pos >= goal for p in players)", f"dash.rules:{WON_AT}"),
        ("end when rounds >= 5 and not stuck", f"dash.rules:{DRAWN_AT}"),
        ("cut off by the decision limit", ""),
    ]
    won, drawn, cut = (e["games"] for e in ends)
    assert won > 0 and drawn > 0 and cut == data["cut_off"]["games"] > 0
    assert won + drawn + cut == data["games_run"] == 60
    assert drawn == data["games_without_winner"]  # only the second rule draws
    assert ends[0]["share"] == pytest.approx(won / 60)
    code, out, err = cli(
        capsys, "simulate", dash, "-p", "2", "-n", "60", "--seed", "1", "--max-decisions", "40"
    )
    assert code == 0, err
    text = out[out.index("how games ended:") :].splitlines()
    assert text[1].split()[-3:] == [str(won), "games", f"{won / 60:.1%}"]
    assert (
        text[1]
        .strip()
        .startswith(f"end when any(p.pos >= goal for p in players) (dash.rules:{WON_AT})")
    )
    assert text[3].strip().startswith("cut off by --max-decisions 40")


def test_measures_and_the_most_lopsided_game_are_those_of_the_games_replayed(
    capsys: pytest.CaptureFixture[str], dash: Path
) -> None:
    """Each seed played alone (`--seed S -n 1`) gives its game's measures; the run's
    figures are over those games, and its most lopsided game is the one whose leader
    leads the next by most (in the first measure per player), lowest seed first."""
    data = simulate(capsys, dash, "-n", "16", "--seed", "5")
    per_game: dict[int, dict[str, Any]] = {}
    for seed in range(5, 21):
        game = alone(capsys, dash, seed)
        if game is not None:
            per_game[seed] = game
    assert len(per_game) == data["games"] > 0
    m = data["measures"]
    margins = [g["measures"]["margin"]["mean"] for g in per_game.values()]
    assert m["margin"]["mean"] == pytest.approx(sum(margins) / len(margins))
    assert (m["margin"]["min"], m["margin"]["max"]) == (min(margins), max(margins))
    assert m["margin"]["games"] == m["margin"]["values"] == len(per_game)
    assert m["margin"]["doc"] == "first over last" and not m["margin"]["yes_no"]
    moved = [v for g in per_game.values() for v in g["measures"]["moved"]["seat_means"]]
    assert m["moved"]["per_player"] and m["moved"]["values"] == 2 * len(per_game)
    assert m["moved"]["mean"] == pytest.approx(sum(moved) / len(moved))
    close = [g["measures"]["close"]["mean"] for g in per_game.values()]
    assert m["close"]["yes_no"] and m["close"]["mean"] == pytest.approx(sum(close) / len(close))
    assert m["never"]["games"] == m["never"]["values"] == 0  # none in every game
    lopsided = data["extremes"]["lopsided"]
    seats = {s: g["measures"]["moved"]["seat_means"] for s, g in per_game.items()}
    gaps = {s: abs(first - second) for s, (first, second) in seats.items()}
    assert lopsided["measure"] == "moved" and lopsided["margin"] == max(gaps.values())
    assert lopsided["seed"] == min(s for s, gap in gaps.items() if gap == max(gaps.values()))
    again = per_game[lopsided["seed"]]
    assert again["extremes"]["lopsided"] == lopsided  # replayed: the very same game
    assert again["mean_decisions"] == lopsided["decisions"]


def test_the_text_gives_each_measure_and_the_lopsided_seed(
    capsys: pytest.CaptureFixture[str], dash: Path
) -> None:
    code, out, err = cli(capsys, "simulate", dash, "-p", "2", "-n", "30", "--max-decisions", "40")
    assert code == 0, err
    data = simulate(capsys, dash, "-n", "30")
    lines = out[out.index("measures (finished games)") :].splitlines()
    assert lines[0].split() == [
        "measures",
        "(finished",
        "games)",
        "mean",
        "sd",
        "min",
        "25%",
        "median",
        "75%",
        "max",
        "games",
    ]
    margin_row = data["measures"]["margin"]
    assert lines[2].split() == [
        "margin",
        f"{margin_row['mean']:.1f}",
        f"{margin_row['sd']:.1f}",
        *(f"{margin_row[k]:g}" for k in ("min", "q1", "median", "q3", "max")),
        str(data["games"]),
    ]
    assert lines[1].startswith("moved (per player)")
    assert lines[3].split() == [
        "close",
        "(yes/no)",
        f"{data['measures']['close']['mean']:.1%}",
        str(data["games"]),
    ]
    assert lines[4].split() == ["never", "none", "0"]
    lop = data["extremes"]["lopsided"]
    assert (
        f"most lopsided game: first place {lop['margin']:g} ahead of the second in moved "
        f"(seed {lop['seed']})"
    ) in out


def test_without_a_measure_per_player_the_public_score_tells_the_lopsided_game() -> None:
    assert margin({"m": 3, "yes": [True, False]}, [{"points": 4.0}, {"points": 9.0}]) == (
        5.0,
        "points",
        True,  # guessed: no measure per player says what a lead is
    )
    assert margin({"m": 3}, []) is None
    assert margin({"gold": [7, None, 2, 7]}, []) == (0, "gold", False)  # a tie on top
    assert margin({"gold": [None, 2]}, [{"points": 1.0}, {"points": 5.0}]) is None


def test_a_lead_in_a_guessed_number_says_so_and_how_to_choose(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, dash: Path
) -> None:
    """Without a measure per player the lead is counted in the players' first public
    number, which may be no score at all (a bid): the reports say which number it is
    and how to choose; with a measure, they name the measure alone."""
    guessed = tmp_path / "bids.rules"
    guessed.write_text(
        DASH.replace("player { pos: int = 0 }", "player { bid: int = 0  pos: int = 0 }")
        .replace("set current.pos += step }", "set current.pos += step  set current.bid = step }")
        .replace('measure moved per player = me.pos "squares moved"\n', ""),
        encoding="utf-8",
    )
    lop = simulate(capsys, guessed, "-n", "30")["extremes"]["lopsided"]
    assert lop["measure"] == "bid" and lop["guessed"] is True
    argv = ("simulate", guessed, "-p", "2", "-n", "30", "--max-decisions", "40")
    code, out, err = cli(capsys, *argv)
    assert code == 0, err
    assert (
        f"first place {lop['margin']:g} ahead of the second in bid, the first number every "
        "player shows (a `measure NAME per player` chooses)" in out
    )
    declared = simulate(capsys, dash, "-n", "30")["extremes"]["lopsided"]
    assert declared["measure"] == "moved" and "guessed" not in declared


def test_a_tie_on_top_is_no_lead_and_games_without_one_name_no_lopsided_seed() -> None:
    """A cooperative game (every player scores alike) has no most lopsided game."""
    summary = Summary(players=2)
    for seed, scores in ((1, [4, 4]), (2, [7, 7]), (3, [2, 2])):
        summary.add(Record(["win", "win"], 3, 6, [{}, {}], seed, end=0, measures={"s": scores}))
    assert "lopsided" not in summary.extremes() and "most lopsided" not in summary.table()
    summary.add(Record(["win", "loss"], 3, 9, [{}, {}], 4, end=0, measures={"s": [5, 2]}))
    summary.add(Record(["win", "loss"], 3, 8, [{}, {}], 5, end=0, measures={"s": [1, 4]}))
    assert summary.extremes()["lopsided"] == {
        "margin": 3,
        "measure": "s",
        "decisions": 9,
        "seed": 4,
    }


def test_compare_says_how_the_change_moved_games_between_end_rules(
    capsys: pytest.CaptureFixture[str], dash: Path
) -> None:
    """A shorter race (goal 6) ends more games by the finish and fewer by the rounds:
    compare counts the games of each end rule per side, the seeds that ended by another
    rule, and each measure's difference with its interval."""
    args = ("-p", "2", "-n", "20", "--seed", "3", "--max-decisions", "40")
    data = run(capsys, "compare", dash, *args, "--b-option", "goal=6")
    diffs = {d["what"]: d for d in data["differences"]}
    won, drawn = diffs[f"ended by dash.rules:{WON_AT}"], diffs[f"ended by dash.rules:{DRAWN_AT}"]
    assert won["difference"] > 0 > drawn["difference"]
    assert {"mean moved", "mean margin", "close: yes"} <= set(diffs)
    assert "mean never" not in diffs  # none in every game: nothing to compare
    # the seeds that ended by another rule, counted by playing each alone
    moved = 0
    for seed in range(3, 23):
        games = [alone(capsys, dash, seed, *extra) for extra in ((), ("-o", "goal=6"))]
        ended = [
            "cut off" if g is None else next(e["rule"] for e in g["endings"] if e["games"])
            for g in games
        ]
        moved += ended[0] != ended[1]
    assert data["games_ending_by_another_rule"] == moved > 0
    code, out, err = cli(capsys, "compare", dash, *args, "--b-option", "goal=6")
    assert code == 0, err
    assert out.splitlines()[-1] == f"{moved} of 20 games ended by another end rule in B than in A"


def test_the_report_shows_the_end_rules_and_the_measures(
    capsys: pytest.CaptureFixture[str], dash: Path, tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")
    page = tmp_path / "report.html"
    args = ("-p", "2", "-n", "40", "--max-decisions", "40", "--report", page)
    code, out, err = cli(capsys, "simulate", dash, *args)
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    for title in ("How games ended", "Measures", "Cut-off games"):
        assert f"<h2>{title}</h2>" in html
    # the end rule as its file writes it, coloured by the rule files' lexer
    cell = re.search(
        rf"<td>(<code class='rules'>.*?</code>)</td><td>dash.rules:{WON_AT}</td>", html
    )
    assert cell, html
    assert re.sub("<[^>]+>", "", cell[1]) == "end when any(p.pos &gt;= goal for p in players)"
    assert '<span class="k">end</span>' in cell[1] and '<span class="nb">any</span>' in cell[1]
    assert '<span class="ow">in</span> <span class="nb">players</span>' in cell[1]
    assert "<td>cut off by the decision limit</td>" in html
    # a histogram for each measure that is a number and was not none: moved and margin
    assert 'aria-label="Histogram of moved, every player"' in html
    assert 'aria-label="Histogram of margin"' in html
    assert "Histogram of close" not in html and "Histogram of never" not in html
    assert re.search(r"<td>close \(yes/no\)</td><td>yes in \d+\.\d%</td>", html)
    assert "moved (per player): squares moved; margin: first over last; " in html
    assert "Most lopsided: the first place" in html
    compared = tmp_path / "compare.html"
    code, out, err = cli(
        capsys, "compare", dash, *args[:-2], "--b-option", "goal=6", "--report", compared
    )
    assert code == 0, err
    html = compared.read_text(encoding="utf-8")
    assert html.count("<h2>How games ended</h2>") == 1 and "<h2>Measures</h2>" in html
    assert 'aria-label="Histogram of margin, A (blue) and B (orange)"' in html
    assert re.search(r"\d+ of 40 games ended by another end rule in B than in A\.", html)


def test_a_measure_that_fails_stops_the_run_with_its_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.rules"
    path.write_text(DASH + "measure far = [p.pos for p in players][7]\n", encoding="utf-8")
    code, out, err = cli(capsys, "simulate", path, "-p", "2", "-n", "5", "--max-decisions", "40")
    assert code == 70
    no_traceback(out, err)
    assert "bad.rules:21:15: runtime error[R003]: index 7 is outside the list" in err


def test_a_slow_run_says_how_many_games_a_second() -> None:
    """A simulation of search bots plays a game in a few seconds: its first line said
    "0 games/s"; it now gives the figures that tell the rate."""
    from rulelang.simulation.summary import rate_text

    assert [rate_text(x) for x in (2835.4, 12.6, 3.14, 0.347, 0.0)] == [
        "2835",
        "13",
        "3.1",
        "0.35",
        "0.00",
    ]


def test_one_game_ended_so_is_one_game_not_games(capsys: pytest.CaptureFixture[str]) -> None:
    tictactoe = Path(__file__).resolve().parent.parent / "rulesets/examples/tictactoe.rules"
    code, out, _err = cli(capsys, "simulate", str(tictactoe), "-n", "1", "--seed", "3")
    assert code == 0
    [row] = out[out.index("how games ended:") :].splitlines()[1:2]
    assert row.split()[-3:] == ["1", "game", "100.0%"]
