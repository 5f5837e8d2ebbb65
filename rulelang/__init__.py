"""rulelang: a declarative rules language and interpreter for board games."""

from rulelang.api import compile_file, compile_source

__all__ = ["compile_file", "compile_source"]
__version__ = "0.1.0"
