"""The early count's compiled loops (``direct_early``'s ``_early.c``, issue 24 goal 1's fixed cost):
the same integers and dictionary orders as the pure loops, which stay the reference, on real
positions (compiled against ``kernel.use_compiled(False)``) and on clouds at the edges of the
native integer sizes (keys up to 2**80, weights past 2**63 and 2**128, zero and negative)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import gamelib
from gamelib.fugitive.belief import direct, direct_early, facts_from_state, kernel
from gamelib.fugitive.belief.facts import Facts
from gamelib.fugitive.belief.tables import COMB, FALL
from gamelib.fugitive.rules import FugitiveState

_early = pytest.importorskip("gamelib.fugitive.belief._early")

BENCH = Path(__file__).parents[2] / "benchmarks" / "data"
SETS = (BENCH / "fugitive_belief_random_v2.jsonl.gz", BENCH / "fugitive_belief_agents_v2.jsonl.gz")


@pytest.fixture
def compiled() -> Iterator[None]:
    """Leaves the kernel's switch as it found it."""
    before = kernel.COMPILED
    if not kernel.use_compiled(True):
        pytest.skip("the kernel's switch cannot turn compiled loops on here (no _kernel)")
    yield
    kernel.use_compiled(before)


def early_facts(every: int) -> list[Facts]:
    """Every ``every``-th row of both v2 sets that the early count takes (not the direct count)."""
    out = []
    for path in SETS:
        with gzip.open(path, "rt") as handle:
            rows = [json.loads(line) for line in handle][::every]
        for row in rows:
            state = gamelib.from_record(row["record"])
            assert isinstance(state, FugitiveState)
            facts = facts_from_state(state)
            if direct.direct_count(facts, "deals") is None and direct_early.early_count(facts, "deals"):
                out.append(facts)
    return out


def test_compiled_counts_equal_pure_on_stored_positions(compiled: None, monkeypatch: Any) -> None:
    """Both measures' totals and tallies (ints, dict order) equal the pure walk's, and the compiled
    loops did run (each of them, counted through a wrapper): the compiled walk (``_early.walk``,
    which runs the loops inside) in early_count, and the Python walk with the compiled loops."""
    calls = {
        name: 0
        for name in (
            "share_out",  # runs stack_shares, group_shares, combine, by_cards (tested below) inside
            "close_last",
            "hide_step",
            "face_up",
            "end_weights",
            "packing_width",
            "walk",
        )
    }

    def counting(name: str) -> Any:
        inner = getattr(_early, name)

        def call(*args: Any) -> Any:
            calls[name] += 1
            return inner(*args)

        return call

    monkeypatch.setattr(direct_early, "_early", SimpleNamespace(**{name: counting(name) for name in calls}))
    positions = early_facts(7)
    assert len(positions) > 60
    for facts in positions:
        for measure in ("deals", "worlds"):
            kernel.use_compiled(False)
            direct.clear_shared()
            pure = direct_early.early_count(facts, measure)
            kernel.use_compiled(True)
            direct.clear_shared()
            fast = direct_early.early_count(facts, measure)
            assert fast == pure
            if pure is not None:
                assert list(fast[1]) == list(pure[1])  # type: ignore[index]
                direct.clear_shared()
                stacks = [0] * (facts.size + 1)
                for i in range(1, facts.size + 1):
                    stacks[i] = facts.sprint_counts[i] - len(facts.known_sprints[i])
                walk = direct_early._Walk(facts, measure, stacks)
                assert walk.walk(1, 0, 0, {0: 1})  # the Python walk, the compiled loops
                assert (walk.total, walk.tallies) == pure
                assert list(walk.tallies) == list(pure[1])
    assert all(calls.values()), calls


def test_switch_selects_the_pure_walk(compiled: None) -> None:
    """``use_compiled(False)`` keeps the pure loops (the reference) for the early walk too."""
    facts = early_facts(40)[0]
    kernel.use_compiled(False)
    assert not direct_early._Walk(facts, "deals", [0] * (facts.size + 1)).fast
    kernel.use_compiled(True)
    assert direct_early._Walk(facts, "deals", [0] * (facts.size + 1)).fast


