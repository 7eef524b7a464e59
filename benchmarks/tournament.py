"""Tournament throughput: each executor with 1 worker against the same executor with 2 (or ``workers``).

Random against random, the cheapest agents, so the figure is the engine plus the tournament's own
overhead (seeding, seat rotation, batching, shipping results back).  For every registered game,
in one run and interleaved (the same load for each), the same ``gamelib.tournament`` call is made

* in this process (``executor=None``: ``serial``, the baseline with no overhead at all),
* on 1 and on ``workers`` local processes (``executor="processes"``: on Linux, while no other
  thread runs in this process, workers forked from it at each call (``forked``); else loky's
  reusable pool (``loky``)),
* on a Dask ``LocalCluster`` of 1 and of ``workers`` workers (one thread a worker, processes, no
  dashboard) as Dask starts it by default (``default``), and started by
  :func:`gamelib.analysis.executors.local_cluster` (``lean``: the same LocalCluster under
  :data:`~gamelib.analysis.executors.DASK_CPU_CONFIG`: worker profiler off, event-loop and memory
  checks every second rather than every 20 and 100 ms),

and every run must give exactly the serial games.  The goal's figure is ``x 1w``: a run against
the same executor with 1 worker (the same call, the same code path, measured the same way);
``x serial`` compares with this process playing alone, warm (the best a single process does).

**What a user meets is inside the clock.**  Each executor run starts from a fresh pool or cluster
whose workers are up and have imported ``gamelib`` (as after a user's earlier call on another
game; that start-up, ~0.5 s for a pool and 2-5 s for a cluster, is printed apart as ``start s``)
and have never seen the game.  Its ``first`` call is then timed as it comes: the workers rebuild
the game from its recipe, import its modules and fill its caches inside the clock.  The ``next``
call repeats the same tournament on the same workers (a user's second call: the game is kept,
warm).  A forked pool has nothing to start before the clock: each call forks its workers from
this process inside the clock (``start s`` blank), with the game made and warm from the serial
runs, and ends them.  Only the serial baseline is warmed before its clock (it first plays up to as many games
as the run, or ~1.5 s of CPU of them), so that ``x serial`` is against the best serial rate.
Each configuration is played ``rounds`` times and the best wall time of each call is kept (other
work on a shared machine only ever slows a run down); an executor's 1-worker and 2-worker runs
are adjacent in a round and their order alternates between rounds (1 then 2 workers, then 2
then 1), so a load that changes through a round favours neither.  ``x 1w`` is the ratio of the
two best walls; ``med x1w`` is the median over the rounds of the same ratio taken within each
round (the two runs side by side): two ways of reading the same runs, neither kinder to either
side.  With 2 rounds the median is the mean of the two; more rounds make both steadier.

Under ``PYTHONDONTWRITEBYTECODE`` every new worker compiles the game's modules from source (~0.1 s
for Get on Board), which an installed library's users do not pay: the script says so when it is set.

Wall-clock speed-ups need idle cores, so the script also reports **CPU time**: all the CPU a run
spends (this process, scheduler thread included, plus that run's own workers, read from
``/proc``, and a forked pool's, which end with the call, from ``getrusage``).  ``CPU est.`` = ``workers x the 1-worker run's CPU / this run's CPU`` (against the
serial run for serial and 1-worker rows) is the speed-up the run would reach on ``workers`` idle
cores; when the machine is loaded the wall speed-up falls short of it.  ``cores`` = that CPU over
the wall time: how many cores the run got (a serial run on an idle core shows 1.00, a 2-worker
run on 2 idle cores close to 2; on a shared machine the ratio of two rows' ``cores`` is the
speed-up the machine allowed them).  ``load`` is the 1-minute load average just after the kept
run and ``cap`` the capacity (below) measured at the start of that run's round; both are printed
before and after the whole run too.

Before the games (and before each round: ``cap``) the script measures the machine's
**capacity**: a CPU loop run alone and on ``workers`` processes at once, as the work they get
done (``workers`` x the lone loop's wall / the wall of the loops together: the best wall speed-up
any run could show then) and as the CPU they get.  On this shared machine the scheduler gives
each session a fair share: while other sessions are busy, two processes of ours get no more CPU
than one (both loops take twice as long), and no executor can show a wall speed-up then.  The
two differ when the CPU is there but a loop runs slower beside another (virtual CPUs sharing a
physical core, a lower clock): only the work shows it, and the games slow down alike.

``par ms`` is the part of a run's CPU this process spent (milliseconds for the whole call, every
thread: the tournament's loop, loky's manager and feeder threads, the Dask client and the local
cluster's scheduler): CPU the workers do not get on a 2-core machine while they play.  ``gcap``
is the capacity measured with the game itself (:func:`game_capacity`: fresh warm processes play
the same games alone, then two at once) and ``g CPU`` the CPU a game takes beside another over
alone: a game that reads more memory than the CPU loop can slow more beside another, and no
tournament of that game beats its ``gcap``.

Run: ``python benchmarks/tournament.py [games] [workers] [rounds] [game ...] [--dask=lean,default]``
(``--help``: this text)
(default 2000 games, 2 workers, 2 rounds, every registered game, both kinds of cluster).
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import resource
import statistics
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


def reaped_cpu() -> float:
    """CPU seconds of this process's children that have ended and been waited for: a forked
    pool's workers, which end with the call that forked them."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(play: Callable[[], Any], dask: set[int], on_dask: bool) -> tuple[float, float, float, Any]:
    """Wall seconds, CPU seconds (this process + the run's workers, alive or, forked by the run,
    ended with it), this process's own CPU seconds (every thread: the tournament's loop, the
    pool's manager and feeder threads, the Dask client's and a local scheduler's event loop) and
    the result of ``play()``."""
    reaped = reaped_cpu()
    cpu0, children0, start = time.process_time(), children_cpu(dask, on_dask), time.perf_counter()
    result = play()
    wall = time.perf_counter() - start
    parent = time.process_time() - cpu0
    workers = spent(children0, children_cpu(dask, on_dask)) + reaped_cpu() - reaped
    return wall, parent + workers, parent, result


