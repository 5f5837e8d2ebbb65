"""Read a rule file with its `extends` base and its `import`ed stdlib modules."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from rulelang.diagnostics import Diagnostic, RuleError, Sources, Span, did_you_mean
from rulelang.syntax import ast as A
from rulelang.syntax.ast_cache import parse_cached
from rulelang.syntax.node import replace

STDLIB_ENV = "RULELANG_PATH"


def stdlib_dirs(near: Path | None = None) -> list[Path]:
    dirs: list[Path] = []
    for extra in os.environ.get(STDLIB_ENV, "").split(os.pathsep):
        if extra:
            dirs.append(Path(extra))
    if near is not None:
        for parent in [near.parent, *near.parents]:
            if (parent / "stdlib").is_dir():
                dirs.append(parent / "stdlib")
                break
    dirs.append(Path(__file__).resolve().parent.parent / "stdlib")
    return dirs


def _key(decl: A.Decl) -> tuple[str, str] | None:
    if isinstance(decl, A.PhaseDecl):
        return ("phase", decl.name)
    if isinstance(decl, A.SetupDecl):
        return ("setup", "setup")
    if isinstance(decl, A.KindDecl):
        return ("kind", decl.name)
    if isinstance(decl, A.EndDecl):
        return None
    if isinstance(decl, A.Named):
        return ("value", decl.name)
    return None


@dataclass
class Loaded:
    decls: list[A.Decl] = field(default_factory=list)
    sources: Sources = field(default_factory=Sources)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


class Loader:
    def __init__(self) -> None:
        self.out = Loaded()
        self.imported: set[str] = set()

    def load_file(self, path: Path) -> Loaded:
        decls = self._file(path, stack=())
        self.out.decls = decls
        if self.out.diagnostics:
            raise RuleError(self.out.diagnostics, self.out.sources)
        return self.out

    def load_text(self, text: str, name: str) -> Loaded:
        self.out.sources.texts[name] = text
        module = self._parse(text, name)
        self.out.decls = self._assemble(module, Path(name), stack=(name,))
        if self.out.diagnostics:
            raise RuleError(self.out.diagnostics, self.out.sources)
        return self.out

    def _parse(self, text: str, name: str) -> A.Module:
        try:
            return parse_cached(text, name)
        except RuleError as err:
            raise RuleError(err.diagnostics, self.out.sources) from None

    def _file(self, path: Path, stack: tuple[str, ...], span: Span | None = None) -> list[A.Decl]:
        name = str(path)
        if name in stack:
            chain = " -> ".join([*stack, name])
            self._err("E104", f"'extends' goes round in a circle: {chain}", span)
            return []
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            if span is None:
                raise
            self._err("E104", f"cannot read '{path}': {exc.strerror}", span)
            return []
        self.out.sources.texts[name] = text
        self.out.files.append(name)
        return self._assemble(self._parse(text, name), path, (*stack, name))

    def _assemble(self, module: A.Module, path: Path, stack: tuple[str, ...]) -> list[A.Decl]:
        base: list[A.Decl] = []
        own: list[A.Decl] = []
        for decl in module.decls:
            if isinstance(decl, A.ExtendsDecl):
                target = (path.parent / decl.path).resolve()
                base = self._file(target, stack, decl.span)
            elif isinstance(decl, A.ImportDecl):
                base_imports = self._import(decl, path)
                own.extend(base_imports)
            else:
                own.append(decl)
        return self._merge(base, own)

    def _import(self, decl: A.ImportDecl, path: Path) -> list[A.Decl]:
        if decl.module in self.imported:
            return []
        available: set[str] = set()
        for folder in stdlib_dirs(path):
            candidate = folder / f"{decl.module}.rules"
            if candidate.is_file():
                self.imported.add(decl.module)
                return [
                    d
                    for d in self._file(candidate, (), decl.span)
                    if not isinstance(d, A.LibraryDecl)
                ]
            if folder.is_dir():
                available.update(p.stem for p in folder.glob("*.rules"))
        hint = did_you_mean(decl.module, available) or (
            "stdlib modules: " + ", ".join(sorted(available)) if available else ""
        )
        self._err("E104", f"no stdlib module named '{decl.module}'", decl.span, hint)
        return []

    def _merge(self, base: list[A.Decl], own: list[A.Decl]) -> list[A.Decl]:
        result = list(base)
        where: dict[tuple[str, str], int] = {}
        for i, d in enumerate(result):
            k = _key(d)
            if k is not None:
                where[k] = i
        for decl in own:
            k = _key(decl)
            singleton = isinstance(decl, A.GameDecl | A.PlayersDecl)
            if singleton:
                # a variant's title or player count replaces the base's, in place
                same = [i for i, d in enumerate(result) if type(d) is type(decl)]
                if same:
                    result[same[0]] = decl
                else:
                    result.append(decl)
                continue
            if k is not None and k in where and base:
                old = result[where[k]]
                if isinstance(decl, A.Named) and not decl.override:
                    self._err(
                        "E102",
                        f"'{k[1]}' is already defined in the base file at {old.span}",
                        decl.span,
                        "write 'override' in front to replace it",
                    )
                result[where[k]] = decl
                continue
            if isinstance(decl, A.Named) and decl.override:
                self._err(
                    "E105", f"'override' of '{decl.name}', but no base file defines it", decl.span
                )
                decl = replace(decl, override=False)
            result.append(decl)
            if k is not None:
                where.setdefault(k, len(result) - 1)
        return result

    def _err(self, code: str, msg: str, span: Span | None, hint: str = "") -> None:
        self.out.diagnostics.append(Diagnostic(code, msg, span or Span("<cli>", 0, 0), hint=hint))
