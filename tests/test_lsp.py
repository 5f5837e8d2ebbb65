"""`rulelang lsp` end to end: one server per module, driven over its stdin and stdout
with JSON-RPC frames as an editor drives it (rulelang/lsp/stdio_client.py)."""

from __future__ import annotations

import queue
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulelang.loader import shipped_games
from rulelang.lsp.stdio_client import Client, ServerError

RACE = """\
game "Race"
players 2..4
import dice

# The square a runner must reach to win.
const goal = 20

enum pace { slow, fast }

player {
  pos: int = 0
  style: pace = pace.slow
}

turn {
  roll r = d6
  let step = r + 1
  set current.pos += step
  if current.style == fast {
    set current.pos += 1
  }
}

end when any([p.pos >= goal for p in players]) {
  win [p for p in players where p.pos >= goal]
}
"""

VARIANT = """\
extends "saboteur"
game "Short saboteur"

# How many rounds the short game plays (see E101 in docs/errors.md).
const short_rounds = 2

override def gold_direction() = -1

override proc round_roles {
  do base
}

proc warm_up {
  for p in players {
    let n = short_rounds + p.seat
    say "{p} has {n}"
  }
}
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("lsp")


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[Client]:
    client = Client("--debounce", "50", cwd=str(folder))
    client.start(str(folder))
    yield client
    assert client.stop() == 0


def where(text: str, needle: str, nth: int = 0, into: int = 0) -> tuple[int, int]:
    """The protocol's (line, character) of the nth `needle` in `text`, plus `into`."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += into
    line = text.count("\n", 0, at)
    return line, at - (text.rfind("\n", 0, at) + 1)


def opened(server: Client, path: Path, text: str) -> tuple[str, list[dict[str, Any]]]:
    path.write_text(text, encoding="utf-8")
    uri = server.open(path)
    _at, params = server.wait("textDocument/publishDiagnostics", uri)
    return uri, params["diagnostics"]


def hover(server: Client, uri: str, text: str, needle: str, nth: int = 0, into: int = 0) -> str:
    at = server.at(uri, *where(text, needle, nth, into))
    answer = server.request("textDocument/hover", at)
    return answer["contents"]["value"] if answer else ""


def labels(server: Client, uri: str, line: int, char: int) -> set[str]:
    answer = server.request("textDocument/completion", server.at(uri, line, char))
    return {item["label"] for item in answer["items"]}


def test_diagnostics_are_the_checkers_all_at_once_with_codes_ranges_and_hints(
    server: Client, folder: Path
) -> None:
    text = RACE.replace("set current.pos += step", "set current.pos += stpe").replace(
        "let step = r + 1", "let step = r + true"
    )
    _uri, diagnostics = opened(server, folder / "wrong.rules", text)
    by_code = {d["code"]: d for d in diagnostics}
    assert set(by_code) == {"E101", "E206"}, diagnostics
    unknown = by_code["E101"]
    line, char = where(text, "stpe")
    assert unknown["range"] == {
        "start": {"line": line, "character": char},
        "end": {"line": line, "character": char + 4},
    }
    assert "unknown name 'stpe'" in unknown["message"]
    assert "hint: did you mean 'step'?" in unknown["message"]
    assert unknown["source"] == "rulelang" and unknown["severity"] == 1


def test_a_syntax_error_in_the_middle_is_reported_and_the_rest_still_known(
    server: Client, folder: Path
) -> None:
    lines = (shipped_games()["saboteur"]).read_text(encoding="utf-8").split("\n")
    middle = len(lines) // 2
    while not lines[middle].strip().startswith(("set ", "move ", "let ")):
        middle += 1
    lines[middle] += " = = ("
    text = "\n".join(lines)
    shutil.copy(shipped_games()["saboteur"].with_name("saboteur-cards.yaml"), folder)
    uri, diagnostics = opened(server, folder / "broken.rules", text)
    assert [d["code"] for d in diagnostics] == ["E001"]
    assert diagnostics[0]["range"]["start"]["line"] == middle
    assert diagnostics[0]["message"].startswith("unexpected '='")
    # the declarations below the broken line are still in the outline, and still named
    outline = server.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    last = max(s["range"]["start"]["line"] for s in outline)
    assert last > middle + 20
    assert "**param** `rounds`: `int`" in hover(server, uri, text, ">= rounds", into=3)


