"""The fuzzer's families of cases beyond mutated rule files (issue 24, item 6): each
makes the files of a case and the `rulelang` commands to run on them.

- "data": a shipped rule file whose YAML data file has mutated fields (counts, a
  tile's edges, wrong types, odd YAML); `validate`, then a short `simulate`.
- "save": a portable save whose fields are mutated (its rule file pointed at files
  such as /etc/passwd or /proc/self/environ, odd seeds, players, names, logs) and whose
  checksum is then recomputed, as anyone can; `resume` or `games import`.
- "options": play, simulate, compare and resume with whole-number options that are
  huge, negative or malformed.

A command's exit code classifies it (docs: README "Exit codes"): 1, any other code
rulelang never gives, or a traceback is INTERNAL; quoting a line of a file that a
save points at but is not its rule file is a LEAK. Only stdlib, yaml and rulelang.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import yaml

# ----------------------------------------------------------------- what a case is


@dataclass
class Commands:
    """The files of a case (relative path -> bytes; "{dir}" in a command is the case's
    folder) and its commands, run one after the other until one does not exit 0. A save
    is written by the child, which fills in the digest of the file its "rules" names
    (when it is "{sha256 of rules}") and then, if `checksum`, its checksum."""

    files: dict[str, bytes] = field(default_factory=dict)
    commands: list[list[str]] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)  # files whose lines must not show
    save: Any = None  # the JSON value of game/saved.json
    checksum: bool = False


EXIT_CLASSES = {0: "ok", 64: "usage error", 65: "rule error", 70: "runtime error"}
EXIT_CLASSES |= {69: "unavailable", 74: "io error", 130: "interrupted"}

# numbers that have broken programs: limits of C and SQLite integers, of Python's
# int() (4300 digits), and text that only looks like a number
HUGE = [str(2**63), str(2**63 - 1), str(-(2**63)), str(-(2**63) - 1), str(2**64), "9" * 20]
NASTY = ["0", "-1", "-0", str(10**9 + 1), "9" * 5000, "1e3", "nan", "inf", "0x10", "", " 5"]
NASTY += ["1_000", "\u0663", "\u00b2", "5 5", "+7", "-9" + "9" * 30]


def number(rng: random.Random, small: list[str]) -> str:
    """A whole-number option's value: a small valid one, or a nasty or huge one."""
    r = rng.random()
    return rng.choice(small) if r < 0.35 else rng.choice(HUGE if r < 0.65 else NASTY)


# ----------------------------------------------------------------- data files

DATA_RULES = {
    "rulesets/saboteur.rules": ("rulesets/saboteur-cards.yaml", 3),
    "rulesets/saboteur-stoneseekers.rules": ("rulesets/saboteur-cards.yaml", 3),
    "rulesets/heimlich-topsecret.rules": ("rulesets/heimlich-topsecret-cards.yaml", 2),
}
ODD_VALUES: list[Any] = [
    0,
    -1,
    10**6,
    10**6 + 1,
    10**8,
    10**20,
    2**64,
    1.5,
    float("nan"),
    "3",
    "many",
    True,
    None,
    [],
    {},
    [True] * 3,
    [True] * 5,
    [1, 0, 1, 0],
    [[True]] * 4,
    "\x1b[31mred\x1b[0m",
    "x" * 10_000,
]
EDGES: list[Any] = [[], [True], [False, False, True], [True] * 5, [True] * 100_000, "open", 1]
EDGES += [[1, 0, 1, 0], [[True], [True], [True], [True]], None, {"N": True}, [None] * 4]


