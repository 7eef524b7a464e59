"""The teacher's dashboard for class play: open a room, watch every table live, move students, start
tables early, end the room, and read the class's results (the strategy lab's tables and charts).

A table's thumbnail is public: the game's drawing when nothing on it is secret (games of perfect
information, finished tables), else its public drawing (``perspective=gamelib.PUBLIC``: what every
seat sees, no hand, no face-down number, no sealed bid), beside its moves as every seat saw them
(:attr:`TableInfo.public_history`).  The projector never shows a seat's secret.
"""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING, Any

import ipywidgets as W

import gamelib
import gamelib.room
from gamelib.agents import registered_agents

from .naming import css, player_label
from .pictures import figure_png
from .room import WORDS, Poller, attempt, download_link, language_toggle, qr_html, table_card_html

if TYPE_CHECKING:
    from matplotlib.figure import Figure

THUMBNAIL_DPI = 40


def public_thumbnail(room: gamelib.room.Room, table: int) -> Figure | None:
    """The public drawing of a table in play (what every seat sees), None for a game without one."""
    state = room.state(table)
    return state.draw(perspective=gamelib.PUBLIC) if state.game.drawing else None


class TableCard(W.VBox):
    """One table on the dashboard: its text card, its public thumbnail and a Start button."""

    def __init__(self, dashboard: Dashboard, number: int) -> None:
        self.number = number
        self.text = css(W.HTML(), "gamelib-room-card-text")
        self.thumbnail = css(
            W.Image(format="png", layout=W.Layout(max_width="260px")), "gamelib-room-thumbnail"
        )
        self.start = css(W.Button(), "gamelib-room-start")
        self.start.on_click(lambda _: dashboard.start(number))
        self.shown: tuple[int, bool, str] | None = None
        super().__init__(
            [self.text, self.start],
            layout=W.Layout(border="1px solid #bbb", padding="6px", margin="4px", width="280px"),
        )
        css(self, "gamelib-room-card")

    def update(self, room: gamelib.room.Room, info: gamelib.room.TableInfo, size: int, lang: str) -> None:
        key = (info.ply, info.started, lang)
        if key == self.shown:
            return
        self.shown = key
        self.text.value = table_card_html(info, size)
        self.start.description = WORDS("start")
        children: list[W.Widget] = [self.text]
        figure = room.public_figure(info.number)
        if figure is None:  # a table with secrets in play
            figure = public_thumbnail(room, info.number)
        if figure is not None:
            self.thumbnail.value = figure_png(figure, THUMBNAIL_DPI)
            children.append(self.thumbnail)
        if not info.started:
            children.append(self.start)
        self.children = children


