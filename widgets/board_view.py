"""The Stepper's board: the game's drawing from the view shown, or its text when it has none.

Pictures are cached per (position, view) — the position by its line of actions, so the position
Step computed ahead while the page was idle finds its picture ready — with :class:`~gamelib_widgets.pictures.PngCache`, so
undo, redo and switching views back and forth redraw nothing; a new position costs one drawing
and one palette PNG (:func:`~gamelib_widgets.pictures.figure_png`).  The image is updated only
when its bytes change, so a click that does not move the game sends no picture.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import ipywidgets as W

from gamelib import State

from .naming import css, escape, player_label, words
from .pictures import PngCache, figure_png

if TYPE_CHECKING:
    from .stepper import Stepper

RENDER_CACHE_SIZE = 64


class BoardView:
    """The picture (or text) of the position, from the stepper's perspective."""

    def __init__(self, stepper: Stepper) -> None:
        self.stepper = stepper
        self.board_image = W.Image(format="png", layout=W.Layout(max_width="100%", height="auto"))
        self.board_text = W.HTML()
        self.board = css(W.Box(layout=W.Layout(flex="1 1 560px", min_width="320px")), "gamelib-board")
        self.cache: PngCache[tuple[bytes | None, str]] = PngCache(RENDER_CACHE_SIZE)

    def update(self, state: State) -> None:
        png, text = self.render(state, self.stepper.perspective)
        if png is not None:
            if self.board_image.value != png:
                self.board_image.value = png
            if self.board.children != (self.board_image,):
                self.board.children = (self.board_image,)
        else:
            self.board_text.value = f"<pre style='font-size:1.1em'>{escape(text)}</pre>"
            if self.board.children != (self.board_text,):
                self.board.children = (self.board_text,)

    def clear(self) -> None:
        """Behind the hot-seat cover the hidden image keeps nothing of the seat that was shown."""
        self.board_image.value = b""
        self.board_text.value = ""

    def render(self, state: State, perspective: int | None) -> tuple[bytes | None, str]:
        """PNG of ``state`` from ``perspective`` (cached), or None and the text shown instead."""
        # by content, not identity: the position Step computed ahead (a clone) finds its picture
        key = (perspective, self.stepper.dpi, state.seed, tuple(str(a) for a in state.history))
        return self.cache.get(key, lambda: self._draw(state, perspective))

    def _draw(self, state: State, perspective: int | None) -> tuple[bytes | None, str]:
        """Games without a drawing (or whose drawing module is missing or fails) are shown as
        text, with the reason: the state's ``str`` when omniscient, the player's observation
        otherwise."""
        try:
            figure = state.draw(perspective=perspective)
        except (NotImplementedError, ImportError) as exc:
            return None, text_view(state, perspective) + "\n\n(" + words("err_no_drawing", error=exc) + ")"
        except Exception as exc:  # a drawing bug must not take the stepper (and the lesson) down
            error = f"{type(exc).__name__}: {exc}"
            return None, text_view(state, perspective) + "\n\n(" + words(
                "err_drawing_failed", error=error
            ) + ")"
        return figure_png(figure, self.stepper.dpi, tight=self.stepper.tight_bbox), ""


def text_view(state: State, perspective: int | None) -> str:
    """A position as text: the state omniscient, else what the seat observes."""
    if perspective is None:
        return str(state)
    observation = state.observation(perspective)
    if dataclasses.is_dataclass(observation) and not isinstance(observation, type):
        lines = [f"{f.name}: {getattr(observation, f.name)}" for f in dataclasses.fields(observation)]
    else:
        lines = [str(observation)]
    return "\n".join([words("sees", player=player_label(state.game, perspective)), *lines])
