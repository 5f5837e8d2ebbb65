"""Views have the shape their type says (rulelang/runtime/view_types.py): the views of
every shipped game, at several points of random games, for every seat, for PUBLIC and
for the omniscient view, whole and by parts, hold exactly the keys of `View` (or
`PartialView`), each with a value of its declared type.

The check reads the TypedDicts' annotations at run time (no library needed): a key
the runtime adds without declaring it, a declared key it leaves out, or a value of
another type is reported with its path in the view."""

from __future__ import annotations

import random
import types
import typing
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, is_typeddict

import pytest
from test_reveal_to import PEEK

import rulelang
from rulelang import PUBLIC, Game
from rulelang.runtime import view_types
from rulelang.runtime.view_types import PartialView, Tile, View

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted([*ROOT.glob("rulesets/*.rules"), *ROOT.glob("rulesets/examples/*.rules")])
STOPS = (0, 3, 12, 40, 120)  # the steps of a random game at which views are checked
LAST = 400  # a game still going after so many steps is checked there too, then left
PARTS = (
    {"players"},
    {"zones", "private"},
    {"decision", "results", "log"},
    {"boards", "board_state", "zone_tiles"},
)


def problems(value: object, tp: Any, path: str = "view") -> list[str]:
    """Where `value` does not have the type `tp` (a TypedDict, dict[..], list[..], a
    union, a plain class, or a forward reference to a name of view_types)."""
    if isinstance(tp, str | typing.ForwardRef):
        name = tp if isinstance(tp, str) else tp.__forward_arg__
        return problems(value, getattr(view_types, name), path)
    if is_typeddict(tp):
        return _typed_dict(value, tp, path)
    origin, args = get_origin(tp), get_args(tp)
    if origin in (Union, types.UnionType):
        found = [problems(value, arg, path) for arg in args]
        return [] if any(not f for f in found) else [f"{path}: {value!r} is not {tp}"]
    if origin is Literal:
        return [] if value in args else [f"{path}: {value!r} is not one of {args}"]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__} where a dict was due"]
        return [
            p
            for k, v in value.items()
            for p in problems(k, args[0], f"{path} key {k!r}")
            + problems(v, args[1], f"{path}[{k!r}]")
        ]
    if origin is list:
        if not isinstance(value, list):
            return [f"{path}: {type(value).__name__} where a list was due"]
        return [p for i, v in enumerate(value) for p in problems(v, args[0], f"{path}[{i}]")]
    if tp is None or tp is type(None):
        return [] if value is None else [f"{path}: {value!r} is not None"]
    # a truth value is no number: bool is a subclass of int, but not its stand-in here
    if tp is int and isinstance(value, bool):
        return [f"{path}: {value!r} is a truth value, not a number"]
    return [] if isinstance(value, tp) else [f"{path}: {value!r} is not {tp.__name__}"]


def _typed_dict(value: object, tp: Any, path: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{path}: {type(value).__name__} where a {tp.__name__} was due"]
    hints = typing.get_type_hints(tp)
    out = [f"{path}: no key {k!r}" for k in sorted(tp.__required_keys__ - value.keys())]
    out += [f"{path}: key {k!r} is not in {tp.__name__}" for k in value.keys() - hints.keys()]
    for key in value.keys() & hints.keys():
        out += problems(value[key], hints[key], f"{path}[{key!r}]")
    return out


def _viewers(game: Game) -> list[int | None]:
    return [*range(game.players), PUBLIC, None]


def _check(game: Game, where: str, seen: set[str]) -> None:
    for viewer in _viewers(game):
        whole = game.view(viewer)
        assert problems(whole, View) == [], f"{where}, viewer {viewer}"
        seen.update(whole)
        for parts in PARTS:
            part = game.view(viewer, only=parts)
            assert problems(part, PartialView) == [], f"{where}, viewer {viewer}, {parts}"


def _random_game(rules: rulelang.Ruleset, players: int, seed: int, seen: set[str]) -> None:
    game = rules.new_game(players, seed)
    rng = random.Random(seed)
    for step in range(LAST + 1):
        if step in STOPS or step == LAST or game.is_over():
            _check(game, f"{rules.title}, {players} players, seed {seed}, step {step}", seen)
        if game.is_over():
            return
        actions = game.legal_actions()
        game.apply(actions[int(rng.random() * len(actions))])


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_game_gives_views_of_the_declared_type(path: Path) -> None:
    rules = rulelang.compile_file(path)
    seen: set[str] = set()
    for players in dict.fromkeys((rules.min_players, rules.max_players)):
        _random_game(rules, players, seed=players, seen=seen)
    # the whole views had every part, and a decision was met
    assert View.__required_keys__ <= seen and {"to_act"} <= seen


def test_what_a_player_was_shown_of_a_hidden_zone_has_the_declared_shape() -> None:
    """A hidden zone lists as `known` what `reveal ... to` showed the viewer."""
    rules = rulelang.compile_source(PEEK)
    seen: set[str] = set()
    _random_game(rules, 2, seed=4, seen=seen)
    known = rules.new_game(2, seed=4).view(0)["zones"]["bag"]
    assert isinstance(known, dict) and "known" in known
    assert problems(known, view_types.HiddenZone) == []


def test_the_check_finds_a_missing_key_an_undeclared_key_and_a_wrong_value() -> None:
    game = rulelang.compile_file(ROOT / "rulesets" / "saboteur.rules").new_game(4, 1)
    view: dict[str, Any] = dict(game.view(0))
    assert problems(view, View) == []
    del view["log"]
    view["extra"] = 1
    view["turn"] = True
    view["zones"] = {**view["zones"], "deck": {"size": "43"}}
    found = sorted(problems(view, View))
    assert found[:3] == [
        "view: key 'extra' is not in View",
        "view: no key 'log'",
        "view['turn']: True is a truth value, not a number",
    ]
    assert len(found) == 4 and found[3].startswith("view['zones']['deck']: {'size': '43'} is not")


def test_tiles_face_down_and_face_up_have_the_declared_shape() -> None:
    """A face-down tile is {"tile": "?", "secret": True} to the players; the omniscient
    view gives the truth and the card's index (docs/api.md, "Views")."""
    game = rulelang.compile_file(ROOT / "rulesets" / "saboteur.rules").new_game(4, 1)
    hidden = game.view(0)["boards"]["maze"]["8,0"]
    truth = game.view(None)["boards"]["maze"]["8,0"]
    assert hidden == {"tile": "?", "secret": True} and problems(hidden, Tile) == []
    assert set(truth) == set(Tile.__annotations__) and problems(truth, Tile) == []
