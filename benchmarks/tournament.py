"""Tournament throughput: 1 worker against 2 local processes and against Dask clusters of 1 and 2 workers.

Random against random, the cheapest agents, so the figure is the engine plus the tournament's own
overhead (seeding, seat rotation, batching, shipping results back).  For every registered game,
in one run and interleaved (the same load for each), the same ``gamelib.tournament`` call is made

* in this process (``executor=None``: the 1-worker rate, the baseline with no overhead at all),
* on ``workers`` local processes (``executor="processes"``: loky's reusable pool),
* on a Dask ``LocalCluster(n_workers=1)`` and ``LocalCluster(n_workers=workers)`` (one thread a
  worker, processes, no dashboard) as Dask starts it by default (``default``), and started by
  :func:`gamelib.analysis.executors.local_cluster` (``lean``: the same LocalCluster under
  :data:`~gamelib.analysis.executors.DASK_CPU_CONFIG`: worker profiler off, event-loop and memory
  checks every second rather than every 20 and 100 ms),

and every parallel run must give exactly the serial games.  Speed-ups are given against the
serial rate (``x serial``) and, for Dask, against the same cluster kind with 1 worker (``x 1w``:
the same call, the same code path, 1 worker against ``workers``).  What is timed is the call
only, in every configuration: the loky pool is started and warmed up before the clock starts, and
each Dask run gets a fresh cluster, started and warmed up (its workers unpack the tournament's
game and fill its caches) before its clock starts and closed after it, for 1 worker and for
``workers`` alike, so no idle cluster ticks beside another run.  Every process that plays (this
one, each loky or Dask worker) is warmed up alike: it first plays as many games of its own as the
run has, or ~1.5 s of CPU of them if fewer (a game's caches fill over its first games: Get on
Board takes 0.43 ms a game over its first 500 and 0.33 ms after 1,000).  Each configuration is played
``rounds`` times and the best wall rate is kept (other work on a shared machine only ever slows
a run down); start-up is printed apart.

Wall-clock speed-ups need idle cores, so the script also reports **CPU time**: the serial run's
CPU per game against all the CPU a parallel run spends (this process, scheduler thread included,
plus its workers, read from ``/proc``).  ``CPU est.`` = ``workers x baseline CPU / parallel CPU``
is the speed-up the run would reach on ``workers`` idle cores; when the machine is loaded the
wall speed-up falls short of it.  ``cores`` = that CPU over the wall time: how many cores the
run got (a serial run on an idle core shows 1.00, a 2-worker run on 2 idle cores close to 2; on a
shared machine the ratio of two rows' ``cores`` is the speed-up the machine allowed them).  The
load average is printed before and after, and so is the capacity below.

Before the games the script measures the machine's **capacity**: a CPU loop run alone and on
``workers`` processes at once.  On this shared machine the scheduler gives each session a fair
share: while other sessions are busy, two processes of ours get no more CPU than one (both
loops take twice as long), and no executor can show a wall speed-up then.

Run: ``python benchmarks/tournament.py [games] [workers] [rounds] [game ...] [--dask=lean,default]``
(``--help``: this text)
(default 2000 games, 2 workers, 2 rounds, every registered game, both kinds of cluster).
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
    """CPU seconds (user + system) used so far by each live process under this one: the workers
    in ``dask`` (a run's Dask or loky workers) and what runs under them (``want_dask``), or every
    other child tree, read from Linux's ``/proc``.  Each run counts only its own workers: an idle
    Dask cluster ticks too (heartbeats), and a closed cluster's processes may still be exiting
    while the next run plays; neither belongs to that run (the serial run counts no child)."""
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


def loky_processes(workers: int) -> set[int]:
    """The process ids of the reusable loky pool's workers (they stay up between runs: see
    :data:`~gamelib.analysis.executors.LOKY_IDLE_SECONDS`)."""
    from loky import get_reusable_executor

    from gamelib.analysis.executors import LOKY_IDLE_SECONDS

    executor = get_reusable_executor(max_workers=workers, timeout=LOKY_IDLE_SECONDS)
    return set(getattr(executor, "_processes", {}))


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


CLUSTERS = ("lean", "default")


def start_cluster(kind: str, workers: int) -> tuple[Any, Any, set[int]]:
    """A fresh local cluster of ``workers`` single-threaded worker processes, its client and the
    workers' process ids: ``lean`` by :func:`~gamelib.analysis.executors.local_cluster`, ``default``
    with Dask's default settings."""
    from distributed import Client, LocalCluster

    if kind == "lean":
        from gamelib.analysis.executors import local_cluster

        cluster = local_cluster(workers, silence_logs=50)
    else:
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=50
        )
    client = Client(cluster)
    return cluster, client, dask_processes(client)


