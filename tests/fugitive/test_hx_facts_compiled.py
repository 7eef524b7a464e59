"""The compiled log loops of the facts (``_facts.c``: ``_draws_by_table``, ``_log_guesses``,
``_stuck_first_turn`` of facts.py) answer what the pure loops answer, or None where they leave it
to them (then the pure loop decides, error included); kernel's switch selects the pure loops."""

from __future__ import annotations

import contextlib
import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fugitive_positions import random_position
from hypothesis import given, settings
from hypothesis import strategies as st

import gamelib
from gamelib.fugitive.belief import facts as F
from gamelib.fugitive.belief import kernel
from gamelib.fugitive.rules import (
    DEALING,
    Add,
    Deal,
    Done,
    Draw,
    FugitiveState,
    Guess,
    Hide,
    Pass,
    Reveal,
    Sprint,
)

_facts = pytest.importorskip("gamelib.fugitive.belief._facts")

BENCH = Path(__file__).parents[2] / "benchmarks" / "data"
SETS = (
    Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz",
    BENCH / "fugitive_belief_random_v2.jsonl.gz",
    BENCH / "fugitive_belief_agents_v2.jsonl.gz",
)
KINDS = (Hide, Pass, Add, Draw, Guess)


@contextlib.contextmanager
def compiled(on: bool) -> Iterator[None]:
    was = kernel.COMPILED
    kernel.use_compiled(on)
    try:
        yield
    finally:
        kernel.use_compiled(was)


def outcome(call: Any, *args: Any) -> Any:
    try:
        return "ok", call(*args)
    except Exception as error:  # the pure loop's error is part of its answer
        return "error", type(error)


def up_to_of(state: FugitiveState) -> tuple[list[int], int]:
    """The face-up hideouts by table size and the numbers no hideout can be, as facts_from_state
    hands them to _log_guesses."""
    up, up_to, may_hide = 0, [0], F.facts_from_state(state).unknown | 1
    for i in range(1, len(state.hideouts)):
        if state.revealed[i]:
            up |= 1 << state.hideouts[i]
        up_to.append(up)
    return up_to, ~(may_hide | up)


@pytest.mark.parametrize("path", SETS, ids=lambda p: p.name)
def test_compiled_loops_equal_pure_on_stored_positions(path: Path) -> None:
    with gzip.open(path, "rt") as handle:
        rows = [json.loads(line) for n, line in enumerate(handle) if n % 2 == 0]
    for row in rows:
        state = gamelib.from_record(row["record"])
        assert isinstance(state, FugitiveState)
        size = len(state.hideouts) - 1
        up_to, never = up_to_of(state)
        starts = _facts.draws_by_table(state.draw_log, state.phase == DEALING, size)
        table = (state.hideouts, state.revealed, state.sprints, F.tables_for(state.last).group_of, starts)
        table_args = (*table, F._setup_drawn(state.last), state.last, state.hide_escape_sprints)
        made = (
            _facts.table_pass(*table_args),
            starts,
            _facts.log_guesses(state.named_log, up_to, never),
            _facts.stuck_first_turn(state.history, *KINDS),
        )
        assert None not in made  # real positions never leave it to the pure loops
        with compiled(False):
            pure = (
                F._table_pass(*table_args),
                F._draws_by_table(state.draw_log, state.phase, size),
                F._log_guesses(state.named_log, up_to, never),
                F._stuck_first_turn(state.history),
            )
            reference = F.facts_from_state(state)
        assert made == pure
        assert repr(made) == repr(pure)  # the same types (ints, bools, tuples, lists) throughout
        assert [type(v) for v in made[1]] == [int] * len(made[1])
        assert F.facts_from_state(state) == reference


def test_the_switch_selects_the_pure_loops(monkeypatch: pytest.MonkeyPatch) -> None:
    state = random_position(3, 300, edition=2)  # edition 2: the stuck first turn is read too
    with compiled(False):
        reference = F.facts_from_state(state)
    calls: list[str] = []

    def counted(name: str, real: Any) -> Any:
        def call(*args: Any) -> Any:
            calls.append(name)
            return real(*args)

        return call

    for name in ("draws_by_table", "log_guesses", "stuck_first_turn", "table_pass"):
        monkeypatch.setattr(_facts, name, counted(name, getattr(_facts, name)))
    with compiled(False):
        assert F.facts_from_state(state) == reference
    assert calls == []
    with compiled(True):
        if kernel.COMPILED:
            assert F.facts_from_state(state) == reference
            assert sorted(set(calls)) == ["draws_by_table", "log_guesses", "stuck_first_turn", "table_pass"]


WIDE = st.one_of(
    st.integers(-3, 50),
    st.integers(0, 2**43),
    st.integers(2**62, 2**64 + 5),
    st.integers(-(2**64), -(2**62)),
    st.booleans(),
)
ENTRY = st.tuples(WIDE, WIDE, st.one_of(st.booleans(), st.integers(-1, 2)))


def both(name: str, compiled_args: tuple[Any, ...], pure_args: tuple[Any, ...]) -> None:
    """The compiled answer equals the pure one (values and types), or is None."""
    made = getattr(_facts, name)(*compiled_args)
    with compiled(False):
        pure = outcome(getattr(F, "_" + name), *pure_args)
    if made is not None:
        assert pure == ("ok", made)
        assert repr(pure[1]) == repr(made)


