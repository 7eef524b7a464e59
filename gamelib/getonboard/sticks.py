"""Which stick may come next: the geometry of a line, each rule said once.

Every stick obeys :func:`stick_rule` (a section to lay it on, never back along the last one);
a stick of the ticket's shape also obeys :func:`shape_rule` (a turn box for each junction that
differs from the shape and, under ``shape_fit="whole-shape"``, room on the map for the rest of
the shape).  The legal actions are built from these predicates (memoised per configuration:
the board is static) and the refusals name the first one that fails, so a rule cannot be
stated one way for the moves offered and another way for the error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamelib.getonboard.actions import GOS, Go
from gamelib.getonboard.board import OPPOSITE, CityMap, completable, junction_cost

if TYPE_CHECKING:
    from gamelib.getonboard.rules import GetOnBoardGame

OFF_MAP = "off-map"
NO_U_TURN = "no-u-turn"
TURN_BOXES = "turn-boxes"
SHAPE_FITS_MAP = "shape-fits-map"


def stick_rule(board: CityMap, node: int, heading: int, d: int) -> str | None:
    """The rule a stick from ``node`` towards ``d`` breaks whatever the shape (``None``: none).

    ``"off-map"`` also stands for the river (no section either way; the refusal tells which).
    """
    if board.section[node][d] < 0:
        return OFF_MAP
    if heading >= 0 and d == OPPOSITE[heading]:
        return NO_U_TURN
    return None


def shape_rule(
    board: CityMap,
    node: int,
    heading: int,
    d: int,
    junctions: str,
    step: int,
    sticks: int,
    boxes: int,
    whole_shape: bool,
) -> str | None:
    """The rule stick ``step`` of a shape, laid towards ``d``, breaks (``None``: none), loops aside."""
    cost = junction_cost(junctions, step, heading, d)
    if cost > boxes:
        return TURN_BOXES
    if whole_shape and not board.fits(board.neighbour[node][d], d, junctions, step + 1, sticks, boxes - cost):
        return SHAPE_FITS_MAP
    return None


def open_sticks(game: GetOnBoardGame, node: int, heading: int) -> tuple[tuple[int, int, int], ...]:
    """``(direction, section bit, intersection reached)`` of every stick :func:`stick_rule`
    allows from ``node`` (memoised on the game)."""
    key = node * 5 + heading + 1
    found = game.open_table.get(key)
    if found is None:
        board = game.board
        found = game.open_table[key] = tuple(
            (d, 1 << board.section[node][d], board.neighbour[node][d])
            for d in range(4)
            if stick_rule(board, node, heading, d) is None
        )
    return found


def shape_sticks(
    game: GetOnBoardGame, node: int, heading: int, junctions: str, step: int, sticks: int, boxes: int
) -> tuple[tuple[Go, int], ...]:
    """``(go action, section bit)`` of the sticks the shape allows as stick ``step`` from ``node``,
    before the one-stick-per-section check (memoised on the game: boxes beyond the junctions
    still to come change nothing, so they are capped to keep the table small)."""
    if boxes > sticks - step:
        boxes = sticks - step
    key = (node * 5 + heading + 1, boxes, junctions, step, sticks)
    moves = game.lay_table.get(key)
    if moves is None:
        board, whole = game.board, game.whole_shape
        moves = game.lay_table[key] = tuple(
            (GOS[d], bit)
            for d, bit, _ in open_sticks(game, node, heading)
            if shape_rule(board, node, heading, d, junctions, step, sticks, boxes, whole) is None
        )
    return moves


def survives_per_stick(
    board: CityMap, node: int, heading: int, junctions: str, step: int, sticks: int, boxes: int, visited: int
) -> bool:
    """Under ``shape_fit="per-stick"``: can sticks ``step..`` go on from ``node`` without re-entering
    ``visited``?  A line with no stick the shape allows is stuck, which ends the turn safely."""
    if step >= sticks:
        return True
    moves = board.next_sticks(node, heading, junctions, step, boxes)
    if not moves:
        return True  # stuck: the turn ends here, safely
    return any(
        not visited >> nb & 1
        and survives_per_stick(board, nb, d, junctions, step + 1, sticks, boxes - cost, visited | 1 << nb)
        for d, nb, cost in moves
    )


def safe_after(
    board: CityMap,
    nb: int,
    d: int,
    junctions: str,
    step: int,
    sticks: int,
    boxes: int,
    visited: int,
    whole_shape: bool,
) -> bool:
    """Whether, after stick ``step - 1`` reached ``nb`` going ``d``, the rest of the shape can be laid
    without re-entering ``visited`` (or, per stick, without being forced into it)."""
    if whole_shape:
        return completable(board, nb, d, junctions, step, sticks, boxes, visited)
    return survives_per_stick(board, nb, d, junctions, step, sticks, boxes, visited)


__all__ = [
    "NO_U_TURN",
    "OFF_MAP",
    "SHAPE_FITS_MAP",
    "TURN_BOXES",
    "open_sticks",
    "safe_after",
    "shape_rule",
    "shape_sticks",
    "survives_per_stick",
]
