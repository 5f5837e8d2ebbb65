"""One dispatch style: the walks over statements, expressions and declarations (the
checker's, the code generator's) `match` over the unions of rulelang/syntax/ast.py and
end in `assert_never`. A node kind forgotten in one of them is a type error (mypy), and
fails loudly should it run anyway; a node class left out of its union is caught here."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest

from rulelang.check.context import Checker
from rulelang.check.declare import _declare
from rulelang.check.resolve import Resolver
from rulelang.check.scope import Ctx
from rulelang.diagnostics import Span
from rulelang.syntax import ast as A
from rulelang.syntax.node import node

ROOT = Path(__file__).resolve().parent.parent
SPAN = Span("mystery.rules", 1, 1)


def leaves(base: type) -> set[type]:
    """The node classes of ast.py derived from base that have none derived from them."""
    found: set[type] = set()
    for sub in base.__subclasses__():
        found |= leaves(sub) if sub.__subclasses__() else {sub}
    return {cls for cls in found if cls.__module__ == A.__name__}


@pytest.mark.parametrize(
    ("base", "union"), [(A.Stmt, A.AnyStmt), (A.Expr, A.AnyExpr), (A.Decl, A.AnyDecl)]
)
def test_each_union_holds_every_node_class(base: type, union: object) -> None:
    """A node class missing from its union would escape every exhaustive match."""
    assert leaves(base) == set(get_args(union))


@node
class Mystery(A.Stmt):
    """A statement kind no walk knows (made here, after the unions were checked)."""


@node
class MysteryDecl(A.Decl):
    """A declaration kind no walk knows."""


def test_the_checker_refuses_a_statement_kind_it_does_not_know() -> None:
    """An unknown statement is never passed over unchecked."""
    with pytest.raises(AssertionError):
        Resolver(Checker([], "mystery.rules")).stmt(Mystery(SPAN), Ctx())


def test_the_checker_refuses_a_declaration_kind_it_does_not_know() -> None:
    with pytest.raises(AssertionError):
        _declare(Checker([], "mystery.rules"), MysteryDecl(SPAN))


def test_nested_blocks_are_known_for_every_statement() -> None:
    with pytest.raises(AssertionError):
        A.blocks_in(Mystery(SPAN))
    body = (A.Pass(SPAN),)
    loop = A.While(SPAN, A.BoolLit(SPAN, True), body)
    assert A.blocks_in(loop) == (body,)
    assert A.blocks_in(A.Pass(SPAN)) == ()


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One mypy cache for the module's runs: rulelang is analysed once, not per run."""
    return tmp_path_factory.mktemp("mypy-cache")


def mypy_errors(source: str, tmp_path: Path, cache: Path) -> str:
    """mypy --strict's report on one module (rulelang imported from this tree)."""
    module = tmp_path / "walk_copy.py"
    module.write_text(source, encoding="utf-8")
    env = {**os.environ, "MYPYPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--ignore-missing-imports"]
        + ["--follow-imports=silent", "--cache-dir", str(cache), str(module)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=False,
    )
    return done.stdout


# (file, the case left out, the class it handled)
FORGOTTEN = [
    (
        "rulelang/check/resolve.py",
        "            case A.Say():\n                self.say(s, ctx)\n",
        "Say",
    ),
    (
        "rulelang/check/typing.py",
        "            case A.Cond():\n                return self.cond(e, ctx)\n",
        "Cond",
    ),
    (
        "rulelang/check/declare.py",
        "        case A.EndDecl():\n            c.ends.append(d)\n",
        "EndDecl",
    ),
]


@pytest.mark.parametrize(("path", "case", "kind"), FORGOTTEN)
def test_mypy_finds_a_kind_forgotten_in_a_walk(
    path: str, case: str, kind: str, tmp_path: Path, mypy_cache: Path
) -> None:
    """The checker's walk with one case left out is a type error that names the kind."""
    text = (ROOT / path).read_text(encoding="utf-8")
    assert case in text
    report = mypy_errors(text.replace(case, ""), tmp_path, mypy_cache)
    assert f'"assert_never" has incompatible type "{kind}"' in report, report


def test_mypy_accepts_the_walk_as_it_is(tmp_path: Path, mypy_cache: Path) -> None:
    """The control of the test above: the same check of the whole walk finds nothing."""
    text = (ROOT / "rulelang/check/resolve.py").read_text(encoding="utf-8")
    assert "Success" in mypy_errors(text, tmp_path, mypy_cache)
