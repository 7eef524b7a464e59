"""Class play pages: a student's seat, the join page, and the teacher's dashboard (ipywidgets).

Built on :mod:`gamelib.room` only.  What a student's page receives is rendered here, in the kernel,
from that seat's own view: the drawing from the seat's perspective (a PNG), its status line, its
history as it saw it and its legal moves.  The table's state never goes into widget state, so the
browser holds nothing of another seat's secret.

The pages poll the store on the kernel's event loop (an ``asyncio`` task; ``refresh()`` by hand
where there is none, as in tests): another seat's move shows within ``poll`` seconds.
"""

from __future__ import annotations

import asyncio
import base64
import html
from collections.abc import Callable
from typing import Any, TypeVar

import ipywidgets as W

import gamelib
import gamelib.room
from gamelib.core.i18n import Wording, language, set_language
from gamelib.room import RoomError, StaleMove, TableInfo

from .naming import css, player_label
from .pictures import figure_png

WORDS = Wording("gamelib.room")
MAX_MOVE_BUTTONS = 14
"""More legal moves than this: a list and a Play button instead of one button per move."""
HISTORY_SHOWN = 12


def _message(error: Exception) -> str:
    """A refusal in the page's language: what happened and what to do."""
    if isinstance(error, StaleMove):
        return WORDS("stale")
    if isinstance(error, gamelib.room.NotYourTurn):
        return WORDS("not_your_turn")
    if isinstance(error, gamelib.IllegalAction):
        return WORDS("refused", reason=error.detail)
    if isinstance(error, RoomError) and error.key:
        return WORDS(error.key, **error.fields)
    return WORDS("bad_input", reason=str(error))


Result = TypeVar("Result")


def attempt(
    notice: W.HTML,
    work: Callable[[], Result],
    message: Callable[[Exception], str] = _message,
    errors: tuple[type[Exception], ...] = (ValueError,),
) -> Result | None:
    """``work()``, or None with the refusal shown in red in ``notice`` (``message(error)``).

    The pages' one way to try something a click asked for: every room operation refuses with a
    ValueError (RoomError, StaleMove, NotYourTurn, IllegalAction) and changes nothing then."""
    try:
        return work()
    except errors as error:
        notice.value = f"<span style='color:#a00'>{html.escape(message(error))}</span>"
        return None


def result_text(names: tuple[str, ...], returns: tuple[float, ...]) -> str:
    """ "Result: Ana 1, Bob 0. Ana wins." in the language in force."""
    scores = ", ".join(WORDS("score", name=n, value=r) for n, r in zip(names, returns, strict=True))
    top = max(returns)
    leaders = [n for n, r in zip(names, returns, strict=True) if r == top]
    verdict = (
        WORDS("winner", name=leaders[0]) if len(leaders) == 1 else WORDS("draw", names=", ".join(leaders))
    )
    return f"{WORDS('result', scores=scores)} {verdict}"


class Poller:
    """Call ``tick`` every ``period`` seconds on the kernel's running event loop (none: no polling)."""

    def __init__(self, tick: Callable[[], Any], period: float) -> None:
        self.tick = tick
        self.period = period
        self.task: asyncio.Task[None] | None = None

    def start(self) -> bool:
        try:
            loop = asyncio.get_event_loop()
        except RuntimeError:
            return False
        if not loop.is_running() or self.task is not None:
            return False
        self.task = loop.create_task(self._run())
        return True

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.period)
            try:
                self.tick()
            except Exception:  # a page keeps polling through a store hiccup; the next tick retries
                continue

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None


