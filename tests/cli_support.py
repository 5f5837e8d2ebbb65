"""Helpers shared by the command-line tests: run `rulelang` in-process and read it."""

from __future__ import annotations

import pytest

from rulelang.cli.main import run


def cli(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    """Run `rulelang ARGV...`; its exit code, stdout and stderr."""
    code = run([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def no_traceback(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text
        assert 'File "' not in text


def interrupt_on_a_terminal(argv: list[str], pause: float = 0.0) -> tuple[int, str, str]:
    """Run `rulelang ARGV...` in a child process whose stderr is a terminal, press Ctrl-C
    once it shows its progress ("simulating"), `pause` seconds later; its exit code,
    stdout and what the terminal showed. The terminal is read all along, until the
    process ends: a child writing to a terminal nobody reads would block once its
    buffer is full, and could never exit. Fails if a process it started outlives it.
    The 60 s limits are safety nets a working command never nears."""
    import contextlib
    import os
    import pty
    import select
    import signal
    import subprocess
    import sys
    import time

    def as_in_the_foreground() -> None:
        # a job a shell started in the background ignores Ctrl-C, and its children
        # inherit that: the command under test runs as a user's foreground command would
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-c", "from rulelang.cli.main import main; main()", *argv],
        stdout=subprocess.PIPE,
        stderr=slave,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=as_in_the_foreground,
        process_group=0,  # its own group: a failing run leaves none of its processes
    )
    os.close(slave)
    seen, closed = b"", False

    def read(until: float, done: object = None) -> bool:
        """Read the terminal until `until`, or `done()` is true; False if it closed."""
        nonlocal seen
        while time.monotonic() < until and not (callable(done) and done()):
            if select.select([master], [], [], 0.2)[0]:
                try:
                    chunk = os.read(master, 4096)
                except OSError:  # the terminal closes with the process
                    return False
                if not chunk:
                    return False
                seen += chunk
        return True

    try:
        # Ctrl-C once the progress shows, not while Python is still starting (a
        # loaded machine is slow to start)
        read(time.monotonic() + 60, lambda: b"simulating" in seen)
        assert b"simulating" in seen, seen
        read(time.monotonic() + pause)
        proc.send_signal(signal.SIGINT)
        read(time.monotonic() + 60, lambda: proc.poll() is not None)
        # what is left on the terminal, until it closes: when every process that had it
        # has ended (a worker left running would hold it, and the command's stdout, open)
        closed = not read(time.monotonic() + 60)
        assert closed, f"a process the command started outlived it: {seen!r}"
        out, _ = proc.communicate(timeout=60)  # its stdout is closed too: at once
    finally:
        if proc.poll() is None or not closed:  # its group lives on: end all of it
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
        os.close(master)
    return proc.returncode, out, seen.decode("utf-8", "replace")
