"""The stored experiments of notebook 02 (A Une Passante): compute them once, save them next to this file.

A Une Passante is cooperative: every seat's return is the team's number of wishes fulfilled, so each
experiment stores **one row per game**: the setting (player count, team, communication level...), the
game number ``game``, its seed and the final ``score`` (0..38).  Game ``g`` is played on seed
``seed + g`` (the seeds of ``gamelib.passante.analysis.score_distribution``), so every setting meets
the same deals (paired games) and fewer games give a prefix of the same games: what
``tests/passante/test_notebook_data_02.py`` recomputes and compares.  The notebook loads the CSV files
with ``gamelib.analysis.stored.experiment(name, "passante_experiments:function", recompute=RECOMPUTE)``.

    python notebooks/data/passante_experiments.py --list      # names and stored sizes
    python notebooks/data/passante_experiments.py             # all of them (about 15 min on 2 quiet cores)
    python notebooks/data/passante_experiments.py passante_talk
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

import gamelib  # noqa: E402
from gamelib.analysis.progress import progress_bar  # noqa: E402

TALK: dict[str, dict[str, Any]] = {
    "no signals": {"privileges": "none"},
    "card privileges": {"privileges": "cards"},
    "one hint a turn": {"privileges": "hint"},
    "open hands": {"privileges": "none", "open_hands": True},
}
"""Communication levels of ``passante_talk``: none, the rule text's table privileges (the default),
every privilege folded into one truthful hint, every hand public (the ceiling)."""


def team_scores(
    players: int,
    factory: Callable[[], Any],
    games: int,
    seed: int,
    options: dict[str, Any] | None = None,
    progress: bool = False,
    desc: str = "",
) -> list[int]:
    """Scores of ``games`` games of one team (one agent per seat) on seeds ``seed .. seed + games - 1``.

    The same as ``analysis.score_distribution`` for one (players, team) pair, with a progress bar.
    """
    game = gamelib.make("passante", players=players, options=options or {})
    team = [factory() for _ in range(players)]
    bar = progress_bar(progress, games, desc or f"{players} players")
    scores = []
    for g in range(games):
        scores.append(int(gamelib.play(game, team, seed=seed + g).returns()[0]))
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    return scores


def scores(games: int = 200, seed: int = 0, progress: bool = True) -> Any:
    """Teams of random players and of wish seekers, 1 to 4 players, the rules' defaults."""
    import pandas as pd

    from gamelib.agents import RandomAgent
    from gamelib.passante.agents import WishSeekerAgent

    rows = []
    for players in (1, 2, 3, 4):
        for team, factory in (("random", RandomAgent), ("seeker", WishSeekerAgent)):
            got = team_scores(players, factory, games, seed, progress=progress, desc=f"{players} x {team}")
            rows += [
                {"players": players, "team": team, "game": g, "seed": seed + g, "score": s}
                for g, s in enumerate(got)
            ]
    return pd.DataFrame(rows)


def talk(games: int = 200, seed: int = 0, players: Sequence[int] = (2, 3, 4), progress: bool = True) -> Any:
    """The same seekers at every level of communication of :data:`TALK` (same seeds: paired games)."""
    import pandas as pd

    from gamelib.passante.agents import WishSeekerAgent

    rows = []
    for n in players:
        for level, options in TALK.items():
            got = team_scores(n, WishSeekerAgent, games, seed, options, progress, f"{n} players, {level}")
            rows += [
                {"players": n, "communication": level, "game": g, "seed": seed + g, "score": s}
                for g, s in enumerate(got)
            ]
    return pd.DataFrame(rows)


def search(
    games: int = 16, seed: int = 0, iterations: Sequence[int] = (30, 100), progress: bool = True
) -> Any:
    """3 players: cooperative IS-MCTS at a few budgets (iterations per decision) against the seekers."""
    import pandas as pd

    from gamelib.passante.agents import WishSeekerAgent, cooperative_ismcts

    teams: list[tuple[str, Callable[[], Any]]] = [("seeker", WishSeekerAgent)]
    teams += [(f"ismcts {it}", lambda it=it: cooperative_ismcts(iterations=it)) for it in iterations]
    rows = []
    for team, factory in teams:
        got = team_scores(3, factory, games, seed, progress=progress, desc=team)
        rows += [{"team": team, "game": g, "seed": seed + g, "score": s} for g, s in enumerate(got)]
    return pd.DataFrame(rows)


EXPERIMENTS: dict[str, Callable[..., Any]] = {
    "passante_scores": scores,
    "passante_talk": talk,
    "passante_search": search,
}

SLICES: dict[str, dict[str, Any]] = {
    "passante_scores": {"games": 3},
    "passante_talk": {"games": 2},
    "passante_search": {"games": 1, "iterations": [30]},
}
"""Smaller parameters for the exact-recomputation test (a prefix of the stored games)."""


def command(name: str) -> str:
    return f"python notebooks/data/passante_experiments.py {name}"


def main(argv: list[str] | None = None) -> int:
    from gamelib.analysis.stored import command_line

    return command_line(EXPERIMENTS, HERE, command, description=__doc__, argv=argv)


if __name__ == "__main__":
    raise SystemExit(main())
