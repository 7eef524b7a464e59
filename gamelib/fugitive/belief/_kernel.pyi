"""The compiled loops of :mod:`gamelib.fugitive.belief.kernel` (``_kernel.c``)."""

from collections.abc import Callable, Iterable
from typing import Any

def push(
    states: dict[int, int],
    reads: int,
    keep: int,
    memo: dict[int, list[tuple[Any, ...]]],
    miss: Callable[[int], list[tuple[Any, ...]]] | None = None,
) -> tuple[dict[int, int], int]: ...
def pull(
    sources: Iterable[int],
    reads: int,
    keep: int,
    memo: dict[int, list[tuple[Any, ...]]],
    nxt: dict[int, int],
    miss: Callable[[int], list[tuple[Any, ...]]] | None = None,
) -> dict[int, int]: ...
def pull_tally(
    states: dict[int, int],
    reads: int,
    keep: int,
    memo: dict[int, list[tuple[Any, ...]]],
    nxt: dict[int, int],
    tally: list[int],
    miss: Callable[[int], list[tuple[Any, ...]]] | None = None,
) -> dict[int, int]: ...
def configure(
    push_pure: Callable[..., Any],
    pull_pure: Callable[..., Any],
    pull_tally_pure: Callable[..., Any],
    enabled: bool,
) -> None: ...
def enabled() -> bool: ...
