"""The package ships whole: every stdlib module is found where the loader looks, from a
clone and from a wheel's layout, and `tests/packaging/uses_stdlib.rules` imports and
uses every one of them. (CI also builds the wheel and plays that file from a fresh
virtual environment: tests/packaging/check_wheel.py.)"""

from __future__ import annotations

import random
import re
import shutil
import tomllib
from pathlib import Path

import pytest

import rulelang
from rulelang import loader
from rulelang.syntax import ast as A
from rulelang.syntax.parser import parse

ROOT = Path(__file__).resolve().parent.parent
STDLIB = ROOT / "stdlib"
MODULES = sorted(p.stem for p in STDLIB.glob("*.rules"))
USES = ROOT / "tests" / "packaging" / "uses_stdlib.rules"


@pytest.fixture(autouse=True)
def no_stdlib_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(loader.STDLIB_ENV, raising=False)
    monkeypatch.delenv(loader.ALLOW_ENV, raising=False)


def test_the_wheel_lists_every_package_and_ships_the_stdlib() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    on_disk = {
        ".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "rulelang").rglob("__init__.py")
    }
    assert set(setuptools["packages"]) == on_disk | {"rulelang.stdlib", "rulelang.rulesets"}, (
        "pyproject.toml [tool.setuptools] packages must list every package under rulelang/"
    )
    assert setuptools["package-dir"] == {
        "rulelang.stdlib": "stdlib",
        "rulelang.rulesets": "rulesets",
    }
    assert setuptools["package-data"]["rulelang.stdlib"] == ["*.rules"]
    globs = setuptools["package-data"]["rulelang.rulesets"]
    shipped = {path for glob in globs for path in (ROOT / "rulesets").glob(glob)}
    for path in (ROOT / "rulesets").rglob("*"):
        if path.is_file() and path.suffix in (".rules", ".yaml", ".rulestest"):
            assert path in shipped, f"{path.relative_to(ROOT)} is not in the wheel"
    assert "syntax/*.lark" in setuptools["package-data"]["rulelang"]


def test_the_wheel_says_it_is_typed() -> None:
    """The py.typed marker (PEP 561): a user's type checker then reads rulelang's types,
    `View` among them, instead of treating the package as untyped."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "py.typed" in setuptools["package-data"]["rulelang"]
    assert (ROOT / "rulelang" / "py.typed").is_file()


def test_the_shipped_stdlib_holds_every_module_of_the_clone() -> None:
    assert MODULES, "stdlib/ has no modules"
    shipped = loader.shipped_stdlib()
    assert {p.stem for p in shipped.glob("*.rules")} >= set(MODULES)
    if Path(rulelang.__file__).resolve().is_relative_to(ROOT):
        # run from this clone (installed editable or not at all): its stdlib/ is read in
        # place, and no copy inside the package hides an edit to it
        assert shipped.resolve() == STDLIB
        assert not (ROOT / "rulelang" / "stdlib").exists()


@pytest.mark.parametrize("layout", ["wheel", "clone"])
def test_the_shipped_stdlib_in_each_layout(
    layout: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Installed from a wheel, the stdlib is rulelang/stdlib/; in a clone, the clone's
    stdlib/ beside rulelang/, read afresh each time (a designer's edit is seen)."""
    package = tmp_path / "site" / "rulelang"
    package.mkdir(parents=True)
    folder = package / "stdlib" if layout == "wheel" else package.parent / "stdlib"
    folder.mkdir()
    monkeypatch.setattr(loader, "__file__", str(package / "loader.py"))
    assert loader.shipped_stdlib() == folder.resolve()
    (folder / "extra.rules").write_text('library "extra"\ndie d3 = [1, 2, 3]\n')
    game = tmp_path / "games" / "g.rules"
    game.parent.mkdir()
    game.write_text(
        'game "g"\nplayers 2..2\nimport extra\nturn { roll f = d3\n choose n in 1..f }\n'
        "end when turn_number > 2 { }\n"
    )
    assert rulelang.compile_file(game).new_game(2, seed=0).legal_actions()
    (folder / "extra.rules").write_text('library "extra"\ndie d3 = [5]\n')
    game_now = rulelang.compile_file(game).new_game(2, seed=0)
    assert [a.text for a in game_now.legal_actions()] == ["1", "2", "3", "4", "5"]


