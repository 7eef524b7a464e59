"""Tournament throughput: 1 worker against 2 local processes against a 2-worker Dask cluster.

Random against random, the cheapest agents, so the figure is the engine plus the tournament's own
overhead (seeding, seat rotation, batching, shipping results back).  For every registered game,
in one run and interleaved (the same load for each), the same tournament is played

* in this process (the 1-worker rate),
* on ``workers`` local processes (``executor="processes"``: loky's reusable pool),
* on a Dask ``LocalCluster(n_workers=workers, threads_per_worker=1)``,

and every parallel run must give exactly the serial games.  Pools and the cluster are started
and warmed up before the clock starts (a worker unpacks a tournament's game once and keeps its
caches warm), so the rates are steady speeds; start-up is printed apart.  Each configuration is
played ``rounds`` times and the best wall rate is kept (other work on a shared machine only ever
slows a run down).

Wall-clock speed-ups need idle cores, so the script also reports **CPU time**: the serial run's
CPU per game against all the CPU a parallel run spends (this process, scheduler thread included,
plus its workers, read from ``/proc``).  ``CPU est.`` = ``workers × serial CPU / parallel CPU``
is the speed-up the run would reach on ``workers`` idle cores; when the machine is loaded the
wall speed-up falls short of it.  The load average is printed before and after.

Before the games the script measures the machine's **capacity**: a CPU loop run alone and on
``workers`` processes at once.  On this shared machine the scheduler gives each session a fair
share: while other sessions are busy, two processes of ours get no more CPU than one (both
loops take twice as long), and no executor can show a wall speed-up then.

Run: ``python benchmarks/tournament.py [games] [workers] [rounds] [game ...]`` (default 2000
games, 2 workers, 3 rounds, every registered game).
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gamelib

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def children_cpu(dask: set[int], want_dask: bool) -> dict[int, float]:
    """CPU seconds (user + system) used so far by each live process under this one: the Dask
    workers in ``dask`` and what runs under them (``want_dask``), or every other child tree (the
    loky workers), read from Linux's ``/proc``.  Each run counts only its own workers: an idle
    Dask cluster ticks too (heartbeats), and that belongs to the Dask runs only."""
    parents: dict[int, list[int]] = {}
    cpu: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            cpu[int(entry.name)] = (int(fields[11]) + int(fields[12])) / TICKS
            parents.setdefault(int(fields[1]), []).append(int(entry.name))
    todo = [pid for pid in parents.get(os.getpid(), []) if (pid in dask) == want_dask]
    found: dict[int, float] = {}
    while todo:
        pid = todo.pop()
        found[pid] = cpu[pid]
        todo.extend(parents.get(pid, []))
    return found


def spent(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds the processes used between two readings (a process that ended meanwhile,
    a loky worker replaced, say, is left out rather than counted negative)."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


def measure(play: Callable[[], Any], dask: set[int], on_dask: bool) -> tuple[float, float, Any]:
    """Wall seconds, CPU seconds (this process + the run's workers) and the result of ``play()``."""
    cpu0, children0, start = time.process_time(), children_cpu(dask, on_dask), time.perf_counter()
    result = play()
    wall = time.perf_counter() - start
    return wall, time.process_time() - cpu0 + spent(children0, children_cpu(dask, on_dask)), result


def dask_processes(client: Any) -> set[int]:
    """The process ids of the cluster's workers (a local cluster starts them under this process)."""
    return set(client.run(os.getpid).values())


def spin(_: object = None) -> tuple[float, float]:
    """A pure CPU loop: its CPU and wall seconds."""
    cpu, wall = time.process_time(), time.perf_counter()
    x = 0
    for i in range(2_000_000):
        x += i * i % 7
    return time.process_time() - cpu, time.perf_counter() - wall


def machine_capacity(workers: int) -> float:
    """How many cores' worth of work ``workers`` busy processes of ours get right now, against
    one: the best wall speed-up any parallel run could show at this moment.  On a shared machine
    whose scheduler gives each session a fair share, it is ~1 while others are busy."""
    import concurrent.futures as cf
    import multiprocessing

    one = spin()
    context = multiprocessing.get_context(
        "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    )
    with cf.ProcessPoolExecutor(workers, mp_context=context) as pool:
        list(pool.map(spin, range(workers)))  # started
        start = time.perf_counter()
        many = list(pool.map(spin, range(workers)))
        wall = time.perf_counter() - start
    return (sum(cpu for cpu, _ in many) / wall) / (one[0] / one[1])


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    from distributed import Client, LocalCluster
    from loky import get_reusable_executor

    print(
        f"tournament throughput, random vs random, {games} games, {os.cpu_count()} cores, "
        f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}; best of {rounds} rounds"
    )
    print(
        f"(capacity now: {workers} busy processes get {machine_capacity(workers):.2f}x the CPU of one; "
        "a wall speed-up cannot exceed it)"
    )
    start = time.perf_counter()
    cluster = LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=50
    )
    client = Client(cluster)
    dask_pids = dask_processes(client)
    print(f"(Dask cluster of {workers} workers started in {time.perf_counter() - start:.1f} s)")
    header = (
        f"{'game':<13}{'1 worker g/s':>13}{f'{workers} procs g/s':>14}{'speed-up':>9}"
        f"{f'Dask {workers} g/s':>13}{'speed-up':>9}{'serial CPU ms/g':>16}"
        f"{'procs CPU ms/g':>15}{'CPU est.':>9}{'Dask CPU ms/g':>14}{'CPU est.':>9}"
    )
    print(header)
    try:
        for name in sys.argv[4:] or gamelib.registered_games():
            row(name, games, workers, rounds, client, dask_pids)
    finally:
        client.close()
        cluster.close()
        get_reusable_executor(max_workers=workers).shutdown(wait=True)
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


