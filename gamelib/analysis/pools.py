"""Local process pools for tournaments (``executor="processes"``): forked from this process where
that is safe, else new interpreters (loky's reusable pool).

A forked worker starts where the calling process stands: ``gamelib`` and the game's modules
imported, the game and agents made, their caches as warm as here, in a few milliseconds.  A
spawned worker imports ``gamelib`` (~0.15 s), then, new to a game, imports its modules and
builds it (0.1-0.4 s) inside the first call: on 2,000 random Delanopolis games that start took a
2-worker call's first run from 1.77x to 1.27x the 1-worker rate (quiet machine, 12-03 12:15).
"""

from __future__ import annotations

import concurrent.futures as cf
import gc
import sys
import threading
import warnings
from collections.abc import Callable
from typing import Any

LOKY_IDLE_SECONDS = 600
"""How long loky's reusable workers wait idle before they exit (loky's default: 10 s).

A worker that exits takes with it what the tournaments warmed (gamelib imported, the game rebuilt,
its caches filled): the next ``executor="processes"`` call after a pause of more than 10 s (reading
the last results, a Dask run) started fresh workers inside its clock, ~1 s of CPU each before the
first game.  Idle workers sleep; they hold memory only (about 50 MB each after Get on Board tournaments)."""

HARMLESS_THREADS = ("TMonitor", "Dask-Offload")
"""Threads a fork may leave behind, by class or name (prefix): tqdm's monitor (it wakes every
10 s to look at tqdm's bars, which a worker never makes), alive from a tournament's first
progress bar on; Dask's offload thread (it (de)serialises a client's large messages, which a
worker never reads), idle for good once a Dask client has closed."""


def harmless(thread: threading.Thread) -> bool:
    """Whether ``thread`` is one of :data:`HARMLESS_THREADS`."""
    return type(thread).__name__ in HARMLESS_THREADS or thread.name.startswith(HARMLESS_THREADS)


def fork_is_safe() -> bool:
    """Whether a local pool may fork this process: on Linux, while no other thread runs here
    (but :data:`HARMLESS_THREADS`).

    A forked child holds only the thread that forked, and any lock another thread held at that
    moment stays held in it forever; with this thread alone, the child is a clean copy.  (A
    Jupyter kernel runs several threads: its pools are spawned, as on macOS and Windows.)"""
    if not sys.platform.startswith("linux"):
        return False
    current = threading.current_thread()
    return all(t is current or harmless(t) for t in threading.enumerate())


def spawned_pool(workers: int) -> tuple[cf.Executor, bool, str]:
    """A pool of new interpreters, whether the caller shuts it down, and its label: loky's
    reusable pool (kept warm from call to call) when loky is installed, else the standard
    library's (shut down after the call)."""
    try:
        from loky import get_reusable_executor
    except ImportError:
        return cf.ProcessPoolExecutor(max_workers=workers), True, f"{workers} processes"
    loky = get_reusable_executor(max_workers=workers, timeout=LOKY_IDLE_SECONDS)
    return loky, False, f"{workers} loky processes"


class LocalPool(cf.Executor):
    """``executor="processes"`` where :func:`fork_is_safe`: the standard library's pool of
    ``workers`` processes forked from this one when it starts (:meth:`start`, or the first task),
    shut down after the call.

    :func:`~gamelib.analysis.executors.run_jobs` starts it with the call's game and agents left
    for the workers to take as they are (``executors._INHERITED``): nothing is pickled, unpickled
    or rebuilt (so agents that cannot be pickled play here too, as they do serially).  Objects are frozen out of the collector's sight during the fork (:func:`gc.freeze`),
    so the workers' collections never touch, and so copy, the pages they share with this process.
    Should a thread have started since the pool was chosen, it spawns instead
    (:func:`spawned_pool`)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool: cf.Executor | None = None
        self.owned = True
        self.forked = False
        self.label = f"{workers} processes (forked)"

    def start(self) -> cf.Executor:
        """The pool, its workers started now (forked, or spawned if forking is no longer safe)."""
        if self.pool is None:
            if fork_is_safe():
                import multiprocessing

                pool = cf.ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("fork"))
                frozen = gc.get_freeze_count() == 0
                if frozen:
                    gc.freeze()
                try:
                    with warnings.catch_warnings():  # Python 3.12+ warns of any thread, harmless ones too
                        warnings.filterwarnings(
                            "ignore", "This process .* is multi-threaded", DeprecationWarning
                        )
                        pool.submit(int)  # forks every worker now, before the pool starts its thread
                finally:
                    if frozen:
                        gc.unfreeze()
                self.pool, self.forked = pool, True
            else:
                self.pool, self.owned, self.label = spawned_pool(self.workers)
        return self.pool

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        return self.start().submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if self.pool is not None and self.owned:  # loky's reusable pool stays up for the next call
            self.pool.shutdown(wait=wait, cancel_futures=cancel_futures)
