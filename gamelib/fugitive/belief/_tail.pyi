"""The compiled sums of :mod:`gamelib.fugitive.belief.tail_sums` (``_tail.c``)."""

from collections.abc import Callable, Sequence
from typing import Any

def tail_bilinear(
    states: dict[int, int],
    sig_ids: dict[int, tuple[int, int, int]],
    reads: int,
    high: int,
    low: int,
    lflats: dict[int, tuple[int, ...]],
    flat: Callable[[int, int], tuple[int, ...]],
    t_of: Callable[[int, int], tuple[int, ...]],
    scaled: Callable[[int, int], tuple[int, int, list[list[tuple[int, int]]]]],
    suffixes: Callable[
        [int, list[list[tuple[int, int]]], list[list[tuple[int, int]]], int], tuple[int, tuple[int, ...]]
    ],
    mask2: int,
    mask3: int,
    steps: list[tuple[tuple[int, int, int, int], ...]],
    gidx: list[list[int]],
    layer: bool,
    shift: int,
    size: int,
    /,
) -> tuple[Any, ...] | None: ...
def suffixes(
    p: list[list[tuple[int, int]]],
    q: list[list[tuple[int, int]]],
    n: int,
    top: int,
    t: int,
    low: bool,
    comb: list[list[int]],
    /,
) -> tuple[int, ...] | None: ...
def flat_rows(
    p: list[list[tuple[int, int]]],
    q: list[list[tuple[int, int]]],
    n: int,
    off: list[int],
    width: list[int],
    low: bool,
    comb: list[list[int]],
    /,
) -> tuple[int, ...] | None: ...
def distinct(states: dict[int, int], mask: int, /) -> set[int] | None: ...
def scaled(
    rows: list[list[tuple[int, int]]], /
) -> tuple[int, list[list[tuple[int, int]]], tuple[tuple[tuple[int, int], ...], ...]] | None: ...
def nonzero_pairs(rows: Sequence[Sequence[int]], /) -> list[list[tuple[int, int]]] | None: ...
