"""The public log of the detective's guesses (``FugitiveTable.named_log``, request R-H3-1): what
the guess and reveal transitions write, that clones and records carry it, that every seat sees it
in its observation, and that the belief's facts read from it equal the facts replayed from the
history on random-play and stored positions."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

import pytest
from fugitive_positions import random_position

import gamelib
from gamelib.fugitive.belief.facts import (
    _guesses_of_history,
    _guesses_of_log,
    _stuck_first_turn,
    facts_from_state,
)
from gamelib.fugitive.rules import DETECTIVE, FUGITIVE, FugitiveState

DATA = Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz"
BENCH = Path(__file__).parents[2] / "benchmarks" / "data"
SETS = (
    DATA,
    BENCH / "fugitive_belief_random_v2.jsonl.gz",
    BENCH / "fugitive_belief_agents_v2.jsonl.gz",
)

# edition 2; the fugitive's hand after the setup deal: 1 2 3 42 and 4 5 6 15 16
KNOWN_GAME = (
    "hide 2, done, hide 3, done, draw 1, deal 7, draw 2, deal 20, guess 10,"  # a miss, 2 on the table
    " draw 3, deal 35, hide 4, done, draw 1, deal 8, guess 3,"  # a hit, 3 on the table
    " draw 1, deal 9, hide 5, done, draw 1, deal 10, add 3, add 5, reveal,"  # a series naming face-up 3
    " draw 1, deal 11, hide 6, done, draw 1, deal 12, guess 3"  # 3 named again, face up
)


def known_game() -> FugitiveState:
    state = gamelib.make("fugitive", options={"edition": 2}).new_game(seed=1)
    for card in (4, 5, 6, 15, 16):
        state.apply(f"deal {card}")
    for text in KNOWN_GAME.split(","):
        state.apply(text.strip())
    assert isinstance(state, FugitiveState)
    return state


def test_the_log_holds_each_guess_and_series_in_order() -> None:
    state = known_game()
    assert state.named_log == [
        (2, 1 << 10, False),
        (3, 1 << 3, False),
        (4, 1 << 3 | 1 << 5, True),
        (5, 1 << 3, False),  # a number already face up, named again (rules allow it)
    ]
    assert state.revealed == [True, False, True, False, False, False]


def test_an_add_logs_nothing_until_the_series_is_revealed() -> None:
    state = known_game()
    state.apply("draw 1")
    state.apply("deal 13")
    assert state.current_player == FUGITIVE
    for text in ("hide 9", "done", "draw 1", "deal 14", "add 9", "add 11"):
        state.apply(text)
    assert len(state.named_log) == 4
    state.apply("reveal")
    assert state.named_log[-1] == (6, 1 << 9 | 1 << 11, True)


def test_a_clone_has_its_own_log_and_records_carry_it() -> None:
    state = known_game()
    state.apply("draw 1")
    state.apply("deal 13")
    for text in ("hide 9", "done", "draw 1", "deal 14"):
        state.apply(text)
    copy = state.clone()
    copy.apply("guess 20")
    assert len(copy.named_log) == 5 and len(state.named_log) == 4
    assert copy.key() != state.key()
    again = gamelib.from_record(copy.to_record())
    assert isinstance(again, FugitiveState)
    assert again.named_log == copy.named_log and again == copy


def test_every_seat_sees_the_log_and_nothing_hidden_enters_it() -> None:
    state = known_game()
    logs = {seat: state.information_state(seat).observation.named_log for seat in (FUGITIVE, DETECTIVE)}
    assert logs[FUGITIVE] == logs[DETECTIVE] == tuple(state.named_log)
    # entries: hideouts on the table (public), numbers the detective named (his own move), a flag
    named = {
        text.split()[1] for text in state.information_state(DETECTIVE).history if text[:3] in ("gue", "add")
    }
    for on_table, mask, series in state.named_log:
        assert 0 < on_table < len(state.hideouts) and isinstance(series, bool)
        assert {str(n) for n in range(state.last + 1) if mask >> n & 1} <= named


def replayed(state: FugitiveState) -> Any:
    """The facts with the guesses replayed from the history: the state without its log."""
    copy = state.clone()
    del copy.named_log
    return facts_from_state(copy)


def check(state: FugitiveState) -> None:
    hideouts = [h if r else -1 for h, r in zip(state.hideouts, state.revealed, strict=True)]
    forbidden, series, stuck = _guesses_of_history(hideouts, state.history)
    assert _guesses_of_log(hideouts, state.named_log) == (forbidden, series)
    assert _stuck_first_turn(state.history) == stuck
    assert facts_from_state(state) == replayed(state)


OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"edition": 2},
    {"canonical_order": True},
    {"edition": 2, "manhunt": "immediate"},
    {"escape_card": 20},
)


@pytest.mark.parametrize("options", OPTIONS)
def test_facts_from_the_log_equal_the_replay_on_random_play(options: dict[str, Any]) -> None:
    rng = random.Random(7)
    for seed in range(60):
        state = random_position(seed, rng.randrange(5, 400), **options)
        check(state)


@pytest.mark.parametrize("path", SETS, ids=lambda p: p.name)
def test_facts_from_the_log_equal_the_replay_on_stored_positions(path: Path) -> None:
    with gzip.open(path, "rt") as handle:
        rows = [json.loads(line) for n, line in enumerate(handle) if n % 3 == 0]
    for row in rows:
        state = gamelib.from_record(row["record"])
        assert isinstance(state, FugitiveState)
        check(state)
