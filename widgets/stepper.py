"""The generic Stepper: step through any registered game in Jupyter.

One widget for every game, built only on gamelib's public contract: the drawing from a chosen
perspective, the legal actions as buttons (or a list when there are many), a notation box, undo,
redo, reset, step, autoplay (play/pause with a speed slider) and play-to-end with an agent (or a
human) chosen per seat, chance nodes with their probabilities (roll, or force an outcome), the
history as notation with click-to-rewind, a status line, save/load of a JSON record, and a
hot-seat mode that passes the laptop between seats behind a cover.  Games add their own views as
*panels* (:mod:`gamelib_widgets.panels`).

The Stepper is a few small views over one controller: :class:`~gamelib_widgets.controller.StepperController`
holds the line, the seats, the view and the hot seat; the board
(:mod:`~gamelib_widgets.board_view`), the controls (:mod:`~gamelib_widgets.controls_view`), the
history (:mod:`~gamelib_widgets.history_view`) and the status line, cover and record box
(:mod:`~gamelib_widgets.status_view`) redraw from it after every change.  Adding a button is one
place: its view.

A seat's view shows only what that seat knows: the history as it saw it
(``state.public_history(seat)``), chance as "chance (n outcomes)" with a Roll button (the
omniscient view lists the outcomes and can force one), and a notation example only from its own
legal actions.  Every label and status line comes from ``widgets/data/words.json`` (English by
default, French after ``gamelib.set_language("fr")``, followed at the next refresh; the
:class:`~gamelib_widgets.language.LanguageToggle` switches and refreshes every stepper at once).

Every control has a stable ``description``/``tooltip`` and a ``gamelib-*`` CSS class so a browser
test can find it; every action the buttons perform is also a method (``apply``, ``undo``...) that
returns True on success or False with the reason in :attr:`Stepper.error`.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import ipywidgets as W

from gamelib import State
from gamelib.core.i18n import language

from .board_view import BoardView, text_view
from .controller import Agents, Playable, Seat, StepperController
from .controls_view import MAX_BUTTONS, ControlsView, show
from .history_view import HistoryView
from .naming import HUMAN, css, words
from .panels import Panel, PanelFactory, panels_for
from .pictures import PNG_SPEED
from .status_view import CoverView, RecordView, StatusView

PREFETCH_DELAY = 0.02
"""Seconds after a change before the next Step's position is computed ahead (the page is idle)."""

LIVE_STEPPERS: weakref.WeakSet[Stepper] = weakref.WeakSet()
"""Every Stepper alive, so a language switch can redraw them all (:func:`refresh_all`)."""