def data_case(rng: random.Random, tree: dict[str, bytes]) -> tuple[Commands, str]:
    """A rule file with a data file whose fields are mutated: validate, then simulate."""
    rules, (data, players) = rng.choice(sorted(DATA_RULES.items()))
    entries = yaml.safe_load(tree[data])
    done = []
    for _ in range(rng.randint(1, 3)):
        entries, desc = rng.choice(DATA_MUTATIONS)(rng, entries)
        done.append(desc)
    try:
        text = yaml.safe_dump(entries, allow_unicode=True, width=200).encode("utf-8")
    except (yaml.YAMLError, RecursionError):
        text = repr(entries).encode("utf-8")
    if rng.random() < 0.15:
        text, desc = rng.choice(YAML_TEXT)(rng, text)
        done.append(desc)
    files = dict(tree)
    files[data] = text
    argv = ["simulate", rules, "-p", str(players), "-n", "2", "--max-decisions", "300"]
    return Commands(files, [["validate", rules], argv]), f"{rules}: {'; '.join(done)}"


def _an_entry(rng: random.Random, entries: Any) -> tuple[int, dict[str, Any]] | None:
    if not isinstance(entries, list) or not entries:
        return None
    i = rng.randrange(len(entries))
    return (i, entries[i]) if isinstance(entries[i], dict) else None


def _set_in_entry(
    rng: random.Random, entries: Any, key_of: Callable[[dict[str, Any]], str], values: list[Any]
) -> tuple[Any, str]:
    """One entry's field `key_of(entry)` given one of `values` (the random choices in the
    order the fuzzer has always made them, so that a case's seed replays it)."""
    found = _an_entry(rng, entries)
    if found is None:
        return entries, "no entry"
    key = key_of(found[1])
    value = rng.choice(values)
    found[1][key] = value
    return entries, f"entry {found[0] + 1} {key!r} = {_short(value)}"


def d_count(rng: random.Random, entries: Any) -> tuple[Any, str]:
    huge = [10**6, 999_999, 500_000, 10**8, 10**12]
    return _set_in_entry(rng, entries, lambda _: "count", ODD_VALUES + huge)


def d_edges(rng: random.Random, entries: Any) -> tuple[Any, str]:
    return _set_in_entry(rng, entries, lambda _: "edges", EDGES)


def d_field(rng: random.Random, entries: Any) -> tuple[Any, str]:
    """Another field (or one the kind lacks) given an odd value."""
    odd = ["siez", "\x1b]0;title\x07", "count", "joined"]
    return _set_in_entry(rng, entries, lambda entry: rng.choice([*entry, *odd]), ODD_VALUES)


def d_drop(rng: random.Random, entries: Any) -> tuple[Any, str]:
    found = _an_entry(rng, entries)
    if found is None or not found[1]:
        return entries, "no entry"
    key = rng.choice(sorted(found[1]))
    del found[1][key]
    return entries, f"entry {found[0] + 1} without {key!r}"


def d_shape(rng: random.Random, entries: Any) -> tuple[Any, str]:
    """The file's shape: an entry that is not pairs, many entries, not a list at all."""
    how = rng.choice(["scalar entry", "list entry", "many", "dict", "empty", "null"])
    if how == "scalar entry" and isinstance(entries, list) and entries:
        entries[rng.randrange(len(entries))] = rng.choice(["x", 5, None])
    elif how == "list entry" and isinstance(entries, list) and entries:
        entries[rng.randrange(len(entries))] = [1, 2]
    elif how == "many" and isinstance(entries, list) and entries:
        entries = entries * rng.choice([100, 2_000])
    elif how == "dict":
        entries = {"cards": entries}
    elif how == "empty":
        entries = []
    elif how == "null":
        entries = None
    return entries, how


DATA_MUTATIONS = [d_count] * 3 + [d_edges] * 3 + [d_field] * 3 + [d_drop, d_shape]


def y_deep(rng: random.Random, text: bytes) -> tuple[bytes, str]:
    depth = rng.choice([100, 1_000, 50_000])
    return text + b"- {name: [" * 1 + b"[" * depth + b"]" * depth + b"]}\n", f"{depth} [ deep"