class Dashboard(W.VBox):
    """The teacher's page (see the module docstring).  ``code`` reopens a room after a restart."""

    def __init__(self, url: str, join_url: str, code: str | None = None, poll: float = 1.0) -> None:
        self.url = url
        self.join_url = join_url
        self.room: gamelib.room.Room | None = None
        self.cards: dict[int, TableCard] = {}
        self.notice = css(W.HTML(), "gamelib-room-message")
        self.title = W.HTML()
        self.setup = self._setup_form()
        self.banner = css(W.HTML(), "gamelib-room-banner")
        self.grid = css(W.HBox(layout=W.Layout(flex_flow="row wrap")), "gamelib-room-tables")
        self.controls = self._controls()
        self.results = css(W.VBox(), "gamelib-room-results")
        self.toggle = language_toggle(self.relabel)
        super().__init__([self.toggle, self.title, self.setup, self.notice])
        css(self, "gamelib-room-dashboard")
        self.relabel()
        self.poller = Poller(self.refresh, poll)
        if code:
            self.reopen(code)

    # ------------------------------------------------------------------ the room's settings
    def _setup_form(self) -> W.VBox:
        self.game = css(
            W.Dropdown(options=list(gamelib.registered_games()), value="fugitive"), "gamelib-room-game"
        )
        self.players = css(W.BoundedIntText(min=1, max=6), "gamelib-room-players")
        self.agent = css(W.Dropdown(), "gamelib-room-agent")
        self.options = css(W.Textarea(value="{}", layout=W.Layout(height="3em")), "gamelib-room-options")
        self.open_button = css(W.Button(button_style="primary"), "gamelib-room-open")
        self.open_button.on_click(lambda _: self.open_room())
        self.game.observe(lambda _: self._game_changed(), names="value")
        self._game_changed()
        return W.VBox([self.game, self.players, self.agent, self.options, self.open_button])

    def _game_changed(self) -> None:
        info = gamelib.make(self.game.value).info
        # widen the bounds first: a traitlets bound may never cross the other (Fugitive's 2..2 -> 3..6)
        self.players.max = max(self.players.max, info.max_players)
        self.players.min, self.players.max = info.min_players, info.max_players
        self.players.value = info.default_players
        agents = registered_agents(self.game.value)
        self.agent.options = agents
        self.agent.value = "random" if "random" in agents else agents[0]

    def relabel(self) -> None:
        self.title.value = f"<h3>{html.escape(WORDS('teacher_title'))}</h3>"
        for widget, key in [
            (self.game, "game"),
            (self.players, "table_size"),
            (self.agent, "agent"),
            (self.options, "options"),
        ]:
            widget.description = WORDS(key)
            widget.style.description_width = "initial"
        self.open_button.description = WORDS("open_room")
        self.start_all.description, self.end_button.description = WORDS("start_all"), WORDS("end_room")
        self.move_button.description = WORDS("move_student")
        self.student.description, self.to_table.description = WORDS("student"), WORDS("to_table")
        self.to_seat.description = WORDS("to_seat")
        self.results_button.description, self.against_button.description = WORDS("results"), WORDS("against")
        if self.room is not None:
            self._banner()
            for card in self.cards.values():
                card.shown = None
            self.refresh()

    def open_room(self) -> bool:
        """Open a new room with the chosen settings; False with the reason (nothing created) otherwise."""
        return self._show_room(attempt(self.notice, self._new_room, str))

    def _new_room(self) -> gamelib.room.Room:
        options = json.loads(self.options.value or "{}")
        if not isinstance(options, dict):
            raise ValueError('rule options are a JSON object like {"edition": 2}')
        gamelib.make(self.game.value, players=self.players.value, options=options)  # check first
        room = gamelib.room.open_room(self.url, gamelib.room.new_code())
        room.configure(self.game.value, players=self.players.value, options=options, agent=self.agent.value)
        return room

    def reopen(self, code: str) -> bool:
        """Show an existing room again (the dashboard reloaded, the server restarted)."""
        return self._show_room(
            attempt(self.notice, lambda: gamelib.room.open_room(self.url, code, create=False), str)
        )

    def _show_room(self, room: gamelib.room.Room | None) -> bool:
        """Show ``room`` (False, nothing changed, when there is none: the notice says why)."""
        if room is None:
            return False
        self.room = room
        self.notice.value = ""
        self._banner()
        self.children = [
            self.toggle,
            self.title,
            self.banner,
            self.grid,
            self.controls,
            self.notice,
            self.results,
        ]
        self.refresh()
        self.poller.start()
        return True

    def join_link(self) -> str:
        assert self.room is not None
        return f"{self.join_url}?code={self.room.code}"

    def _banner(self) -> None:
        assert self.room is not None
        settings = self.room.settings()
        link = self.join_link()
        self.banner.value = (
            f"<div style='display:flex;gap:24px;align-items:center'>{qr_html(link)}<div>"
            f"<div style='font-size:40px;font-weight:bold;letter-spacing:6px'>"
            f"{html.escape(WORDS('room_code', code=self.room.code))}</div>"
            f"<div>{html.escape(WORDS('join_at', url=link))}</div>"
            f"<div>{html.escape(str(settings.game))}, {settings.players} · {html.escape(settings.agent)}</div>"
            "</div></div>"
        )

    # ------------------------------------------------------------------ live tables
    def refresh(self) -> None:
        """Bring every table card up to date (a thumbnail is redrawn only when its table moved)."""
        if self.room is None:
            return
        size = self.room.settings().make_game().num_players
        lang = gamelib.language()
        infos = self.room.tables()
        for info in infos:
            card = self.cards.get(info.number)
            if card is None:
                card = self.cards[info.number] = TableCard(self, info.number)
            card.update(self.room, info, size, lang)
        cards = [self.cards[i.number] for i in infos]
        if list(self.grid.children) != cards:
            self.grid.children = cards or [W.HTML(WORDS("no_tables"))]

    def _controls(self) -> W.VBox:
        self.start_all = css(W.Button(), "gamelib-room-start-all")
        self.start_all.on_click(lambda _: self._do(lambda room: room.start_all()))
        self.end_button = css(W.Button(button_style="warning"), "gamelib-room-end")
        self.end_button.on_click(lambda _: self._do(lambda room: room.end()))
        self.student = css(W.Text(), "gamelib-room-student")
        self.to_table = css(W.BoundedIntText(min=1, max=999, value=1), "gamelib-room-to-table")
        self.to_seat = css(W.BoundedIntText(min=1, max=6, value=1), "gamelib-room-to-seat")
        self.move_button = css(W.Button(), "gamelib-room-move-student")
        self.move_button.on_click(
            lambda _: self._do(
                lambda room: room.move(self.student.value, self.to_table.value, self.to_seat.value - 1)
            )
        )
        self.results_button = css(W.Button(button_style="info"), "gamelib-room-show-results")
        self.results_button.on_click(lambda _: self.show_results())
        self.against_agent = css(
            W.Dropdown(options=["belief", "heuristic", "random"]), "gamelib-room-against"
        )
        self.against_seat = css(W.Dropdown(options=[("1", 0)]), "gamelib-room-against-seat")
        self.against_button = css(W.Button(), "gamelib-room-against-button")
        self.against_button.on_click(lambda _: self.show_against())
        for button in (
            self.start_all,
            self.end_button,
            self.move_button,
            self.results_button,
            self.against_button,
        ):
            button.layout.width = "auto"
        return W.VBox(
            [
                W.HBox([self.start_all, self.end_button]),
                W.HBox([self.student, self.to_table, self.to_seat, self.move_button]),
                W.HBox([self.results_button, self.against_agent, self.against_seat, self.against_button]),
            ]
        )

    def _do(self, operation: Any) -> bool:
        assert self.room is not None
        if attempt(self.notice, lambda: operation(self.room) or True, str) is None:
            return False
        self.notice.value = html.escape(WORDS("done"))
        self.refresh()
        return True

    def start(self, number: int) -> bool:
        return self._do(lambda room: room.start(number))

    # ------------------------------------------------------------------ results
    def show_results(self) -> None:
        """The class's results: the summary with intervals, its chart, and the records to download."""
        assert self.room is not None
        results = self.room.results()
        shown: list[W.Widget] = []
        if results.finished:
            played = results.tournament
            shown.append(W.HTML(played.summary().to_html(float_format=lambda v: f"{v:.3f}")))
            shown.append(
                W.Image(value=figure_png(played.plot(), 72), format="png", layout=W.Layout(max_width="100%"))
            )
        else:
            shown.append(W.HTML(html.escape(WORDS("no_tables"))))
        code = self.room.code
        links = [
            download_link(
                results.to_json(), f"class-{code}.json", WORDS("download_json"), "application/json"
            ),
            download_link(results.to_csv(), f"class-{code}.csv", WORDS("download_csv"), "text/csv"),
        ]
        shown.append(
            css(W.HTML(f"{html.escape(WORDS('export'))}: " + " · ".join(links)), "gamelib-room-export")
        )
        self.results.children = shown
        game = results.game
        self.against_seat.options = [(player_label(game, p), p) for p in range(game.num_players)]
        agents = registered_agents(game.name)
        self.against_agent.options = agents
        self.against_agent.value = "belief" if "belief" in agents else agents[0]

    def show_against(self, games: int = 100) -> None:
        """The class in one seat beside an agent in that seat ("our detectives against the belief detective")."""
        assert self.room is not None
        results = self.room.results()
        agent, seat = self.against_agent.value, self.against_seat.value

        def compare() -> tuple[Any, Figure]:
            table = results.against(agent, seat=int(seat), games=games)
            return table, results.plot_against(agent, int(seat), games=games)

        compared = attempt(self.notice, compare, str, (ValueError, KeyError, StopIteration))
        if compared is None:
            return
        table, figure = compared
        self.results.children = [
            *self.results.children,
            W.HTML(table.to_html(float_format=lambda v: f"{v:.3f}")),
            W.Image(value=figure_png(figure, 72), format="png", layout=W.Layout(max_width="100%")),
        ]

    def close(self) -> None:
        self.poller.stop()
        super().close()


__all__ = ["Dashboard", "TableCard"]
