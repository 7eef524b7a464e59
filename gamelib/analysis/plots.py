"""Figures of tournament, comparison and sweep results (``matplotlib.figure.Figure``, no pyplot state).

Two metrics: the **win rate** with its Wilson interval, and the **mean return** with its t
interval.  Cooperative games (``utility == "identical"``: everyone gets the same score) and solo
games have no winner, so their default metric is the mean return, the score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from matplotlib.figure import Figure

from gamelib.core.i18n import Wording

WORDS = Wording("gamelib.analysis")
"""Titles, axes and legends of every analysis chart, in English or French (``data/words.json``)."""

PALETTE = ("#1f5fa8", "#e07b00", "#2a9d3a", "#c0392b", "#7d3cb5", "#7f6a00", "#138d90")
FONT = 14
METRICS = ("win_rate", "mean_return", "mean_score", "draw_rate", "unfinished_rate")
"""The metrics a chart can show (rates and means are over the finished games; the unfinished
rate is over all)."""


def metric_label(metric: str) -> str:
    """The axis label of ``metric`` in the language in force."""
    return WORDS(f"metric_{metric}")


def agent_tick(name: str, game: Any) -> str:
    """An agent's name on an axis: its wording in the language in force (``agent_title``), its
    ``#2`` numbering kept, wrapped to short lines."""
    import textwrap

    from gamelib.agents.registry import agent_title

    base, sep, number = name.rpartition("#")
    if not (sep and number.isdigit()):
        base, number = name, ""
    title = agent_title(base, getattr(game, "name", None)) + (f" #{number}" if number else "")
    return "\n".join(textwrap.wrap(title, 20)) or name


def default_metric(game: Any) -> str:
    """``mean_return`` for cooperative and solo games (no one wins alone), ``win_rate`` otherwise."""
    solo = getattr(game, "num_players", 2) == 1
    return "mean_return" if solo or game.info.utility == "identical" else "win_rate"


def check_metric(metric: str) -> None:
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {sorted(METRICS)}, got {metric!r}")


def value_and_errors(stat: Any, metric: str) -> tuple[float, float, float]:
    """(value, distance down to the interval's low end, distance up to its high end)."""
    if metric == "win_rate":
        return stat.win_rate, stat.win_rate - stat.win_low, stat.win_high - stat.win_rate
    if metric == "mean_return":
        return stat.mean_return, stat.mean_return - stat.return_low, stat.return_high - stat.mean_return
    if metric == "mean_score":
        return stat.mean_score, stat.mean_score - stat.score_low, stat.score_high - stat.mean_score
    if metric == "unfinished_rate":
        return stat.unfinished_rate, 0.0, 0.0
    return stat.draw_rate, 0.0, 0.0


def new_axes(ax: Any, width: float = 9.0, height: float = 5.0) -> tuple[Figure, Any]:
    if ax is not None:
        return ax.figure, ax
    fig = Figure(figsize=(width, height), layout="constrained")
    return fig, fig.add_subplot()


def grouped_bars(
    groups: Sequence[str],
    series: Mapping[str, Sequence[Any]],
    title: str,
    metric: str = "win_rate",
    fair: float | None = None,
    ax: Any = None,
    game: Any = None,
) -> Figure:
    """Grouped bars of one metric with (asymmetric) 95% error bars.

    ``series`` maps a label to one :class:`~gamelib.analysis.tournament.Stat` (or None) per group;
    with ``game``, groups are agent names shown in the language in force (:func:`agent_tick`).
    """
    check_metric(metric)
    fig, ax = new_axes(ax, width=min(14.0, max(8.0, 0.55 * len(groups) * len(series) + 4)))
    rate = metric.endswith("_rate")
    count = len(series)
    width = 0.8 / count
    top = 0.0
    for k, (label, stats) in enumerate(series.items()):
        xs, ys, lows, highs = [], [], [], []
        for g, s in enumerate(stats):
            if s is None:
                continue
            y, low, high = value_and_errors(s, metric)
            xs.append(g - 0.4 + width * (k + 0.5))
            ys.append(y)
            lows.append(low)
            highs.append(high)
            top = max(top, y + high)
        ax.bar(
            xs,
            ys,
            width=width * 0.92,
            yerr=[lows, highs],
            capsize=6,
            color=PALETTE[k % len(PALETTE)],
            alpha=1.0 if k == 0 else 0.75,
            label=label,
            error_kw={"elinewidth": 2, "ecolor": "#222222"},
        )
        for x, y, high in zip(xs, ys, highs, strict=True):
            text = f"{y:.0%}" if rate else f"{y:.1f}"
            ax.text(x, y + high, text, ha="center", va="bottom", fontsize=FONT - 3, weight="bold")
    if fair is not None and metric == "win_rate":
        ax.axhline(
            fair,
            color="#555555",
            linestyle="--",
            linewidth=1.5,
            label=WORDS("fair_share", share=f"{fair:.0%}"),
        )
    ax.set_xticks(
        range(len(groups)),
        [agent_tick(g, game) for g in groups] if game is not None else list(groups),
        fontsize=FONT - 1,
    )
    if rate:
        ax.set_ylim(0, 1.08)
    else:
        ax.set_ylim(min(0.0, ax.get_ylim()[0]), max(top * 1.12, 1e-9))
    ax.set_ylabel(metric_label(metric), fontsize=FONT)
    ax.set_title(title, fontsize=FONT + 2)
    ax.tick_params(axis="y", labelsize=FONT - 2)
    ax.legend(fontsize=FONT - 3, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(axis="y", alpha=0.3)
    return fig
