"""Search speed: MCTS and IS-MCTS iterations per second on every registered game.

An iteration is one descent, one expansion, one random rollout to the end of the game and one
backup, so the figure is dominated by the game's random-play speed and its length.  IS-MCTS
adds one ``determinize`` per iteration.  Measured from a few positions after a random opening.

Run: ``python benchmarks/mcts.py [iterations]`` (default 300 per move).
"""

from __future__ import annotations

import os
import random
import sys
import time

import gamelib
from gamelib.agents import ISMCTSAgent, MCTSAgent
from gamelib.core.play import random_playout


def positions(game: gamelib.Game, count: int) -> list[gamelib.State]:
    found: list[gamelib.State] = []
    seed = 0
    while len(found) < count and seed < 50 * count:
        rng = random.Random(seed)
        state = random_playout(game.new_game(seed=seed), rng, max_actions=rng.randrange(5, 40))
        if not state.is_terminal() and state.current_player >= 0 and len(state.legal_actions()) > 1:
            found.append(state)
        seed += 1
    return found


def rate(agent: object, states: list[gamelib.State], iterations: int) -> str:
    start = time.perf_counter()
    try:
        for i, state in enumerate(states):
            agent.analyse(state, state.current_player, random.Random(i))  # type: ignore[attr-defined]
    except Exception as exc:  # a game whose determinize is not there yet, say
        return f"n/a ({type(exc).__name__})"
    return f"{iterations * len(states) / (time.perf_counter() - start):.0f}"


def main() -> None:
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"search iterations/s ({iterations} iterations per move, 5 positions per game, load {load:.1f})")
    print(f"{'game':<18}{'MCTS it/s':>16}{'IS-MCTS it/s':>16}{'mean rollout length':>22}")
    configurations = [(name, name, {}) for name in gamelib.registered_games()]
    # Fugitive under the text lets a random detective name numbers it already knows, so random
    # rollouts wander to the round limit; the agents' reading (version 1 rules) for comparison
    configurations.append(
        ("fugitive v1 rules", "fugitive", {"refuse_known_numbers": True, "manhunt": "immediate"})
    )
    for label, name, options in configurations:
        game = gamelib.make(name, options=options)
        states = positions(game, 5)
        mcts = MCTSAgent(iterations=iterations, omniscient=not game.info.perfect_information)
        ismcts = ISMCTSAgent(iterations=iterations)
        lengths = [len(random_playout(game.new_game(seed=s), random.Random(s)).history) for s in range(20)]
        print(
            f"{label:<18}{rate(mcts, states, iterations):>16}{rate(ismcts, states, iterations):>16}"
            f"{sum(lengths) / len(lengths):>22.0f}"
        )


if __name__ == "__main__":
    main()
