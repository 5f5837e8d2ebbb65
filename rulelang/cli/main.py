"""The `rulelang` command: one entry point that maps every failure to a one-line
message and an exit code: 0 success (also `quit`), 1 a bug in rulelang itself, 64
usage (also an unknown saved game), 65 a rule file, save or saved games database that
is wrong, 69 a Dask cluster or pygls unavailable (`simulate --dask`, `lsp`), 70 a rule's runtime
error, 74 a game or file that could not be written (a busy database, a full disk), 130
interrupted."""

from __future__ import annotations

import errno
import os
import sys

from rulelang.cli.errors import (
    EX_BUG,
    EX_INTERRUPTED,
    EX_IOERR,
    EX_SOFTWARE,
    EX_USAGE,
    CliExit,
    say_err,
)

SHOWN_DIGITS = 100_000  # the most digits of a number the command writes as text


def run(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    try:
        if len(args) > 1 and args[0] == "validate" and not any(a.startswith("-") for a in args[1:]):
            # the command scripts and editors run most: skip building the typer app
            # (typer imports pydantic), a third of a cold start
            from pathlib import Path

            from rulelang.cli.validate import validate_files

            return validate_files([Path(a) for a in args[1:]])
        from rulelang.cli.app import run_app

        code = run_app(args)
        if not sys.stdout.closed:  # (the language server closes it when it exits)
            sys.stdout.flush()  # a full disk is said here, not ignored at exit
        return code
    except BrokenPipeError:  # the reader left (`| head`): nothing more to say
        _drop_output()
        return EX_IOERR
    except CliExit as exc:
        if exc.message:
            say_err(exc.message)
        return exc.code
    except KeyboardInterrupt:
        say_err("\nStopped.")
        return EX_INTERRUPTED
    except EOFError:
        say_err("\nInput ended; game left.")
        return EX_INTERRUPTED
    except Exception as exc:  # a bug in rulelang itself: say so, without a traceback
        if isinstance(exc, OSError) and exc.errno == errno.ENAMETOOLONG:  # a name given
            name = str(exc.filename or "")
            shown = name if len(name) <= 60 else name[:57] + "..."
            say_err(f"error: '{shown}': that name is too long for the file system")
            return EX_USAGE
        if isinstance(exc, OSError) and exc.errno in _CANNOT_WRITE:
            _drop_output()
            say_err(f"error: the output could not be written: {exc.strerror}")
            return EX_IOERR
        if os.environ.get("RULELANG_DEBUG"):
            raise
        if isinstance(exc, ValueError) and "integer string conversion" in str(exc):
            # Python's guard (see main): the rules' number, not rulelang's bug
            say_err(
                "error: the rules made a number too long to show as text (more than "
                f"{sys.get_int_max_str_digits():,} digits): bound it with min(...)"
            )
            return EX_SOFTWARE
        say_err(
            f"internal error: {type(exc).__name__}: {exc}\n"
            "This is a bug in rulelang, not in your rule file; set RULELANG_DEBUG=1 "
            "to see where it happened."
        )
        return EX_BUG


# what writing (the output, `> /dev/full`, or a file) met that is the machine's, not a
# bug in rulelang: a full disk or quota, a file too large, a device failing
_CANNOT_WRITE = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


def _drop_output() -> None:
    """Send what is left for standard output nowhere: Python flushes it again at exit,
    and would print that failure too."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no file descriptor (captured in a test): nothing to drop
        pass


def main() -> None:
    # a rule's number may grow past the 4,300 digits Python 3.11 turns into text by
    # default (doubled on every step of a loop, within the step budget): the game shows
    # it up to SHOWN_DIGITS (a few tenths of a second to write), past that `run` says
    # the rules made a number too long to show. Only for the command: a program using
    # rulelang keeps its own setting
    sys.set_int_max_str_digits(SHOWN_DIGITS)
    sys.exit(run())


if __name__ == "__main__":
    main()