@settings(max_examples=300, deadline=None)
@given(
    log=st.lists(st.one_of(ENTRY, ENTRY.map(list), st.tuples(WIDE, WIDE)), max_size=12),
    dealing=st.booleans(),
    size=st.integers(-1, 8),
)
def test_draws_by_table_equals_pure_or_leaves_it(log: list[Any], dealing: bool, size: int) -> None:
    both("draws_by_table", (log, dealing, size), (log, DEALING if dealing else DEALING + 1, size))


@settings(max_examples=300, deadline=None)
@given(
    log=st.lists(st.one_of(ENTRY, ENTRY.map(list)), max_size=12),
    up_to=st.lists(st.one_of(st.integers(0, 2**43), WIDE), min_size=0, max_size=7),
    never=st.one_of(st.integers(-(2**43), 2**43), WIDE),
)
def test_log_guesses_equals_pure_or_leaves_it(log: list[Any], up_to: list[int], never: int) -> None:
    log = [(k, m if m >= 0 or flag is False else -m, flag) for k, m, flag in log]  # no endless cards_of
    both("log_guesses", (log, up_to, never), (log, up_to, never))


@settings(max_examples=200, deadline=None)
@given(
    log=st.lists(
        st.tuples(st.integers(0, 6), st.integers(0, 2**42).map(lambda m: m | 2), st.booleans()), max_size=20
    ),
    up_to=st.lists(st.integers(0, 2**42), min_size=7, max_size=7),
    never=st.integers(-(2**43), 2**43),
)
def test_log_guesses_runs_compiled_on_logs_of_play(log: list[Any], up_to: list[int], never: int) -> None:
    """Logs as play writes them (table sizes in range, masks below 2**63): always compiled."""
    made = _facts.log_guesses(log, up_to, never)
    assert made is not None
    with compiled(False):
        assert F._log_guesses(log, up_to, never) == made


ACTIONS = (Hide(5), Pass(), Add(3), Draw(0), Guess(4), Deal(7), Sprint(9), Done(), Reveal())


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(ACTIONS), max_size=15))
def test_stuck_first_turn_equals_pure(history: list[Any]) -> None:
    made = _facts.stuck_first_turn(history, *KINDS)
    with compiled(False):
        assert F._stuck_first_turn(history) is made
    assert _facts.stuck_first_turn(tuple(history), *KINDS) is None  # not a list: the pure loop


CARD = st.one_of(st.integers(0, 44), st.integers(-2, 70), st.booleans())


@settings(max_examples=400, deadline=None)
@given(
    size=st.integers(0, 6),
    data=st.data(),
    groups=st.one_of(
        st.just(F.tables_for(42).group_of),
        st.just(F.tables_for(9).group_of),
        st.lists(st.integers(-2, 4), min_size=0, max_size=64).map(tuple),
    ),
    last=st.sampled_from([9, 20, 42, 70]),
    hide_escape=st.booleans(),
)
def test_table_pass_equals_pure_or_leaves_it(
    size: int, data: st.DataObject, groups: tuple[int, ...], last: int, hide_escape: bool
) -> None:
    """Any table: cards past the deck, negative, bools, stacks that are lists, face-up card 0 or
    not, starts of the wrong length or huge: the compiled pass = the pure one (values, types), or
    None; tables as play lays them are always compiled."""
    n = size + 1
    hideouts = data.draw(st.lists(CARD, min_size=n, max_size=n))
    revealed = data.draw(st.lists(st.one_of(st.booleans(), st.integers(0, 1)), min_size=n, max_size=n))
    stack = st.lists(CARD, max_size=3)
    sprints = data.draw(st.lists(st.one_of(stack.map(tuple), stack), min_size=n, max_size=n))
    count = st.one_of(st.integers(0, 5), st.integers(-(2**70), 2**70))
    starts = data.draw(st.lists(count, min_size=3 * n - 1, max_size=3 * n + 1))
    drawn = data.draw(st.tuples(st.integers(0, 9), st.integers(0, 9), st.integers(-(2**64), 2**64)))
    args = (hideouts, revealed, sprints, groups, starts, drawn, last, hide_escape)
    both("table_pass", args, args)


@settings(max_examples=200, deadline=None)
@given(data=st.data(), size=st.integers(0, 9), hide_escape=st.booleans())
def test_table_pass_runs_compiled_on_tables_of_play(
    data: st.DataObject, size: int, hide_escape: bool
) -> None:
    n = size + 1
    hideouts = [0, *data.draw(st.lists(st.integers(1, 42), min_size=size, max_size=size))]
    revealed = [True, *data.draw(st.lists(st.booleans(), min_size=size, max_size=size))]
    sprints = [()] + [tuple(data.draw(st.lists(st.integers(1, 41), max_size=4))) for _ in range(size)]
    starts = data.draw(st.lists(st.integers(0, 4), min_size=3 * n, max_size=3 * n))
    args = (hideouts, revealed, sprints, F.tables_for(42).group_of, starts, (2, 3, 4), 42, hide_escape)
    made = _facts.table_pass(*args)
    assert made is not None
    with compiled(False):
        pure = F._table_pass(*args)
    assert made == pure and repr(made) == repr(pure)
