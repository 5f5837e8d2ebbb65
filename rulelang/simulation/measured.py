"""Why games ended and what they measured, summed over a simulation: how many games
each end rule ended (and how many the decision limit cut off), the spread of each
`measure` the rule file declares, and the most lopsided game (docs/language.md,
"Measures"; docs/cli.md)."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulelang.stats import wilson
from rulelang.words import figure_text

if TYPE_CHECKING:
    from rulelang.runtime.ruleset import Ruleset
    from rulelang.simulation.summary import Record

CUT_OFF = -2  # the end "reason" of a game the decision limit cut off
UNKNOWN = -1  # a record that does not say (made by hand)


@dataclass(frozen=True, slots=True)
class Declared:
    """What the rule file says the reports count: its end rules, as (rule, where), in
    the order they are checked; its measures, as name -> (doc, per player, yes/no)."""

    end_rules: tuple[tuple[str, str], ...] = ()
    measures: dict[str, tuple[str, bool, bool]] = field(default_factory=dict)


def declared_by(rules: Ruleset) -> Declared:
    return Declared(
        tuple((e.rule, e.where) for e in rules.end_reasons),
        {n: (m.doc, m.per_player, m.boolean) for n, m in rules.measures.items()},
    )


def number(value: Any) -> float | None:
    """A measure's value as a number (yes/no as 1/0), or None where the rule gave none."""
    return None if value is None else float(value)


def margin(
    measures: dict[str, Any], scores: list[dict[str, float]]
) -> tuple[float, str, bool] | None:
    """How lopsided a game was: the gap between the first and the second place, in the
    first measure per player that is a number (not yes/no), else in the first public
    number of the players (a score, guessed: the third item is True); None without
    either, or with fewer than two values."""
    for name, value in measures.items():
        if isinstance(value, list) and not any(isinstance(v, bool) for v in value):
            return _gap([v for v in value if v is not None], name, False)
    if scores and scores[0]:
        attr = next(iter(scores[0]))
        return _gap([row[attr] for row in scores if attr in row], attr, True)
    return None


def _gap(values: list[float], what: str, guessed: bool) -> tuple[float, str, bool] | None:
    if len(values) < 2:
        return None
    top, second = sorted(values, reverse=True)[:2]
    return (top - second, what, guessed)


def lopsided_words(lopsided: dict[str, Any]) -> str:
    """ "first place 6 ahead of the second in gold (seed 12)"; where the number was
    guessed (no measure per player), what it is and how to choose another."""
    what = lopsided["measure"]
    if lopsided.get("guessed"):
        what += ", the first number every player shows (a `measure NAME per player` chooses)"
    return (
        f"first place {lopsided['margin']:g} ahead of the second in {what} "
        f"(seed {lopsided['seed']})"
    )


def spread(values: list[float]) -> dict[str, float]:
    """Mean, standard deviation (of the sample), min, quartiles and max."""
    ordered = sorted(values)
    if len(ordered) > 1:
        q1, median, q3 = statistics.quantiles(ordered, n=4, method="inclusive")
        sd = statistics.stdev(ordered)
    else:
        q1 = median = q3 = ordered[0]
        sd = 0.0
    return {
        "mean": statistics.fmean(ordered),
        "sd": sd,
        "min": ordered[0],
        "q1": q1,
        "median": median,
        "q3": q3,
        "max": ordered[-1],
    }


