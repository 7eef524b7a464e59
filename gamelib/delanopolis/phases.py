"""Delanopolis: the phases of a turn, each declared once — its name and who acts in it.

A turn: the roller's choices (``before the roll``), the other holders' boosts (a window under
``boost_timing="any_roll"``), the dice, a sealed auction or park-or-pay; the lot draws the mayor
first and ``game over`` ends it.  The numbers are what states and records store.
"""

from __future__ import annotations

from typing import Any

from gamelib.core.phases import Phase, Phases


def _roller(state: Any) -> int:
    """The roller acts: his choices before the roll, park or pay."""
    return state.roller


def _first_in_queue(state: Any) -> int:
    """The first of the players still to answer (a boost window, the bids in turn)."""
    return state.queue[0]


PHASES = Phases(
    Phase("the lot draws the mayor", "chance"),
    Phase("before the roll", "roller"),  # sell / boost / roll
    Phase("atouts and jokers before the roll", "queue", tags={"decision"}),  # boost / keep
    Phase("dice", "chance"),
    Phase("sealed bids", "queue"),  # bid N, in turn
    Phase("park or pay", "roller", tags={"decision"}),  # park / pay
    Phase("game over", "nobody"),
    actors={"roller": _roller, "queue": _first_in_queue},
)
"""A turn's phases in stored order (states and records keep the number).  ``"queue"``: the
players still to answer, first in line (the other token holders in a boost window, the bidders
of an auction).  Tag ``"decision"``: a decision outside the roll's own, where a resale is open
under ``resale_when="any_decision"`` (« A tout moment »)."""
LOT, PRE_ROLL, BOOST_WINDOW, ROLL_DICE, BIDDING, PARK_CHOICE, OVER = PHASES.numbers
DECISIONS = PHASES.tagged("decision")
