"""A grammar-aware mutation fuzzer for rulelang (issues 7 and 24).

Each case is of one family (chosen by its seed; `--family` restricts them):
- "rules": one shipped rule file (rulesets/*.rules, stdlib/*.rules) with 1-3 seeded
  mutations of its text (token edits and structural ones: deep nesting, a 100 KB line,
  binary bytes, truncation), compiled; if it compiles into a game, games for the fewest
  and the most players, 2000 random decisions each.
- "data", "save", "options" (tests/fuzz/inputs.py): a data file with mutated fields, a
  save with mutated fields and a recomputed checksum, huge or malformed numbers for
  play, simulate, compare and resume; run as `rulelang` commands in the child.
Every case runs in a separate process limited to 1 GiB of address space and 10 s of
CPU time.

Outcomes: "ok", "rule error" (RuleError; exit 65), "runtime error" (GameRuntimeError;
70), "usage error" (UsageError; 64), "io error" (74), "interrupted" (130: a command
asked for a move and the input had ended), and the failures "INTERNAL" (any other
exception, exit 1 or a code rulelang never gives, a traceback, or death by a signal
other than SIGKILL), "TIMEOUT", "MEMORY" (MemoryError or killed) and "LEAK" (a line
of a file a save pointed at, not its rule file, was printed).

    python tests/fuzz/fuzz.py --cases 10000 --seed 1 --jobs 2 [--show] [--save DIR]
    python tests/fuzz/fuzz.py --cases 500 --family data --family save
    python tests/fuzz/fuzz.py --case 1000017 --show      # one case again, by its seed

The exit code is 1 if any case is INTERNAL, TIMEOUT or MEMORY. Stdlib and rulelang only.
Cases run in a child forked from a worker that has already imported rulelang (fast);
`--spawn` runs each in a fresh `python` instead (subprocess with preexec_fn limits).
The parser's caches go to a temporary folder, not the user's cache.
"""

from __future__ import annotations

import argparse
import functools
import json
import multiprocessing
import os
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 10.0  # CPU seconds a case may use (RLIMIT_CPU): a hang past it is TIMEOUT
WALL_TIMEOUT_S = 60.0  # and wall-clock seconds, for a case that waits without computing
MEMORY_BYTES = 1 << 30
MAX_DECISIONS = 2000
FAILURES = ("INTERNAL", "TIMEOUT", "MEMORY", "LEAK")
CLASSES = ("ok", "rule error", "runtime error", "usage error", "io error", "interrupted")
CLASSES += ("unavailable",) + FAILURES
FAMILIES = {"rules": 4, "data": 3, "save": 2, "options": 2}  # family -> its weight

sys.path.insert(0, str(Path(__file__).resolve().parent))
import inputs  # noqa: E402 - beside this file, which is run as a script

# ----------------------------------------------------------------- inputs


def sources() -> list[tuple[str, str]]:
    """(path relative to ROOT, text) of every shipped rule file, in a fixed order."""
    files = sorted((ROOT / "rulesets").glob("*.rules")) + sorted((ROOT / "stdlib").glob("*.rules"))
    return [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in files]


def make_workspace() -> Path:
    """A temp folder holding copies of rulesets/ and stdlib/ (so a mutant can extend its
    base and read its data file), and a cache folder for the parser."""
    tmp = Path(tempfile.mkdtemp(prefix="rulelang-fuzz-"))
    shutil.copytree(ROOT / "rulesets", tmp / "rulesets")
    shutil.copytree(ROOT / "stdlib", tmp / "stdlib")
    (tmp / "cache").mkdir()
    # a file outside every case's folder, that a save may point at ("../secret/...")
    (tmp / "cases" / "secret").mkdir(parents=True)
    (tmp / "cases" / "secret" / "secret.rules").write_text(inputs.SECRET_TEXT)
    return tmp


# ----------------------------------------------------------------- mutations

TOKEN = re.compile(
    r"""(?P<ws>\s+)|(?P<comment>\#[^\n]*)|(?P<string>"(?:[^"\\\n]|\\.)*")"""
    r"""|(?P<number>[0-9]+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"""
    r"""|(?P<punct>\.\.|==|!=|<=|>=|\+=|-=|->|.)""",
    re.S,
)

