"""The notebooks' stored experiments (notebooks/data/) are what their command computes.

Every experiments script (``benchmarks/notebook_data.py`` for the strategy lab, and
``notebooks/data/<game>_experiments.py``) lists ``EXPERIMENTS`` (name -> compute function),
``SLICES`` (smaller parameters for an exact recomputation) and ``command(name)``.  Each stored
file says how it was made (its command, parameters and the gamelib version); here a small slice
of every one (the first few games, on the same seeds) is recomputed and must equal the stored
rows exactly.  The game folders' ``test_notebook_data_*.py`` check what is particular to each.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

from benchmarks import notebook_data
from gamelib.analysis.stored import verify

sys.path.insert(0, str(Path(__file__).resolve().parent))
from stored_support import DATA, check_every_experiment_is_stored, check_provenance, experiments_script

pytest.importorskip("pandas")

SCRIPTS: dict[str, tuple[ModuleType, tuple[str, ...]]] = {
    "strategy_lab": (notebook_data, ("00_", "05_")),
    **{
        game: (experiments_script(f"{game}_experiments.py"), (f"{game}_",))
        for game in ("passante", "delanopolis", "getonboard")
    },
    "start": (experiments_script("start_experiments.py"), ("start_",)),
    "lab": (experiments_script("lab_experiments.py"), ("lab_",)),
}
"""Each script and the prefix of its stored files (Fugitive's one experiment is tested in
tests/fugitive/test_notebook_data_01.py; notebook 00's game lengths are start_experiments.py's)."""
CASES = [(script, name) for script, (module, _) in SCRIPTS.items() for name in module.EXPERIMENTS]


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_experiment_has_a_slice_and_a_stored_file(script: str) -> None:
    module, prefix = SCRIPTS[script]
    check_every_experiment_is_stored(module, prefix)


@pytest.mark.parametrize(("script", "name"), CASES, ids=[name for _, name in CASES])
def test_provenance_names_the_command_and_the_stored_parameters(script: str, name: str) -> None:
    check_provenance(SCRIPTS[script][0], name)


@pytest.mark.parametrize(("script", "name"), CASES, ids=[name for _, name in CASES])
def test_a_slice_recomputes_exactly(script: str, name: str) -> None:
    module = SCRIPTS[script][0]
    fresh = verify(name, module.EXPERIMENTS[name], DATA, **module.SLICES[name])
    assert len(fresh) > 0
