"""Deterministic randomness that is the same on every machine and every Python.

Chance outcomes are drawn from a pure function of ``(seed, step)`` (SplitMix64), not from a
stateful generator: cloning a state then costs nothing, the draw at a step does not depend on
what agents did with their own generators, and a record replays without any seed at all because
its chance outcomes are in the history.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

_MASK = (1 << 64) - 1
T = TypeVar("T")


def splitmix64(x: int) -> int:
    """One SplitMix64 step: a fast, well-mixed 64-bit hash of ``x``."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def derive_seed(seed: int, *keys: int) -> int:
    """A 63-bit seed derived from ``seed`` and integer keys (player index, game number...)."""
    x = seed & _MASK
    for k in keys:
        x = splitmix64(x ^ splitmix64(k & _MASK))
    return splitmix64(x) >> 1


def uniform(seed: int, step: int) -> float:
    """A float in [0, 1) that depends only on ``seed`` and ``step``."""
    return (derive_seed(seed, step) >> 10) / float(1 << 53)


def pick(outcomes: Sequence[tuple[T, float]], u: float) -> T:
    """The outcome whose cumulative probability interval contains ``u``."""
    acc = 0.0
    for outcome, p in outcomes:
        acc += p
        if u < acc:
            return outcome
    return outcomes[-1][0]


def new_rng(seed: int, *keys: int) -> random.Random:
    """A ``random.Random`` for an agent, derived from a game seed and keys."""
    return random.Random(derive_seed(seed, *keys))


def fresh_seed() -> int:
    """A seed for a game started without one (it is recorded, so the game still replays)."""
    return random.SystemRandom().getrandbits(63)
