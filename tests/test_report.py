"""`rulelang simulate --report`: one self-contained HTML page with the plots and their
numbers; the figures the records carry for it (who moved first, public scores, game
lengths); the terminal table with long identity names; the one line when matplotlib
is missing. tests/test_report_browser.py renders the page in a real browser."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest
from cli_support import cli, no_traceback
from test_simulate_cut_off import SOMETIMES  # a third of the games never end

import rulelang

EDGE = Path(__file__).parent / "games" / "edge.rules"

# the seat that takes turn 1 always wins; who that is the rules draw (order random)
OPENER = """game "opener"
players 2..4
order random
global { plays: int = 0  opener: player = none }
turn {
  choose n in 1..2
  if opener == none { set opener = current }
  set plays += 1
}
end when plays >= player_count { win [opener] }
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def simulate_json(capsys: pytest.CaptureFixture[str], *args: object) -> dict:
    code, out, err = cli(capsys, "simulate", *args, "--json")
    assert code == 0, err
    data: dict = json.loads(out)
    return data


# a decision in setup (turn 0) comes before turn 1: the first player is still the one
# whose turn is turn 1
SETUP_CHOICE = """setup {
  choose x in 1..3 prompt "a choice before turn 1"
}
"""


@pytest.mark.parametrize("setup", ["", SETUP_CHOICE])
def test_first_player_is_who_took_turn_1_not_seat_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, setup: str
) -> None:
    rules = write(tmp_path, "opener.rules", OPENER + setup)
    data = simulate_json(capsys, rules, "-p", "4", "-n", "200")
    assert data["mean_decisions"] == (5 if setup else 4)
    first = data["first_player"]
    assert first["games"] == 200
    assert first["win_rate"] == 1.0 and first["others_win_rate"] == 0.0
    # the seats share the wins: the order is drawn, so seat 1 is not always first
    rates = [s["win_rate"] for s in data["seats"]]
    assert all(0.1 < r < 0.4 for r in rates), rates
    lo, _ = first["win_ci95"]
    assert lo > 0.95


def test_first_player_advantage_of_seat_1(capsys: pytest.CaptureFixture[str]) -> None:
    fair = simulate_json(capsys, EDGE, "-p", "3", "-n", "300")["first_player"]
    edged = simulate_json(capsys, EDGE, "-p", "3", "-n", "300", "-o", "edge=4")["first_player"]
    # seat 1 (who moves first) wins 50% (fair) or 90% of games; each other player wins
    # the rest: both win together when seat 1 loses
    assert fair["win_ci95"][0] < 0.5 < fair["win_ci95"][1]
    assert edged["win_ci95"][0] > 0.8
    assert edged["others_win_ci95"][1] < 0.2


def test_scores_and_lengths_in_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    data = simulate_json(capsys, EDGE, "-p", "2", "-n", "100")
    score = data["scores"]["score"]
    # each player chose 1..3 once: the mean of a uniform choice is 2
    assert 1.7 < score["mean"] < 2.3
    assert len(score["seat_means"]) == 2
    assert "role" not in data["scores"]  # a text, hidden: not a score
    assert data["mean_turns"] == 2.0


def test_table_aligns_long_identity_names(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "simulate", EDGE, "-p", "2", "-n", "40")
    assert code == 0, err
    rows = [line for line in out.splitlines() if re.search(r"\d%\s+\d", line)]
    assert any("an_uncommonly_long_secret_role_name" in r for r in rows)
    # every row's win rate ends in the same column
    ends = {line.index("%") for line in rows}
    assert len(ends) == 1, out
    assert "first player (took turn 1): wins" in out


def report_of(capsys: pytest.CaptureFixture[str], tmp_path: Path, *args: object) -> str:
    page = tmp_path / "report.html"
    code, out, err = cli(capsys, "simulate", *args, "--report", page)
    assert code == 0, err
    no_traceback(out, err)
    return page.read_text(encoding="utf-8")