def ready(pause: float = 0.0) -> int:
    """What a worker of a started pool has done before a first tournament: imported the library
    (a user's earlier call, on any game, did it); its process id."""
    import gamelib.analysis.executors  # noqa: F401

    time.sleep(pause)
    return os.getpid()


def fresh_pool(workers: int) -> set[int]:
    """What a local pool's runs start from: nothing when the library forks its workers at each
    call (:func:`~gamelib.analysis.executors.fork_is_safe`: they start inside the clock, from
    this process), else a fresh loky pool (:func:`fresh_loky`).  The workers' process ids."""
    from gamelib.analysis.executors import fork_is_safe

    return set() if fork_is_safe() else fresh_loky(workers)


def fresh_loky(workers: int) -> set[int]:
    """The reusable loky pool shut down and started again with ``workers`` processes, each up and
    with the library imported (see :func:`ready`): their process ids.  A tournament's game is new
    to them, as a user's first call of a game meets it (see :data:`LOKY_IDLE_SECONDS`)."""
    from loky import get_reusable_executor

    from gamelib.analysis.executors import LOKY_IDLE_SECONDS

    get_reusable_executor(max_workers=workers, timeout=LOKY_IDLE_SECONDS).shutdown(
        wait=True, kill_workers=True
    )
    executor = get_reusable_executor(max_workers=workers, timeout=LOKY_IDLE_SECONDS)
    pids: set[int] = set()
    while len(pids) < workers:  # a worker busy with one pause leaves the next call to another
        pids.update(executor.map(ready, [0.05] * workers))
    return pids


def dask_processes(client: Any) -> set[int]:
    """The process ids of the cluster's workers (a local cluster starts them under this process)."""
    return set(client.run(os.getpid).values())