def main() -> None:
    if {"-h", "--help"} & set(sys.argv[1:]):
        print(__doc__)
        return
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    kinds = list(CLUSTERS)
    for flag in sys.argv[1:]:
        if flag.startswith("--dask="):
            kinds = [k for k in flag.split("=", 1)[1].split(",") if k]
            unknown = set(kinds) - set(CLUSTERS)
            if unknown:
                raise SystemExit(f"--dask takes {', '.join(CLUSTERS)}; got {', '.join(sorted(unknown))}")
    games = int(args[0]) if len(args) > 0 else 2000
    workers = int(args[1]) if len(args) > 1 else 2
    rounds = int(args[2]) if len(args) > 2 else 2
    from loky import get_reusable_executor

    from gamelib.analysis.executors import LOKY_IDLE_SECONDS

    print(
        f"tournament throughput, random vs random, {games} games, {os.cpu_count()} cores, "
        f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}; best of {rounds} rounds"
    )
    print(
        f"(capacity now: {workers} busy processes get {machine_capacity(workers):.2f}x the CPU of one; "
        "a wall speed-up cannot exceed it)"
    )
    print(
        f"{'game':<13}{'configuration':<22}{'games/s':>9}{'x serial':>9}{'x 1w':>7}"
        f"{'CPU ms/g':>10}{'CPU est.':>9}{'cores':>6}{'best wall s':>12}{'start s':>9}"
    )
    try:
        for name in args[3:] or gamelib.registered_games():
            rows(name, games, workers, rounds, kinds)
    finally:
        get_reusable_executor(max_workers=workers, timeout=LOKY_IDLE_SECONDS).shutdown(wait=True)
    print(
        f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}; capacity after: "
        f"{machine_capacity(workers):.2f}x"
    )


def rows(name: str, games: int, workers: int, rounds: int, kinds: list[str]) -> None:
    """One game's lines: the best wall rate of each configuration and the CPU per game of that run."""
    game = gamelib.make(name)
    agents = ["random"] * game.num_players

    def run(executor: Any = None, n: int = games, seed: int = 1) -> Any:
        extra = {"workers": workers} if executor == "processes" else {}
        return gamelib.tournament(
            game, agents, games=n, seed=seed, executor=executor, progress=False, **extra
        )

    # warm-up: every process that plays (this one, each loky or Dask worker) first plays `warm`
    # games of its own, up to `games` or ~1.5 s of CPU: a game's caches fill over its first
    # games (Get on Board: 0.43 ms a game over the first 500, 0.33 after 1,000), and the serial
    # baseline would otherwise be the only warm one
    cpu = time.process_time()
    run(None, min(games, 100), seed=2)
    per_game = (time.process_time() - cpu) / min(games, 100)
    warm = max(1, min(games, int(1.5 / max(per_game, 1e-6))))
    run(None, warm, seed=3)

    def on_cluster(kind: str, size: int) -> tuple[float, float, Any, float]:
        started = time.perf_counter()
        cluster, client, pids = start_cluster(kind, size)
        try:
            run(client, warm * size, seed=3)  # warm-up: workers unpack the game and fill its caches
            ready = time.perf_counter() - started
            wall, cpu, results = measure(functools.partial(run, client), pids, True)
        finally:
            client.close()
            cluster.close()
        return wall, cpu, results, ready

    run("processes", warm * workers, seed=3)  # warm-up of the loky pool
    configs: list[tuple[str, Callable[[], tuple[float, float, Any, float]]]] = [
        ("serial (1 worker)", lambda: (*measure(run, set(), True), 0.0)),
        (
            f"{workers} loky processes",
            lambda: (*measure(functools.partial(run, "processes"), loky_processes(workers), True), 0.0),
        ),
    ]
    for kind in kinds:
        configs.append((f"{kind} Dask 1 worker", functools.partial(on_cluster, kind, 1)))
        configs.append((f"{kind} Dask {workers} workers", functools.partial(on_cluster, kind, workers)))
    best: dict[str, tuple[float, float, float]] = {}
    serial = None
    for _ in range(rounds):
        for label, play in configs:
            wall, cpu, results, ready = play()
            if serial is None:
                serial = results
            assert results.outcomes == serial.outcomes, f"{label} must play exactly the serial games"
            if label not in best or wall < best[label][0]:
                best[label] = (wall, cpu, ready)
    s_wall, s_cpu, _ = best["serial (1 worker)"]
    one: tuple[float, float, float] | None = None
    for label, _ in configs:
        wall, cpu, ready = best[label]
        n = 1 if "serial" in label or " 1 worker" in label else workers
        if " 1 worker" in label:
            one = best[label]
        versus_one = ""
        estimate = n * s_cpu / cpu
        if one is not None and n > 1 and "Dask" in label:
            versus_one = f"{one[0] / wall:.2f}"
            estimate = n * one[1] / cpu
        print(
            f"{name if 'serial' in label else '':<13}{label:<22}{games / wall:>9.0f}{s_wall / wall:>9.2f}"
            f"{versus_one:>7}{1000 * cpu / games:>10.3f}{estimate:>9.2f}{cpu / wall:>6.2f}{wall:>12.2f}"
            f"{(f'{ready:.1f}' if ready else ''):>9}"
        )
        if n > 1:
            one = None


if __name__ == "__main__":
    main()
