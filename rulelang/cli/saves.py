"""Saved games: the rule file, the table, and the event log that replays the game."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

# Version 2 records each decision by its name in the rule file and the chosen
# option's text, and each chance event by its name and outcome, so that a save
# survives any change to the compiler. Version 1 recorded compiler positions.
FORMAT = "rulelang-save/2"
OLD_FORMATS = ("rulelang-save/1",)


class SaveError(Exception):
    """A saved game that cannot be read back; the message says why."""


@dataclass
class Save:
    rules: str  # path of the rule file, as given when the game started
    rules_sha256: str
    players: int
    seed: int
    options: dict[str, str] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)
    bots: list[int] = field(default_factory=list)  # seats, from 0
    log: list[Any] = field(default_factory=list)


def fingerprint(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write(path: Path, save: Save) -> None:
    """Write atomically: a crash while saving never leaves half a file."""
    data = {"format": FORMAT, **asdict(save)}
    folder = path.resolve().parent
    fd, tmp = tempfile.mkstemp(prefix=".rulelang-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _event_ok(event: Any) -> bool:
    """A decision by name and chosen text, or a chance event by name and outcome."""
    if not isinstance(event, dict):
        return False
    if set(event) == {"choose", "by", "option"}:
        return (
            isinstance(event["choose"], str)
            and isinstance(event["option"], str)
            and isinstance(event["by"], int)
            and not isinstance(event["by"], bool)
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
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SaveError(f"cannot read saved game '{path}': {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SaveError(f"'{path}' is not a saved game (not valid JSON: {exc})") from None
    if isinstance(data, dict) and data.get("format") in OLD_FORMATS:
        raise SaveError(
            f"'{path}' was saved by an earlier rulelang ({data['format']}), which "
            "recorded moves by the compiler's positions; this version cannot "
            "replay it. Start the game again."
        )
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(
            f"'{path}' is not a saved game of this version of rulelang (expected format {FORMAT})"
        )
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
        if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
            raise SaveError(f"saved game '{path}' is damaged: '{key}' is missing or wrong")
    for number, event in enumerate(data["log"], 1):
        if not _event_ok(event):
            raise SaveError(
                f"saved game '{path}' is damaged: event {number} of its log is not an event"
            )
    return Save(
        data["rules"],
        data["rules_sha256"],
        data["players"],
        data["seed"],
        {str(k): str(v) for k, v in data["options"].items()},
        [str(n) for n in data["names"]],
        [int(b) for b in data["bots"]],
        data["log"],
    )
