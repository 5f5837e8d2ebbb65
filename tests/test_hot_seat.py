"""Hot seat (`rulelang play` with several humans at one screen): no line told to one
player is ever on the screen, or in the terminal's scrollback, once another holds it
(issue 24).

Seed 002: "Important: The game master will NEVER give away the location of anyone in
the game except when a player is found by another player", and a wall's position is
never given away ("Game Master: Do NOT give away where the wall is on the map"); in
the labyrinth almost every message is told to one player alone.

`rulelang play` runs in a child process with scripted answers; its output is read as
a terminal would show it: an erase of the screen ("\\033[2J") leaves the lines above in
the scrollback, where the next player can scroll up to them; only an erase of the
scrollback ("\\033[3J") takes them away.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HANDOVER = re.compile(r"Pass the screen to (P\d) and press Enter")
WIPE = "\033[3J"  # erases the scrollback: what was printed before is gone
# messages the labyrinth's game master tells the moving player alone
ALONE = re.compile(
    r"\b(P\d) (walks into a SAFE clearing|cannot move \w+\. Blocked by wall"
    r"|enters and exits a portal|is flushed by the river|sinks into a MARSH"
    r"|enters a (SHOP|HOSPITAL)|also stumbles across|has found an exit, but|tries to go)"
)


def play_at_one_screen(tmp_path: Path, seed: int, answers: int) -> str:
    """Three humans play the labyrinth with random answers, until the answers run out."""
    rng = random.Random(seed)
    script = "".join(f"{rng.randint(1, 4)}\n" for _ in range(answers))
    done = subprocess.run(
        [sys.executable, "-c", "from rulelang.cli.main import main; main()", "play",
         str(ROOT / "rulesets" / "labyrinth.rules"), "--players", "3", "--seed", str(seed)],
        input=script,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "RULELANG_DATA_DIR": str(tmp_path / "data")},
        timeout=120,
    )  # fmt: skip
    assert done.returncode in (0, 130), done.stderr
    return done.stdout


def test_no_player_can_see_or_scroll_back_to_another_s_messages(tmp_path: Path) -> None:
    seen_handovers = seen_private = 0
    for seed in (1, 2):
        out = play_at_one_screen(tmp_path, seed, answers=400)
        out = out.split("\nGame over.\n")[0]  # then the game master's log is for all
        # what can be on the terminal, screen or scrollback, while each player holds it
        holder, shown = None, ""
        for piece in re.split(f"({re.escape(WIPE)})", out):
            if piece == WIPE:
                shown = ""
                continue
            for part in re.split(HANDOVER, piece):
                if re.fullmatch(r"P\d", part):
                    holder, shown = part, shown + part
                    seen_handovers += 1
                    continue
                shown += part
                seen_private += len(ALONE.findall(part))
                if holder is None:
                    continue
                for match in ALONE.finditer(shown):
                    assert match.group(1) == holder, (
                        f"{holder} holds the screen and can read {match.group(0)!r}"
                    )
    assert seen_handovers > 20 and seen_private > 20  # the game was really played
