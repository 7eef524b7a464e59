"""The Stepper's controls: the legal actions, chance, the notation box, the move buttons,
autoplay, the seat menus and the View menu.

Each control has a stable CSS class (``gamelib-undo``...) so a browser test finds it whatever the
language; labels and tooltips come from the words table and are set again only when the language
changes (:meth:`ControlsView.relabel`).  On a refresh a control is written only when what it
shows changed, so a click sends the browser only the widget messages it needs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as W

from gamelib import CHANCE, Action, State

from .naming import HUMAN, button, css, escape, seat_options, seat_words, words

if TYPE_CHECKING:
    from .stepper import Stepper

MAX_BUTTONS = 24
"""Above this many legal actions the stepper lists them in a Select instead of buttons."""

_PLAY_MAX = 2**31 - 1
_WIDE_LABEL = {"description_width": "initial"}  # "player 1 (red)" whole, not "player 0 (…"


def assign(widget: Any, name: str, value: Any) -> None:
    """Set a trait only when it changes (each write of a list trait is a message to the browser)."""
    if getattr(widget, name) != value:
        setattr(widget, name, value)


def show(widget: Any, visible: bool) -> None:
    assign(widget.layout, "display", None if visible else "none")


class ControlsView:
    """Every input of the stepper (see the module docstring)."""

    def __init__(self, stepper: Stepper, speed: float) -> None:
        self.stepper = stepper
        self.perspective_dropdown = css(W.Dropdown(options=[("", 0)], value=0), "gamelib-perspective")
        self.perspective_dropdown.observe(self._on_perspective, "value")
        self.hot_seat_box = css(W.Checkbox(value=False, indent=False), "gamelib-hot-seat")
        self.hot_seat_box.observe(self._on_hot_seat, "value")
        self._build_actions()
        self._build_moves(speed)
        self._build_chance()
        self.seat_dropdowns: list[W.Dropdown] = []
        for player in range(stepper.game.num_players):
            dropdown = css(
                W.Dropdown(options=seat_options(list(stepper.agents)), value=stepper.seats[player]),
                "gamelib-seat",
            )
            dropdown.style = _WIDE_LABEL
            dropdown.observe(self._on_seat(player), "value")
            self.seat_dropdowns.append(dropdown)

    def _build_actions(self) -> None:
        # legal actions: a pool of buttons reused from move to move, or a list when there are many
        self.button_pool: list[W.Button] = []
        self.shown_actions: list[Action] = []
        self.actions_box = css(W.Box(layout=W.Layout(flex_flow="row wrap")), "gamelib-actions")
        self.action_select = css(W.Select(rows=10), "gamelib-action-list")
        self.play_selected_button = button("gamelib-play-selected", "primary")
        self.play_selected_button.on_click(lambda _: self._play_selected())
        self.action_list = W.VBox([self.action_select, self.play_selected_button])
        self.waiting = css(W.HTML(), "gamelib-waiting")
        self.notation = css(W.Text(layout=W.Layout(width="260px")), "gamelib-notation")
        self.apply_button = button("gamelib-apply", "primary")
        self.apply_button.on_click(lambda _: self._apply_typed())

    def _build_moves(self, speed: float) -> None:
        stepper = self.stepper
        self.undo_button = button("gamelib-undo")
        self.redo_button = button("gamelib-redo")
        self.reset_button = button("gamelib-reset")
        self.step_button = button("gamelib-step")
        self.play_button = button("gamelib-play-to-end", "success")
        self.undo_button.on_click(lambda _: stepper.undo())
        self.redo_button.on_click(lambda _: stepper.redo())
        self.reset_button.on_click(lambda _: stepper.reset())
        self.step_button.on_click(lambda _: stepper.step_agent())
        self.play_button.on_click(lambda _: stepper.play_to_end())
        # autoplay: the Play widget's timer runs in the browser and moves ``value`` at each beat
        self.autoplay = css(
            W.Play(value=0, min=0, max=_PLAY_MAX, step=1, interval=500, show_repeat=False),
            "gamelib-autoplay",
        )
        self.autoplay.observe(self._on_autoplay_beat, "value")
        self.speed_slider = css(
            W.FloatSlider(value=speed, min=0.5, max=20.0, step=0.5, readout_format=".1f"),
            "gamelib-speed",
        )
        self.speed_slider.observe(self._on_speed, "value")
        self._on_speed({"new": speed})

    def _build_chance(self) -> None:
        self.chance_html = W.HTML()
        self.force_dropdown = css(W.Dropdown(), "gamelib-force-choice")
        self.force_button = button("gamelib-force", "warning")
        self.roll_button = button("gamelib-roll", "info")
        self.force_button.on_click(lambda _: self._force_selected())
        self.roll_button.on_click(lambda _: self.stepper.roll())
        self.chance_box = css(
            W.VBox([self.chance_html, W.HBox([self.roll_button, self.force_dropdown, self.force_button])]),
            "gamelib-chance",
        )

    def boxes(self) -> list[Any]:
        """The controls column, top to bottom (the history list is added by the stepper)."""
        return [
            W.HBox([self.perspective_dropdown, self.hot_seat_box]),
            self.chance_box,
            self.actions_box,
            self.action_list,
            self.waiting,
            W.HBox([self.notation, self.apply_button]),
            W.HBox([self.undo_button, self.redo_button, self.reset_button]),
            W.HBox([self.step_button, self.play_button]),
            W.HBox([self.autoplay, self.speed_slider]),
            W.VBox(self.seat_dropdowns),
        ]

    # ------------------------------------------------------------------ labels
    def relabel(self) -> None:
        """Every label and tooltip in the language in force."""
        labelled: list[tuple[Any, str]] = [
            (self.apply_button, "apply"),
            (self.undo_button, "undo"),
            (self.redo_button, "redo"),
            (self.reset_button, "reset"),
            (self.step_button, "step"),
            (self.play_button, "play_to_end"),
            (self.play_selected_button, "play_selected"),
            (self.force_button, "force"),
            (self.roll_button, "roll"),
            (self.perspective_dropdown, "view"),
            (self.hot_seat_box, "hot_seat"),
            (self.autoplay, "autoplay"),
            (self.speed_slider, "speed"),
            (self.force_dropdown, "outcome"),
            (self.action_select, "actions"),
        ]
        for widget, key in labelled:
            widget.description = words(key)
            widget.tooltip = words(key + "_tip")
        self.notation.description = words("notation")
        self.sync_menus()

    def sync_menus(self) -> None:
        """The View menu and the seat menus: their entries in the language in force, their values
        as the stepper has them (set from code or by a language change)."""
        stepper = self.stepper
        names = [stepper.name(p) for p in range(stepper.game.num_players)]
        with stepper.quiet():
            assign(
                self.perspective_dropdown,
                "options",
                tuple([(words("omniscient"), 0)] + [(n, i + 1) for i, n in enumerate(names)]),
            )
            assign(self.perspective_dropdown, "value", _menu_value(stepper.perspective))
            assign(self.hot_seat_box, "value", stepper.hot_seat)
            options = tuple(seat_options(list(stepper.agents)))
            for player, dropdown in enumerate(self.seat_dropdowns):
                assign(dropdown, "options", options)
                assign(dropdown, "value", stepper.seats[player])
                assign(dropdown, "description", names[player])
                assign(dropdown, "tooltip", words("seat_tip", player=names[player]))

    # ------------------------------------------------------------------ refresh
    def update(self, state: State) -> None:
        """Show the inputs the viewer may use at ``state``."""
        stepper = self.stepper
        player = state.current_player
        perspective = stepper.perspective
        sees_moves = perspective is None or perspective == player
        acting = player >= 0 and sees_moves
        actions = state.legal_actions() if acting else []
        self.shown_actions = actions
        self._update_chance(state)
        self._update_actions(actions)
        if player >= 0 and not sees_moves:
            key = "waiting_human" if stepper.seats[player] == HUMAN else "waiting"
            assign(self.waiting, "value", words(key, **seat_words(escape(stepper.name(player)))))
            show(self.waiting, True)
        else:
            assign(self.waiting, "value", "")
            show(self.waiting, False)
        # typing moves for a player whose cards this view hides would leak them through errors
        blocked = perspective is not None and perspective != player
        assign(self.notation, "disabled", blocked)
        assign(self.apply_button, "disabled", blocked)
        assign(self.notation, "placeholder", self._placeholder(state, actions))
        hot = stepper.hot_seat
        # no way round the cover from the keyboard: the teacher turns hot seat off from code
        show(self.perspective_dropdown, not hot)
        show(self.hot_seat_box, not hot)
        assign(self.undo_button, "disabled", not stepper.can_undo())
        assign(self.redo_button, "disabled", not stepper.can_redo())
        assign(self.reset_button, "disabled", not stepper.can_undo())
        over = state.is_terminal()
        assign(self.step_button, "disabled", over)
        assign(self.play_button, "disabled", over)
        assign(self.autoplay, "disabled", over)

    def _update_chance(self, state: State) -> None:
        # chance: the outcomes are listed (and can be forced) only in the omniscient view; from a
        # seat they would tell which cards are left, hence what the others hold
        if state.current_player != CHANCE:
            show(self.chance_box, False)
            assign(self.force_dropdown, "options", ())
            return
        outcomes = state.chance_outcomes()
        show(self.chance_box, True)
        omniscient = self.stepper.perspective is None
        key = "chance_omniscient" if omniscient else "chance_seat"
        assign(self.chance_html, "value", words(key, n=len(outcomes)))
        if omniscient:
            assign(
                self.force_dropdown,
                "options",
                tuple((f"{a}  ·  {p:.1%}", i) for i, (a, p) in enumerate(outcomes)),
            )
            assign(self.force_dropdown, "value", 0)
        else:
            assign(self.force_dropdown, "options", ())
        show(self.force_dropdown, omniscient)
        show(self.force_button, omniscient)

    def _update_actions(self, actions: list[Action]) -> None:
        many = len(actions) > MAX_BUTTONS
        if actions and not many:
            while len(self.button_pool) < len(actions):
                self.button_pool.append(self._make_action_button(len(self.button_pool)))
            for widget, action in zip(self.button_pool, actions, strict=False):
                assign(widget, "description", str(action))
                assign(widget, "tooltip", words("play_action_tip", action=action))
            assign(self.actions_box, "children", tuple(self.button_pool[: len(actions)]))
        else:
            assign(self.actions_box, "children", ())
        show(self.actions_box, bool(actions) and not many)
        if many:
            assign(self.action_select, "options", tuple((str(a), i) for i, a in enumerate(actions)))
            assign(self.action_select, "value", None)
        else:
            assign(self.action_select, "options", ())
        show(self.action_list, many)

    def clear(self) -> None:
        """Behind the hot-seat cover the hidden controls keep nothing of the seat that was shown."""
        self.shown_actions = []
        self.actions_box.children = ()
        self.action_select.options = []
        self.force_dropdown.options = []
        self.chance_html.value = ""
        self.waiting.value = ""
        self.notation.value = ""
        self.notation.placeholder = ""
        show(self.perspective_dropdown, False)
        show(self.hot_seat_box, False)

    def _placeholder(self, state: State, actions: list[Action]) -> str:
        """An example from the viewer's own legal actions (or, omniscient, a chance outcome)."""
        if actions:
            return words("notation_example", example=actions[0])
        if self.stepper.perspective is None and state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            if outcomes:
                return words("outcome_example", example=outcomes[0][0])
        return ""

    def _make_action_button(self, index: int) -> W.Button:
        widget = css(W.Button(), "gamelib-action")
        widget.on_click(lambda _: self._play_index(index))
        return widget

    # ------------------------------------------------------------------ callbacks
    def _apply_typed(self) -> None:
        text = self.notation.value.strip()
        if not text:
            self.stepper.show_error(words("err_type_first"))
            return
        if self.stepper.apply(text):
            self.notation.value = ""

    def _play_index(self, index: int) -> None:
        if index < len(self.shown_actions):
            self.stepper.apply(self.shown_actions[index])

    def _play_selected(self) -> None:
        index = self.action_select.value
        if index is None:
            self.stepper.show_error(words("err_pick_first"))
            return
        self._play_index(index)

    def _force_selected(self) -> None:
        state = self.stepper.state
        outcomes = state.chance_outcomes() if self.stepper.perspective is None else []
        index = self.force_dropdown.value
        if index is None or index >= len(outcomes):
            self.stepper.show_error(words("err_no_outcome"))
            return
        self.stepper.force_chance(outcomes[index][0])

    def _on_perspective(self, change: dict[str, Any]) -> None:
        if not self.stepper.refreshing:
            value = change["new"]
            self.stepper.perspective = None if value == 0 else value - 1

    def _on_hot_seat(self, change: dict[str, Any]) -> None:
        if not self.stepper.refreshing:
            self.stepper.set_hot_seat(bool(change["new"]))

    def _on_seat(self, player: int) -> Callable[[dict[str, Any]], None]:
        def observer(change: dict[str, Any]) -> None:
            if self.stepper.refreshing:
                return
            self.stepper.seats[player] = change["new"]
            if self.stepper.hot_seat:
                self.stepper.refresh()

        return observer

    def _on_autoplay_beat(self, change: dict[str, Any]) -> None:
        if self.autoplay.playing and not self.stepper.refreshing:
            self.stepper.autoplay_tick()

    def _on_speed(self, change: dict[str, Any]) -> None:
        self.autoplay.interval = max(20, round(1000 / max(float(change["new"]), 0.01)))


def _menu_value(perspective: int | None) -> int:
    return 0 if perspective is None else perspective + 1
