"""A Une Passante's observation tensor, piece by piece (``state.observation_tensor(player)``).

``358 + 76 * n`` floats in [0, 1] for ``n`` players; ``print(layout(3).describe())`` shows the
layout (``gamelib.core.encoding.encoding_of(game)`` finds it from a game).  What
``player`` may not see stays zero: the other hands and Poète discards, unless the ``open_hands``
option shows them.  The layout is a contract (the OpenSpiel and PettingZoo adapters and stored
learning data read it): ``tests/test_encoding.py`` pins it bit for bit.
"""

from __future__ import annotations

import functools

from gamelib.core.encoding import Block, Encoding, Piece
from gamelib.passante.board import CHARACTERS, LOCATION_NAMES, LOCATIONS, OMNIBUS, PIECE_NAMES
from gamelib.passante.rules import (
    NUM_WISHES,
    PHASE_NAMES,
    PLAY_BIT,
    POETE,
    POLICIER,
    RETURN_ROUND,
    SIGNAL_VERBS,
    Board,
    Drive,
    Move,
    PassanteGame,
    PassanteState,
    Play,
)

CHARS = len(CHARACTERS)
PLACES = len(LOCATIONS)
CARD_PLACES = ("in the deck", "under the deck", "out of the game")
"""Where each character card is (the columns of ``character_cards``)."""
PIECES = CHARS + 1
"""The pieces that move: the eight characters and the Omnibus."""
VETOABLE = (*PIECE_NAMES, "character card")
COUNTERS = (
    "moves / 4",
    "turns / total turns",
    "rounds / 5",
    "Passante exits / n",
    "wishes in the deck / 38",
    "wishes waiting to be dealt / 38",
    "Chat attractions left / 2",
    "Poète discards / 38",
    "fresh",
    "hinted",
    "last turn",
    "ended",
    "effect returns to the round",
)
"""Counters scaled to [0, 1] (capped), then flags."""
SIZES = ("hand / hand size", "discards / 38", "fulfilled / 38")

_BITS = {
    size: tuple(tuple(float(mask >> b & 1) for b in range(size)) for mask in range(1 << size))
    for size in (1, 2, 3, 4, CHARS, PIECES, len(VETOABLE))
}
"""``_BITS[size][mask]``: bits ``0 .. size-1`` of ``mask`` as floats (the small masks' pieces, read
from a table: faster than :func:`gamelib.core.encoding.bits` at these sizes)."""


# ---------------------------------------------------------------------------- the board
def characters(s: PassanteState, player: int, out: list[float], at: int) -> None:
    for c, where in enumerate(s.pos):
        out[at + PLACES * c + where] = 1.0


def omnibus(s: PassanteState, player: int, out: list[float], at: int) -> None:
    out[at + s.bus] = 1.0


def passante(s: PassanteState, player: int, out: list[float], at: int) -> None:
    out[at + s.passante] = 1.0


def direction(s: PassanteState, player: int, out: list[float], at: int) -> None:
    out[at] = 1.0 if s.pdir == 1 else 0.0


# ---------------------------------------------------------------------------- the cards
def heart(s: PassanteState, player: int, out: list[float], at: range) -> None:
    for h, i in zip(s.hearts, at, strict=True):
        if h >= 0:
            out[i + h] = 1.0


def card(s: PassanteState, player: int, out: list[float], at: range) -> None:
    for c, i in zip(s.char_hand, at, strict=True):
        if c >= 0:
            out[i + c] = 1.0


def character_cards(s: PassanteState, player: int, out: list[float], at: int) -> None:
    under = 0
    for c in s.char_under:
        under |= 1 << c
    end, table, mask = at + 3 * CHARS, _BITS[CHARS], (1 << CHARS) - 1
    out[at:end:3] = table[s.char_deck & mask]
    out[at + 1 : end : 3] = table[under & mask]
    out[at + 2 : end : 3] = table[s.char_out & mask]


def hands(s: PassanteState, player: int, out: list[float], at: int) -> None:
    see_all = s.game.options.open_hands
    for p, hand in enumerate(s.hands):
        if see_all or p == player:
            i = at + NUM_WISHES * p - 1
            for w in hand:
                out[i + w] = 1.0


def discards(s: PassanteState, player: int, out: list[float], at: int) -> None:
    see_all = s.game.options.open_hands
    for p, thrown in enumerate(s.discards):
        if see_all or p == player:
            for w in thrown:
                out[at + w - 1] = 1.0


def laid(s: PassanteState, player: int, out: list[float], at: int) -> None:
    for wishes in s.fulfilled:
        for w in wishes:
            out[at + w - 1] = 1.0


# ---------------------------------------------------------------------------- whose turn, what is going on
def phase(s: PassanteState, player: int, out: list[float], at: int) -> None:
    out[at + s.phase] = 1.0


def me(s: PassanteState, player: int, out: list[float], at: int) -> None:
    out[at + player] = 1.0


def turn(s: PassanteState, player: int, out: list[float], at: int) -> None:
    out[at + s.turn_player] = 1.0


def actor(s: PassanteState, player: int, out: list[float], at: int) -> None:
    if s.actor >= 0:
        out[at + s.actor] = 1.0


