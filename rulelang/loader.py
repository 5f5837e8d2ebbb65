"""Read a rule file with its `extends` base and its `import`ed stdlib modules.

A rule file reads only what its author may hand out: `extends` and data files
(`card K from "cards.yaml"`) are written relative to the file that names them and must
lead to a regular file of at most `MAX_FILE_BYTES` inside the folder of the main rule
file (or below it), a stdlib folder, the shipped games' folder, or a folder allowed by
the caller (`allow=`, `--allow-path`, `RULELANG_ALLOW_PATH`); `import` finds modules by
name in the stdlib folders only, and `extends "NAME"` (a bare name, no folder and no
`.rules`) names a shipped game. Anything else is refused (errors.refused), quoting
only the path as written.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from rulelang import errors
from rulelang.diagnostics import (
    Diagnostic,
    RuleError,
    RulelangError,
    Sources,
    Span,
    did_you_mean,
)
from rulelang.syntax import ast as A
from rulelang.syntax.ast_cache import parse_cached
from rulelang.syntax.node import replace

STDLIB_ENV = "RULELANG_PATH"
ALLOW_ENV = "RULELANG_ALLOW_PATH"  # more folders rule files may read, separated like PATH

MAX_FILE_BYTES = 1024 * 1024  # the largest rule file or data file read: 1 MiB
MAX_PATH_CHARS = 1024  # the longest path a rule file may write
MAX_NAME_CHARS = 255  # the longest part of such a path
MAX_MODULE_CHARS = 100  # the longest module name
MODULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
GAME_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")  # `extends "NAME"`: a shipped game
ALLOW_HINT = (
    "a rule file may read files only in the folder of the main rule file and below it, "
    "or in a stdlib folder; allow another folder with --allow-path DIR"
)


class Refused(RulelangError):
    """A file a rule file may not read. The message says why, and quotes nothing of it."""

    def __init__(self, reason: str, hint: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.hint = hint


def allowed_dirs(allow: Iterable[str | os.PathLike[str]] = ()) -> list[Path]:
    """The folders given, and those in RULELANG_ALLOW_PATH, with symlinks resolved."""
    dirs = [Path(a) for a in allow]
    dirs += [Path(extra) for extra in os.environ.get(ALLOW_ENV, "").split(os.pathsep) if extra]
    return [d.resolve() for d in dirs]


@contextmanager
def allowed_in_environment(folders: Iterable[str | os.PathLike[str]]) -> Iterator[None]:
    """Add `folders` to RULELANG_ALLOW_PATH while the block runs, for the processes it
    starts that load the rule file again (`rulelang simulate --jobs`)."""
    extra = [os.fspath(Path(f).resolve()) for f in folders]
    before = os.environ.get(ALLOW_ENV)
    if extra:
        os.environ[ALLOW_ENV] = os.pathsep.join([*extra, *([before] if before else [])])
    try:
        yield
    finally:
        if extra:
            if before is None:
                os.environ.pop(ALLOW_ENV, None)
            else:
                os.environ[ALLOW_ENV] = before


def data_path(decl: A.KindDecl) -> str:
    """Where a kind's data file is read: relative to the rule file that names it."""
    return str(Path(decl.span.file).parent / decl.data)


def shown(written: str) -> str:
    """A path as written in a rule file, fit to quote: escaped, and cut if very long."""
    text = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in written)
    return text if len(text) <= 200 else text[:197] + "..."


