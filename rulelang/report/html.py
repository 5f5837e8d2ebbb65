"""One self-contained HTML page of a simulation: every plot inline as SVG, each with
its numbers in a table beneath (the same figures for those who cannot see the plot),
no script, no file or address outside the page."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from html import escape
from typing import Any

from rulelang.report import plots
from rulelang.simulation.measured import lopsided_words
from rulelang.simulation.summary import Summary
from rulelang.stats import wilson
from rulelang.words import figure_text

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto;
       padding: 0 1rem; color: #1a1a1a; }
h1 { font-size: 1.6rem; margin-bottom: .3rem; }
h2 { font-size: 1.2rem; margin-top: 2.2rem; border-bottom: 1px solid #ccc; }
figure { margin: .8rem 0; }
figure svg { width: 100%; height: auto; }
figcaption { font-size: .9rem; color: #444; }
caption { text-align: left; }
table { border-collapse: collapse; margin: .6rem 0; font-variant-numeric: tabular-nums; }
th, td { padding: .2rem .7rem; border-bottom: 1px solid #e2e2e2; text-align: right;
         white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; }
dl.meta dt { font-weight: 600; }
dl.meta dd { margin: 0; }
.sig { font-weight: 600; color: #a04000; }
.note { color: #444; font-size: .92rem; }
code.rules { font: .9rem/1.4 ui-monospace, monospace; white-space: pre; }
code.rules .k, code.rules .ow { color: #8b1c62; font-weight: 600; }
code.rules .kt, code.rules .kc { color: #00688b; }
code.rules .nb, code.rules .nf { color: #4b3b9a; }
code.rules .s2, code.rules .se { color: #2f6b1f; }
code.rules .si { color: #a04000; }
code.rules .mi { color: #0b5394; }
code.rules .c1 { color: #6a6a6a; font-style: italic; }
"""


class Html(str):
    """Markup already made safe: a table puts it in its cell as it is."""


def rule_code(text: str) -> Html:
    """Rule text coloured by the rule files' Pygments lexer (rulelang.highlight)."""
    from rulelang.highlight import highlight_html

    return Html(f"<code class='rules'>{highlight_html(text).rstrip()}</code>")


def _cell(c: object) -> str:
    return c if isinstance(c, Html) else escape(str(c))


def pct(x: float) -> str:
    return figure_text(x, ".1%")


def interval(lo: float, hi: float) -> str:
    return f"{figure_text(lo, '.1%')} - {figure_text(hi, '.1%')}"


def table(caption: str, head: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    th = "".join(f'<th scope="col">{escape(h)}</th>' for h in head)
    body = "".join("<tr>" + "".join(f"<td>{_cell(c)}</td>" for c in row) + "</tr>" for row in rows)
    return (
        f"<table><caption class='note'>{escape(caption)}</caption>"
        f"<thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"
    )


def figure(fig: Any, caption: str) -> str:
    """A plot as inline SVG, labelled for screen readers by its caption."""
    svg = plots.svg(fig, caption).replace(
        "<svg", f'<svg role="img" aria-label="{escape(caption)}"', 1
    )
    return f"<figure>{svg}<figcaption>{escape(caption)}</figcaption></figure>"


def page(title: str, meta: Sequence[tuple[str, str]], sections: Sequence[str]) -> str:
    items = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in meta)
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
        f"<h1>{escape(title)}</h1><dl class='meta'>{items}</dl>"
        + "".join(sections)
        + "</body></html>\n"
    )


def section(title: str, *parts: str) -> str:
    return f"<section><h2>{escape(title)}</h2>{''.join(parts)}</section>"


def para(text: str) -> str:
    return f"<p class='note'>{escape(text)}</p>"


def spread(values: Sequence[float]) -> list[str]:
    """min, median, mean, max and the 90th percentile of some values, as text."""
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return [
        figure_text(ordered[0], "g"),
        figure_text(statistics.median(ordered), "g"),
        figure_text(statistics.fmean(ordered), ".1f"),
        figure_text(p90, "g"),
        figure_text(ordered[-1], "g"),
    ]


SPREAD = ["", "min", "median", "mean", "90th percentile", "max"]


def simulation_page(
    title: str, meta: Sequence[tuple[str, str]], s: Summary, more: Sequence[str] = ()
) -> str:
    """The report of one simulation; `more`: sections to put before the cut-off games
    (how games ended and the measures: why_pages.py)."""
    data = s.as_json()
    return page(
        title,
        meta,
        [
            seats_section(data, s.players),
            identities_section(data),
            first_section(data, s.players),
            length_section(s),
            scores_section(s),
            *more,
            cut_off_section(s),
            *gave_up_section(s),
        ],
    )


def gave_up_section(s: Summary) -> list[str]:
    """Where a search bot found no world and the rules' bots played its seat on: said
    on the page, as in the summary, since the figures then are partly theirs."""
    if not s.gave_up_seeds:
        return []
    line = s.gave_up_line(200)
    return [section("Search bots that found no world", para(line[:1].upper() + line[1:] + "."))]


def seats_section(data: dict[str, Any], players: int) -> str:
    seats = data["seats"]
    labels = [f"seat {r['seat']}" for r in seats]
    fig = plots.rate_bars(
        labels,
        [("", [r["win_rate"] for r in seats], [tuple(r["win_ci95"]) for r in seats])],
        fair=sum(r["wins"] for r in seats) / (data["games"] * players) if data["games"] else None,
    )
    rows = [
        [lab, r["wins"], pct(r["win_rate"]), interval(*r["win_ci95"]), pct(r["draw_rate"])]
        for lab, r in zip(labels, seats, strict=True)
    ]
    nw = data["games_without_winner"]
    return section(
        "Win rate per seat",
        figure(fig, "Win rate of each seat with its 95% interval"),
        table(
            f"Over {data['games']} finished games.",
            ["seat", "wins", "win rate", "95% interval", "draws"],
            rows,
        ),
        para(
            f"Games without a winner: {nw} ({pct(nw / max(1, data['games']))}). The dashed "
            "line is the fair share: every seat's wins together, shared equally among the seats."
        ),
    )


