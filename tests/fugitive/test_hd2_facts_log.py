"""The guesses' log replay dropping, as it goes, the failed series that cannot constrain
(``_guesses_of_log``'s ``may_hide``, request of issue 24 goal 1: half of random play's log is
long series, most naming a number no hideout can be): the same forbidden numbers and the same
series, in order, as the full replay filtered the way :func:`build_facts` filters it."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import gamelib
from gamelib.fugitive.belief.facts import _guesses_of_log, facts_from_state
from gamelib.fugitive.rules import FugitiveState

BENCH = Path(__file__).parents[2] / "benchmarks" / "data"
SETS = (
    Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz",
    BENCH / "fugitive_belief_random_v2.jsonl.gz",
    BENCH / "fugitive_belief_agents_v2.jsonl.gz",
)


def filtered(hideouts: list[int], log: list[tuple[int, int, bool]], may_hide: int) -> tuple[object, object]:
    """The reference: the full replay, then the series naming a number outside ``may_hide``
    dropped (what build_facts does with them)."""
    forbidden, series = _guesses_of_log(hideouts, log)
    return forbidden, [(mask, k) for mask, k in series if not mask & ~may_hide]


def may_hide_of(state: FugitiveState) -> tuple[list[int], int]:
    """The face-up-or-unseen hideouts, and the numbers that may hide, as build_facts reads them."""
    hideouts = [h if r else -1 for h, r in zip(state.hideouts, state.revealed, strict=True)]
    facts = facts_from_state(state)
    may_hide = facts.unknown
    for h in hideouts:
        if h >= 0:
            may_hide |= 1 << h
    return hideouts, may_hide


def test_dropping_series_in_the_replay_equals_filtering_after_on_stored_positions() -> None:
    skipped = rows = 0
    for path in SETS:
        with gzip.open(path, "rt") as handle:
            for number, line in enumerate(handle):
                if number % 4:
                    continue
                state = gamelib.from_record(json.loads(line)["record"])
                assert isinstance(state, FugitiveState)
                hideouts, may_hide = may_hide_of(state)
                log = state.named_log
                assert _guesses_of_log(hideouts, log, may_hide) == filtered(hideouts, log, may_hide)
                assert _guesses_of_log(hideouts, log) == _guesses_of_log(hideouts, log, -1)
                skipped += sum(1 for _, named, series in log if series and named & ~may_hide)
                rows += 1
    assert rows > 500 and skipped > 1000  # the skip is exercised


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.one_of(st.just(-1), st.integers(1, 47)), min_size=1, max_size=9),
    st.integers(0, 2**48 - 1),
    st.lists(
        st.tuples(st.integers(1, 8), st.integers(1, 2**48 - 1), st.booleans()),
        max_size=40,
    ),
)
def test_dropping_series_equals_filtering_on_any_log(
    values: list[int], unseen: int, entries: list[tuple[int, int, bool]]
) -> None:
    hideouts = [-1, *values]
    size = len(hideouts) - 1
    may_hide = unseen
    for h in hideouts:
        if h >= 0:
            may_hide |= 1 << h  # face-up hideouts may hide, as in build_facts
    log = sorted((min(k, size), named, series) for k, named, series in entries)
    assert _guesses_of_log(hideouts, log, may_hide) == filtered(hideouts, log, may_hide)