KEYS = st.integers(0, 2**80 - 1)
WEIGHTS = st.one_of(
    st.integers(-(2**130), 2**130),
    st.sampled_from([0, 1, -1, 2**63 - 1, 2**63, 2**64, 2**127, 2**128, -(2**128), 2**200]),
)
MOVES = st.lists(st.tuples(st.integers(0, 2**80), WEIGHTS, st.integers(0, 6)), max_size=6)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(KEYS, WEIGHTS, max_size=12), st.integers(0, 4), st.integers(1, 8), MOVES)
def test_share_out_equals_pure(cloud: dict[int, int], need: int, i: int, moves: list[Any]) -> None:
    """share_out: same dict (items and order) and same memo as the pure loop; a key's moves are
    made once."""
    made: list[int] = []

    def make(walk: Any) -> Any:
        def moves_of(j: int, key: int) -> list[tuple[int, int, int]]:
            assert j == i
            made.append(key)
            return [(step + key % 5, w ^ key, e) for step, w, e in moves]

        return moves_of

    pure = SimpleNamespace(shares={}, fast=False)
    pure._shares = make(pure)
    want = direct_early._Walk.share_out(pure, i, 3, need, cloud)  # type: ignore[arg-type]
    once = list(made)
    made.clear()
    memo: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
    got = _early.share_out(cloud, need, i, memo, make(None))
    assert list(got.items()) == list(want.items())
    assert list(memo.items()) == list(pure.shares.items())
    assert made == once
    again = _early.share_out(cloud, need, i, memo, make(None))
    assert again == got and made == once  # the memo serves


SHARES = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), WEIGHTS, st.integers(0, 2**80)), max_size=6)


@settings(max_examples=150, deadline=None)
@given(SHARES, SHARES, SHARES, SHARES, st.integers(0, 10))
def test_combine_and_by_cards_equal_pure(first: Any, second: Any, third: Any, fourth: Any, n: int) -> None:
    """by_cards = _by_cards, and combine = _Walk._shares's pure loop (shares sorted by cards, as
    the walk makes them)."""
    first, second, third, fourth = (
        tuple(sorted(s, key=lambda t: t[0])) for s in (first, second, third, fourth)
    )
    late = direct_early._by_cards(third, fourth, n)
    assert _early.by_cards(third, fourth, n) == late
    want = []
    for k0, e0, x0, s0 in first:
        for k1, e1, x1, s1 in second:
            left = n - k0 - k1
            if left < 0:
                break
            want += [(s0 + s1 + s, x0 * x1 * x, e0 + e1 + e) for e, x, s in late[left]]
    assert _early.combine(first, second, late, n) == want


def last_walk(deals: bool, ends: dict[Any, Any]) -> Any:
    """A stand-in walk for :meth:`_Walk.last_hidden` / :meth:`_Walk.after`: its last position's
    caps and draws, end weights made from the key (and kept, as new_end_weights does)."""
    made: list[int] = []

    def new_end_weights(key: int) -> tuple[int, ...]:
        made.append(key)
        out = ends[("ctx", key)] = (key * 3 - 2**90, key % 7, -key, 2**128 + key)
        return out

    group_of = tuple([-1, 0] + [g for g in (1, 2, 3) for _ in range(12)] + [3] * 5)[:43]
    return SimpleNamespace(
        size=4,
        n=3,
        fast=False,
        deals=deals,
        group_of=group_of,
        hide_key=direct_early._hide_keys(group_of),
        capg={4: (7, 9, 11, 13)},
        drawn={4: (20, 21, 22)},
        before={4: (3, 4, 5)},
        stacks={4: 3},
        context="ctx",
        new_end_weights=new_end_weights,
        made=made,
    )


