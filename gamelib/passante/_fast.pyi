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
def rollout(
    state: Any,
    rng: Any,
    limit: int,
    legal: list[Any] | None,
    steps: dict[type, tuple[Any, int]] | None = None,
    own_chance: bool = True,
) -> None: ...
def window_actions(state: Any) -> list[Any]: ...
def configure_lays(lays: tuple[Any, ...], pass_: Any, any_moment: tuple[int, ...]) -> None: ...
def apply(state: Any, action: Any, steps: dict[type, tuple[Any, int]]) -> None: ...
def configure_apply(
    roles: dict[type, int],
    allow: type,
    who: tuple[Any, ...],
    rest: frozenset[int],
    main: int,
    veto_phase: int,
    proposal: int,
    shows: int,
    answered: int,
    policier: int,
) -> None: ...
def sample(state: Any, rng: Any) -> Any | None: ...
def configure_chance(
    character_cards: tuple[Any, ...],
    die_draws: tuple[Any, ...],
    events: tuple[Any, ...],
    wish_cards: tuple[Any, ...],
    cumulative: tuple[tuple[float, ...], ...],
    card_draw: int,
    die: int,
    event: int,
) -> None: ...
