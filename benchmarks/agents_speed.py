"""One-step detectives on Fugitive: the generic greedy agent beside the belief detective, per move.

The measurement (issue 24, goal 3: "the generic greedy agent on Fugitive no slower than the belief
detective per move"):

* the game: Fugitive with the text's defaults (``gamelib.make("fugitive")``), seeds ``0..N-1``;
* the fugitive: :class:`~gamelib.fugitive.agents.FugitiveHeuristic` in every game;
* the detective: ``GreedyAgent()`` (default options; other specs with ``--greedy``) in one game
  and ``BeliefDetective()`` in the same seed's other game, the games of a seed played one after
  the other (interleaved: the same machine load for all);
* every game starts with cold belief caches (``clear_caches()``, not timed), so neither agent
  profits from positions the other counted;
* a *move* is one call of the detective's ``act`` (every detective decision, the draws and the
  forced ones included), timed in CPU time (``time.process_time``: the machine is shared);
* printed: ms per move, mean, median, p90 and max, the moves timed and the detective's wins.

``--base PATH`` runs the same measurement with the library at ``PATH`` as well (a git worktree of
an earlier revision), in subprocesses alternating chunk by chunk with this tree's, and prints
both, so old and new are compared in one interleaved run.

``--search`` also prints the search goals of issue 24 (goal 3) in the same run: MCTS and IS-MCTS
iterations per CPU second on Fugitive and IS-MCTS on A Une Passante, default options (300
iterations a move from 5 positions after a random opening, as ``benchmarks/mcts.py``), for
this tree and, with ``--base``, the other one, alternating.

Run: ``python benchmarks/agents_speed.py [--games N] [--greedy SPEC ...] [--base PATH] [--chunk K] [--search]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()


class Timed:
    """An agent that records the CPU time of each of its decisions."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.seconds: list[float] = []

    def act(self, state: Any, player: int, rng: random.Random) -> Any:
        start = time.process_time()
        action = self.agent.act(state, player, rng)
        self.seconds.append(time.process_time() - start)
        return action


def measure(seeds: range, greedy: list[str]) -> dict[str, Any]:
    """The detectives over ``seeds``, interleaved: per agent the move times (s) and the wins.
    ``greedy``: the greedy agents' specs (``"greedy"``, ``"greedy(screen=8)"``)."""
    import gamelib
    from gamelib.agents import make_agent
    from gamelib.core.play import play
    from gamelib.fugitive.agents import BeliefDetective, FugitiveHeuristic
    from gamelib.fugitive.belief import clear_caches

    game = gamelib.make("fugitive")
    timed = {spec: Timed(make_agent(spec, "fugitive")) for spec in greedy}
    timed["belief"] = Timed(BeliefDetective())
    wins = dict.fromkeys(timed, 0)
    for seed in seeds:
        for name, detective in timed.items():
            clear_caches()
            state = play(game, [FugitiveHeuristic(), detective], seed=seed)
            wins[name] += state.returns()[1] > 0
    return {
        name: {"seconds": t.seconds, "wins": wins[name], "games": len(seeds)} for name, t in timed.items()
    }


SEARCHES = (("fugitive", "MCTS"), ("fugitive", "IS-MCTS"), ("passante", "IS-MCTS"))
"""The search goals: (game, agent), each at least 450 it/s on Fugitive and 1,600 on A Une Passante."""


def search_rates(iterations: int = 300, positions: int = 5) -> dict[str, float]:
    """Iterations per CPU second of each of :data:`SEARCHES` (default options)."""
    import gamelib
    from gamelib.agents import ISMCTSAgent, MCTSAgent
    from gamelib.core.play import random_playout

    rates: dict[str, float] = {}
    for name, kind in SEARCHES:
        game = gamelib.make(name)
        states: list[Any] = []
        seed = 0
        while len(states) < positions:
            rng = random.Random(seed)
            state = random_playout(game.new_game(seed=seed), rng, max_actions=rng.randrange(5, 40))
            if not state.is_terminal() and state.current_player >= 0 and len(state.legal_actions()) > 1:
                states.append(state)
            seed += 1
        if kind == "MCTS":
            agent: Any = MCTSAgent(iterations=iterations, omniscient=not game.info.perfect_information)
        else:
            agent = ISMCTSAgent(iterations=iterations)
        start = time.process_time()
        for i, state in enumerate(states):
            agent.analyse(state, state.current_player, random.Random(i))
        rates[f"{name} {kind}"] = iterations * len(states) / (time.process_time() - start)
    return rates


