"""The stored experiment of notebook 00 (start here): how long a game lasts, for every game.

``lengths`` plays ``games`` games of every registered game between *baseline* players: for each
game the agent its search rollouts follow (``gamelib.agents.registry.rollout_agent_for``), uniform
random play otherwise.  Uniform random play does not end a Fugitive game the way players do (a
random detective names numbers he holds and builds twenty-number series that always miss, so most
games hit the engine's round limit and end unfinished); the Fugitive baseline
``random_single_guess`` names one unseen number a turn and ends every game.  One row per game: the
game, the seed, the baseline's name, the number of actions (chance included) and whether the game
finished by the rules (``finished``; a game a safety limit stops is unfinished, never a draw).

    python notebooks/data/start_experiments.py      # a few seconds
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

import gamelib  # noqa: E402
from gamelib.analysis.progress import progress_bar  # noqa: E402


def baseline(game: Any) -> Any:
    """The game's baseline player: its rollout agent if it declares one, else uniform random."""
    from gamelib.agents import RandomAgent
    from gamelib.agents.registry import rollout_agent_for

    return rollout_agent_for(game) or RandomAgent()


def finished_by_the_rules(state: Any) -> bool:
    """False for a game a safety limit stopped (Fugitive's ``max_rounds``), True otherwise."""
    return bool(state.is_terminal()) and getattr(state, "ended_by", None) != "max_rounds"


def lengths(games: int = 40, seed: int = 0, progress: bool = True) -> Any:
    """Actions per game (chance included) of baseline players, seeds ``seed .. seed + games - 1``."""
    import pandas as pd

    names = gamelib.registered_games()
    bar = progress_bar(progress, games * len(names), "lengths")
    rows = []
    for name in names:
        game = gamelib.make(name)
        agent = baseline(game)
        label = getattr(agent, "name", type(agent).__name__)
        for g in range(games):
            final = gamelib.play(game, [agent] * game.num_players, seed=seed + g)
            rows.append(
                {
                    "game_name": name,
                    "seed": seed + g,
                    "agent": label,
                    "length": len(final.history),
                    "finished": finished_by_the_rules(final),
                }
            )
            if bar is not None:
                bar.update(1)
    if bar is not None:
        bar.close()
    return pd.DataFrame(rows)


EXPERIMENTS: dict[str, Callable[..., Any]] = {"start_lengths": lengths}
SLICES: dict[str, dict[str, Any]] = {"start_lengths": {"games": 2}}
"""Smaller parameters for the exact-recomputation test (a prefix of the stored games)."""


def command(name: str) -> str:
    return f"python notebooks/data/start_experiments.py {name}"


def main(argv: list[str] | None = None) -> int:
    from gamelib.analysis.stored import command_line

    return command_line(EXPERIMENTS, HERE, command, description=__doc__, argv=argv)


if __name__ == "__main__":
    raise SystemExit(main())