def test_a_variant_of_a_shipped_game_navigates_into_the_shipped_file(
    server: Client, folder: Path
) -> None:
    uri, diagnostics = opened(server, folder / "variant.rules", VARIANT)
    assert diagnostics == []
    shipped = shipped_games()["saboteur"]
    base_text = shipped.read_text(encoding="utf-8")
    # `extends "saboteur"` leads to the shipped file, as do the names it declares
    at = server.at(uri, *where(VARIANT, "extends", into=10))
    [target] = server.request("textDocument/definition", at)
    assert target["uri"] == shipped.resolve().as_uri()
    text = VARIANT.replace("let n = short_rounds", "let n = rounds + short_rounds")
    server.change(uri, 2, text)
    assert server.wait("textDocument/publishDiagnostics", uri)[1]["diagnostics"] == []
    [found] = server.request("textDocument/definition", server.at(uri, *where(text, "rounds +")))
    assert found["uri"] == shipped.resolve().as_uri()
    line = base_text.split("\n")[found["range"]["start"]["line"]]
    char = found["range"]["start"]["character"]
    assert line.startswith("param rounds") and line[char : char + 6] == "rounds"
    # `do base`: the base's version of the block
    [found] = server.request(
        "textDocument/definition", server.at(uri, *where(text, "do base", into=3))
    )
    assert found["uri"] == shipped.resolve().as_uri()
    assert base_text.split("\n")[found["range"]["start"]["line"]].startswith("proc round_roles")
    # references of an overridden def: this file's declaration and the base's uses
    at = server.at(uri, *where(text, "gold_direction"))
    refs = server.request(
        "textDocument/references", {**at, "context": {"includeDeclaration": True}}
    )
    files = {r["uri"] for r in refs}
    assert files == {uri, shipped.resolve().as_uri()}
    for r in refs:
        source = text if r["uri"] == uri else base_text
        ref_line = source.split("\n")[r["range"]["start"]["line"]]
        assert ref_line[r["range"]["start"]["character"] :].startswith("gold_direction")


def test_a_problem_in_the_base_is_shown_on_the_extends_line(server: Client, folder: Path) -> None:
    (folder / "base.rules").write_text(RACE.replace("+= step", "+= stpe"), encoding="utf-8")
    text = 'extends "base.rules"\ngame "Longer race"\noverride const goal = 30\n'
    _uri, [diag] = opened(server, folder / "longer.rules", text)
    assert diag["code"] == "E101"
    assert diag["message"].startswith("base.rules:18:22: unknown name 'stpe'")
    assert diag["range"]["start"] == {"line": 0, "character": 8}  # the path after extends


def test_go_to_the_base_counts_columns_in_utf_16_past_wide_characters(
    server: Client, folder: Path
) -> None:
    """On `extends "😀😀😀😀.rules"`, the last characters of the path (UTF-16 columns 15
    to 17, past the characters' count) led nowhere: the column was not converted."""
    (folder / ("\U0001f600" * 4 + ".rules")).write_text(RACE, encoding="utf-8")
    text = 'extends "' + "\U0001f600" * 4 + '.rules"\ngame "Wide"\n'
    uri, _ = opened(server, folder / "wide.rules", text)
    end = len(text.split("\n")[0].encode("utf-16-le")) // 2  # after the closing quote
    for character in (9, end - 3, end - 1):
        found = server.request("textDocument/definition", server.at(uri, 0, character))
        assert found and found[0]["uri"].endswith(".rules"), (character, found)


def test_references_include_names_written_in_statements_and_types(
    server: Client, folder: Path
) -> None:
    shipped = shipped_games()["saboteur"]
    shutil.copy(shipped.with_name("saboteur-cards.yaml"), folder)
    text = shipped.read_text(encoding="utf-8")
    uri, _ = opened(server, folder / "copy.rules", text)
    lines = text.split("\n")
    for needle, written in [
        ("zone hand", r"^\s*(deal|move) .*\bhand\b"),
        ("card playcard", r": playcard\b"),
    ]:
        at = server.at(uri, *where(text, needle, into=len(needle) - 1))
        refs = server.request(
            "textDocument/references", {**at, "context": {"includeDeclaration": False}}
        )
        found = {r["range"]["start"]["line"] for r in refs}
        wanted = {n for n, line in enumerate(lines) if re.search(written, line)}
        assert wanted and wanted <= found, (needle, sorted(wanted - found))
    at = server.at(uri, *where(text, "{ path,", into=2))  # a value the data file writes
    with pytest.raises(ServerError, match="written in the data file 'saboteur-cards.yaml'"):
        server.request("textDocument/rename", {**at, "newName": "tunnel"})


