"""Agents against a common field: each contender plays one seat, the baseline fills the others.

A quick way to rank agents in a game of any player count: every contender meets the same
opponents (``random`` by default) on the same seeds, with seats rotating, and its win rate is read
against the fair share ``1/players``.  Head-to-head questions are :func:`gamelib.tournament`'s.

>>> import gamelib
>>> from gamelib.analysis.compare import compare_agents
>>> c = compare_agents("fugitive", ["first", "random"], games=6, progress=False)
>>> list(c.results)
['first', 'random']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gamelib.analysis.tournament import ShownAsTable, Stat, TournamentResults, rates_text, tournaments_of
from gamelib.core.game import Game
from gamelib.core.play import agent_label, unique_names

if TYPE_CHECKING:
    from matplotlib.figure import Figure


class Comparison(ShownAsTable):
    """One tournament per contender against the same baseline field."""

    def __init__(self, game: Game, baseline: str, results: Mapping[str, TournamentResults]) -> None:
        self.game = game
        self.baseline = baseline
        self.results = dict(results)

    def stat(self, name: str, by_seat: str | None = None) -> Stat:
        """The contender's statistics (over all seats, or in one seat)."""
        res = self.results[name]
        contender = res.agent_names[0]
        if by_seat is None:
            return res.stats("agent")[contender]
        return res.stats("agent_seat")[(contender, by_seat)]

    def rows(self) -> list[dict[str, Any]]:
        return [{"agent": name, **vars(self.stat(name))} for name in self.results]

    def summary(self) -> Any:
        """A DataFrame: each contender's games, win rate with its 95% interval, mean return."""
        import pandas as pd

        return pd.DataFrame(self.rows()).set_index("agent")

    def __str__(self) -> str:
        lines = [f"{self.game.name}: each agent against {self.game.num_players - 1} x {self.baseline}"]
        for row in self.rows():
            lines.append(f"  {row['agent'][:27]:<28} {rates_text(row)} over {row['games']} games")
        return "\n".join(lines)

    def plot(self, metric: str | None = None, by_seat: bool = True, ax: Any = None) -> Figure:
        """Each contender's win rate (or mean return) against the field, overall and per seat."""
        from gamelib.analysis.plots import WORDS, default_metric, grouped_bars

        names = list(self.results)
        series: dict[str, list[Any]] = {WORDS("all_seats"): [self.stat(n) for n in names]}
        seats = [self.game.player_name(s) for s in range(self.game.num_players)]
        if by_seat and len(seats) > 1:
            for seat in seats:
                series[WORDS("as_seat", seat=seat)] = [self.stat(n, seat) for n in names]
        games = len(next(iter(self.results.values())))
        return grouped_bars(
            groups=names,
            series=series,
            title=WORDS("each_vs", title=self.game.info.title, baseline=self.baseline, n=games),
            metric=metric or default_metric(self.game),
            fair=1.0 / self.game.num_players,
            ax=ax,
            game=self.game,
        )


def compare_agents(
    game: Game | str,
    agents: Sequence[Any] | Mapping[str, Any],
    baseline: Any = "random",
    games: int = 100,
    seed: int = 0,
    executor: Any = None,
    *,
    options: Mapping[str, Any] | None = None,
    players: int | None = None,
    progress: bool = True,
    **tournament_kwargs: Any,
) -> Comparison:
    """Play each agent against ``players - 1`` copies of ``baseline`` (same seeds for every agent)."""
    base_name = baseline if isinstance(baseline, str) else agent_label(baseline)

    def fields(the_game: Game, pairs: list[tuple[str, Any]]) -> dict[str, dict[str, Any]]:
        if not pairs:
            raise ValueError("compare_agents needs at least one agent")
        others = the_game.num_players - 1
        return {
            name: dict(
                zip(unique_names([name, *[base_name] * others]), [agent, *[baseline] * others], strict=True)
            )
            for name, agent in pairs
        }

    the_game, _, results = tournaments_of(
        game, agents, fields, players, options, games, seed, executor, progress, tournament_kwargs
    )
    return Comparison(the_game, base_name, results)
