"""Search speed: MCTS and IS-MCTS iterations per second on every registered game.

An iteration is one descent, one expansion, one rollout to the end of the game and one backup,
so the figure is dominated by the game's play speed and the rollouts' length.  By default
rollouts follow the game's declared policy (Fugitive: ``random_single_guess``, which ends games
the way players do); the uniform rollouts (``rollout="random"``) are measured beside them in the
same run.  IS-MCTS adds one ``determinize`` per iteration.  Measured from a few positions after
a random opening, in CPU time.

Then the **one-step agents on Fugitive**, per detective move in CPU time: the generic
``GreedyAgent`` (8 sampled worlds, carried over the steps it saw) against the
``BeliefDetective`` (one exact count a position), each as detective against the heuristic fugitive
on the same seeds, games interleaved; also at the *same* positions (the belief detective's own),
where each decision starts cold (a fresh agent, no carried worlds; the belief caches kept as in
play).

Each cell is the median of a few runs (default 3) of the same searches, interleaved with the
game's other cells: the searches repeat exactly (seeded), so the runs differ by the machine alone
(on the shared 2-vCPU machine one run of a cell varied by 20-40% a minute apart); the runs are
printed under the table.

Run: ``python benchmarks/mcts.py [iterations] [games] [repeats] [only]`` (default 300 per move, 10 games,
3 runs a cell); ``only``: the rows to measure, comma-separated labels (``passante``,
``"fugitive,fugitive v1 rules"``), and then no one-step agents.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from typing import Any

import gamelib
from gamelib.agents import GreedyAgent, ISMCTSAgent, MCTSAgent
from gamelib.core.play import play, random_playout
from gamelib.fugitive.agents import BeliefDetective, FugitiveHeuristic


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
    """Iterations per second of CPU time (the machine is shared: wall time would measure the others)."""
    start = time.process_time()
    try:
        for i, state in enumerate(states):
            agent.analyse(state, state.current_player, random.Random(i))  # type: ignore[attr-defined]
    except Exception as exc:  # a game whose determinize is not there yet, say
        return f"n/a ({type(exc).__name__})"
    return f"{iterations * len(states) / (time.process_time() - start):.0f}"


def median_rate(runs: list[str]) -> str:
    """The median of a cell's runs (the same searches each time: they differ by the machine alone)."""
    numbers = [float(r) for r in runs if not r.startswith("n/a")]
    return f"{statistics.median(numbers):.0f}" if len(numbers) == len(runs) else runs[0]


def rollout_length(game: gamelib.Game, agent: object, seeds: int = 20) -> float:
    """Mean number of actions of a rollout from the start with this agent's rollout policy."""
    policy = agent.rollout_policy(game)  # type: ignore[attr-defined]
    total = 0
    for s in range(seeds):
        state, rng = game.new_game(seed=s), random.Random(s)
        while not state.is_terminal():
            if state.current_player == gamelib.CHANCE:
                state.apply(state.sample_chance(rng))
            elif policy is None:
                state.apply(rng.choice(state.legal_actions()))
            else:
                state.apply(policy.act(state, state.current_player, rng))
        total += len(state.history)
    return total / seeds


