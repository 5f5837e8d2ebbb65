"""Why games ended and what they measured, on the HTML pages: the end rules' share
of the games and the rule file's measures (simulation/measured.py), for one
simulation's report and for a comparison's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulelang.report import html, plots
from rulelang.report.why import end_counts, ends_moved, reasons
from rulelang.simulation.summary import Summary
from rulelang.words import figure_text


def simulation_sections(s: Summary) -> list[str]:
    return [endings_section(s), measures_section(s)]


def endings_section(s: Summary) -> str:
    rows = [
        [
            rule_cell(e["rule"], e["where"]),
            e["where"],
            e["games"],
            html.pct(e["share"]),
            html.interval(*e["share_ci95"]),
        ]
        for e in s.as_json()["endings"]
    ]
    return html.section(
        "How games ended",
        html.table(
            "Each end rule as the rule file writes it, in the order they are checked (the "
            "first whose condition holds ends the game), over every game played; the games "
            "cut off by --max-decisions are a reason of their own.",
            ["end rule", "where", "games", "share", "95% interval"],
            rows,
        ),
    )


def rule_cell(rule: str, where: str) -> object:
    """An end rule as its file writes it, coloured as rule text; the games cut off
    (no place in a file) are a reason in words."""
    return html.rule_code(rule) if where else rule


def measures_section(s: Summary) -> str:
    measures = s.as_json()["measures"]
    if not measures:
        return html.section(
            "Measures",
            html.para(
                "The rule file declares no measure (`measure NAME = EXPR`, docs/language.md): "
                "what else a designer counts of each game, a winning margin, a show's size."
            ),
        )
    parts = [html.para("; ".join(f"{label(n, m)}: {m['doc'] or '-'}" for n, m in measures.items()))]
    for name, m in measures.items():
        values = s.why.values[name]
        if values and not m["yes_no"]:
            caption = f"Histogram of {name}" + (", every player" if m["per_player"] else "")
            counted = "players" if m["per_player"] else "games"
            fig = plots.histograms([(label(name, m), [("", values)])], counted)
            parts.append(html.figure(fig, caption))
    parts.append(
        html.table(
            "Over the finished games where the measure was not none (`games`); a measure per "
            "player pools every player's value; a yes/no measure gives the share of games "
            "(or players) where it held.",
            ["measure", *MEASURE_HEAD, "games"],
            [[label(name, m), *measure_cells(m), m["games"]] for name, m in measures.items()],
        )
    )
    return html.section("Measures", *parts)


def label(name: str, m: dict[str, Any]) -> str:
    """A measure's name, and whether it is per player or yes/no."""
    words = [w for w, on in (("per player", m["per_player"]), ("yes/no", m["yes_no"])) if on]
    return f"{name} ({', '.join(words)})" if words else name


MEASURE_HEAD = ["mean", "sd", "min", "25%", "median", "75%", "max"]


def measure_cells(m: dict[str, Any]) -> list[str]:
    if not m["values"]:
        return ["none"] + [""] * 6
    if m["yes_no"]:
        return [f"yes in {figure_text(m['mean'], '.1%')}"] + [""] * 6
    return [figure_text(m["mean"], ".2f"), figure_text(m["sd"], ".2f")] + [
        figure_text(m[k], "g") for k in ("min", "q1", "median", "q3", "max")
    ]


def compare_sections(a: Summary, b: Summary) -> list[str]:
    """How the games of A and B ended, and each measure's histograms A against B."""
    ka, kb = end_counts(a), end_counts(b)
    moved = ends_moved(a, b)
    rows = [
        [rule_cell(rule, where), where, ka.get((rule, where), 0), kb.get((rule, where), 0)]
        for rule, where in reasons(a, b)
    ]
    out = [
        html.section(
            "How games ended",
            html.table(
                "Games per end rule (and cut off), A and B.", ["end rule", "where", "A", "B"], rows
            ),
            html.para(
                f"{moved} of {a.runs} games ended by another end rule in B than in A."
                if moved
                else "Every game ended by the same end rule in B as in A."
            ),
        )
    ]
    ma, mb = a.as_json()["measures"], b.as_json()["measures"]
    parts = []
    for name in (n for n in ma if n in mb):
        va, vb = a.why.values[name], b.why.values[name]
        if va and vb and not ma[name]["yes_no"]:
            counted = "players" if ma[name]["per_player"] else "games"
            fig = plots.histograms([(label(name, ma[name]), [("A", va), ("B", vb)])], counted)
            parts.append(html.figure(fig, f"Histogram of {name}, A (blue) and B (orange)"))
    rows_m: Sequence[Sequence[object]] = [
        row
        for name in (n for n in ma if n in mb)
        for row in (
            [f"A {name}", *measure_cells(ma[name])],
            [f"B {name}", *measure_cells(mb[name])],
        )
    ]
    if rows_m:
        parts.append(html.table("Each measure of A and of B.", ["", *MEASURE_HEAD], rows_m))
        out.append(html.section("Measures", *parts))
    return out
