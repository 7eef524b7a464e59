"""Get on Board's phases, each declared once (core :class:`~gamelib.core.phases.Phases`).

The numbers are what states, records and tensors store: they stay as rules version 1 numbered
them (append new phases at the end).  Who acts follows from the phase: chance deals every card,
the players choose their start in seat order, and in a round they lay their sticks in turn
order, the round's Contrôleur first.
"""

from __future__ import annotations

from typing import Any

from gamelib.core.phases import Phase, Phases


def _choosing(state: Any) -> int:
    """The first player without a start (starts are chosen in seat order)."""
    return len(state.start_of)


def _in_turn(state: Any) -> int:
    """The player at ``turn_index`` in the round's order, the Contrôleur first."""
    return (max(len(state.tickets), 1) - 1 + state.turn_index) % state.num_players


PHASES = Phases(
    Phase("common objectives are drawn", "chance", tags={"setup"}),
    Phase("score sheets are dealt", "chance", tags={"setup"}),
    Phase("personal objectives are dealt", "chance", tags={"setup"}),
    Phase("start tickets are dealt", "chance", tags={"setup"}),
    Phase("players choose their start", "chooser", tags={"setup"}),
    Phase("the Contrôleur reveals a ticket", "chance", tags={"round"}),
    Phase("a player lays the ticket's sticks", "in turn", tags={"round", "turn"}),
    Phase("a player may spend a metro entrance", "in turn", tags={"round", "turn"}),
    Phase("game over", "nobody"),
    actors={"chooser": _choosing, "in turn": _in_turn},
)
P_OBJECTIVE, P_SHEET, P_PERSONAL, P_DEAL, P_START, P_REVEAL, P_LAY, P_BONUS, P_OVER = PHASES.numbers
TURN = PHASES.tagged("turn")
"""The phases of a player's turn (a shape is being laid, then the metro entrance)."""

__all__ = [
    "PHASES",
    "P_BONUS",
    "P_DEAL",
    "P_LAY",
    "P_OBJECTIVE",
    "P_OVER",
    "P_PERSONAL",
    "P_REVEAL",
    "P_SHEET",
    "P_START",
    "TURN",
]
