"""Why games ended and what they measured, compared: the end rules' share of the
games and the rule file's measures (simulation/measured.py) in A and in B, as
differences with their intervals and as text (the pages: why_pages.py)."""

from __future__ import annotations

from rulelang.simulation.measured import CUT_OFF
from rulelang.simulation.summary import Summary
from rulelang.stats import Difference, mean_difference, rate_difference

CUT = ("cut off by the decision limit", "")  # the key of the games cut off


# ---------------------------------------------------------------- comparing
def end_counts(s: Summary) -> dict[tuple[str, str], int]:
    """Games per end reason, by (rule, where): the same rule in two files (a variant
    and the file it extends) is one reason; the cut-off games are one too."""
    return {(e["rule"], e["where"]): e["games"] for e in s.as_json()["endings"]}


def reasons(a: Summary, b: Summary) -> list[tuple[str, str]]:
    """Every end reason of A, then those only B has."""
    ka, kb = end_counts(a), end_counts(b)
    return [*ka, *(k for k in kb if k not in ka)]


def differences(a: Summary, b: Summary) -> list[Difference]:
    """The share of games each end rule ended (when there is more than one way to
    end), then each measure both declare: the difference of its mean (a yes/no one:
    of the share of games where it held)."""
    out = []
    ka, kb = end_counts(a), end_counts(b)
    rules = [k for k in reasons(a, b) if k != CUT]  # cut off: a row of its own already
    if len(rules) > 1:
        for rule, where in rules:
            what = f"ended by {where or rule}"
            out.append(
                rate_difference(
                    what, ka.get((rule, where), 0), a.runs, kb.get((rule, where), 0), b.runs
                )
            )
    ma, mb = a.as_json()["measures"], b.as_json()["measures"]
    for name in (n for n in ma if n in mb):
        va, vb = a.why.values[name], b.why.values[name]
        if not va or not vb:
            continue
        if ma[name]["yes_no"] and not ma[name]["per_player"]:
            out.append(
                rate_difference(f"{name}: yes", round(sum(va)), len(va), round(sum(vb)), len(vb))
            )
        else:
            out.append(mean_difference(f"mean {name}", va, vb))
    return out


def ends_moved(a: Summary, b: Summary) -> int:
    """On how many seeds the game ended by another end rule (or was cut off) in B
    than in A."""
    assert a.ends_by_seed is not None and b.ends_by_seed is not None, "simulate(endings=True)"

    def key(s: Summary, index: int) -> tuple[str, str]:
        rules = s.declared.end_rules
        return CUT if index == CUT_OFF or index >= len(rules) else rules[index]

    return sum(
        key(a, end) != key(b, b.ends_by_seed[seed])
        for seed, end in a.ends_by_seed.items()
        if seed in b.ends_by_seed
    )


def endings_text(a: Summary, b: Summary) -> list[str]:
    """Per end reason, the games of A and of B; then how many moved between them."""
    ka, kb = end_counts(a), end_counts(b)
    rows = [
        (f"{rule} ({where})" if where else rule, k) for k in reasons(a, b) for rule, where in [k]
    ]
    width = max([18] + [len(label) + 2 for label, _k in rows])
    lines = ["", f"{'how games ended':<{width}}{'A':>9}{'B':>9}"]
    for label, k in rows:
        lines.append(f"{label:<{width}}{ka.get(k, 0):>9}{kb.get(k, 0):>9}")
    moved = ends_moved(a, b)
    lines.append(
        f"{moved} of {a.runs} games ended by another end rule in B than in A"
        if moved
        else "every game ended by the same end rule in B as in A"
    )
    return lines