NUMBERS = ["0", "-1", str(10**20), "9" * 4400, "18446744073709551616", "999999999999999999"]
STRINGS = [
    '"\u00e9\u2603\u202e\U0001f600"',
    '"{"',
    '"}"',
    '"{x}"',
    '"{0}"',
    '"{}"',
    '"\\""',
    '"\'"',
    '"\\\\"',
    '"\\n\\t\\u0000"',
    '""',
    '"' + "\u0301" * 50 + '"',
    '"%s%d"',
]
WRAPS = ["(", "-", "not ", "["]


def tokenize(text: str) -> list[tuple[str, str]]:
    return [(m.lastgroup or "punct", m.group()) for m in TOKEN.finditer(text)]


def _line_of(tokens: list[tuple[str, str]], i: int) -> int:
    return 1 + sum(t.count("\n") for _k, t in tokens[:i])


def _short(s: str, n: int = 40) -> str:
    return repr(s if len(s) <= n else s[:n] + "...")


def _misspell(rng: random.Random, name: str) -> str:
    i = rng.randrange(len(name))
    how = rng.choice(["drop", "double", "swap", "change"])
    if how == "drop" and len(name) > 1:
        return name[:i] + name[i + 1 :]
    if how == "swap" and len(name) > 1:
        i = min(i, len(name) - 2)
        return name[:i] + name[i + 1] + name[i] + name[i + 2 :]
    if how == "double":
        return name[: i + 1] + name[i:]
    return name[:i] + rng.choice("abcdefghijklmnopqrstuvwxyz_") + name[i + 1 :]


def _pick(rng: random.Random, tokens: list[tuple[str, str]], kinds: tuple[str, ...]) -> int | None:
    where = [i for i, (k, _t) in enumerate(tokens) if k in kinds]
    return rng.choice(where) if where else None


SOLID = ("string", "number", "name", "punct")


def m_token(rng: random.Random, text: str) -> tuple[str, str]:
    """One token-level mutation."""
    tokens = tokenize(text)
    op = rng.choice(["delete", "duplicate", "swap", "name", "number", "string"])
    kinds = {"name": ("name",), "number": ("number",), "string": ("string",)}.get(op, SOLID)
    i = _pick(rng, tokens, kinds)
    if i is None:
        op, i = "delete", _pick(rng, tokens, SOLID)
        if i is None:
            return text, "nothing to mutate"
    kind, tok = tokens[i]
    line = _line_of(tokens, i)
    if op == "delete":
        tokens[i] = ("ws", "")
        desc = f"delete {_short(tok)}"
    elif op == "duplicate":
        tokens[i] = (kind, tok + " " + tok)
        desc = f"duplicate {_short(tok)}"
    elif op == "swap":
        j = next((j for j in range(i + 1, len(tokens)) if tokens[j][0] in SOLID), None)
        if j is None:
            tokens[i] = ("ws", "")
            desc = f"delete {_short(tok)}"
        else:
            tokens[i], tokens[j] = tokens[j], tokens[i]
            desc = f"swap {_short(tok)} and {_short(tokens[i][1])}"
    elif op == "name":
        if rng.random() < 0.5:
            names = sorted({t for k, t in tokens if k == "name"})
            new = rng.choice(names)
        else:
            new = _misspell(rng, tok)
        tokens[i] = (kind, new)
        desc = f"name {_short(tok)} -> {_short(new)}"
    elif op == "number":
        new = rng.choice(NUMBERS)
        tokens[i] = (kind, new)
        desc = f"number {_short(tok)} -> {_short(new)}"
    else:
        new = rng.choice(STRINGS)
        tokens[i] = (kind, new)
        desc = f"string {_short(tok)} -> {_short(new)}"
    return "".join(t for _k, t in tokens), f"{desc} (line {line})"


def m_wrap(rng: random.Random, text: str) -> tuple[str, str]:
    """Wrap an operand (a name, number or string) in 300 nested ( - not or [."""
    tokens = tokenize(text)
    i = _pick(rng, tokens, ("name", "number", "string"))
    if i is None:
        return text, "nothing to wrap"
    w = rng.choice(WRAPS)
    close = {"(": ")", "[": "]"}.get(w, "")
    tokens[i] = ("punct", w * 300 + tokens[i][1] + close * 300)
    return "".join(t for _k, t in tokens), (
        f"wrap {_short(tokens[i][1][300 * len(w) :][:20])} in 300 {w.strip()!r} "
        f"(line {_line_of(tokens, i)})"
    )


