"""Keep the built LALR parser on disk so that a cold start need not rebuild it.

The file lives in the user's cache folder ($XDG_CACHE_HOME/rulelang, else ~/.cache/rulelang)
and its name and first line carry a hash of the grammar, the parser options, the lark version
and the Python version. The cache is only ever a shortcut: a missing, stale, corrupt or foreign
file is ignored and replaced, and a folder that cannot be written (say a read-only home) means
the parser is simply built each time. The second line holds a hash of the rest, which is the
pickle written by `Lark.save`; a new file is written beside the old one and renamed over it, so
a concurrent run never reads half a file. Like lark's own `cache=` option, this trusts the
user's cache folder not to hold a hostile pickle.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # lark is imported when a parser is needed: a file whose AST is
    from lark import Lark  # cached (ast_cache.py, which reads _cache_dir) needs none

# Bump when the file layout below changes.
FORMAT = "rulelang-parser-cache 2"


def _cache_dir() -> Path | None:
    base = os.environ.get("XDG_CACHE_HOME", "")
    try:
        root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    except (RuntimeError, KeyError, OSError):  # no home folder to be found
        return None
    return root / "rulelang"


def _key(grammar: str, options: dict[str, Any]) -> str:
    import lark

    text = "\0".join(
        [
            FORMAT,
            lark.__version__,
            repr(sys.version_info[:2]),
            repr(sorted(options.items())),
            grammar,
        ]
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _load(path: Path, header: bytes, options: dict[str, Any]) -> Lark | None:
    from lark import Lark

    try:
        with path.open("rb") as f:
            if f.readline() != header:
                return None
            digest = f.readline().rstrip(b"\n")
            payload = f.read()
        if hashlib.sha256(payload).hexdigest().encode("ascii") != digest:
            return None
        parser = Lark.load(io.BytesIO(payload))
    except Exception:  # missing, unreadable, truncated or foreign: build it again
        return None
    if not isinstance(parser, Lark) or parser.options.parser != options.get("parser"):
        return None
    return parser


def _save(parser: Lark, folder: Path, path: Path, header: bytes) -> None:
    tmp = ""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=folder)
        buf = io.BytesIO()
        parser.save(buf)
        payload = buf.getvalue()
        with os.fdopen(fd, "wb") as f:
            f.write(header)
            f.write(hashlib.sha256(payload).hexdigest().encode("ascii") + b"\n")
            f.write(payload)
        os.replace(tmp, path)
        tmp = ""
    except Exception:  # the cache is optional: build it again next time
        pass
    finally:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def cached_lark(grammar: str, **options: Any) -> Lark:
    """`Lark(grammar, **options)` (LALR only), loaded from the cache file when it is valid."""
    from lark import Lark

    folder = _cache_dir()
    if folder is None:
        return Lark(grammar, **options)
    key = _key(grammar, options)
    path = folder / f"parser-{key[:24]}.pickle"
    header = f"{FORMAT} {key}\n".encode("ascii")
    parser = _load(path, header, options)
    if parser is None:
        parser = Lark(grammar, **options)
        _save(parser, folder, path, header)
    return parser
