"""Round robins: more agents than seats, every group of them meets.

With ``k`` agents and an ``n``-player game, each of the ``C(k, n)`` groups of distinct agents plays
a seat-rotating tournament on the same seeds.  For two-player games the result is a **win matrix**
(row agent's win rate against the column agent), the usual way to spot non-transitive strategies
(A beats B beats C beats A) that a single ranking hides.

>>> from gamelib.analysis.round_robin import round_robin
>>> rr = round_robin("fugitive", ["random", "first", "random"], games=4, progress=False)
>>> sorted(rr.results)
[('first', 'random#2'), ('random', 'first'), ('random', 'random#2')]
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gamelib.analysis.tournament import ShownAsTable, Stat, TournamentResults, rates_text, tournaments_of
from gamelib.core.game import Game
from gamelib.core.play import unique_names

if TYPE_CHECKING:
    from matplotlib.figure import Figure


class RoundRobin(ShownAsTable):
    """One :class:`TournamentResults` per group of agents, keyed by the group's names."""

    def __init__(
        self, game: Game, names: Sequence[str], results: Mapping[tuple[str, ...], TournamentResults]
    ) -> None:
        self.game = game
        self.names = list(names)
        self.results = dict(results)

    def stats(self, confidence: float = 0.95) -> dict[str, Stat]:
        """Each agent's record over all its games."""
        outcomes: dict[str, list[str]] = {n: [] for n in self.names}
        returns: dict[str, list[float]] = {n: [] for n in self.names}
        for res in self.results.values():
            for row in res.rows():
                outcomes[row["agent"]].append(row["outcome"])
                returns[row["agent"]].append(row["return"])
        bounds = (float(self.game.info.min_return), float(self.game.info.max_return))
        return {n: Stat.of(outcomes[n], returns[n], confidence, bounds) for n in self.names}

    def summary(self) -> Any:
        """A DataFrame per agent: games, wins, draws, losses, win rate and mean return with intervals."""
        import pandas as pd

        stats = self.stats()
        frame = pd.DataFrame([vars(s) for s in stats.values()])
        frame.index = pd.Index(list(stats), name="agent")
        return frame

    def matrix(self) -> Any:
        """Two-player games: the row agent's win rate against the column agent (NaN on the diagonal)."""
        import pandas as pd

        if self.game.num_players != 2:
            raise ValueError(
                f"a win matrix needs a two-player game; {self.game.name} has {self.game.num_players}"
            )
        table = pd.DataFrame(float("nan"), index=self.names, columns=self.names)
        for (a, b), res in self.results.items():
            stats = res.stats("agent")
            table.loc[a, b] = stats[a].win_rate
            table.loc[b, a] = stats[b].win_rate
        table.index.name = "agent"
        return table

    def __str__(self) -> str:
        lines = [f"{self.game.name} round robin: {len(self.names)} agents, {len(self.results)} groups"]
        for name, s in self.stats().items():
            lines.append(f"  {name[:27]:<28} {rates_text(vars(s))} over {s.games} games")
        return "\n".join(lines)

    def plot(self, ax: Any = None) -> Figure:
        """Two players: the win matrix as a heat map; more: each agent's overall win rate."""
        from gamelib.analysis.plots import FONT, WORDS, default_metric, grouped_bars, new_axes

        if self.game.num_players != 2:
            stats = self.stats()
            return grouped_bars(
                groups=self.names,
                series={WORDS("all_games"): [stats[n] for n in self.names]},
                title=WORDS("round_robin_title", title=self.game.info.title),
                metric=default_metric(self.game),
                fair=1.0 / self.game.num_players,
                ax=ax,
                game=self.game,
            )
        table = self.matrix()
        size = 2.0 + 1.3 * len(self.names)
        fig, ax = new_axes(ax, width=size + 1.5, height=size)
        import matplotlib

        # the diagonal (NaN: an agent does not play itself) in grey
        cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="#bbbbbb")
        image = ax.imshow(table.to_numpy(dtype=float), cmap=cmap, vmin=0.0, vmax=1.0)
        for i, row in enumerate(self.names):
            for j, col in enumerate(self.names):
                value = table.loc[row, col]
                if value == value:  # not NaN
                    colour = "white" if abs(value - 0.5) > 0.3 else "black"
                    ax.text(j, i, f"{value:.0%}", ha="center", va="center", fontsize=FONT, color=colour)
        ax.set_xticks(range(len(self.names)), self.names, fontsize=FONT - 1, rotation=30, ha="right")
        ax.set_yticks(range(len(self.names)), self.names, fontsize=FONT - 1)
        ax.set_xlabel(WORDS("opponent"), fontsize=FONT)
        ax.set_ylabel(WORDS("agent"), fontsize=FONT)
        games = len(next(iter(self.results.values())))
        ax.set_title(WORDS("win_matrix_title", title=self.game.info.title, n=games), fontsize=FONT)
        fig.colorbar(image, ax=ax, shrink=0.8).ax.tick_params(labelsize=FONT - 3)
        return fig


def round_robin(
    game: Game | str,
    agents: Sequence[Any] | Mapping[str, Any],
    games: int = 100,
    seed: int = 0,
    executor: Any = None,
    *,
    options: Mapping[str, Any] | None = None,
    players: int | None = None,
    progress: bool = True,
    **tournament_kwargs: Any,
) -> RoundRobin:
    """Every group of ``players`` distinct agents plays ``games`` games (seats rotating, same seeds)."""

    def fields(the_game: Game, pairs: list[tuple[str, Any]]) -> dict[tuple[str, ...], dict[str, Any]]:
        names = unique_names([label for label, _ in pairs])
        n = the_game.num_players
        if len(pairs) < n:
            raise ValueError(f"a round robin of {the_game.name} needs at least {n} agents, got {len(pairs)}")
        groups = itertools.combinations(range(len(pairs)), n)
        return {tuple(names[i] for i in g): {names[i]: pairs[i][1] for i in g} for g in groups}

    the_game, pairs, results = tournaments_of(
        game, agents, fields, players, options, games, seed, executor, progress, tournament_kwargs
    )
    return RoundRobin(the_game, unique_names([label for label, _ in pairs]), results)
