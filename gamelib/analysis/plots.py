"""Figures of tournament and sweep results: built on ``matplotlib.figure.Figure`` (no pyplot state)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from matplotlib.figure import Figure

PALETTE = ("#1f5fa8", "#e07b00", "#2a9d3a", "#c0392b", "#7d3cb5", "#7f6a00")
FONT = 14


def new_axes(ax: Any, width: float = 9.0, height: float = 5.0) -> tuple[Figure, Any]:
    if ax is not None:
        return ax.figure, ax
    fig = Figure(figsize=(width, height), layout="constrained")
    return fig, fig.add_subplot()


def grouped_rates(
    groups: Sequence[str],
    series: Mapping[str, Sequence[Any]],
    title: str,
    fair: float | None = None,
    ax: Any = None,
) -> Figure:
    """Grouped bars of win rates with asymmetric (Wilson) error bars.

    ``series`` maps a label to one :class:`~gamelib.analysis.tournament.Stat` (or None) per group.
    """
    fig, ax = new_axes(ax, width=min(14.0, max(8.0, 0.55 * len(groups) * len(series) + 4)))
    count = len(series)
    width = 0.8 / count
    for k, (label, stats) in enumerate(series.items()):
        xs, ys, lows, highs = [], [], [], []
        for g, s in enumerate(stats):
            if s is None:
                continue
            xs.append(g - 0.4 + width * (k + 0.5))
            ys.append(s.win_rate)
            lows.append(s.win_rate - s.win_low)
            highs.append(s.win_high - s.win_rate)
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
            if y >= 0.12:  # inside the bar
                ax.text(
                    x,
                    y / 2,
                    f"{y:.0%}",
                    ha="center",
                    va="center",
                    color="white",
                    fontsize=FONT - 2,
                    weight="bold",
                )
            else:  # above the error bar
                ax.text(
                    x, y + high + 0.02, f"{y:.0%}", ha="center", va="bottom", fontsize=FONT - 2, weight="bold"
                )
    if fair is not None:
        ax.axhline(fair, color="#555555", linestyle="--", linewidth=1.5, label=f"fair share {fair:.0%}")
    ax.set_xticks(range(len(groups)), list(groups), fontsize=FONT)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("win rate (95% Wilson interval)", fontsize=FONT)
    ax.set_title(title, fontsize=FONT + 2)
    ax.tick_params(axis="y", labelsize=FONT - 2)
    ax.legend(fontsize=FONT - 3, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(axis="y", alpha=0.3)
    return fig
