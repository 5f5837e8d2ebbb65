"""benchmarks/strength.py counts paired games: A and B play the same seeds, so its
interval of B - A is Newcombe's for paired proportions (1998, method 10), which only
the seeds on which A and B differ can widen (docs/bots.md, "Strength")."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

STRENGTH = Path(__file__).resolve().parent.parent / "benchmarks" / "strength.py"


def load():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("strength_bench", STRENGTH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["strength_bench"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_seeds_won_by_b_alone_show_a_gain_that_unpaired_counting_hides() -> None:
    """60 seeds: both win 12, B alone 8, A alone 0. Counted as two independent samples
    (20% against 33%) the interval holds 0; paired, every difference favours B."""
    strength = load()
    d, low, high = strength.paired(12, 12, 20, 60)
    _d, unpaired_low, _high = strength.newcombe(12, 20, 60)
    assert abs(d - 8 / 60) < 1e-12
    assert unpaired_low < 0 < low < d < high


def test_identical_results_give_an_interval_around_zero() -> None:
    """Every seed the same result: the difference is 0 and the interval holds it, narrower
    than the unpaired one; a seed either way widens it on that side."""
    strength = load()
    d, low, high = strength.paired(15, 15, 15, 60)
    _d, unpaired_low, unpaired_high = strength.newcombe(15, 15, 60)
    assert d == 0 and unpaired_low < low < 0 < high < unpaired_high
    _d, low_b, high_b = strength.paired(15, 15, 16, 60)
    assert low_b > low and high_b > high


def test_unrelated_pairs_give_the_unpaired_interval() -> None:
    """No correlation between the pairs (phi = 0): the paired interval is the unpaired one."""
    strength = load()
    # both 10, A alone 10, B alone 10, neither 10: a*d - b*c = 0
    assert strength.paired(10, 20, 20, 40) == strength.newcombe(20, 20, 40)


def test_only_a_role_no_seed_deals_says_so_instead_of_looking_forever() -> None:
    """`--only` with a value the seat is never dealt (a role written with a space where
    the rule file has an underscore) stops after its seeds and names the values seen."""
    root = STRENGTH.parent.parent
    done = subprocess.run(
        [sys.executable, str(STRENGTH), str(root / "rulesets" / "saboteur-stoneseekers.rules")]
        + ["-p", "4", "-n", "1", "--bot", "ismcts:10", "--role", "role", "--only", "gold seeker"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "no seed of 100..2099 gives seat 1 the role 'gold seeker'" in done.stderr
    assert "gold_seeker, saboteur, stone_seeker" in done.stderr
