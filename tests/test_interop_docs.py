"""Keep docs/interop.md honest: its ```python blocks run, in order, in one namespace,
from the repository root (as tests/test_api_docs.py does for docs/api.md)."""

from __future__ import annotations

import pytest

from tests.interop_support import ROOT
from tests.test_api_docs import blocks

DOC = ROOT / "docs" / "interop.md"


def test_the_python_examples_run_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the examples open rulesets/... by relative paths
    namespace: dict[str, object] = {"__name__": "docs_interop"}
    found = blocks(DOC.read_text(encoding="utf-8"))
    assert {lang for _line, lang, _code in found} <= {"python", "text"}
    assert sum(lang == "python" for _line, lang, _code in found) == 4
    for line, lang, code in found:
        if lang == "python":
            exec(compile("\n" * (line - 1) + code, str(DOC), "exec"), namespace)
