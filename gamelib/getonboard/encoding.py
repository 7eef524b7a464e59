"""Get on Board's observation tensor, piece by piece (``state.observation_tensor(player)``).

The game has perfect information, so every player sees the same table; ``player`` only sets the
"is me" flags.  The size depends on the city (``S`` sections, ``N`` intersections, ``K`` starts)
and the player count; ``print(encoding_for(game).describe())`` shows the layout.  The layout is
a contract (the OpenSpiel and PettingZoo adapters and stored learning data read it):
``tests/test_encoding.py`` pins it bit for bit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamelib.core.encoding import Block, Encoding, Piece, bit_floats, cached_encoding
from gamelib.getonboard.board import DIRECTIONS, FEATURES, NO_HEADING
from gamelib.getonboard.phases import P_OVER
from gamelib.getonboard.rules import GetOnBoardState

if TYPE_CHECKING:
    from gamelib.getonboard.rules import GetOnBoardGame

STATUS = (
    *(f"heading {d}" for d in DIRECTIONS),
    "eliminated",
    "is me",
    "is to act",
    "is the Contrôleur",
    "sheet 1",
    "sheet 2",
    "sheet 3",
    "sheet 4",
    "sheet 5",
    "personal objective progress / 3",
)
SHEET = (
    "grannies",
    "students",
    "cinemas",
    "tourist row 1",
    "tourist row 2",
    "tourist row 3",
    "tourist rows closed",
    "light lovers 1",
    "light lovers 2",
    "light lovers 3",
    "dark lovers 1",
    "dark lovers 2",
    "dark lovers 3",
    "lover rows closed",
    "entrances circled",
    "entrances spent",
    "transfers",
    "modifications",
    "common objective 1 points",
    "common objective 2 points",
    *(f"{feature} visits / N" for feature in FEATURES),
)
"""The score sheet's boxes, each divided by its printed maximum (and capped at 1)."""


# ---------------------------------------------------------------------------- per player
def sections(s: GetOnBoardState, player: int, out: list[float], at: range) -> None:
    size = s.board.num_sections
    for owned, i in zip(s.owned, at, strict=True):
        out[i : i + size] = bit_floats(owned, size)


def line_end(s: GetOnBoardState, player: int, out: list[float], at: range) -> None:
    for end, i in zip(s.end, at, strict=True):
        if end >= 0:
            out[i + end] = 1.0


def visited(s: GetOnBoardState, player: int, out: list[float], at: range) -> None:
    size = s.board.num_nodes
    for mask, i in zip(s.visited, at, strict=True):
        out[i : i + size] = bit_floats(mask, size)


def personal(s: GetOnBoardState, player: int, out: list[float], at: range) -> None:
    letters = s.board.letters
    for p, i in zip(range(len(s.personal)), at, strict=False):  # the players who chose so far
        for letter in s.personal_letters(p):
            out[i + letters[letter]] = 1.0


def status(s: GetOnBoardState, player: int, out: list[float], at: range) -> None:
    mover = s.current_player
    controller = s.controller if s.tickets else -1
    chose_sheet, chose_personal = len(s.sheet_of), len(s.personal)
    for p, i in enumerate(at):
        heading = s.heading[p]
        if heading != NO_HEADING:
            out[i + heading] = 1.0
        out[i + 4] = float(s.eliminated[p])
        out[i + 5] = float(p == player)
        out[i + 6] = float(p == mover)
        out[i + 7] = float(p == controller)
        if p < chose_sheet:
            out[i + 8 + s.sheet_of[p]] = 1.0
        if p < chose_personal:
            out[i + 13] = s.personal_reached(p) / 3


def starts(s: GetOnBoardState, player: int, out: list[float], at: range) -> None:
    k = len(s.board.starts)
    for dealt, i in zip(s.dealt, at, strict=False):  # dealt so far
        for t in dealt:
            out[i + t - 1] = 1.0
    for start, i in zip(s.start_of, at, strict=False):  # chosen so far
        out[i + k + start - 1] = 1.0


