"""What every test of a notebook's stored experiments checks (notebooks/data/<game>_experiments.py).

Each script lists ``EXPERIMENTS`` (name -> compute function), ``SLICES`` (smaller parameters for an
exact recomputation) and ``command(name)`` (the command stored as the file's provenance).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import gamelib
from gamelib.analysis.stored import default_params, load, path_of

DATA = Path(__file__).resolve().parents[1] / "notebooks" / "data"


def experiments_script(filename: str) -> ModuleType:
    """The experiments script ``notebooks/data/<filename>`` as a module (it is not a package)."""
    spec = importlib.util.spec_from_file_location(Path(filename).stem, DATA / filename)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_every_experiment_is_stored(experiments: ModuleType, prefix: str | tuple[str, ...]) -> None:
    names = list(experiments.EXPERIMENTS)
    assert set(experiments.SLICES) == set(names)
    for name in names:
        assert name.startswith(prefix)
        assert path_of(name, DATA).exists(), f"run: {experiments.command(name)}"


def check_provenance(experiments: ModuleType, name: str) -> None:
    """The stored file names its command, this gamelib and the parameters the script stores with."""
    meta = load(name, DATA).attrs["provenance"]
    assert meta["command"] == experiments.command(name)
    assert meta["gamelib"] == gamelib.__version__
    # tuples are stored as JSON lists
    assert meta["params"] == json.loads(json.dumps(default_params(experiments.EXPERIMENTS[name])))
