"""The compiled loops of :mod:`gamelib.fugitive.belief.kernel` (``_kernel.c``).

Given a ``States`` (``native()``), ``push`` / ``pull`` / ``pull_tally`` answer with another (a dict
if the pure loop ran); given dicts, dicts."""

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, overload

Moves = list[tuple[Any, ...]]

class States(Mapping[int, int]):
    """A layer's states kept natively along a pass."""

    def __len__(self) -> int: ...
    def __getitem__(self, key: int) -> int: ...
    def __iter__(self) -> Iterator[int]: ...
    def to_dict(self) -> dict[int, int]: ...
    def bit_length(self) -> int: ...

def native(states: dict[int, int]) -> States | dict[int, int]: ...
@overload
def push(
    states: dict[int, int],
    reads: int,
    keep: int,
    memo: dict[int, Moves],
    miss: Callable[[int], Moves] | None = None,
) -> tuple[dict[int, int], int]: ...
@overload
def push(
    states: States,
    reads: int,
    keep: int,
    memo: dict[int, Moves],
    miss: Callable[[int], Moves] | None = None,
) -> tuple[States | dict[int, int], int]: ...
@overload
def pull(  # type: ignore[overload-overlap]
    sources: States,
    reads: int,
    keep: int,
    memo: dict[int, Moves],
    nxt: dict[int, int] | States,
    miss: Callable[[int], Moves] | None = None,
    *,
    flagged: tuple[int, Mapping[int, int]] | None = None,
) -> States | dict[int, int]: ...
@overload
def pull(
    sources: Iterable[int],
    reads: int,
    keep: int,
    memo: dict[int, Moves],
    nxt: dict[int, int] | States,
    miss: Callable[[int], Moves] | None = None,
    *,
    flagged: tuple[int, Mapping[int, int]] | None = None,
) -> dict[int, int]: ...
@overload
def pull_tally(
    states: dict[int, int],
    reads: int,
    keep: int,
    memo: dict[int, Moves],
    nxt: dict[int, int] | States,
    tally: list[int],
    miss: Callable[[int], Moves] | None = None,
) -> dict[int, int]: ...
@overload
def pull_tally(
    states: States,
    reads: int,
    keep: int,
    memo: dict[int, Moves],
    nxt: dict[int, int] | States,
    tally: list[int],
    miss: Callable[[int], Moves] | None = None,
) -> States | dict[int, int]: ...
def configure(
    push_pure: Callable[..., Any],
    pull_pure: Callable[..., Any],
    pull_tally_pure: Callable[..., Any],
    enabled: bool,
) -> None: ...
def enabled() -> bool: ...
def lane_products() -> int: ...
