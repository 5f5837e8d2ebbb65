"""Rule files cannot read the disk: `extends`, `import` and data files stay inside the
folder of the main rule file (or a stdlib folder, or one given with `--allow-path`),
read only small regular files, and a refusal (E110) quotes nothing of the file refused.
"""

from __future__ import annotations

import builtins
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import cli, no_traceback

import rulelang
from rulelang.diagnostics import Diagnostic, RuleError, did_you_mean
from rulelang.loader import ALLOW_ENV, MAX_FILE_BYTES, Refused, read_limited

SECRET = "s3cr3t-7f3a9c"  # written only into files a rule file must not read

BASE = """game "Base"
players 2..2
card thing from "things.yaml" {
  name: text
}
turn { choose t in pieces(thing) }
end when turn_number > 2 { win [current] }
"""
THINGS = "- {name: alpha}\n- {name: beta, count: 2}\n"
GAME = 'game "Main"\nplayers 2..2\nturn { choose n in 1..2 }\nend when turn_number > 2 { }\n'


@pytest.fixture(autouse=True)
def no_hang() -> Iterator[None]:
    """A read that blocks (a FIFO) or never ends (/dev/zero) fails the test instead."""

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError("a rule file read blocked or ran on")

    if not hasattr(signal, "SIGALRM"):
        yield
        return
    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(60)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder next to the game's folder, holding secrets in a rule file and YAML."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.rules").write_text(
        f'game "{SECRET}"\n{SECRET} = {SECRET}\n', encoding="utf-8"
    )
    (folder / "secret.yaml").write_text(
        f"- {{name: {SECRET}, {SECRET}: {SECRET}, count: {SECRET}}}\n", encoding="utf-8"
    )
    (folder / "SECRET").write_text(SECRET, encoding="utf-8")
    return folder


@pytest.fixture
def game(tmp_path: Path) -> Path:
    folder = tmp_path / "game"
    folder.mkdir()
    return folder


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def with_data(path: str, kind: str = "thing") -> str:
    """A game whose one card kind is listed in the data file `path`."""
    return BASE.replace('"things.yaml"', f'"{path}"').replace("thing", kind)


def refused(path: Path, **kw: object) -> Diagnostic:
    """Compile `path`: it must fail with one E110, quoting nothing of the secret."""
    with pytest.raises(RuleError) as info:
        rulelang.compile_file(path, **kw)  # type: ignore[arg-type]
    err = info.value
    assert [d.code for d in err.diagnostics] == ["E110"], str(err)
    assert SECRET not in str(err)
    assert all(SECRET not in text for text in (err.sources.texts if err.sources else {}).values())
    return err.diagnostics[0]


def at_string(diag: Diagnostic, path: Path, written: str) -> None:
    """The diagnostic is at the path's string in the rule file that writes it."""
    lines = path.read_text(encoding="utf-8").split("\n")
    line = next(i for i, text in enumerate(lines, 1) if f'"{written}"' in text)
    col = lines[line - 1].index(f'"{written}"') + 1
    assert diag.span.file == str(path)
    assert (diag.span.line, diag.span.col) == (line, col)
    assert diag.span.end_col == col + len(written) + 2


# --------------------------------------------------------------------------- refusals
def test_an_absolute_path_is_refused(game: Path, outside: Path) -> None:
    target = str(outside / "secret.rules")
    path = write(game / "v.rules", f'extends "{target}"\n{GAME}')
    diag = refused(path)
    assert diag.message == f"refused to read '{target}': absolute paths are not allowed"
    assert "relative" in diag.hint
    at_string(diag, path, target)

    data = str(outside / "secret.yaml")
    path = write(game / "d.rules", with_data(data))
    diag = refused(path)
    assert diag.message.startswith(f"refused to read data file '{data}': absolute paths")
    at_string(diag, path, data)


