"""Figures as the reports show them: a zero is never printed "-0.0" (a bound of an
interval at -0.0004 printed "-0.0%", which reads as a difference that is not there),
in the text of `compare`, the measures of `simulate`, the HTML pages and the JSON."""

from __future__ import annotations

import json

import pytest

from rulelang.report import compare, html
from rulelang.report.why_pages import measure_cells
from rulelang.simulation.measured import measures_lines
from rulelang.stats import Difference, rate_difference
from rulelang.words import figure_text


@pytest.mark.parametrize(
    ("x", "spec", "shown"),
    [
        (-0.0004, "+.1%", "+0.0%"),
        (-0.0004, ".1%", "0.0%"),
        (-0.0, "g", "0"),
        (-0.04, ">8.1f", "     0.0"),
        (-0.05001, ".1f", "-0.1"),  # a figure that does not round to zero keeps its sign
        (-0.0006, ".1%", "-0.1%"),
        (-1e-30, "g", "-1e-30"),
        (float("-inf"), "+.1f", "-inf"),  # Welch's unknown bound
        (0.25, "+.1%", "+25.0%"),
    ],
)
def test_a_figure_that_rounds_to_zero_is_shown_as_zero(x: float, spec: str, shown: str) -> None:
    assert figure_text(x, spec) == shown


def test_a_real_interval_whose_bound_rounds_to_zero_shows_no_minus_zero() -> None:
    """2 of 3 against 16 of 16: Newcombe's lower bound is -0.04%, which showed as
    "-0.0%" in compare's table and page."""
    d = rate_difference("seat 1 win rate", 2, 3, 16, 16)
    assert -0.001 < d.low < 0  # the case: a bound below zero, by less than the last digit
    table = compare.text(("a", "b"), "heading", [d])
    assert table.splitlines()[5].split()[-5:] == ["+33.3%", "+0.0%", "..", "+79.2%", "no"]
    assert "-0.0" not in table


def test_the_measures_and_the_pages_show_no_minus_zero() -> None:
    m = {
        "doc": "",
        "per_player": False,
        "yes_no": False,
        "games": 30,
        "values": 30,
        "mean": -0.03,
        "sd": 0.18,
        "min": -0.0,
        "q1": -0.0,
        "median": -0.0,
        "q3": 0.0,
        "max": 1.0,
    }
    lines = measures_lines({"gap": m})
    assert "-0" not in lines[-1] and lines[-1].split()[1:5] == ["0.0", "0.2", "0", "0"]
    assert measure_cells(m) == ["-0.03", "0.18", "0", "0", "0", "0", "1"]  # two decimals: not zero
    assert html.interval(-0.0, 0.5) == "0.0% - 50.0%"
    assert html.spread([-0.0, -0.01, 0.0]) == ["-0.01", "0", "0.0", "0", "0"]


def test_the_json_of_a_difference_has_no_negative_zero() -> None:
    d = Difference("mean gap", "mean", 0.0, -0.0, -0.0, -0.0)
    text = json.dumps(d.as_json())
    assert "-0.0" not in text and json.loads(text)["ci95"] == [0.0, 0.0]
