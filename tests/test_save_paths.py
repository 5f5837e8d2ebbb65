"""A save's rule file: a save is data anyone can write (its checksum is a plain sha256),
so the rule file it names goes through path rules like those of `extends` before a
byte of it is parsed, its sha256 is checked before it is parsed, and nothing of a
refused file is ever quoted; and a save resumes from any folder."""

from __future__ import annotations

import builtins
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_support import cli, no_traceback

import rulelang
from rulelang.storage import saves, store

ROOT = Path(__file__).resolve().parent.parent
HEIMLICH = ROOT / "rulesets" / "heimlich.rules"
WHISPER = (ROOT / "tests" / "games" / "whisper.rules").read_text("utf-8")
SECRET = "s3cr3t-5a7e1d"  # in the environment of the child, or a file, never on screen
IMPORT = ("games", "import")
RESUME = ("resume",)


def forged(folder: Path, **fields: Any) -> Path:
    """A save as anyone can write it: a real game's save with fields changed, and its
    checksum computed again."""
    game = rulelang.compile_file(HEIMLICH).new_game(3, 4)
    record = saves.Save(
        str(HEIMLICH), saves.fingerprint(HEIMLICH), 3, 4, {}, ["A", "B", "C"], [1, 2]
    )
    record.log = game.record()
    path = folder / "forged.save.json"
    saves.write(path, record)
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("rules_relative", None)
    data.update(fields)
    data["checksum"] = saves.checksum(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def child(*argv: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`rulelang ARGV` in a child process whose environment holds SECRET (so that
    /proc/self/environ does)."""
    return subprocess.run(
        [sys.executable, "-c", "from rulelang.cli.main import main; main()", *map(str, argv)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        cwd=cwd,
        env={**os.environ, "RULELANG_TEST_SECRET": SECRET},
        timeout=120,
    )


def one_line_refusal(code: int, out: str, err: str) -> None:
    assert code == 65, err
    no_traceback(out, err)
    assert out == "" and err.startswith("error: ") and err.count("\n") == 1, err


# --------------------------------------------------------------- files a save may not name
@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="no /proc on this system")
@pytest.mark.parametrize("command", [RESUME, IMPORT], ids=" ".join)
def test_a_save_naming_the_environment_is_refused_and_quotes_nothing(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    """The issue: a save whose "rules" is /proc/self/environ printed the environment."""
    save = forged(tmp_path, rules="/proc/self/environ", rules_sha256="0" * 64)
    done = child(*command, save, cwd=tmp_path)
    one_line_refusal(done.returncode, done.stdout, done.stderr)
    assert SECRET not in done.stdout + done.stderr
    assert "'/proc/self/environ'" in done.stderr and "not a .rules file" in done.stderr
    assert cli_store_is_empty()


def cli_store_is_empty() -> bool:
    with store.Store() as s:
        return s.entries() == []


@pytest.mark.skipif(not Path("/etc/passwd").is_file(), reason="no /etc/passwd")
@pytest.mark.parametrize("command", [RESUME, IMPORT], ids=" ".join)
@pytest.mark.parametrize("field", ["rules", "rules_relative"])
def test_a_save_naming_a_system_file_with_its_right_sha256_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...], field: str
) -> None:
    passwd = Path("/etc/passwd")
    first = passwd.read_text(encoding="utf-8", errors="replace").splitlines()[0]
    written = "../" * 30 + "etc/passwd" if field == "rules_relative" else str(passwd)
    save = forged(tmp_path, **{field: written, "rules": "/etc/passwd"}, rules_sha256=sha(passwd))
    code, out, err = cli(capsys, *command, save)
    one_line_refusal(code, out, err)
    assert first not in err and first[:5] not in out + err
    assert "refuses to read: it is not a .rules file" in err


@pytest.mark.parametrize("command", [RESUME, IMPORT], ids=" ".join)
def test_a_rule_file_outside_the_folders_a_save_may_name_is_refused(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: tuple[str, ...],
) -> None:
    """A .rules file with the right sha256, but neither beside the save nor in the
    current folder, nor in the shipped rule files: refused, with the way to allow it."""
    outside = tmp_path / "outside"
    outside.mkdir()
    rules = outside / "whisper.rules"
    rules.write_text(WHISPER, encoding="utf-8")
    (tmp_path / "saves").mkdir()
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    monkeypatch.setattr(builtins, "input", lambda prompt="": "quit")
    save = forged(
        tmp_path / "saves",
        rules=str(rules),
        rules_sha256=sha(rules),
        players=2,
        names=["A", "B"],
        bots=[1],
        log=[],
    )
    code, out, err = cli(capsys, *command, save)
    one_line_refusal(code, out, err)
    assert f"'{rules}'" in err and "--allow-path" in err
    code, out, err = cli(capsys, *command, save, "--allow-path", outside)
    assert code == 0, err


@pytest.mark.parametrize("command", [RESUME, IMPORT], ids=" ".join)
def test_a_changed_rule_file_is_not_parsed_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...]
) -> None:
    """A .rules file beside the save whose sha256 is not the one recorded: refused
    before it is parsed, so that no diagnostic quotes it; with --force it is parsed,
    and its problems are still not quoted (check it with 'rulelang validate')."""
    rules = tmp_path / "notes.rules"
    rules.write_text(f"{SECRET} {SECRET}\n", encoding="utf-8")
    save = forged(tmp_path, rules=str(rules), rules_sha256="1" * 64)
    code, out, err = cli(capsys, *command, save)
    one_line_refusal(code, out, err)
    assert SECRET not in out + err
    assert f"{rules} changed since" in err
    code, out, err = cli(capsys, *command, save, "--force")
    assert code == 65 and SECRET not in out + err, err
    no_traceback(out, err)
    assert f"rulelang validate {rules}" in err


def test_a_stored_game_naming_a_system_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The store's games hold a rule path too: `resume N` and `games show N` check it
    the same way (but for the folders: the path is the one `play` was given)."""
    record = saves.Save("/proc/self/environ", "0" * 64, 2, 0, {}, ["A", "B"], [1], [])
    with store.Store(create=True) as s:
        s.add("Forged", record)
    done = child("resume", "1", cwd=tmp_path)
    one_line_refusal(done.returncode, done.stdout, done.stderr)
    assert SECRET not in done.stdout + done.stderr and "not a .rules file" in done.stderr
    done = child("games", "show", "1", cwd=tmp_path)
    assert done.returncode == 0 and SECRET not in done.stdout + done.stderr
    assert "(no public log: " in done.stdout


# --------------------------------------------------------------- resumable from any folder
def test_a_save_resumes_from_any_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rule path given to `play` was relative to the folder it ran in: the save
    records where the rule file is from the save's folder too."""
    project = tmp_path / "project"
    (project / "rules").mkdir(parents=True)
    (project / "rules" / "whisper.rules").write_text(WHISPER, encoding="utf-8")
    monkeypatch.chdir(project)
    monkeypatch.setattr(builtins, "input", lambda prompt="": "quit")
    argv = ["play", "rules/whisper.rules", "-p", "2", "--bots", "2", "--no-store"]
    code, out, err = cli(capsys, *argv, "--save", "game.save.json")
    assert code == 0, err
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out, err = cli(capsys, "resume", project / "game.save.json")
    assert code == 0, err
    assert "Resuming Whisper" in out
    # the folder moved to another place (another machine): beside the save still works
    moved = shutil.move(project, tmp_path / "moved")
    code, out, err = cli(capsys, "resume", Path(moved) / "game.save.json")
    assert code == 0, err
    assert "Resuming Whisper" in out


def test_an_old_save_with_a_path_relative_to_the_save_still_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save written before `rules_relative`: its relative path is tried from the
    save's folder, then from the current folder."""
    (tmp_path / "whisper.rules").write_text(WHISPER, encoding="utf-8")
    save = forged(
        tmp_path,
        rules="whisper.rules",
        rules_sha256=sha(tmp_path / "whisper.rules"),
        players=2,
        names=["A", "B"],
        bots=[1],
        log=[],
    )
    assert "rules_relative" not in json.loads(save.read_text(encoding="utf-8"))
    monkeypatch.setattr(builtins, "input", lambda prompt="": "quit")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    code, out, err = cli(capsys, "resume", save)
    assert code == 0, err
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, "resume", save.name)
    assert code == 0, err
