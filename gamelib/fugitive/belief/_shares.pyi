"""The compiled last-layer sums of :mod:`gamelib.fugitive.belief.marginals_tail` (``_shares.c``)."""

from collections.abc import Callable
from typing import Any

def dot(entries: list[tuple[int, int, int]], y: list[int], z: list[int], shift: int) -> int: ...
def dots(
    moves: list[tuple[list[list[int]], list[list[int]], list[tuple[int, int]]]],
    by_b: list[tuple[int, list[tuple[int, int]]]],
    size: int,
) -> tuple[list[int], list[int]]: ...
def last_layer(
    sources: dict[int, int],
    reads: int,
    per_sig: dict[int, tuple[int, list[Any]]],
    high: int,
    low: int,
    left: int,
    lows: dict[int, list[tuple[int, int, int]]],
    dots: dict[int, tuple[list[int], list[int]]],
    miss: Callable[[int], tuple[list[int], list[int]]],
    low_moves: Callable[[int, int, list[Any]], int],
    shift: int,
    size: int,
    tally: bool,
    out: dict[int, int],
) -> dict[int, list[int]] | None: ...
def tally(
    live: list[tuple[int, int, int]],
    moves: list[tuple[int, list[list[int]], list[tuple[int, int]]]],
    shift: int,
    out: list[int],
) -> None: ...
def closed(
    hit: list[tuple[int, int]],
    held: int,
    mask: int,
    memo: dict[int, tuple[int, int, int]],
    shut: Callable[[int], tuple[int, int, int]],
    flag: int,
) -> Any: ...
def convolve(
    p: list[list[tuple[int, int, int]]], q: list[list[tuple[int, int, int]]], k: int, comb: list[int]
) -> list[tuple[int, int, int]]: ...
def flag_into(nxt: dict[int, int], completions: dict[int, int], flag: int) -> Any: ...
