"""Get on Board's score sheet: the boxes a line ticks as it reaches intersections, and the total.

A sheet is a :class:`ScoreSheet` of small ints and tuples (immutable: clones share them); the
rules tick it with :func:`apply_features` and count it with :func:`score_breakdown`.  The numbers
printed on the paper sheet (tracks, row values) are in :class:`~gamelib.getonboard.board.Tables`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from gamelib.getonboard.board import (
    CINEMA,
    DARK_LOVERS,
    ENTRANCE,
    FEATURES,
    GRANNY,
    LIGHT_LOVERS,
    OPERA,
    RESTAURANT,
    STUDENT,
    THEATRE,
    TOURIST,
    Tables,
)
from gamelib.getonboard.options import GetOnBoardOptions


class ScoreSheet(NamedTuple):
    """One player's paper sheet: every box that can be ticked, as small ints and tuples."""

    grannies: int = 0
    students: int = 0
    cinemas: int = 0
    tourist_rows: tuple[int, ...] = (0, 0, 0)
    tourists_closed: int = 0
    light: tuple[int, ...] = (0, 0, 0)
    dark: tuple[int, ...] = (0, 0, 0)
    lovers_closed: int = 0
    entrances: int = 0
    """Entrances circled (spent ones included)."""
    spent: int = 0
    transfers: int = 0
    modifications: int = 0
    objective_points: tuple[int, ...] = (0, 0)
    visits: tuple[int, ...] = (0,) * 10
    """How many intersections of each feature kind the line reached (for the common objectives)."""


_SHEET_FIELD = {name: i for i, name in enumerate(ScoreSheet._fields)}
_new_sheet = tuple.__new__
_GRANNIES, _STUDENTS, _CINEMAS = _SHEET_FIELD["grannies"], _SHEET_FIELD["students"], _SHEET_FIELD["cinemas"]
_TOURIST_ROWS, _TOURISTS_CLOSED = _SHEET_FIELD["tourist_rows"], _SHEET_FIELD["tourists_closed"]
_LIGHT, _DARK, _LOVERS_CLOSED = _SHEET_FIELD["light"], _SHEET_FIELD["dark"], _SHEET_FIELD["lovers_closed"]
_ENTRANCES, _VISITS = _SHEET_FIELD["entrances"], _SHEET_FIELD["visits"]

CATEGORIES = (
    "grannies",
    "students",
    "tourists",
    "lovers",
    "transfers",
    "objectives",
    "personal",
    "entrances",
    "turns",
)
"""Score categories, in the order of the paper sheet's total column."""


def tourist_row_value(count: int, tables: Tables) -> int:
    return tables.tourist_row_values[min(count, tables.tourist_row_size)]


def lover_row_value(light: int, dark: int, tables: Tables) -> int:
    couples = min(light, dark)
    return couples * tables.couple_points + (light + dark - 2 * couples) * tables.single_points


def score_breakdown(sheet: ScoreSheet, personal_reached: int, tables: Tables) -> dict[str, int]:
    """Points per category (see :data:`CATEGORIES`) and ``"total"``, as at the end of the game.

    Unresolved tourist and lover rows score half their value, rounded down; turn modifications
    are a negative category.
    """
    grannies = sum(tables.granny_track[: min(sheet.grannies, len(tables.granny_track))])
    students = min(sheet.students, tables.students_max) * min(sheet.cinemas, tables.cinemas_max)
    tourists = 0
    for i, count in enumerate(sheet.tourist_rows):
        value = tourist_row_value(count, tables)
        tourists += value if i < sheet.tourists_closed else value // 2
    lovers = 0
    for i in range(tables.lover_rows):
        value = lover_row_value(sheet.light[i], sheet.dark[i], tables)
        lovers += value if i < sheet.lovers_closed else value // 2
    track = tables.transfer_track
    transfers = track[min(sheet.transfers, len(track)) - 1] if sheet.transfers else 0
    out = {
        "grannies": grannies,
        "students": students,
        "tourists": tourists,
        "lovers": lovers,
        "transfers": transfers,
        "objectives": sum(sheet.objective_points),
        "personal": tables.personal_points[personal_reached],
        "entrances": tables.entrance_points * (sheet.entrances - sheet.spent),
        "turns": -sum(tables.turn_penalties[: sheet.modifications]),
    }
    out["total"] = sum(out.values())
    return out


