"""The Stepper's frame: the title and status line, the error line, the hot-seat cover and the
record box.

The status line says the move number, who is to move (or the verdict), the view shown and the
seed; the verdict of a cooperative game comes with its rating when the game declares one
(:attr:`gamelib.Game.rating`, a ``"module:function"`` path: the generic stepper names no game).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import ipywidgets as W

from gamelib import Game, State
from gamelib.core.resolve import resolve

from .controls_view import assign
from .naming import button, css, escape, seat_words, words

if TYPE_CHECKING:
    from .stepper import Stepper


def rating_for(game: Game) -> Callable[[int], str] | None:
    """The game's ``rating(score)`` (:attr:`gamelib.Game.rating`), if it grades a final score."""
    if not game.rating:
        return None
    rating: Callable[[int], str] = resolve(game.rating)
    return rating


class StatusView:
    """Title, status line and error line."""

    def __init__(self, stepper: Stepper) -> None:
        self.stepper = stepper
        self.title = W.HTML(f"<b style='font-size:1.3em'>{escape(stepper.game.info.title)}</b>")
        self.status = css(W.HTML(), "gamelib-status")
        self.error_html = css(W.HTML(), "gamelib-error")

    def update(self, state: State) -> None:
        stepper = self.stepper
        parts = [escape(words("status_move", n=len(state.history)))]
        if state.is_terminal():
            parts.append(f"<b>{escape(self.verdict(state))}</b>")
        else:
            parts.append(f"<b>{escape(stepper.to_move_text())}</b>")
        if stepper.hot_seat:
            parts.append(escape(words("status_hot_seat")))
        if not stepper.covered:
            seat = stepper.perspective
            view = words("omniscient") if seat is None else stepper.name(seat)
            parts.append(escape(words("status_view", view=view)))
        if stepper.perspective is None and not stepper.hot_seat:
            # the seed and the move number give every sampled draw: only the omniscient view shows it
            parts.append(escape(words("status_seed", seed=state.seed)))
        assign(self.status, "value", "&nbsp;&nbsp;·&nbsp;&nbsp;" + " · ".join(parts))

    def show_error(self, error: str) -> None:
        value = ""
        if error:
            value = f"<span style='color:#b00020;font-weight:bold;font-size:1.1em'>✗ {escape(error)}</span>"
        assign(self.error_html, "value", value)

    def verdict(self, state: State) -> str:
        """The end of the game in words: the score (and its rating) of a cooperative game, else
        who won, with every player's return."""
        game = state.game
        name = self.stepper.name
        returns = state.returns()
        if game.info.utility == "identical":
            score = f"{returns[0]:g}"
            rating = rating_for(game)
            if rating is not None:
                verdict = words("verdict_score_rated", score=score, rating=rating(round(returns[0])))
                return words("status_game_over", verdict=verdict)
            return words("status_game_over", verdict=words("verdict_score", score=score))
        best = max(returns)
        winners = [p for p, r in enumerate(returns) if r == best]
        if len(winners) == len(returns):
            verdict = words("verdict_draw")
        elif len(winners) == 1:
            verdict = words("verdict_wins", player=name(winners[0]))
        else:
            verdict = words("verdict_share", players=words("verdict_and").join(name(p) for p in winners))
        scores = ", ".join(f"{name(p)} {r:+g}" for p, r in enumerate(returns))
        return words("status_game_over", verdict=verdict) + " " + words("status_returns", scores=scores)


class CoverView:
    """The hot-seat cover: asks for the next seat; only Reveal gets past it."""

    def __init__(self, stepper: Stepper) -> None:
        self.stepper = stepper
        self.cover_html = W.HTML()
        self.reveal_button = button("gamelib-reveal", "primary")
        self.reveal_button.on_click(lambda _: stepper.reveal())
        self.cover = css(
            W.VBox(
                [self.cover_html, self.reveal_button],
                layout=W.Layout(min_height="420px", padding="2em", border="2px solid #888"),
            ),
            "gamelib-cover",
        )

    def update(self) -> None:
        seat = seat_words(self.stepper.name(self.stepper.next_seat()))
        self.cover_html.value = (
            f"<h2>{escape(words('cover_title', **seat))}</h2>"
            f"<p style='font-size:1.2em'>{escape(words('cover_text', **seat))}</p>"
        )
        self.reveal_button.description = words("reveal")
        self.reveal_button.tooltip = words("reveal_tip", **seat)


class RecordView:
    """Save the game's JSON record to a box, or load one from it."""

    def __init__(self, stepper: Stepper) -> None:
        self.record_text = css(W.Textarea(layout=W.Layout(width="100%", height="6em")), "gamelib-record")
        self.save_button = button("gamelib-save")
        self.load_button = button("gamelib-load")
        self.save_button.on_click(lambda _: stepper.save_record())
        self.load_button.on_click(lambda _: stepper.load_record())
        self.record_box = W.VBox([self.record_text, W.HBox([self.save_button, self.load_button])])

    def relabel(self) -> None:
        self.record_text.description = words("record")
        self.record_text.placeholder = words("record_placeholder")
        for widget, key in ((self.save_button, "save"), (self.load_button, "load")):
            widget.description = words(key)
            widget.tooltip = words(key + "_tip")