def test_a_module_imported_from_the_stdlib_is_navigated_into(server: Client, folder: Path) -> None:
    uri, diagnostics = opened(server, folder / "race.rules", RACE)
    assert diagnostics == []
    [target] = server.request("textDocument/definition", server.at(uri, *where(RACE, "d6")))
    assert target["uri"].endswith("/stdlib/dice.rules")
    assert target["range"]["start"] == {"line": 4, "character": 4}  # `die d6 = [1, 2, ...`


def test_hover_gives_kind_type_declaration_and_doc_comment(server: Client, folder: Path) -> None:
    uri, _ = opened(server, folder / "race.rules", RACE)
    text = hover(server, uri, RACE, "goal", 1)
    assert "**const** `goal`: `int`" in text
    assert "line 6" in text and "const goal = 20" in text
    assert "The square a runner must reach to win." in text
    assert "**attribute of player** `pos`: `int`" in hover(server, uri, RACE, "pos", 1)
    assert "**value of enum pace** `fast`: `pace`" in hover(server, uri, RACE, "fast", 1)
    assert "**local** `step`: `int`" in hover(server, uri, RACE, "step", 1)
    uri, _ = opened(server, folder / "variant.rules", VARIANT)
    assert "built-in attribute of player** `seat`" in hover(server, uri, VARIANT, "seat")


def test_hover_on_an_error_code_gives_its_catalogue_entry(server: Client, folder: Path) -> None:
    uri, _ = opened(server, folder / "variant.rules", VARIANT)
    text = hover(server, uri, VARIANT, "E101")
    assert text.startswith("**E101** unknown name (names and files)")
    assert "did you mean" in text  # the entry's text from docs/errors.md
    # and on the range of a diagnostic, the entry of its code
    wrong = RACE.replace("set current.pos += step", "set current.pos += stpe")
    uri, [diag] = opened(server, folder / "wrong2.rules", wrong)
    assert hover(server, uri, wrong, "stpe").startswith("**E101** unknown name")


def test_completion_offers_the_keywords_valid_at_the_cursor_and_the_names_in_scope(
    server: Client, folder: Path
) -> None:
    text = RACE.replace("  set current.pos += step\n", "  set current.pos += step\n  \n")
    uri, _ = opened(server, folder / "complete.rules", text)
    line, _ = where(text, "  \n")
    in_block = labels(server, uri, line, 2)
    assert {"set", "choose", "if", "roll", "let"} <= in_block
    assert not {"const", "phase", "game"} & in_block
    top = labels(server, uri, where(text, "enum pace")[0], 0)
    assert {"const", "enum", "phase", "turn", "card", "zone"} <= top
    assert not {"set", "choose"} & top
    # after `set `: names, the local `step` and the constant `goal` among them
    after_set = labels(server, uri, *where(text, "current.pos += step", into=0))
    assert {"step", "goal", "r", "current", "players", "fast", "len"} <= after_set


def test_completion_after_a_dot_offers_attributes_and_enum_values(
    server: Client, folder: Path
) -> None:
    uri, _ = opened(server, folder / "dots.rules", RACE)
    # the text as typed: `current.` then nothing yet (it does not parse)
    typed = RACE.replace("  let step = r + 1\n", "  let step = r + 1\n  set current.\n")
    server.change(uri, 2, typed)
    server.wait("textDocument/publishDiagnostics", uri)
    line, char = where(typed, "set current.", into=len("set current."))
    assert labels(server, uri, line, char) == {"pos", "style", "name", "seat"}
    typed = RACE.replace("style: pace = pace.slow", "style: pace = pace.")
    server.change(uri, 3, typed)
    server.wait("textDocument/publishDiagnostics", uri)
    line, char = where(typed, "pace = pace.", into=len("pace = pace."))
    assert labels(server, uri, line, char) == {"slow", "fast"}