def sheet(s: GetOnBoardState, player: int, out: list[float], at: range) -> None:
    tables, nodes = s.tables, s.board.num_nodes
    for sh, i in zip(s.sheets, at, strict=True):
        boxes = [
            sh.grannies / len(tables.granny_track),
            sh.students / tables.students_max,
            sh.cinemas / tables.cinemas_max,
            *(row / tables.tourist_row_size for row in sh.tourist_rows),
            sh.tourists_closed / tables.tourist_rows,
            *(row / tables.lovers_per_colour for row in sh.light),
            *(row / tables.lovers_per_colour for row in sh.dark),
            sh.lovers_closed / tables.lover_rows,
            sh.entrances / tables.entrance_boxes,
            sh.spent / tables.entrance_boxes,
            sh.transfers / (len(tables.transfer_track) - 1),
            sh.modifications / tables.max_modifications,
            *(points / tables.first_points for points in sh.objective_points),
            *(count / nodes for count in sh.visits),
        ]
        out[i : i + len(SHEET)] = [b if b < 1.0 else 1.0 for b in boxes]  # min(b, 1.0), faster


# ---------------------------------------------------------------------------- the table
def common_objectives(s: GetOnBoardState, player: int, out: list[float], at: int) -> None:
    for j, oid in enumerate(s.objectives):
        out[at + 7 * j + oid - 1] = 1.0
        out[at + 7 * j + 6] = float(j < len(s.flipped) and s.flipped[j])


def tickets(s: GetOnBoardState, player: int, out: list[float], at: int) -> None:
    for t in s.tickets:
        out[at + t - 1] = 1.0
    if s.tickets:
        out[at + 12 + s.tickets[-1] - 1] = 1.0


def phase(s: GetOnBoardState, player: int, out: list[float], at: int) -> None:
    out[at + s.phase] = 1.0


def clock(s: GetOnBoardState, player: int, out: list[float], at: int) -> None:
    out[at] = s.round / s.game.options.rounds
    out[at + 1] = min(s.step / 3, 1.0)


def shape(s: GetOnBoardState, player: int, out: list[float], at: int) -> None:
    out[at + s.tables.shapes.index(s.shape)] = 1.0


def turn(s: GetOnBoardState, player: int, out: list[float], at: int) -> None:
    out[at] = float(s.forced_straight)
    out[at + 1] = min(s.turn_index / s.num_players, 1.0)


def build(game: GetOnBoardGame) -> Encoding[GetOnBoardState]:
    """The layout for ``game``'s city, tables and player count."""
    board = game.board
    nodes, k = board.num_nodes, len(board.starts)
    return Encoding(
        "getonboard",
        [
            Block(
                "player",
                game.num_players,
                [
                    Piece("sections", board.num_sections, sections, doc="sections owned"),
                    Piece("end", nodes, line_end, doc="one-hot: the intersection the line ends at"),
                    Piece("visited", nodes, visited, doc="intersections the line has visited"),
                    Piece("personal", nodes, personal, doc="the three personal-objective intersections"),
                    Piece("status", len(STATUS), status, columns=STATUS),
                    Piece("starts", 2 * k, starts, doc="start tickets dealt (K), start chosen (K)"),
                    Piece("sheet", len(SHEET), sheet, columns=SHEET),
                ],
            ),
            Piece(
                "objectives", (2, 7), common_objectives, doc="per common objective: id one-hot (6), flipped"
            ),
            Piece("tickets", 24, tickets, doc="tickets revealed (12), the current one (12)"),
            Piece("phase", P_OVER + 1, phase, doc="one-hot"),
            Piece("clock", 2, clock, columns=("round / rounds", "stick step / 3")),
            Piece("shape", len(game.tables.shapes), shape, doc="one-hot: the shape being laid"),
            Piece("turn", 2, turn, columns=("forced straight", "turn position / n")),
        ],
    )


def encoding_for(game: GetOnBoardGame) -> Encoding[GetOnBoardState]:
    """``game``'s layout, built once per game."""
    return cached_encoding(game, build)


def observation_tensor(state: GetOnBoardState, player: int) -> list[float]:
    """``observation(player)`` as floats in [0, 1] (see :func:`encoding_for`)."""
    return cached_encoding(state.game, build).encode(state, player)
