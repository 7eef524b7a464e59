"""Paired comparisons: agent A against agent B on the same seeds, seats and opponents.

"How much does the detective's thinking matter?" is a difference of two means.  Played on fresh
seeds, the two tournaments differ by their deals as much as by their agents; played on the
**same** seeds with the same opponents in the same seats, game ``i`` of A and game ``i`` of B
share everything but the agent, and the per-game differences of returns give a **paired t
interval**, often several times narrower for the same number of games.

>>> from gamelib.analysis import paired
>>> p = paired("fugitive", "belief", "random_single_guess",
...                             opponents=["random_single_guess"], seats=[1], games=20, progress=False)
>>> row = p.summary().loc["all"]
>>> bool(row["diff_low"] <= row["mean_diff"] <= row["diff_high"])
True

Games that a safety limit stopped (unfinished) in either run are left out of the differences and
counted apart.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gamelib.agents.inputs import optional_whole_number, whole_number
from gamelib.analysis.executors import GameJob, resolve_executor, run_jobs
from gamelib.analysis.progress import progress_bar
from gamelib.analysis.stats import mean_interval
from gamelib.analysis.tournament import (
    ShownAsTable,
    TournamentResults,
    game_seed,
    resolve_agents,
    resolve_game,
    warn_misplaced_roles,
)
from gamelib.core.game import Game
from gamelib.core.play import agent_label

if TYPE_CHECKING:
    from matplotlib.figure import Figure


@dataclass(frozen=True)
class PairedStat:
    """The paired difference A - B over one group of games, with 95% t intervals."""

    games: int
    paired: int
    """Games finished in both runs (the ones the differences are over)."""
    unfinished: int
    mean_a: float
    mean_b: float
    mean_diff: float
    diff_low: float
    diff_high: float
    win_rate_a: float
    win_rate_b: float
    win_diff: float
    win_diff_low: float
    win_diff_high: float


def _paired_stat(rows: Sequence[Mapping[str, Any]], span: float, confidence: float) -> PairedStat:
    both = [r for r in rows if r["finished_a"] and r["finished_b"]]
    diffs = [r["return_a"] - r["return_b"] for r in both]
    wins = [float(r["win_a"]) - float(r["win_b"]) for r in both]
    mean, low, high = mean_interval(diffs, confidence, (-span, span))
    wmean, wlow, whigh = mean_interval(wins, confidence, (-1.0, 1.0))
    n = len(both)
    return PairedStat(
        games=len(rows),
        paired=n,
        unfinished=len(rows) - n,
        mean_a=math.fsum(r["return_a"] for r in both) / n if n else math.nan,
        mean_b=math.fsum(r["return_b"] for r in both) / n if n else math.nan,
        mean_diff=mean,
        diff_low=low,
        diff_high=high,
        win_rate_a=sum(r["win_a"] for r in both) / n if n else math.nan,
        win_rate_b=sum(r["win_b"] for r in both) / n if n else math.nan,
        win_diff=wmean,
        win_diff_low=wlow,
        win_diff_high=whigh,
    )


class PairedComparison(ShownAsTable):
    """Two tournaments on the same games, A's and B's, and their per-game differences.

    ``summary()`` (a DataFrame: all games and each seat, the mean difference of returns and of win
    rates with paired intervals), ``to_pandas()`` (one row per game), ``plot()``, and the two
    :class:`~gamelib.analysis.TournamentResults` as ``results_a`` / ``results_b`` (replay any game).
    """

    def __init__(self, name_a: str, name_b: str, results_a: TournamentResults, results_b: TournamentResults):
        self.name_a, self.name_b = name_a, name_b
        self.results_a, self.results_b = results_a, results_b
        self.game = results_a.game

    def __len__(self) -> int:
        return len(self.results_a)

    def rows(self) -> list[dict[str, Any]]:
        """One dict per game: seed, the contender's seat and role, each run's return, outcome and difference."""
        rows_a = {(r["game"], r["seat"]): r for r in self.results_a.rows()}
        rows_b = {(r["game"], r["seat"]): r for r in self.results_b.rows()}
        out = []
        for oa in self.results_a.outcomes:
            seat = oa.seating.index(0)
            a, b = rows_a[(oa.index, seat)], rows_b[(oa.index, seat)]
            out.append(
                {
                    "game": oa.index,
                    "seed": oa.seed,
                    "seat": seat,
                    "seat_name": a["seat_name"],
                    "role_a": a["role"],
                    "role_b": b["role"],
                    "return_a": a["return"],
                    "return_b": b["return"],
                    "diff": a["return"] - b["return"],
                    "outcome_a": a["outcome"],
                    "outcome_b": b["outcome"],
                    "win_a": a["outcome"] == "win",
                    "win_b": b["outcome"] == "win",
                    "finished_a": a["finished"],
                    "finished_b": b["finished"],
                }
            )
        return out

    def stats(self, confidence: float = 0.95) -> dict[str, PairedStat]:
        """``"all"`` games and each seat name the contender played."""
        rows = self.rows()
        info = self.game.info
        span = float(info.max_return) - float(info.min_return)
        groups: dict[str, list[dict[str, Any]]] = {"all": rows}
        for row in rows:
            groups.setdefault(row["seat_name"], []).append(row)
        return {k: _paired_stat(v, span, confidence) for k, v in groups.items()}

    def to_pandas(self) -> Any:
        import pandas as pd

        return pd.DataFrame(self.rows())

    def summary(self, confidence: float = 0.95) -> Any:
        """A DataFrame indexed by ``all`` and each seat: games, paired games, unfinished, the means
        of A and B, the mean difference with its paired interval, win rates and their difference."""
        import pandas as pd

        stats = self.stats(confidence)
        frame = pd.DataFrame([vars(s) for s in stats.values()], index=pd.Index(list(stats), name="seat"))
        return frame

    def __str__(self) -> str:
        lines = [f"{self.game.name}: {self.name_a} minus {self.name_b}, {len(self)} paired games"]
        for key, s in self.stats().items():
            lines.append(
                f"  {key:<14} return {s.mean_diff:+.3f} [{s.diff_low:+.3f}, {s.diff_high:+.3f}]  "
                f"win rate {s.win_diff:+.3f} [{s.win_diff_low:+.3f}, {s.win_diff_high:+.3f}]  "
                f"over {s.paired} games" + (f" ({s.unfinished} unfinished, left out)" if s.unfinished else "")
            )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<PairedComparison {self.game.name}: {self.name_a} - {self.name_b}, {len(self)} games>"

    def plot(self, ax: Any = None, confidence: float = 0.95) -> Figure:
        """The mean difference of returns (A - B), over all games and per seat, with paired intervals."""
        from gamelib.analysis.plots import FONT, PALETTE, WORDS, new_axes

        stats = self.stats(confidence)
        fig, ax = new_axes(ax, width=8.0, height=4.5)
        keys = list(stats)
        labels = [WORDS("all_seats") if k == "all" else WORDS("as_seat", seat=k) for k in keys]
        ys = [stats[k].mean_diff for k in keys]
        lows = [stats[k].mean_diff - stats[k].diff_low for k in keys]
        highs = [stats[k].diff_high - stats[k].mean_diff for k in keys]
        colours = [PALETTE[i % len(PALETTE)] for i in range(len(keys))]
        ax.bar(
            range(len(keys)),
            ys,
            yerr=[lows, highs],
            capsize=6,
            color=colours,
            error_kw={"elinewidth": 2, "ecolor": "#222222"},
        )
        ax.axhline(0.0, color="#555555", linestyle="--", linewidth=1.5, label=WORDS("no_difference"))
        ax.set_xticks(range(len(keys)), labels, fontsize=FONT - 1)
        ax.set_ylabel(WORDS("paired_axis"), fontsize=FONT - 2)
        from gamelib.agents.registry import agent_title

        a, b = (agent_title(x, self.game.name) for x in (self.name_a, self.name_b))
        ax.set_title(
            WORDS("paired_title", title=self.game.info.title, a=a, b=b, n=len(self)),
            fontsize=FONT,
        )
        ax.legend(fontsize=FONT - 3)
        ax.grid(axis="y", alpha=0.3)
        return fig


def paired_jobs(num_players: int, games: int, seed: int, seats: Sequence[int]) -> list[GameJob]:
    """Game ``i``: the tournament seed of game ``i``, the contender (agent 0) in ``seats[i % len]``,
    the opponents (agents 1..) in the other seats in order."""
    jobs = []
    for i in range(games):
        seat = seats[i % len(seats)]
        others = iter(range(1, num_players))
        seating = tuple(0 if s == seat else next(others) for s in range(num_players))
        jobs.append(GameJob(i, game_seed(seed, i), seating))
    return jobs


def paired(
    game: Game | str,
    a: Any,
    b: Any,
    opponents: Sequence[Any] | Any = "random",
    games: int = 200,
    seed: int = 0,
    executor: Any = None,
    *,
    seats: Sequence[int] | None = None,
    options: Mapping[str, Any] | None = None,
    players: int | None = None,
    workers: int | None = None,
    batch_size: int | None = None,
    max_actions: int | None = None,
    progress: bool = True,
) -> PairedComparison:
    """Play agent ``a`` and agent ``b`` on the same ``games`` games and compare them, paired.

    ``opponents``: one agent (or spec) for every other seat, or one per other seat in order.
    ``seats``: the seats the contender takes, in turn (default every seat; ``[1]`` for a
    detective).  Game ``i`` has the seed of game ``i`` of ``gamelib.tournament(..., seed=seed)``
    and the same seating in both runs.  The rest is as in :func:`gamelib.tournament`.
    """
    games = whole_number(games, "games", minimum=1)
    seed = whole_number(seed, "seed", minimum=0)
    limit = optional_whole_number(max_actions, "max_actions", minimum=1)
    batch_size = optional_whole_number(batch_size, "batch_size", minimum=1)
    the_game = resolve_game(game, players, options)
    n = the_game.num_players
    seat_list = list(range(n)) if seats is None else [whole_number(s, "seat", 0, n - 1) for s in seats]
    if not seat_list:
        raise ValueError("seats must name at least one seat for the contender")
    field = _opponents(the_game, opponents)
    name_a, name_b = _label(a), _label(b)
    if name_a == name_b:
        name_b = f"{name_b} (B)"
    jobs = paired_jobs(n, games, seed, seat_list)
    bar = progress_bar(progress, 2 * games, f"{the_game.name}: {name_a} / {name_b}")
    results = []
    try:
        for contender, name in ((a, name_a), (b, name_b)):
            names, objects = resolve_agents(the_game, [contender, *field])
            names[0] = name
            warn_misplaced_roles(the_game, names, objects, jobs)
            runner = resolve_executor(executor, workers)
            done = bar.update if bar is not None else None
            try:
                outcomes = list(run_jobs(the_game, objects, jobs, runner, batch_size, limit, on_done=done))
            finally:
                runner.close()
            results.append(TournamentResults(the_game, names, objects, seed, outcomes, limit, runner.label))
    finally:
        if bar is not None:
            bar.close()
    return PairedComparison(name_a, name_b, results[0], results[1])


def _label(agent: Any) -> str:
    return agent if isinstance(agent, str) else agent_label(agent)


def _opponents(game: Game, opponents: Sequence[Any] | Any) -> list[Any]:
    """One opponent per other seat: one given for all, or one per seat in order."""
    n = game.num_players
    if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Sequence):
        return [opponents] * (n - 1)
    field = list(opponents)
    if len(field) == 1:
        field = field * (n - 1)
    if len(field) != n - 1:
        raise ValueError(
            f"{game.name} with {n} players: give one opponent, or {n - 1} (one per other seat), got {len(field)}"
        )
    return field