def resolve_inside(written: str, including: Path, trees: Iterable[Path]) -> Path:
    """The file `written` (in the rule file `including`) leads to, symlinks resolved;
    raise Refused unless it is a relative path into one of `trees` (resolved folders)."""
    if "\0" in written:
        raise Refused("the path contains a NUL byte")
    if not written.strip():
        raise Refused("the path is empty")
    if len(written) > MAX_PATH_CHARS:
        raise Refused(f"the path is longer than {MAX_PATH_CHARS} characters")
    if any(len(part) > MAX_NAME_CHARS for part in re.split(r"[/\\]", written)):
        raise Refused(f"a part of the path is longer than {MAX_NAME_CHARS} characters")
    if Path(written).is_absolute() or written.startswith(("/", "\\")) or Path(written).drive:
        raise Refused(
            "absolute paths are not allowed",
            "write the path relative to the file that names it",
        )
    try:
        target = (including.absolute().parent / written).resolve()
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a name too long
        raise Refused("the path cannot be followed (a symlink loop?)") from None
    trees = list(trees)
    if not any(target.is_relative_to(tree) for tree in trees):
        plain = Path(os.path.normpath(including.absolute().parent / written))
        link = any(plain.is_relative_to(tree) for tree in trees)
        how = "through a symbolic link " if link else ""
        raise Refused(f"it leads {how}outside the folders a rule file may read", ALLOW_HINT)
    return target


