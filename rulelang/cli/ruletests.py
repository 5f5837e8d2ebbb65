"""`rulelang test`: run the rule tests of `*.rulestest` files (docs/testing.md); exit
0 when every case passes, 2 when a case fails, 65 for a test file or rule file that
cannot be read as one, 64 for a path that is not there."""

from __future__ import annotations

from pathlib import Path

from rulelang.cli.errors import EX_DATAERR, EX_OK, EX_TESTS_FAILED, CliExit, say_err, usage
from rulelang.cli.terminal import say
from rulelang.diagnostics import RuleError
from rulelang.workbench import runner, testfile


def run_tests(paths: list[Path], verbose: bool = False) -> int:
    try:
        files = testfile.find(paths or [Path(".")])
    except FileNotFoundError as missing:
        raise usage(f"no such test file or folder: {missing}") from None
    if not files:
        where = ", ".join(map(str, paths or [Path(".")]))
        rules = [p for p in paths if p.suffix == ".rules"]
        hint = ""
        if rules:
            hint = f"; tests of {rules[0]} go in {rules[0].with_suffix(testfile.SUFFIX)}"
        raise usage(f"no rule tests ({testfile.SUFFIX} files) in {where}{hint} (docs/testing.md)")
    passed = failed = broken = 0
    for path in files:
        try:
            test = testfile.read(path)
            outcomes = runner.run_file(test)
        except testfile.Malformed as bad:
            say_err(f"error: {bad}")
            broken += 1
            continue
        except RuleError as error:
            say_err(f"{runner.rules_problems(error)}\nerror: the rules of {path} have errors")
            broken += 1
            continue
        for case, outcome in zip(test.cases, outcomes, strict=True):
            if outcome is None:
                passed += 1
                if verbose:
                    say(f'ok    {path}:{case.number}: case "{case.name}"')
            else:
                failed += 1
                say(f"FAIL  {outcome}")
    return _summary(passed, failed, broken)


def _summary(passed: int, failed: int, broken: int) -> int:
    parts = [f"{passed} passed"] + ([f"{failed} failed"] if failed else [])
    parts += [f"{broken} test file(s) could not be run"] if broken else []
    say(f"{passed + failed} case(s): " + ", ".join(parts))
    if broken:
        raise CliExit(EX_DATAERR)
    return EX_TESTS_FAILED if failed else EX_OK