def test_document_symbols_outline_the_declarations(server: Client, folder: Path) -> None:
    uri, _ = opened(server, folder / "race.rules", RACE)
    outline = server.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    names = [(s["detail"], s["name"]) for s in outline]
    assert names == [
        ("game", "Race"),
        ("players", "players 2..4"),
        ("import", "dice"),
        ("const", "goal"),
        ("enum", "pace"),
        ("player", "player"),
        ("phase", "turn"),
        ("end", "end when"),
    ]
    enum = outline[4]
    assert [c["name"] for c in enum["children"]] == ["slow", "fast"]
    assert enum["selectionRange"]["start"] == {"line": 7, "character": 5}
    assert [c["name"] for c in outline[5]["children"]] == ["pos", "style"]


def test_rename_a_local_name_renames_every_use_in_the_file(server: Client, folder: Path) -> None:
    uri, _ = opened(server, folder / "race.rules", RACE)
    at = server.at(uri, *where(RACE, "goal", 1))
    edit = server.request("textDocument/rename", {**at, "newName": "finish"})
    ranges = [e["range"]["start"] for e in edit["changes"][uri]]
    expected = [where(RACE, "goal", n) for n in range(3)]
    assert sorted((r["line"], r["character"]) for r in ranges) == expected
    assert {e["newText"] for e in edit["changes"][uri]} == {"finish"}
    prepared = server.request("textDocument/prepareRename", at)
    line, char = where(RACE, "goal", 1)
    assert prepared["start"] == {"line": line, "character": char}


def test_rename_refuses_builtins_names_of_other_files_and_bad_names(
    server: Client, folder: Path
) -> None:
    uri, _ = opened(server, folder / "variant.rules", VARIANT)
    cases = [
        ("players", "new_name", "built into rulelang"),
        ("gold_direction", "new_name", "also used in"),
        ("short_rounds", "2much", "is not a name"),
        ("short_rounds", "phase", "is a keyword"),
    ]
    for needle, new, said in cases:
        at = server.at(uri, *where(VARIANT, needle))
        with pytest.raises(ServerError, match=said) as err:
            server.request("textDocument/rename", {**at, "newName": new})
        assert err.value.code == -32803
    text = VARIANT.replace("+ p.seat", "+ p.seat + rounds")
    server.change(uri, 2, text)
    server.wait("textDocument/publishDiagnostics", uri)
    at = server.at(uri, *where(text, "+ rounds", into=2))
    with pytest.raises(ServerError, match=r"declared in .*saboteur\.rules"):
        server.request("textDocument/rename", {**at, "newName": "laps"})


def test_changes_are_checked_once_after_the_last_of_them(server: Client, folder: Path) -> None:
    uri, _ = opened(server, folder / "typing.rules", RACE)
    for version in range(2, 7):  # typed quickly: 'stpe' is the last text
        server.change(uri, version, RACE.replace("+= step", "+= " + "stpe"[: version - 2]))
    _at, params = server.wait("textDocument/publishDiagnostics", uri)
    assert params["version"] == 6
    assert [d["code"] for d in params["diagnostics"]] == ["E101"]
    with pytest.raises(queue.Empty):  # and once only
        server.wait("textDocument/publishDiagnostics", uri, timeout=0.3)


def test_without_the_extra_the_command_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rulelang.cli.main import run

    monkeypatch.setitem(sys.modules, "pygls", None)  # import pygls raises ImportError
    assert run(["lsp"]) == 69
    assert "pip install 'rulelang[lsp]'" in capsys.readouterr().err
    assert run(["lsp", "--debounce", "-1"]) == 64


def test_format_document_lays_the_file_out_as_fmt_does(server: Client, folder: Path) -> None:
    """textDocument/formatting: the text `rulelang fmt` makes, as one edit of the whole
    document; none for a formatted file or one that does not parse."""
    from rulelang.fmt import format_source

    messy = RACE.replace("  roll r = d6", "      roll   r = d6").replace(
        "pos: int = 0", "pos:int=0"
    )
    uri, _ = opened(server, folder / "messy.rules", messy)
    params = {"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": True}}
    [edit] = server.request("textDocument/formatting", params)
    assert edit["newText"] == format_source(messy) == RACE
    assert edit["range"]["start"] == {"line": 0, "character": 0}
    assert edit["range"]["end"]["line"] == messy.count("\n")
    uri, _ = opened(server, folder / "tidy.rules", RACE)
    assert server.request("textDocument/formatting", {**params, "textDocument": {"uri": uri}}) == []
    uri, _ = opened(server, folder / "broken.rules", RACE.replace("turn {", "turn {{"))
    assert server.request("textDocument/formatting", {**params, "textDocument": {"uri": uri}}) == []
