"""Each game through each adapter (OpenSpiel, PettingZoo) against the native engine, in one run.

Random play with the same loop shape everywhere; prints actions/s and the adapter's overhead factor.
Run: ``python benchmarks/interop.py [seconds]``.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

import numpy as np

import gamelib
from gamelib.core.play import random_playout


def rate(play_one: Callable[[int], int], seconds: float) -> float:
    actions, game_index, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions += play_one(game_index)
        game_index += 1
    return actions / (time.perf_counter() - start)


def native(name: str) -> Callable[[int], int]:
    game = gamelib.make(name)

    def play_one(seed: int) -> int:
        return len(random_playout(game.new_game(seed=seed), random.Random(seed)).history)

    return play_one


def openspiel(name: str) -> Callable[[int], int]:
    from gamelib.interop.openspiel import load_game

    game = load_game(name)

    def play_one(seed: int) -> int:
        rng, state, n = random.Random(seed), game.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        return n

    return play_one


def pettingzoo(name: str) -> Callable[[int], int]:
    from gamelib.interop.pettingzoo import env

    e = env(name)

    def play_one(seed: int) -> int:
        rng = np.random.default_rng(seed)
        e.reset(seed=seed)
        n = 0
        for _ in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
            else:
                e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
        return len(e.state_.history) if e.state_ is not None else n

    return play_one


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    print(f"{'game':<12} {'native':>10} {'openspiel':>12} {'pettingzoo':>12}   (actions/s; x = slowdown)")
    for name in gamelib.registered_games():
        base = rate(native(name), seconds)
        cells = [f"{base:>10.0f}"]
        for adapter in (openspiel, pettingzoo):
            try:
                r = rate(adapter(name), seconds)
                cells.append(f"{r:>7.0f} {base / r:>3.0f}x")
            except ImportError as exc:
                cells.append(f"{'(' + str(exc.name) + ' missing)':>12}")
        print(f"{name:<12} " + " ".join(cells))


if __name__ == "__main__":
    main()