class Stepper(StepperController):
    """Step through a game turn by turn, in a notebook or from Python.

    ``game_or_state`` is a :class:`gamelib.Game`, a game name, or a :class:`gamelib.State` (a state
    with a history is replayed from its seed so that every step can be undone; the stepper opens
    at that position).  ``agents`` maps a name to an agent (anything with ``act(state, player,
    rng)``, or such a function), or gives one agent per seat; a random agent is always offered,
    and :data:`HUMAN` seats a player at the keyboard.  Without ``agents`` each seat starts with the
    agent made for its role (:func:`gamelib.agents.registry.default_agents`); with a mapping, a
    seat starts with its role's agent if the mapping names it, else with the first agent given.
    ``perspective`` is None (omniscient), a player index or a player's name.  ``panels`` are
    callables ``panel(stepper)`` returning objects with ``.widget`` and ``.update(state)``, or
    ``"auto"`` for the panels the game offers (:func:`panels_for`).  ``hot_seat=True`` starts in
    hot-seat mode (see :meth:`set_hot_seat`); ``speed`` is autoplay's moves per second; ``dpi``
    the board picture's resolution.
    """

    max_buttons = MAX_BUTTONS
    tight_bbox = False
    """Crop drawings to their content: off by default, as it costs about 40% more per redraw."""
    prefetch = True
    """Compute the next Step's position and picture while the page is idle (in a kernel only):
    a Step click or an autoplay beat then shows a ready picture (see :meth:`prefetch_step`)."""

    def __init__(
        self,
        game_or_state: Playable,
        seed: int = 0,
        agents: Agents = None,
        perspective: Seat = None,
        panels: Sequence[PanelFactory] | str = (),
        dpi: int = 100,
        hot_seat: bool = False,
        speed: float = 2.0,
    ) -> None:
        self.refreshing = False
        self._lang = ""
        self._views_ready = False
        self._prefetch_handle: asyncio.TimerHandle | None = None
        self._opened = False  # no work ahead while the page is being built: only after a change
        super().__init__(game_or_state, seed=seed, agents=agents, perspective=perspective)
        self.dpi = dpi
        self.board_view = BoardView(self)
        self.controls = ControlsView(self, speed)
        self.history_view = HistoryView(self)
        self.status_view = StatusView(self)
        self.cover_view = CoverView(self)
        self.record_view = RecordView(self)
        self._views = (
            self.board_view,
            self.controls,
            self.history_view,
            self.status_view,
            self.cover_view,
            self.record_view,
        )
        self.panels_box = css(W.VBox(), "gamelib-panels")
        self._layout()
        self._views_ready = True
        if isinstance(panels, str):
            if panels != "auto":
                raise ValueError(f"panels is a list of panel factories or 'auto', got {panels!r}")
            panels = panels_for(self.game)
        self.panels: list[Panel] = [factory(self) for factory in panels]
        self.panels_box.children = tuple(p.widget for p in self.panels)
        LIVE_STEPPERS.add(self)
        if hot_seat:
            self.set_hot_seat(True)
        else:
            self._refresh()
        self._opened = True

    def __getattr__(self, name: str) -> Any:
        """The views' widgets as the stepper's own attributes (``stepper.undo_button``...), as
        notebooks and tests have always reached them."""
        if name.startswith("__") or not self.__dict__.get("_views_ready"):
            raise AttributeError(name)
        for view in self.__dict__["_views"]:
            if name in vars(view):
                return vars(view)[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _layout(self) -> None:
        controls = W.VBox(
            [*self.controls.boxes(), self.history_view.history_select],
            layout=W.Layout(flex="0 1 420px"),
        )
        status = self.status_view
        self._header = W.HBox([status.title, status.status])
        self._main = W.HBox([self.board_view.board, controls], layout=W.Layout(flex_flow="row wrap"))
        self._record_box = self.record_view.record_box
        self._body = (self._main, self.panels_box, self._record_box)
        self.widget = css(W.VBox([self._header, status.error_html, *self._body]), "gamelib-stepper")

    @property
    def timeline(self) -> Any:
        """The line played, with its cursor (:class:`~gamelib_widgets.timeline.Timeline`)."""
        return self._timeline

    @contextmanager
    def quiet(self) -> Iterator[None]:
        """Write widgets without their observers acting (a refresh is not a click)."""
        before = self.refreshing
        self.refreshing = True
        try:
            yield
        finally:
            self.refreshing = before

    # ------------------------------------------------------------------ autoplay
    def play(self) -> None:
        """Start autoplay: the seated agents and chance move one by one at :attr:`speed`.

        The timer is the ``Play`` widget (:attr:`autoplay`), which runs in the browser (JupyterLab
        and Voilà alike) and calls :meth:`autoplay_tick` at each beat.
        """
        self.controls.autoplay.playing = True

    def pause(self) -> None:
        """Stop autoplay (any button a person presses pauses it too)."""
        if self._views_ready and self.controls.autoplay.playing:
            self.controls.autoplay.playing = False

    @property
    def speed(self) -> float:
        """Autoplay's moves per second (the speed slider)."""
        return float(self.controls.speed_slider.value)

    @speed.setter
    def speed(self, value: float) -> None:
        self.controls.speed_slider.value = value

    # ------------------------------------------------------------------ records
    def save_record(self) -> str:
        """The current position's record as JSON text (also shown in the record box)."""
        text = super().save_record()
        self.record_view.record_text.value = text
        return text

    def load_record(self, record: str | Mapping[str, Any] | None = None) -> bool:
        """Load a record (JSON text or dict; default: the record box); see the controller's."""
        if record is None:
            record = self.record_view.record_text.value
        loaded = super().load_record(record)
        if loaded:
            self.board_view.cache.clear()
        return loaded

    # ------------------------------------------------------------------ display
    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    @staticmethod
    def _text_view(state: State, perspective: int | None) -> str:
        return text_view(state, perspective)

    # ------------------------------------------------------------------ redrawing the views
    def _seat_changed(self, player: int) -> None:
        if self._views_ready:
            self.controls.sync_menus()

    def _perspective_changed(self) -> None:
        if self._views_ready:
            self.controls.sync_menus()

    def _show_error(self) -> None:
        if self._views_ready:
            self.status_view.show_error(self.error)

    def _relabel(self) -> None:
        """Every label and tooltip in the language in force (only when it changed)."""
        lang = language()
        if lang == self._lang:
            return
        self._lang = lang
        self.controls.relabel()
        self.history_view.relabel()
        self.record_view.relabel()

    def _refresh(self) -> None:
        super()._refresh()  # keeps ``covered`` right
        if not self._views_ready:
            return
        self._relabel()
        state = self._timeline.current
        with self.quiet():
            if self._covered:
                self._show_cover()
            else:
                if self.widget.children[2] is not self._main:
                    self.widget.children = (self._header, self.status_view.error_html, *self._body)
                # the picture first: it is the first message the browser gets after a click
                self.board_view.update(state)
                self.status_view.update(state)
                self.controls.update(state)
                self.history_view.update()
            show(self._record_box, not self._hot_seat)
        if not self._covered:
            for panel in self.panels:
                try:
                    panel.update(self._live)
                except Exception as exc:  # a broken panel must not take the stepper down with it
                    self.error = words(
                        "err_panel", panel=type(panel).__name__, error=f"{type(exc).__name__}: {exc}"
                    )
        self._show_error()
        self._schedule_prefetch()

    def _schedule_prefetch(self) -> None:
        """After a change, when the kernel is idle: the next Step's position and picture."""
        if not (self.prefetch and self._opened):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not in a kernel (a script, a test): nothing is ever idle
            return
        if self._prefetch_handle is not None:
            self._prefetch_handle.cancel()
        self._prefetch_handle = loop.call_later(PREFETCH_DELAY, self.prefetch_now)

    def prefetch_now(self) -> None:
        """Compute the next Step's position and draw it (what the idle kernel does)."""
        self._prefetch_handle = None
        try:
            ahead = self.prefetch_step()
            if ahead is not None and not self._covered:
                self.board_view.render(ahead, self._perspective)
        except Exception:  # work done ahead must never break the page: Step computes it again
            self._prefetched = None

    def _show_cover(self) -> None:
        """Hide everything a seat could see; ask for the next seat."""
        self.error = ""  # a refusal may name the previous seat's cards
        self.status_view.update(self._timeline.current)
        self.cover_view.update()
        self.widget.children = (self._header, self.status_view.error_html, self.cover_view.cover)
        # the hidden widgets keep nothing of the seat that was shown
        self.board_view.clear()
        self.history_view.clear()
        self.controls.clear()


def refresh_all() -> None:
    """Redraw every live Stepper (after ``gamelib.set_language``: labels, status, pictures)."""
    for stepper in list(LIVE_STEPPERS):
        stepper.refresh()


__all__ = [
    "HUMAN",
    "MAX_BUTTONS",
    "PNG_SPEED",
    "Panel",
    "PanelFactory",
    "Stepper",
    "panels_for",
    "refresh_all",
    "words",
]