def settle(before: set[int], timeout: float = 10.0) -> None:
    """Wait until the processes started since ``before`` (a closed cluster's) have ended and been
    waited for: getrusage counts a child's CPU when it is waited for, which must not happen
    inside a later run's clock (a forked pool's CPU is read from it)."""
    end = time.perf_counter() + timeout
    while {p.pid for p in multiprocessing.active_children()} - before and time.perf_counter() < end:
        time.sleep(0.05)


def spin(_: object = None) -> tuple[float, float]:
    """A pure CPU loop: its CPU and wall seconds."""
    cpu, wall = time.process_time(), time.perf_counter()
    x = 0
    for i in range(2_000_000):
        x += i * i % 7
    return time.process_time() - cpu, time.perf_counter() - wall


def machine_capacity(workers: int) -> tuple[float, float]:
    """How much ``workers`` busy processes of ours get done right now against one: the same CPU
    loop run alone, then on ``workers`` processes at once.  Returns (work, CPU): ``workers`` times
    the lone loop's wall over the wall of the loops run together (the best wall speed-up any
    parallel run could show at this moment), and the CPU they got over the CPU the lone loop got
    in the same wall time.  On a shared machine whose scheduler gives each session a fair share,
    both are ~1 while others are busy; when the CPU is there but a loop runs slower beside
    another (two virtual CPUs on one physical core, a lower clock), only the work falls."""
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
    return workers * one[1] / wall, (sum(cpu for cpu, _ in many) / wall) / (one[0] / one[1])


_GAMES: dict[str, Any] = {}
"""The game and agents a capacity probe's process plays (made once a process)."""


def play_games(name: str, games: int, start: int) -> float:
    """CPU seconds this process takes to play ``games`` random games of ``name`` (tournament
    seeds from ``start``), each as a tournament worker plays it (:func:`play_row`)."""
    from gamelib.agents.registry import make_agent
    from gamelib.analysis.executors import JobRange, play_row, sparse_collections

    if name not in _GAMES:
        game = gamelib.make(name)
        _GAMES[name] = (game, [make_agent("random", name) for _ in range(game.num_players)])
    game, agents = _GAMES[name]
    cpu = time.process_time()
    with sparse_collections():
        for row in JobRange(1, game.num_players, True, start, start + games).rows():
            play_row(game, agents, row)
    return time.process_time() - cpu


