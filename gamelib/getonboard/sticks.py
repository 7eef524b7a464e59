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

from gamelib.core.game import Action
from gamelib.getonboard.actions import BONUSES, END, GOS, Go
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


Stick = tuple[int, int, int, int, tuple[int, ...]]
"""What laying one stick reads: the intersection reached, the section, its bit, in Rome its colour
+ 1 (0 elsewhere), and the features of the intersection reached."""


def stick_table(board: CityMap, rome: bool) -> tuple[Stick, ...]:
    """``[node * 4 + d]``: the :data:`Stick` from ``node`` towards ``d``; ``(-1, -1, 0, 0, ())``
    where there is no section."""
    table: list[Stick] = []
    for node in range(board.num_nodes):
        for d in range(4):
            section = board.section[node][d]
            if section < 0:
                table.append((-1, -1, 0, 0, ()))
                continue
            colour = board.section_colour[section] + 1 if rome else 0
            reached = board.neighbour[node][d]
            table.append((reached, section, 1 << section, colour, board.features[reached]))
    return tuple(table)


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


Bonuses = tuple[list[Action], int, int]
"""The extra sticks from a line end: every ``bonus`` action :func:`stick_rule` allows then ``end``
(the legal actions when none of them meets the player's line: shared, never mutated), the union
of their sections' bits and of the intersections they reach (to tell that case in one test)."""


def bonus_sticks(game: GetOnBoardGame, node: int, heading: int) -> Bonuses:
    """The extra sticks from ``node`` before the checks against the player's own line."""
    sticks = open_sticks(game, node, heading)
    sections = reached = 0
    for _, bit, nb in sticks:
        sections |= bit
        reached |= 1 << nb
    return [*(BONUSES[d] for d, _, _ in sticks), END], sections, reached


Sticks = tuple[tuple[tuple[Go, int], ...], list[Action], int]
"""The sticks a shape allows from a line end: ``(go action, section bit)`` pairs, the same go
actions as a list (the legal actions when none of the sections holds the player's own stick:
shared, never mutated) and the union of their section bits (to tell that case in one test)."""


def shape_sticks(
    game: GetOnBoardGame, node: int, heading: int, junctions: str, step: int, sticks: int, boxes: int
) -> Sticks:
    """The sticks the shape allows as stick ``step`` from ``node``, before the one-stick-per-section
    check (the state memoises them on the game).

    The answer is one of few: it depends only on ``node`` and the directions allowed, so each is
    built once and shared by every key that gives it (``game.lay_values``, a few hundred against
    the memo's thousands of keys): filling the memo then keeps almost nothing new (the moves just
    built are dropped when an equal answer exists), and the garbage collector has few objects to
    follow (shared, never mutated, like the memo's own)."""
    board, whole = game.board, game.whole_shape
    moves = tuple(
        (GOS[d], bit)
        for d, bit, _ in open_sticks(game, node, heading)
        if shape_rule(board, node, heading, d, junctions, step, sticks, boxes, whole) is None
    )
    key = node << 4
    for go, _ in moves:
        key |= 1 << go.direction
    found = game.lay_values.get(key)
    if found is None:
        union = 0
        for _, bit in moves:
            union |= bit
        found = game.lay_values[key] = (moves, [go for go, _ in moves], union)
    return found


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
    "Bonuses",
    "Stick",
    "Sticks",
    "bonus_sticks",
    "open_sticks",
    "safe_after",
    "shape_rule",
    "shape_sticks",
    "stick_table",
    "survives_per_stick",
]
