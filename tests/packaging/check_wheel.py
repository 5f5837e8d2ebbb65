"""CI: the package installs whole (run by .ci/test, not collected by pytest).

Builds the sdist and, from it, the wheel (`python -m build`), checks that the sdist
holds stdlib/, rulesets/, docs/ and tests/ and that the wheel holds every module of
the clone's stdlib/ as rulelang/stdlib/NAME.rules and every shipped game (rulesets/,
its data files and rule tests) as rulelang/rulesets/; then installs the wheel into a
fresh virtual environment in a temporary folder outside the clone and, from a working
folder outside the clone with the clone on no path, validates and plays
`uses_stdlib.rules` (beside this file), which imports every stdlib module, writes a
variant of a shipped game by name (`rulelang new --from saboteur`), validates it,
runs its rule tests and those of every shipped game, and simulates it. Any
failure exits non-zero. Nothing is left in the clone but the build's egg-info, which
`pip install -e .` makes anyway; the temporary folder is removed (kept with
--keep).

    python tests/packaging/check_wheel.py [--keep]
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
RULES = Path(__file__).resolve().with_name("uses_stdlib.rules")
SDIST_FOLDERS = ("stdlib", "rulesets", "docs", "tests", "rulelang")
PLAYERS = (2, 4)  # the player counts the bots play the rule file with

# Run in the fresh environment: rulelang and every stdlib module it serves come from
# that environment, not from the clone.
INSIDE = """
import sys
from pathlib import Path
import rulelang, rulelang.loader as loader
env, clone, rules = Path(sys.prefix).resolve(), Path(sys.argv[1]), Path(sys.argv[2])
modules = sys.argv[3:]
where = Path(rulelang.__file__).resolve()
assert where.is_relative_to(env), f"rulelang imported from {where}, not from {env}"
shipped = loader.shipped_stdlib().resolve()
assert shipped.is_relative_to(env), f"the shipped stdlib is {shipped}, not in {env}"
have = sorted(p.stem for p in shipped.glob("*.rules"))
assert have == sorted(modules), f"{shipped} holds {have}, stdlib/ holds {modules}"
for module in modules:
    found = [d for d in loader.stdlib_dirs(rules) if (d / f"{module}.rules").is_file()]
    assert found, f"'import {module}' finds nothing in {loader.stdlib_dirs(rules)}"
    assert found[0].resolve() == shipped, f"'import {module}' is served from {found[0]}"
for path in sys.path:
    assert not Path(path or ".").resolve().is_relative_to(clone), f"{path} on sys.path"
