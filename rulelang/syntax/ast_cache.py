"""Keep the AST of each rule file on disk, keyed by its text, so that checking a file
that has not changed needs neither lark nor a parse.

Like a `.pyc` file: the key is a hash of the file's name and text and of the grammar,
the parser and the AST definitions, so any change to either side makes a new entry.
The file sits in the same cache folder as the parser (see parser_cache.py) with a
checksum of its pickle; anything missing, stale or damaged is ignored and rewritten,
and a folder that cannot be written means files are simply parsed each time. As with
the parser cache, the user's cache folder is trusted not to hold a hostile pickle.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import tempfile
from functools import lru_cache
from pathlib import Path

from rulelang.syntax import ast as A
from rulelang.syntax.parser_cache import _cache_dir

FORMAT = b"rulelang-ast-cache 1"
HERE = Path(__file__).resolve().parent


@lru_cache(maxsize=1)
def _code_hash() -> bytes:
    """The grammar, the parser and the AST: what a cached AST was made with."""
    h = hashlib.sha256(FORMAT)
    for name in ("rulelang.lark", "parser.py", "ast.py", "node.py"):
        h.update((HERE / name).read_bytes())
    return h.digest()


def _parse_now(text: str, name: str) -> A.Module:
    from rulelang.syntax.parser import parse

    return parse(text, name)


def parse_cached(text: str, name: str) -> A.Module:
    """`parser.parse(text, name)`, from the cache when this exact text was parsed before.
    Syntax errors are never cached: they are raised as RuleError each time."""
    folder = _cache_dir()
    if folder is None:
        return _parse_now(text, name)
    try:
        key = hashlib.sha256(
            _code_hash()
            + name.encode("utf-8", "surrogatepass")
            + b"\0"
            + text.encode("utf-8", "surrogatepass")
        ).hexdigest()
    except OSError:  # the package's own files cannot be read: no cache
        return _parse_now(text, name)
    path = folder / f"ast-{key[:32]}.pickle"
    module = _load(path, key)
    if module is None:
        module = _parse_now(text, name)
        _save(module, folder, path, key)
    return module


def _load(path: Path, key: str) -> A.Module | None:
    try:
        with path.open("rb") as f:
            if f.readline() != f"{key}\n".encode("ascii"):
                return None
            digest = f.readline().rstrip(b"\n")
            payload = f.read()
        if hashlib.sha256(payload).hexdigest().encode("ascii") != digest:
            return None
        module = pickle.loads(payload)  # noqa: S301 - our own file in the user's cache
    except Exception:  # missing, unreadable, truncated or foreign: parse again
        return None
    return module if isinstance(module, A.Module) else None


def _save(module: A.Module, folder: Path, path: Path, key: str) -> None:
    tmp = ""
    try:
        payload = pickle.dumps(module, protocol=pickle.HIGHEST_PROTOCOL)
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "wb") as f:
            f.write(f"{key}\n".encode("ascii"))
            f.write(hashlib.sha256(payload).hexdigest().encode("ascii") + b"\n")
            f.write(payload)
        os.replace(tmp, path)
        tmp = ""
    except Exception:  # the cache is optional: parse again next time
        pass
    finally:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