def _check_stat(st: os.stat_result) -> None:
    if stat.S_ISDIR(st.st_mode):
        raise Refused("it is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise Refused("it is not a regular file (a device, a pipe or a socket)")
    if st.st_size > MAX_FILE_BYTES:
        raise Refused(f"it is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB")


def check_file_kind(path: Path) -> None:
    """Raise Refused if `path` is not a regular file of at most MAX_FILE_BYTES, OSError
    if it cannot be looked at."""
    _check_stat(os.stat(path))


def read_limited(path: Path) -> str:
    """The UTF-8 text of `path`, read without blocking on a pipe or a device and without
    reading more than MAX_FILE_BYTES. Raise Refused for anything but a regular file of
    at most that size, OSError if it cannot be read, and UnicodeDecodeError. A byte
    order mark at the start (Windows editors write one) is not part of the text."""
    return read_limited_bytes(path).decode("utf-8-sig")


def read_limited_bytes(path: Path) -> bytes:
    """The bytes of `path`, read as `read_limited` reads its text."""
    check_file_kind(path)  # before opening: opening a FIFO would wait for a writer
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as f:
        _check_stat(os.fstat(f.fileno()))  # the file opened is still the one looked at
        data = f.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise Refused(f"it is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB")
    return data


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
    dirs.append(shipped_stdlib())
    return dirs


def shipped_stdlib() -> Path:
    """The stdlib shipped with rulelang: `rulelang/stdlib/` in an installed wheel, else
    (a clone, installed editable or not at all) the clone's own top-level `stdlib/`,
    read in place, so that an edit to it is seen at once."""
    package = Path(__file__).resolve().parent
    installed = package / "stdlib"
    return installed if installed.is_dir() else package.parent / "stdlib"


def shipped_rulesets() -> Path:
    """The shipped games' rule files: `rulelang/rulesets/` in an installed wheel, else
    the clone's own top-level `rulesets/`, read in place (as `shipped_stdlib`)."""
    package = Path(__file__).resolve().parent
    installed = package / "rulesets"
    return installed if installed.is_dir() else package.parent / "rulesets"


def shipped_games() -> dict[str, Path]:
    """The shipped games by the name `extends` gives them: the stem of each rule file
    of the shipped rulesets and of their `examples/` folder."""
    folder = shipped_rulesets()
    games: dict[str, Path] = {}
    for where in (folder / "examples", folder):  # a top-level game wins a clash
        try:
            games.update({p.stem: p for p in sorted(where.glob("*.rules")) if p.is_file()})
        except OSError:
            continue
    return games


def rules_path(path: Path) -> Path:
    """The rule file a command was given: the path itself, or, where no such file
    exists and it is a bare name (a game's name), the shipped game of that name (a
    folder of that name, a designer's drafts, is no rule file: it does not hide it)."""
    if path.is_file() or path.suffix or len(path.parts) != 1:
        return path
    return shipped_games().get(path.name, path)


def or_shipped(path: Path) -> str:
    """For a message on a missing rule file given as a bare name: the shipped games a
    command may name instead."""
    if path.suffix or len(path.parts) != 1:
        return ""
    names = ", ".join(sorted(shipped_games()))
    return f" (or name a shipped game: {names})" if names else ""


def no_rule_file(path: Path) -> str:
    """The message for a rule file a command cannot find: a folder is said to be one
    (it is there: "no such rule file" misled), a bare name lists the shipped games."""
    if path.is_dir():
        return f"{path} is a folder, not a rule file: name one in it ({path}/NAME.rules)"
    return f"no such rule file: {path}{or_shipped(path)}"


def shipped_hint(written: str = "") -> str:
    """How to name a shipped game instead of its path, for a refused `extends`."""
    games = shipped_games()
    stem = Path(written.replace("\\", "/")).stem if written else ""
    # the game the refused path names, if it is one; else the first shipped game
    name = stem if stem in games else min(games, default="NAME")
    listed = ", ".join(sorted(games)) or "none"
    return (
        f'to build on a shipped game, name it without a path: extends "{name}" '
        f"(shipped: {listed}); another folder: allow it with --allow-path DIR"
    )


def _describe(decl: A.Decl) -> str:
    """What a declaration is, in a message: "a const", "a def"..."""
    words = {
        A.ParamDecl: "a param",
        A.ConstDecl: "a const",
        A.TableDecl: "a table",
        A.DieDecl: "a die",
        A.BoardDecl: "a board",
        A.KindDecl: "a kind",
        A.ZoneDecl: "a zone",
        A.DefDecl: "a def",
        A.EnumDecl: "an enum",
        A.BotDecl: "a bot",
        A.EstimateDecl: "the estimate",
        A.MeasureDecl: "a measure",
    }
    return words.get(type(decl), "not a block")


def _key(decl: A.Decl) -> tuple[str, str] | None:
    if isinstance(decl, A.PhaseDecl):
        return ("phase", decl.name)
    if isinstance(decl, A.SetupDecl):
        return ("setup", "setup")
    if isinstance(decl, A.KindDecl):
        return ("kind", decl.name)
    if isinstance(decl, A.EndDecl):
        return None
    if isinstance(decl, A.EstimateDecl):
        return ("estimate", "estimate")
    if isinstance(decl, A.MeasureDecl):
        return ("measure", decl.name)
    if isinstance(decl, A.Named):
        return ("value", decl.name)
    return None


BLOCK_DECLS = (A.ProcDecl, A.SetupDecl, A.PhaseDecl)


def _map_base(value: object, fn: Callable[[A.Do], A.Stmt]) -> object:
    """`value` (a statement, or a tuple holding statements) with every `do base` in it
    replaced by fn(it); the same object where nothing changed."""
    if isinstance(value, A.Do):
        return fn(value) if value.proc == "base" else value
    if isinstance(value, A.Stmt):
        changed = {}
        for name in getattr(type(value), "_fields", ()):
            old = getattr(value, name)
            if isinstance(old, tuple):
                new = _map_base(old, fn)
                if new is not old:
                    changed[name] = new
        return replace(value, **changed) if changed else value
    if isinstance(value, tuple):
        items = [_map_base(x, fn) for x in value]
        if any(a is not b for a, b in zip(items, value, strict=True)):
            return tuple(items)
    return value


def base_calls(stmts: tuple[A.Stmt, ...]) -> list[A.Do]:
    """The `do base` statements in a block, nested ones included."""
    found: list[A.Do] = []

    def keep(s: A.Do) -> A.Stmt:
        found.append(s)
        return s

    _map_base(stmts, keep)
    return found


def _procs_called(decls: Iterable[A.Decl]) -> set[str]:
    """The names of the procs `do` statements anywhere in these declarations call."""
    called: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, A.Do):
            called.add(value.proc)
        if isinstance(value, A.Stmt | A.Decl):
            for name in getattr(type(value), "_fields", ()):
                walk(getattr(value, name))
        elif isinstance(value, tuple):
            for x in value:
                walk(x)

    for d in decls:
        walk(d)
    return called


@dataclass
class Loaded:
    decls: list[A.Decl] = field(default_factory=list)
    sources: Sources = field(default_factory=Sources)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    # the text of each data file, by the path the data pass reads it at: with the rule
    # files' texts in `sources`, everything the checker needs, so that a Loaded can be
    # checked where the files are not (a Dask worker on another machine)
    data: dict[str, str] = field(default_factory=dict)