CLOUD_KEYS = st.integers(0, 2**20 - 1).flatmap(
    lambda low: st.integers(0, 2**60).map(lambda hi: low | hi << 20)
)


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(CLOUD_KEYS, WEIGHTS, max_size=12),
    st.integers(1, 42),
    st.integers(0, 3),
    st.booleans(),
    st.booleans(),
)
def test_close_last_equals_pure(cloud: dict[int, int], v: int, need: int, deals: bool, hidden: bool) -> None:
    """close_last = last_hidden (face-down last hideout) and after's face-up last position: same
    total, same end weights made in the same order, the kept ones served again."""
    ends: dict[Any, Any] = {}
    pure = last_walk(deals, ends)
    monkey = direct_early.ENDS
    direct_early.ENDS = ends  # type: ignore[misc]
    try:
        if hidden:
            want = direct_early._Walk.last_hidden(pure, v, need, cloud)
        else:
            want = direct_early._Walk.after(pure, 4, v, need, cloud, False, True)
    finally:
        direct_early.ENDS = monkey  # type: ignore[misc]
    ends2: dict[Any, Any] = {}
    fast = last_walk(deals, ends2)
    g = fast.group_of[v]
    free = fast.drawn[4][g - 1] - fast.before[4][g - 1] if deals and g else -1
    args = (5 * g, fast.capg[4][g], fast.hide_key[v], free) if hidden else (-1, 0, 0, -1)
    got = _early.close_last(cloud, *args, fast.capg[4], "ctx", ends2, fast.new_end_weights, need)
    assert got == want
    assert fast.made == pure.made and list(ends2.items()) == list(ends.items())


def test_errors_leave_no_partial_result() -> None:
    """A key that is not an int, or a move that is not a 3-tuple, raises (no partial dict)."""
    with pytest.raises(TypeError):
        _early.close_last({1.5: 1}, -1, 0, 0, -1, (1, 1, 1, 1), "c", {}, lambda k: (1,), 0)
    with pytest.raises(TypeError):
        _early.share_out({1: 1}, 0, 1, {}, lambda i, k: [(1, 2)])


def step_walk(fast: bool, deals: bool, caps: tuple[int, int, int, int], draws: tuple[int, ...]) -> Any:
    """A stand-in walk at position 2 for the cloud steps (hide, hide_closed, face_up, group
    shares): caps, draws (drawn less before may be negative), face-up deck cards."""
    group_of = tuple([-1, 0] + [g for g in (1, 2, 3) for _ in range(12)] + [3] * 5)[:43]
    return SimpleNamespace(
        fast=fast,
        deals=deals,
        group_of=group_of,
        hide_key=direct_early._hide_keys(group_of),
        capg={2: caps},
        drawn={2: tuple(d + 4 for d in draws)},
        before={2: (4, 4, 4)},
        known_at={2: (1, 0, 2)},
        stacks={2: 3},
    )


