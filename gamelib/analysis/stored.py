"""Stored experiments: play the games once, keep a small CSV with how it was made, load it next time.

A notebook that plays thousands of games cannot replay them each time it opens in front of a class.
:func:`experiment` loads the stored result when there is one and otherwise computes it, saves it and
returns it; ``recompute=True`` (a notebook's ``RECOMPUTE`` switch) plays everything again, live, with
the progress bars of the tournaments.  Same seeds give the same games, so a recomputation gives the
same rows, and :func:`verify` checks exactly that on a small slice (fewer games) in a test.

A stored experiment is a pandas DataFrame saved as ``<folder>/<name>.csv``.  The file starts with
comment lines holding its **provenance** as JSON: the command that made it, the parameters given to
the compute function (games, seeds, options...), the gamelib and Python versions, the date, the
seconds it took.  After a load it is in ``frame.attrs["provenance"]``; :func:`provenance_line` says
it in one sentence for a notebook.

For the game notebooks, the usual pattern (tournament rows in, TournamentResults out)::

    import gamelib
    from gamelib.analysis.stored import experiment, provenance_line, results_frame, split_results

    RECOMPUTE = False   # True: play every stored experiment again, live (minutes)

    def editions(games=1000, seed=5, progress=True):
        swept = gamelib.sweep("fugitive", option="edition", values=[1, 2],
                              agents=["random", "random"], games=games, seed=seed, progress=progress)
        return results_frame(dict(zip(swept.values, swept.results)), key="edition")

    frame = experiment("01_editions", editions, recompute=RECOMPUTE, folder="data")
    print(provenance_line(frame))
    by_edition = split_results(frame, lambda e: gamelib.make("fugitive", options={"edition": e}),
                               key="edition")          # {1: TournamentResults, 2: TournamentResults}
    by_edition[2].plot()

* ``compute(**params)`` must return a DataFrame; ``params`` (JSON-safe: ints, strings, lists...)
  are stored in the provenance.  If ``compute`` accepts ``progress``, it gets ``progress=True`` so
  a live run shows tqdm bars.  Write compute functions so that a smaller ``games`` gives a prefix of
  the same games (tournaments do: game ``i`` has the seed ``derive_seed(seed, i)``), then
  ``verify(name, compute, folder, games=4)`` recomputes 4 games and compares them with the stored rows.
* :func:`results_frame` turns tournaments (one, or a dict keyed by a contender, an option value...)
  into tidy rows, one per game and seat (``TournamentResults.rows()`` plus the key column);
  :func:`split_results` turns them back into :class:`TournamentResults`, so ``stats()``, ``plot()``
  and ``summary()`` work, and ``Comparison``, ``SweepResults`` and ``RoundRobin`` can be rebuilt
  around them.  Rebuilt results have agent *names*, not agents: to replay a game, run the tournament.
* Experiments are computed in English (``using_language("en")``), so the seat names in the rows
  ("player 1", "fugitive") do not depend on the language a notebook has switched to.
* Regenerate stored data from a script (``benchmarks/notebook_data.py`` for the strategy lab) and
  pass ``command=`` so the file says how to make it again.
"""

from __future__ import annotations

import inspect
import io
import json
import platform
import sys
import time
from collections.abc import Callable, Mapping
from datetime import date
from pathlib import Path
from typing import Any

from gamelib.analysis.executors import GameOutcome
from gamelib.analysis.tournament import TournamentResults, resolve_game
from gamelib.core.game import Game
from gamelib.core.i18n import using_language
from gamelib.core.resolve import resolve as resolve_path

MARKER = "# gamelib stored experiment: the next line is its provenance (JSON), then the CSV"
"""The first line of every stored experiment file."""


def path_of(name: str, folder: str | Path = ".") -> Path:
    """Where experiment ``name`` is stored: ``<folder>/<name>.csv``."""
    if not name or "/" in name or "\\" in name or name.startswith("."):
        raise ValueError(f"an experiment name is a plain file name without extension, got {name!r}")
    return Path(folder) / f"{name}.csv"


