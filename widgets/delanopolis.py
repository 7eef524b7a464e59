"""Delanopolis's bidding panel for the generic Stepper: the auction as the View menu's seat sees it.

The panel draws :func:`gamelib.delanopolis.draw.draw_auction` from the stepper's perspective: in a
seat's view the other seats' sealed bids stay "?" until the reveal; the omniscient view shows
every bid.  It follows the View menu (and the hot-seat mode), never the seat to act.  Pictures
are cached per (position, view), so undo/redo redraw nothing.

The Stepper's board already draws the auction beside the city, so the panel is not offered by
default (``PANELS`` is empty): the chart is drawn once per click.  Add it (``panels=[BiddingPanel]``)
for a larger chart of the auction on its own.

:func:`delanopolis_stepper` builds a Stepper with the agent made for each role.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import ipywidgets as W

import gamelib
from gamelib import State

from .naming import player_label, words
from .panels import PanelFactory
from .pictures import PngCache, figure_png
from .stepper import Stepper

PANELS: tuple[tuple[str | None, PanelFactory], ...] = ()
"""None by default: the board draws the auction already (see the module docstring)."""


class BiddingPanel:
    """The current (or last) auction, seen by the stepper's view."""

    def __init__(self, stepper: Stepper, dpi: int = 70) -> None:
        if stepper.game.name != "delanopolis":
            raise ValueError(f"BiddingPanel shows a Delanopolis auction, not {stepper.game.name!r}")
        self.stepper = stepper
        self.dpi = dpi
        self.caption = W.HTML()
        self.image = W.Image(format="png", layout=W.Layout(max_width="560px", height="auto"))
        self.widget = W.VBox([self.caption, self.image])
        self.widget.add_class("gamelib-bidding")
        self._cache: PngCache[bytes] = PngCache(32)

    def update(self, state: State) -> None:
        seat = self.stepper.perspective
        who = words("bidding_everyone") if seat is None else player_label(state.game, seat)
        self.caption.value = words("bidding_title", seat=html.escape(who))
        key = (seat, tuple(state.public_history(seat)), repr(state.observation(seat)))
        png = self._cache.get(key, lambda: self._draw(state, seat))
        if self.image.value != png:
            self.image.value = png

    def _draw(self, state: State, seat: int | None) -> bytes:
        from gamelib.delanopolis.draw import draw_auction
        from gamelib.delanopolis.rules import DelanopolisState

        assert isinstance(state, DelanopolisState)
        return figure_png(draw_auction(state, perspective=seat), self.dpi)


def delanopolis_stepper(
    players: int = 4,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    panels: tuple[PanelFactory, ...] = (),
    **kwargs: Any,
) -> Stepper:
    """A Stepper for Delanopolis; each seat starts with its role's agent.

    The board shows the auction (the bidding panel would draw it a second time); ``panels`` adds
    any others, ``panels=[BiddingPanel]`` included.
    """
    game = gamelib.make("delanopolis", players=players, options=options)
    return Stepper(game, seed=seed, panels=tuple(panels), **kwargs)


__all__ = ["PANELS", "BiddingPanel", "delanopolis_stepper"]