def _game_loop(name: str, games: int, barrier: Any, answers: Any) -> None:
    play_games(name, max(20, games // 4), 10**6)  # the game built and its caches warm, off the clock
    barrier.wait()
    wall = time.perf_counter()
    cpu = play_games(name, games, 0)
    answers.put((cpu, time.perf_counter() - wall))


def game_capacity(name: str, workers: int, games: int) -> tuple[float, float]:
    """The capacity probe with the game itself instead of a CPU loop: fresh processes, warm, play
    the same ``games`` games alone and then ``workers`` at once (each all of them, started
    together).  Returns (work, CPU per game together / alone): the best wall speed-up a
    tournament of this game could show right now (a game that reads more memory than the CPU
    loop may slow more beside another), and how much more CPU a game takes beside another."""
    import multiprocessing

    context = multiprocessing.get_context(
        "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    )
    runs = []
    for size in (1, workers):
        barrier, answers = context.Barrier(size), context.Queue()
        procs = [
            context.Process(target=_game_loop, args=(name, games, barrier, answers)) for _ in range(size)
        ]
        for proc in procs:
            proc.start()
        runs.append([answers.get() for _ in procs])
        for proc in procs:
            proc.join()
    (alone_cpu, alone_wall), together = runs[0][0], runs[1]
    work = workers * alone_wall / max(wall for _, wall in together)
    return work, statistics.mean(cpu for cpu, _ in together) / alone_cpu


def capacity_text(workers: int) -> str:
    work, cpu = machine_capacity(workers)
    return f"{workers} busy processes do {work:.2f}x the work of one ({cpu:.2f}x its CPU)"


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
    client.run(ready)
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
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print(
            "(PYTHONDONTWRITEBYTECODE is set: new workers compile the game's modules from source "
            "inside their first call, which an installed library's users do not pay)"
        )
    print(f"(capacity now: {capacity_text(workers)}; a wall speed-up cannot exceed it)")
    print(
        f"{'game':<13}{'configuration':<22}{'call':<6}{'games/s':>9}{'x serial':>9}{'x 1w':>7}{'med x1w':>8}"
        f"{'CPU ms/g':>10}{'par ms':>7}{'CPU est.':>9}{'cores':>6}{'best wall s':>12}{'start s':>9}{'load':>6}"
        f"{'cap':>6}{'gcap':>6}{'g CPU':>6}"
    )
    try:
        for name in args[3:] or gamelib.registered_games():
            rows(name, games, workers, rounds, kinds)
    finally:
        get_reusable_executor(max_workers=workers, timeout=LOKY_IDLE_SECONDS).shutdown(wait=True)
    print(
        f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}; capacity after: "
        f"{capacity_text(workers)}"
    )


Timing = tuple[float, float, float]
"""A timed call's wall and CPU seconds, and the part of that CPU this process spent."""


def rows(name: str, games: int, workers: int, rounds: int, kinds: list[str]) -> None:
    """One game's lines: for each configuration the best wall rate of its first and next call, and
    the CPU per game of those runs."""
    from gamelib.analysis.executors import fork_is_safe

    game = gamelib.make(name)
    agents = ["random"] * game.num_players

    def run(executor: Any = None, n: int = games, seed: int = 1, size: int = workers) -> Any:
        extra = {"workers": size} if executor == "processes" else {}
        return gamelib.tournament(
            game, agents, games=n, seed=seed, executor=executor, progress=False, **extra
        )

    # the serial baseline is this process at its best: warm, as after a first call (a game's
    # caches fill over its first games); up to `games` games or ~1.5 s of CPU of them
    cpu = time.process_time()
    run(None, min(games, 100), seed=2)
    per_game = (time.process_time() - cpu) / min(games, 100)
    run(None, max(1, min(games, int(1.5 / max(per_game, 1e-6)))), seed=3)
    serial: list[Any] = []

    def timed(executor: Any, pids: set[int], size: int, on_dask: bool) -> Timing:
        wall, cpu, parent, results = measure(functools.partial(run, executor, size=size), pids, on_dask)
        if not serial:
            serial.append(results)
        assert results.outcomes == serial[0].outcomes, f"{executor} must play exactly the serial games"
        if executor == "processes":
            assert pool in results.executor_label, f"a {pool} pool was expected: {results.executor_label}"
        return wall, cpu, parent

    def on_pool(size: int) -> tuple[Timing, Timing, float]:
        started = time.perf_counter()
        pids = fresh_pool(size)
        ready = time.perf_counter() - started if pids else 0.0
        first = timed("processes", pids, size, True)
        return first, timed("processes", pids, size, True), ready

    def on_cluster(kind: str, size: int) -> tuple[Timing, Timing, float]:
        before = {p.pid for p in multiprocessing.active_children()}
        started = time.perf_counter()
        cluster, client, pids = start_cluster(kind, size)
        try:
            ready = time.perf_counter() - started
            first = timed(client, pids, size, True)
            return first, timed(client, pids, size, True), ready
        finally:
            client.close()
            cluster.close()
            settle(before)

    def on_serial() -> tuple[Timing, Timing, float]:
        first = timed(None, set(), 1, True)
        return first, first, 0.0

    configs: list[tuple[str, int, Callable[[], tuple[Timing, Timing, float]]]] = [
        ("serial (1 worker)", 1, on_serial)
    ]
    pool = "forked" if fork_is_safe() else "loky"
    for size in (1, workers):
        configs.append(
            (f"{size} {pool} process{'es' if size > 1 else ''}", size, functools.partial(on_pool, size))
        )
    for kind in kinds:
        for size in (1, workers):
            label = f"{kind} Dask {size} worker{'s' if size > 1 else ''}"
            configs.append((label, size, functools.partial(on_cluster, kind, size)))
    probe = functools.partial(game_capacity, name, workers, max(20, int(0.4 / max(per_game, 1e-6))))
    kept = play_rounds(configs, rounds, workers, probe)
    report(name, games, configs, kept)


Kept = dict[tuple[str, str], list[tuple[float, float, float, float, float, float, float, float]]]
"""Every round's (wall s, CPU s, start s, load, capacity, this process's CPU s, the game's capacity
and its CPU a game beside another / alone) of each (configuration, call)."""


def play_rounds(
    configs: list[tuple[str, int, Callable[[], tuple[Timing, Timing, float]]]],
    rounds: int,
    workers: int,
    probe: Callable[[], tuple[float, float]],
) -> Kept:
    """Each configuration played ``rounds`` times, the machine's capacity measured before each
    round, with the CPU loop and with the game itself (``probe``: :func:`game_capacity`).  An executor's 1-worker and ``workers``-worker runs are adjacent and their order
    alternates from round to round (1 then 2 workers, then 2 then 1), so a load that rises or
    falls through a round favours neither."""
    kept: Kept = {}
    for number in range(rounds):
        capacity = machine_capacity(workers)[0]
        game_work, game_cpu = probe()
        order = list(configs)
        if number % 2:
            for k in range(1, len(order) - 1, 2):  # after serial, the executors come in (1, n) pairs
                order[k], order[k + 1] = order[k + 1], order[k]
        for label, _size, play in order:
            first, following, ready = play()
            load = os.getloadavg()[0]
            for call, (wall, cpu, parent) in (("first", first), ("next", following)):
                kept.setdefault((label, call), []).append(
                    (wall, cpu, ready, load, capacity, parent, game_work, game_cpu)
                )
    return kept


def report(
    name: str,
    games: int,
    configs: list[tuple[str, int, Callable[[], tuple[Timing, Timing, float]]]],
    kept: Kept,
) -> None:
    """One line per configuration and call: the best round's figures (other work on a shared
    machine only ever slows a run down), and ``med x 1w``: the median over the rounds of the
    1-worker run's wall over this run's wall *in the same round* (the two ran next to each other)."""
    best = {key: min(runs) for key, runs in kept.items()}
    s_wall, s_cpu = best["serial (1 worker)", "first"][:2]
    for call in ("first", "next"):
        one: str | None = None
        for label, size, _play in configs:
            if label.startswith("serial") and call == "next":
                continue
            wall, cpu, ready, load, capacity, parent, game_work, game_cpu = best[label, call]
            if size == 1 and not label.startswith("serial"):
                one = label
            versus_one, median, estimate = "", "", size * s_cpu / cpu
            parent_text = "" if label.startswith("serial") else f"{1000 * parent:.0f}"  # serial: all of it
            if one is not None and size > 1:
                one_wall, one_cpu = best[one, call][:2]
                versus_one, estimate = f"{one_wall / wall:.2f}", size * one_cpu / cpu
                paired = sorted(a[0] / b[0] for a, b in zip(kept[one, call], kept[label, call], strict=True))
                median = f"{statistics.median(paired):.2f}"
            print(
                f"{name if label.startswith('serial') else '':<13}{label:<22}{call:<6}{games / wall:>9.0f}"
                f"{s_wall / wall:>9.2f}{versus_one:>7}{median:>8}{1000 * cpu / games:>10.3f}{parent_text:>7}"
                f"{estimate:>9.2f}{cpu / wall:>6.2f}{wall:>12.2f}{(f'{ready:.1f}' if ready else ''):>9}{load:>6.1f}"
                f"{capacity:>6.2f}{game_work:>6.2f}{game_cpu:>6.2f}"
            )


if __name__ == "__main__":
    main()
