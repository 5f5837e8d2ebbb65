"""What a failure means to whoever ran rulelang: an exit status after sysexits(3), as
in Crafting Interpreters, and the exception that carries one with its message up to
the command line (cli/main.py prints the message and exits with the code). Any floor
may raise it: the simulation does for a Dask cluster it cannot reach."""

from __future__ import annotations

EX_OK = 0
EX_BUG = 1  # a bug in rulelang itself, never a rule's doing (that is EX_SOFTWARE)
EX_TESTS_FAILED = 2  # a check failed: a rule test (`rulelang test`), or `fmt --check`
EX_USAGE = 64
EX_DATAERR = 65
EX_UNAVAILABLE = 69  # a service is unavailable: a Dask cluster, Dask itself, or pygls
EX_SOFTWARE = 70
EX_IOERR = 74
EX_INTERRUPTED = 130


class CliExit(Exception):
    def __init__(self, code: int, message: str = ""):
        self.code = code
        self.message = message
        super().__init__(message)


def usage(message: str) -> CliExit:
    return CliExit(EX_USAGE, f"error: {message}")
