"""Stored experiments of notebook 05 (strategy lab) that need Fugitive players whose games finish.

Uniform random play does not end a Fugitive game the way players do: a random detective names
numbers he holds and builds series that always miss, so most random-vs-random games are stopped by
the engine's round limit and end unfinished (not a draw: no rule ends them, and they prove nothing
about who would have won).  These experiments seat Fugitive's baseline ``random_single_guess``
(uniformly random, but one unseen number a turn: every game ends by the rules) where the strategy
lab used uniform random play; the other games' experiments stay in ``benchmarks/notebook_data.py``.

    python notebooks/data/lab_experiments.py      # about a minute on 2 quiet cores
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
from gamelib.analysis.stored import results_frame  # noqa: E402

BASELINE = "random_single_guess"
"""Fugitive's baseline player: random moves, one unseen number a turn (gamelib.fugitive.agents)."""


def lab_fugitive_editions(games: int = 1000, seed: int = 5, progress: bool = True) -> Any:
    """Edition 1 against edition 2, two baseline players, the same seeds (``gamelib.sweep``)."""
    swept = gamelib.sweep(
        "fugitive",
        option="edition",
        values=[1, 2],
        agents=[BASELINE, BASELINE],
        games=games,
        seed=seed,
        progress=progress,
    )
    return results_frame(dict(zip(swept.values, swept.results, strict=True)), key="edition")


EXPERIMENTS: dict[str, Callable[..., Any]] = {"lab_fugitive_editions": lab_fugitive_editions}
SLICES: dict[str, dict[str, Any]] = {"lab_fugitive_editions": {"games": 3}}
"""Smaller parameters for the exact-recomputation test (a prefix of the stored games)."""


def command(name: str) -> str:
    return f"python notebooks/data/lab_experiments.py {name}"


def main(argv: list[str] | None = None) -> int:
    from gamelib.analysis.stored import command_line

    return command_line(EXPERIMENTS, HERE, command, description=__doc__, argv=argv)


if __name__ == "__main__":
    raise SystemExit(main())