CAPS = st.tuples(*(st.integers(0, 31) for _ in range(4)))
DRAWS = st.tuples(*(st.integers(-3, 30) for _ in range(3)))


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(CLOUD_KEYS, WEIGHTS, max_size=12), st.integers(1, 42), st.booleans(), CAPS, DRAWS)
def test_cloud_steps_equal_pure(cloud: dict[int, int], v: int, deals: bool, caps: Any, draws: Any) -> None:
    """hide, hide_closed (face down and up) and face_up: same dicts, items and order, zero
    weights kept or dropped alike."""
    walks = [step_walk(fast, deals, caps, draws) for fast in (False, True)]
    for step in (
        lambda w: direct_early._Walk.hide(w, 2, v, cloud),
        lambda w: direct_early._Walk.hide_closed(w, 2, v, cloud, True),
        lambda w: direct_early._Walk.hide_closed(w, 2, v, cloud, False),
        lambda w: direct_early._Walk.face_up(w, 2, cloud),
    ):
        pure, fast = (step(w) for w in walks)
        assert list(fast.items()) == list(pure.items())


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 31), min_size=4, max_size=4),
    st.integers(0, 3),
    st.booleans(),
    CAPS,
    DRAWS,
    st.tuples(*(st.integers(0, 12) for _ in range(8))),
    st.integers(0, 6),
)
def test_group_shares_equal_pure(
    fields: list[int], g: int, deals: bool, caps: Any, draws: Any, avail: Any, stack: int
) -> None:
    """group_shares = _new_group_shares: the same tuple (cards, evens, weight, step), the same
    shared memo entry, its bound clearing it alike; or both raise (fields no key holds)."""
    key = sum(f << (5 * g + 20 * j) for j, f in enumerate(fields))
    pure = step_walk(False, deals, caps, draws)
    pure.avail, pure.stacks = avail, {2: stack}
    kept = direct_early.SHARES
    want_memo: dict[Any, Any] = {("old",): ()}
    direct_early.SHARES = want_memo  # type: ignore[misc]
    try:
        want: Any = direct_early._Walk._new_group_shares(pure, 2, g, key)
    except (IndexError, TypeError) as error:
        want = type(error)
    finally:
        direct_early.SHARES = kept  # type: ignore[misc]
    params = (caps[g], stack, deals and g > 0, draws[g - 1] if g else 0, avail[2 * g + 1], avail[2 * g])
    memo: dict[Any, Any] = {("old",): ()}
    try:
        got: Any = _early.group_shares(key, g, params, memo, 1, FALL, COMB)
    except (IndexError, TypeError) as error:
        got = type(error)
    assert got == want
    if not isinstance(want, type):
        assert list(memo.items()) == list(want_memo.items())[1:]  # cleared at 1 entry, then kept


WALKS: list[Facts] = []