@pytest.mark.parametrize("target", ["/proc/self/environ", "/etc/passwd", "/dev/zero"])
def test_system_files_are_refused(game: Path, target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    marker = f"env-{SECRET}"
    monkeypatch.setenv("RULELANG_TEST_MARKER", marker)  # shows in /proc/self/environ
    path = write(game / "v.rules", f'extends "{target}"\n{GAME}')
    diag = refused(path)
    assert marker not in str(diag)
    path = write(game / "d.rules", with_data(target))
    diag = refused(path)
    assert marker not in str(diag)


def test_dot_dot_out_of_the_tree_is_refused(game: Path, outside: Path) -> None:
    path = write(game / "v.rules", f'extends "../outside/secret.rules"\n{GAME}')
    diag = refused(path)
    assert diag.message == (
        "refused to read '../outside/secret.rules': "
        "it leads outside the folders a rule file may read"
    )
    assert "--allow-path" in diag.hint
    at_string(diag, path, "../outside/secret.rules")
    # also from a base inside the tree, and for a data file
    write(game / "sub" / "base.rules", 'extends "../../outside/secret.rules"\n')
    path = write(game / "v2.rules", f'extends "sub/base.rules"\n{GAME}')
    diag = refused(path)
    assert diag.span.file == str((game / "sub" / "base.rules").resolve())
    path = write(game / "d.rules", with_data("sub/../../outside/secret.yaml"))
    refused(path)


def test_a_symlink_out_of_the_tree_is_refused(game: Path, outside: Path) -> None:
    (game / "link.rules").symlink_to(outside / "secret.rules")
    (game / "link.yaml").symlink_to(outside / "secret.yaml")
    (game / "folder").symlink_to(outside, target_is_directory=True)
    for text in (
        f'extends "link.rules"\n{GAME}',
        f'extends "folder/secret.rules"\n{GAME}',
        with_data("link.yaml"),
        with_data("folder/secret.yaml"),
    ):
        diag = refused(write(game / "v.rules", text))
        assert "through a symbolic link outside" in diag.message


def test_a_symlink_inside_the_tree_is_fine(game: Path) -> None:
    write(game / "real" / "base.rules", BASE)
    write(game / "real" / "things.yaml", THINGS)
    (game / "base.rules").symlink_to(game / "real" / "base.rules")
    (game / "things.yaml").symlink_to(game / "real" / "things.yaml")
    rules = rulelang.compile_file(write(game / "v.rules", 'extends "base.rules"\ngame "V"\n'))
    assert rules.title == "V"
    assert rulelang.compile_file(write(game / "d.rules", BASE)).title == "Base"


def test_paths_within_the_tree_still_work(game: Path) -> None:
    write(game / "base.rules", BASE)
    write(game / "things.yaml", THINGS)
    write(game / "lib" / "mid.rules", 'extends "../base.rules"\ngame "Mid"\n')
    path = write(game / "main.rules", 'extends "lib/./../lib/mid.rules"\ngame "Main"\n')
    rules = rulelang.compile_file(path)
    assert rules.title == "Main"
    assert [a.text for a in rules.new_game(2).legal_actions()] == ["alpha", "beta", "beta"]


def test_dev_zero_and_other_devices_are_refused(game: Path) -> None:
    (game / "zero.rules").symlink_to("/dev/zero")
    (game / "zero.yaml").symlink_to("/dev/zero")
    diag = refused(write(game / "v.rules", f'extends "zero.rules"\n{GAME}'))
    assert "outside" in diag.message
    # even in a folder the caller allows, a device is not a file
    for text in (f'extends "zero.rules"\n{GAME}', with_data("zero.yaml")):
        diag = refused(write(game / "v.rules", text), allow=["/dev"])
        assert diag.message.endswith("it is not a regular file (a device, a pipe or a socket)")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_waiting(game: Path) -> None:
    os.mkfifo(game / "pipe.rules")
    os.mkfifo(game / "pipe.yaml")
    for text in (f'extends "pipe.rules"\n{GAME}', with_data("pipe.yaml")):
        diag = refused(write(game / "v.rules", text))
        assert "not a regular file" in diag.message
    with pytest.raises(Refused):
        read_limited(game / "pipe.yaml")


def test_a_folder_is_refused(game: Path) -> None:
    (game / "sub.rules").mkdir()
    (game / "sub.yaml").mkdir()
    for text in (f'extends "sub.rules"\n{GAME}', with_data("sub.yaml"), with_data(".")):
        diag = refused(write(game / "v.rules", text))
        assert diag.message.endswith("it is a folder, not a file")


def test_files_over_the_size_limit_are_refused(game: Path) -> None:
    assert MAX_FILE_BYTES == 1024 * 1024
    too_big = "#" * MAX_FILE_BYTES + "\n"
    write(game / "big.rules", too_big)
    diag = refused(write(game / "v.rules", f'extends "big.rules"\n{GAME}'))
    assert diag.message == "refused to read 'big.rules': it is larger than 1 MiB"
    write(game / "big.yaml", too_big)
    diag = refused(write(game / "d.rules", with_data("big.yaml")))
    assert diag.message == "refused to read data file 'big.yaml': it is larger than 1 MiB"
    # the main rule file too
    with pytest.raises(RuleError) as info:
        rulelang.compile_file(game / "big.rules")
    assert [d.code for d in info.value.diagnostics] == ["E110"]
    # exactly the limit is read
    write(game / "edge.yaml", "#" * (MAX_FILE_BYTES - 1) + "\n")
    assert len(read_limited(game / "edge.yaml")) == MAX_FILE_BYTES


@pytest.mark.parametrize(
    "written, reason",
    [
        ("base\0.rules", "the path contains a NUL byte"),
        ("a/" * 600 + "b.rules", "the path is longer than 1024 characters"),
        ("x" * 300 + ".rules", "a part of the path is longer than 255 characters"),
        ("", "the path is empty"),
    ],
    ids=["nul", "long", "long-part", "empty"],
)
def test_odd_path_strings_are_refused_cleanly(
    game: Path, capsys: pytest.CaptureFixture[str], written: str, reason: str
) -> None:
    write(game / "base.rules", BASE)
    path = write(game / "v.rules", f'extends "{written}"\n{GAME}')
    diag = refused(path)
    assert diag.message.endswith(reason)
    assert "\0" not in diag.message and len(diag.message) < 300
    if not written:  # `from ""` is no data file at all: the kind needs a count
        return
    data = write(game / "d.rules", with_data(written))
    assert refused(data).message.endswith(reason)
    code, out, err = cli(capsys, "validate", path, data)
    assert code == 65
    no_traceback(out, err)
    assert err.count("error[E110]") == 2


def test_a_file_that_is_not_utf8_is_reported_without_its_bytes(game: Path) -> None:
    (game / "bin.rules").write_bytes(b"\xff\xfe" + SECRET.encode())
    with pytest.raises(RuleError) as info:
        rulelang.compile_file(write(game / "v.rules", f'extends "bin.rules"\n{GAME}'))
    [diag] = info.value.diagnostics
    assert diag.code == "E104" and diag.message.endswith("it is not UTF-8 text")
    assert SECRET not in str(info.value) and "0xff" not in str(info.value)


# --------------------------------------------------------------------------- import
def test_an_unknown_module_is_e114_and_an_odd_name_e115(game: Path) -> None:
    with pytest.raises(RuleError) as info:
        rulelang.compile_file(write(game / "v.rules", f"import nosuch\n{GAME}"))
    [diag] = info.value.diagnostics
    assert diag.code == "E114" and diag.message == "no stdlib module named 'nosuch'"
    with pytest.raises(RuleError) as info:
        rulelang.compile_file(write(game / "v.rules", f"import {'m' * 300}\n{GAME}"))
    [diag] = info.value.diagnostics
    assert diag.code == "E115" and diag.message.endswith("is not a stdlib module name")
    assert len(diag.message) < 300


def test_a_stdlib_module_that_links_out_of_its_folder_is_refused(
    game: Path, outside: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "evil.rules").symlink_to(outside / "secret.rules")
    (lib / "evil2.rules").symlink_to(outside)  # a folder named like a module
    if hasattr(os, "mkfifo"):
        os.mkfifo(lib / "pipe.rules")
    monkeypatch.setenv("RULELANG_PATH", str(lib))
    diag = refused(write(game / "v.rules", f"import evil\n{GAME}"))
    assert diag.message == (
        "refused to read stdlib module 'evil': it is a link that leads out of its stdlib folder"
    )
    for name in ("evil2", "pipe"):
        with pytest.raises(RuleError) as info:
            rulelang.compile_file(write(game / "v.rules", f"import {name}\n{GAME}"))
        assert [d.code for d in info.value.diagnostics] == ["E114"]


@pytest.mark.parametrize("target", ["folder", "nowhere"])
def test_a_refused_module_is_never_its_own_did_you_mean(
    game: Path, outside: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str
) -> None:
    """A stdlib entry `evil.rules` that is no regular file (a link to a folder, or to
    nothing) hinted "did you mean 'evil'?"."""
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "evil.rules").symlink_to(outside if target == "folder" else tmp_path / "none")
    monkeypatch.setenv("RULELANG_PATH", str(lib))
    with pytest.raises(RuleError) as info:
        rulelang.compile_file(write(game / "v.rules", f"import evil\n{GAME}"))
    [diag] = info.value.diagnostics
    assert diag.code == "E114" and "'evil'?" not in diag.hint
    assert diag.hint == f"'{lib / 'evil.rules'}' is not a regular file"
    with pytest.raises(RuleError) as info:
        rulelang.compile_file(write(game / "v.rules", f"import evill\n{GAME}"))
    assert "'evil'" not in info.value.diagnostics[0].hint  # not offered as a module
    assert did_you_mean("evil", ["evil", "devil"]) == "did you mean 'devil'?"
    assert did_you_mean("evil", ["evil"]) == ""