def row(label: str, result: dict[str, Any]) -> str:
    values = sorted(1000 * s for s in result["seconds"])
    p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
    return (
        f"{label:<32}{statistics.mean(values):>8.3f}{statistics.median(values):>8.3f}{p90:>8.3f}"
        f"{values[-1]:>8.1f}{len(values):>7}{result['wins']:>6}/{result['games']}"
    )


def header(games: int, extra: str = "") -> str:
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    return (
        f"Fugitive detectives vs FugitiveHeuristic, {games} games (seeds 0..{games - 1}), CPU ms per "
        f"detective move{extra}; load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}\n"
        f"{'':<32}{'mean':>8}{'median':>8}{'p90':>8}{'max':>8}{'moves':>7}{'wins':>9}"
    )


def child(first: int, count: int, library: str | None, greedy: list[str]) -> dict[str, Any]:
    """The measurement of seeds ``first..first+count-1`` in a fresh interpreter importing the
    library from ``library`` (None: this tree)."""
    env = dict(os.environ)
    root = library if library is not None else str(HERE.parent.parent)
    env["PYTHONPATH"] = root
    out = subprocess.run(
        [sys.executable, str(HERE), "--child", str(first), str(count), *(f"--greedy={g}" for g in greedy)],
        env=env,
        cwd="/tmp",
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def compare(games: int, base: str, chunk: int, greedy: list[str]) -> None:
    merged: dict[str, dict[str, Any]] = {}
    for first in range(0, games, chunk):
        count = min(chunk, games - first)
        for tree, library in (("new", None), ("base", base)):  # alternating: the same load
            for name, result in child(first, count, library, greedy).items():
                slot = merged.setdefault(f"{name} ({tree})", {"seconds": [], "wins": 0, "games": 0})
                slot["seconds"] += result["seconds"]
                slot["wins"] += result["wins"]
                slot["games"] += result["games"]
    print(header(games, f", this tree and {base} alternating by {chunk} games"))
    for label in merged:
        print(row(label, merged[label]))


def print_searches(trees: dict[str, str | None]) -> None:
    """The search rates of each tree (label: library path, None for this one), in fresh
    interpreters run one after the other."""
    results = {}
    for label, library in trees.items():
        env = dict(os.environ)
        env["PYTHONPATH"] = library if library is not None else str(HERE.parent.parent)
        out = subprocess.run(
            [sys.executable, str(HERE), "--child-search"],
            env=env,
            cwd="/tmp",
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        results[label] = json.loads(out.strip().splitlines()[-1])
    print("search it/s per CPU second (300 iterations a move, 5 positions; goals 450 / 450 / 1,600)")
    for label, rates in results.items():
        cells = "  ".join(f"{name} {value:.0f}" for name, value in rates.items())
        print(f"  {label:<8}{cells}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--base", help="a worktree of an earlier revision, measured alternately")
    parser.add_argument("--chunk", type=int, default=5, help="games per subprocess with --base")
    parser.add_argument(
        "--greedy", action="append", help='a greedy agent spec, repeatable (default "greedy")'
    )
    parser.add_argument("--search", action="store_true", help="also the MCTS / IS-MCTS it/s goals")
    parser.add_argument("--child", nargs=2, type=int, help=argparse.SUPPRESS)
    parser.add_argument("--child-search", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    greedy = args.greedy or ["greedy"]
    if args.child_search:
        print(json.dumps(search_rates()))
        return
    if args.search:
        trees: dict[str, str | None] = {"new": None, "base": args.base} if args.base else {"this": None}
        for _ in range(2 if args.base else 1):  # with a base: new, base, new, base
            print_searches(trees)
    if args.child:
        first, count = args.child
        print(json.dumps(measure(range(first, first + count), greedy)))
    elif args.base:
        compare(args.games, args.base, args.chunk, greedy)
    else:
        result = measure(range(args.games), greedy)
        print(header(args.games))
        for label, one in result.items():
            print(row(label, one))


if __name__ == "__main__":
    main()
