"""Saved games: the rule file, the table, and the event log that replays the game."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rulelang.diagnostics import RulelangError
from rulelang.words import digits

# Version 3 records each decision by its name in the rule file and the chosen
# option's text, and each chance event by its name and outcome, so that a save
# survives any change to the compiler; and it carries a checksum of its content, so
# that an edit or damage is refused. Versions 1 (compiler positions) and 2 (no
# checksum) are refused with one line.
FORMAT = "rulelang-save/3"
OLD_FORMATS = ("rulelang-save/1", "rulelang-save/2")
MAX_BYTES = 64 * 1024 * 1024  # no saved game is near this; a bigger file is not one
MAX_SEED = 2**63


class SaveError(RulelangError):
    """A saved game that cannot be read back; the message says why."""


class RefusedRules(SaveError):
    """A save names a rule file rulelang will not read; the message quotes none of it."""


class MissingRules(SaveError):
    """A save names a rule file that is not there."""


@dataclass
class Save:
    rules: str  # the rule file's full path (in older saves: as given to `play`)
    rules_sha256: str
    players: int
    seed: int
    options: dict[str, str] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)
    bots: list[int] = field(default_factory=list)  # seats, from 0
    log: list[Any] = field(default_factory=list)
    # the bot each seat of `bots` was given by name ("random" or a declared bot), by
    # seat number ("2"); a seat not listed uses the ruleset's declared bots
    bot_names: dict[str, str] = field(default_factory=dict)
    # the rule file's path from the save's folder, written by `write`: a save moved
    # with its rule file (to another folder or machine) finds it there first
    rules_relative: str = ""


def fingerprint(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def checksum(data: dict[str, Any]) -> str:
    """The checksum a save carries: over all its content but the checksum itself."""
    body = {k: v for k, v in data.items() if k != "checksum"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def temp_name(path: Path) -> Path:
    """The one temporary file a save is written through, beside it: a save killed
    midway leaves at most this file, and the next save of the game replaces it."""
    return path.parent / f".{path.name}.rulelang-tmp"


def write(path: Path, save: Save) -> None:
    """Write atomically and durably: the content goes to a temporary file in the same
    folder, is flushed to disk, renamed over the save, and the folder is flushed too.
    A crash at any point leaves either the old save or the new one, never half."""
    data: dict[str, Any] = {"format": FORMAT, **asdict(save)}
    data["rules_relative"] = _relative(Path(save.rules), path)
    data["checksum"] = checksum(data)
    if path.exists() and not path.is_file():  # the rename would replace a FIFO, a device
        raise OSError(errno.EEXIST, "it is there and not a regular file", str(path))
    if not may_replace(path):  # `--save game.rules` replaced the rule file with the save
        raise OSError(errno.EEXIST, "it is there and is not a saved game", str(path))
    tmp = temp_name(path)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _sync_folder(path.parent)


# how every save rulelang writes begins (`write`: "format" first), whatever its version
_SAVE_START = re.compile(rb'\A\s*\{\s*"format"\s*:\s*"rulelang-save/')


def may_replace(path: Path) -> bool:
    """Whether a save may be written at `path`: nothing is there, or an empty file, or
    a saved game (of any version). Anything else (a rule file, notes) is never replaced
    by a save. Only a regular file is read: opening a FIFO would wait for a writer."""
    try:
        if not path.is_file():
            return not path.exists()
        with path.open("rb") as file:
            head = file.read(256)
    except OSError:
        return True  # what cannot be read is the write's to report
    return not head or _SAVE_START.match(head) is not None


def _relative(rules: Path, save: Path) -> str:
    """The rule file's path from the folder of the save, '/'-separated."""
    try:
        return Path(os.path.relpath(rules.absolute(), save.absolute().parent)).as_posix()
    except ValueError:  # on another drive (Windows): there is no relative path
        return ""


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # some systems cannot open a folder: the rename is still atomic
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _event_ok(event: Any) -> bool:
    """A decision by name and chosen text (and, for an item, which one: a whole number),
    or a chance event by name and outcome."""
    if not isinstance(event, dict):
        return False
    if set(event) in ({"choose", "by", "option"}, {"choose", "by", "option", "item"}):
        item = event.get("item", 0)
        return (
            isinstance(event["choose"], str)
            and isinstance(event["option"], str)
            and isinstance(event["by"], int)
            and not isinstance(event["by"], bool)
            and isinstance(item, int)
            and not isinstance(item, bool)
        )
    if set(event) == {"chance", "outcome"}:
        outcome = event["outcome"]
        if isinstance(outcome, list):
            return all(isinstance(i, int) and not isinstance(i, bool) for i in outcome)
        return (
            isinstance(event["chance"], str)
            and isinstance(outcome, int)
            and not isinstance(outcome, bool)
        )
    return False


