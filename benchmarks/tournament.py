"""Tournament throughput: games/s in this process and on a local pool, per registered game.

Random against random, the cheapest agents, so the figure is the engine plus the tournament's own
overhead (seeding, seat rotation, batching, shipping results back).  The loky pool is warmed up
first, so worker start-up is reported apart from the steady speed.  On 2 idle cores the speed-up
of 2 workers should be close to 2.

Wall-clock speed-ups need idle cores.  So the script also measures **CPU time**: the serial run's
CPU time against the CPU time of a standard-library pool (its workers are reaped at the end, so
``RUSAGE_CHILDREN`` counts them, start-up included).  If the pool spends about as much CPU as the
serial run, splitting the work loses nothing, and on ``n`` idle cores the speed-up would be about
``n × serial CPU / pool CPU`` (the "idle-core estimate").

Games are shipped in batches (about four tasks per worker, at most 100 games a task) and a worker
unpacks a tournament's game and agents once and reuses them for every later batch, so a game's
own caches stay warm: the per-game CPU of a pool should be the serial one plus a small fixed
start-up.  The serial run and the pools are measured one after the other for each game, so they
see the same load.

Run: ``python benchmarks/tournament.py [games] [workers]`` (default 2000 games, 2 workers).
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
import resource
import sys
import time

import gamelib


def timed(**kwargs: object) -> tuple[float, object]:
    start = time.perf_counter()
    results = gamelib.tournament(progress=False, **kwargs)  # type: ignore[arg-type]
    return time.perf_counter() - start, results


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def pool_cpu(game: gamelib.Game, agents: list[str], games: int, workers: int) -> float:
    """CPU seconds (parent + workers, start-up included) of the same tournament on a fresh pool."""
    before_children, before_self = children_cpu(), time.process_time()
    # fork (or spawn) workers are our direct children, so RUSAGE_CHILDREN sees their CPU once reaped;
    # forkserver workers would be the server's children and escape the count.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with cf.ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        gamelib.tournament(game, agents, games=games, seed=1, executor=pool, progress=False)
    return (children_cpu() - before_children) + (time.process_time() - before_self)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"tournament throughput, random vs random, {games} games, {os.cpu_count()} cores, load {load:.1f}")
    print("(wall-clock speed-ups need idle cores; the idle-core estimate comes from CPU time)")
    print(
        f"{'game':<13}{'serial g/s':>11}{f'{workers} workers g/s':>15}{'speed-up':>9}{'pool start s':>13}"
        f"{'serial CPU ms/g':>16}{'1-worker CPU':>13}{'pool CPU ms/g':>14}{'idle-core est.':>15}"
    )
    rows = {}
    # CPU figures first: forking a process that already runs a loky pool would disturb that pool
    for name in gamelib.registered_games():
        game = gamelib.make(name)
        agents = ["random"] * game.num_players
        cpu0 = time.process_time()
        serial_s, serial = timed(game=game, agents=agents, games=games, seed=1)
        serial_cpu = time.process_time() - cpu0
        one_cpu = pool_cpu(game, agents, games, 1)
        rows[name] = (
            game,
            agents,
            serial_s,
            serial,
            serial_cpu,
            one_cpu,
            pool_cpu(game, agents, games, workers),
        )
    for name, (game, agents, serial_s, serial, serial_cpu, one_cpu, parallel_cpu) in rows.items():
        cold_s, _ = timed(
            game=game, agents=agents, games=2 * workers, seed=1, executor="processes", workers=workers
        )
        pool_s, pooled = timed(
            game=game, agents=agents, games=games, seed=1, executor="processes", workers=workers
        )
        assert pooled.outcomes == serial.outcomes, "the pool must play exactly the serial games"  # type: ignore[attr-defined]
        print(
            f"{name:<13}{games / serial_s:>11.0f}{games / pool_s:>15.0f}{serial_s / pool_s:>9.2f}{cold_s:>13.2f}"
            f"{1000 * serial_cpu / games:>16.2f}{1000 * one_cpu / games:>13.2f}{1000 * parallel_cpu / games:>14.2f}"
            f"{workers * serial_cpu / parallel_cpu:>15.2f}"
        )


if __name__ == "__main__":
    main()
