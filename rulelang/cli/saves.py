"""Saved games: the rule file, the table, and the event log that replays the game."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

FORMAT = "rulelang-save/1"


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
    data["log"] = [list(event) for event in save.log]
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


def _tuples(value: Any) -> Any:
    """JSON has lists only; the engine's values and outcomes are tuples."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def read(path: Path) -> Save:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SaveError(f"cannot read saved game '{path}': {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SaveError(f"'{path}' is not a saved game (not valid JSON: {exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(f"'{path}' is not a saved game of this version of rulelang "
                        f"(expected format {FORMAT})")
    kinds = {"rules": str, "rules_sha256": str, "players": int, "seed": int,
             "options": dict, "names": list, "bots": list, "log": list}
    for key, kind in kinds.items():
        if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
            raise SaveError(f"saved game '{path}' is damaged: '{key}' is missing or wrong")
    log = []
    for number, event in enumerate(data["log"], 1):
        ok = isinstance(event, list) and event and event[0] in ("choose", "chance", "say",
                                                                  "rank")
        if not ok:
            raise SaveError(f"saved game '{path}' is damaged: event {number} of its log is "
                            "not an event")
        log.append(tuple(_tuples(v) if i else v for i, v in enumerate(event)))
    return Save(data["rules"], data["rules_sha256"], data["players"], data["seed"],
                {str(k): str(v) for k, v in data["options"].items()},
                [str(n) for n in data["names"]], [int(b) for b in data["bots"]], log)
