"""Rule-option sweeps: how one option moves the outcomes of the same agents.

>>> import gamelib
>>> s = gamelib.sweep("fugitive", option="edition", values=[1, 2], agents=["random", "random"],
...                   games=10, progress=False)
>>> [r.game.options.edition for r in s.results]
[1, 2]

Every value plays the **same seeds** (common random numbers), seeded exactly like
:func:`gamelib.tournament` (game ``i`` of value ``v`` is game ``i`` of ``tournament(..., seed=seed)``):
the games differ only where the option changes them, so differences between values are less
noisy than with fresh seeds.

Results group by ``"seat"``, by ``"role"`` (the role each seat held in each game: Delanopolis'
mayor is drawn by lot, see :mod:`gamelib.analysis.roles`), by ``"agent"``, or by agent and seat or
role; each row has the win rate and the mean score with 95% intervals, games that finished and
games a safety limit stopped (unfinished: in no rate).  ``pool=True`` counts identical agents
(``random``, ``random#2``) under one label.

>>> s.to_pandas(by="role")[["edition", "role", "games", "win_rate", "mean_score"]].shape
(4, 5)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gamelib.analysis.tournament import ShownAsTable, TournamentResults, rates_text, resolve_game, tournament
from gamelib.core.game import Game

if TYPE_CHECKING:
    from matplotlib.figure import Figure


class SweepResults(ShownAsTable):
    """One :class:`TournamentResults` per option value, with tables and a plot across values."""

    def __init__(
        self, option: str, values: Sequence[Any], results: Sequence[TournamentResults], pool: bool = False
    ) -> None:
        self.option = option
        self.values = list(values)
        self.results = list(results)
        self.pool = pool

    def rows(self, by: str = "seat", confidence: float = 0.95) -> list[dict[str, Any]]:
        """One dict per (value, group): games, unfinished games, win rate and mean score and mean
        return with their intervals, game length.  ``by``: see :meth:`TournamentResults.stats`."""
        rows = []
        for value, res in zip(self.values, self.results, strict=True):
            for key, s in res.stats(by, confidence, self.pool).items():
                group = key if isinstance(key, str) else f"{key[0]} as {key[1]}"
                rows.append(
                    {
                        self.option: value,
                        by: group,
                        **vars(s),
                        "finished": s.finished,
                        "mean_length": res.mean_length,
                    }
                )
        return rows

    def to_pandas(self, by: str = "seat", confidence: float = 0.95) -> Any:
        """The rows of :meth:`rows` as a DataFrame (one row per option value and group)."""
        import pandas as pd

        return pd.DataFrame(self.rows(by, confidence))

    def games(self) -> Any:
        """Every game and seat of every value: :meth:`TournamentResults.to_pandas` with the value."""
        import pandas as pd

        frames = []
        for value, res in zip(self.values, self.results, strict=True):
            frame = res.to_pandas()
            frame.insert(0, self.option, [value] * len(frame))
            frames.append(frame)
        return pd.concat(frames, ignore_index=True)

    def summary(self, by: str = "seat", metric: str = "win_rate") -> Any:
        """``metric`` (``win_rate``, ``mean_score``, ``mean_return``...) per option value (rows)
        and group (columns)."""
        frame = self.to_pandas(by)
        if metric not in frame:
            raise ValueError(f"metric must be a column of to_pandas(): {sorted(frame)}, got {metric!r}")
        return frame.pivot(index=self.option, columns=by, values=metric)

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

        ``by``: ``"seat"``, ``"role"``, ``"agent"``...; ``metric``: ``"win_rate"`` (default;
        ``"mean_return"`` for cooperative games), ``"mean_return"``, ``"mean_score"``,
        ``"draw_rate"``, ``"unfinished_rate"``, or ``"mean_length"`` (actions per game).
        """
        from gamelib.analysis.plots import (
            FONT,
            METRICS,
            PALETTE,
            WORDS,
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
        groups = list(dict.fromkeys(k for res in self.results for k in res.stats(by, pool=self.pool)))
        if game.info.utility == "identical" and by == "seat":
            groups = groups[:1]  # a cooperative game: every seat has the team's score
        for k, key in enumerate(groups):
            stats = [res.stats(by, pool=self.pool).get(key) for res in self.results]
            points = [(x, s) for x, s in zip(xs, stats, strict=True) if s is not None]
            label = key if isinstance(key, str) else f"{key[0]} · {WORDS('as_role', role=key[1])}"
            if game.info.utility == "identical" and by == "seat":
                label = WORDS("team")
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
        ax.set_xlabel(WORDS("rule_option", option=self.option), fontsize=FONT)
        ax.set_ylabel(metric_label(metric), fontsize=FONT)
        if metric.endswith("_rate"):
            ax.set_ylim(0, 1.05)
        ax.tick_params(labelsize=FONT - 2)
        names = " · ".join(self.results[0].agent_names)
        title = WORDS("per_value_title", title=game.info.title, n=len(self.results[0]))
        ax.set_title(f"{title}\n{names}", fontsize=FONT)
        ax.grid(alpha=0.3)
        legend = WORDS(f"legend_by_{by}") if by in ("seat", "role", "agent") else None
        ax.legend(fontsize=FONT - 2, title=legend, title_fontsize=FONT - 2)
        return fig

    def _xs(self) -> list[Any]:
        numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in self.values)
        return list(self.values) if numeric else list(range(len(self.values)))

    def _plot_length(self, ax: Any) -> Figure:
        from gamelib.analysis.plots import FONT, PALETTE, WORDS, new_axes
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
        ax.set_xlabel(WORDS("rule_option", option=self.option), fontsize=FONT)
        ax.set_ylabel(WORDS("length_axis"), fontsize=FONT)
        ax.set_ylim(0, max(hi for _, _, hi in intervals) * 1.15)
        ax.tick_params(labelsize=FONT - 2)
        ax.set_title(WORDS("length_title", title=self.results[0].game.info.title), fontsize=FONT + 1)
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
    pool: bool = False,
    **tournament_kwargs: Any,
) -> SweepResults:
    """Run the same tournament for each value of the rule ``option`` (see the module docstring).

    ``options`` fixes the other rule options; ``pool=True`` reports identical agents under one
    label; the remaining keywords (``workers``, ``rotate``, ``keep_records``, ``max_actions``...)
    go to :func:`gamelib.tournament`.  ``progress``: one tqdm bar per value.
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
    return SweepResults(option, values, results, pool)
