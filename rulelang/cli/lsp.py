"""`rulelang lsp`: the language server for editors, on stdin and stdout (docs/editors.md).

It needs pygls, which the optional extra `lsp` brings; without it the command says
how to install it and exits 69 (a service unavailable), as `simulate --dask` does."""

from __future__ import annotations

from rulelang.cli.errors import EX_OK, EX_UNAVAILABLE, CliExit

INSTALL = "pip install 'rulelang[lsp]'"


def run_lsp(debounce_ms: int) -> int:
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError:
        raise CliExit(
            EX_UNAVAILABLE,
            f"error: the language server needs pygls: install the extra with {INSTALL}",
        ) from None
    from rulelang.lsp.server import serve

    serve(debounce_ms)
    return EX_OK