def experiment(
    name: str,
    compute: Callable[..., Any] | str,
    recompute: bool = False,
    *,
    folder: str | Path = ".",
    params: Mapping[str, Any] | None = None,
    command: str | None = None,
    save: bool = True,
    progress: bool = True,
) -> Any:
    """Load experiment ``name`` from ``folder``, or compute it with ``compute(**params)`` and save it.

    ``compute`` may be a function or its import path ``"package.module:function"``, imported only
    when the experiment is computed (a notebook then loads its data without the computing code).

    ``recompute=True`` computes even if a stored file exists (and overwrites it when ``save``).
    ``params`` default to the stored provenance's parameters when the file exists (so a recomputation
    repeats the stored experiment), else to ``compute``'s own defaults.  ``command``: how to make the
    file again, written into it (default: this call).  Returns a DataFrame whose
    ``attrs["provenance"]`` is the provenance dict.
    """
    path = path_of(name, folder)
    if not recompute and path.exists():
        return load(name, folder)
    compute = resolve(compute)
    if params is None:
        params = read_provenance(path).get("params", {}) if path.exists() else {}
    params = {**default_params(compute), **params}
    frame, seconds = _run(compute, params, progress)
    meta = {
        "name": name,
        "command": command or _default_command(name, compute, params),
        "params": dict(params),
        "gamelib": _gamelib_version(),
        "python": platform.python_version(),
        "created": date.today().isoformat(),
        "seconds": round(seconds, 1),
        "rows": len(frame),
    }
    if save:
        write(frame, path, meta)
    frame.attrs["provenance"] = meta
    return frame


