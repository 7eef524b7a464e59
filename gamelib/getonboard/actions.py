"""Get on Board's notation: one action class per kind of move, declared once.

``@action_class`` gives each class its text (``go N``, ``start 3``, ``ticket 7``...), its strict
parser and its place in the action universe; the tables below intern every action (``GOS[d]`` is
``go d``), so the rules hand out and compare the very same objects.  ``docs/notation.md`` and
``docs/rules/getonboard.md`` ("Notation") describe the text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamelib.core.game import Action
from gamelib.core.notation import Choice, Int, Notation, action_class
from gamelib.getonboard.board import DIRECTIONS, PUBLISHED, load_tables

if TYPE_CHECKING:
    from gamelib.getonboard.rules import GetOnBoardGame

_MAX_PERSONAL = max(len(deck) for deck in load_tables().personal.values())
_MAX_START = max(int(facts["starts"]) for facts in PUBLISHED.values())


def _deck_size(game: GetOnBoardGame) -> int:
    return len(game.tables.personal[game.city])


def _start_count(game: GetOnBoardGame) -> int:
    return len(game.board.starts)


_DIRECTION = Choice("direction", DIRECTIONS)
_START = Int("number", 1, _start_count, what="start number", limit=_MAX_START)


@action_class("objective", Int("objective", 1, 6, what="common objective"))
class DrawObjective(Action):
    """Chance: common objective ``objective`` (1-6) is laid out, yellow side up."""

    objective: int


@action_class("sheet", Int("sheet", 1, 5))
class DealSheet(Action):
    """Chance: the next player in seat order gets score sheet ``sheet`` (1-5)."""

    sheet: int


@action_class("personal", Int("card", 1, _deck_size, what="personal objective card", limit=_MAX_PERSONAL))
class DealPersonal(Action):
    """Chance: the next player gets personal objective card ``card`` (1-based in the city deck)."""

    card: int


@action_class("deal", _START)
class DealStart(Action):
    """Chance: a start ticket (a start number of the map) is dealt to the next player."""

    number: int


@action_class("ticket", Int("number", 1, 12, what="ticket"))
class RevealTicket(Action):
    """Chance: the Contrôleur reveals ticket ``number`` (1-12) from the shuffled pile."""

    number: int


@action_class("start", _START)
class ChooseStart(Action):
    """A player keeps one of their dealt start tickets: the start pawn goes on that start."""

    number: int


@action_class("go", _DIRECTION)
class Go(Action):
    """Lay the next stick of the ticket's shape, from the end of the line towards ``direction``.

    ``direction`` is 0-3 (N, E, S, W); anything else is refused when the action is built.
    """

    direction: int


@action_class("bonus", _DIRECTION)
class Bonus(Action):
    """End of turn: cross out one circled metro entrance to lay one extra stick ``direction`` (0-3)."""

    direction: int


@action_class("end")
class EndTurn(Action):
    """End of turn without spending a metro entrance (kept entrances score 2 each)."""


NOTATION = Notation(
    DrawObjective, DealSheet, DealPersonal, DealStart, RevealTicket, ChooseStart, Go, Bonus, EndTurn
)
"""The game's actions in universe order: parsing, the universe and the interned tables below."""

# interned actions: OBJECTIVES[k - 1] is "objective k", GOS[d] is "go d"...
OBJECTIVES: tuple[DrawObjective, ...] = NOTATION.every(DrawObjective)
SHEETS: tuple[DealSheet, ...] = NOTATION.every(DealSheet)
PERSONALS: tuple[DealPersonal, ...] = NOTATION.every(DealPersonal)
DEALS: tuple[DealStart, ...] = NOTATION.every(DealStart)
STARTS: tuple[ChooseStart, ...] = NOTATION.every(ChooseStart)
TICKETS: tuple[RevealTicket, ...] = NOTATION.every(RevealTicket)
GOS: tuple[Go, ...] = NOTATION.every(Go)
BONUSES: tuple[Bonus, ...] = NOTATION.every(Bonus)
END: EndTurn = NOTATION.make(EndTurn)

__all__ = [
    "BONUSES",
    "DEALS",
    "END",
    "GOS",
    "NOTATION",
    "OBJECTIVES",
    "PERSONALS",
    "SHEETS",
    "STARTS",
    "TICKETS",
    "Bonus",
    "ChooseStart",
    "DealPersonal",
    "DealSheet",
    "DealStart",
    "DrawObjective",
    "EndTurn",
    "Go",
    "RevealTicket",
]
