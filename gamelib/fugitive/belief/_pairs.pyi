"""The compiled pair moves of :class:`gamelib.fugitive.belief.programme.Programme` (``_pairs.c``)."""

from collections.abc import Callable

def pair_deltas(
    sig: int,
    g: int,
    cap: tuple[int, ...],
    limit: tuple[int, ...],
    avail: tuple[int, ...],
    slots: tuple[int, ...],
    pending: bool,
    comb: list[list[int]],
    fall: list[list[int]],
    coefs: list[list[int]],
) -> list[tuple[int, int]] | None: ...
def split_closable(
    bare: int, g: int, full_a: int, full_b: int, deltas: list[tuple[int, int]]
) -> tuple[list[tuple[int, int]], list[tuple[int, int]], int] | None: ...
def delta_key(sig: int, i: int, g: int, avail: tuple[int, ...]) -> int | None: ...
def close_moves(
    sig: int,
    g: int,
    plain: list[tuple[int, int]],
    closable: list[tuple[int, int]],
    part_memo: dict[int, tuple[int, int]],
    close_part: Callable[[int, int], tuple[int, int]],
) -> list[tuple[int, int]] | None: ...
