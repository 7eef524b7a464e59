"""Delanopolis rule scenes: a game just after the lot, turns scripted by their dice, auctions settled."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gamelib
from gamelib.delanopolis.rules import BIDDING, PRE_ROLL, ROLL_DICE, DelanopolisState


def start(players: int = 4, mayor: int = 0, **options: Any) -> DelanopolisState:
    """A game just after the lot made ``mayor`` mayor (placement "sum" unless given)."""
    options.setdefault("placement", "sum")
    game = gamelib.make("delanopolis", players=players, options=options)
    state = game.new_game(seed=0)
    state.apply(f"mayor {mayor}")
    assert isinstance(state, DelanopolisState)
    return state


def bids(state: DelanopolisState, amounts: Mapping[int, int] | None = None) -> None:
    """Everyone in the auction queue bids (0 unless ``amounts`` says otherwise)."""
    amounts = amounts or {}
    while state.phase == BIDDING:
        player = state.current_player
        state.apply(f"bid {amounts.get(player, 0)}")


def turn(state: DelanopolisState, dice: str, amounts: Mapping[int, int] | None = None) -> None:
    """Roll (if the roller has choices), throw ``dice`` ("3 4"), and settle any auction."""
    if state.phase == PRE_ROLL:
        state.apply("roll")
    assert state.phase == ROLL_DICE, f"expected the dice, phase {state.phase}"
    state.apply(f"dice {dice}")
    if state.phase == BIDDING:
        bids(state, amounts)


def conserved(state: DelanopolisState) -> bool:
    return state.total_points() == state.initial_points() + state.created
