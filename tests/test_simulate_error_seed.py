"""A rule that fails in one game of a simulation stopped `simulate` with the error and
no word of which game: the designer could not play that game again to see how it came
about. The error now names the seed of the first game that failed."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import cli, no_traceback

# the choice has no option when the third turn rolls a 6: seed 11 is the first such
# game, the first game (seed 0, tried alone before the run) ends well
SOMETIMES_EMPTY = """
game "Sometimes empty"
players 2..2
die d6 = 1..6
global { turns: int = 0 }
turn {
  roll face = d6
  choose n in [k for k in 1..3 where face != 6 or turns < 2]
  set turns += 1
}
end when turns >= 3 { draw players }
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_runtime_error_in_a_simulation_names_the_game_s_seed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, jobs: str
) -> None:
    path = tmp_path / "sometimes.rules"
    path.write_text(SOMETIMES_EMPTY, encoding="utf-8")
    code, out, err = cli(capsys, "simulate", path, "-p", "2", "-n", "60", "--jobs", jobs)
    assert code == 70
    no_traceback(out, err)
    assert "runtime error[R002]: nobody can choose 'n' here" in err
    seed = int(err.split("in the game of seed ")[1].split(" ")[0])
    assert f"`--seed {seed} -n 1` plays it alone" in err
    # that seed alone fails the same way; the seeds before it do not
    code, _, again = cli(capsys, "simulate", path, "-p", "2", "-n", "1", "--seed", str(seed))
    assert code == 70 and f"in the game of seed {seed} " in again
    if jobs == "1":  # in order: the first that failed (a pool's chunks end in any order)
        assert seed > 0
        code, _, _ = cli(capsys, "simulate", path, "-p", "2", "-n", str(seed))
        assert code == 0
