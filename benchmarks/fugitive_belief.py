"""How long the detective's exact belief takes on random mid-game Fugitive states.

Prints the median, 90th percentile and maximum time of :func:`gamelib.fugitive.analysis.belief`
(position probabilities and hideout probabilities, caches cleared before each state) over
``--states`` positions sampled from games between the given agents, plus the time of the
card-location probabilities (sprint / hand / deck) that are computed on first use.

    .venv/bin/python benchmarks/fugitive_belief.py --states 1000 --players random
    .venv/bin/python benchmarks/fugitive_belief.py --players agents   # heuristic vs belief detective

The C++ anchor (smsxgz/fugitive ``belief.cc``) reports medians of 10 us to 4 ms, max 176 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import gamelib
from gamelib.agents import RandomAgent
from gamelib.fugitive import analysis
from gamelib.fugitive.agents import BeliefDetective, FugitiveHeuristic
from gamelib.fugitive.rules import SETUP, FugitiveState


def sample_states(count: int, players: str, seed: int) -> list[FugitiveState]:
    """``count`` positions: each from its own game, stopped at a random point of the game."""
    game = gamelib.make("fugitive")
    agents = (
        [RandomAgent(), RandomAgent()] if players == "random" else [FugitiveHeuristic(), BeliefDetective()]
    )
    rng = random.Random(seed)
    states = []
    game_seed = seed
    while len(states) < count:
        full = gamelib.play(game, agents, seed=game_seed)
        game_seed += 1
        cut = rng.randrange(len(full.history) + 1)
        state = gamelib.from_record({**full.to_record(), "actions": [str(a) for a in full.history[:cut]]})
        assert isinstance(state, FugitiveState)
        if state.phase != SETUP and state.hidden_positions():
            states.append(state)
    return states


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=1000)
    parser.add_argument("--players", choices=("random", "agents"), default="random")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    states = sample_states(args.states, args.players, args.seed)
    main_times, where_times, worlds = [], [], []
    for state in states:
        analysis.clear_caches()
        start = time.perf_counter()
        b = analysis.belief(state)
        main_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        b.sprint_prob  # noqa: B018 - forces the card-location probabilities
        where_times.append(time.perf_counter() - start)
        worlds.append(b.worlds)
    ms = 1e3
    print(f"Fugitive exact belief over {len(states)} mid-game states ({args.players} play)")
    print(
        f"  belief (positions, hideouts): median {statistics.median(main_times) * ms:.2f} ms   "
        f"p90 {percentile(main_times, 0.9) * ms:.2f} ms   max {max(main_times) * ms:.1f} ms"
    )
    print(
        f"  + card locations (sprint/hand/deck): median {statistics.median(where_times) * ms:.2f} ms   "
        f"p90 {percentile(where_times, 0.9) * ms:.2f} ms   max {max(where_times) * ms:.1f} ms"
    )
    print(f"  consistent worlds: median {statistics.median(worlds):.3g}, max {max(worlds):.3g}")


if __name__ == "__main__":
    main()