class SeatPanel(W.VBox):
    """One student's seat: the board from that seat, its status, its moves, its history."""

    def __init__(self, seat: gamelib.room.Seat, poll: float = 0.25, dpi: int = 72) -> None:
        self.seat = seat
        self.dpi = dpi
        self.game = seat.room.settings().make_game()
        self.header = css(W.HTML(), "gamelib-room-header")
        self.status = css(W.HTML(), "gamelib-room-status")
        self.board = css(W.Image(format="png", layout=W.Layout(max_width="100%")), "gamelib-room-board")
        self.moves = css(W.HBox(layout=W.Layout(flex_flow="row wrap")), "gamelib-room-moves")
        self.choice = css(W.Dropdown(), "gamelib-room-choice")
        self.play_button = css(W.Button(button_style="primary"), "gamelib-room-play")
        self.play_button.on_click(lambda _: self.play(str(self.choice.value or "")))
        self.history = css(W.HTML(), "gamelib-room-history")
        self.notice = css(W.HTML(), "gamelib-room-message")
        self._shown: tuple[int, str, bool] | None = None
        # moves first: on a phone the board is below the fold, the buttons must not be
        super().__init__([self.header, self.status, self.moves, self.notice, self.board, self.history])
        css(self, "gamelib-room-seat")
        self.refresh()
        self.poller = Poller(self.refresh, poll)
        self.poller.start()

    def refresh(self, force: bool = False) -> bool:
        """Redraw if the table moved (or the language changed); True when something was redrawn."""
        view = self.seat.view()
        key = (view.ply, language(), view.started)
        if key == self._shown and not force:
            return False
        self._shown = key
        role = player_label(self.game, view.player)
        self.header.value = "<b>{}</b>".format(
            html.escape(WORDS("you_are", n=view.player + 1, role=role, table=view.table))
        )
        self.status.value = f"<b>{html.escape(self._status(view))}</b>"
        self.board.value = figure_png(self.seat.draw(), self.dpi)
        self._show_moves(view.legal)
        seen = view.information.history if view.information is not None else ()
        self.history.value = "<small>{}</small>".format(
            html.escape(" · ".join(seen[-HISTORY_SHOWN:])) if seen else ""
        )
        return True

    def _status(self, view: gamelib.room.SeatView) -> str:
        if view.finished and view.returns is not None:
            return result_text(view.names, view.returns)
        if not view.started:
            return WORDS("waiting_players")
        if view.my_turn:
            return WORDS("your_turn")
        if view.to_move == gamelib.CHANCE:
            return WORDS("waiting_chance")
        return WORDS("waiting_for", name=view.names[view.to_move])

    def _show_moves(self, legal: tuple[str, ...]) -> None:
        self.play_button.description = WORDS("play")
        if len(legal) > MAX_MOVE_BUTTONS:
            self.choice.options = list(legal)
            self.moves.children = [self.choice, self.play_button]
            return
        buttons = []
        for notation in legal:
            button = css(W.Button(description=notation, tooltip=notation), "gamelib-room-move")
            button.on_click(lambda _, n=notation: self.play(n))
            buttons.append(button)
        self.moves.children = buttons

    def play(self, notation: str) -> bool:
        """Play ``notation`` at the ply this page shows; False with the reason in the message line."""
        ply = self._shown[0] if self._shown else self.seat.ply
        played = attempt(self.notice, lambda: self.seat.apply(notation, ply=ply))
        if played is not None:
            self.notice.value = ""
        self.refresh(force=True)
        return played is not None

    def close(self) -> None:
        self.poller.stop()
        super().close()


def language_toggle(on_change: Callable[[], Any]) -> W.ToggleButtons:
    """English / Français: switches every text of the page."""
    toggle = css(
        W.ToggleButtons(options=[("English", "en"), ("Français", "fr")], value=language()), "gamelib-lang"
    )

    def changed(change: dict[str, Any]) -> None:
        set_language(change["new"])
        on_change()

    toggle.observe(changed, names="value")
    return toggle


