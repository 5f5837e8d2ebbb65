"""Kinds listed in YAML data files: values, copies, defaults, and every kind of mistake."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from test_cli import console_script

import rulelang
from rulelang.diagnostics import RuleError

RULES = """game "data"
players 2..2
card thing from "cards.yaml" {
  name: text
  size: int = 7
  sides: list(bool) = [false, false]
}
turn { choose t in pieces(thing) }
end when turn_number > 2 { win [current] }
"""


def write(tmp_path: Path, yaml_text: str) -> Path:
    (tmp_path / "cards.yaml").write_text(yaml_text, encoding="utf-8")
    path = tmp_path / "d.rules"
    path.write_text(RULES, encoding="utf-8")
    return path


def errors(path: Path) -> list[str]:
    """The messages, each as 'CODE message', of the diagnostics compiling `path` gives,
    all at the kind's line."""
    with pytest.raises(RuleError) as info:
        rulelang.compile_file(path)
    assert all(d.span.line == 3 for d in info.value.diagnostics)
    return [f"{d.code} {d.message}" for d in info.value.diagnostics]


def test_entries_make_copies_and_missing_values_take_defaults(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "- {name: big, size: 3, count: 2}\n- {name: plain}\n- {name: open, sides: [true, false]}\n",
    )
    game = rulelang.compile_file(path).new_game(2)
    assert [a.text for a in game.legal_actions()] == ["big", "big", "plain", "open"]
    things = game.legal_values()
    assert [game.name_of("thing", t) for t in things] == ["big", "big", "plain", "open"]
    assert [game.attribute("size", of=t, kind="thing") for t in things] == [3, 3, 7, 7]
    assert [game.attribute("sides", of=t, kind="thing") for t in things] == [[False, False]] * 3 + [
        [True, False]
    ]


def test_unknown_attribute_wrong_type_bad_count_and_missing_value(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "- {name: a, siez: 1}\n- {name: b, size: many}\n- {name: c, count: -1}\n- {size: 2}\n",
    )
    found = errors(path)
    assert "E119 cards.yaml, entry 1: thing has no attribute 'siez'" in found
    assert "E120 cards.yaml, entry 2: 'size' must be int, not 'many'" in found
    assert "E118 cards.yaml, entry 3: count must be a whole number, not -1" in found
    assert "E121 cards.yaml, entry 4: 'name' is missing, and thing gives it no default" in found


def test_did_you_mean_for_a_misspelt_attribute(tmp_path: Path) -> None:
    path = write(tmp_path, "- {name: a, siez: 1}\n")
    with pytest.raises(RuleError) as info:
        rulelang.compile_file(path)
    assert info.value.diagnostics[0].hint == "did you mean 'size'?"


@pytest.mark.parametrize(
    "text, message",
    [
        ("- {name: [unclosed\n", "E109 data file 'cards.yaml' is not valid YAML"),
        ("name: a\n", "E116 data file 'cards.yaml' must be a list of entries"),
        ("- just a name\n", "E117 cards.yaml, entry 1: expected 'name: value' pairs"),
    ],
)
def test_a_file_that_is_not_a_list_of_entries(tmp_path: Path, text: str, message: str) -> None:
    found = errors(write(tmp_path, text))
    assert len(found) == 1 and found[0].startswith(message)


def test_a_missing_data_file_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "d.rules"
    path.write_text(RULES, encoding="utf-8")
    with pytest.raises(RuleError) as info:
        rulelang.compile_file(path)
    [diag] = info.value.diagnostics
    assert diag.code == "E104" and "cards.yaml" in diag.message


def nested(depth: int) -> str:
    """A data file of one entry whose name is a list nested `depth` deep in all (the
    file's list and the entry's map are two of them)."""
    inner = depth - 2
    return "- {name: " + "[" * inner + "]" * inner + "}\n"


def test_a_data_file_nesting_too_deep_is_refused_where_it_goes_too_deep(tmp_path: Path) -> None:
    found = errors(write(tmp_path, nested(65)))
    assert found == [
        "E110 refused to read data file 'cards.yaml': it nests lists and maps more than 64 "
        "deep (line 1)"
    ]
    kept = errors(write(tmp_path, nested(64)))  # as deep as allowed: read, then checked
    assert len(kept) == 1 and kept[0].startswith("E120 cards.yaml, entry 1: 'name' must be text")


def test_a_data_file_nested_50000_deep_is_refused_not_a_crash(tmp_path: Path) -> None:
    """libyaml's composer recurses in C: 50,000 deep killed the process (SIGSEGV), as
    the fuzzer found (tests/fuzz, case 777000290)."""
    path = write(tmp_path, nested(50_000))
    done = subprocess.run(
        [console_script(), "validate", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")},
    )
    assert done.returncode == 65, done.stderr[-2000:]
    assert "more than 64 deep (line 1)" in done.stdout + done.stderr
    assert "Traceback" not in done.stderr