def y_aliases(rng: random.Random, text: bytes) -> tuple[bytes, str]:
    """Aliases that make a huge tree out of a few lines (a 'billion laughs')."""
    lines = ["- {name: a, edges: &a0 [true, true, true, true]}"]
    for k in range(1, 12):
        lines.append(f"- {{name: b{k}, edges: &a{k} [" + ", ".join([f"*a{k - 1}"] * 9) + "]}")
    return text + ("\n".join(lines) + "\n").encode(), "alias bomb"


def y_bytes(rng: random.Random, text: bytes) -> tuple[bytes, str]:
    i = rng.randrange(len(text) + 1)
    junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 32)))
    return text[:i] + junk + text[i:], f"{len(junk)} random bytes at {i}"


def y_truncate(rng: random.Random, text: bytes) -> tuple[bytes, str]:
    i = rng.randrange(len(text) + 1)
    return text[:i], f"truncated at {i}"


def y_tags(rng: random.Random, text: bytes) -> tuple[bytes, str]:
    tag = rng.choice(["!!python/object/apply:os.system ['true']", "!!binary AAAA", "!!set {a}"])
    return text + f"- {{name: {tag}}}\n".encode(), f"tag {tag}"


def y_shared(rng: random.Random, text: bytes) -> tuple[bytes, str]:
    """One long list written once and named by many entries through an alias."""
    items, names = rng.choice([(50_000, 3_000), (1_000, 100_000), (100_000, 20)])
    lines = ["- {name: a, edges: &big [" + ", ".join(["true"] * items) + "]}"]
    lines += ["- {name: b, edges: *big}"] * names
    return text + ("\n".join(lines) + "\n").encode(), f"{items} items named {names} times"


YAML_TEXT = [y_deep, y_aliases, y_bytes, y_truncate, y_tags, y_shared]


# ----------------------------------------------------------------- saves

SAVE_RULES = "tictactoe.rules"
# files a save may point at instead of its rule file: none may be quoted
FOREIGN = ["/etc/passwd", "/proc/self/environ", "/proc/self/cmdline", "/etc/hostname"]
FOREIGN += ["../secret/secret.rules", "{dir}/../secret/secret.rules", "/proc/self/status"]
ODD_PATHS = ["/dev/zero", "/dev/stdin", "/", ".", "", "x" * 5_000, "no-such.rules", "\x00"]
ODD_PATHS += ["~/.bashrc", "tictactoe.rules\x00.txt", "\x1b[2J", "C:\\x.rules", "rules/../../.."]


def base_save(rules_text: str, seed: int, moves: int) -> dict[str, Any]:
    """A save of tic-tac-toe after some random moves, as `play --save` writes it."""
    import rulelang
    from rulelang.storage import saves

    ruleset = rulelang.compile_source(rules_text, SAVE_RULES)
    game = ruleset.new_game(2, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))
    digest = hashlib.sha256(rules_text.encode("utf-8")).hexdigest()
    save = saves.Save(SAVE_RULES, digest, 2, seed, {}, ["P1", "P2"], [1], game.record())
    from dataclasses import asdict

    return {"format": saves.FORMAT, **asdict(save)}


def save_case(
    rng: random.Random, tree: dict[str, bytes], base: dict[str, Any]
) -> tuple[Commands, str]:
    data = json.loads(json.dumps(base))
    done, foreign = [], []
    for _ in range(rng.randint(1, 3)):
        desc, pointed = rng.choice(SAVE_MUTATIONS)(rng, data)
        done.append(desc)
        foreign += pointed
    checksum = isinstance(data, dict) and rng.random() < 0.9
    if checksum:
        done.append("checksum recomputed")
    rules = tree["rulesets/examples/tictactoe.rules"]
    # the rule file beside the save and in the folder the command runs in: where the
    # save's relative path leads, whichever of the two that is
    files = {SAVE_RULES: rules, f"game/{SAVE_RULES}": rules}
    files["secret/secret.rules"] = SECRET_TEXT.encode()
    force = ["--force"] if rng.random() < 0.3 else []
    saved = "game/saved.json"
    command = rng.choice([["resume", saved, *force], ["games", "import", saved, *force]])
    return Commands(files, [command], foreign, data, checksum), "; ".join(done)