class JoinPage(W.VBox):
    """The join page: a room code and a name (or a seat token to come back) -> that seat's panel."""

    def __init__(self, url: str, code: str = "", token: str = "", poll: float = 0.25) -> None:
        self.url = url
        self.poll = poll
        self.title = W.HTML()
        self.code = css(W.Text(value=code), "gamelib-room-code")
        self.name = css(W.Text(), "gamelib-room-name")
        self.join_button = css(W.Button(button_style="primary"), "gamelib-room-join")
        self.join_button.on_click(lambda _: self.join())
        self.token = css(W.Text(value=token), "gamelib-room-token")
        self.rejoin_button = css(W.Button(), "gamelib-room-rejoin")
        self.rejoin_button.on_click(lambda _: self.rejoin())
        self.notice = css(W.HTML(), "gamelib-room-message")
        self.form = W.VBox([self.code, self.name, self.join_button, self.token, self.rejoin_button])
        self.kept = css(W.HTML(), "gamelib-room-keep")
        self.panel: SeatPanel | None = None
        self.toggle = language_toggle(self.relabel)
        super().__init__([self.toggle, self.title, self.form, self.notice])
        css(self, "gamelib-room-join-page")
        self.relabel()
        if token:
            self.rejoin()

    def use_query(self, code: str, token: str) -> bool:
        """Take the code (and seat token) from the page's address: prefill, and come back to the seat."""
        if code and not self.code.value:
            self.code.value = code
        if token and self.panel is None:
            self.token.value = token
            return self.rejoin()
        return False

    def relabel(self) -> None:
        self.title.value = f"<h3>{html.escape(WORDS('join_title'))}</h3>"
        self.code.description, self.name.description = WORDS("code"), WORDS("name")
        self.join_button.description = WORDS("join")
        self.token.description, self.rejoin_button.description = WORDS("rejoin"), WORDS("rejoin_button")
        for widget in (self.code, self.name, self.token):
            widget.style.description_width = "initial"
        if self.panel is not None:
            self.panel.refresh(force=True)

    def join(self) -> bool:
        """Seat the student; False with a clear message (nothing changed) otherwise."""
        return self._seated(attempt(self.notice, self._join))

    def _join(self) -> gamelib.room.Seat:
        room = gamelib.room.open_room(self.url, self.code.value, create=False)
        game = room.settings().game
        if game is None:
            raise RoomError("the teacher has not chosen the game yet", "no_game")
        return room.join(game, self.name.value)

    def rejoin(self) -> bool:
        """Seat the student again by the token kept from an earlier visit."""
        room = attempt(self.notice, lambda: gamelib.room.open_room(self.url, self.code.value, create=False))
        seat = None if room is None else attempt(self.notice, lambda: room.seat(self.token.value.strip()))
        return self._seated(seat)

    def _seated(self, seat: gamelib.room.Seat | None) -> bool:
        """Show ``seat``'s panel (False, nothing changed, when there is no seat: the notice says why)."""
        if seat is None:
            return False
        self.notice.value = ""
        self.panel = SeatPanel(seat, poll=self.poll)
        link = f"?code={seat.room.code}&token={seat.token}"
        self.kept.value = "<small>{} <a href='{}'>{}</a></small>".format(
            html.escape(WORDS("token_hint")), html.escape(link), html.escape(seat.token)
        )
        self.children = [self.toggle, self.panel, self.kept]
        return True


def warm_up(url: str | None = None) -> str:
    """Draw a new game once (fonts, static layers and modules load here, not at a student's first
    picture): a preheated Voilà kernel does it before anyone arrives.  The game is the one of the
    store's newest open room (``url``), else Fugitive; only that one, to keep the kernel small."""
    name = "fugitive"
    if url is not None:
        try:
            room = gamelib.room.open_room(url, create=False)
        except ValueError:  # no room yet (or no store): Fugitive
            pass
        else:
            name = room.settings().game or name
            room.close()
    state = gamelib.make(name).new_game(seed=0)
    figure_png(state.draw(perspective=0), 72)
    return name


def qr_html(text: str, scale: int = 6) -> str:
    """A QR code of ``text`` as inline SVG (segno), for the projector."""
    import segno

    svg: str = segno.make(text, error="m").svg_inline(scale=scale)
    return svg


def download_link(text: str, filename: str, label: str, mime: str) -> str:
    """A link that downloads ``text`` as ``filename`` (a data URI: the server serves no file)."""
    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return f"<a download='{html.escape(filename)}' href='data:{mime};base64,{data}'>{html.escape(label)}</a>"


def table_card_html(info: TableInfo, size: int) -> str:
    """A table as the dashboard shows it: names (the one to move marked), state, ply, last moves."""
    rows = []
    for player, name in enumerate(info.names):
        mark = "▶ " if info.started and info.to_move == player else ""
        rows.append(f"{mark}{html.escape(WORDS('player', n=player + 1))}: {html.escape(name)}")
    if info.finished and info.returns is not None:
        state = result_text(info.names, info.returns)
    elif not info.started:
        state = WORDS("waiting_table", n=info.students, size=size)
    elif info.to_move == gamelib.CHANCE:
        state = WORDS("waiting_chance")
    else:
        state = WORDS("to_move", name=info.names[info.to_move])
    last = " · ".join(info.public_history[-6:])
    return (
        f"<b>{html.escape(WORDS('table', n=info.number))}</b> <small>({html.escape(WORDS('ply', n=info.ply))})"
        f"</small><br>{'<br>'.join(rows)}<br><i>{html.escape(state)}</i><br><small>{html.escape(last)}</small>"
    )


__all__ = ["JoinPage", "Poller", "SeatPanel", "qr_html", "result_text", "table_card_html", "warm_up"]
