"""Positions for Fugitive's tests: random games cut after some steps, and what the detective sees.

Said once here for the belief, determinize and small-deck tests (a test module imports it by name:
pytest puts this folder on the path).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import gamelib
from gamelib.core.play import random_playout
from gamelib.fugitive.rules import DETECTIVE, FugitiveObservation, FugitiveState


def random_position(seed: int, steps: int, **options: Any) -> FugitiveState:
    """``steps`` random actions (chance drawn with the same generator) into a game with ``options``."""
    state = gamelib.make("fugitive", options=options).new_game(seed=seed)
    random_playout(state, random.Random(seed), max_actions=steps)
    assert isinstance(state, FugitiveState)
    return state


@dataclasses.dataclass(frozen=True)
class View(FugitiveObservation):
    """The detective's observation with the history it saw (what ``belief`` reads)."""

    history: tuple[str, ...] = ()


def detective_view(state: FugitiveState) -> View:
    info = state.information_state(DETECTIVE)
    return View(**vars(info.observation), history=info.history)
