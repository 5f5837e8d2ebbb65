"""Simulate many games, in parallel if asked (processes, or a Dask cluster), and sum
them up as they come (see summary.py for how games are counted)."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing import Pool
from multiprocessing.pool import Pool as ProcessPool

from rulelang.limits import DEFAULT_LIMITS, Limits
from rulelang.simulation.summary import Record, Summary
from rulelang.simulation.worker import Chunk, SeatBots, declared_of, play_chunk

CHUNK = 25


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the main process, which stops them all at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """Ctrl-C held back (blocked, not lost) while the pool starts or stops: a
    KeyboardInterrupt raised inside Pool() leaves a pool nobody can terminate, whose
    worker handler restarts the workers the exit kills, so the command hangs or
    leaves a worker behind. Held, it is raised once the pool is ours to stop."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def run_games(
    path: str,
    players: int,
    n: int,
    seed: int,
    options: dict[str, str],
    jobs: int,
    limits: Limits = DEFAULT_LIMITS,
    seat_bots: SeatBots = (),
    dask: str | None = None,
) -> Iterator[list[Record]]:
    """The records of the games, chunk by chunk: played here (`jobs` 1), by a pool of
    `jobs` processes, or on the Dask cluster at the address `dask` ("local": a cluster
    of `jobs` workers started here). The chunks are made as they are played, never all
    at once: a billion games are a billion seeds (and Ctrl-C would wait for them); and no
    more processes start than there are chunks to play, nor than twice the cores."""
    chunks = chunks_of(path, players, n, seed, options, limits, seat_bots)
    count = -(-n // CHUNK)
    if dask is not None:
        from rulelang.simulation.on_dask import run_on_dask

        yield from run_on_dask(chunks, count, dask, jobs)
        return
    jobs = min(jobs, count, 2 * (os.cpu_count() or 1))
    if jobs <= 1:
        for chunk in chunks:
            yield play_chunk(chunk)
        return
    yield from _played_in_pool(chunks, jobs)


def _played_in_pool(chunks: Iterator[Chunk], jobs: int) -> Iterator[list[Record]]:
    """The chunks played by a pool of `jobs` processes, which is stopped (its workers
    ended) however the iteration ends: done, an error, Ctrl-C, or the caller leaving."""
    pool: ProcessPool | None = None
    try:
        with _interrupts_held():  # its threads start with Ctrl-C blocked too
            pool = Pool(jobs, initializer=_ignore_interrupts)
        # a Ctrl-C held back is raised here, on leaving `with`: the pool is ours to stop
        # imap takes the chunks from the generator as the workers' queue drains
        yield from pool.imap_unordered(play_chunk, chunks)
        pool.close()
    except BaseException:
        if pool is not None:
            with _interrupts_held():  # a second Ctrl-C waits for the first to stop it
                pool.terminate()
        raise
    finally:
        if pool is not None:
            pool.join()


def chunks_of(
    path: str,
    players: int,
    n: int,
    seed: int,
    options: dict[str, str],
    limits: Limits,
    seat_bots: SeatBots,
) -> Iterator[Chunk]:
    """The n games from `seed` on, CHUNK seeds a chunk, one chunk at a time."""
    end = seed + n
    for first in range(seed, end, CHUNK):
        seeds = tuple(range(first, min(first + CHUNK, end)))
        yield Chunk(path, players, seeds, options, limits, seat_bots)


def simulate(
    path: str,
    players: int,
    n: int,
    seed: int,
    options: dict[str, str],
    jobs: int,
    progress: Callable[[int], None],
    limits: Limits = DEFAULT_LIMITS,
    seat_bots: SeatBots = (),
    dask: str | None = None,
    endings: bool = False,
) -> Summary:
    """The games played and summed up; `endings`: keep each seed's ending (compare)."""
    summary = Summary(players=players, max_decisions=limits.decisions)
    summary.endings = {} if endings else None
    summary.ends_by_seed = {} if endings else None
    summary.declared = declared_of(path, limits)
    start = time.perf_counter()
    try:
        for chunk in run_games(path, players, n, seed, options, jobs, limits, seat_bots, dask):
            for r in chunk:
                summary.add(r)
            progress(len(chunk))
    except KeyboardInterrupt:
        summary.seconds = time.perf_counter() - start
        raise Stopped(summary) from None
    summary.seconds = time.perf_counter() - start
    return summary


class Stopped(KeyboardInterrupt):
    """Ctrl-C during a simulation, with the summary of the games played until then
    (whole chunks: a game is summed up only once it has ended)."""

    def __init__(self, summary: Summary) -> None:
        super().__init__()
        self.summary = summary
