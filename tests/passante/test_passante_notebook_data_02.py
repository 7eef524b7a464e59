"""Notebook 02's stored experiments (notebooks/data/passante_*.csv) are what their command computes.

Each file says how it was made (``python notebooks/data/passante_experiments.py NAME``), with its
parameters and the gamelib version.  A small slice of each (the first games, same seeds) is recomputed
here and must equal the stored rows exactly.  If the A Une Passante engine or its agents change what
is played, this fails: run the command again and re-execute the notebook.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gamelib.analysis.stored import load

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from stored_support import DATA, experiments_script

pytest.importorskip("pandas")

experiments = experiments_script("passante_experiments.py")
NAMES = list(experiments.EXPERIMENTS)


def test_one_row_per_game_and_setting():
    """Cooperative: one shared score per game; every setting plays the same seeds (paired games)."""
    scores = load("passante_scores", DATA)
    assert (scores.groupby(["players", "team"]).size() == 200).all()
    talk = load("passante_talk", DATA)
    assert set(talk.communication) == set(experiments.TALK)
    seeds = talk.groupby(["players", "communication"])["seed"].apply(tuple)
    assert len(set(seeds)) == 1
    assert talk.score.between(0, 38).all() and scores.score.between(0, 38).all()


def test_the_rows_follow_score_distribution():
    """The stored games are analysis.score_distribution's games: same seeds, same teams."""
    from gamelib.passante.agents import WishSeekerAgent
    from gamelib.passante.analysis import score_distribution

    expected = score_distribution(players=(2,), agents={"seeker": WishSeekerAgent}, games=2, seed=0)
    assert experiments.team_scores(2, WishSeekerAgent, games=2, seed=0) == expected[(2, "seeker")]
