"""Notebook 03's stored experiments (notebooks/data/delanopolis_*.csv) are what their command computes.

Each file says how it was made (``python notebooks/data/delanopolis_experiments.py NAME``), with its
parameters and the gamelib version.  A small slice of each (the first games of every configuration,
same seeds) is recomputed here and must equal the stored rows exactly.  If the Delanopolis engine or
its agents change what is played, this fails: run the command again and re-execute the notebook.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gamelib.analysis.stored import load, verify

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from stored_support import DATA, experiments_script

pytest.importorskip("pandas")

experiments = experiments_script("delanopolis_experiments.py")
NAMES = list(experiments.EXPERIMENTS)


@pytest.mark.parametrize("name", NAMES)
def test_the_recomputed_slice_covers_every_configuration(name):
    """The slice is a prefix of each configuration, not of the file (tests/test_notebook_data.py
    checks that it recomputes exactly)."""
    fresh = verify(name, experiments.EXPERIMENTS[name], DATA, **experiments.SLICES[name])
    stored = load(name, DATA)
    keys = [
        c
        for c in stored.columns
        if c not in ("game", "seed", "mayor", "outcome", "mayor_wins", "mayor_terrains", "actions")
    ]
    assert len(fresh.drop_duplicates(keys)) == len(stored.drop_duplicates(keys))


def test_the_rows_follow_outcome_rates():
    """A configuration's rows count what analysis.outcome_rates counts (same seeds, same agents)."""
    from gamelib.delanopolis.agents import RoleAgent
    from gamelib.delanopolis.analysis import outcome_rates

    rows = experiments.game_rows(4, {}, [RoleAgent()] * 4, games=6, seed=0)
    rates = outcome_rates(4, {}, agents=[RoleAgent()] * 4, games=6, seed=0)
    assert sum(r["mayor_wins"] for r in rows) / 6 == rates.mayor_wins
    assert sum(r["outcome"] == "president" for r in rows) / 6 == rates.president
    assert sum(r["mayor_terrains"] for r in rows) / 6 == rates.mean_mayor_terrains


def test_the_notebook_loads_every_stored_experiment():
    source = (DATA.parent / "03_delanopolis.ipynb").read_text(encoding="utf-8")
    assert "RECOMPUTE = False" in source
    for name, compute in experiments.EXPERIMENTS.items():
        short = name.removeprefix("delanopolis_")
        assert f'stored(\\"{short}\\", \\"{compute.__name__}\\")' in source, name