class Loader:
    def __init__(self, allow: Iterable[str | os.PathLike[str]] = ()) -> None:
        self.out = Loaded()
        self.imported: set[str] = set()
        self.allow = allowed_dirs(allow)
        self.trees: list[Path] = []  # folders the files read may be in, set per main file
        self.base_names: set[str] = set()  # the names given to base versions of blocks

    def load_file(self, path: Path) -> Loaded:
        path = Path(path)
        self._set_trees(path)
        decls = self._file(path, stack=())
        self.out.decls = decls
        if self.out.diagnostics:
            raise RuleError(self.out.diagnostics, self.out.sources)
        return self.out

    def load_text(self, text: str, name: str) -> Loaded:
        self._set_trees(Path(name))
        self.out.sources.texts[name] = text
        module = self._parse(text, name)
        self.out.decls = self._assemble(module, Path(name), stack=(name,))
        if self.out.diagnostics:
            raise RuleError(self.out.diagnostics, self.out.sources)
        return self.out

    def _set_trees(self, main: Path) -> None:
        try:
            main_dir = main.absolute().parent.resolve()
        except (OSError, RuntimeError, ValueError):
            main_dir = main.absolute().parent
        stdlib = [d.resolve() for d in stdlib_dirs(main)]
        # the shipped games may be read: a variant extends one by name, and the data
        # files beside it are read from there
        self.trees = [main_dir, *stdlib, shipped_rulesets(), *self.allow]

    def _parse(self, text: str, name: str) -> A.Module:
        try:
            return parse_cached(text, name)
        except RuleError as err:
            raise RuleError(err.diagnostics, self.out.sources) from None

    def _file(
        self, path: Path, stack: tuple[str, ...], span: Span | None = None, written: str = ""
    ) -> list[A.Decl]:
        name = str(path)
        what = shown(written or name)
        span = span or Span(name, 1, 1)  # the main rule file: nothing to point at in it
        if name in stack:
            chain = " -> ".join([*stack, name])
            self._report(errors.extends_circle(chain, span))
            return []
        try:
            text = read_limited(path)
        except Refused as why:
            self._report(errors.refused(f"'{what}'", why.reason, span, why.hint))
            return []
        except UnicodeDecodeError:
            self._report(errors.cannot_read(f"'{what}'", "it is not UTF-8 text", span))
            return []
        except OSError as exc:
            if not written:  # the main rule file: FileNotFoundError and such, as before
                raise
            self._report(errors.cannot_read(f"'{what}'", exc.strerror, span))
            return []
        self.out.sources.texts[name] = text
        self.out.files.append(name)
        return self._assemble(self._parse(text, name), path, (*stack, name))

    def _assemble(self, module: A.Module, path: Path, stack: tuple[str, ...]) -> list[A.Decl]:
        base: list[A.Decl] = []
        own: list[A.Decl] = []
        first: A.ExtendsDecl | None = None
        for decl in module.decls:
            if isinstance(decl, A.ExtendsDecl) and first is not None:
                self._report(errors.extends_twice(decl.span, first.span))
            elif isinstance(decl, A.ExtendsDecl):
                first, base = decl, self._extends(decl, path, stack)
            elif isinstance(decl, A.ImportDecl):
                base_imports = self._import(decl, path)
                own.extend(base_imports)
            else:
                if isinstance(decl, A.KindDecl) and decl.data:
                    self._data_file(decl, path)
                own.append(decl)
        return self._merge(base, own)

    def _trees(self, including: Path) -> list[Path]:
        return [*self.trees, *(d.resolve() for d in stdlib_dirs(including))]

    def _extends(self, decl: A.ExtendsDecl, path: Path, stack: tuple[str, ...]) -> list[A.Decl]:
        span = self._string_span(decl.span, "extends")
        if GAME_NAME.fullmatch(decl.path):  # a bare name: a shipped game, from anywhere
            games = shipped_games()
            if decl.path not in games:
                listed = ", ".join(sorted(games))
                hint = did_you_mean(decl.path, games) or f"shipped games: {listed}"
                what = f"'{shown(decl.path)}'"
                self._report(errors.cannot_read(what, "no shipped game of that name", span, hint))
                return []
            return self._file(games[decl.path], stack, span, decl.path)
        try:
            target = resolve_inside(decl.path, path, self._trees(path))
        except Refused as why:
            hint = shipped_hint(decl.path) if why.hint == ALLOW_HINT else why.hint
            self._report(errors.refused(f"'{shown(decl.path)}'", why.reason, span, hint))
            return []
        return self._file(target, stack, span, decl.path)

    def _data_file(self, decl: A.KindDecl, path: Path) -> None:
        """Refuse a data file outside the allowed folders, or one that is not a small
        regular file; one that does not exist is left to the checker to report."""
        try:
            target = resolve_inside(decl.data, path, self._trees(path))
            check_file_kind(target)
            text = read_limited(target)
        except Refused as why:
            span = self._string_span(decl.span, "from")
            what = f"data file '{shown(decl.data)}'"
            self._report(errors.refused(what, why.reason, span, why.hint))
        except (OSError, UnicodeDecodeError):
            pass  # missing, unreadable or not UTF-8: E104 from the data pass
        else:
            self.out.data[data_path(decl)] = text

    def _string_span(self, span: Span, keyword: str) -> Span:
        """The span of the path string after `keyword` in a declaration, else `span`."""
        text = self.out.sources.texts.get(span.file)
        if text is None or span.line < 1:
            return span
        lines = text.split("\n")
        start = sum(len(line) + 1 for line in lines[: span.line - 1]) + span.col - 1
        found = re.compile(rf'\b{keyword}\s*("(?:[^"\\\n]|\\.)*")').search(text, start)
        if found is None:
            return span
        at = found.start(1)
        line = text.count("\n", 0, at) + 1
        col = at - (text.rfind("\n", 0, at) + 1) + 1
        return Span(span.file, line, col, line, col + len(found.group(1)))

    def _import(self, decl: A.ImportDecl, path: Path) -> list[A.Decl]:
        if decl.module in self.imported:
            return []
        if len(decl.module) > MAX_MODULE_CHARS or not MODULE_NAME.fullmatch(decl.module):
            self._report(errors.not_a_module_name(shown(decl.module), decl.span))
            return []
        available: set[str] = set()
        odd = ""  # an entry of that name that is no regular file: said, not suggested
        for folder in stdlib_dirs(path):
            candidate = folder / f"{decl.module}.rules"
            try:
                found = candidate.is_file()
                inside = found and candidate.resolve().is_relative_to(folder.resolve())
                if not found and os.path.lexists(candidate):
                    odd = odd or f"'{shown(str(candidate))}' is not a regular file"
                if not found and folder.is_dir():
                    available.update(p.stem for p in folder.glob("*.rules") if p.is_file())
            except (OSError, RuntimeError):
                continue
            if found and not inside:
                what = f"stdlib module '{decl.module}'"
                why = "it is a link that leads out of its stdlib folder"
                self._report(errors.refused(what, why, decl.span))
                return []
            if found:
                self.imported.add(decl.module)
                return [
                    d
                    for d in self._file(candidate, (), decl.span, f"{decl.module}.rules")
                    if not isinstance(d, A.LibraryDecl)
                ]
        hint = (
            odd
            or did_you_mean(decl.module, available)
            or ("stdlib modules: " + ", ".join(sorted(available)) if available else "")
        )
        self._report(errors.unknown_module(decl.module, decl.span, hint))
        return []

    def _merge(self, base: list[A.Decl], own: list[A.Decl]) -> list[A.Decl]:
        result = list(base)
        where: dict[tuple[str, str], int] = {}
        for i, d in enumerate(result):
            k = _key(d)
            if k is not None:
                where[k] = i
        given: dict[type, A.Decl] = {}  # this file's title and player count
        for decl in own:
            k = _key(decl)
            if isinstance(decl, A.GameDecl | A.PlayersDecl):
                self._singleton(decl, result, given)
                continue
            if k is not None and k in where and base:
                old = result[where[k]]
                if isinstance(decl, A.Named) and not decl.override:
                    self._report(errors.redefined_without_override(k[1], old.span, decl.span))
                decl, bases = self._link_base(decl, old)
                result[where[k]] = decl
                result.extend(bases)
                continue
            if isinstance(decl, A.Named) and decl.override:
                self._report(errors.override_without_base(decl.name, decl.span))
                decl = replace(decl, override=False)
            result.append(decl)
            if k is not None:
                where.setdefault(k, len(result) - 1)
        return self._prune(result)

    def _singleton(
        self, decl: A.GameDecl | A.PlayersDecl, result: list[A.Decl], given: dict[type, A.Decl]
    ) -> None:
        """A title or a player count: a variant's replaces the base's, in place; a
        second in one file is E102 (it replaced the first, unseen)."""
        if type(decl) in given:
            word = "game" if isinstance(decl, A.GameDecl) else "players"
            self._report(errors.defined_twice(word, decl.span, given[type(decl)].span))
            return
        given[type(decl)] = decl
        same = [i for i, d in enumerate(result) if type(d) is type(decl)]
        if same:
            result[same[0]] = decl
        else:
            result.append(decl)

    # ------------------------------------------------------------ do base
    def _base_name(self, what: str) -> str:
        """A name for the base version of a block, which no rule file can write (it
        holds spaces): "base setup", "base gain", "base turn of round", then
        "base gain (2)" for the base of a variant of a variant."""
        name = f"base {what}"
        n = 1
        while name in self.base_names:
            n += 1
            name = f"base {what} ({n})"
        self.base_names.add(name)
        return name

    def _link_base(self, decl: A.Decl, old: A.Decl) -> tuple[A.Decl, list[A.Decl]]:
        """An override whose blocks say `do base`: the base's version of each such
        block is kept as a proc under a name of its own, and `do base` calls it."""
        if not isinstance(decl, BLOCK_DECLS):
            return decl, []
        if isinstance(decl, A.PhaseDecl):
            blocks = {"begin": decl.begin, "turn": decl.turn}
        else:
            blocks = {"body": decl.body}
        uses = {part: base_calls(stmts) for part, stmts in blocks.items()}
        if not any(uses.values()):
            return decl, []
        if type(old) is not type(decl):
            what = _describe(old)
            for calls in uses.values():
                for call in calls:
                    self._report(errors.base_not_a_block(decl.name, what, call.span))
            return decl, []
        made: list[A.Decl] = []
        changes: dict[str, tuple[A.Stmt, ...]] = {}
        for part, calls in uses.items():
            if not calls:
                continue
            params: tuple[A.ParamSpec, ...] = ()
            if isinstance(old, A.ProcDecl):
                what, params, body = decl.name, old.params, old.body
            elif isinstance(old, A.PhaseDecl):
                shown = "turn" if decl.name == "main" else f"{part} of phase {decl.name}"
                what, body = shown, old.begin if part == "begin" else old.turn
            else:
                assert isinstance(old, A.SetupDecl)
                what, body = "setup", old.body
            name = self._base_name(what)
            made.append(A.ProcDecl(old.span, name, False, params, body, base_of=what))
            own = decl.params if isinstance(decl, A.ProcDecl) else ()

            def link(s: A.Do, name: str = name, own: tuple[A.ParamSpec, ...] = own) -> A.Stmt:
                args = tuple(A.Name(s.span, p.name) for p in own) if s.bare else s.args
                return A.Do(s.span, name, args)

            # a block (a tuple of statements) maps to a block
            changes[part] = cast(tuple[A.Stmt, ...], _map_base(blocks[part], link))
        return replace(decl, **changes), made

    def _prune(self, decls: list[A.Decl]) -> list[A.Decl]:
        """Drop the base versions of blocks that nothing calls any more (an override
        of an override that does not say `do base`)."""
        if not any(isinstance(d, A.ProcDecl) and d.base_of for d in decls):
            return decls
        while True:
            called = _procs_called(decls)
            kept = [
                d
                for d in decls
                if not (isinstance(d, A.ProcDecl) and d.base_of and d.name not in called)
            ]
            if len(kept) == len(decls):
                return kept
            decls = kept

    def _report(self, diag: Diagnostic) -> None:
        self.out.diagnostics.append(diag)
