"""`simulate --json` says what a designer needs to publish its figures and run them
again (docs/cli.md, "run"): the rule file and every file it read, each with its
SHA-256, the options, players, bots, seed, games asked and played, limits, rulelang's
version, and the command that plays the same games."""

from __future__ import annotations

import hashlib
import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from cli_support import cli

import rulelang

BASE = """game "Tally"
players 2..3
param goal = 6 "points to reach"
card token from "tokens.yaml" { worth: int }
player { score: int = 0 }
turn {
  choose n in 1..3
  set current.score += n
}
end when max(p.score for p in players) >= goal {
  win [p for p in players where p.score == max(q.score for q in players)]
}
"""


def simulate_json(capsys: pytest.CaptureFixture[str], *args: object) -> dict[str, Any]:
    code, out, err = cli(capsys, "simulate", *args, "--json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def variant(tmp_path: Path) -> Path:
    """A variant extending a base whose kind reads a data file."""
    (tmp_path / "base.rules").write_text(BASE, encoding="utf-8")
    (tmp_path / "tokens.yaml").write_text("- {worth: 1}\n- {worth: 2}\n", encoding="utf-8")
    rules = tmp_path / "variant.rules"
    rules.write_text('extends "base.rules"\ngame "Tally, short"\n', encoding="utf-8")
    return rules


def test_the_json_says_how_to_run_the_same_games_again(
    variant: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = (variant, "-p", "3", "-n", "12", "--seed", "40", "-o", "goal=5")
    data = simulate_json(capsys, *args, "--bots", "2:random", "--max-decisions", "500")
    run = data["run"]
    assert run["rulelang"] == rulelang.__version__
    assert run["rule_file"] == {"path": str(variant), "sha256": sha(variant)}
    folder = variant.parent
    read = [(Path(f["path"]).name, f["sha256"]) for f in run["files"]]
    assert read == [(n, sha(folder / n)) for n in ("variant.rules", "base.rules", "tokens.yaml")]
    assert run["players"] == 3 and run["options"] == {"goal": "5"}
    assert run["bots"] == "2:random" and run["seat_bots"] == [None, "random", None]
    assert run["seed"] == 40 and run["games_asked"] == run["games_played"] == 12
    assert run["limits"]["decisions"] == 500
    # the figures it published are kept as they were: the summary's keys, beside "run"
    assert data["games"] == 12 and data["players"] == 3 and len(data["seats"]) == 3
    # its command plays the very same games
    words = shlex.split(run["command"])
    assert words[:2] == ["rulelang", "simulate"]
    again = simulate_json(capsys, *words[2:])
    assert again["seats"] == data["seats"] and again["run"]["command"] == run["command"]


def test_a_change_to_a_file_the_rules_read_changes_its_hash(
    variant: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = simulate_json(capsys, variant, "-p", "2", "-n", "2")["run"]
    data = variant.parent / "tokens.yaml"
    data.write_text(data.read_text() + "- {worth: 3}\n", encoding="utf-8")
    after = simulate_json(capsys, variant, "-p", "2", "-n", "2")["run"]
    assert after["rule_file"] == before["rule_file"]  # the main file is the same ...
    assert after["files"][2]["sha256"] != before["files"][2]["sha256"]  # ... its data not
    assert after["files"][:2] == before["files"][:2]


def test_compare_json_says_both_variants_and_the_command(
    variant: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = variant.parent / "base.rules"
    args = (base, "-p", "2", variant, "-n", "6", "-o", "goal=5", "--b-option", "goal=4")
    code, out, err = cli(capsys, "compare", *args, "--b-bots", "1:random", "--json")
    assert code == 0, err
    data = json.loads(out)
    run = data["run"]
    assert run["players"] == 2 and run["games_asked"] == 6 and run["seed"] == 0
    assert run["a"]["rule_file"] == {"path": str(base), "sha256": sha(base)}
    assert run["b"]["rule_file"]["path"] == str(variant)
    assert len(run["b"]["files"]) == 3 and len(run["a"]["files"]) == 2  # base, tokens
    assert run["a"]["options"] == {"goal": "5"} and run["b"]["options"] == {"goal": "4"}
    assert (run["a"]["bots"], run["b"]["bots"]) == ("all", "1:random")
    words = shlex.split(run["command"])
    code, again, err = cli(capsys, *words[1:], "--json")
    assert code == 0, err
    assert json.loads(again)["differences"] == data["differences"]


def test_the_page_names_the_rule_file_by_its_hash_too(
    variant: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "r.html"
    code, _out, err = cli(capsys, "simulate", variant, "-p", "2", "-n", "2", "--report", page)
    assert code == 0, err
    assert f"<dt>rule file SHA-256</dt><dd>{sha(variant)}</dd>" in page.read_text("utf-8")
