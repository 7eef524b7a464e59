"""The compiled sums of :mod:`gamelib.fugitive.belief.tail_sums` (``_tail.c``)."""

from collections.abc import Callable
from typing import Any

def tail_bilinear(
    states: dict[int, int],
    sig_ids: dict[int, tuple[int, int, int]],
    reads: int,
    high: int,
    low: int,
    lflats: dict[int, tuple[int, ...]],
    low_part: Callable[[int, int, int], int],
    resolved: Callable[[int], tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]],
    gathered: dict[int, tuple[int, ...]],
    lengths: list[int] | None,
    shift: int,
    size: int,
    /,
) -> tuple[Any, ...] | None: ...
