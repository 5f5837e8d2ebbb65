"""What the Saboteur tests share: the rule files, the reference's tables, state access."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.runtime.engine import Game, Ruleset

ROOT = Path(__file__).resolve().parent.parent
SABOTEUR = ROOT / "rulesets" / "saboteur.rules"
OFFICIAL = ROOT / "rulesets" / "saboteur-official.rules"

# ../shared/reference/saboteur.md
SABOTEUR_CARDS = {3: 1, 4: 1, 5: 2, 6: 2, 7: 3, 8: 3, 9: 3, 10: 4}
MINER_CARDS = {3: 3, 4: 4, 5: 4, 6: 5, 7: 5, 8: 6, 9: 7, 10: 7}
PLAYCARDS = 71  # 40 tunnels, the start, 3 goals, 27 action cards


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return rulelang.compile_file(SABOTEUR)


@pytest.fixture(scope="module")
def official() -> Ruleset:
    return rulelang.compile_file(OFFICIAL)


def column(g: Game, kind: str, attr: str) -> list[Any]:
    """The values of one attribute of a piece or card kind, by item."""
    k = next(k for k in g.rules.program.kinds if k.name == kind)
    return g.state.cols[k.attrs[attr].slot]  # type: ignore[no-any-return]


def zone(g: Game, name: str, owner: int = 0) -> list[Any]:
    """The items in a zone (a per-player zone: the owner's)."""
    return g.state.zones[g.rules.ec.zone_base[name] + owner]  # type: ignore[no-any-return]
