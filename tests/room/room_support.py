"""What several class-play tests do: play a seat's turn at random, play tables to the end."""

from __future__ import annotations

import random

import gamelib.room


def play_turn(seat: gamelib.room.Seat, rng: random.Random) -> str | None:
    """Play one random legal move if it is this seat's turn; the notation played, or None."""
    view = seat.view()
    if not view.legal:
        return None
    action = rng.choice(view.legal)
    seat.apply(action, ply=view.ply)
    return action


def play_to_end(seats: list[gamelib.room.Seat], seed: int = 0, limit: int = 20_000) -> None:
    """Let the seats play at random until each of their tables is over."""
    rng = random.Random(seed)
    for _ in range(limit):
        if all(seat.view().finished for seat in seats):
            return
        for seat in seats:
            play_turn(seat, rng)
    raise AssertionError("the tables did not finish")
