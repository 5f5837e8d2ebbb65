"""pytest runs rule tests: each case of a `*.rulestest` file is one test item, its
failure shown as `rulelang test` shows it (the test file's line, expected and actual
side by side). Registered as a pytest plugin when rulelang is installed (entry point
`pytest11`), or named with `pytest -p rulelang.workbench.pytest_plugin`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulelang import Ruleset
from rulelang.diagnostics import RuleError
from rulelang.workbench import runner, testfile


class CaseFailed(Exception):
    def __init__(self, failure: runner.Failure) -> None:
        super().__init__(str(failure))
        self.failure = failure


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.name.endswith(testfile.SUFFIX):
        return RuleTestFile.from_parent(parent, path=file_path)
    return None


class RuleTestFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        try:
            test = testfile.read(self.path)
            rules = runner.load_rules(test)
        except testfile.Malformed as bad:
            raise self.CollectError(str(bad)) from None
        except RuleError as error:
            raise self.CollectError(runner.rules_problems(error)) from None
        for case in test.cases:
            yield RuleTestCase.from_parent(self, name=case.name, test=test, case=case, rules=rules)


class RuleTestCase(pytest.Item):
    def __init__(
        self, *, test: testfile.TestFile, case: testfile.Case, rules: Ruleset, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.test, self.case, self.rules = test, case, rules

    def runtest(self) -> None:
        try:
            failure = runner.run_case(self.rules, self.test, self.case)
        except testfile.Malformed as bad:
            failure = runner.Failure(bad.path, self.case.name, bad.line, "", bad.message)
            raise CaseFailed(failure) from None
        if failure is not None:
            raise CaseFailed(failure)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, CaseFailed):
            return str(excinfo.value.failure)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.case.number - 1, f'case "{self.case.name}"'