def write(frame: Any, path: str | Path, provenance: Mapping[str, Any]) -> Path:
    """Save ``frame`` as CSV at ``path`` after the marker line and the provenance JSON line."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = f"{MARKER}\n# {json.dumps(dict(provenance), sort_keys=True)}\n" + frame.to_csv(index=False)
    path.write_text(text, encoding="utf-8")
    return path


def read_provenance(path: str | Path) -> dict[str, Any]:
    """The provenance dict stored at the top of a stored experiment file."""
    with open(path, encoding="utf-8") as handle:
        first, second = handle.readline().rstrip("\n"), handle.readline()
    if first != MARKER or not second.startswith("# "):
        raise ValueError(f"{path} is not a gamelib stored experiment (no provenance header)")
    meta: dict[str, Any] = json.loads(second[2:])
    return meta


def load(name: str, folder: str | Path = ".") -> Any:
    """The stored DataFrame of experiment ``name``, its provenance in ``attrs["provenance"]``."""
    path = path_of(name, folder)
    meta = read_provenance(path)
    frame = _read_csv(path.read_text(encoding="utf-8").split("\n", 2)[2])
    frame.attrs["provenance"] = meta
    return frame


def verify(name: str, compute: Callable[..., Any] | str, folder: str | Path = ".", **smaller: Any) -> Any:
    """Recompute a slice of stored experiment ``name`` and check it matches the stored rows exactly.

    The stored parameters are used, with ``smaller`` overriding some (``games=4``): every row of the
    recomputation must be a row of the stored file (after the same CSV round trip), column for column.
    Returns the recomputed frame; raises ``AssertionError`` naming the first differing row.
    """
    stored = load(name, folder)
    compute = resolve(compute)
    params = {**default_params(compute), **stored.attrs["provenance"].get("params", {}), **smaller}
    fresh, _ = _run(compute, params, progress=False)
    fresh = _read_csv(fresh.to_csv(index=False))
    if list(fresh.columns) != list(stored.columns):
        raise AssertionError(f"{name}: columns {list(fresh.columns)} != stored {list(stored.columns)}")
    if fresh.empty:
        raise AssertionError(f"{name}: the recomputation with {smaller} gave no rows")
    merged = fresh.merge(stored.drop_duplicates(), how="left", on=list(fresh.columns), indicator=True)
    missing = merged[merged["_merge"] != "both"]
    if len(missing):
        row = missing.drop(columns="_merge").iloc[0].to_dict()
        raise AssertionError(
            f"{name}: {len(missing)} of {len(fresh)} recomputed rows are not in the stored file, e.g. {row}"
        )
    return fresh


def provenance_line(frame: Any) -> str:
    """One sentence for a notebook: what the stored frame holds and how to make it again."""
    meta = frame.attrs.get("provenance", {})
    params = ", ".join(f"{k}={v!r}" for k, v in meta.get("params", {}).items())
    return (
        f"{meta.get('name', '?')}: {meta.get('rows', len(frame))} rows ({params}), made on "
        f"{meta.get('created', '?')} with gamelib {meta.get('gamelib', '?')} in {meta.get('seconds', '?')} s "
        f"by: {meta.get('command', '?')}"
    )


# ---------------------------------------------------------------------------- tournaments as rows
def results_frame(
    results: TournamentResults | Mapping[Any, TournamentResults], key: str | None = None
) -> Any:
    """Tidy rows (one per game and seat) of one tournament, or of several keyed by ``key``'s values.

    ``results_frame({"edition 1": r1, "edition 2": r2}, key="variant")`` adds a first column
    ``variant``.  Timings are left out (they change from run to run).
    """
    import pandas as pd

    if isinstance(results, TournamentResults):
        return pd.DataFrame(results.rows())
    if key is None:
        raise ValueError("several tournaments need a key= column name to tell them apart")
    rows = [{key: k, **row} for k, res in results.items() for row in res.rows()]
    return pd.DataFrame(rows)


def split_results(frame: Any, game: Game | str | Callable[[Any], Game], key: str | None = None) -> Any:
    """:class:`TournamentResults` rebuilt from :func:`results_frame` rows (a dict by ``key`` if given).

    ``game``: the game played (a Game or a name), or a function of the key's value giving it (a sweep
    plays a different option value for each key).  The agents are their names (for statistics and
    plots; replaying a game needs the real agents).
    """
    if key is None:
        return _rebuild(frame, _game_for(game, None))
    out = {}
    for value in frame[key].unique():
        part = frame[frame[key] == value]
        out[_plain(value)] = _rebuild(part.drop(columns=key), _game_for(game, _plain(value)))
    return out


def _rebuild(frame: Any, game: Game) -> TournamentResults:
    rows = frame.sort_values(["game", "seat"], kind="stable").to_dict("records")
    first = rows[0]["game"] if rows else 0
    names = [str(r["agent"]) for r in rows if r["game"] == first]
    index = {n: i for i, n in enumerate(names)}
    games: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        games.setdefault(int(row["game"]), []).append(row)
    outcomes = [
        GameOutcome(
            index=number,
            seed=int(seats[0]["seed"]),
            seating=tuple(index[str(r["agent"])] for r in seats),
            returns=tuple(float(r["return"]) for r in seats),
            length=int(seats[0]["length"]),
            finished=bool(seats[0]["finished"]),
            moves=tuple(int(r["moves"]) for r in seats),
            roles=tuple(_stored_role(r) for r in seats),
            scores=tuple(float(r.get("score", r["return"])) for r in seats),
            ending=_text(seats[0].get("ending")),
        )
        for number, seats in games.items()
    ]
    seed = int(frame.attrs.get("provenance", {}).get("params", {}).get("seed", 0))
    return TournamentResults(game, names, names, seed, outcomes, executor_label="stored")


def _stored_role(row: Mapping[str, Any]) -> str:
    """A role key from a stored row: the seat (shown in the language in force) when the role is the
    seat's name or the row predates roles, else the stored role (a game's language-neutral key)."""
    role = _text(row.get("role"))
    if not role or "seat_name" not in row or role == _text(row.get("seat_name")):
        return f"seat {int(row['seat'])}"
    return role


def _text(value: Any) -> str:
    """A stored text cell ("" for a missing one: pandas reads an empty CSV cell as NaN)."""
    return value if isinstance(value, str) else ""


def _game_for(game: Game | str | Callable[[Any], Game], value: Any) -> Game:
    if isinstance(game, (Game, str)):
        return resolve_game(game)
    return game(value)


def _plain(value: Any) -> Any:
    """numpy scalars (from a DataFrame column) as plain Python values."""
    return value.item() if hasattr(value, "item") else value


# ---------------------------------------------------------------------------- helpers
def resolve(compute: Callable[..., Any] | str) -> Callable[..., Any]:
    """A compute function, imported if given as ``"package.module:function"``."""
    if not isinstance(compute, str):
        return compute
    if ":" not in compute:
        raise ValueError(f"a compute path is 'package.module:function', got {compute!r}")
    function: Callable[..., Any] = resolve_path(compute)
    return function


def default_params(compute: Callable[..., Any]) -> dict[str, Any]:
    """The keyword defaults of ``compute`` (its parameters, recorded in the provenance)."""
    try:
        parameters = inspect.signature(compute).parameters.values()
    except (TypeError, ValueError):
        return {}
    return {
        p.name: p.default
        for p in parameters
        if p.default is not inspect.Parameter.empty and p.name != "progress"
    }


def _run(compute: Callable[..., Any], params: dict[str, Any], progress: bool) -> tuple[Any, float]:
    kwargs = dict(params)
    try:
        accepts = "progress" in inspect.signature(compute).parameters
    except (TypeError, ValueError):
        accepts = False
    if accepts and "progress" not in kwargs:
        kwargs["progress"] = progress
    start = time.perf_counter()
    with using_language("en"):  # seat names in the rows must not depend on the language in force
        frame = compute(**kwargs)
    seconds = time.perf_counter() - start
    if not hasattr(frame, "to_csv"):
        raise TypeError(f"compute must return a pandas DataFrame, got {type(frame).__name__}")
    return frame, seconds


def _read_csv(text: str) -> Any:
    import pandas as pd

    # pandas writes floats with repr; read them back exactly so that rows compare exactly
    # (pandas 3 does by default and deprecates the argument; pandas 2 needs "round_trip")
    if int(pd.__version__.split(".")[0]) < 3:
        return pd.read_csv(io.StringIO(text), float_precision="round_trip")
    return pd.read_csv(io.StringIO(text))


def _default_command(name: str, compute: Callable[..., Any], params: Mapping[str, Any]) -> str:
    if Path(sys.argv[0]).name.endswith(".py") and "ipykernel" not in sys.argv[0]:
        return " ".join(["python", *sys.argv])
    where = f"{getattr(compute, '__module__', '?')}.{getattr(compute, '__qualname__', '?')}"
    args = "".join(f", {k}={v!r}" for k, v in params.items())
    return f"gamelib.analysis.stored.experiment({name!r}, {where}, recompute=True, params=dict({args[2:]}))"


def _gamelib_version() -> str:
    import gamelib

    return str(gamelib.__version__)


def command_line(
    experiments: Mapping[str, Callable[..., Any]],
    folder: str | Path,
    command: Callable[[str], str],
    description: str | None = None,
    argv: list[str] | None = None,
) -> int:
    """The command line of an experiments script: recompute the named experiments (default: all).

    ``python notebooks/data/<game>_experiments.py [NAME ...] [--list]`` recomputes each experiment
    with its stored parameters and writes it to ``folder`` with ``command(name)`` as its provenance.
    """
    import argparse

    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("names", nargs="*", help="experiments to recompute (default: all)")
    parser.add_argument("--list", action="store_true", help="list the experiments and their stored sizes")
    parser.add_argument("--folder", default=str(folder), help=f"where to write (default: {folder})")
    args = parser.parse_args(argv)
    if args.list:
        width = max(len(name) for name in experiments) + 2
        for name, compute in experiments.items():
            print(f"{name:{width}s} {default_params(compute)}")
        return 0
    unknown = [n for n in args.names if n not in experiments]
    if unknown:
        parser.error(f"unknown experiment(s) {unknown}; known: {', '.join(experiments)}")
    for name in args.names or list(experiments):
        compute = experiments[name]
        frame = experiment(
            name,
            compute,
            recompute=True,
            folder=args.folder,
            params=default_params(compute),
            command=command(name),
        )
        meta = frame.attrs["provenance"]
        print(f"{name}: {meta['rows']} rows in {meta['seconds']} s", flush=True)
    return 0
