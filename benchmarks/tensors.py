"""Observation-tensor speed: microseconds per ``state.observation_tensor(player)`` call.

Learning agents ask for a tensor at every step, so its cost adds to every step of training.
Positions come from random games (chance by its probabilities); every seat's tensor is measured
at every position, in the process's CPU time (a machine shared with other work inflates the
figures less than wall time, but it still does).

Run: ``python benchmarks/tensors.py [repeats]`` (default 20 passes over the positions).
"""

from __future__ import annotations

import random
import sys
import time

import gamelib
from gamelib.core.play import random_playout


def positions(game: gamelib.Game, count: int = 200) -> list[gamelib.State]:
    """``count`` positions spread over random games of ``game`` (every step of a few games)."""
    found: list[gamelib.State] = []
    seed = 0
    while len(found) < count:
        rng = random.Random(seed)
        state = game.new_game(seed=seed)
        final = random_playout(state.clone(), rng)
        rng = random.Random(seed)
        every = max(1, len(final.history) // 40)
        for step in range(len(final.history)):
            if step % every == 0:
                found.append(state.clone())
            state.apply(final.history[step])
        seed += 1
    return found[:count]


def per_call_us(states: list[gamelib.State], repeats: int) -> float:
    """CPU microseconds per observation_tensor call, over every seat of every state."""
    calls = [(s, p) for s in states for p in range(s.game.num_players)]
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for _ in range(repeats):
            for state, player in calls:
                state.observation_tensor(player)
        best = min(best, (time.process_time() - start) / (repeats * len(calls)))
    return best * 1e6


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(f"{'game':<26}{'tensor length':>14}{'µs per call':>14}")
    for name in gamelib.registered_games():
        cls = gamelib.core.game_class(name)
        if not cls.info.has("observation_tensor"):
            continue
        for players in sorted({cls.info.min_players, cls.info.default_players, cls.info.max_players}):
            game = gamelib.make(name, players=players)
            states = positions(game)
            length = len(states[0].observation_tensor(0))
            label = f"{name} ({players}p)"
            print(f"{label:<26}{length:>14}{per_call_us(states, repeats):>14.1f}")
    print("(best of 3 passes, process CPU time; 200 positions of random games, every seat)")


if __name__ == "__main__":
    main()
