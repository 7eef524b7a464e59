"""Delanopolis's bidding panel for the generic Stepper: the auction as the View menu's seat sees it.

The panel draws :func:`gamelib.delanopolis.draw.draw_auction` from the stepper's perspective: in a
seat's view the other seats' sealed bids stay "?" until the reveal; the omniscient view shows
every bid.  It follows the View menu (and the hot-seat mode), never the seat to act.  Pictures
are cached per (position, view), so undo/redo redraw nothing.

:func:`delanopolis_stepper` builds a Stepper with this panel and the agent made for each role.
"""

from __future__ import annotations

import html
import io
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import ipywidgets as W

import gamelib
from gamelib import State

from .stepper import PNG_SPEED, PanelFactory, Stepper, words

_PNG_CACHE_SIZE = 32


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
        self._cache: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()

    def update(self, state: State) -> None:
        seat = self.stepper.perspective
        who = words("bidding_everyone") if seat is None else state.game.player_name(seat)
        self.caption.value = words("bidding_title", seat=html.escape(who))
        key = (seat, gamelib.language(), tuple(state.public_history(seat)), repr(state.observation(seat)))
        png = self._cache.get(key)
        if png is None:
            from gamelib.delanopolis.draw import draw_auction
            from gamelib.delanopolis.rules import DelanopolisState

            assert isinstance(state, DelanopolisState)
            figure = draw_auction(state, perspective=seat)
            buffer = io.BytesIO()
            figure.savefig(buffer, format="png", dpi=self.dpi, pil_kwargs=PNG_SPEED)
            png = buffer.getvalue()
            self._cache[key] = png
            while len(self._cache) > _PNG_CACHE_SIZE:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        self.image.value = png


def delanopolis_stepper(
    players: int = 4,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    panels: tuple[PanelFactory, ...] = (),
    **kwargs: Any,
) -> Stepper:
    """A Stepper for Delanopolis with the bidding panel; each seat starts with its role's agent."""
    game = gamelib.make("delanopolis", players=players, options=options)
    return Stepper(game, seed=seed, panels=(BiddingPanel, *panels), **kwargs)


__all__ = ["BiddingPanel", "delanopolis_stepper"]
