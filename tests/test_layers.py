"""The floors of the house: every module of rulelang imports only from its own floor
or the floors below it, and no modules import each other in a circle (lazy imports
inside functions count; imports under `if TYPE_CHECKING:` do not, they never run).

The command line is the top floor: nothing imports it. Simulation, storage and
rendering sit below it so that the reports, the interop adapters and any other front
end (a server, a notebook) can use them without the command line."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import rulelang

ROOT = Path(rulelang.__file__).parent

# lowest first; a unit is a top-level module or package of rulelang ("rulelang" is the
# package's own __init__, the public facade)
FLOORS: list[set[str]] = [
    {"diagnostics", "exits", "highlight", "words"},
    {"limits"},
    {"errors"},
    {"syntax"},
    {"loader", "fmt"},
    {"check"},
    {"runtime"},
    {"search"},
    {"api", "rulelang"},
    {"stats", "render", "storage"},
    {"simulation", "interop", "workbench", "lsp"},
    {"report", "rulebook", "serve"},
    {"cli"},
]
FLOOR = {unit: level for level, units in enumerate(FLOORS) for unit in units}


def _module(path: Path) -> str:
    parts = ["rulelang", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _unit(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "rulelang"


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, module) of every rulelang import that runs, lazy ones included."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if _type_checking(node):
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "rulelang":  # `from rulelang import search`: the module
                for alias in node.names:
                    sub = ROOT / alias.name
                    is_module = sub.is_dir() or sub.with_suffix(".py").is_file()
                    yield node.lineno, f"rulelang.{alias.name}" if is_module else "rulelang"
            elif node.module.startswith("rulelang."):
                yield node.lineno, node.module
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "rulelang" or alias.name.startswith("rulelang."):
                    yield node.lineno, alias.name
        stack.extend(ast.iter_child_nodes(node))


def _graph() -> dict[str, list[tuple[int, str]]]:
    modules = {}
    for path in sorted(ROOT.rglob("*.py")):
        if "stdlib" in path.relative_to(ROOT).parts:
            continue
        modules[_module(path)] = sorted(_imports(ast.parse(path.read_text(), str(path))))
    return modules


def _resolve(target: str, modules: dict[str, object]) -> str:
    """The module an import names: `rulelang.cli.errors`, not a name inside it."""
    while target not in modules and "." in target:
        target = target.rsplit(".", 1)[0]
    return target


def test_every_unit_has_a_floor() -> None:
    units = {_unit(m) for m in _graph()}
    assert units - FLOOR.keys() == set(), "place the new module or package in FLOORS"


def test_no_module_imports_from_a_floor_above_it() -> None:
    wrong = [
        f"{module}:{line} imports {target}"
        for module, imports in _graph().items()
        for line, target in imports
        if FLOOR[_unit(target)] > FLOOR[_unit(module)]
    ]
    assert wrong == []


def test_no_import_circles() -> None:
    modules = _graph()
    edges = {
        m: {_resolve(t, modules) for _line, t in imports} - {m} for m, imports in modules.items()
    }
    circles = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for nxt in sorted(edges.get(module, ())):
            if nxt.startswith(module + "."):  # a package importing its own modules
                continue
            if state.get(nxt) == 1:
                circles.append(" -> ".join([*path[path.index(nxt) :], nxt]))
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[module] = 2

    for module in sorted(modules):
        if module not in state:
            visit(module, [module])
    assert circles == []


def test_the_checks_see_a_floor_broken() -> None:
    """The walk finds lazy imports and skips TYPE_CHECKING ones (else the tests above
    could pass by seeing nothing)."""
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from rulelang.cli.app import app\n"
        "def f():\n    from rulelang.cli import errors\n    import rulelang.report.html\n"
    )
    assert sorted(_imports(tree)) == [(5, "rulelang.cli"), (6, "rulelang.report.html")]


def test_the_readme_test_command_is_what_ci_runs_first() -> None:
    """The README's Quick start gives one test command; CI (.ci/run) runs exactly it,
    then the long checks in full."""
    top = ROOT.parent
    readme = (top / "README.md").read_text()
    quick = readme[readme.index("## Quick start") : readme.index("## The command line")]
    assert quick.count("```sh") == 2 and "bash .ci/test" in quick
    run = (top / ".ci" / "run").read_text().splitlines()
    steps = [line for line in run if line.strip() and not line.startswith(("#", "set ", "cd "))]
    assert steps == ["bash .ci/test", "python -m pytest --full -m long"]


def test_the_command_line_starts_without_the_engine() -> None:
    """`rulelang --help` and the app's commands load no parser, checker or runtime
    until a command runs (start-up: docs/performance.md)."""
    import subprocess
    import sys

    code = (
        "import sys, rulelang.cli.app\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'lark' or "
        "m.startswith(('rulelang.runtime', 'rulelang.check', 'rulelang.syntax', "
        "'rulelang.search', 'rulelang.loader', 'rich'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
