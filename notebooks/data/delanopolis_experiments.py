"""The stored experiments of notebook 03 (Delanopolis): compute them once, save them next to this file.

Each experiment is a function returning a DataFrame with one row per game (its key columns, the
game number, its seed, how it ended, the mayor's terrains and the number of actions); its keyword
defaults are the stored size and seeds.  Game ``g`` of a configuration is played on seed
``seed + g`` (as :func:`gamelib.delanopolis.analysis.outcome_rates` does), so fewer games give a
prefix of the same games: what ``tests/delanopolis/test_notebook_data_03.py`` recomputes and
compares.  The notebook loads the CSV files with ``gamelib.analysis.stored.experiment(name,
"delanopolis_experiments:function", recompute=RECOMPUTE)``.

    python notebooks/data/delanopolis_experiments.py --list      # names and stored sizes
    python notebooks/data/delanopolis_experiments.py             # all of them (about 3 min on 2 quiet cores)
    python notebooks/data/delanopolis_experiments.py delanopolis_roles
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

import gamelib  # noqa: E402
from gamelib.analysis.progress import progress_bar  # noqa: E402
from gamelib.delanopolis.rules import DelanopolisState  # noqa: E402

MAYOR_WINS = ("president", "reelected", "richest_mayor", "mayor_stays")
"""The outcomes in which the mayor wins alone (``richest_tie`` is shared, ``new_mayor`` lost)."""


def game_rows(
    players: int,
    options: Mapping[str, Any],
    seats: Sequence[Any],
    games: int,
    seed: int,
    bar: Any = None,
) -> list[dict[str, Any]]:
    """One row per game: game ``g`` on seed ``seed + g``, the same agents in the same seats."""
    game = gamelib.make("delanopolis", players=players, options=dict(options))
    rows = []
    for g in range(games):
        state = gamelib.play(game, list(seats), seed=seed + g)
        assert isinstance(state, DelanopolisState)
        rows.append(
            {
                "game": g,
                "seed": seed + g,
                "mayor": state.mayor,
                "outcome": state.outcome,
                "mayor_wins": int(state.outcome in MAYOR_WINS),
                "mayor_terrains": state.owner.count(state.mayor),
                "actions": len(state.history),
            }
        )
        if bar is not None:
            bar.update(1)
    return rows


def _frame(rows: list[dict[str, Any]]) -> Any:
    import pandas as pd

    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------- agents by role
def challenger_agents() -> dict[str, Any]:
    """The challengers compared: random, half the cap, the value bidder, always the cap."""
    from gamelib.agents import RandomAgent
    from gamelib.delanopolis.agents import FractionBidder, ValueBidder

    return {
        "random": RandomAgent(),
        "half the cap": FractionBidder(0.5),
        "ValueBidder": ValueBidder(),
        "always the cap": FractionBidder(1.0),
    }


def mayor_agents() -> dict[str, Any]:
    from gamelib.agents import RandomAgent
    from gamelib.delanopolis.agents import MayorStrategy

    return {"random": RandomAgent(), "MayorStrategy": MayorStrategy()}


def roles(games: int = 300, seed: int = 0, progress: bool = True) -> Any:
    """4 players: every seat plays ``RoleAgent(challenger=C, mayor=M)`` for each mayor M and challenger C.

    The same agent sits in every seat, so the lot (who is mayor) cannot favour an agent: what
    changes the mayor's fate is only how each role is played.
    """
    from gamelib.delanopolis.agents import RoleAgent

    mayors, challengers = mayor_agents(), challenger_agents()
    bar = progress_bar(progress, games * len(mayors) * len(challengers), "roles")
    rows = []
    for m_name, mayor in mayors.items():
        for c_name, challenger in challengers.items():
            seats = [RoleAgent(challenger=challenger, mayor=mayor)] * 4
            for row in game_rows(4, {}, seats, games, seed, bar):
                rows.append({"mayor_agent": m_name, "challenger_agent": c_name, **row})
    if bar is not None:
        bar.close()
    return _frame(rows)


# ---------------------------------------------------------------------------- options
def _option_rows(
    option: str, values: Sequence[Any], players: Sequence[int], games: int, seed: int, progress: bool
) -> Any:
    """``RoleAgent()`` (ValueBidder challengers, MayorStrategy mayor) for each value and player count."""
    from gamelib.delanopolis.agents import RoleAgent

    bar = progress_bar(progress, games * len(values) * len(players), option)
    rows = []
    for value in values:
        for n in players:
            for row in game_rows(n, {option: value}, [RoleAgent()] * n, games, seed, bar):
                rows.append({option: value, "players": n, **row})
    if bar is not None:
        bar.close()
    return _frame(rows)


def cap(games: int = 300, seed: int = 0, progress: bool = True) -> Any:
    """The 60-point cap on (``bid_cap=60``) and off (``0``), 3 to 6 players."""
    return _option_rows("bid_cap", (60, 0), (3, 4, 5, 6), games, seed, progress)


def open_bid(games: int = 300, seed: int = 2, progress: bool = True) -> Any:
    """The mayor's bid sealed (the default) or first and in the open, 3 to 6 players."""
    return _option_rows("mayor_bid", ("sealed", "open_first"), (3, 4, 5, 6), games, seed, progress)


FRACTIONS = (0.0, 0.25, 0.5, 0.75, 0.9, 1.0)


def fraction(games: int = 300, seed: int = 1, progress: bool = True) -> Any:
    """4 players: every challenger bids a fixed fraction of the cap against ``MayorStrategy``."""
    from gamelib.delanopolis.agents import FractionBidder, MayorStrategy, RoleAgent

    bar = progress_bar(progress, games * len(FRACTIONS), "fraction")
    rows = []
    for f in FRACTIONS:
        seats = [RoleAgent(challenger=FractionBidder(f), mayor=MayorStrategy())] * 4
        for row in game_rows(4, {}, seats, games, seed, bar):
            rows.append({"fraction": f, **row})
    if bar is not None:
        bar.close()
    return _frame(rows)


EXPERIMENTS: dict[str, Callable[..., Any]] = {
    "delanopolis_roles": roles,
    "delanopolis_cap": cap,
    "delanopolis_fraction": fraction,
    "delanopolis_open": open_bid,
}

SLICES: dict[str, dict[str, Any]] = {
    "delanopolis_roles": {"games": 3},
    "delanopolis_cap": {"games": 2},
    "delanopolis_fraction": {"games": 3},
    "delanopolis_open": {"games": 2},
}
"""Smaller parameters for the exact-recomputation test (a prefix of the stored games)."""


def command(name: str) -> str:
    return f"python notebooks/data/delanopolis_experiments.py {name}"


def main(argv: list[str] | None = None) -> int:
    from gamelib.analysis.stored import command_line

    return command_line(EXPERIMENTS, HERE, command, description=__doc__, argv=argv)


if __name__ == "__main__":
    raise SystemExit(main())
