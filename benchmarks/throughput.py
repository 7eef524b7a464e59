"""Random-play throughput: games/s and actions/s per registered game, beside OpenSpiel's Python games.

The same loop drives every engine: at a chance node sample an outcome by its probability, otherwise pick
a uniformly random legal action, until the game ends.  Run: ``python benchmarks/throughput.py [seconds]``.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

import gamelib


def measure(play_one: Callable[[random.Random], int], seconds: float) -> tuple[float, float]:
    """Play games for about ``seconds``; return (games/s, actions/s)."""
    rng = random.Random(0)
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions += play_one(rng)
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed


def gamelib_player(name: str, players: int | None = None) -> Callable[[random.Random], int]:
    game = gamelib.make(name, players=players)
    seeds = iter(range(10**9))

    def play_one(rng: random.Random) -> int:
        state = game.new_game(seed=next(seeds))
        n = 0
        while not state.is_terminal():
            if state.current_player == gamelib.CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                actions = state.legal_actions()
                state.apply(actions[int(rng.random() * len(actions))])
            n += 1
        return n

    return play_one


def pick(outcomes: list[tuple[int, float]], u: float) -> int:
    acc = 0.0
    for outcome, p in outcomes:
        acc += p
        if u < acc:
            return outcome
    return outcomes[-1][0]


def openspiel_player(name: str) -> Callable[[random.Random], int]:
    import pyspiel

    game = pyspiel.load_game(name)

    def play_one(rng: random.Random) -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(pick(state.chance_outcomes(), rng.random()))
            else:
                actions = state.legal_actions()
                state.apply_action(actions[int(rng.random() * len(actions))])
            n += 1
        return n

    return play_one


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    rows: list[tuple[str, float, float]] = []
    for name in gamelib.registered_games():
        info = gamelib.core.game_class(name).info
        for players in sorted({info.min_players, info.max_players}):
            gps, aps = measure(gamelib_player(name, players), seconds)
            rows.append((f"gamelib {name} ({players}p)", gps, aps))
    reference = None
    try:
        import open_spiel.python.games  # noqa: F401  (registers the python_* games)

        for name in ("python_tic_tac_toe", "python_kuhn_poker"):
            gps, aps = measure(openspiel_player(name), seconds)
            rows.append((f"OpenSpiel {name}", gps, aps))
            if name == "python_tic_tac_toe":
                reference = aps
    except ImportError:
        print("(open_spiel not installed: pip install open_spiel to compare)")
    width = max(len(r[0]) for r in rows)
    print(f"{'engine / game':<{width}}  {'games/s':>10}  {'actions/s':>11}  {'vs python_tic_tac_toe':>22}")
    for label, gps, aps in rows:
        ratio = f"{aps / reference:.1f}x" if reference else "-"
        print(f"{label:<{width}}  {gps:>10.1f}  {aps:>11.0f}  {ratio:>22}")


if __name__ == "__main__":
    main()
