"""gamelib.core.bitsets: a set of small numbers as an int bitmask, read back in order."""

from __future__ import annotations

import random

import pytest

from gamelib.core.bitsets import mask_of, members
from gamelib.core.encoding import bit_floats


def test_members_and_mask_of_are_inverse() -> None:
    rng = random.Random(3)
    for _ in range(200):
        numbers = sorted(set(rng.sample(range(80), rng.randrange(0, 20))))
        mask = mask_of(numbers)
        assert members(mask) == tuple(numbers)
        assert mask_of(members(mask)) == mask
        assert bit_floats(mask, 80) == [1.0 if n in numbers else 0.0 for n in range(80)]
    assert members(0) == () and mask_of([3, 3, 0]) == 0b1001


def test_negative_numbers_are_refused() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        mask_of([2, -1])
    with pytest.raises(ValueError, match="non-negative"):
        members(-4)