def test_the_stdlib_is_always_allowed(game: Path) -> None:
    rules = rulelang.compile_file(
        write(
            game / "v.rules",
            'import dice\ngame "D"\nplayers 2..2\nturn { roll n = d6 }\n'
            "end when turn_number > 2 { }\n",
        )
    )
    assert rules.title == "D"


# --------------------------------------------------------------------------- the CLI
def test_validate_refuses_and_quotes_nothing(
    game: Path, outside: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (game / "link.rules").symlink_to(outside / "secret.rules")
    paths = [
        write(game / "a.rules", f'extends "{outside / "secret.rules"}"\n{GAME}'),
        write(game / "b.rules", f'extends "../outside/secret.rules"\n{GAME}'),
        write(game / "c.rules", f'extends "link.rules"\n{GAME}'),
        write(game / "d.rules", with_data(str(outside / "secret.yaml"))),
        write(game / "e.rules", with_data("../outside/secret.yaml")),
    ]
    code, out, err = cli(capsys, "validate", *paths)
    assert code == 65
    no_traceback(out, err)
    assert SECRET not in out + err
    assert err.count("error[E110]") == len(paths)
    assert err.count("= hint:") == len(paths)
    # the same through the typer app (an option makes main.run skip its fast path)
    code, out, err = cli(capsys, "validate", "--allow-path", game, *paths)
    assert code == 65 and SECRET not in out + err
    assert err.count("error[E110]") == len(paths)


def variant_elsewhere(tmp_path: Path) -> tuple[Path, Path]:
    """A base game with its data file in rules/, and a variant in variants/ that extends
    it and adds a kind listed in a data file next to the base: (variant, rules folder)."""
    rules = tmp_path / "rules"
    write(rules / "base.rules", BASE)
    write(rules / "things.yaml", THINGS)
    write(rules / "extra.yaml", "- {name: gamma}\n")
    variant = write(
        tmp_path / "variants" / "v.rules",
        'extends "../rules/base.rules"\ngame "Variant"\n'
        'card extra from "../rules/extra.yaml" {\n  name: text\n}\n'
        "override turn {\n  choose t in pieces(thing)\n  choose e in pieces(extra)\n}\n",
    )
    return variant, rules


def test_allow_path_admits_a_variant_kept_elsewhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    variant, rules = variant_elsewhere(tmp_path)
    code, out, err = cli(capsys, "validate", variant)
    assert code == 65 and err.count("error[E110]") == 2  # the base and the data file
    code, out, err = cli(capsys, "validate", variant, "--allow-path", rules)
    assert code == 0, err
    assert out == f"ok: {variant} (game 'Variant')\n"
    code, out, err = cli(capsys, "validate", f"--allow-path={rules}", variant, rules / "base.rules")
    assert code == 0, err
    # through the API
    with pytest.raises(RuleError):
        rulelang.compile_file(variant)
    ruleset = rulelang.compile_file(variant, allow=[rules])
    game = ruleset.new_game(2)
    assert [a.text for a in game.legal_actions()] == ["alpha", "beta", "beta"]
    game.apply(game.legal_actions()[0])
    assert [a.text for a in game.legal_actions()] == ["gamma"]
    program, _warnings = rulelang.check_file(variant, allow=[str(rules)])
    assert program.title == "Variant"
    # only the folder allowed: a data file elsewhere is still refused
    other = write(tmp_path / "other" / "x.yaml", "- {name: x}\n")
    write(variant, variant.read_text().replace("../rules/extra.yaml", "../other/x.yaml"))
    assert other.is_file()
    refused(variant, allow=[rules])


def test_allow_path_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    variant, rules = variant_elsewhere(tmp_path)
    monkeypatch.setenv(ALLOW_ENV, str(rules))
    assert rulelang.compile_file(variant).title == "Variant"
    code, out, err = cli(capsys, "validate", variant)
    assert code == 0, err


def test_allow_path_on_simulate_and_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    variant, rules = variant_elsewhere(tmp_path)
    before = os.environ.get(ALLOW_ENV)
    for jobs in ("1", "2"):
        argv = ["simulate", variant, "-p", "2", "-n", "30", "--jobs", jobs, "--json"]
        code, out, err = cli(capsys, *argv)
        assert code == 65 and "error[E110]" in err
        code, out, err = cli(capsys, *argv, "--allow-path", rules)
        assert code == 0, err
        assert '"games": 30' in out
        assert os.environ.get(ALLOW_ENV) == before  # put back after the workers ran
    monkeypatch.setattr(builtins, "input", lambda prompt="": pytest.fail("input was read"))
    code, out, err = cli(capsys, "play", variant, "-p", "2", "--bots", "all")
    assert code == 65 and "error[E110]" in err
    code, out, err = cli(capsys, "play", variant, "-p", "2", "--bots", "all", "--allow-path", rules)
    assert code == 0, err
    assert "Game over." in out


def test_allow_path_on_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    variant, rules = variant_elsewhere(tmp_path)
    save = tmp_path / "v.save.json"
    monkeypatch.setattr(builtins, "input", lambda prompt="": "quit")
    argv = ["play", variant, "-p", "2", "--bots", "2", "--save", save, "--allow-path", rules]
    code, out, err = cli(capsys, *argv)
    assert code == 0, err
    assert save.is_file()
    code, out, err = cli(capsys, "resume", save)
    assert code == 65 and "error[E110]" in err
    no_traceback(out, err)
    code, out, err = cli(capsys, "resume", save, "--allow-path", rules)
    assert code == 0, err
    assert "Resuming Variant" in out


def test_allow_path_must_be_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    variant, rules = variant_elsewhere(tmp_path)
    for command in (["validate", variant], ["play", variant, "-p", "2"]):
        code, out, err = cli(capsys, *command, "--allow-path", tmp_path / "nowhere")
        assert code == 64
        assert err.startswith("error: --allow-path ") and "no such folder" in err
        no_traceback(out, err)


def test_the_validate_fast_path_still_works(capsys: pytest.CaptureFixture[str]) -> None:
    root = Path(__file__).resolve().parent.parent
    saboteur = root / "rulesets" / "saboteur.rules"  # reads a data file next to it
    code, out, err = cli(capsys, "validate", saboteur)
    assert code == 0, err
    assert out.startswith(f"ok: {saboteur}")
