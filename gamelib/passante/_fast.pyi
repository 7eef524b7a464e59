"""The compiled turn moves of :mod:`gamelib.passante.rules` (``_fast.c``)."""

from collections.abc import Callable
from typing import Any

def main_actions(state: Any) -> list[Any]: ...
def configure(
    move_table: tuple[Any, ...],
    board_sets: tuple[Any, ...],
    drives: tuple[Any, ...],
    drives_away: tuple[Any, ...],
    plays: tuple[Any, ...],
    draw: Any,
    end: Any,
    free_signals: Callable[[int, int, int], tuple[Any, ...]],
) -> None: ...
def forget() -> None: ...
def open_window(state: Any) -> None: ...
def configure_window(visible_if_at: tuple[tuple[int, ...], ...], over: int, window: int) -> None: ...
def rollout(state: Any, rng: Any, limit: int, legal: list[Any] | None) -> None: ...
