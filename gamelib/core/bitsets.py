"""Sets of small numbers as ``int`` bitmasks: the games' hands, decks and wishes, spelled one way.

Games keep a hand or a deck as an int whose bit ``n`` says "card ``n`` is here": a copy is free,
a union is ``|``, a membership test ``mask >> n & 1``.  Reading the members back was written in
each game under its own name (Fugitive's ``cards_of``, A Une Passante's ``bits``), while
:func:`gamelib.core.encoding.bit_floats` means something else (the bits as tensor floats).  Here
once, with the names saying what they give.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache


@lru_cache(maxsize=8192)
def members(mask: int) -> tuple[int, ...]:
    """The numbers whose bit is set in ``mask``, in increasing order (cached: the same hands and
    decks recur through a game and a search)."""
    if mask < 0:
        raise ValueError(f"a bitmask is a non-negative int, got {mask}")
    found = []
    while mask:
        found.append((mask & -mask).bit_length() - 1)  # the lowest set bit
        mask &= mask - 1  # and off with it
    return tuple(found)


def mask_of(numbers: Iterable[int]) -> int:
    """The bitmask holding ``numbers`` (each a non-negative int; repeats count once)."""
    mask = 0
    for number in numbers:
        if number < 0:
            raise ValueError(f"a bitmask holds non-negative numbers, got {number}")
        mask |= 1 << number
    return mask


__all__ = ["mask_of", "members"]
