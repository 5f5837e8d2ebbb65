"""One rule file as the editor holds it, read and checked as `rulelang validate` would,
with what the checker learned kept for the other requests (hover, definitions...).

The text being edited is parsed in memory, declaration by declaration (chunks.py: an
edit parses again only the declaration it is in), and never written to the parse
cache on disk (a new entry per keystroke would fill it); the files it extends and
imports are read through the loader as always, so their parses come from that cache,
and an in-memory cache keeps them between edits."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from rulelang.check import in_file_order, run_passes
from rulelang.check.context import Checker
from rulelang.diagnostics import Diagnostic, RuleError, Sources, Span
from rulelang.loader import Loaded, Loader
from rulelang.lsp.chunks import Pieces
from rulelang.lsp.index import Index, build
from rulelang.syntax import ast as A
from rulelang.syntax.ast_cache import parse_cached

MEMO_SIZE = 64  # parsed texts kept in memory: the open files and what they read
PIECES = Pieces()  # the edited files' declarations, parsed one by one


class _Memo:
    """Parsed modules by a hash of (file name, text): syntax errors are kept too."""

    def __init__(self) -> None:
        self.items: OrderedDict[str, A.Module | RuleError] = OrderedDict()

    def parse(self, text: str, name: str, on_disk: bool) -> A.Module:
        key = hashlib.sha256(f"{name}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()
        found = self.items.get(key)
        if found is None:
            try:
                found = parse_cached(text, name) if on_disk else PIECES.parse(text, name)
            except RuleError as err:
                found = err
            self.items[key] = found
            while len(self.items) > MEMO_SIZE:
                self.items.popitem(last=False)
        self.items.move_to_end(key)
        if isinstance(found, RuleError):
            raise RuleError(found.diagnostics, found.sources)
        return found


MEMO = _Memo()


@dataclass
class Link:
    """An `extends` or `import` of some file: where it is written and the file read."""

    span: Span
    target: str


class _EditorLoader(Loader):
    """The loader, parsing the edited text in memory and noting each file it reads."""

    def __init__(self, main: str) -> None:
        super().__init__()
        self.main = main
        self.links: list[Link] = []

    def _parse(self, text: str, name: str) -> A.Module:
        try:
            return MEMO.parse(text, name, on_disk=name != self.main)
        except RuleError as err:
            raise RuleError(err.diagnostics, self.out.sources) from None

    def _file(
        self, path: Path, stack: tuple[str, ...], span: Span | None = None, written: str = ""
    ) -> list[A.Decl]:
        if span is not None and span.file == self.main:
            self.links.append(Link(span, str(path)))
        return super()._file(path, stack, span, written)


@dataclass
class Analysis:
    """What is known of one version of a file. `checker` is None when its text could
    not be parsed; `diagnostics` are every problem found, those of other files too."""

    path: str
    text: str
    digest: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    module: A.Module | None = None
    loaded: Loaded | None = None
    checker: Checker | None = None
    links: list[Link] = field(default_factory=list)
    _index: Index | None = None
    _mended: Analysis | Literal[False] | None = None

    def index(self) -> Index | None:
        """Where each name is written and what it means (built on first use)."""
        if self._index is None and self.checker is not None:
            self._index = build(self.checker, self.sources)
        return self._index

    def mended(self) -> Analysis | None:
        """For a text with syntax errors: the analysis of the text with the rest of
        each line in error cut off (made on first use, for the outline and
        navigation), or None if that does not parse either."""
        if self.checker is not None or not self.diagnostics:
            return None
        if self._mended is None:
            self._mended = _mended(self.text, self.path, self.diagnostics) or False
        return self._mended or None

    @property
    def sources(self) -> Sources:
        return self.loaded.sources if self.loaded else Sources({self.path: self.text})


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def analyse(text: str, path: str) -> Analysis:
    """Read and check `text` as the file `path`: its diagnostics as `rulelang validate`
    gives them (syntax errors alone if there are any; else the loader's, else the
    checker's), and, whenever the text parses, what the checker made of every name."""
    result = Analysis(path, text, digest(text))
    try:
        result.module = MEMO.parse(text, path, on_disk=False)
    except RuleError as err:
        result.diagnostics = list(err.diagnostics)
        return result
    result.loaded, result.links, result.checker, load_errors = _load_and_check(text, path)
    # as validate: the checker speaks once everything could be read
    result.diagnostics = load_errors or in_file_order(result.checker.diagnostics, path)
    return result


MEND_ROUNDS = 4  # syntax errors cut away, one after another, before giving up


def _mended(text: str, path: str, problems: list[Diagnostic]) -> Analysis | None:
    """The file read with the rest of each line that has a syntax error cut off (a few
    rounds, as new errors show), so that the outline and the names of the rest of the
    file stay known while a line is being written. Its diagnostics are not shown: the
    syntax errors are the file's."""
    lines = text.split("\n")
    for _round in range(MEND_ROUNDS):
        for d in problems:
            n = d.span.line - 1
            if d.span.file == path and 0 <= n < len(lines):
                lines[n] = lines[n][: max(d.span.col - 1, 0)]
        mended = "\n".join(lines)
        try:
            module = MEMO.parse(mended, path, on_disk=False)
        except RuleError as err:
            problems = err.diagnostics
            continue
        result = Analysis(path, mended, digest(mended), module=module)
        result.loaded, result.links, result.checker, _ = _load_and_check(mended, path)
        return result
    return None


def _load_and_check(text: str, path: str) -> tuple[Loaded, list[Link], Checker, list[Diagnostic]]:
    """The file read with what it extends and imports, then checked; the loader's
    diagnostics (a base that cannot be read...), if any, come last."""
    loader = _EditorLoader(path)
    problems: list[Diagnostic] = []
    try:
        loaded = loader.load_text(text, path)
    except RuleError as err:  # a base or module that cannot be read: said, then checked
        loaded, problems = loader.out, list(err.diagnostics)
    return loaded, loader.links, run_passes(loaded, path), problems


class Cache:
    """The last analysis of each file, reused while its text is the same."""

    def __init__(self) -> None:
        self.by_path: dict[str, Analysis] = {}
        self.good: dict[str, Analysis] = {}  # the last analysis of a text that parsed

    def get(self, text: str, path: str) -> Analysis:
        known = self.by_path.get(path)
        if known is not None and known.digest == digest(text):
            return known
        result = self.by_path[path] = analyse(text, path)
        if result.checker is not None:
            self.good[path] = result
        return result

    def navigable(self, path: str) -> Analysis | None:
        """The newest analysis that knows the names: the current one if its text
        parsed, else that of its text mended, else the last one that parsed
        (positions may then have moved a little)."""
        now = self.by_path.get(path)
        if now is None or now.checker is not None:
            return now
        return now.mended() or self.good.get(path)

    def forget(self, path: str | None = None) -> None:
        """Drop what is known (of one file, or of all after a file was saved)."""
        for table in (self.by_path, self.good):
            if path is None:
                table.clear()
            else:
                table.pop(path, None)
