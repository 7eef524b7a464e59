"""The notebooks' stored experiments (notebooks/data/) are what their command computes.

Each stored file says how it was made (``python benchmarks/notebook_data.py NAME``, its parameters,
the gamelib version).  Here a small slice of every one (the first few games, on the same seeds) is
recomputed and must equal the stored rows exactly; same seeds, same games.
"""

from __future__ import annotations

import pytest

import gamelib
from benchmarks import notebook_data
from gamelib.analysis.stored import default_params, load, path_of, verify

pytest.importorskip("pandas")

NAMES = list(notebook_data.EXPERIMENTS)


def test_every_experiment_has_a_slice_and_a_stored_file():
    assert set(notebook_data.SLICES) == set(NAMES)
    for name in NAMES:
        assert path_of(name, notebook_data.DATA).exists(), f"run: {notebook_data.command(name)}"


@pytest.mark.parametrize("name", NAMES)
def test_provenance_names_the_command_and_the_stored_parameters(name):
    meta = load(name, notebook_data.DATA).attrs["provenance"]
    assert meta["command"] == notebook_data.command(name)
    assert meta["gamelib"] == gamelib.__version__
    defaults = default_params(notebook_data.EXPERIMENTS[name])
    # JSON keeps lists, not tuples
    assert meta["params"] == {k: list(v) if isinstance(v, tuple) else v for k, v in defaults.items()}


@pytest.mark.parametrize("name", NAMES)
def test_a_slice_recomputes_exactly(name):
    fresh = verify(name, notebook_data.EXPERIMENTS[name], notebook_data.DATA, **notebook_data.SLICES[name])
    assert len(fresh) > 0