SECRET_TEXT = "SECRET-LINE-0f3a9c: nobody may read this\nsecond secret line 77e1\n"


def s_rules(rng: random.Random, data: dict[str, Any]) -> tuple[str, list[str]]:
    """The save's rule file pointed elsewhere; its digest that of the new target (so the
    save looks untouched) when the fuzzer can read it."""
    target = rng.choice(FOREIGN * 2 + ODD_PATHS)
    data["rules"] = target
    if target in FOREIGN and target.endswith(".rules"):
        # a .rules file where rule files may come from, named with its exact digest, is
        # a rule file like any other (whoever wrote the digest holds its text): the
        # secret is named with a digest that is not its own, so it must never be quoted
        data["rules_sha256"] = "0" * 64
    elif rng.random() < 0.6:
        data["rules_sha256"] = "{sha256 of rules}"  # filled in by the child, which sees it
    return f"rules = {_short(target)}", [target] if target in FOREIGN else []


def s_field(rng: random.Random, data: dict[str, Any]) -> tuple[str, list[str]]:
    key = rng.choice(["seed", "players", "rules", "rules_sha256", "format", "bots", "names"])
    value = rng.choice(ODD_VALUES + [int(h) for h in HUGE] + [2, 3, 1000, -5, "P1"])
    data[key] = value
    return f"{key} = {_short(value)}", []


def s_names(rng: random.Random, data: dict[str, Any]) -> tuple[str, list[str]]:
    names = rng.choice(
        [["\x1b]0;owned\x07", "B"], ["A" * 100_000, "B"], ["A"], ["A", "B", "C"], [1, 2], ["", ""]]
    )
    data["names"] = names
    return f"names = {_short(names)}", []


def s_bots(rng: random.Random, data: dict[str, Any]) -> tuple[str, list[str]]:
    bots, named = rng.choice(
        [
            ([0, 1], {"1": "mcts:99999999999999"}),
            ([1], {"2": "random"}),
            ([1], {"1": "\x1b[31m"}),
            ([0, 0], {}),
            ([2**64], {}),
            ([1], {"1": "ismcts:" + "9" * 5000}),
            ([1], {"1": "mcts:1e308s"}),
        ]
    )
    data["bots"], data["bot_names"] = bots, named
    return f"bots = {_short(bots)}, bot_names = {_short(named)}", []


def s_log(rng: random.Random, data: dict[str, Any]) -> tuple[str, list[str]]:
    log = data.get("log")
    if not isinstance(log, list):
        log = data["log"] = []
    how = rng.choice(["truncate", "garbage", "huge by", "huge outcome", "many", "nested"])
    if how == "truncate" and log:
        del log[rng.randrange(len(log)) :]
    elif how == "garbage":
        log.append(
            rng.choice(
                [{"choose": "x", "by": 0, "option": "y"}, {"chance": "z", "outcome": 7}, 5, None]
            )
        )
    elif how == "huge by" and log:
        event = rng.choice(log)
        if isinstance(event, dict) and "by" in event:
            event["by"] = rng.choice([2**64, -1, 10**20])
    elif how == "huge outcome":
        log.append({"chance": "roll", "outcome": rng.choice([2**64, -(2**70), [2**64] * 3])})
    elif how == "many":
        log.extend([{"choose": "x", "by": 0, "option": "y"}] * 20_000)
    elif how == "nested":
        data["options"] = {"a": "[" * 10_000}
    return f"log: {how}", []


def s_shape(rng: random.Random, data: dict[str, Any]) -> tuple[str, list[str]]:
    how = rng.choice(["drop key", "extra key", "old format"])
    if how == "drop key":
        data.pop(rng.choice(sorted(data)), None)
    elif how == "extra key":
        data["extra"] = {"x": [1] * 10}
    else:
        data["format"] = "rulelang-save/2"
    return how, []


