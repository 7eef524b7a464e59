"""The compiled inner loops of :mod:`gamelib.fugitive.belief.direct_early`'s walk (``_early.c``)."""

from collections.abc import Callable, Sequence
from typing import Any, overload

SharesBundle = tuple[
    int,
    dict[int, tuple[tuple[int, int, int, int], ...]],
    dict[tuple[int, int], list[list[tuple[int, int, int]]]],
    tuple[tuple[int, int, bool, int, int, int], ...],
    dict[tuple[int, ...], tuple[tuple[int, int, int, int], ...]],
    int,
    Sequence[Sequence[int]],
    Sequence[Sequence[int]],
]
"""stack_shares's arguments after (i, key): share_out makes the shares in C and answers (dict, work)."""

@overload
def share_out(
    cloud: dict[int, int],
    need: int,
    i: int,
    memo: dict[tuple[int, int], list[tuple[int, int, int]]],
    make: Callable[[int, int], list[tuple[int, int, int]]],
    /,
) -> dict[int, int]: ...
@overload
def share_out(
    cloud: dict[int, int],
    need: int,
    i: int,
    memo: dict[tuple[int, int], list[tuple[int, int, int]]],
    make: SharesBundle,
    /,
) -> tuple[dict[int, int], int]: ...
def combine(
    first: tuple[tuple[int, int, int, int], ...],
    second: tuple[tuple[int, int, int, int], ...],
    late: list[list[tuple[int, int, int]]],
    n: int,
    /,
) -> list[tuple[int, int, int]]: ...
def by_cards(
    third: tuple[tuple[int, int, int, int], ...],
    fourth: tuple[tuple[int, int, int, int], ...],
    n: int,
    /,
) -> list[list[tuple[int, int, int]]]: ...

EndsBundle = tuple[
    dict[int, int],
    dict[int, int],
    tuple[list[dict[int, int]], tuple[int, ...], Callable[..., int], Sequence[Sequence[int]]],
    tuple[int, int],
    tuple[int, int, int, int, int, int],
]
"""end_weights's arguments after the key: close_last makes end weights in C, answers (weight, made)."""

@overload
def close_last(
    cloud: dict[int, int],
    shift: int,
    cap: int,
    inc: int,
    free: int,
    caps: Sequence[int],
    context: Any,
    ends: dict[tuple[Any, ...], tuple[int, ...]],
    make: Callable[[int], tuple[int, ...]],
    need: int,
    /,
) -> int: ...
@overload
def close_last(
    cloud: dict[int, int],
    shift: int,
    cap: int,
    inc: int,
    free: int,
    caps: Sequence[int],
    context: Any,
    ends: dict[tuple[Any, ...], tuple[int, ...]],
    make: EndsBundle,
    need: int,
    /,
) -> tuple[int, int]: ...
def hide_step(
    cloud: dict[int, int],
    shift: int,
    cap: int,
    inc: int,
    mult: bool,
    free: int,
    caps: Sequence[int] | None,
    /,
) -> dict[int, int]: ...
def face_up(
    cloud: dict[int, int],
    caps: Sequence[int],
    terms: tuple[tuple[int, int, int], ...],
    fall: Sequence[Sequence[int]],
    /,
) -> dict[int, int]: ...
def group_shares(
    key: int,
    g: int,
    params: tuple[int, int, bool, int, int, int],
    shares: dict[tuple[int, ...], tuple[tuple[int, int, int, int], ...]],
    kept: int,
    fall: Sequence[Sequence[int]],
    comb: Sequence[Sequence[int]],
    /,
) -> tuple[tuple[int, int, int, int], ...]: ...
def end_weights(
    key: int,
    low_pairs: dict[int, int],
    high_pairs: dict[int, int],
    tables: tuple[list[dict[int, int]], tuple[int, ...], Callable[..., int], Sequence[Sequence[int]]],
    masks: tuple[int, int],
    packing: tuple[int, int, int, int, int, int],
    ends: dict[tuple[Any, ...], tuple[int, ...]],
    context: Any,
    /,
) -> tuple[int, ...]: ...
def stack_shares(
    i: int,
    key: int,
    n: int,
    group_memo: dict[int, tuple[tuple[int, int, int, int], ...]],
    late: dict[tuple[int, int], list[list[tuple[int, int, int]]]],
    params: tuple[tuple[int, int, bool, int, int, int], ...],
    shares: dict[tuple[int, ...], tuple[tuple[int, int, int, int], ...]],
    kept: int,
    fall: Sequence[Sequence[int]],
    comb: Sequence[Sequence[int]],
    /,
) -> tuple[list[tuple[int, int, int]], int]: ...
def packing_width(
    n: int,
    deals: bool,
    early: int,
    gavail: Sequence[int],
    fug: Sequence[int],
    last_cap: Sequence[int],
    last_drawn: Sequence[int],
    last_before: Sequence[int],
    group_bound: Callable[[int, int, int, int, bool], int],
    comb: Sequence[Sequence[int]],
    step: int,
    /,
) -> int: ...
def share_params(
    size: int,
    stacks: Sequence[int],
    capg: Sequence[Sequence[int]],
    drawn: Sequence[Sequence[int]],
    before: Sequence[Sequence[int]],
    avail: Sequence[int],
    deals: bool,
    /,
) -> dict[int, tuple[tuple[int, int, bool, int, int, int], ...]]: ...
def walk(
    walker: Any,
    ends: dict[tuple[Any, ...], tuple[int, ...]],
    shares: dict[tuple[int, ...], tuple[tuple[int, int, int, int], ...]],
    kept: int,
    fall: Sequence[Sequence[int]],
    comb: Sequence[Sequence[int]],
    end_masks: tuple[int, int],
    end_work: int,
    step_limit: int,
    done: int,
    /,
) -> tuple[bool, int, int, float]: ...