def apply_features(
    sheet: ScoreSheet, features: tuple[int, ...], tables: Tables, options: GetOnBoardOptions
) -> ScoreSheet:
    """The sheet after reaching an intersection: its features apply one after the other."""
    if not features:
        return sheet
    box: list[Any] = list(sheet)  # the fields of ScoreSheet, in order (see _SHEET_FIELD)
    visits = list(sheet.visits)
    for f in features:
        visits[f] += 1
        counter = _COUNTER_BOX[f]
        if counter >= 0:
            box[counter] += 1
        else:
            _TICK[f](box, f, tables, options)
    box[_VISITS] = tuple(visits)
    return _new_sheet(ScoreSheet, box)  # ScoreSheet._make without its length check: box has every field


def _tick_entrance(box: list[Any], f: int, tables: Tables, options: GetOnBoardOptions) -> None:
    """A metro entrance is circled while the sheet has a free circle."""
    if box[_ENTRANCES] < tables.entrance_boxes:
        box[_ENTRANCES] += 1


def _tick_tourist(box: list[Any], f: int, tables: Tables, options: GetOnBoardOptions) -> None:
    """A tourist joins the open row; a full row sends it on ("next-row") or loses it."""
    row = box[_TOURISTS_CLOSED]
    rows = list(box[_TOURIST_ROWS])
    while row < tables.tourist_rows and rows[row] >= tables.tourist_row_size:
        if options.tourist_overflow != "next-row":
            return  # lost
        row += 1
    if row < tables.tourist_rows:
        rows[row] += 1
        box[_TOURIST_ROWS] = tuple(rows)


def _tick_monument(box: list[Any], f: int, tables: Tables, options: GetOnBoardOptions) -> None:
    """A theatre or an opera closes the open tourist row (an empty one only under "close")."""
    row = box[_TOURISTS_CLOSED]
    if row < tables.tourist_rows and (box[_TOURIST_ROWS][row] > 0 or options.empty_destination == "close"):
        box[_TOURISTS_CLOSED] = row + 1


def _tick_lovers(box: list[Any], f: int, tables: Tables, options: GetOnBoardOptions) -> None:
    """Light or dark lovers join the open lover row, up to its printed boxes."""
    row = box[_LOVERS_CLOSED]
    if row < tables.lover_rows:
        which = _LIGHT if f == LIGHT_LOVERS else _DARK
        values = list(box[which])
        if values[row] < tables.lovers_per_colour:
            values[row] += 1
            box[which] = tuple(values)


def _tick_restaurant(box: list[Any], f: int, tables: Tables, options: GetOnBoardOptions) -> None:
    """A restaurant closes the open lover row (an empty one only under "close")."""
    row = box[_LOVERS_CLOSED]
    if row < tables.lover_rows and (
        box[_LIGHT][row] + box[_DARK][row] > 0 or options.empty_destination == "close"
    ):
        box[_LOVERS_CLOSED] = row + 1


_COUNTER_BOX = tuple(
    {GRANNY: _GRANNIES, STUDENT: _STUDENTS, CINEMA: _CINEMAS}.get(f, -1) for f in range(len(FEATURES))
)
"""Per feature: the box it ticks with no limit (grannies, students, cinemas), or -1."""
_TICK = {
    ENTRANCE: _tick_entrance,
    TOURIST: _tick_tourist,
    THEATRE: _tick_monument,
    OPERA: _tick_monument,
    LIGHT_LOVERS: _tick_lovers,
    DARK_LOVERS: _tick_lovers,
    RESTAURANT: _tick_restaurant,
}
"""Per other feature: how it ticks the sheet."""


MODIFICATIONS, SPENT, TRANSFERS = (
    _SHEET_FIELD["modifications"],
    _SHEET_FIELD["spent"],
    _SHEET_FIELD["transfers"],
)
OBJECTIVE_POINTS = _SHEET_FIELD["objective_points"]


def with_box(sheet: ScoreSheet, field: int, value: Any) -> ScoreSheet:
    """The sheet with box ``field`` (its index, e.g. :data:`SPENT`) set to ``value``: what
    ``sheet._replace`` does, without its keyword machinery (a stick or a bonus ticks one box)."""
    box: tuple[Any, ...] = sheet
    return _new_sheet(ScoreSheet, (*box[:field], value, *box[field + 1 :]))


def with_transfers(sheet: ScoreSheet, circles: int, tables: Tables) -> ScoreSheet:
    """The sheet with ``circles`` more transfer circles ticked (the track has a last box)."""
    return with_box(sheet, TRANSFERS, min(len(tables.transfer_track), sheet.transfers + circles))


__all__ = [
    "CATEGORIES",
    "MODIFICATIONS",
    "OBJECTIVE_POINTS",
    "SPENT",
    "TRANSFERS",
    "ScoreSheet",
    "apply_features",
    "lover_row_value",
    "score_breakdown",
    "tourist_row_value",
    "with_box",
    "with_transfers",
]
