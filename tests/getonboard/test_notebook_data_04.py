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
from gamelib.analysis.stored import verify

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from stored_support import DATA, check_every_experiment_is_stored, check_provenance, experiments_script

pytest.importorskip("pandas")

experiments = experiments_script("getonboard_experiments.py")
NAMES = list(experiments.EXPERIMENTS)


def test_every_experiment_has_a_slice_and_a_stored_file():
    check_every_experiment_is_stored(experiments, "getonboard_")


@pytest.mark.parametrize("name", NAMES)
def test_provenance_names_the_command_and_the_stored_parameters(name):
    check_provenance(experiments, name)


@pytest.mark.parametrize("name", NAMES)
def test_a_slice_recomputes_exactly(name):
    fresh = verify(name, experiments.EXPERIMENTS[name], DATA, **experiments.SLICES[name])
    assert len(fresh) > 0


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
