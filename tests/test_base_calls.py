"""`do base` in an override: the base file's version of setup, turn, a proc or a
phase's blocks, run at that point; arguments given or passed on; variants of variants;
the base's block seeing the variant's names. Diagnostics: tests/snippets/base_calls.rules."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.diagnostics import RuleError

BASE = """game "base"
players 2..3
player { score: int = 0 }
setup {
  for p in players { set p.score = 1 }
  say "base setup"
  do greet
}
proc greet { say "hello from the base" }
proc gain(n: int) {
  set current.score += n
  say "base gain {n}"
}
phase main {
  begin { say "base begin" }
  turn {
    choose n in 1..2
    do gain(n)
  }
}
end when any(p.score >= 30 for p in players) { win [current] }
"""


def compile_variant(tmp_path: Path, *variants: str) -> rulelang.Ruleset:
    (tmp_path / "base.rules").write_text(BASE, encoding="utf-8")
    previous = "base.rules"
    for i, text in enumerate(variants):
        name = f"v{i + 1}.rules"
        (tmp_path / name).write_text(f'extends "{previous}"\n' + text, encoding="utf-8")
        previous = name
    return rulelang.compile_file(tmp_path / previous)


def test_an_override_runs_the_base_block_where_it_says_do_base(tmp_path: Path) -> None:
    rules = compile_variant(
        tmp_path,
        """
override setup { say "v1 first"  do base  say "v1 after" }
override proc greet { say "hello from the variant" }
override phase main {
  begin { do base  say "v1 begin" }
  turn { say "v1 turn"  do base }
}
""",
    )
    game = rules.new_game(2, seed=1)
    game.apply("2")
    assert game.history(None) == [
        "v1 first",
        "base setup",
        "hello from the variant",  # the base's setup calls the variant's greet
        "v1 after",
        "base begin",
        "v1 begin",
        "v1 turn",
        "P1 chooses 2",
        "base gain 2",
        "v1 turn",  # the next turn runs up to its choice
    ]
    assert game.attribute("score", of=0, kind="player") == 3


def test_do_base_passes_the_parameters_on_or_other_arguments(tmp_path: Path) -> None:
    rules = compile_variant(
        tmp_path,
        """
override proc gain(n: int) {
  do base                 # gain(n)
  set n = n * 10
  do base                 # the parameter as it is now: gain(10 n)
  do base(1)
}
""",
    )
    game = rules.new_game(2, seed=1)
    game.apply("2")
    assert game.history(None)[-3:] == ["base gain 2", "base gain 20", "base gain 1"]
    assert game.attribute("score", of=0, kind="player") == 1 + 2 + 20 + 1


def test_a_variant_of_a_variant_calls_its_immediate_base(tmp_path: Path) -> None:
    rules = compile_variant(
        tmp_path,
        'override proc gain(n: int) { say "v1 gain"  do base }\n',
        'override proc gain(n: int) { say "v2 gain"  do base(n + 1) }\n'
        'override setup { do base  say "v2 setup" }\n',
    )
    game = rules.new_game(2, seed=1)
    assert game.history(None) == ["base setup", "hello from the base", "v2 setup", "base begin"]
    game.apply("1")
    assert game.history(None)[-3:] == ["v2 gain", "v1 gain", "base gain 2"]


def test_an_override_without_do_base_drops_the_bases_below(tmp_path: Path) -> None:
    # v1's gain calls the base's; v2 replaces v1's gain without `do base`, so neither
    # older version is kept (or checked: the base's gain would not fit v2's score)
    rules = compile_variant(
        tmp_path,
        'override proc gain(n: int) { say "v1 gain"  do base }\n',
        'override proc gain(n: int) { say "v2 gain" }\n',
    )
    assert not any(name.startswith("base ") for name in rules.program.procs)
    game = rules.new_game(2, seed=1)
    game.apply("1")
    assert game.history(None)[-1] == "v2 gain"


def test_a_base_block_that_asks_pauses_inside_the_override(tmp_path: Path) -> None:
    rules = compile_variant(
        tmp_path,
        """
global { extra: int = 0 }
override turn {
  do base                # asks n, then gains it
  choose bonus in 5..6 prompt "Bonus?"
  set current.score += bonus
}
""",
    )
    game = rules.new_game(2, seed=1)
    assert game.prompt() == "choose n"
    game.apply("1")
    assert game.prompt() == "Bonus?"
    game.apply("6")
    assert game.attribute("score", of=0, kind="player") == 1 + 1 + 6
    assert game.current_player() == 1


def test_do_base_outside_an_override_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(RuleError) as info:
        compile_variant(tmp_path, "proc more { do base }\n")
    (d,) = info.value.diagnostics
    assert d.code == "E321"
    assert d.message == "'do base' in proc more, which does not override a base block"