def played(s: PassanteState, player: int, out: list[float], at: int) -> None:
    n = s.game.num_players
    out[at : at + n] = _BITS[n][s.played & ((1 << n) - 1)]


def poete_waits(s: PassanteState, player: int, out: list[float], at: int) -> None:
    if s.eff == POETE:  # the Poète's queue holds players
        for p in s.eff_queue:
            out[at + p] = 1.0


def moved(s: PassanteState, player: int, out: list[float], at: int) -> None:
    out[at : at + PIECES] = _BITS[PIECES][s.moved & ((1 << PIECES) - 1)]


def boarding(s: PassanteState, player: int, out: list[float], at: int) -> None:
    for c in s.boarding:
        out[at + c] = 1.0


def effect(s: PassanteState, player: int, out: list[float], at: int) -> None:
    if s.eff >= 0:
        out[at + s.eff] = 1.0


def source(s: PassanteState, player: int, out: list[float], at: int) -> None:
    if s.src >= 0:
        out[at + s.src] = 1.0


def policier_queue(s: PassanteState, player: int, out: list[float], at: int) -> None:
    if s.eff == POLICIER:  # the Policier's queue holds characters
        for c in s.eff_queue:
            out[at + c] = 1.0


def hints(s: PassanteState, player: int, out: list[float], at: int) -> None:
    for _, c, z in s.hints:
        out[at + PLACES * c + z] = 1.0


# ---------------------------------------------------------------------------- counters
def counters(s: PassanteState, player: int, out: list[float], at: int) -> None:
    # ``x / k if x < k else 1.0`` for ``min(x, k) / k``: the same floats, faster
    game = s.game
    n, total = game.num_players, game.total_turns
    moves, turns, rounds, arrivals = s.moves, s.turns, s.rounds, s.arrivals
    pending, eff_left, eff_count = len(s.pending), s.eff_left, s.eff_count
    out[at : at + len(COUNTERS)] = [
        moves / 4 if moves < 4 else 1.0,
        turns / total if turns < total else 1.0,
        rounds / 5 if rounds < 5 else 1.0,
        arrivals / n if arrivals < n else 1.0,
        s.wish_deck.bit_count() / NUM_WISHES,
        pending / NUM_WISHES if pending < NUM_WISHES else 1.0,
        eff_left / 2 if eff_left < 2 else 1.0,
        eff_count / NUM_WISHES if eff_count < NUM_WISHES else 1.0,
        float(s.fresh),
        float(s.hinted),
        float(s.last_turn),
        float(s.ended),
        float(s.eff_return == RETURN_ROUND),
    ]


def sizes(s: PassanteState, player: int, out: list[float], at: int) -> None:
    hand_size = s.game.hand_size
    end = at + 3 * len(s.hands)
    out[at:end:3] = [len(h) / hand_size if len(h) < hand_size else 1.0 for h in s.hands]
    out[at + 1 : end : 3] = [len(d) / NUM_WISHES for d in s.discards]
    out[at + 2 : end : 3] = [len(f) / NUM_WISHES for f in s.fulfilled]


# ---------------------------------------------------------------------------- the Policier's veto
def veto(s: PassanteState, player: int, out: list[float], at: int) -> None:
    out[at] = float(s.drew)
    out[at + 1] = float(s.veto_used)


def vetoed(s: PassanteState, player: int, out: list[float], at: int) -> None:
    size = len(VETOABLE)
    out[at : at + size] = _BITS[size][s.vetoed & ((1 << size) - 1)]


def announced(s: PassanteState, player: int, out: list[float], at: int) -> None:
    proposed = s.proposed
    if isinstance(proposed, Move):
        out[at + proposed.char] = 1.0
    elif isinstance(proposed, (Drive, Board)):
        out[at + OMNIBUS] = 1.0
    elif isinstance(proposed, Play):
        out[at + PLAY_BIT] = 1.0


def announced_to(s: PassanteState, player: int, out: list[float], at: int) -> None:
    proposed = s.proposed
    if isinstance(proposed, (Move, Drive)):
        out[at + proposed.to] = 1.0


# ---------------------------------------------------------------------------- the table privileges
def named(s: PassanteState, player: int, out: list[float], at: int) -> None:
    for _, _, kind, wish, _ in s.said:
        if kind == "name":
            out[at + wish - 1] = 1.0


def signals(s: PassanteState, player: int, out: list[float], at: int) -> None:
    latest: dict[int, str] = {}
    for q, text in s.signals:
        latest[q] = text.split(" ", 1)[0]
    for q, verb in latest.items():
        out[at + len(SIGNAL_VERBS) * q + SIGNAL_VERBS.index(verb)] = 1.0


# ---------------------------------------------------------------------------- the moments between moves
def asked(s: PassanteState, player: int, out: list[float], at: int) -> None:
    for q in s.asking:
        out[at + q] = 1.0


def dealt_to(s: PassanteState, player: int, out: list[float], at: int) -> None:
    n = s.game.num_players
    out[at : at + n] = _BITS[n][s.dealt_to & ((1 << n) - 1)]


