"""Fugitive's detective panel: the detective's live belief under the stepper.

The panel shows what the detective can deduce, never more: it is computed from the detective's
observation by :func:`gamelib.fugitive.analysis.belief` (every fugitive world consistent with what
the detective has seen, counted exactly).  It shows

* the heat strip of :func:`gamelib.fugitive.draw.draw_belief`: for each number 1..41 (1..last-1
  in a smaller deck, option ``escape_card``), how likely it is a face-down hideout, and one row
  per face-down position;
* a table of the most likely numbers per face-down position, with how many numbers remain.  In the
  omniscient view the table also shows the true card and the probability the detective gives it,
  so a class sees how close the deduction is; the detective's view hides that.

The fugitive's view shows no belief: the count leaves out the detective's own hand, which the
fugitive does not see.  Labels come from ``widgets/data/words.json``.

:func:`fugitive_stepper` builds a Stepper with this panel and the Fugitive agents.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any, cast

import ipywidgets as W
from matplotlib.figure import Figure

import gamelib
from gamelib import State
from gamelib.agents import make_agent
from gamelib.agents.registry import default_agents

from .pictures import PngCache, figure_png
from .stepper import PanelFactory, Stepper, words

FUGITIVE, DETECTIVE = 0, 1
_PNG_CACHE_SIZE = 32
CERTAIN = 1.0 - 1e-12
LIVE_EDGE_BUDGET = 400_000
"""Live updates give up on positions whose count needs more edges (about a second of work);
the Compute button then counts them in full."""


class BeliefPanel:
    """The detective's belief, refreshed by the stepper after every change.

    ``top`` is how many candidate numbers the table lists per face-down position.  After each
    update :attr:`belief` holds the belief shown (None when it could not be computed) and
    :attr:`error` the reason it could not ("" otherwise).
    """

    def __init__(self, stepper: Stepper, top: int = 3, dpi: int = 80) -> None:
        if stepper.game.name != "fugitive":
            raise ValueError(f"BeliefPanel shows a Fugitive detective's belief, not {stepper.game.name!r}")
        self.stepper = stepper
        self.top = top
        self.dpi = dpi
        self.belief: Any = None
        self.error = ""
        self._pngs: PngCache[bytes] = PngCache(_PNG_CACHE_SIZE)
        self._state: State | None = None
        self.summary = W.HTML()
        self.strip = W.Image(format="png", layout=W.Layout(max_width="100%", height="auto"))
        self.table = W.HTML()
        # Counting worlds is usually milliseconds but can take seconds in crowded positions:
        # a teacher can pause the live update and compute on demand.
        self.live = W.Checkbox(
            value=True, description=words("belief_live"), tooltip=words("belief_live_tip"), indent=False
        )
        self.live.add_class("gamelib-belief-live")
        self.live.observe(self._on_live, "value")
        self.compute_button = W.Button(
            description=words("belief_compute"), tooltip=words("belief_compute_tip")
        )
        self.compute_button.add_class("gamelib-belief-compute")
        self.compute_button.on_click(lambda _: self._compute())
        self.compute_button.layout.display = "none"
        self.title = W.HTML()
        self.widget = W.VBox(
            [W.HBox([self.title, self.live, self.compute_button]), self.summary, self.strip, self.table]
        )
        self.widget.add_class("gamelib-belief")

    def update(self, state: State) -> None:
        """Show the belief in ``state`` (or, when paused, remember the state for Compute)."""
        self._state = state
        self.title.value = f"<b style='font-size:1.2em'>{html.escape(words('belief_title'))}</b>&nbsp;&nbsp;"
        self.live.description = words("belief_live")
        self.compute_button.description = words("belief_compute")
        if self.stepper.perspective == FUGITIVE:
            self.belief, self.error = None, ""
            self.summary.value = words("belief_not_this_seat")
            self.strip.layout.display = "none"
            self.table.value = ""
            return
        if self.live.value:
            self._compute(max_edges=LIVE_EDGE_BUDGET)
            return
        self.belief, self.error = None, ""
        self.summary.value = words("belief_paused")
        self.strip.layout.display = "none"
        self.table.value = ""

    def _on_live(self, change: dict[str, Any]) -> None:
        self.compute_button.layout.display = "none" if change["new"] else None
        if self._state is not None:
            self.update(self._state)

    def _compute(self, max_edges: int | None = None) -> None:
        from gamelib.fugitive.analysis import BeliefTooLarge, belief

        state = self._state
        if state is None or self.stepper.perspective == FUGITIVE:
            return
        try:
            # a Fugitive state: the panel checked the game.  One count serves the world total and
            # the probabilities: each consistent world counted once (measure "worlds"), so the
            # total shown is the very count the probabilities divide by
            current = belief(cast(Any, state), max_edges=max_edges, measure="worlds")
        except BeliefTooLarge:
            self.belief, self.error = None, ""
            self.summary.value = words("belief_too_large")
            self.compute_button.layout.display = None
            self.strip.layout.display = "none"
            self.table.value = ""
            return
        except ValueError as exc:
            self.belief, self.error = None, str(exc)
            message = html.escape(words("belief_unavailable", error=exc))
            self.summary.value = f"<span style='color:#b00020'>{message}</span>"
            self.strip.layout.display = "none"
            self.table.value = ""
            return
        self.belief, self.error = current, ""
        if self.live.value:
            self.compute_button.layout.display = "none"
        positions = sorted(current.position_probs)
        self.summary.value = self._summary_html(current, positions)
        if positions:
            self.strip.value = self._strip_png(current, positions, self._escape_card(state))
            self.strip.layout.display = None
        else:
            self.strip.layout.display = "none"
        truth = self._true_hideouts(state) if self.stepper.perspective is None else None
        self.table.value = self._table_html(current, positions, truth)

    # ---------------------------------------------------------------- pieces
    @staticmethod
    def _summary_html(belief: Any, positions: list[int]) -> str:
        if not positions:
            return words("belief_nothing")
        certain = [p for p in positions if max(belief.position_probs[p]) >= CERTAIN]
        worlds = f"{belief.worlds:,}".replace(",", "\u2009")
        text = words("belief_summary", positions=len(positions), worlds=worlds)
        if certain:
            text += words("belief_certain", positions=", ".join(f"#{p}" for p in certain))
        if belief.exact is False:
            text += words("belief_approximate")
        return text

    @staticmethod
    def _escape_card(state: State) -> int:
        """The game's escape card (``FugitiveState.last``: 42 published, smaller decks less)."""
        return int(cast(Any, state).last)

    def _strip_png(self, belief: Any, positions: list[int], last: int) -> bytes:
        """The heat strip over 1..last-1 as PNG, cached on the belief's numbers (undo/redo redraw
        nothing; the cache keys the language in force too)."""
        key = (
            last,
            belief.worlds,
            tuple(belief.hideout_prob),
            tuple((p, tuple(belief.position_probs[p])) for p in positions),
        )
        return self._pngs.get(key, lambda: self._draw_strip(belief, positions, last))

    def _draw_strip(self, belief: Any, positions: list[int], last: int) -> bytes:
        from gamelib.fugitive.draw import draw_belief

        # draw_belief's own figure uses the constrained layout engine, which doubles the time of a
        # redraw; fixed margins (in inches, so they hold for any number of rows) do not.
        rows = 1 + len(positions)
        width, height = 14.0, 1.8 + 0.42 * rows
        figure = Figure(figsize=(width, height), facecolor="white")
        axes = figure.add_subplot()
        figure.subplots_adjust(
            left=1.0 / width, right=1 - 0.8 / width, bottom=0.8 / height, top=1 - 0.45 / height
        )
        draw_belief(belief, ax=axes, last=last)
        return figure_png(figure, self.dpi)

    @staticmethod
    def _true_hideouts(state: State) -> dict[int, int]:
        """Position -> card, from the fugitive's observation (who knows every hideout)."""
        rows = state.observation(FUGITIVE).hideouts
        return {i: value for i, (value, _, _) in enumerate(rows) if value is not None}

    def _table_html(self, belief: Any, positions: list[int], truth: dict[int, int] | None) -> str:
        if not positions:
            return ""
        head = [words("belief_position"), words("belief_most_likely", top=self.top), words("belief_left")]
        if truth is not None:
            head.append(words("belief_actually"))
        cell = "style='padding:2px 10px;text-align:left'"
        rows = ["<tr>" + "".join(f"<th {cell}>{h}</th>" for h in head) + "</tr>"]
        for position in positions:
            probs = belief.position_probs[position]
            ranked = sorted((v for v in range(len(probs)) if probs[v] > 0), key=lambda v: (-probs[v], v))
            likely = " · ".join(f"<b>{v}</b> {probs[v]:.0%}" for v in ranked[: self.top])
            cells = [f"#{position}", likely, str(len(ranked))]
            if truth is not None and position in truth:
                actual = truth[position]
                cells.append(f"<b>{actual}</b> ({probs[actual]:.0%})")
            rows.append("<tr>" + "".join(f"<td {cell}>{c}</td>" for c in cells) + "</tr>")
        return "<table style='font-size:1.05em'>" + "".join(rows) + "</table>"


def fugitive_stepper(
    seed: int = 0,
    *,
    options: Mapping[str, Any] | None = None,
    agents: Mapping[str, Any] | None = None,
    panels: tuple[PanelFactory, ...] = (),
    **kw: Any,
) -> Stepper:
    """A Stepper on Fugitive with the detective's belief panel and the Fugitive agents.

    Seats start with the agents made for their roles (:func:`gamelib.agents.registry.default_agents`:
    the fugitive heuristic and the belief detective); ``agents`` adds more.  Other keywords
    (``perspective``, ``dpi``, ``hot_seat``) go to :class:`Stepper`.
    """
    game = gamelib.make("fugitive", options=options)
    table: dict[str, Any] = {
        name: make_agent(name, game.name) for name in dict.fromkeys(default_agents(game))
    }
    table.update(agents or {})
    return Stepper(game, seed=seed, agents=table, panels=(BeliefPanel, *panels), **kw)


__all__ = ["BeliefPanel", "fugitive_stepper"]