def read(path: Path) -> Save:
    # a temporary file left by a save that was killed midway: the save itself is whole
    with contextlib.suppress(OSError):
        temp_name(path).unlink(missing_ok=True)
    try:
        if path.stat().st_size > MAX_BYTES:
            raise SaveError(f"'{path}' is not a saved game (it is far too large)")
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SaveError(f"cannot read saved game '{path}': {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SaveError(f"'{path}' is not a saved game (not valid JSON: {exc})") from None
    except (RecursionError, ValueError):  # nested past reason, or a number of 5,000 digits
        raise SaveError(f"'{path}' is not a saved game (not a JSON file rulelang wrote)") from None
    if isinstance(data, dict) and data.get("format") in OLD_FORMATS:
        raise SaveError(
            f"'{path}' was saved by an earlier rulelang ({data['format']}), which recorded "
            "moves by the compiler's positions or without a checksum; this version cannot "
            "replay it. Start the game again."
        )
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(
            f"'{path}' is not a saved game of this version of rulelang (expected format {FORMAT})"
        )
    if data.get("checksum") != checksum(data):
        raise SaveError(
            f"saved game '{path}' was changed or damaged since rulelang wrote it "
            "(its checksum does not match)"
        )
    return from_data(f"saved game '{path}'", data)


def from_data(what: str, data: dict[str, Any]) -> Save:
    """The Save a file's or the store's fields make, each field checked: a bad one is
    refused with a SaveError naming `what` ("saved game 'x.json'", "saved game 7")."""
    _check_fields(what, data)
    return Save(
        data["rules"],
        data["rules_sha256"],
        data["players"],
        data["seed"],
        dict(data["options"]),
        list(data["names"]),
        list(data["bots"]),
        data["log"],
        dict(data.get("bot_names", {})),
        data.get("rules_relative", ""),
    )


def _check_fields(what: str, data: dict[str, Any]) -> None:
    """A save with a right checksum was written by rulelang; still, check every field
    (a save written by a buggy or foreign version must not crash the replay)."""

    def bad(key: str) -> SaveError:
        return SaveError(f"{what} is damaged: '{key}' is missing or wrong")

    kinds = {
        "rules": str,
        "rules_sha256": str,
        "players": int,
        "seed": int,
        "options": dict,
        "names": list,
        "bots": list,
        "log": list,
    }
    for key, kind in kinds.items():
        value = data.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise bad(key)
    players = data["players"]
    if not 1 <= players <= 1000:
        raise bad("players")
    if not 0 <= data["seed"] < MAX_SEED:
        raise bad("seed")
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in data["options"].items()):
        raise bad("options")
    if not all(isinstance(n, str) for n in data["names"]) or len(data["names"]) not in (0, players):
        raise bad("names")
    bots = data["bots"]
    if not all(type(b) is int and 0 <= b < players for b in bots) or len(set(bots)) != len(bots):
        raise bad("bots")
    if not isinstance(data.get("rules_relative", ""), str):
        raise bad("rules_relative")
    named = data.get("bot_names", {})
    if not isinstance(named, dict) or not all(
        isinstance(k, str) and digits(k) and int(k) in bots and isinstance(v, str)
        for k, v in named.items()
    ):
        raise bad("bot_names")
    for number, event in enumerate(data["log"], 1):
        if not _event_ok(event):
            raise SaveError(f"{what} is damaged: event {number} of its log is not an event")


# -- the rule file a save names -------------------------------------------------------
# A save is data anyone can write (its checksum is a plain sha256), so the rule file it
# names is checked as `extends` paths are before a byte of it is parsed: a regular
# `.rules` file of at most loader.MAX_FILE_BYTES, inside the save's folder, the current
# folder, the shipped games or stdlib, or a folder allowed (--allow-path); and a file
# whose sha256 is not the one recorded is not parsed unless the user forces it.
FOLDERS_HINT = "allow its folder with --allow-path DIR"


def rule_file(
    what: str, record: Save, save_file: Path | None, allow: Iterable[Path] = ()
) -> tuple[Path, str]:
    """The rule file of the save `what` (a file, or the store's when `save_file` is
    None: its path is the one `play` was given, so no folder rule applies) and its
    sha256. The first place that has an allowed file with the recorded sha256 wins;
    raise RefusedRules or MissingRules when none has an allowed file."""
    from rulelang.loader import Refused, shown  # the loader (and its parser) when needed

    trees = None if save_file is None else _trees(save_file, allow)
    refusal: Refused | None = None
    changed: tuple[Path, str] | None = None
    for candidate in _candidates(record, save_file):
        try:
            target = candidate.resolve(strict=True)
            data = _allowed_bytes(target, trees)
        except Refused as why:
            refusal = refusal or why
            continue
        except (OSError, RuntimeError, ValueError):  # not there, or cannot be followed
            continue
        sha256 = hashlib.sha256(data).hexdigest()
        if sha256 == record.rules_sha256:
            return target, sha256
        changed = changed or (target, sha256)
    if changed is not None:
        return changed
    if refusal is not None:
        hint = f"; {refusal.hint}" if refusal.hint else ""
        raise RefusedRules(
            f"{what} names the rule file '{shown(record.rules)}', which rulelang refuses "
            f"to read: {refusal.reason}{hint}"
        )
    raise MissingRules(f"no such rule file: {shown(record.rules)} (named by {what})")


def _candidates(record: Save, save_file: Path | None) -> list[Path]:
    """Where the rule file may be: beside the save first, then where it was."""
    beside = save_file.absolute().parent if save_file is not None else None
    out = []
    if beside is not None and record.rules_relative:
        out.append(beside / record.rules_relative)
    rules = Path(record.rules)
    if rules.is_absolute():
        out.append(rules)
    else:  # a save written before `rules_relative`: from its folder, or the current one
        out += [beside / rules] if beside is not None else []
        out.append(Path.cwd() / rules)
    return out


def _trees(save_file: Path, allow: Iterable[Path]) -> list[Path]:
    from rulelang import loader

    folders = [save_file.absolute().parent, Path.cwd(), loader.shipped_rulesets()]
    folders += loader.stdlib_dirs()
    return [f.resolve() for f in folders] + loader.allowed_dirs(allow)


def _allowed_bytes(target: Path, trees: list[Path] | None) -> bytes:
    """The bytes of the rule file `target` (resolved), or Refused."""
    from rulelang import loader
    from rulelang.loader import Refused

    if target.suffix != ".rules":
        raise Refused("it is not a .rules file")
    if trees is not None and not any(target.is_relative_to(t) for t in trees):
        raise Refused(
            "it is outside the save's folder, the current folder and the shipped games",
            FOLDERS_HINT,
        )
    return loader.read_limited_bytes(target)
