"""The compiled log loops of :func:`gamelib.fugitive.belief.facts.facts_from_state` (``_facts.c``);
each answers None where its pure twin in facts.py must decide."""

from typing import Any

def draws_by_table(draw_log: list[Any], dealing: bool, size: int, /) -> list[int] | None: ...
def log_guesses(
    named_log: list[Any], up_to: list[int], never: int, /
) -> tuple[list[int], list[tuple[tuple[int, ...], int]]] | None: ...
def stuck_first_turn(
    history: list[Any], hide: type, pass_: type, add: type, draw: type, guess: type, /
) -> bool | None: ...
def table_pass(
    hideouts: list[int],
    revealed: list[bool],
    sprints: list[tuple[int, ...]],
    group_of: tuple[int, ...],
    starts: list[int],
    drawn: tuple[int, int, int],
    last: int,
    hide_escape: bool,
    /,
) -> tuple[Any, ...] | None: ...
def reachable(
    known: tuple[int, ...],
    counts: tuple[int, ...],
    shown: tuple[tuple[int, ...], ...],
    forbidden: tuple[int, ...],
    unknown: int,
    pending_at: int,
    last: int,
    step: int,
    /,
) -> list[int] | None: ...
