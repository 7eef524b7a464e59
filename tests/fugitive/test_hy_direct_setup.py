"""The direct count's set-up and table loops, and the belief's probabilities, made in C
(``_direct.c``; issue 24, goal 1: the easy positions' fixed cost): ``direct._position_tables``,
``pick_rows``'s and ``packed_table``'s loops on a memo miss, ``probabilities_of``.  Each compiled
answer is the pure function's (the same lists, tuples, ints and floats), or C raises and the
caller runs the pure function, which answers or raises as before; ``kernel.COMPILED`` selects."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamelib
from gamelib.fugitive.belief import direct, direct_early, facts_from_state, kernel, probabilities
from gamelib.fugitive.belief.facts import Facts
from gamelib.fugitive.belief.tables import COMB, FALL, GROUPS, class_masks
from gamelib.fugitive.rules import FugitiveState

_direct = pytest.importorskip("gamelib.fugitive.belief._direct")

DATA = Path(__file__).parents[2]
SETS = (
    DATA / "benchmarks" / "data" / "fugitive_belief_random_v2.jsonl.gz",
    DATA / "benchmarks" / "data" / "fugitive_belief_agents_v2.jsonl.gz",
    DATA / "tests" / "fugitive" / "data" / "fugitive_belief_positions.jsonl.gz",
)
BIG = st.one_of(
    st.integers(-3, 50), st.integers(-(2**70), 2**70), st.sampled_from([2**63 - 1, 2**63, -(2**63)])
)
"""Ints around the loops' own and a C long's boundaries."""


def stored_facts(every: int) -> list[Facts]:
    """Every ``every``-th position of the three stored sets."""
    out = []
    for path in SETS:
        with gzip.open(path, "rt") as handle:
            rows = [json.loads(line) for line in handle][::every]
        for row in rows:
            state = gamelib.from_record(row["record"])
            assert isinstance(state, FugitiveState)
            out.append(facts_from_state(state))
    return out


def gavail_of(facts: Facts) -> list[int]:
    avail = [(facts.unknown & mask).bit_count() for mask in class_masks(facts.last)]
    return [avail[2 * g] + avail[2 * g + 1] for g in range(GROUPS)]


def outcome(make: Callable[[], Any]) -> Any:
    """What ``make`` answers, or the type of the error it raises."""
    try:
        return make()
    except Exception as error:  # the error's type is what is compared
        return type(error)


@contextmanager
def compiled(on: bool) -> Iterator[None]:
    was = kernel.COMPILED
    kernel.use_compiled(on)
    try:
        yield
    finally:
        kernel.use_compiled(was)


def test_stored_positions_equal_pure() -> None:
    """On stored positions: the C tables are the pure ones (values and container types), the
    probabilities of their counts the same floats (and one position's tuple is the hideouts')."""
    checked = 0
    for facts in stored_facts(3):
        gavail = gavail_of(facts)
        fast = _direct.position_tables(
            facts.known, facts.known_sprints, facts.caps, facts.tables.group_of, gavail
        )
        pure = direct._position_tables_pure(facts, gavail)
        assert fast == pure
        assert [type(x) for part in fast for x in part] == [type(x) for part in pure for x in part]
        with compiled(True):
            assert direct._position_tables(facts, gavail) == pure
        counted = probabilities.counted_directly(facts, "deals")
        if counted:
            total, marginals = counted
            got = _direct.probabilities(marginals, total)
            want = probabilities._probabilities_pure(marginals, total)
            assert got == want
            first = next(iter(got[0]))
            assert (got[1] is got[0][first]) == (want[1] is want[0][first])
            checked += 1
    assert checked > 200


def test_tables_made_in_c_equal_pure() -> None:
    """Every packed table and pick rows the stored direct counts make: C's = the pure loop's."""
    made: list[tuple[int, ...]] = []
    real = direct.packed_table

    def spy(*args: Any) -> int:
        made.append(args)
        return real(*args)

    direct.packed_table = spy  # type: ignore[assignment]
    try:
        for facts in stored_facts(5):
            direct.direct_count(facts, "deals")
    finally:
        direct.packed_table = real  # type: ignore[assignment]
    assert len(made) > 100
    for width, n, evens, odds, left, hand_total, room, slots, drawn in made:
        picks = _direct.pick_rows(width, n, evens, odds, COMB)
        assert picks == direct._pick_rows(width, n, evens, odds)
        args = (width, n, left, hand_total, room, slots, drawn)
        assert _direct.packed_rows(*args, picks, COMB, FALL, direct._FACTORIALS) == direct._packed_rows(
            *args, picks
        )


def test_switch_selects_pure() -> None:
    """kernel.COMPILED off: no C call (the pure reference runs); on: C makes them."""
    calls: list[str] = []

    class Spy:
        def __getattr__(self, name: str) -> Any:
            calls.append(name)
            return getattr(_direct, name)

    facts = next(f for f in stored_facts(7) if direct.direct_count(f, "deals") is not None)
    real = direct._direct
    direct._direct = Spy()  # type: ignore[assignment]
    try:
        for on in (False, True):
            calls.clear()
            direct.clear_shared()
            with compiled(on):
                direct.direct_count(facts, "deals")
            assert ("position_tables" in calls) == on
            assert ("packed_rows" in calls) == on and ("pick_rows" in calls) == on
    finally:
        direct._direct = real
        direct.clear_shared()


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(-2, 42), min_size=1, max_size=6),
    st.lists(st.lists(st.integers(-43, 44), max_size=3), min_size=6, max_size=6),
    st.lists(st.tuples(BIG, BIG, BIG), min_size=1, max_size=7),
    st.lists(BIG, min_size=4, max_size=4),
)
def test_position_tables_any(
    known: list[int], shown: list[list[int]], caps: list[Any], gavail: list[int]
) -> None:
    """Any facts-like tuples (cards off the table, caps and groups past 2**63, short caps): C's
    tables are the pure ones, or C raises the pure loop's error; the dispatch answers alike."""
    facts: Any = Facts(
        last=42, known=(0, *known), sprint_counts=(), known_sprints=tuple(map(tuple, shown)), unknown=0,
        caps=tuple(caps), hand_unknown=(0, 0, 0), forbidden=(), series=(), pending=False, holds_last=False,
        stuck_first_turn=False,
    )  # fmt: skip
    pure = outcome(lambda: direct._position_tables_pure(facts, gavail))
    fast = outcome(
        lambda: _direct.position_tables(
            facts.known, facts.known_sprints, facts.caps, facts.tables.group_of, gavail
        )
    )
    assert fast == pure
    with compiled(True):
        assert outcome(lambda: direct._position_tables(facts, gavail)) == pure


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from([16, 32, 48, -16, 0, 2**62]),
    st.one_of(st.integers(-2, 9), st.sampled_from([2**63 - 1, 2**63])),
    BIG,
    BIG,
    BIG,
    BIG,
    BIG,
    BIG,
    st.booleans(),
)
def test_table_loops_any(
    width: int, n: int, evens: int, odds: int, left: int, hand_total: int, room: int, slots: int, drawn: bool
) -> None:
    """Any counts (negative, past the tables, past a C long): C's pick rows and packed rows are
    the pure loops', or C raises where the pure loop raises or a count is past a C long; the
    memoised dispatch answers as the pure loops do."""
    if n > 40 or room > 40 or min(evens, odds) > 60:
        return  # loops or tables of that size run for ages either way
    beyond = width == 2**62 or any(abs(x) >= 2**62 for x in (n, evens, odds, left, hand_total, room, slots))
    pure_picks = outcome(lambda: direct._pick_rows(width, n, evens, odds))
    fast_picks = outcome(lambda: _direct.pick_rows(width, n, evens, odds, COMB))
    assert fast_picks == pure_picks or (
        isinstance(fast_picks, type) and (beyond or isinstance(pure_picks, type))
    )
    direct.clear_shared()
    with compiled(True):
        assert outcome(lambda: direct.pick_rows(width, n, evens, odds)) == pure_picks
    if isinstance(pure_picks, type):
        return
    args = (width, n, left, hand_total, room, slots, drawn)
    pure = outcome(lambda: direct._packed_rows(*args, pure_picks))
    fast = outcome(lambda: _direct.packed_rows(*args, pure_picks, COMB, FALL, direct._FACTORIALS))
    assert fast == pure or (isinstance(fast, type) and (beyond or isinstance(pure, type)))
    direct.clear_shared()
    with compiled(True):
        assert (
            outcome(lambda: direct.packed_table(width, n, evens, odds, left, hand_total, room, slots, drawn))
            == pure
        )
    direct.clear_shared()