def sample_walks() -> list[Facts]:
    """A few early-route positions (made once)."""
    if not WALKS:
        WALKS.extend(early_facts(50)[:12])
    return WALKS


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 11),
    st.booleans(),
    st.lists(st.lists(st.integers(0, 31), min_size=16, max_size=16), min_size=1, max_size=6),
)
def test_end_weights_equal_pure(which: int, deals: bool, rows: list[list[int]]) -> None:
    """end_weights = new_end_weights on real walks, from any counts (fields to 31, keys past
    2**64; negative COMB indices read as Python does, IndexError alike): the same weights by need,
    the same pair products and group tables kept (dict order), the same work, ENDS alike."""
    positions = sample_walks()
    facts = positions[which % len(positions)]
    measure = "deals" if deals else "worlds"
    results = []
    kept = direct_early.ENDS
    for fast in (False, True):
        stacks = [0] * (facts.size + 1)
        for i in range(1, facts.size + 1):
            stacks[i] = facts.sprint_counts[i] - len(facts.known_sprints[i])
        walk = direct_early._Walk(facts, measure, stacks)
        walk.fast = fast
        ends: dict[Any, Any] = {}
        direct_early.ENDS = ends  # type: ignore[misc]
        got: list[Any] = []
        try:
            for row in rows:
                key = sum(f << (5 * j) for j, f in enumerate(row))
                try:
                    got.append(walk.new_end_weights(key))
                except IndexError:
                    got.append(IndexError)
        finally:
            direct_early.ENDS = kept  # type: ignore[misc]
        packed = [list(t.items()) for t in walk.packed]
        pairs = (list(walk.low_pairs.items()), list(walk.high_pairs.items()))
        results.append((got, list(ends.items()), packed, pairs, walk.work))
    assert results[0] == results[1]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 31), min_size=16, max_size=16), min_size=1, max_size=6),
    st.booleans(),
    CAPS,
    DRAWS,
    st.tuples(*(st.integers(0, 12) for _ in range(8))),
    st.integers(0, 6),
)
def test_stack_shares_equal_pure(
    fields: list[list[int]], deals: bool, caps: Any, draws: Any, avail: Any, stack: int
) -> None:
    """stack_shares = _shares's pure loop with _group_shares: the same shares, group shares memo
    (keys past 2**64), SHARES, late rows and work; or both raise (fields no key holds)."""

    def walk(fast: bool) -> Any:
        ns = step_walk(fast, deals, caps, draws)
        ns.avail, ns.stacks, ns.work, ns.group_shares, ns.late = avail, {2: stack}, 0, {}, {}
        ns.share_params = {
            2: tuple(
                (caps[g], stack, deals and g > 0, draws[g - 1] if g else 0, avail[2 * g + 1], avail[2 * g])
                for g in range(4)
            )
        }
        ns._group_shares = lambda i, g, key: direct_early._Walk._group_shares(ns, i, g, key)
        ns._new_group_shares = lambda i, g, key: direct_early._Walk._new_group_shares(ns, i, g, key)
        return ns

    kept = direct_early.SHARES
    results = []
    for fast in (False, True):
        ns = walk(fast)
        memo: dict[Any, Any] = {}
        got: list[Any] = []
        direct_early.SHARES = memo  # type: ignore[misc]
        try:
            for row in fields:
                key = sum(f << (5 * j) for j, f in enumerate(row))
                got.append(direct_early._Walk._shares(ns, 2, key))
        except (IndexError, TypeError) as error:
            got.append(type(error))
        finally:
            direct_early.SHARES = kept  # type: ignore[misc]
        results.append(
            (got, ns.work, list(ns.group_shares.items()), list(ns.late.items()), list(memo.items()))
        )
    assert results[0] == results[1]


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 11),
    st.booleans(),
    st.dictionaries(
        st.lists(st.integers(0, 31), min_size=16, max_size=16).map(
            lambda row: sum(f << (5 * j) for j, f in enumerate(row))
        ),
        WEIGHTS,
        max_size=8,
    ),
    st.integers(1, 42),
    st.integers(0, 3),
)
def test_walk_steps_equal_pure(which: int, deals: bool, cloud: dict[int, int], v: int, need: int) -> None:
    """On real walks, from any cloud: share_out (its shares made in C, stack_shares's arguments)
    and the last position's weight (end weights made in C once the packing is made) give the
    pure walk's dicts, weights, work and memos, or both raise."""
    facts = sample_walks()[which % len(sample_walks())]
    assume(facts.tables.group_of[v] >= 0)  # a hideout value the walk can meet
    measure = "deals" if deals else "worlds"
    stacks = [0] * (facts.size + 1)
    for i in range(1, facts.size + 1):
        stacks[i] = facts.sprint_counts[i] - len(facts.known_sprints[i])
    early = [i for i in range(1, facts.size) if stacks[i]]
    results = []
    kept_ends, kept_shares = direct_early.ENDS, direct_early.SHARES
    before = kernel.COMPILED
    for fast in (False, True):
        if kernel.use_compiled(fast) != fast:
            pytest.skip("the kernel's switch cannot turn compiled loops on here (no _kernel)")
        walk = direct_early._Walk(facts, measure, stacks)  # its tables for the compiled loops too
        kernel.use_compiled(before)
        assert walk.fast == fast
        direct_early.ENDS, direct_early.SHARES = {}, {}  # type: ignore[misc]
        got: list[Any] = []
        try:
            for step in (
                lambda w: w.share_out(early[0], stacks[early[0]], need, cloud),
                lambda w: w.last_hidden(v, need, cloud),
                lambda w: w._packing(),
                lambda w: w.last_hidden(v, need, cloud),
                lambda w: w.after(w.size, v, need, cloud, False, True),
            ):
                try:
                    got.append(step(walk))
                except (IndexError, KeyError) as error:
                    got.append(type(error))
            ends = list(direct_early.ENDS.items())
        finally:
            direct_early.ENDS, direct_early.SHARES = kept_ends, kept_shares  # type: ignore[misc]
        memos = (list(walk.shares.items()), list(walk.group_shares.items()), list(walk.late.items()))
        results.append((got, ends, memos, walk.work))
    assert results[0] == results[1]