def signalled(s: PassanteState, player: int, out: list[float], at: int) -> None:
    n = s.game.num_players
    out[at : at + n] = _BITS[n][s.signalled & ((1 << n) - 1)]


def shown(s: PassanteState, player: int, out: list[float], at: int) -> None:
    mask = s.shown
    while mask:
        low = mask & -mask
        out[at + low.bit_length() - 2] = 1.0
        mask ^= low


def encoding_for(game: PassanteGame) -> Encoding[PassanteState]:
    """``game``'s layout (only the player count changes it)."""
    return layout(game.num_players)


@functools.cache
def layout(num_players: int) -> Encoding[PassanteState]:
    """The layout for ``num_players`` players: the table, then the turn's bookkeeping."""
    return Encoding("passante", [*_table_pieces(num_players), *_bookkeeping_pieces(num_players)])


def _table_pieces(n: int) -> list[Piece[PassanteState] | Block[PassanteState]]:
    """The board, the cards, whose turn it is and the effect under way."""
    places = LOCATION_NAMES
    return [
        Piece(
            "characters",
            (CHARS, PLACES),
            characters,
            doc="per character (PIECE_NAMES order: so are the 8-float pieces)",
            columns=places,
        ),
        Piece("omnibus", PLACES, omnibus, doc="one-hot: where the Omnibus is"),
        Piece("passante", PLACES, passante, doc="one-hot: where the Passante is"),
        Piece("direction", 1, direction, doc="the Passante walks in direction +1"),
        Block(
            "player",
            n,
            [
                Piece("heart", CHARS, heart, doc="one-hot: the character their heart is on"),
                Piece("card", CHARS, card, doc="one-hot: the character card in their hand"),
            ],
        ),
        Piece("character_cards", (CHARS, 3), character_cards, doc="per character card", columns=CARD_PLACES),
        Piece("hands", (n, NUM_WISHES), hands, doc="per player: wishes 1-38 in hand, if I may see them"),
        Piece("discards", NUM_WISHES, discards, doc="wishes discarded where I may see them"),
        Piece("laid", NUM_WISHES, laid, doc="wishes laid down (fulfilled)"),
        Piece("phase", len(PHASE_NAMES), phase, doc="one-hot", columns=PHASE_NAMES),
        Piece("me", n, me, doc="one-hot: the player I am"),
        Piece("turn", n, turn, doc="one-hot: whose turn it is"),
        Piece("actor", n, actor, doc="one-hot: who resolves the effect"),
        Piece("played", n, played, doc="the players who played this round"),
        Piece("poete_waits", n, poete_waits, doc="the players the Poète's discards still wait for"),
        Piece("moved", PIECES, moved, doc="pieces moved this turn", columns=PIECE_NAMES),
        Piece("boarding", CHARS, boarding, doc="characters boarding the Omnibus"),
        Piece("effect", CHARS, effect, doc="one-hot: the effect's character"),
        Piece("source", CHARS, source, doc="one-hot: the effect's source"),
        Piece(
            "policier_queue",
            CHARS,
            policier_queue,
            doc="characters the Policier's effect still moves",
        ),
        Piece(
            "hints",
            (CHARS, PLACES),
            hints,
            doc="hints and calls on the table, per character",
            columns=places,
        ),
    ]


def _bookkeeping_pieces(n: int) -> list[Piece[PassanteState] | Block[PassanteState]]:
    """Counters, the veto, the signals and the moments between moves."""
    return [
        Piece("counters", len(COUNTERS), counters, columns=COUNTERS),
        Piece("sizes", (n, len(SIZES)), sizes, doc="per player", columns=SIZES),
        Piece("veto", 2, veto, columns=("drew this turn", "veto used")),
        Piece("vetoed", len(VETOABLE), vetoed, doc="vetoed this turn", columns=VETOABLE),
        Piece(
            "announced",
            len(VETOABLE),
            announced,
            doc="waiting for the veto: the piece moved or the character card played",
            columns=VETOABLE,
        ),
        Piece("announced_to", PLACES, announced_to, doc="one-hot: the announced move's destination"),
        Piece("named", NUM_WISHES, named, doc="wishes named with the Poète's privilege"),
        Piece(
            "signals",
            (n, len(SIGNAL_VERBS)),
            signals,
            doc="per player: the verb of their latest signal (call and hint targets: hints)",
            columns=SIGNAL_VERBS,
        ),
        Piece("asked", n, asked, doc="the players still asked in the window between moves"),
        Piece("dealt_to", n, dealt_to, doc="the players dealt a wish since the last window check"),
        Piece("signalled", n, signalled, doc="the players who signalled in a window this turn"),
        Piece("shown", NUM_WISHES, shown, doc="wishes visible and not laid at the last window check"),
    ]


def passante_tensor_size(num_players: int) -> int:
    """Length of ``state.observation_tensor(player)`` for ``num_players`` players (``358 + 76 * n``)."""
    return len(layout(num_players))


def observation_tensor(state: PassanteState, player: int) -> list[float]:
    """``observation(player)`` as ``358 + 76 * n`` floats in [0, 1] (see :func:`layout`)."""
    return layout(state.game.num_players).encode(state, player)