def test_report_is_one_self_contained_page(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    html = report_of(capsys, tmp_path, EDGE, "-p", "3", "-n", "120", "--seed", "7", "-o", "edge=2")
    assert html.startswith("<!DOCTYPE html>")
    # nothing outside the page: no scripts, no linked files, no addresses to fetch
    assert "<script" not in html
    # (the SVG's markers refer to their own definitions: href="#...")
    links = re.findall(r"""(?:src|href)\s*=\s*["']([^"']*)""", html)
    assert all(link.startswith("#") for link in links), links
    assert all(u.startswith("#") for u in re.findall(r"url\(([^)]*)\)", html))
    assert "@import" not in html
    # the header: enough to run it again
    for fact in [
        "Edge: balance report",
        str(EDGE),
        "120 (seeds 7 to 126)",
        "edge=2",
        rulelang.__version__,
        "UTC",
    ]:
        assert fact in html, fact
    for title in [
        "Win rate per seat",
        "Win rate per secret identity",
        "First-player advantage",
        "Game length",
        "Final scores",
        "Cut-off games",
    ]:
        assert f"<h2>{title}</h2>" in html
    # plots inline as SVG, one for seats, identities, first player, lengths and the score
    assert html.count("<svg") == 5
    assert html.count('role="img"') == 5
    # the numbers under the plots, as tables
    assert html.count("<table>") >= 5
    assert re.search(r"<td>seat 1</td><td>\d+</td><td>\d+\.\d%</td>", html)
    assert "None: every game ended" in html


def test_report_lists_cut_off_games(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rules = write(tmp_path, "sometimes.rules", SOMETIMES)
    html = report_of(capsys, tmp_path, rules, "-p", "2", "-n", "30", "--max-decisions", "60")
    data = simulate_json(capsys, rules, "-p", "2", "-n", "30", "--max-decisions", "60")
    seeds = data["cut_off"]["seeds"]
    assert seeds
    assert f"{len(seeds)} of 30 games" in html
    assert "Seeds: " + ", ".join(map(str, seeds)) in html
    assert "No score" in html  # no public number of a player


def test_report_without_matplotlib_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    page = tmp_path / "r.html"
    code, out, err = cli(capsys, "simulate", EDGE, "-p", "2", "-n", "5", "--report", page)
    assert code == 64
    assert err.strip().count("\n") == 0
    assert "matplotlib" in err and "pip install 'rulelang[report]'" in err
    assert not page.exists() and out == ""


@pytest.mark.parametrize("where", ["nowhere/r.html", ".", "/sys/r.html"])
def test_report_to_a_bad_place_is_refused_before_playing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, where: str
) -> None:
    """Before the games, not after them: /sys refuses a new file even to root, whom
    permission bits do not stop."""
    code, out, err = cli(
        capsys, "simulate", EDGE, "-p", "2", "-n", "5", "--report", tmp_path / where
    )
    assert code == 64
    assert "--report" in err and out == ""
    no_traceback(out, err)


def test_the_writability_probe_leaves_everything_as_it_was(tmp_path: Path) -> None:
    """The try that finds an unwritable place changes nothing where it succeeds: a file
    there keeps its bytes and its time, and no probe is left beside it."""
    from rulelang.cli.report import unwritable

    page = tmp_path / "r.html"
    page.write_text("mine", encoding="utf-8")
    os.utime(page, (1_000_000, 1_000_000))
    assert unwritable(page) is None and unwritable(tmp_path / "new.html") is None
    assert page.read_text(encoding="utf-8") == "mine" and page.stat().st_mtime == 1_000_000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html"]
    assert unwritable(Path("/sys/r.html")) == "the folder /sys cannot be written to: " + (
        "Permission denied"
    )


def test_report_names_the_extreme_games_and_counts_identities_by_games(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 18: a report says which games to look at again, and an identity's rate is
    over games (players of a team win together), with its seats apart."""
    rules = Path(__file__).parent.parent / "rulesets" / "saboteur-stoneseekers.rules"
    args = (rules, "-p", "10", "-n", "12", "--seed", "3")
    html = report_of(capsys, tmp_path, *args)
    data = simulate_json(capsys, *args)
    short, long = data["extremes"]["shortest"], data["extremes"]["longest"]
    assert (
        f"Shortest game: {short['decisions']} decisions (seed {short['seed']}); longest: "
        f"{long['decisions']} decisions (seed {long['seed']})"
    ) in html
    saboteurs = next(r for r in data["identities"] if r["identity"] == "role=saboteur")
    assert saboteurs["games"] == 12 < saboteurs["seats"]
    row = f"<td>role=saboteur</td><td>12</td><td>{saboteurs['wins']}</td>"
    assert row in html and f"<td>{saboteurs['seats']}</td>" in html


@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_a_report_never_overwrites_a_file_that_is_not_a_page(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    """`simulate game.rules --report game.rules` replaced the designer's rule file with
    the HTML page (and `--report notes.txt` their notes): a report is a .html file."""
    rules = tmp_path / "game.rules"
    rules.write_text(EDGE.read_text(encoding="utf-8"), encoding="utf-8")
    mine = rules.read_text(encoding="utf-8")
    variant = ["--b-option", "edge=3"] if command == "compare" else []
    code, out, err = cli(capsys, command, rules, "-p", "2", "-n", "5", *variant, "--report", rules)
    assert (code, out) == (64, "")
    assert err.strip() == f"error: --report {rules}: name a .html file (the report is a web page)"
    assert rules.read_text(encoding="utf-8") == mine