print(f"rulelang {where.parent}, stdlib {shipped}: {', '.join(have)}")
"""


def step(
    what: str, command: list[str], cwd: Path | None = None, env: dict[str, str] | None = None
) -> str:
    """Run `command`, print what it was and how long it took; exit if it fails."""
    start = time.monotonic()
    shown = " ".join(a if "\n" not in a else "SCRIPT" for a in command)
    print(f"--- {what}: {shown}", flush=True)
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=env)
    seconds = time.monotonic() - start
    if done.returncode != 0:
        sys.stdout.write(done.stdout[-20000:])
        sys.stderr.write(done.stderr[-20000:])
        fail(f"{what} exited {done.returncode} after {seconds:.1f} s")
    print(f"    ok in {seconds:.1f} s", flush=True)
    return done.stdout


def fail(message: str) -> None:
    print(f"FAILED: {message}", file=sys.stderr, flush=True)
    raise SystemExit(1)


def stdlib_modules() -> list[str]:
    modules = sorted(p.stem for p in (ROOT / "stdlib").glob("*.rules"))
    if not modules:
        fail(f"no modules in {ROOT / 'stdlib'}")
    text = RULES.read_text(encoding="utf-8")
    imported = set(re.findall(r"^import\s+([A-Za-z_]\w*)\s*(?:#.*)?$", text, re.M))
    missing = [m for m in modules if m not in imported]
    if missing:
        fail(f"{RULES.relative_to(ROOT)} does not import {missing}: add each, and use it")
    return modules


def check_archives(dist: Path, modules: list[str]) -> Path:
    """The wheel, after checking what it and the sdist hold."""
    [sdist] = dist.glob("*.tar.gz")
    [wheel] = dist.glob("*.whl")
    with tarfile.open(sdist) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    for folder in SDIST_FOLDERS:
        if not any(name.startswith(folder + "/") for name in names):
            fail(f"the sdist {sdist.name} has no {folder}/")
    for module in modules:
        if f"stdlib/{module}.rules" not in names:
            fail(f"the sdist {sdist.name} has no stdlib/{module}.rules")
    with zipfile.ZipFile(wheel) as whl:
        held = set(whl.namelist())
    needed = [f"rulelang/stdlib/{m}.rules" for m in modules] + [
        "rulelang/syntax/rulelang.lark",
        "rulelang/py.typed",
    ]
    needed += [
        "rulelang/" + str(p.relative_to(ROOT))
        for p in sorted((ROOT / "rulesets").rglob("*"))
        if p.suffix in (".rules", ".yaml", ".rulestest")
    ]
    for name in needed:
        if name not in held:
            fail(f"the wheel {wheel.name} has no {name}")
    print(f"    {sdist.name}: {len(names)} entries; {wheel.name}: {len(held)} entries")
    return wheel


def clean_env(tmp: Path) -> dict[str, str]:
    """The environment for the fresh virtual environment: the clone on no path, no
    stdlib or allowed folders from the caller, no user site-packages, cwd not on
    sys.path, and the caches and saved games in the temporary folder."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "PYTHONHOME", "RULELANG_PATH", "RULELANG_ALLOW_PATH")
        and k != "VIRTUAL_ENV"
    }
    env["PATH"] = os.pathsep.join([str(tmp / "venv" / "bin"), env.get("PATH", "")])
    env["PYTHONNOUSERSITE"] = "1"
    env["PYTHONSAFEPATH"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["XDG_CACHE_HOME"] = str(tmp / "cache")  # rulelang's parse caches
    env["RULELANG_DATA_DIR"] = str(tmp / "data")  # the games it plays: not the user's store
    env["PIP_CACHE_DIR"] = os.environ.get("PIP_CACHE_DIR") or str(
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pip"
    )  # pip's usual cache, reused between runs
    return env


def main() -> None:
    keep = "--keep" in sys.argv[1:]
    start = time.monotonic()
    modules = stdlib_modules()
    tmp = Path(tempfile.mkdtemp(prefix="rulelang-wheel-")).resolve()
    if tmp.is_relative_to(ROOT):
        fail(f"the temporary folder {tmp} is inside the clone {ROOT}")
    try:
        dist = tmp / "dist"
        step(
            "build the sdist, and the wheel from it",
            [sys.executable, "-m", "build", "-o", str(dist), str(ROOT)],
        )
        wheel = check_archives(dist, modules)

        print(f"--- a fresh virtual environment in {tmp / 'venv'}", flush=True)
        started = time.monotonic()
        venv.EnvBuilder(with_pip=True, clear=True).create(tmp / "venv")
        print(f"    ok in {time.monotonic() - started:.1f} s", flush=True)
        python = str(tmp / "venv" / "bin" / "python")
        rulelang = str(tmp / "venv" / "bin" / "rulelang")
        env = clean_env(tmp)
        work = tmp / "work"
        work.mkdir()
        rules = work / RULES.name
        shutil.copyfile(RULES, rules)
        step("install the wheel", [python, "-m", "pip", "install", "-q", str(wheel)], work, env)
        print(
            step(
                "where rulelang and the stdlib come from",
                [python, "-c", INSIDE, str(ROOT), str(rules), *modules],
                work,
                env,
            ),
            end="",
        )
        step("validate", [rulelang, "validate", rules.name], work, env)
        for n in PLAYERS:
            out = step(
                f"play, {n} bots",
                [rulelang, "play", rules.name, "--players", str(n), "--bots", "all", "--seed", "1"],
                work,
                env,
            )
            if not re.search(r"^\s*P\d+: win\b", out, re.M):
                fail(f"the game with {n} players ended with no winner:\n{out[-2000:]}")
        step(
            "simulate", [rulelang, "simulate", rules.name, "--players", "3", "-n", "20"], work, env
        )
        # a variant of a shipped game, by name, with nothing allowed
        step("new, from a shipped game", [rulelang, "new", "mine", "--from", "saboteur"], work, env)
        step("validate the variant", [rulelang, "validate", "mine.rules"], work, env)
        step("its rule tests", [rulelang, "test", "mine.rulestest"], work, env)
        step(
            "simulate the variant",
            [rulelang, "simulate", "mine.rules", "-p", "3", "-n", "5"],
            work,
            env,
        )
        # the rule tests the wheel holds, run where it installed them
        shipped = str(next((tmp / "venv").glob("lib/python*/site-packages/rulelang/rulesets")))
        step("the shipped games' rule tests", [rulelang, "test", shipped], work, env)
        # the core install has no matplotlib: --report says in one line what to install
        done = subprocess.run(
            [rulelang, "simulate", rules.name, "-p", "3", "-n", "2", "--report", "r.html"],
            capture_output=True,
            text=True,
            cwd=work,
            env=env,
        )
        said = done.stderr.strip()
        if done.returncode != 64 or "\n" in said or "rulelang[report]" not in said:
            fail(f"simulate --report without matplotlib: exit {done.returncode}, {said!r}")
        print(f"--- simulate --report without matplotlib: {said}", flush=True)
    finally:
        if keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"the wheel installs whole: {', '.join(modules)} ({time.monotonic() - start:.0f} s)")


if __name__ == "__main__":
    main()
