"""The report's plots, drawn by matplotlib as SVG text to put inline in the page.

Only this module imports matplotlib (the `report` extra): `need_matplotlib` says so in
one line when it is missing. Figures are made without pyplot (no global state, no
display), and the SVG keeps its text as text (smaller, searchable, read by screen
readers) with a fixed hash salt (the same data draws the same file)."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any

# the colours of A and B, and of a single run (colour-blind safe: Okabe-Ito)
BLUE, ORANGE, GREY = "#0072B2", "#E69F00", "#555555"

EXTRA = "pip install 'rulelang[report]'"


def need_matplotlib() -> str | None:
    """None if the plots can be drawn, else the one line saying what to install."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return f"--report draws its plots with matplotlib, which is not installed: {EXTRA}"
    try:
        import pygments  # noqa: F401
    except ImportError:
        return f"--report colours rule text with pygments, which is not installed: {EXTRA}"
    return None


def percent() -> Any:
    """Ticks of a rate as percentages, with as many decimals as the ticks need (2.5%,
    not a rounded 2%)."""
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(xmax=1.0)


def _figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    return fig


def svg(fig: Any, salt: str) -> str:
    """The figure as an <svg> element, without the XML prologue, scaling to its box.
    The ids inside (clip paths, markers) are drawn from `salt`: one per figure of a
    page, since inline SVGs share the page's ids."""
    import matplotlib

    out = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": salt}):
        fig.savefig(out, format="svg", metadata={"Date": None, "Creator": None})
    text = out.getvalue()
    text = text[text.index("<svg") :]
    # the size in pt stays as the aspect ratio; CSS sets the width
    return re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"', r"<svg\1", text, count=1)


def rate_bars(
    labels: Sequence[str],
    series: Sequence[tuple[str, Sequence[float], Sequence[tuple[float, float]]]],
    fair: float | None = None,
    xlabel: str = "win rate",
) -> Any:
    """Horizontal bars, one group per label, one bar per series (name, rates,
    intervals), each with its 95% interval as an error bar; `fair` draws the fair
    share as a dashed line."""
    rows = len(labels)
    fig = _figure(7.5, 0.9 + 0.32 * rows * max(1, len(series)))
    ax = fig.subplots()
    height = 0.8 / len(series)
    colours = [BLUE, ORANGE] if len(series) > 1 else [BLUE]
    for i, (name, rates, cis) in enumerate(series):
        ys = [r + (i - (len(series) - 1) / 2) * height for r in range(rows)]
        low = [max(0.0, rate - lo) for rate, (lo, _) in zip(rates, cis, strict=True)]
        high = [max(0.0, hi - rate) for rate, (_, hi) in zip(rates, cis, strict=True)]
        ax.barh(
            ys,
            rates,
            height=height * 0.9,
            color=colours[i],
            label=name or None,
            xerr=[low, high],
            error_kw={"ecolor": "#222222", "capsize": 3, "lw": 1},
        )
    if fair is not None:
        ax.axvline(fair, color=GREY, ls="--", lw=1, label=f"fair share {fair:.1%}")
    ax.set_yticks(range(rows), labels)
    ax.invert_yaxis()
    ax.set_xlim(
        0, max(1e-9, min(1.0, max([hi for _, _, c in series for _, hi in c] + [fair or 0]) * 1.1))
    )
    ax.xaxis.set_major_formatter(percent())
    ax.set_xlabel(f"{xlabel} (bars: 95% interval)")
    ax.grid(axis="x", alpha=0.3)
    if len(series) > 1 or fair is not None:  # beside the plot: never over a bar
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    return fig


def histograms(
    panels: Sequence[tuple[str, Sequence[tuple[str, Sequence[float]]]]],
    counted: str = "games",
) -> Any:
    """Side by side histograms, one panel per (title, [(name, values), ...]); with two
    series they share the bins and are drawn as outlines over each other. `counted`:
    what a bar's height counts (games, or players for a value per player)."""
    fig = _figure(7.5, 3.0)
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, (title, series) in zip(axes, panels, strict=True):
        everything = [v for _, values in series for v in values]
        lo, hi = min(everything), max(everything)
        whole = all(float(v).is_integer() for v in everything)
        bins: Any = _bins(lo, hi, whole)
        for i, (name, values) in enumerate(series):
            colour = [BLUE, ORANGE][i % 2]
            if len(series) == 1:
                ax.hist(values, bins=bins, color=colour, edgecolor="white", lw=0.5)
            else:
                ax.hist(values, bins=bins, color=colour, histtype="step", lw=2, label=name)
        ax.set_title(title, fontsize="medium")
        ax.set_ylabel(counted)
        ax.grid(axis="y", alpha=0.3)
        if len(series) > 1:
            ax.legend(fontsize="small")
    return fig


def _bins(lo: float, hi: float, whole: bool) -> list[float] | int:
    """At most about 40 bins; whole numbers get bins of a whole width, centred."""
    if not whole:
        return 30
    width = max(1, round((hi - lo + 1) / 40))
    edges, x = [], lo - 0.5
    while x <= hi + 0.5:
        edges.append(x)
        x += width
    edges.append(x)
    return edges


def differences(rows: Sequence[tuple[str, float, float, float, bool]], unit: str) -> Any:
    """A forest plot: each difference B - A (label, value, low, high, significant) with
    its interval, and the line of no difference."""
    fig = _figure(7.5, 0.9 + 0.32 * len(rows))
    ax = fig.subplots()
    for y, (_, d, lo, hi, sig) in enumerate(rows):
        colour = ORANGE if sig else BLUE
        ax.errorbar([d], [y], xerr=[[d - lo], [hi - d]], fmt="o", color=colour, capsize=3)
    ax.axvline(0, color=GREY, lw=1)
    ax.set_yticks(range(len(rows)), [r[0] for r in rows])
    ax.invert_yaxis()
    if unit == "%":
        ax.xaxis.set_major_formatter(percent())
    ax.set_xlabel("B - A with its 95% interval (orange: significant)")
    ax.grid(axis="x", alpha=0.3)
    return fig