@dataclass
class Tally:
    """The end reasons and measures of the games of one simulation."""

    ends: dict[int, int] = field(default_factory=dict)  # end rule index -> games
    # measure -> every value (a measure per player: every seat's, pooled), and per seat
    values: dict[str, list[float]] = field(default_factory=dict)
    seats: dict[str, list[list[float]]] = field(default_factory=dict)
    measured: dict[str, int] = field(default_factory=dict)  # games where it was not none
    yes_no: set[str] = field(default_factory=set)
    # the most lopsided game: (margin, -seed, what it is counted in, its decisions,
    # whether that was guessed); ties go to the lower seed, so that the order games
    # finish in (--jobs) is moot
    lopsided: tuple[float, int, str, int, bool] | None = None

    def add_end(self, end: int) -> None:
        self.ends[end] = self.ends.get(end, 0) + 1

    def add(self, r: Record) -> None:
        """A finished game's measures, and how lopsided it was."""
        measures = r.measures
        for name, value in measures.items():
            per_player = isinstance(value, list)
            values = value if per_player else [value]
            if any(isinstance(v, bool) for v in values):
                self.yes_no.add(name)
            known = [number(v) for v in values]
            pooled = self.values.setdefault(name, [])
            pooled.extend(v for v in known if v is not None)
            self.measured[name] = self.measured.get(name, 0) + any(v is not None for v in known)
            if per_player:
                seats = self.seats.setdefault(name, [[] for _ in known])
                for seat, v in zip(seats, known, strict=False):
                    if v is not None:
                        seat.append(v)
        found = margin(measures, r.scores)
        if found is not None and found[0] > 0:  # a tie on top is not lopsided
            key = (found[0], -r.seed, found[1], r.decisions, found[2])
            if self.lopsided is None or key[:2] > self.lopsided[:2]:
                self.lopsided = key

    def lopsided_json(self) -> dict[str, Any] | None:
        if self.lopsided is None:
            return None
        gap, seed, what, decisions, guessed = self.lopsided
        out = {"margin": gap, "measure": what, "decisions": decisions, "seed": -seed}
        if guessed:
            out["guessed"] = True
        return out

    def endings_json(self, declared: Declared, runs: int) -> list[dict[str, Any]]:
        """Per end rule (every one the file has, in the order they are checked; one
        that never fired too) and for the games cut off: games and share of all runs."""
        rows = []
        known = declared.end_rules
        for i in sorted(set(range(len(known))) | {i for i in self.ends if i >= 0}):
            rule, where = known[i] if i < len(known) else (f"end rule {i + 1}", "")
            rows.append(self._ending(rule, where, self.ends.get(i, 0), runs))
        if self.ends.get(CUT_OFF):
            rows.append(self._ending("cut off by the decision limit", "", self.ends[CUT_OFF], runs))
        return rows

    @staticmethod
    def _ending(rule: str, where: str, games: int, runs: int) -> dict[str, Any]:
        return {
            "rule": rule,
            "where": where,
            "games": games,
            "share": games / runs if runs else 0.0,
            "share_ci95": list(wilson(games, runs)),
        }

    def measures_json(self, declared: Declared) -> dict[str, dict[str, Any]]:
        out = {}
        for name, values in self.values.items():
            doc, per_player, _yes_no = declared.measures.get(name, ("", name in self.seats, False))
            row: dict[str, Any] = {
                "doc": doc,
                "per_player": per_player,
                "yes_no": name in self.yes_no,
                "games": self.measured.get(name, 0),  # the finished games it was not none in
                "values": len(values),
                **(spread(values) if values else {}),
            }
            if name in self.seats:
                row["seat_means"] = [statistics.fmean(s) if s else None for s in self.seats[name]]
            if name in self.yes_no and not per_player:  # a share of games: its interval
                row["ci95"] = list(wilson(round(sum(values)), len(values)))
            out[name] = row
        return out


# ---------------------------------------------------------------- as text
def endings_lines(endings: list[dict[str, Any]], max_decisions: int) -> list[str]:
    """How the games ended: games and share per end rule (with its file and line),
    and the games the decision limit cut off."""
    if not endings:
        return []
    rows = []
    for e in endings:
        label = f"{e['rule']} ({e['where']})" if e["where"] else e["rule"]
        if not e["where"]:  # the cut-off games: the limit they were cut off by
            label = f"cut off by --max-decisions {max_decisions}"
        rows.append((label, e))
    width = max(len(label) for label, _e in rows) + 2
    lines = ["", "how games ended:"]
    for label, e in rows:
        games = "games" if e["games"] != 1 else "game "  # (the column kept)
        lines.append(f"  {label:<{width}}{e['games']:>7} {games} {e['share']:>7.1%}")
    return lines


def measures_lines(measures: dict[str, dict[str, Any]]) -> list[str]:
    """Each measure's mean, spread and quartiles over the games where it was not none;
    a yes/no one: the share where it held (in the mean's column)."""
    if not measures:
        return []
    title = "measures (finished games)"
    labels = {n: n + _kind(m) for n, m in measures.items()}
    width = max(len(title), *(len(label) for label in labels.values())) + 2
    head = "".join(f"{h:>8}" for h in ("mean", "sd", "min", "25%", "median", "75%", "max"))
    lines = ["", f"{title:<{width}}{head}{'games':>8}"]
    for name, m in measures.items():
        if not m["values"]:
            cells = f"{'none':>8}" + " " * 48
        elif m["yes_no"]:
            cells = figure_text(m["mean"], ">8.1%") + " " * 48
        else:
            cells = "".join(
                figure_text(m[k], ">8.1f" if k in ("mean", "sd") else ">8g")
                for k in ("mean", "sd", "min", "q1", "median", "q3", "max")
            )
        lines.append(f"{labels[name]:<{width}}{cells}{m['games']:>8}")
    return lines


def _kind(m: dict[str, Any]) -> str:
    words = [w for w, on in (("per player", m["per_player"]), ("yes/no", m["yes_no"])) if on]
    return f" ({', '.join(words)})" if words else ""
