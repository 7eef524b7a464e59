"""Rule-option sweeps: how one option moves the outcomes of the same agents.

>>> import gamelib
>>> s = gamelib.sweep("fugitive", option="edition", values=[1, 2], agents=["random", "random"],
...                   games=10, progress=False)
>>> [r.game.options.edition for r in s.results]
[1, 2]

Every value plays the **same seeds** (common random numbers): the games differ only where the
option changes them, so differences between values are less noisy than with fresh seeds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gamelib.analysis.tournament import TournamentResults, rates_text, resolve_game, tournament
from gamelib.core.game import Game

if TYPE_CHECKING:
    from matplotlib.figure import Figure


class SweepResults:
    """One :class:`TournamentResults` per option value, with tables and a plot across values."""

    def __init__(self, option: str, values: Sequence[Any], results: Sequence[TournamentResults]) -> None:
        self.option = option
        self.values = list(values)
        self.results = list(results)

    def rows(self, by: str = "seat") -> list[dict[str, Any]]:
        """One dict per (value, group): win rate with its interval, mean return, game length."""
        rows = []
        for value, res in zip(self.values, self.results, strict=True):
            for key, s in res.stats(by).items():
                group = key if isinstance(key, str) else f"{key[0]} as {key[1]}"
                rows.append({self.option: value, by: group, **vars(s), "mean_length": res.mean_length})
        return rows

    def to_pandas(self, by: str = "seat") -> Any:
        import pandas as pd

        return pd.DataFrame(self.rows(by))

    def summary(self, by: str = "seat") -> Any:
        """Win rate per option value (rows) and seat or agent (columns)."""
        frame = self.to_pandas(by)
        return frame.pivot(index=self.option, columns=by, values="win_rate")

    def __str__(self) -> str:
        lines = [f"sweep of {self.option!r} over {self.values}"]
        for row in self.rows():
            lines.append(
                f"  {self.option}={row[self.option]!s:<8} {row['seat'][:16]:<17} {rates_text(row)}  "
                f"length {row['mean_length']:.1f}"
            )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<SweepResults {self.option}={self.values}: {len(self.results[0])} games each>"

    def plot(self, by: str = "seat", metric: str | None = None, ax: Any = None) -> Figure:
        """A metric against the option value, one line per seat (or agent), with 95% intervals.

        ``metric``: ``"win_rate"`` (default; ``"mean_return"`` for cooperative games),
        ``"mean_return"``, ``"draw_rate"``, or ``"mean_length"`` (actions per game).
        """
        from gamelib.analysis.plots import (
            FONT,
            METRICS,
            PALETTE,
            default_metric,
            metric_label,
            new_axes,
            value_and_errors,
        )

        game = self.results[0].game
        metric = metric or default_metric(game)
        if metric == "mean_length":
            return self._plot_length(ax)
        if metric not in METRICS:
            raise ValueError(f"metric must be one of {[*sorted(METRICS), 'mean_length']}, got {metric!r}")
        fig, ax = new_axes(ax, width=9.0, height=5.0)
        xs = self._xs()
        groups = list(self.results[0].stats(by))
        if game.info.utility == "identical" and by == "seat":
            groups = groups[:1]  # a cooperative game: every seat has the team's score
        for k, key in enumerate(groups):
            stats = [res.stats(by).get(key) for res in self.results]
            points = [(x, s) for x, s in zip(xs, stats, strict=True) if s is not None]
            label = key if isinstance(key, str) else f"{key[0]} as {key[1]}"
            if game.info.utility == "identical" and by == "seat":
                label = "the team (every seat)"
            values = [value_and_errors(s, metric) for _, s in points]
            ax.errorbar(
                [x for x, _ in points],
                [v[0] for v in values],
                yerr=[[v[1] for v in values], [v[2] for v in values]],
                marker="o",
                markersize=9,
                linewidth=2.5,
                capsize=6,
                color=PALETTE[k % len(PALETTE)],
                label=label,
            )
        ax.set_xticks(xs, [str(v) for v in self.values])
        ax.margins(x=0.15)
        ax.set_xlabel(f"rule option {self.option!r}", fontsize=FONT)
        ax.set_ylabel(metric_label(metric), fontsize=FONT)
        if metric != "mean_return":
            ax.set_ylim(0, 1.05)
        ax.tick_params(labelsize=FONT - 2)
        names = " vs ".join(self.results[0].agent_names)
        ax.set_title(f"{game.info.title}: {len(self.results[0])} games per value\n{names}", fontsize=FONT)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=FONT - 2, title=by, title_fontsize=FONT - 2)
        return fig

    def _xs(self) -> list[Any]:
        numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in self.values)
        return list(self.values) if numeric else list(range(len(self.values)))

    def _plot_length(self, ax: Any) -> Figure:
        from gamelib.analysis.plots import FONT, PALETTE, new_axes
        from gamelib.analysis.stats import mean_interval

        fig, ax = new_axes(ax, width=9.0, height=5.0)
        xs = self._xs()
        intervals = [mean_interval([o.length for o in res.outcomes]) for res in self.results]
        ax.errorbar(
            xs,
            [m for m, _, _ in intervals],
            yerr=[[m - lo for m, lo, _ in intervals], [hi - m for m, _, hi in intervals]],
            marker="o",
            markersize=9,
            linewidth=2.5,
            capsize=6,
            color=PALETTE[0],
        )
        ax.set_xticks(xs, [str(v) for v in self.values])
        ax.margins(x=0.15)
        ax.set_xlabel(f"rule option {self.option!r}", fontsize=FONT)
        ax.set_ylabel("actions per game (95% t interval)", fontsize=FONT)
        ax.set_ylim(0, max(hi for _, _, hi in intervals) * 1.15)
        ax.tick_params(labelsize=FONT - 2)
        ax.set_title(f"{self.results[0].game.info.title}: game length", fontsize=FONT + 1)
        ax.grid(alpha=0.3)
        return fig


def sweep(
    game: Game | str,
    option: str,
    values: Sequence[Any],
    agents: Sequence[Any] | Mapping[str, Any],
    games: int = 200,
    seed: int = 0,
    executor: Any = None,
    *,
    options: Mapping[str, Any] | None = None,
    players: int | None = None,
    progress: bool = True,
    **tournament_kwargs: Any,
) -> SweepResults:
    """Run the same tournament for each value of the rule ``option`` (see the module docstring).

    ``options`` fixes the other rule options; the remaining keywords (``workers``, ``rotate``,
    ``keep_records``...) go to :func:`gamelib.tournament`.
    """
    if not isinstance(option, str):
        raise TypeError(f"option must be the name of a rule option, got {option!r}")
    values = list(values)
    if not values:
        raise ValueError("values must list at least one option value")
    base = resolve_game(game, players, options)
    base_options = base.option_dict()
    if option not in base_options:
        raise ValueError(f"{base.name} has no rule option {option!r}; its options: {sorted(base_options)}")
    results = []
    for value in values:
        variant = resolve_game(base, None, {**base_options, option: value})
        results.append(
            tournament(
                variant,
                agents,
                games=games,
                seed=seed,
                executor=executor,
                progress=progress,
                **tournament_kwargs,
            )
        )
    return SweepResults(option, values, results)