SAVE_MUTATIONS = [s_rules] * 4 + [s_field] * 2 + [s_names, s_bots, s_log, s_shape]


# ----------------------------------------------------------------- numeric options

OPTION_GAMES = [("rulesets/examples/tictactoe.rules", "2"), ("rulesets/heimlich.rules", "3")]


def options_case(
    rng: random.Random, tree: dict[str, bytes], base: dict[str, Any]
) -> tuple[Commands, str]:
    rules, players = rng.choice(OPTION_GAMES)
    limits = ["--max-items", "--max-steps", "--max-decisions", "--max-completion"]
    command = rng.choice(["play", "simulate", "compare", "resume"])
    argv: list[str]
    if command == "play":
        argv = ["play", rules, "-p", players, "--bots", "all", "--no-store"]
        extra = ["--seed", "-p", "--delay", *limits]
    elif command == "simulate":
        argv = ["simulate", rules, "-p", players, "-n", "3"]
        extra = ["-n", "--seed", "-j", "-p", "--bots", *limits]
    elif command == "compare":
        argv = [
            "compare",
            rules,
            "-p",
            players,
            "-n",
            "3",
            "--b-bots",
            "all:random",
            "--a-bots",
            "none",
        ]
        extra = ["-n", "--seed", "-j", "-p", *limits]
    else:
        argv = ["resume", "game/saved.json"]
        extra = [*limits, "--delay"]
    done = []
    for option in rng.sample(extra, rng.randint(1, min(3, len(extra)))):
        value = option_value(rng, option, players)
        argv += [option, value]
        done.append(f"{option} {_short(value)}")
    files = dict(tree)
    files[SAVE_RULES] = files[f"game/{SAVE_RULES}"] = tree["rulesets/examples/tictactoe.rules"]
    return Commands(files, [argv], save=base, checksum=True), f"{command}: {' '.join(done)}"


def option_value(rng: random.Random, option: str, players: str) -> str:
    """A value for an option: never a valid one that asks for hours of work (a billion
    games, an hour's delay), which rulelang rightly does."""
    if option == "-n":
        return number(rng, ["1", "2", "5", "30"])
    if option == "--delay":
        return rng.choice(["0", "-1", "nan", "inf", "1e308", "3601", "-0", "x", "1e-300"])
    if option == "--bots":
        budget = number(rng, ["1", "5", "20"]).strip() or "0"  # none: 1000, hours of it
        seconds = rng.choice(["0.01", "0", "-1", "nan", "inf", "1e308", "3601", "9" * 400])
        return rng.choice([f"1:mcts:{budget}", f"2:ismcts:{budget}", f"all:mcts:{seconds}s"])
    if option == "-p":
        return number(rng, [players, "1", "7", "8", "100"])
    return number(rng, ["1", "2", "100", "1000000000", "1000000001", "50"])


def _short(value: object, n: int = 40) -> str:
    s = repr(value)
    return s if len(s) <= n else s[:n] + "..."


# ----------------------------------------------------------------- in the child

LEAK_MARKERS = ["SECRET-LINE-0f3a9c", "second secret line 77e1"]


