"""Scenes for A Une Passante's rule tests: a game past the deal, characters placed by name,
hands and cards given by hand (then ``state.invalidate()``), and the check that a refused action
names its rule and changes nothing.  Said once here for the rules, text-options and privileges
tests (pytest puts this folder on the path).
"""

from __future__ import annotations

from typing import Any

import gamelib
from gamelib import CHANCE
from gamelib.core.checks import refusal
from gamelib.passante import board as B
from gamelib.passante.rules import PassanteState

NAMES = {name: i for i, name in enumerate(B.PIECE_NAMES)}
LOCS = {name: i for i, name in enumerate(B.LOCATION_NAMES)}


def ready(players: int = 2, seed: int = 0, start: str = "ecole", **options: Any) -> PassanteState:
    """A game past the deal and the Passante's start, player 1 to move, no hidden surprises."""
    state = gamelib.make("passante", players=players, options=options).new_game(seed=seed)
    while state.current_player == CHANCE:
        state.apply(state.sample_chance())
    state.apply(f"start {start}")
    assert isinstance(state, PassanteState)
    return state


def place(state: PassanteState, **where: str) -> None:
    """Put characters (by name) on locations (by name); the rest stay where they are."""
    for name, loc in where.items():
        state.pos[NAMES[name]] = LOCS[loc]
    state.invalidate()


def empty_hands(state: PassanteState) -> None:
    """Return every hand to the deck so that scenario moves fulfil nothing by accident."""
    for p, hand in enumerate(state.hands):
        for w in hand:
            state.wish_deck |= 1 << w
        state.hands[p] = ()
    state.invalidate()


def give_wishes(state: PassanteState, player: int, *numbers: int) -> None:
    """Put wishes ``numbers`` in ``player``'s hand (taken from the deck or another hand)."""
    for w in numbers:
        state.wish_deck &= ~(1 << w)
        for p in range(len(state.hands)):
            state.hands[p] = tuple(x for x in state.hands[p] if x != w)
    state.hands[player] = tuple(sorted((*state.hands[player], *numbers)))
    state.invalidate()


def give_card(state: PassanteState, player: int, name: str) -> None:
    """Hand ``player`` a character card, heart pinned, as if drawn."""
    c = NAMES[name]
    state.char_deck &= ~(1 << c)
    state.char_under = tuple(x for x in state.char_under if x != c)
    state.char_hand[player] = c
    state.hearts[player] = c
    state.invalidate()


def legal(state: PassanteState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def refused(state: PassanteState, text: str, rule: str) -> None:
    """``text`` is refused naming ``rule``, and the state is exactly as it was."""
    error = refusal(state, text)
    assert error.rule == rule, error


def draw_pending(state: PassanteState) -> None:
    """Resolve queued wish draws (chance) with the state's own seed."""
    while state.pending:
        state.apply(state.sample_chance())
