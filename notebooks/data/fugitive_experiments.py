"""The stored experiment of notebook 01 (Fugitive): compute it once, save it next to this file.

``pairings`` plays the four pairings of a random or heuristic fugitive against a random or belief
detective, ``games`` games each, game ``g`` on seed ``seed + g`` (so fewer games give a prefix of
the same games: what ``tests/fugitive/test_notebook_data_01.py`` recomputes and compares).  One row
per game: the pairing, the game number, its seed, the winner (0 fugitive, 1 detective, -1 a draw),
how it ended (``state.ended_by``: escape, manhunt-miss, caught, or max_rounds, the engine's limit)
and the number of actions.  The notebook loads it with ``gamelib.analysis.stored.experiment(
"01_pairings", "fugitive_experiments:pairings", recompute=RECOMPUTE, folder="data")``.

    python notebooks/data/fugitive_experiments.py      # about 1-2 minutes on 2 quiet cores
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

import gamelib  # noqa: E402
from gamelib.analysis.progress import progress_bar  # noqa: E402

COMMAND = "python notebooks/data/fugitive_experiments.py"
PAIRINGS = ("random vs random", "heuristic vs random", "random vs belief", "heuristic vs belief")
"""Fugitive agent vs detective agent, in the order the notebook plots them."""


def agents_of(pairing: str) -> list[Any]:
    from gamelib.agents import RandomAgent
    from gamelib.fugitive.agents import BeliefDetective, FugitiveHeuristic

    fugitive, _, detective = pairing.partition(" vs ")
    return [
        FugitiveHeuristic() if fugitive == "heuristic" else RandomAgent(),
        BeliefDetective() if detective == "belief" else RandomAgent(),
    ]


OPTIONS = {"refuse_known_numbers": True}
"""Pinned: a random detective that may name numbers it holds or sees face up (the text's default)
wastes most late guesses, and three random-vs-random games in four then run into the engine's
round limit.  The belief detective never names a known number, so the option changes nothing for it."""


def pairings(games: int = 250, seed: int = 1, progress: bool = True) -> Any:
    """``games`` games per pairing, rules version 2 with :data:`OPTIONS` pinned."""
    import pandas as pd

    game = gamelib.make("fugitive", options=OPTIONS)
    bar = progress_bar(progress, games * len(PAIRINGS), "pairings")
    rows = []
    for pairing in PAIRINGS:
        agents = agents_of(pairing)
        for g in range(games):
            state = gamelib.play(game, agents, seed=seed + g)
            rows.append(
                {
                    "pairing": pairing,
                    "game": g,
                    "seed": seed + g,
                    "winner": state.winner,
                    "ended_by": state.ended_by,
                    "actions": len(state.history),
                }
            )
            if bar is not None:
                bar.update(1)
    if bar is not None:
        bar.close()
    return pd.DataFrame(rows)


if __name__ == "__main__":
    from gamelib.analysis.stored import experiment

    frame = experiment("01_pairings", pairings, recompute=True, folder=HERE, command=COMMAND)
    print(f"{len(frame)} games written to {HERE / '01_pairings.csv'}")