def identities_section(data: dict[str, Any]) -> str:
    ids = data["identities"]
    if not ids:
        return section(
            "Win rate per secret identity",
            para(
                "No secret identity: no player sees a value of their own seat that is hidden "
                "from the others and stays the same all game."
            ),
        )
    labels = [r["identity"] for r in ids]
    fig = plots.rate_bars(
        labels, [("", [r["win_rate"] for r in ids], [tuple(r["win_ci95"]) for r in ids])]
    )
    rows = [
        [
            r["identity"],
            r["games"],
            r["wins"],
            pct(r["win_rate"]),
            interval(*r["win_ci95"]),
            r["seats"],
        ]
        for r in ids
    ]
    return section(
        "Win rate per secret identity",
        figure(fig, "Win rate of each secret identity with its 95% interval"),
        table(
            "The games where a player had the identity, and those a player of it won (players "
            "of one role win together, so games are counted, not seats); seats: the players "
            "who had it.",
            ["identity", "games", "wins", "win rate", "95% interval", "seats"],
            rows,
        ),
    )


def first_section(data: dict[str, Any], players: int) -> str:
    f = data["first_player"]
    if not f["games"] or players < 2:
        return section(
            "First-player advantage",
            para("Unknown: no game waited for a decision in its first turn."),
        )
    fig = plots.rate_bars(
        ["first player", "each other player"],
        [
            (
                "",
                [f["win_rate"], f["others_win_rate"]],
                [tuple(f["win_ci95"]), tuple(f["others_win_ci95"])],
            )
        ],
    )
    return section(
        "First-player advantage",
        figure(fig, "Win rate of the player who took turn 1 and of each other player"),
        table(
            f"Over the {f['games']} games whose first turn waited for a decision.",
            ["", "wins", "of", "win rate", "95% interval"],
            [
                [
                    "first player",
                    f["wins"],
                    f["games"],
                    pct(f["win_rate"]),
                    interval(*f["win_ci95"]),
                ],
                [
                    "each other player",
                    f["others_wins"],
                    f["games"] * (players - 1),
                    pct(f["others_win_rate"]),
                    interval(*f["others_win_ci95"]),
                ],
            ],
        ),
        para(
            "The first player is the one whose turn is turn 1 (with a random turn order, "
            "not necessarily seat 1). Their intervals apart: an advantage; overlapping: "
            "none these games can show."
        ),
    )


def length_section(s: Summary) -> str:
    fig = plots.histograms(
        [("turns per game", [("", s.game_turns)]), ("decisions per game", [("", s.game_decisions)])]
    )
    return section(
        "Game length",
        figure(fig, "Histograms of the turns and of the decisions per finished game"),
        table(
            "Per finished game.",
            SPREAD,
            [["turns", *spread(s.game_turns)], ["decisions", *spread(s.game_decisions)]],
        ),
        *extremes_para(s),
    )


def extremes_para(s: Summary) -> list[str]:
    """The seeds of the shortest and the longest game, to play them again."""
    ends = s.extremes()
    if s.games < 2 or not ends:
        return []
    short, long = ends["shortest"], ends["longest"]
    lopsided = ends.get("lopsided")
    most = f" Most lopsided: the {lopsided_words(lopsided)}." if lopsided else ""
    return [
        para(
            f"Shortest game: {short['decisions']} decisions (seed {short['seed']}); longest: "
            f"{long['decisions']} decisions (seed {long['seed']}).{most} Play one again with "
            "--seed S -n 1 and the same options and bots."
        )
    ]


def scores_section(s: Summary) -> str:
    if not s.scores:
        return section(
            "Final scores",
            para(
                "No score: no number of a player is shown to everybody at the end of the "
                "game (a score kept on pieces, or hidden, is not a player's public number; "
                "a `measure ... per player` of the rule file can count it: see Measures)."
            ),
        )
    parts = []
    for attr, per_seat in sorted(s.scores.items()):
        everyone = [v for seat in per_seat for v in seat]
        fig = plots.histograms([(f"{attr} at the end, every player", [("", everyone)])])
        rows = [["every player", *spread(everyone)]] + [
            [f"seat {i + 1}", *spread(v)] for i, v in enumerate(per_seat) if v
        ]
        parts.append(figure(fig, f"Histogram of the players' {attr} at the end"))
        parts.append(table(f"{attr} at the end of the finished games.", SPREAD, rows))
    return section("Final scores", *parts)


def cut_off_section(s: Summary) -> str:
    if not s.cut_off:
        return section(
            "Cut-off games",
            para(f"None: every game ended within --max-decisions {s.max_decisions}."),
        )
    seeds = sorted(s.cut_off_seeds)
    lo, hi = wilson(s.cut_off, s.runs)
    shown = ", ".join(str(x) for x in seeds[:200]) + (" ..." if len(seeds) > 200 else "")
    return section(
        "Cut-off games",
        para(
            f"{s.cut_off} of {s.runs} games ({pct(s.cut_off / s.runs)}, 95% interval "
            f"{interval(lo, hi)}) did not end within --max-decisions {s.max_decisions}; "
            "they are left out of every figure above. Replay one with --seed S -n 1."
        ),
        f"<p>Seeds: {escape(shown)}</p>",
    )