def m_if(rng: random.Random, text: str) -> tuple[str, str]:
    """Put one indented line (a statement, most likely) inside 300 nested `if true {`."""
    lines = text.split("\n")
    inner = [i for i, s in enumerate(lines) if s.startswith((" ", "\t")) and s.strip()]
    i = rng.choice(inner) if inner else rng.randrange(len(lines))
    lines[i] = "if true {\n" * 300 + lines[i] + "\n}" * 300
    return "\n".join(lines), f"300 nested 'if true {{' around line {i + 1}"


def m_long_line(rng: random.Random, text: str) -> tuple[str, str]:
    """Insert a 100 KB line."""
    n = 100_000
    kind = rng.choice(["comment", "name", "sum", "string", "list", "const"])
    line = {
        "comment": "# " + "x" * n,
        "name": "a" * n,
        "sum": "const big = " + "1 + " * (n // 4) + "1",
        "string": 'const big = "' + "x" * n + '"',
        "list": "const big = [" + "1, " * (n // 3) + "1]",
        "const": "const big = " + "9" * n,
    }[kind]
    lines = text.split("\n")
    i = rng.randrange(len(lines) + 1)
    lines.insert(i, line)
    return "\n".join(lines), f"100 KB line ({kind}) before line {i + 1}"


def m_truncate(rng: random.Random, text: str) -> tuple[str, str]:
    i = rng.randrange(len(text) + 1)
    return text[:i], f"truncate at char {i} (line {text.count(chr(10), 0, i) + 1})"


def m_binary(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    i = rng.randrange(len(data) + 1)
    junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
    return data[:i] + junk + data[i:], f"{len(junk)} random bytes at byte {i}"


TEXT_MUTATIONS = [m_token] * 8 + [m_wrap, m_if, m_long_line, m_truncate]


@dataclass
class Case:
    seed: int
    source: str  # path relative to ROOT
    mutations: list[str]
    mutant: str | bytes  # bytes only when random bytes were put in
    family: str = "rules"
    commands: inputs.Commands | None = None  # the other families: files and commands


def family_of(case_seed: int, families: tuple[str, ...]) -> str:
    """A case's family, from a generator of its own: the "rules" cases of a seed stay
    what they were before there were other families."""
    weights = [FAMILIES[f] for f in families]
    return random.Random(f"family:{case_seed}").choices(families, weights)[0]


def tree() -> dict[str, bytes]:
    """Every file of rulesets/, by its path relative to ROOT."""
    files = sorted(p for p in (ROOT / "rulesets").rglob("*") if p.is_file())
    return {str(p.relative_to(ROOT)): p.read_bytes() for p in files}


@functools.lru_cache(maxsize=1)
def _inputs() -> tuple[dict[str, bytes], dict[str, object]]:
    files = tree()
    text = files["rulesets/examples/tictactoe.rules"].decode("utf-8")
    return files, inputs.base_save(text, seed=7, moves=3)


def make_case(
    case_seed: int,
    srcs: list[tuple[str, str]] | None = None,
    families: tuple[str, ...] = tuple(FAMILIES),
) -> Case:
    family = family_of(case_seed, families)
    if family != "rules":
        rng = random.Random(f"{family}:{case_seed}")
        files, base = _inputs()
        if family == "data":
            commands, desc = inputs.data_case(rng, files)
        elif family == "save":
            commands, desc = inputs.save_case(rng, files, base)
        else:
            commands, desc = inputs.options_case(rng, files, base)
        return Case(case_seed, family, [desc], "", family, commands)
    rng = random.Random(case_seed)
    srcs = srcs if srcs is not None else sources()
    source, text = rng.choice(srcs)
    done = []
    binary = False
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.06:
            binary = True
            continue
        text, desc = rng.choice(TEXT_MUTATIONS)(rng, text)
        done.append(desc)
    mutant: str | bytes = text
    if binary:
        mutant, desc = m_binary(rng, text.encode("utf-8"))
        done.append(desc)
    return Case(case_seed, source, done, mutant)


# ----------------------------------------------------------------- the child


def _frame(exc: BaseException) -> str:
    """The last traceback frame inside rulelang/ (or the last one at all)."""
    pkg = str(ROOT / "rulelang") + os.sep
    frames = traceback.extract_tb(exc.__traceback__)
    inside = [f for f in frames if f.filename.startswith(pkg)]
    if not (inside or frames):
        return "?"
    f = (inside or frames)[-1]
    where = os.path.relpath(f.filename, ROOT) if f.filename.startswith(pkg) else f.filename
    return f"{where}:{f.lineno} in {f.name}: {(f.line or '').strip()[:120]}"


def _limit() -> None:
    resource = __import__("resource")
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    # CPU seconds, not wall-clock ones: a case on a busy machine is not a hang
    cpu = int(TIMEOUT_S)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def child(case: Case, workspace: Path) -> dict[str, str]:
    """Compile and play one mutant (in the child process); classify the outcome."""
    import rulelang

    if case.commands is not None:
        folder = workspace / "cases" / str(case.seed)
        folder.mkdir(parents=True, exist_ok=True)
        try:
            return inputs.run_commands(case.commands, folder)
        except MemoryError as e:
            return {"class": "MEMORY", "type": "MemoryError", "where": _frame(e)}
        except Exception as e:  # noqa: BLE001 - the fuzzer's own mistake: say so
            where = _frame(e)
            return {"class": "INTERNAL", "type": f"fuzzer: {type(e).__name__}", "where": where}
    path = workspace / case.source
    stage = "compile"
    try:
        try:
            if isinstance(case.mutant, bytes):
                mutated = path.with_name("mutant-" + path.name)
                mutated.write_bytes(case.mutant)
                ruleset = rulelang.compile_file(mutated)
            else:
                ruleset = rulelang.compile_source(case.mutant, str(path))
            if not ruleset.is_library:
                for players in sorted({ruleset.min_players, ruleset.max_players}):
                    stage = f"play {players}"
                    game = ruleset.new_game(players, seed=case.seed)
                    game.playout(random.Random(case.seed), max_decisions=MAX_DECISIONS)
            return {"class": "ok"}
        except rulelang.RuleError as e:
            return {"class": "rule error", "detail": str(e)[:300]}
        except rulelang.GameRuntimeError as e:
            return {"class": "runtime error", "detail": str(e)[:300]}
        except rulelang.UsageError as e:
            return {"class": "usage error", "detail": str(e)[:300]}
    except MemoryError as e:
        return {"class": "MEMORY", "type": "MemoryError", "stage": stage, "where": _frame(e)}
    except Exception as e:  # noqa: BLE001 - any other exception is what we look for
        return {
            "class": "INTERNAL",
            "type": type(e).__name__,
            "message": str(e)[:300],
            "stage": stage,
            "where": _frame(e),
        }


def _died(status: int) -> dict[str, str]:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        name = signal.Signals(sig).name
        if sig == signal.SIGKILL:
            return {"class": "MEMORY", "type": f"killed by {name}"}
        if sig == signal.SIGXCPU:
            return {"class": "TIMEOUT", "type": f"{TIMEOUT_S:g} s of CPU time used"}
        return {"class": "INTERNAL", "type": f"died by {name}", "message": "", "where": "?"}
    return {"class": "INTERNAL", "type": f"exited {os.WEXITSTATUS(status)} without a result"}


def run_forked(case: Case, workspace: Path) -> dict[str, str]:
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        try:
            os.close(r)
            _limit()
            out = json.dumps(child(case, workspace)).encode()
        except MemoryError:
            out = b'{"class": "MEMORY", "type": "MemoryError"}'
        except BaseException as e:  # noqa: BLE001
            out = json.dumps({"class": "INTERNAL", "type": type(e).__name__}).encode()
        try:
            os.write(w, out)
        finally:
            os._exit(0)
    os.close(w)
    deadline = time.monotonic() + WALL_TIMEOUT_S
    chunks = []
    timed_out = False
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            ready, _, _ = select.select([r], [], [], left)
            if ready:
                data = os.read(r, 65536)
                if not data:
                    break
                chunks.append(data)
    finally:
        os.close(r)
    if timed_out:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        return {"class": "TIMEOUT"}
    _, status = os.waitpid(pid, 0)
    if chunks:
        return dict(json.loads(b"".join(chunks)))
    return _died(status)


def run_spawned(case: Case, workspace: Path) -> dict[str, str]:
    """The same in a fresh interpreter (subprocess, limits set by preexec_fn)."""
    env = dict(os.environ, XDG_CACHE_HOME=str(workspace / "cache"))
    try:
        p = subprocess.run(
            [sys.executable, __file__, "--child", str(workspace), str(case.seed)]
            + [a for f in _STATE.get("families", FAMILIES) for a in ("--family", f)],  # type: ignore[attr-defined]
            capture_output=True,
            timeout=WALL_TIMEOUT_S,
            preexec_fn=_limit,  # noqa: PLW1509 - no threads in the parent
            env=env,
            cwd=workspace,
        )
    except subprocess.TimeoutExpired:
        return {"class": "TIMEOUT"}
    lines = p.stdout.decode("utf-8", "replace").strip().splitlines()
    if lines:
        try:
            return dict(json.loads(lines[-1]))
        except ValueError:
            pass
    if p.returncode < 0:
        return _died(-p.returncode)  # minus the signal: a wait status that says so
    if b"MemoryError" in p.stderr:
        return {"class": "MEMORY", "type": "MemoryError"}
    return {
        "class": "INTERNAL",
        "type": f"exited {p.returncode}",
        "message": p.stderr[-300:].decode(),
    }


# ----------------------------------------------------------------- the pool

_STATE: dict[str, object] = {}


def _init(workspace: str, spawn: bool, families: tuple[str, ...] = tuple(FAMILIES)) -> None:
    os.environ["XDG_CACHE_HOME"] = str(Path(workspace) / "cache")
    _STATE["workspace"] = Path(workspace)
    _STATE["spawn"] = spawn
    _STATE["sources"] = sources()
    _STATE["families"] = families
    if not spawn:  # import and warm up rulelang once; each forked child starts warm
        import rulelang

        rulelang.compile_source('library "warm"\n', str(Path(workspace) / "warm.rules"))


def _work(case_seed: int) -> tuple[Case, dict[str, str], float]:
    families: tuple[str, ...] = _STATE["families"]  # type: ignore[assignment]
    case = make_case(case_seed, _STATE["sources"], families)  # type: ignore[arg-type]
    t = time.monotonic()
    run = run_spawned if _STATE["spawn"] else run_forked
    result = run(case, _STATE["workspace"])  # type: ignore[arg-type]
    # a case's folder (its files, its store) goes at once: thousands would fill the disk
    shutil.rmtree(Path(_STATE["workspace"]) / "cases" / str(case_seed), ignore_errors=True)  # type: ignore[arg-type]
    if case.commands is not None:  # the files are written; the report needs no copy
        case.commands = inputs.Commands(commands=case.commands.commands)
    return case, result, time.monotonic() - t


@dataclass
class Report:
    counts: Counter[str] = field(default_factory=Counter)
    by_family: Counter[tuple[str, str]] = field(default_factory=Counter)
    failures: list[tuple[Case, dict[str, str]]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def bad(self) -> int:
        return sum(self.counts[c] for c in FAILURES)


def case_seeds(seed: int, cases: int) -> list[int]:
    return [seed * 1_000_000 + i for i in range(cases)]


def run(
    cases: int = 200,
    seed: int = 0,
    jobs: int | None = None,
    spawn: bool = False,
    seeds: list[int] | None = None,
    progress: bool = False,
    families: tuple[str, ...] = tuple(FAMILIES),
) -> Report:
    seeds = seeds if seeds is not None else case_seeds(seed, cases)
    spawn = spawn or not hasattr(os, "fork")
    workspace = make_workspace()
    report = Report()
    start = time.monotonic()
    try:
        with ProcessPoolExecutor(
            max_workers=jobs or os.cpu_count() or 2,
            mp_context=multiprocessing.get_context("fork") if hasattr(os, "fork") else None,
            initializer=_init,
            initargs=(str(workspace), spawn, families),
        ) as pool:
            futures = [pool.submit(_work, s) for s in seeds]
            for n, future in enumerate(as_completed(futures), 1):
                case, result, _t = future.result()
                report.counts[result["class"]] += 1
                report.by_family[(case.family, result["class"])] += 1
                if result["class"] in FAILURES:
                    report.failures.append((case, result))
                if progress and n % 250 == 0:
                    seconds = time.monotonic() - start
                    failed = f", {report.bad} failures" if report.bad else ""
                    print(f"  {n} cases, {seconds:.0f} s{failed}", file=sys.stderr)
    finally:
        shutil.rmtree(workspace, ignore_errors=True)
    report.failures.sort(key=lambda f: f[0].seed)
    report.seconds = time.monotonic() - start
    return report


def cause(result: dict[str, str]) -> str:
    """What makes two failures the same: class, exception type and where it arose."""
    return f"{result['class']} {result.get('type', '')} at {result.get('where', '?')}"


def describe(case: Case, result: dict[str, str], show: bool = False) -> str:
    lines = [
        f"case {case.seed}: {result['class']} {result.get('type', '')}: "
        f"{result.get('message', '')}".rstrip(),
        f"    source {case.source}; mutations: {'; '.join(case.mutations)}",
    ]
    if "where" in result:
        lines.append(f"    at {result['where']} ({result.get('stage', '')})")
    if case.commands is not None:
        lines += [f"    $ rulelang {' '.join(argv)}"[:300] for argv in case.commands.commands]
    elif show:
        text = (
            case.mutant if isinstance(case.mutant, str) else case.mutant.decode("utf-8", "replace")
        )
        for s in text.split("\n")[:15]:
            lines.append("    | " + (s if len(s) <= 160 else s[:160] + "..."))
    return "\n".join(lines)


def summary(report: Report, show: bool = False) -> str:
    total = sum(report.counts.values())
    out = [f"{total} cases in {report.seconds:.1f} s"]
    families = [f for f in FAMILIES if any(k[0] == f for k in report.by_family)]
    out.append(f"  {'':14} {'all':>6}" + "".join(f" {f:>8}" for f in families))
    for c in CLASSES:
        row = "".join(f" {report.by_family[(f, c)]:>8}" for f in families)
        out.append(f"  {c:14} {report.counts[c]:>6}{row}")
    if report.failures:
        groups: dict[str, list[tuple[Case, dict[str, str]]]] = {}
        for case, result in report.failures:
            groups.setdefault(cause(result), []).append((case, result))
        out.append(f"{len(report.failures)} failures, {len(groups)} distinct causes:")
        for key, items in groups.items():
            kinds = sorted({case.family for case, _r in items})
            out.append(f"- {key} ({len(items)} cases; {', '.join(kinds)})")
        out.append("")
        for case, result in report.failures:
            out.append(describe(case, result, show))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--case", type=int, action="append", help="run this case seed (repeatable)")
    ap.add_argument("--show", action="store_true", help="print the first lines of failing mutants")
    ap.add_argument("--save", metavar="DIR", help="write each failing mutant into DIR")
    ap.add_argument("--spawn", action="store_true", help="a fresh interpreter per case")
    ap.add_argument(
        "--family", action="append", choices=list(FAMILIES), help="only these (repeatable)"
    )
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    families = tuple(args.family or FAMILIES)
    if args.child:  # run by run_spawned
        case = make_case(int(args.child[1]), families=families)
        print(json.dumps(child(case, Path(args.child[0]))))
        return 0
    report = run(
        args.cases,
        args.seed,
        args.jobs,
        args.spawn,
        seeds=args.case,
        progress=True,
        families=families,
    )
    print(summary(report, args.show))
    if args.save:
        Path(args.save).mkdir(parents=True, exist_ok=True)
        for case, _result in report.failures:
            if case.commands is not None:
                continue  # `--case SEED` makes its files again
            name = f"case-{case.seed}-{Path(case.source).name}"
            data = case.mutant if isinstance(case.mutant, bytes) else case.mutant.encode("utf-8")
            (Path(args.save) / name).write_bytes(data)
    return 1 if report.bad else 0


if __name__ == "__main__":
    sys.exit(main())
