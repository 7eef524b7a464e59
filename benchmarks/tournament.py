"""Tournament throughput: games/s in this process and on a local pool, per registered game.

Random against random, the cheapest agents, so the figure is the engine plus the tournament's own
overhead (seeding, seat rotation, batching, shipping results back).  The pool is warmed up first,
so worker start-up is reported apart from the steady speed.  On 2 free cores the speed-up of 2
workers should be close to 2.

Run: ``python benchmarks/tournament.py [games] [workers]`` (default 2000 games, 2 workers).
"""

from __future__ import annotations

import os
import sys
import time

import gamelib


def timed(**kwargs: object) -> tuple[float, object]:
    start = time.perf_counter()
    results = gamelib.tournament(progress=False, **kwargs)  # type: ignore[arg-type]
    return time.perf_counter() - start, results


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"tournament throughput, random vs random, {games} games, {os.cpu_count()} cores, load {load:.1f}")
    print("(the speed-up needs idle cores: with the load above the core count, expect much less than 2)")
    print(
        f"{'game':<14}{'serial games/s':>16}{f'{workers} workers games/s':>22}{'speed-up':>10}{'pool start s':>14}"
    )
    for name in gamelib.registered_games():
        game = gamelib.make(name)
        agents = ["random"] * game.num_players
        serial_s, serial = timed(game=game, agents=agents, games=games, seed=1)
        cold_s, _ = timed(
            game=game, agents=agents, games=2 * workers, seed=1, executor="processes", workers=workers
        )
        pool_s, pooled = timed(
            game=game, agents=agents, games=games, seed=1, executor="processes", workers=workers
        )
        assert pooled.outcomes == serial.outcomes, "the pool must play exactly the serial games"  # type: ignore[attr-defined]
        print(
            f"{name:<14}{games / serial_s:>16.0f}{games / pool_s:>22.0f}{serial_s / pool_s:>10.2f}{cold_s:>14.2f}"
        )


if __name__ == "__main__":
    main()
