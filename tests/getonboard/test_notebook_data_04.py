"""Notebook 04's stored experiments (notebooks/data/getonboard_*.csv) are what their command computes.

Each file says how it was made (``python notebooks/data/getonboard_experiments.py NAME``), with its
parameters and the gamelib version.  A small slice of each (the first games, same seeds, same seat
rotation) is recomputed here and must equal the stored rows exactly.  If the Get on Board engine
changes what agents play, this fails: run the command again and re-execute the notebook.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import gamelib

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from stored_support import experiments_script

pytest.importorskip("pandas")

experiments = experiments_script("getonboard_experiments.py")
NAMES = list(experiments.EXPERIMENTS)


def test_the_rows_follow_score_breakdowns():
    """The stored rows are analysis.score_breakdowns' rows: same seeds, same seat rotation."""
    from gamelib.agents import RandomAgent
    from gamelib.getonboard.agents import GreedyAgent, PlannerAgent
    from gamelib.getonboard.analysis import score_breakdowns

    game = gamelib.make("getonboard", players=3, city="rome", options={"loops": "allowed"})
    agents = [PlannerAgent(), GreedyAgent(), RandomAgent()]
    assert experiments.breakdown_rows(game, agents, games=3, seed=0) == score_breakdowns(
        game, agents, games=3, seed=0
    )