def main() -> None:
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"search iterations per CPU second ({iterations} iterations per move, 5 positions per game, "
        f"load {load:.1f}); default rollouts (the game's ROLLOUT_AGENT) and uniform ones (rollout='random'); "
        f"each cell the median of {repeats} runs, the cells of a game interleaved (the runs: below)"
    )
    print(
        f"{'game':<18}{'MCTS':>8}{'uniform':>9}{'IS-MCTS':>9}{'uniform':>9}"
        f"{'rollout length':>16}{'uniform':>9}"
    )
    configurations: list[tuple[str, str, dict[str, Any]]] = [
        (name, name, {}) for name in gamelib.registered_games()
    ]
    # Fugitive's version-1 readings (refuse_known_numbers, immediate manhunt), for comparison
    configurations.append(
        ("fugitive v1 rules", "fugitive", {"refuse_known_numbers": True, "manhunt": "immediate"})
    )
    only = sys.argv[4].split(",") if len(sys.argv) > 4 else None
    spreads = []
    for label, name, options in configurations:
        if only is not None and label not in only:
            continue
        game = gamelib.make(name, options=options)
        states = positions(game, 5)
        omniscient = not game.info.perfect_information
        searches: list[tuple[type[MCTSAgent] | type[ISMCTSAgent], dict[str, Any]]] = [
            (MCTSAgent, {"omniscient": omniscient}),
            (ISMCTSAgent, {}),
        ]
        agents = [
            cls(iterations=iterations, rollout=rollout, **extra)
            for cls, extra in searches
            for rollout in ("game", "random")
        ]
        runs: list[list[str]] = [[] for _ in agents]
        for _ in range(repeats):  # interleaved: the same load for every cell
            for agent, cell in zip(agents, runs, strict=True):
                cell.append(rate(agent, states, iterations))
        cells = [median_rate(cell) for cell in runs]
        lengths = [rollout_length(game, agent) for agent in agents[:2]]
        print(
            f"{label:<18}{cells[0]:>8}{cells[1]:>9}{cells[2]:>9}{cells[3]:>9}"
            f"{lengths[0]:>16.0f}{lengths[1]:>9.0f}"
        )
        spreads.append(f"{label:<18}" + " | ".join(" ".join(cell) for cell in runs))
    print("\nthe runs of each cell (MCTS | uniform | IS-MCTS | uniform; a game without a ROLLOUT_AGENT")
    print("plays uniform rollouts in both columns: two measures of one search)")
    print("\n".join(spreads))


class Timed:
    """An agent that records the CPU time of each of its decisions (and, optionally, the states)."""

    def __init__(self, agent: Any, keep: bool = False) -> None:
        self.agent, self.keep = agent, keep
        self.seconds: list[float] = []
        self.states: list[gamelib.State] = []

    def act(self, state: gamelib.State, player: int, rng: random.Random) -> gamelib.Action:
        if self.keep:
            self.states.append(state.clone())
        start = time.process_time()
        action = self.agent.act(state, player, rng)
        self.seconds.append(time.process_time() - start)
        return action  # type: ignore[no-any-return]


def ms(seconds: list[float]) -> str:
    values = [1000 * s for s in seconds]
    return (
        f"{statistics.mean(values):>9.2f}{statistics.median(values):>9.2f}{max(values):>9.1f}{len(values):>8}"
    )


def one_step_agents(games: int) -> None:
    """Greedy against the belief detective on Fugitive, per detective move (CPU ms)."""
    game = gamelib.make("fugitive")
    greedy, belief = Timed(GreedyAgent()), Timed(BeliefDetective(), keep=True)
    for seed in range(games):  # interleaved: the same load for both
        for detective in (greedy, belief):
            play(game, [FugitiveHeuristic(), detective], seed=seed)
    same = Timed(GreedyAgent())
    for i, state in enumerate(belief.states):
        same.agent = GreedyAgent()  # cold: nothing carried over from another position
        same.act(state, state.current_player, random.Random(i))
    print(f"\nFugitive one-step detectives vs the heuristic fugitive, {games} games, CPU ms per move")
    print(f"{'':<44}{'mean':>9}{'median':>9}{'max':>9}{'moves':>8}")
    print(f"{'greedy (8 worlds), its own games':<44}{ms(greedy.seconds)}")
    print(f"{'belief detective, its own games':<44}{ms(belief.seconds)}")
    print(f"{'greedy, cold, at the belief detective moves':<44}{ms(same.seconds)}")


if __name__ == "__main__":
    main()
    if len(sys.argv) <= 4:
        one_step_agents(int(sys.argv[2]) if len(sys.argv) > 2 else 10)
