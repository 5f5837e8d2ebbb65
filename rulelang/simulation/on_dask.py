"""`rulelang simulate --dask ADDRESS`: the games of a simulation played on a Dask
distributed cluster; `--dask local` starts one on this machine (`--jobs` workers, else
one per core).

The workers may be other machines, which cannot read the user's files, so they read
none: the client loads the rule file here (its `extends` bases, the stdlib modules it
imports and its data files, with the usual limits on what a rule file may read) and
ships what it loaded, once per worker; a worker checks and compiles it once per rule
file and plays the chunks of seeds of `--jobs` with the same `play_chunk`. The results
are taken in the order of the seeds, so the summary is that of `--jobs 1`; a runtime
error is that of the first failing seed, as there. Errors point at the user's files:
the names of the files travel with their texts."""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import logging
import os
import pickle
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import rulelang
from rulelang.check import check
from rulelang.diagnostics import RuleError, render
from rulelang.exits import EX_DATAERR, EX_UNAVAILABLE, CliExit, usage
from rulelang.loader import Loaded, Loader
from rulelang.simulation.summary import Record
from rulelang.simulation.worker import SHIPPED, Chunk, play_chunk

LOCAL = "local"
INSTALL = "pip install 'rulelang[dask]'"
START_TIMEOUT = 60  # seconds for the workers of a local cluster to start
BATCH = 8  # the most chunks of games in one task
AHEAD = 8  # tasks sent per worker beyond those whose results were read
KEEP = 4  # rule files a worker keeps compiled (a long-lived cluster serves many runs)
_compiling = threading.Lock()  # a worker may run tasks in threads


def run_on_dask(
    chunks: Iterator[Chunk], count: int, address: str, jobs: int
) -> Iterator[list[Record]]:
    """The records of each of the `count` chunks, in their order (of their seeds). The
    chunks are sent as the workers take them, a few tasks ahead of the results read:
    never all at once (a billion games would be forty million chunks)."""
    first = next(chunks)
    with ExitStack() as stack:
        client = _connect(address, jobs, stack, count)
        _check_workers(client, address)
        name, payload = ship(first.path)
        loaded = client.scatter(payload)  # sent to each worker once, when it needs it
        workers = len(client.scheduler_info(n_workers=-1)["workers"])
        size = _batch_size(count, workers)
        pending: deque[Any] = deque()
        try:
            for batch in _batches(itertools.chain([first], chunks), size):
                pending.append(client.submit(play_batch, name, loaded, batch, pure=False))
                if len(pending) > AHEAD * workers:
                    yield from _result(pending.popleft(), address)
            while pending:
                yield from _result(pending.popleft(), address)
        except BaseException:  # an error, Ctrl-C, or the caller gave up: stop the rest
            client.cancel(list(pending))
            raise


def _batches(chunks: Iterator[Chunk], size: int) -> Iterator[list[Chunk]]:
    while batch := list(itertools.islice(chunks, size)):
        yield batch


