"""A class's games as the library's usual results, for the dashboard and the analysis notebooks.

:func:`class_results` turns a room's tables into a :class:`ClassResults`: ``to_pandas()`` (one row
per table and seat, with the student's name), ``tournament`` (a
:class:`gamelib.analysis.TournamentResults` where the "agent" of a student's seat is ``"class"``,
so ``summary()`` and ``plot()`` give the same tables and 95% intervals as the strategy lab), the
records as JSON and the rows as CSV, and :meth:`ClassResults.against` which sets the class beside
an agent in the same seat ("our detectives against the belief detective").
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gamelib.analysis.executors import GameOutcome
from gamelib.analysis.tournament import Stat, TournamentResults, outcome_labels

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from gamelib.core.game import Game
    from gamelib.room.room import Room

CLASS = "class"
"""The agent name of a student's seat in the results."""


class ClassResults:
    """The games of one room: finished tables by default (``unfinished`` counts the others)."""

    def __init__(self, game: Game, code: str, agent: str, games: list[dict[str, Any]]) -> None:
        self.game = game
        self.code = code
        self.agent = agent
        self.games = games
        """One dict per table: number, names, humans, returns, finished, record."""

    @property
    def finished(self) -> list[dict[str, Any]]:
        return [g for g in self.games if g["finished"]]

    @property
    def unfinished(self) -> int:
        return len(self.games) - len(self.finished)

    @property
    def tournament(self) -> TournamentResults:
        """The finished tables as tournament results: agents ``"class"`` and the room's agent."""
        names = [CLASS, self.agent]
        outcomes = [
            GameOutcome(
                index=i,
                seed=g["record"]["seed"],
                seating=tuple(0 if human else 1 for human in g["humans"]),
                returns=tuple(g["returns"]),
                length=len(g["record"]["actions"]),
                finished=True,
                record=g["record"],
                moves=tuple(g["moves"]),
            )
            for i, g in enumerate(self.finished)
        ]
        return TournamentResults(self.game, names, [None, None], 0, outcomes, executor_label="class")

    def rows(self) -> list[dict[str, Any]]:
        """One dict per table and seat: table, seat, role, name, agent, return, outcome, length, finished."""
        rows = []
        for g in self.games:
            labels = outcome_labels(g["returns"]) if g["finished"] else [""] * len(g["names"])
            for seat, name in enumerate(g["names"]):
                rows.append(
                    {
                        "table": g["number"],
                        "seat": seat,
                        "role": self.game.player_name(seat),
                        "name": name,
                        "agent": CLASS if g["humans"][seat] else self.agent,
                        "return": g["returns"][seat],
                        "outcome": labels[seat],
                        "length": len(g["record"]["actions"]),
                        "finished": g["finished"],
                    }
                )
        return rows

    def to_pandas(self) -> Any:
        import pandas as pd

        return pd.DataFrame(self.rows())

    def to_csv(self, path: str | Path | None = None) -> str:
        """The rows as CSV text (written to ``path`` when given)."""
        out = io.StringIO()
        rows = self.rows()
        fields = list(rows[0]) if rows else ["table", "seat", "role", "name", "agent", "return"]
        writer = csv.DictWriter(out, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
        if path is not None:
            Path(path).write_text(out.getvalue(), encoding="utf-8")
        return out.getvalue()

    def to_json(self, path: str | Path | None = None) -> str:
        """Every table's record (``gamelib.from_record`` replays it) with the seats' names, as JSON."""
        data = [
            {
                "table": g["number"],
                "names": list(g["names"]),
                "humans": list(g["humans"]),
                "record": g["record"],
            }
            for g in self.games
        ]
        text = json.dumps({"room": self.code, "games": data}, indent=1)
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    def stat(self, seat: int) -> Stat | None:
        """The class's results in ``seat`` (finished tables where a student held it)."""
        picked = [g for g in self.finished if g["humans"][seat]]
        if not picked:
            return None
        return Stat.of(
            [outcome_labels(g["returns"])[seat] for g in picked], [g["returns"][seat] for g in picked]
        )

    def against(
        self, agent: str, seat: int, games: int = 200, opponents: str | None = None, seed: int = 0
    ) -> Any:
        """The class in ``seat`` beside ``agent`` in that seat (against ``opponents``, default the
        room's agent), as a DataFrame of Stats: "our detectives against the belief detective"."""
        import pandas as pd

        from gamelib.analysis.tournament import tournament

        others = opponents or self.agent
        lineup = [others] * self.game.num_players
        lineup[seat] = agent
        played = tournament(self.game, lineup, games=games, seed=seed, rotate=False, progress=False)
        theirs = played.stats("agent_seat")
        key = next(k for k in theirs if k[1] == self.game.player_name(seat))
        frame = {CLASS: self.stat(seat), f"{agent} (agent)": theirs[key]}
        table = pd.DataFrame([vars(s) for s in frame.values() if s is not None])
        table.index = pd.Index(
            [k for k, s in frame.items() if s is not None], name=self.game.player_name(seat)
        )
        return table

    def plot_against(
        self, agent: str, seat: int, games: int = 200, opponents: str | None = None, ax: Any = None
    ) -> Figure:
        """:meth:`against` as bars with their 95% intervals (the strategy lab's chart)."""
        from gamelib.analysis.plots import default_metric, grouped_bars

        table = self.against(agent, seat, games, opponents)
        stats = [Stat(**row) for row in table.to_dict("records")]
        return grouped_bars(
            groups=list(table.index),
            series={f"as {self.game.player_name(seat)}": stats},
            title=f"{self.game.info.title}: class and {agent}",
            metric=default_metric(self.game),
            fair=1.0 / self.game.num_players,
            ax=ax,
        )


def class_results(room: Room) -> ClassResults:
    settings = room.settings()
    game = settings.make_game()
    games = []
    for info in room.tables():
        state = room.state(info.number)
        moves = [0] * game.num_players
        for ply_player in room.store.query(
            "SELECT player FROM actions WHERE room = ? AND number = ? AND player >= 0",
            (room.code, info.number),
        ):
            moves[int(ply_player[0])] += 1
        games.append(
            {
                "number": info.number,
                "names": info.names,
                "humans": info.humans,
                "returns": tuple(state.returns()),
                "finished": info.finished,
                "moves": moves,
                "record": state.to_record(),
            }
        )
    return ClassResults(game, room.code, settings.agent, games)
