"""Fugitive's observation tensor, piece by piece (``state.observation_tensor(player)``).

318 floats in [0, 1], the same for every configuration; ``print(ENCODING.describe())`` shows the
layout (``gamelib.core.encoding.encoding_of(game)`` finds it from a game).  The layout is a contract (the OpenSpiel and PettingZoo adapters and stored learning data
read it): ``tests/test_encoding.py`` pins it bit for bit.
"""

from __future__ import annotations

from gamelib.core.encoding import Encoding, Piece, bit_floats
from gamelib.fugitive.rules import FUGITIVE, PHASES, FugitiveGame, FugitiveState, mask_of

CARDS = 43
"""Cards 0..42, and as many table positions."""


def cards(s: FugitiveState, player: int, out: list[float], at: int) -> None:
    mine = s.fhand if player == FUGITIVE else s.dhand
    face_up_hideouts = sum(1 << h for h, r in zip(s.hideouts, s.revealed, strict=True) if r)
    end = at + 4 * CARDS
    out[at:end:4] = bit_floats(mine, CARDS)
    out[at + 1 : end : 4] = bit_floats(face_up_hideouts, CARDS)
    out[at + 2 : end : 4] = bit_floats(s.face_up & ~face_up_hideouts, CARDS)
    out[at + 3 : end : 4] = bit_floats(mask_of(s.series), CARDS)


def table(s: FugitiveState, player: int, out: list[float], at: int) -> None:
    end = at + 3 * len(s.revealed)
    out[at:end:3] = [1.0] * len(s.revealed)
    out[at + 1 : end : 3] = [0.0 if r else 1.0 for r in s.revealed]
    out[at + 2 : end : 3] = [min(len(sprint), 4) / 4.0 for sprint in s.sprints]


def decks(s: FugitiveState, player: int, out: list[float], at: int) -> None:
    out[at : at + 3] = [size / 14.0 for size in s.deck_sizes]


def phase(s: FugitiveState, player: int, out: list[float], at: int) -> None:
    out[at + s.phase] = 1.0


def me(s: FugitiveState, player: int, out: list[float], at: int) -> None:
    out[at + player] = 1.0


def hand_sizes(s: FugitiveState, player: int, out: list[float], at: int) -> None:
    out[at] = s.fhand.bit_count() / 43.0
    out[at + 1] = s.dhand.bit_count() / 43.0


ENCODING: Encoding[FugitiveState] = Encoding(
    "fugitive",
    [
        Piece(
            "cards",
            (CARDS, 4),
            cards,
            columns=("in my hand", "face-up hideout", "face-up sprint", "in the series"),
        ),
        Piece(
            "table",
            (CARDS, 3),
            table,
            doc="per table position",
            columns=("occupied", "face down", "sprint cards / 4"),
        ),
        Piece("decks", 3, decks, doc="cards left in decks 1-3, / 14"),
        Piece("phase", len(PHASES), phase, doc="one-hot"),
        Piece("me", 2, me, doc="fugitive, detective"),
        Piece("hand_sizes", 2, hand_sizes, doc="fugitive's, detective's, / 43"),
    ],
)


def encoding_for(game: FugitiveGame) -> Encoding[FugitiveState]:
    """``game``'s layout: the same for every Fugitive configuration."""
    return ENCODING


def observation_tensor(state: FugitiveState, player: int) -> list[float]:
    """``observation(player)`` as 318 floats in [0, 1] (see :data:`ENCODING`)."""
    return ENCODING.encode(state, player)