def run_commands(cmds: Commands, folder: Any) -> dict[str, str]:
    """Run a case's commands in `folder` (a fresh one), in this process (the fuzzer's
    forked child, already limited): its class, and what went wrong if anything did."""
    import os
    import sys
    from pathlib import Path

    folder = Path(folder)
    for rel, data in cmds.files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(data)
    os.chdir(folder)
    if cmds.save is not None:
        write_save(cmds, folder)
    os.environ["RULELANG_DATA_DIR"] = str(folder / "data")
    out_fd = os.open(folder / "output", os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
    null = os.open(os.devnull, os.O_RDONLY)
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(null, 0)
    os.dup2(out_fd, 1)
    os.dup2(out_fd, 2)
    # new streams on the descriptors: the old ones may be a test runner's capture
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - for the whole child
    sys.stdout = open(1, "w", encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
    from rulelang.cli.main import run

    result = {"class": "ok"}
    for argv in cmds.commands:
        argv = [a.replace("{dir}", str(folder)) for a in argv]
        try:
            code = run(argv)
        except SystemExit as exc:  # main.run returns its code; nothing should exit
            code = exc.code if isinstance(exc.code, int) else 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
        result = classify(code, " ".join(argv))
        if code != 0:
            break
    output = (folder / "output").read_bytes().decode("utf-8", "replace")
    return judge(result, output, cmds, folder)


def write_save(cmds: Commands, folder: Any) -> None:
    from rulelang.storage import saves

    data = cmds.save
    if isinstance(data, dict) and isinstance(data.get("rules"), str):
        data["rules"] = data["rules"].replace("{dir}", str(folder))  # an absolute path
    if isinstance(data, dict) and data.get("rules_sha256") == "{sha256 of rules}":
        data["rules_sha256"] = _digest(resolve(str(data.get("rules")), folder))
    if cmds.checksum and isinstance(data, dict):
        data["checksum"] = saves.checksum(data)
    (folder / "game").mkdir(exist_ok=True)
    (folder / "game" / "saved.json").write_text(json.dumps(data, indent=1))


def resolve(path: str, folder: Any) -> Any:
    """Where a save's rule path leads: from the save's folder or the current one."""
    from pathlib import Path

    path = path.replace("{dir}", str(folder))
    for base in (Path(folder) / "game", Path(folder)):
        try:
            candidate = base / path
            if candidate.is_file():
                return candidate
        except (OSError, ValueError):
            pass
    return Path(folder) / path


def _digest(path: Any) -> str:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read(1 << 20)).hexdigest()
    except (OSError, ValueError):
        return "0" * 64


def classify(code: int, command: str) -> dict[str, str]:
    name = EXIT_CLASSES.get(code)
    if name is None:
        return {"class": "INTERNAL", "type": f"exit {code}", "message": command[:200]}
    return {"class": name}


def judge(result: dict[str, str], output: str, cmds: Commands, folder: Any) -> dict[str, str]:
    """The class of a run from its exit code and everything it printed."""
    if "Traceback (most recent call last)" in output:
        return {"class": "INTERNAL", "type": "traceback", "message": output[-300:]}
    if "internal error: MemoryError" in output:
        return {"class": "MEMORY", "type": "MemoryError", "message": output[-300:]}
    if result["class"] == "INTERNAL":
        return {**result, "message": output[-300:]}
    for line in LEAK_MARKERS + [s for p in cmds.foreign for s in _lines(resolve(p, folder))]:
        if line in output:
            return {"class": "LEAK", "type": "quoted a refused file", "message": line[:120]}
    return result


def _lines(path: Any) -> list[str]:
    """The lines (or NUL-separated fields) of a file, long enough to be telling."""
    try:
        with open(path, "rb") as f:
            text = f.read(1 << 16).decode("utf-8", "replace")
    except (OSError, ValueError):
        return []
    parts = text.replace("\0", "\n").split("\n")
    return [p.strip() for p in parts if len(p.strip()) >= 8]


def pointing_saves(tree: dict[str, bytes], base: dict[str, Any]) -> list[Commands]:
    """A save pointed at each of FOREIGN, with that file's digest and a recomputed
    checksum (so it looks untouched), for `resume` and for `games import`."""
    rules = tree["rulesets/examples/tictactoe.rules"]
    files = {SAVE_RULES: rules, f"game/{SAVE_RULES}": rules}
    files["secret/secret.rules"] = SECRET_TEXT.encode()
    out = []
    for target in FOREIGN:
        for command in (["resume", "game/saved.json"], ["games", "import", "game/saved.json"]):
            # a .rules file is named with a digest that is not its own (see s_rules);
            # every other file with its real one
            digest = "{sha256 of rules}" if not target.endswith(".rules") else "0" * 64
            save = {**base, "rules": target, "rules_sha256": digest}
            out.append(Commands(files, [command], [target], save, checksum=True))
    return out
