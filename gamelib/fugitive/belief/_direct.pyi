"""The compiled set-up and table loops of :mod:`gamelib.fugitive.belief.direct` and the belief's
probabilities (``_direct.c``); the pure functions are the reference."""

from collections.abc import Sequence
from typing import Any

def position_tables(
    known: tuple[int, ...],
    known_sprints: tuple[tuple[int, ...], ...],
    caps: tuple[tuple[int, int, int], ...],
    group_of: tuple[int, ...],
    gavail: Sequence[int],
    /,
) -> tuple[list[Any], list[Any], list[Any], list[Any], list[int]]: ...
def pick_rows(
    width: int, n: int, evens: int, odds: int, comb: Sequence[Sequence[int]], /
) -> tuple[int, ...]: ...
def packed_rows(
    width: int,
    n: int,
    left: int,
    hand_total: int,
    room: int,
    slots: int,
    drawn: bool,
    picks: tuple[int, ...],
    comb: Sequence[Sequence[int]],
    fall: Sequence[Sequence[int]],
    factorials: Sequence[int],
    /,
) -> int: ...
def bound_sum(
    a: int,
    hand_total: int,
    top: int,
    slots: int,
    drawn: bool,
    comb: Sequence[Sequence[int]],
    fall: Sequence[Sequence[int]],
    factorials: Sequence[int],
    /,
) -> int: ...
def end_weights(key: tuple[int, ...], params: tuple[Any, ...], /) -> tuple[int, ...]: ...
def probabilities(
    marginals: dict[int, list[int]], total: int, /
) -> tuple[dict[int, tuple[float, ...]], tuple[float, ...]]: ...
