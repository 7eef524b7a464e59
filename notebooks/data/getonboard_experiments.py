"""The stored experiments of notebook 04 (Get on Board): compute them once, save them next to this file.

Each experiment is a function returning a DataFrame, one row per game and seat (the columns of
``gamelib.getonboard.analysis.score_breakdowns`` plus a key column); its keyword defaults are the
stored size and seeds.  Game ``g`` is played on seed ``seed + g`` with the seats rotated by ``g``,
so fewer games give a prefix of the same games (what ``tests/getonboard/test_notebook_data_04.py``
recomputes and compares).  The notebook loads the CSV files with
``gamelib.analysis.stored.experiment(name, "getonboard_experiments:function", recompute=RECOMPUTE)``.

    python notebooks/data/getonboard_experiments.py --list      # names and stored sizes
    python notebooks/data/getonboard_experiments.py             # all of them (about 8 min on 2 quiet cores)
    python notebooks/data/getonboard_experiments.py getonboard_fluid
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

import gamelib  # noqa: E402
from gamelib.analysis.progress import progress_bar  # noqa: E402


def breakdown_rows(
    game: Any, agents: Sequence[Any], games: int, seed: int, progress: bool = False, desc: str = ""
) -> list[dict[str, Any]]:
    """``analysis.score_breakdowns`` (same seeds, same seat rotation), one game at a time with a bar."""
    from gamelib.getonboard.analysis import score_breakdowns

    n = game.num_players
    names = [getattr(a, "name", type(a).__name__) for a in agents]
    bar = progress_bar(progress, games, desc or "games")
    rows: list[dict[str, Any]] = []
    for g in range(games):
        # score_breakdowns rotates seats by g % n: rotate the agents the same way and play seed + g
        shift = g % n
        seated = [agents[(i + shift) % n] for i in range(n)]
        labels = [names[(i + shift) % n] for i in range(n)]
        for row in score_breakdowns(game, seated, games=1, seed=seed + g, names=labels):
            row["game"] = g
            rows.append(row)
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    return rows


def field(games: int = 300, seed: int = 0, progress: bool = True) -> Any:
    """3-player Rome, planner + greedy + random, seats rotating, under both values of ``loops``."""
    import pandas as pd

    from gamelib.agents import RandomAgent
    from gamelib.getonboard.agents import GreedyAgent, PlannerAgent

    rows = []
    for loops in ("allowed", "forced-only"):
        game = gamelib.make("getonboard", players=3, city="rome", options={"loops": loops})
        agents = [PlannerAgent(), GreedyAgent(), RandomAgent()]
        for row in breakdown_rows(game, agents, games, seed, progress, f"loops={loops}"):
            rows.append({"loops": loops, **row})
    return pd.DataFrame(rows)


def duel(
    games: int = 200, mcts_games: int = 40, mcts_iterations: int = 100, seed: int = 0, progress: bool = True
) -> Any:
    """2-player Rome: lookahead vs planner (``games``), UCT vs planner (``mcts_games``), seats swapped."""
    import pandas as pd

    from gamelib.getonboard.agents import LookaheadAgent, PlannerAgent, ticket_mcts

    game = gamelib.make("getonboard", players=2, city="rome")
    rows = []
    plan = [
        ("lookahead", [LookaheadAgent(), PlannerAgent()], games),
        ("mcts", [ticket_mcts(iterations=mcts_iterations, rollout_rounds=1), PlannerAgent()], mcts_games),
    ]
    for challenger, agents, count in plan:
        for row in breakdown_rows(game, agents, count, seed, progress, f"{challenger} vs planner"):
            rows.append({"challenger": challenger, **row})
    return pd.DataFrame(rows)


def fluid(games: int = 200, seed: int = 0, progress: bool = True) -> Any:
    """3 planners in Rome under both values of ``fluid_bonus`` (same seeds: paired games)."""
    import pandas as pd

    from gamelib.getonboard.agents import PlannerAgent

    rows = []
    for bonus in ("with-transfer", "always"):
        game = gamelib.make("getonboard", players=3, city="rome", options={"fluid_bonus": bonus})
        for row in breakdown_rows(game, [PlannerAgent()] * 3, games, seed, progress, f"fluid_bonus={bonus}"):
            rows.append({"fluid_bonus": bonus, **row})
    return pd.DataFrame(rows)


EXPERIMENTS: dict[str, Callable[..., Any]] = {
    "getonboard_field": field,
    "getonboard_duel": duel,
    "getonboard_fluid": fluid,
}

SLICES: dict[str, dict[str, Any]] = {
    "getonboard_field": {"games": 3},
    "getonboard_duel": {"games": 2, "mcts_games": 1},
    "getonboard_fluid": {"games": 2},
}
"""Smaller parameters for the exact-recomputation test (a prefix of the stored games)."""


def command(name: str) -> str:
    return f"python notebooks/data/getonboard_experiments.py {name}"


def main(argv: list[str] | None = None) -> int:
    from gamelib.analysis.stored import command_line

    return command_line(EXPERIMENTS, HERE, command, description=__doc__, argv=argv)


if __name__ == "__main__":
    raise SystemExit(main())