def row(name: str, games: int, workers: int, rounds: int, client: Any, dask_pids: set[int]) -> None:
    """One game's line: the best wall rate of each configuration and the CPU per game of that run."""
    game = gamelib.make(name)
    agents = ["random"] * game.num_players

    def run(executor: Any = None, n: int = games, seed: int = 1) -> Any:
        extra = {"workers": workers} if executor == "processes" else {}
        return gamelib.tournament(
            game, agents, games=n, seed=seed, executor=executor, progress=False, **extra
        )

    started = time.perf_counter()
    run("processes", 4 * workers, seed=2)  # warm-up: workers unpack the game and fill its caches
    run(client, 4 * workers, seed=2)
    warm = time.perf_counter() - started
    best: dict[str, tuple[float, float]] = {}
    serial = None
    for _ in range(rounds):
        for label, executor in (("serial", None), ("procs", "processes"), ("dask", client)):
            wall, cpu, results = measure(functools.partial(run, executor), dask_pids, label == "dask")
            if serial is None:
                serial = results
            assert results.outcomes == serial.outcomes, f"{label} must play exactly the serial games"
            if label not in best or wall < best[label][0]:
                best[label] = (wall, cpu)
    (s_wall, s_cpu), (p_wall, p_cpu), (d_wall, d_cpu) = best["serial"], best["procs"], best["dask"]
    print(
        f"{name:<13}{games / s_wall:>13.0f}{games / p_wall:>14.0f}{s_wall / p_wall:>9.2f}"
        f"{games / d_wall:>13.0f}{s_wall / d_wall:>9.2f}{1000 * s_cpu / games:>16.3f}"
        f"{1000 * p_cpu / games:>15.3f}{workers * s_cpu / p_cpu:>9.2f}"
        f"{1000 * d_cpu / games:>14.3f}{workers * s_cpu / d_cpu:>9.2f}   (warm-up {warm:.1f} s)"
    )


if __name__ == "__main__":
    main()
