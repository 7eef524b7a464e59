"""Delanopolis's observation tensor, piece by piece (``state.observation_tensor(player)``).

``42 * n + 57`` floats in [0, 1] for ``n`` players; ``print(layout(4).describe())`` shows the
layout.  Amounts are divided by :func:`~gamelib.delanopolis.rules.points_bound`, the most
points a game can ever hold.  The layout is a contract (the OpenSpiel and PettingZoo adapters and
stored learning data read it): ``tests/test_encoding.py`` pins it bit for bit.
"""

from __future__ import annotations

import functools

from gamelib.core.encoding import Block, Encoding, Piece
from gamelib.delanopolis.board import REFUGE_BASE, START, TERRAINS
from gamelib.delanopolis.rules import OVER, DelanopolisGame, DelanopolisState, points_bound

SQUARES = 1 + TERRAINS + 4
"""Where a token stands: the start, the 12 terrains, the 4 refuges."""
FLAGS = (
    "is the mayor",
    "is me",
    "is to act",
    "is rolling",
    "VOT'S",
    "COM'S",
    "atouts and jokers / rounds",
    "skips the next turn",
    "landed on an occupied terrain last time",
    "boosted",
    "has bid",
    "the bid, if I may see it",
    "is a winner",
)


def flags(s: DelanopolisState, player: int, out: list[float], at: range) -> None:
    # Column by column, one strided slice per flag (a block's offsets are a range), and
    # ``x / scale if x < scale else 1.0`` for ``min(x / scale, 1.0)``: the same floats, faster.
    scale = points_bound(s.game)
    rounds = s.options.rounds
    hidden = s.hidden_bidders(player)
    first, stop, step = at.start, at.stop, at.step
    for column, who in ((0, s.mayor), (1, player), (2, s.current_player), (3, s.roller)):
        if who >= 0:
            out[first + column + step * who] = 1.0
    out[first + 4 : stop : step] = [v / scale if v < scale else 1.0 for v in s.vots]
    out[first + 5 : stop : step] = [c / scale if c < scale else 1.0 for c in s.coms]
    out[first + 6 : stop : step] = [t / rounds if t < rounds else 1.0 for t in s.tokens]
    out[first + 7 : stop : step] = [float(x) for x in s.skip_next]
    out[first + 8 : stop : step] = [float(x) for x in s.prev_occupied]
    out[first + 9 : stop : step] = [float(x) for x in s.boosted]
    out[first + 10 : stop : step] = [float(b >= 0) for b in s.bids]
    out[first + 11 : stop : step] = [
        (b / scale if b < scale else 1.0) if b >= 0 and p not in hidden else 0.0 for p, b in enumerate(s.bids)
    ]
    for p in s.winners:
        out[first + 12 + step * p] = 1.0


def square(s: DelanopolisState, player: int, out: list[float], at: range) -> None:
    for code, i in zip(s.where, at, strict=True):
        if code == START:
            out[i] = 1.0
        elif code < REFUGE_BASE:
            out[i + 1 + code] = 1.0
        else:
            out[i + 1 + TERRAINS + code - REFUGE_BASE] = 1.0


def owner(s: DelanopolisState, player: int, out: list[float], at: range) -> None:
    free = s.game.num_players
    for who, i in zip(s.owner, at, strict=True):
        out[i + (who if who >= 0 else free)] = 1.0


def terms(s: DelanopolisState, player: int, out: list[float], at: range) -> None:
    scale = points_bound(s.game)
    first, stop, step = at.start, at.stop, at.step
    out[first:stop:step] = [x / scale if x < scale else 1.0 for x in s.price]
    out[first + 1 : stop : step] = [x / scale if x < scale else 1.0 for x in s.aside]
    if 0 <= s.landed < TERRAINS:
        out[first + 2 + step * s.landed] = 1.0


def phase(s: DelanopolisState, player: int, out: list[float], at: int) -> None:
    out[at + s.phase] = 1.0


def progress(s: DelanopolisState, player: int, out: list[float], at: int) -> None:
    out[at] = min(s.turn / (s.options.rounds * s.game.num_players), 1.0)
    out[at + 1] = float(s.chained)


def encoding_for(game: DelanopolisGame) -> Encoding[DelanopolisState]:
    """``game``'s layout (only the player count changes it)."""
    return layout(game.num_players)


@functools.cache
def layout(num_players: int) -> Encoding[DelanopolisState]:
    """The layout for ``num_players`` players."""
    n = num_players
    return Encoding(
        "delanopolis",
        [
            Block(
                "player",
                n,
                [
                    Piece("flags", 13, flags, columns=FLAGS),
                    Piece("square", SQUARES, square, doc="one-hot: start, 12 terrains, 4 refuges"),
                ],
            ),
            Block(
                "terrain",
                TERRAINS,
                [
                    Piece("owner", n + 1, owner, doc="one-hot: players 0..n-1, free"),
                    Piece("terms", 3, terms, columns=("price", "points set aside", "under auction")),
                ],
            ),
            Piece("phase", OVER + 1, phase, doc="one-hot"),
            Piece("progress", 2, progress, columns=("turn / last turn", "a chained auction ran")),
        ],
    )


def delanopolis_tensor_size(num_players: int) -> int:
    """Length of ``state.observation_tensor(player)`` for ``num_players`` players (``42 * n + 57``)."""
    return len(layout(num_players))


def observation_tensor(state: DelanopolisState, player: int) -> list[float]:
    """``observation(player)`` as ``42 * n + 57`` floats in [0, 1] (see :func:`layout`)."""
    return layout(state.game.num_players).encode(state, player)
