"""reachable_values' shortcuts (a face-up hideout read as one window of the previous mask, span 3
as three shifts; issue 24 goal 1: every direct and early count's set-up calls it) give the masks
of the shifted-copies doubling it replaced, kept here as the reference: on stored positions and
on any facts (spans from 1, pending stacks, face-up odd and even sprint cards, empty masks)."""

from __future__ import annotations

import dataclasses
import gzip
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamelib
from gamelib.fugitive.belief import facts as F
from gamelib.fugitive.belief import kernel
from gamelib.fugitive.belief.facts import Facts, facts_from_state, reachable_values
from gamelib.fugitive.rules import STEP_LIMIT, FugitiveState

BENCH = Path(__file__).parents[2] / "benchmarks" / "data"
SETS = (
    Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz",
    BENCH / "fugitive_belief_random_v2.jsonl.gz",
    BENCH / "fugitive_belief_agents_v2.jsonl.gz",
)


def doubled(facts: Facts) -> list[int]:
    """The reference: every position's span of shifted copies, doubled in place."""
    size = len(facts.known) - 1
    reach, r = [1], 1
    for i in range(1, size + 1):
        if not r:
            reach.extend([0] * (size + 1 - i))
            break
        shown = facts.known_sprints[i]
        span = STEP_LIMIT + 2 * facts.sprint_counts[i] - sum(c & 1 for c in shown)
        if facts.pending and i == size:
            span = facts.last
        acc, length = r, 1
        while length < span:
            step = length if length + length <= span else span - length
            acc |= acc << step
            length += step
        k = facts.known[i]
        r = (acc << 1) & (1 << k if k >= 0 else facts.unknown & ~facts.forbidden[i])
        reach.append(r)
    return reach


def test_reachable_values_equal_the_doubling_on_stored_positions() -> None:
    for path in SETS:
        with gzip.open(path, "rt") as handle:
            for n, line in enumerate(handle):
                if n % 2:
                    continue
                state = gamelib.from_record(json.loads(line)["record"])
                assert isinstance(state, FugitiveState)
                facts = facts_from_state(state)
                assert reachable_values(facts) == doubled(facts)


@st.composite
def any_facts(draw: st.DrawFn) -> Facts:
    size = draw(st.integers(1, 9))
    last = draw(st.integers(7, 42))
    known = [0] + [draw(st.sampled_from([-1, -1, draw(st.integers(0, 60))])) for _ in range(size)]
    counts = [0] + [draw(st.integers(-2, 5)) for _ in range(size)]
    shown = [()] + [
        tuple(draw(st.lists(st.integers(1, 41), max_size=max(c, 0)))) if known[i] >= 0 else ()
        for i, c in enumerate(counts[1:], 1)
    ]
    base = facts_from_state(gamelib.make("fugitive").new_game(seed=1))  # type: ignore[arg-type]
    return dataclasses.replace(
        base,
        last=last,
        known=tuple(known),
        sprint_counts=tuple(counts),
        known_sprints=tuple(shown),
        unknown=draw(st.integers(0, 2**45)),
        forbidden=tuple(draw(st.integers(0, 2**45)) for _ in range(size + 1)),
        pending=draw(st.booleans()),
    )


@settings(max_examples=500, deadline=None)
@given(any_facts())
def test_reachable_values_equal_the_doubling_on_any_facts(facts: Facts) -> None:
    assert reachable_values(facts) == doubled(facts)
    if F._facts is not None and kernel.COMPILED:  # in range: the compiled masks (_facts.reachable)
        assert reachable(facts) is not None


def reachable(facts: Facts) -> list[int] | None:
    """The compiled masks (``_facts.reachable``) handed what reachable_values hands it."""
    size = len(facts.known) - 1
    pending_at = size if facts.pending else -1
    args = (facts.known, facts.sprint_counts, facts.known_sprints, facts.forbidden, facts.unknown)
    return F._facts.reachable(*args, pending_at, facts.last, STEP_LIMIT)  # type: ignore[no-any-return]


WIDE = st.one_of(
    st.integers(-3, 70), st.integers(2**62, 2**64 + 3), st.integers(-(2**64), -(2**62)), st.booleans()
)


CARD = st.one_of(st.integers(-(2**64), 200), st.booleans())  # a shift past that: no memory for the pure loop


@st.composite
def wide_facts(draw: st.DrawFn) -> Facts:
    """Facts with values past what play makes (cards past 62, masks past 2**63, negative ones, bools)."""
    size = draw(st.integers(0, 6))
    n = size + 1
    base = draw(any_facts())
    return dataclasses.replace(
        base,
        last=draw(st.integers(-2, 120)),
        known=tuple(draw(st.lists(st.one_of(st.just(-1), CARD), min_size=n, max_size=n))),
        sprint_counts=tuple(draw(st.lists(st.integers(-3, 30), min_size=n, max_size=n))),
        known_sprints=tuple(draw(st.lists(st.lists(WIDE, max_size=3).map(tuple), min_size=n, max_size=n))),
        unknown=draw(st.one_of(st.integers(0, 2**45), WIDE)),
        forbidden=tuple(draw(st.lists(st.one_of(st.integers(0, 2**45), WIDE), min_size=n, max_size=n))),
    )


@pytest.mark.skipif(F._facts is None, reason="built without the compiled facts loops")
@settings(max_examples=500, deadline=None)
@given(wide_facts())
def test_compiled_reachable_equals_pure_or_leaves_it(facts: Facts) -> None:
    """The compiled masks equal the pure loop's (values and types), or it answers None and the
    pure loop decides; reachable_values then gives the pure answer either way."""
    made = reachable(facts)
    was = kernel.COMPILED
    kernel.use_compiled(False)
    try:
        pure = reachable_values(facts)
    finally:
        kernel.use_compiled(was)
    if made is not None:
        assert repr(made) == repr(pure)
    assert reachable_values(facts) == pure
