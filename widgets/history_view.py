"""The Stepper's history: the line as notation, from the view shown, with click-to-rewind.

A seat's view lists the line as that seat saw it (``public_history``): the others' secret moves
appear as they were announced.  Moves after the cursor (undone, still on the redo line) are
marked; clicking any entry rewinds (or replays) the line to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as W

from gamelib import CHANCE

from .controls_view import assign
from .naming import css, words

if TYPE_CHECKING:
    from .stepper import Stepper


class HistoryView:
    """The history list (see the module docstring)."""

    def __init__(self, stepper: Stepper) -> None:
        self.stepper = stepper
        self.history_select = css(W.Select(rows=12), "gamelib-history")
        self.history_select.observe(self._on_history, "value")

    def relabel(self) -> None:
        self.history_select.description = words("history")
        self.history_select.tooltip = words("history_tip")

    def update(self) -> None:
        stepper = self.stepper
        timeline = stepper.timeline
        notations = timeline.end.public_history(stepper.perspective)
        start = timeline.start_ply
        first = words("history_start") if start == 0 else words("history_start_after", n=start)
        chance = words("history_chance")
        undone = words("history_undone")
        options: list[tuple[str, int]] = [(first, start)]
        for index in range(1, len(timeline)):
            ply = start + index
            mover = timeline.at(index - 1).current_player
            who = chance if mover == CHANCE else stepper.name(mover)
            label = f"{ply:>3}. {who}: {notations[ply - 1]}"
            if index > timeline.cursor:
                label += "   " + undone
            options.append((label, ply))
        assign(self.history_select, "options", tuple(options))
        assign(self.history_select, "value", start + timeline.cursor)

    def clear(self) -> None:
        self.history_select.options = []

    def _on_history(self, change: dict[str, Any]) -> None:
        if self.stepper.refreshing or change["new"] is None:
            return
        if change["new"] != len(self.stepper.state.history):
            self.stepper.rewind(change["new"])
