"""Two simulations side by side: every figure's difference B - A with its 95%
interval (Newcombe's for rates, Welch's for means) and whether it is significant,
as text, JSON and an HTML page."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from rulelang.report import why
from rulelang.simulation.summary import Summary
from rulelang.stats import Difference, mean_difference, rate_difference
from rulelang.words import figure_text


def differences(a: Summary, b: Summary) -> list[Difference]:
    """The figures both runs have, in the order the summary prints them."""
    out = []
    ja, jb = a.as_json(), b.as_json()
    for sa, sb in zip(ja["seats"], jb["seats"], strict=False):
        out.append(
            rate_difference(f"seat {sa['seat']} win rate", sa["wins"], a.games, sb["wins"], b.games)
        )
    ids_b = {r["identity"]: r for r in jb["identities"]}
    for ra in ja["identities"]:
        rb = ids_b.get(ra["identity"])
        if rb is not None:
            out.append(
                rate_difference(
                    f"{ra['identity']} win rate", ra["wins"], ra["games"], rb["wins"], rb["games"]
                )
            )
    out.append(rate_difference("no winner", a.no_winner, a.games, b.no_winner, b.games))
    fa, fb = ja["first_player"], jb["first_player"]
    if fa["games"] and fb["games"]:
        out.append(
            rate_difference(
                "first player win rate", fa["wins"], fa["games"], fb["wins"], fb["games"]
            )
        )
    out.append(rate_difference("cut off", a.cut_off, a.runs, b.cut_off, b.runs))
    out.append(mean_difference("mean turns", a.game_turns, b.game_turns))
    out.append(mean_difference("mean decisions", a.game_decisions, b.game_decisions))
    for attr in sorted(set(a.scores) & set(b.scores)):
        va = [v for seat in a.scores[attr] for v in seat]
        vb = [v for seat in b.scores[attr] for v in seat]
        out.append(mean_difference(f"mean {attr} at the end", va, vb))
    return out + why.differences(a, b)


def games_differing(a: Summary, b: Summary) -> int:
    """On how many of the seeds both played the game ended otherwise in B than in A
    (winners, turns, decisions, final public numbers): 0 when the change never came
    into play, and every difference is then 0 by construction."""
    assert a.endings is not None and b.endings is not None, "simulate(endings=True)"
    return sum(a.endings[s] != b.endings.get(s) for s in a.endings)


def identical_text(names: tuple[str, str], heading: str, games: int) -> str:
    """What compare says instead of a table of zeros when no game changed."""
    return "\n".join(
        [
            f"A: {names[0]}",
            f"B: {names[1]}",
            heading,
            "",
            f"No difference: all {games} games ended exactly alike in A and B (the same "
            "winners, turns, decisions and final scores on every seed): the change never "
            "came into play with these bots and seeds.",
        ]
    )


def number(d: Difference, x: float, sign: bool = False) -> str:
    if d.kind == "rate":
        return figure_text(x, "+.1%" if sign else ".1%")
    return figure_text(x, "+.1f" if sign else ".1f")


def text(names: tuple[str, str], heading: str, diffs: Sequence[Difference]) -> str:
    width = max([20] + [len(d.what) + 2 for d in diffs])
    lines = [
        f"A: {names[0]}",
        f"B: {names[1]}",
        heading,
        "",
        f"{'':<{width}}{'A':>9}{'B':>9}{'B - A':>9}{'95% interval':>22}  significant",
    ]
    for d in diffs:
        span = f"{number(d, d.low, True)} .. {number(d, d.high, True)}"
        lines.append(
            f"{d.what:<{width}}{number(d, d.a):>9}{number(d, d.b):>9}"
            f"{number(d, d.difference, True):>9}{span:>22}  {'yes' if d.significant else 'no'}"
        )
    found = sum(d.significant for d in diffs)
    lines.append("")
    lines.append(
        f"{found} of {len(diffs)} differences significant at the 5% level"
        + (" (with many figures, about 1 in 20 is so by chance)" if len(diffs) >= 10 else "")
    )
    return "\n".join(lines)


def as_json(
    names: tuple[str, str], a: Summary, b: Summary, diffs: Sequence[Difference]
) -> dict[str, Any]:
    differing = games_differing(a, b)
    return {
        "a": {"label": names[0], **a.as_json()},
        "b": {"label": names[1], **b.as_json()},
        "games_ending_differently": differing,
        "games_ending_by_another_rule": why.ends_moved(a, b),
        "identical": differing == 0,
        "differences": [d.as_json() for d in diffs],
    }


def page(
    title: str,
    meta: Sequence[tuple[str, str]],
    names: tuple[str, str],
    a: Summary,
    b: Summary,
    diffs: Sequence[Difference],
) -> str:
    from rulelang.report import html, plots

    ja, jb = a.as_json(), b.as_json()
    seats = list(zip(ja["seats"], jb["seats"], strict=False))
    differing, games = games_differing(a, b), a.runs
    said = (
        f"No difference: all {games} games ended exactly alike in A and B (the same winners, "
        "turns, decisions and final scores on every seed): the change never came into play "
        "with these bots and seeds, and every figure below is the same by construction."
        if differing == 0
        else f"{differing} of {games} games ended otherwise in B than in A "
        "(winners, length or final numbers)."
    )
    from rulelang.report.why_pages import compare_sections

    sections = [html.section("Games that changed", html.para(said)), forest_section(diffs)]
    sections += compare_sections(a, b)
    sections.append(
        html.section(
            "Win rate per seat",
            html.figure(
                plots.rate_bars(
                    [f"seat {x['seat']}" for x, _ in seats],
                    [
                        (
                            "A",
                            [x["win_rate"] for x, _ in seats],
                            [tuple(x["win_ci95"]) for x, _ in seats],
                        ),
                        (
                            "B",
                            [y["win_rate"] for _, y in seats],
                            [tuple(y["win_ci95"]) for _, y in seats],
                        ),
                    ],
                ),
                "Win rate of each seat in A (blue) and B (orange), with 95% intervals",
            ),
        )
    )
    ids_b = {r["identity"]: r for r in jb["identities"]}
    pairs = [(r, ids_b[r["identity"]]) for r in ja["identities"] if r["identity"] in ids_b]
    if pairs:
        sections.append(
            html.section(
                "Win rate per secret identity",
                html.figure(
                    plots.rate_bars(
                        [x["identity"] for x, _ in pairs],
                        [
                            (
                                "A",
                                [x["win_rate"] for x, _ in pairs],
                                [tuple(x["win_ci95"]) for x, _ in pairs],
                            ),
                            (
                                "B",
                                [y["win_rate"] for _, y in pairs],
                                [tuple(y["win_ci95"]) for _, y in pairs],
                            ),
                        ],
                    ),
                    "Win rate of each secret identity in A (blue) and B (orange), "
                    "with 95% intervals",
                ),
            )
        )
    sections.append(
        html.section(
            "Game length",
            html.figure(
                plots.histograms(
                    [
                        ("turns per game", [("A", a.game_turns), ("B", b.game_turns)]),
                        ("decisions per game", [("A", a.game_decisions), ("B", b.game_decisions)]),
                    ]
                ),
                "Histograms of the turns and decisions per finished game, A (blue) and B (orange)",
            ),
            html.table(
                "Per finished game.",
                html.SPREAD,
                [
                    ["A turns", *html.spread(a.game_turns)],
                    ["B turns", *html.spread(b.game_turns)],
                    ["A decisions", *html.spread(a.game_decisions)],
                    ["B decisions", *html.spread(b.game_decisions)],
                ],
            ),
        )
    )
    label_meta = [("A", names[0]), ("B", names[1]), *meta]
    return html.page(title, label_meta, sections)


def forest_section(diffs: Sequence[Difference]) -> str:
    from rulelang.report import html, plots

    parts = []
    for kind, unit, what in (("rate", "%", "Rates"), ("mean", "", "Means")):
        rows = [d for d in diffs if d.kind == kind and d.low > -1e300 and d.high < 1e300]
        if rows:
            parts.append(
                html.figure(
                    plots.differences(
                        [(d.what, d.difference, d.low, d.high, d.significant) for d in rows], unit
                    ),
                    f"{what}: each difference B - A with its 95% interval",
                )
            )
    table = html.table(
        "B - A; an interval that leaves out 0 is a significant difference (5% level).",
        ["", "A", "B", "B - A", "95% interval", "significant"],
        [
            [
                d.what,
                number(d, d.a),
                number(d, d.b),
                number(d, d.difference, True),
                f"{number(d, d.low, True)} .. {number(d, d.high, True)}",
                "yes" if d.significant else "no",
            ]
            for d in diffs
        ],
    )
    return html.section(
        "Differences",
        *parts,
        table.replace("<td>yes</td>", f"<td class='sig'>{escape('yes')}</td>"),
    )