def _batch_size(chunks: int, workers: int) -> int:
    """Chunks per task: a task costs the client about 10 ms, a chunk of a quick game
    some 25 ms; so several, up to BATCH, while every worker still gets some 4 tasks."""
    return max(1, min(BATCH, chunks // (4 * max(1, workers))))


def ship(path: str) -> tuple[str, bytes]:
    """The rule file at `path` loaded here, pickled for the workers, and the name its
    chunks give it: its digest, so that a worker never plays an older version."""
    try:
        loaded = Loader().load_file(Path(path))  # RULELANG_ALLOW_PATH holds --allow-path
    except RuleError as err:  # changed since it was compiled a moment ago
        lines = [render(d, err.sources) for d in err.diagnostics]
        raise CliExit(EX_DATAERR, "\n".join(lines)) from None
    except OSError as exc:
        raise usage(f"cannot read the rule file {path}: {exc.strerror}") from None
    payload = pickle.dumps((path, loaded), protocol=pickle.HIGHEST_PROTOCOL)
    return f"<shipped {path} {hashlib.sha256(payload).hexdigest()[:32]}>", payload


def play_shipped(name: str, payload: bytes, chunk: Chunk) -> list[Record]:
    """On a worker: play a chunk with the shipped rule file, compiled once."""
    limits = chunk.limits
    if (name, limits) not in SHIPPED:
        with _compiling:
            if (name, limits) not in SHIPPED:
                path, loaded = pickle.loads(payload)  # noqa: S301 - from our own client
                SHIPPED[(name, limits)] = _compile(path, loaded, limits)
                while len(SHIPPED) > KEEP:
                    del SHIPPED[next(iter(SHIPPED))]
    return play_chunk(dataclasses.replace(chunk, path=name))


def play_batch(name: str, payload: bytes, batch: list[Chunk]) -> list[list[Record]]:
    """On a worker: play some chunks (one task: fewer, larger tasks cost less)."""
    return [play_shipped(name, payload, chunk) for chunk in batch]


def _compile(path: str, loaded: Loaded, limits: Any) -> Any:
    from rulelang.runtime.ruleset import Ruleset

    program, _warnings = check(loaded, path, limits)
    return Ruleset(program, limits)


def _version() -> str:
    """Run on each worker: the rulelang it has."""
    return rulelang.__version__


def _dask() -> Any:
    try:
        import distributed
    except ImportError:
        raise CliExit(
            EX_UNAVAILABLE, f"error: --dask needs Dask distributed: install it with {INSTALL}"
        ) from None
    return distributed


def _connect(address: str, jobs: int, stack: ExitStack, most: int) -> Any:
    """A client of the cluster at `address`, or of a new local one of `jobs` workers
    (0: one per core), but no more than `most` (the tasks to play); `stack` closes them."""
    distributed = _dask()
    if address == LOCAL:
        return _local(min(jobs or os.cpu_count() or 1, most), stack, distributed)
    if jobs:
        raise usage("--jobs sets the workers of --dask local; a cluster has its own workers")
    try:
        client = distributed.Client(address, set_as_default=False)
    except ValueError as exc:  # not an address at all
        raise usage(f"--dask: {exc}") from None
    except OSError as exc:  # refused, timed out, no such host
        raise CliExit(
            EX_UNAVAILABLE, f"error: cannot reach the Dask scheduler at {address}: {exc}"
        ) from None
    return stack.enter_context(client)


def _local(workers: int, stack: ExitStack, distributed: Any) -> Any:
    """A client of a new cluster on this machine: the scheduler in this process, each
    worker a process of its own (the games are Python: processes, not threads) in a
    session of its own, so that Ctrl-C reaches only this process (a terminal sends it
    to every process of the command, and each worker would die noisily), which stops
    the games and the workers. The cluster's logs are dask's business, not the user's:
    its failures reach us as exceptions."""
    logging.disable(logging.CRITICAL)
    stack.callback(logging.disable, logging.NOTSET)  # after all else is closed
    cluster = stack.enter_context(
        distributed.LocalCluster(n_workers=0, dashboard_address=":0", host="127.0.0.1")
    )
    env = {
        **os.environ,
        # the workers' sampling profiler costs a tenth of the games' time
        "DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False",
        "DASK_LOGGING__DISTRIBUTED": "critical",
    }
    started: list[subprocess.Popen[bytes]] = []
    stack.callback(_stop, started)
    for _ in range(workers):
        started.append(
            subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", cluster.scheduler_address]
                + ["--nthreads", "1", "--no-nanny", "--no-dashboard"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env=env,
                start_new_session=True,
            )
        )
    client = stack.enter_context(distributed.Client(cluster, set_as_default=False))
    deadline = time.monotonic() + START_TIMEOUT
    while len(client.scheduler_info(n_workers=-1)["workers"]) < workers:
        if any(p.poll() is not None for p in started) or time.monotonic() > deadline:
            raise CliExit(EX_UNAVAILABLE, "error: the local Dask workers did not start")
        time.sleep(0.05)
    return client


def _stop(started: list[subprocess.Popen[bytes]]) -> None:
    """End the local workers at once: they hold nothing but games no longer wanted
    (asked to close, a worker would first finish the chunk it plays)."""
    for p in started:
        p.kill()
    for p in started:
        p.wait()


def _check_workers(client: Any, address: str) -> None:
    """Every worker has this rulelang; there is at least one (a scheduler alone would
    wait forever)."""
    try:
        client.wait_for_workers(1, timeout=_timeout())
        versions = client.run(_version)
    except TimeoutError:
        raise CliExit(
            EX_UNAVAILABLE, f"error: the Dask scheduler at {address} has no workers"
        ) from None
    except Exception as exc:  # the worker cannot unpickle the function: no rulelang
        raise CliExit(
            EX_UNAVAILABLE,
            f"error: the Dask workers at {address} cannot run rulelang "
            f"({type(exc).__name__}: {exc}); install rulelang {rulelang.__version__} on each",
        ) from None
    other = {w: v for w, v in versions.items() if v != rulelang.__version__}
    if other:
        worker, version = sorted(other.items())[0]
        raise CliExit(
            EX_UNAVAILABLE,
            f"error: the Dask worker {worker} has rulelang {version}, this is "
            f"{rulelang.__version__}: install the same version on every worker",
        )


def _timeout() -> float:
    import dask.config
    from dask.utils import parse_timedelta

    return float(parse_timedelta(dask.config.get("distributed.comm.timeouts.connect")))


def _result(future: Any, address: str) -> list[list[Record]]:
    distributed = _dask()
    try:
        result: list[list[Record]] = future.result()
    except distributed.KilledWorker as exc:
        raise CliExit(
            EX_UNAVAILABLE, f"error: Dask workers at {address} died playing games ({exc})"
        ) from None
    except (OSError, distributed.comm.CommClosedError) as exc:
        raise CliExit(
            EX_UNAVAILABLE, f"error: lost the Dask scheduler at {address}: {exc}"
        ) from None
    return result