WEIGHTS = st.one_of(
    st.integers(-3, 3), st.integers(-(2**130), 2**130), st.sampled_from([2**63, 2**64, 2**128])
)


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(st.integers(1, 30), st.lists(WEIGHTS, max_size=45), max_size=4),
    st.one_of(WEIGHTS, st.just(0)),
)
def test_probabilities_any(marginals: dict[int, list[int]], total: int) -> None:
    """Any weights (0, negative, 2**63..2**130, short or long lists), any total (0 too): the
    compiled probabilities are the pure floats bit for bit, or both raise alike."""
    pure = outcome(lambda: probabilities._probabilities_pure(marginals, total))
    assert outcome(lambda: _direct.probabilities(marginals, total)) == pure
    with compiled(True):
        fast = outcome(lambda: probabilities.probabilities_of(marginals, total))
    assert fast == pure
    if not isinstance(pure, type) and len(marginals) == 1:
        assert fast[1] is next(iter(fast[0].values()))


def direct_walks(every: int, measure: str, on: bool) -> list[tuple[Any, Any, list[Any]]]:
    """Per stored direct position: (count, walk, ENDS and TABLES items in order), memos cleared
    first, compiled or pure."""
    walks: list[Any] = []
    real = direct._Walk

    class Kept(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            walks.append(self)

    out = []
    direct._Walk = Kept  # type: ignore[misc]
    try:
        with compiled(on):
            for facts in stored_facts(every):
                direct.clear_shared()
                walks.clear()
                counted = direct.direct_count(facts, measure)
                if counted is not None:
                    out.append((counted, walks[0], [list(direct.ENDS.items()), list(direct.TABLES.items())]))
    finally:
        direct._Walk = real  # type: ignore[misc]
        direct.clear_shared()
    return out


@pytest.mark.parametrize("measure", ["deals", "worlds"])
def test_end_weights_equal_pure(measure: str) -> None:
    """The direct walk's ENDS misses made in C (``_direct.end_weights``): the same counts and
    tallies, the same ENDS and TABLES entries in the same order, the walk's pair and group memos
    alike (items in order) and its packing, as the pure ``_new_end_weights``; and C made them."""
    fast, pure = direct_walks(2, measure, True), direct_walks(2, measure, False)
    assert len(fast) == len(pure) > 150
    for (count, walk, shared), (want, pure_walk, pure_shared) in zip(fast, pure, strict=True):
        assert count == want and shared == pure_shared
        memos = [list(walk.packed.items()), list(walk.low_pairs.items()), list(walk.high_pairs.items())]
        assert memos == [
            list(pure_walk.packed.items()),
            list(pure_walk.low_pairs.items()),
            list(pure_walk.high_pairs.items()),
        ]
        assert walk.width == pure_walk.width
        assert (walk.end_params is not None) == bool(shared[0]) and pure_walk.end_params is None


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_end_weights_any_counts(data: st.DataObject) -> None:
    """Any key counts on real walks (negative, past the tables, past a C long): C's weights are
    the pure ones with the same memos, or C raises and the pure method answers or raises alike."""
    walk = data.draw(st.sampled_from(WALKS))
    counts = data.draw(st.lists(st.one_of(st.integers(-2, 6), BIG), min_size=12, max_size=12))
    key = (walk.context, *counts)
    pure_walk, fast_walk = direct._Walk(*walk.made_with), direct._Walk(*walk.made_with)
    direct.clear_shared()
    pure = outcome(lambda: pure_walk._new_end_weights(key))
    pure_ends = list(direct.ENDS.items())
    direct.clear_shared()
    with compiled(True):
        fast = outcome(lambda: fast_walk.new_end_weights(key))
    assert fast == pure and list(direct.ENDS.items()) == pure_ends
    if not isinstance(pure, type):
        assert list(fast_walk.packed.items()) == list(pure_walk.packed.items())
        assert fast_walk.low_pairs == pure_walk.low_pairs and fast_walk.high_pairs == pure_walk.high_pairs
    direct.clear_shared()


def _walks() -> list[Any]:
    out = []
    for facts in stored_facts(25):
        counted = direct.direct_count(facts, "deals")
        if counted is not None:
            for measure in ("deals", "worlds"):
                n = facts.sprint_counts[facts.size] - len(facts.known_sprints[facts.size])
                walk = direct._Walk(facts, measure, n)
                walk.made_with = (facts, measure, n)
                out.append(walk)
    return out


WALKS = _walks()


@settings(max_examples=400, deadline=None)
@given(BIG, BIG, st.one_of(st.integers(-2, 12), BIG), BIG, st.booleans())
def test_group_bound_any(a: int, hand_total: int, top: int, slots: int, drawn: bool) -> None:
    """Any counts (negative, past the tables, past a C long): C's bound sum is the pure one, or C
    raises where the pure loop raises or a count is past a C long; group_bound answers alike."""
    if top > 60:
        return  # past COMB's rows either way after a long loop
    beyond = any(abs(x) >= 2**62 for x in (a, hand_total, top, slots))
    pure = outcome(lambda: direct._bound_sum(a, hand_total, top, slots, drawn))
    fast = outcome(
        lambda: _direct.bound_sum(a, hand_total, top, slots, drawn, COMB, FALL, direct._FACTORIALS)
    )
    assert fast == pure or (isinstance(fast, type) and (beyond or isinstance(pure, type)))
    direct.clear_shared()
    with compiled(True):
        got = outcome(lambda: direct.group_bound(a, hand_total, top, slots, drawn))
    assert got == (pure if isinstance(pure, type) else max(pure, 1))
    direct.clear_shared()


def test_group_bounds_of_stored_walks() -> None:
    """Every bound the stored direct and early counts ask (their packings), C's = the pure sum."""
    asked: list[tuple[Any, ...]] = []
    real = direct.group_bound

    def spy(*args: Any) -> int:
        asked.append(args)
        return real(*args)

    direct.group_bound = spy  # type: ignore[assignment]
    direct_early.group_bound = spy  # type: ignore[assignment]
    try:
        for facts in stored_facts(5):
            direct.clear_shared()
            probabilities.counted_directly(facts, "deals")
    finally:
        direct.group_bound = real  # type: ignore[assignment]
        direct_early.group_bound = real  # type: ignore[assignment]
    assert len(asked) > 400
    for args in set(asked):
        assert _direct.bound_sum(*args, COMB, FALL, direct._FACTORIALS) == direct._bound_sum(*args)


def test_belief_makes_the_facts_key_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """belief() makes the facts' key once (its own key and the count's are made from it), and the
    belief keeps the same count key as belief_of alone makes."""
    made: list[Facts] = []
    real = probabilities.facts_key

    def counting(facts: Facts) -> Any:
        made.append(facts)
        return real(facts)

    with gzip.open(SETS[0], "rt") as handle:
        state = gamelib.from_record(json.loads(handle.readline())["record"])
    monkeypatch.setattr(probabilities, "facts_key", counting)
    for measure in ("deals", "worlds"):
        probabilities.clear_caches()
        made.clear()
        got = probabilities.belief(state, measure=measure)
        assert len(made) == 1
        alone = probabilities.belief_of(made[0], measure)
        assert got._source is not None and alone._source is not None
        assert got._source[0] == alone._source[0] == (*real(made[0]), measure)
        assert got == alone
    probabilities.clear_caches()
