"""Get on Board's click-an-intersection panel for the generic Stepper.

The map as a grid of buttons, one per intersection, laid out like the board.  The intersections
the player to move can reach with the next stick (``go``), the extra stick (``bonus``) or the
start choice (``start``) are enabled and green; clicking one plays that action through the
stepper, so undo/redo, records and agents keep working.  Line ends show each player's colour.
A status line says whose turn it is, the shape asked, the stick number and the turn boxes left.

:func:`getonboard_stepper` builds a Stepper with this panel and the Get on Board agents.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import ipywidgets as W

import gamelib
from gamelib import State
from gamelib.core.i18n import Wording, language
from gamelib.getonboard.agents import GreedyAgent, PlannerAgent
from gamelib.getonboard.board import FEATURES
from gamelib.getonboard.draw import PLAYER_COLOURS
from gamelib.getonboard.rules import GetOnBoardGame, GetOnBoardState

from .naming import player_label, words
from .panels import PanelFactory
from .stepper import Stepper

# A button shows each feature of gamelib.getonboard.board.FEATURES by its short mark
# ``gob_mark_<feature>`` (this package's words) and, on its tooltip, its name ``feature_<feature>``
# (the game's words).


game_words = Wording("gamelib.getonboard")

PANELS: tuple[tuple[str | None, PanelFactory], ...] = (("board_clicks", lambda s: IntersectionPanel(s)),)
"""``Stepper(..., panels="auto")`` shows the intersection panel (games with board clicks)."""
TARGET_COLOUR = "#7ddc7d"
IDLE_COLOUR = "#eeeeee"


class IntersectionPanel:
    """Click an intersection to lay the next stick there (see the module docstring).

    :attr:`buttons` maps intersection names (``"C4"``) to their buttons; :meth:`click` does what
    a click does, for tests and scripts.
    """

    def __init__(self, stepper: Stepper) -> None:
        if stepper.game.name != "getonboard":
            raise ValueError(f"IntersectionPanel plays Get on Board, not {stepper.game.name!r}")
        self.stepper = stepper
        game = stepper.game
        assert isinstance(game, GetOnBoardGame)
        self.board = board = game.board
        self.status = W.HTML()
        self.status.add_class("gamelib-getonboard-status")
        self.buttons: dict[str, W.Button] = {}
        self._lang = language()
        cells: list[Any] = []
        # One layout shared by the cells, each button born with its class and idle (as update() leaves it):
        # about 330 fewer widget messages when the Stepper is built, a Voilà page 0.5 s faster
        gap_layout = W.Layout(width="64px", height="40px")
        node_layout = W.Layout(width="64px", height="40px", padding="0px")
        for y in range(board.height):
            for x in range(board.width):
                name = f"{'ABCDEFGHIJK'[x]}{y + 1}"
                if name not in board.index:
                    cells.append(W.Box(layout=gap_layout))
                    continue
                description, tooltip = self._labels(name)
                button = W.Button(
                    description=description,
                    tooltip=tooltip,
                    layout=node_layout,
                    disabled=True,
                    style={"button_color": IDLE_COLOUR},
                    _dom_classes=("gamelib-getonboard-node",),
                )
                button.on_click(lambda _b, n=name: self.click(n))
                self.buttons[name] = button
                cells.append(button)
        self.grid = W.GridBox(
            cells, layout=W.Layout(grid_template_columns=f"repeat({board.width}, 66px)", grid_gap="2px")
        )
        self.widget = W.VBox([self.status, self.grid])
        self.update(stepper.state)

    def _labels(self, name: str) -> tuple[str, str]:
        """A button's label (its name and feature marks) and tooltip, in the language in force."""
        board = self.board
        node = board.index[name]
        features = [f for f in board.features_of(node) if f in FEATURES]
        marks = " ".join(words(f"gob_mark_{f}") for f in features)
        extra = f" {board.start_at[node]}" if node in board.start_at else ""
        extra += f" {board.letter_at[node]}" if node in board.letter_at else ""
        names = ", ".join(game_words(f"feature_{f.removesuffix('_lovers')}") for f in features)
        return f"{name} {marks}".strip(), f"{name}: {names}{extra}".rstrip(": ")

    def relabel(self) -> None:
        """Labels and tooltips again, after a language switch."""
        self._lang = language()
        for name, button in self.buttons.items():
            button.description, button.tooltip = self._labels(name)

    def targets(self, state: State) -> dict[str, Any]:
        """Intersection name -> the action that reaches it, for the player to move."""
        out: dict[str, Any] = {}
        if state.current_player < 0:
            return out
        assert isinstance(state, GetOnBoardState)
        for action in state.legal_actions():
            node = state.target(action)
            if node >= 0:
                out[self.board.names[node]] = action
        return out

    def click(self, name: str) -> bool:
        """Play the action reaching intersection ``name``; False if none.

        A refused click is reported through the stepper's error line, where every other refusal
        appears (and ``stepper.error`` holds it).
        """
        action = self.targets(self.stepper.state).get(name.strip().upper())
        if action is None:
            return self.stepper.show_error(words("gob_unreachable", name=name))
        return self.stepper.apply(action)

    def update(self, state: State) -> None:
        if language() != self._lang:
            self.relabel()
        targets = self.targets(state)
        assert isinstance(state, GetOnBoardState)
        ends = {}
        for p, route in enumerate(state.routes):
            if route:
                ends[self.board.names[route[-1]]] = p
        for name, button in self.buttons.items():
            button.disabled = name not in targets
            if name in targets:
                button.style.button_color = TARGET_COLOUR
            elif name in ends:
                button.style.button_color = PLAYER_COLOURS[ends[name]]
            else:
                button.style.button_color = IDLE_COLOUR
        self.status.value = self._status(state)

    @staticmethod
    def _status(state: Any) -> str:
        if state.is_terminal():
            winners = ", ".join(player_label(state.game, p) for p in state.winners()) or words("gob_nobody")
            return words("gob_game_over", winners=html.escape(winners))
        p = state.current_player
        if p < 0:
            return words("gob_chance")
        who = html.escape(player_label(state.game, p))
        if state.phase == 4:
            return words("gob_start", player=who)
        if state.phase == 7:
            return words("gob_entrance", player=who)
        shape = words("gob_straight") if state.forced_straight else game_words(f"shape_{state.shape.name}")
        return words(
            "gob_lays",
            player=who,
            shape=html.escape(shape),
            stick=state.step + 1,
            sticks=state.shape.sticks,
            boxes=state.boxes_left(p),
        )


def getonboard_stepper(
    players: int = 3, seed: int = 0, options: Mapping[str, Any] | None = None, **kwargs: Any
) -> Stepper:
    """A Stepper for Get on Board with the intersection panel and the game's agents."""
    game = gamelib.make("getonboard", players=players, options=options)
    agents = {"planner": PlannerAgent(), "greedy": GreedyAgent()}
    return Stepper(game, seed=seed, agents=agents, panels=[IntersectionPanel], **kwargs)