def declared(module: str) -> set[str]:
    text = (STDLIB / f"{module}.rules").read_text(encoding="utf-8")
    return {d.name for d in parse(text, f"{module}.rules").decls if isinstance(d, A.Named)}


def test_uses_stdlib_imports_and_uses_every_module() -> None:
    text = USES.read_text(encoding="utf-8")
    module = parse(text, str(USES))
    imported = {d.module for d in module.decls if isinstance(d, A.ImportDecl)}
    missing = set(MODULES) - imported
    assert not missing, f"add 'import NAME' to {USES.name} for each of {sorted(missing)}"
    body = "\n".join(
        line.split("#", 1)[0] for line in text.splitlines() if not line.startswith("import ")
    )
    words = set(re.findall(r"[A-Za-z_]\w*", body))
    unused = [m for m in MODULES if not declared(m) & words]
    assert not unused, f"{USES.name} uses nothing from {unused}: use something from each"


def test_uses_stdlib_compiles_and_plays_outside_the_clone(tmp_path: Path) -> None:
    """Copied outside the clone, the file finds every module in the shipped stdlib."""
    copy = tmp_path / USES.name
    shutil.copyfile(USES, copy)
    served = {m for m in MODULES if (loader.shipped_stdlib() / f"{m}.rules").is_file()}
    assert served == set(MODULES)
    rules = rulelang.compile_file(copy)
    for n in range(rules.min_players, rules.max_players + 1):
        game = rules.new_game(n, seed=n)
        rng = random.Random(n)
        while not game.is_over():
            game.apply(rng.choice(game.legal_actions()))
        assert "win" in game.results()


@pytest.mark.parametrize("layout", ["wheel", "clone"])
def test_the_shipped_games_in_each_layout(
    layout: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Installed from a wheel, the shipped games are rulelang/rulesets/; in a clone, the
    clone's rulesets/ beside rulelang/; `extends "NAME"` finds them by name."""
    package = tmp_path / "site" / "rulelang"
    package.mkdir(parents=True)
    folder = package / "rulesets" if layout == "wheel" else package.parent / "rulesets"
    (folder / "examples").mkdir(parents=True)
    monkeypatch.setattr(loader, "__file__", str(package / "loader.py"))
    assert loader.shipped_rulesets() == folder.resolve()
    (folder / "race.rules").write_text(
        'game "Race"\nplayers 2..2\nparam goal = 3 "to win"\nplayer { score: int = 0 }\n'
        "turn { choose n in 1..2\n set current.score += n }\n"
        "end when current.score >= goal { win [current] }\n"
    )
    (folder / "examples" / "tiny.rules").write_text((folder / "race.rules").read_text())
    assert sorted(loader.shipped_games()) == ["race", "tiny"]
    variant = tmp_path / "mine" / "long.rules"
    variant.parent.mkdir()
    variant.write_text('extends "race"\ngame "Long race"\noverride param goal = 9 "longer"\n')
    rules = rulelang.compile_file(variant)
    assert (rules.title, rules.new_game(2).value("goal")) == ("Long race", 9)


def test_the_shipped_games_by_name_from_outside_the_clone(tmp_path: Path) -> None:
    """Every shipped game is named by its file's stem, and a variant outside the clone
    extends it by that name, data files and all, without allowing any folder."""
    games = loader.shipped_games()
    shipped = sorted(p.stem for p in (ROOT / "rulesets").glob("*.rules"))
    assert set(shipped) | {"tictactoe"} <= set(games)
    for name in ["saboteur", "heimlich-topsecret", "tictactoe"]:
        variant = tmp_path / f"my-{name}.rules"
        variant.write_text(f'extends "{name}"\ngame "My {name}"\n')
        rules = rulelang.compile_file(variant)
        game = rules.new_game(rules.min_players, seed=1)
        assert rules.title == f"My {name}" and game.legal_actions()
