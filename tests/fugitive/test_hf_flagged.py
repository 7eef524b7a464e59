"""``kernel.pull``'s ``flagged``: the card locations' closing pair layers without dicts.

A closing pair layer of the card locations' walk sums ``wf S(dst)`` over the share sums after and
``wfs B(dst)`` over the completions after in one pull: the second kind of move goes to ``dst |
flag`` (a bit above every state).  Before, the completions were inserted into the share sums' dict
at those keys (so both layers were made dicts, and the kernel made a table of the merged dict per
pull); ``flagged = (flag, completions)`` reads them where they are, native or not.  Its results must
be the pure loop's (:func:`~gamelib.fugitive.belief.kernel.pull_pure`, and the merged dict's), for
any flag: beyond 128 bits or negative the pure loop runs.  ``States.bit_length`` gives the flag's
position without making the sources a dict.  On real positions the card-location floats stay the
pure path's bit for bit, and the walk leaves a closing layer's sources native.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamelib
from gamelib.fugitive import belief as belief_module
from gamelib.fugitive.belief import kernel
from gamelib.fugitive.belief.bits import PAIR
from gamelib.fugitive.belief.build import backward, build
from gamelib.fugitive.belief.locations import card_locations
from gamelib.fugitive.belief.marginals import _Walk, class_shares
from gamelib.fugitive.rules import FugitiveState

ROOT = Path(__file__).resolve().parents[2]
RANDOM_V2 = ROOT / "benchmarks" / "data" / "fugitive_belief_random_v2.jsonl.gz"
IDS = ("random-5", "random-14", "random-330")
"""Positions with closing pair layers (random-330: one of the hardest of the set)."""
EDGES = (0, 1, 2**29, 2**30, 2**62, 2**63, 2**64, 2**96, 2**127)
WEIGHTS = st.one_of(
    st.integers(-(2**130), 2**130),
    st.sampled_from([0, 1, -1, 2**63 - 1, 2**63, -(2**63), 2**64, 2**127, -(2**128), 2**128 + 1, 3**80]),
)


@pytest.fixture
def compiled() -> Iterator[Any]:
    """The compiled module, turned on (skipped where it was not built), on again afterwards."""
    module = pytest.importorskip("gamelib.fugitive.belief._kernel")
    assert kernel.use_compiled(True)
    try:
        yield module
    finally:
        kernel.use_compiled(True)


@st.composite
def layers(draw: st.DrawFn) -> tuple[Any, ...]:
    """Sources, one signature's moves, a flag, the plain and the flagged states: destinations
    drawn near the 2^63/2^64/2^128 edges, about half of them flagged, both tables holding some."""
    bit = draw(st.sampled_from([1, 30, 62, 63, 64, 96, 127]))
    flag = 1 << bit
    low = st.builds(lambda x, e: (x | e) % flag, st.integers(0, flag - 1), st.sampled_from(EDGES))
    sources = draw(st.lists(low, min_size=1, max_size=8, unique=True))
    deltas = st.one_of(
        st.integers(-(2**40), 2**40), st.sampled_from([flag, flag + 1, -flag, flag - 1, 2**128])
    )
    moves = draw(st.lists(st.tuples(deltas, WEIGHTS), max_size=10))
    dsts = {src + d for src in sources for d, _ in moves}
    plain = {k: draw(WEIGHTS) for k in dsts if 0 <= k < flag and draw(st.booleans())}
    other = {k ^ flag: draw(WEIGHTS) for k in dsts if k >= 0 and k & flag and draw(st.booleans())}
    other.update({k: draw(WEIGHTS) for k in draw(st.lists(low, max_size=3))})
    return sources, moves, flag, plain, other


def both_ways(module: Any, sources: list[int], moves: Any, flag: int, plain: Any, other: Any) -> None:
    """Compiled = pure (and = the merged dict's pure pull), with dicts or native States."""
    want = kernel.pull_pure(sources, 0, -1, {0: moves}, plain, None, flagged=(flag, other))
    merged = {**plain, **{k | flag: v for k, v in other.items()}}
    if flag > 0 and all(0 <= k < flag for k in (*plain, *other)):
        assert kernel.pull_pure(sources, 0, -1, {0: moves}, merged) == want
    for nxt in (plain, module.native(plain)):
        for flagged in (other, module.native(other)):
            got = module.pull(sources, 0, -1, {0: list(moves)}, nxt, None, flagged=(flag, flagged))
            assert list(kernel.as_dict(got).items()) == list(want.items())
    native = module.native(dict.fromkeys(sources, 1))
    got = module.pull(
        native, 0, -1, {0: list(moves)}, module.native(plain), flagged=(flag, module.native(other))
    )
    assert list(kernel.as_dict(got).items()) == list(want.items())


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(layers())
def test_flagged_pull_equals_the_pure_loop(compiled: Any, drawn: tuple[Any, ...]) -> None:
    """Wide, zero and negative weights, sums that cancel, destinations past 2^128 or below 0."""
    both_ways(compiled, *drawn)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(layers(), st.sampled_from([2**128, 2**128 + 2**3, -(2**64), -1, 0, 6]))
def test_a_flag_the_table_cannot_take_runs_the_pure_loop(compiled: Any, drawn: Any, flag: int) -> None:
    """A flag beyond 128 bits or negative: the pure loop answers (a flag of several bits or 0 is
    read as given)."""
    sources, moves, _, plain, other = drawn
    want = kernel.pull_pure(sources, 0, -1, {0: moves}, plain, None, flagged=(flag, other))
    got = compiled.pull(sources, 0, -1, {0: list(moves)}, compiled.native(plain), None, flagged=(flag, other))
    assert list(kernel.as_dict(got).items()) == list(want.items())


def test_refusals_and_the_pure_switch(compiled: Any) -> None:
    """A flagged that is not a (flag, states) pair: the pure function's own error; turned off,
    the compiled pull calls the pure one with flagged as given."""
    with pytest.raises((TypeError, ValueError)):
        compiled.pull([1], 0, -1, {0: [(1, 1)]}, {2: 1}, None, flagged=(4,))
    with pytest.raises(TypeError):  # keyword-only
        compiled.pull([1], 0, -1, {0: [(1, 1)]}, {2: 1}, None, (4, {}))
    want = kernel.pull_pure([1], 0, -1, {0: [(1, 3), (5, 2)]}, {2: 1}, None, flagged=(4, {2: 7}))
    assert want == {1: 3 + 14}
    kernel.use_compiled(False)
    assert compiled.pull([1], 0, -1, {0: [(1, 3), (5, 2)]}, {2: 1}, None, flagged=(4, {2: 7})) == want


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(0, 2**128 - 1), max_size=20))
def test_states_bit_length_is_the_largest_key_s(compiled: Any, keys: list[int]) -> None:
    states = compiled.native(dict.fromkeys(keys, 1))
    assert states.bit_length() == max(keys, default=0).bit_length()


def positions() -> list[belief_module.Facts]:
    with gzip.open(RANDOM_V2, "rt") as handle:
        rows = {row["id"]: row for row in map(json.loads, handle) if row["id"] in IDS}
    facts = []
    for ident in IDS:
        state = gamelib.from_record(rows[ident]["record"])
        assert isinstance(state, FugitiveState)
        facts.append(belief_module.facts_from_state(state))
    return facts


def test_closing_pair_layers_stay_native_and_equal_the_pure_path(compiled: Any) -> None:
    """Compiled, a closing pair layer's sources and completions are pulled as stored (the walk
    made them dicts before); the share sums and the card-location floats are the pure path's."""
    seen = 0
    for facts in positions():
        fast = build(facts, "deals")
        backward(fast)
        walk = _Walk(fast, 1, 1, fast.closing)
        closing = [t for t, c in enumerate(walk.closers[:-1]) if c is not None and fast.layers[t][1] == PAIR]
        shares = class_shares(fast)
        assert fast.back is not None
        for t in closing:
            seen += 1
            assert type(list.__getitem__(fast.forward, t)) is not dict
        hideout = tuple(1.0 / 43 for _ in range(43))
        floats = card_locations(fast, hideout)
        kernel.use_compiled(False)
        slow = build(facts, "deals")
        backward(slow)
        pure = class_shares(slow)
        assert (pure.total, pure.expect, pure.joint) == (shares.total, shares.expect, shares.joint)
        assert [[x.hex() for x in v] for v in card_locations(slow, hideout)] == [
            [x.hex() for x in v] for v in floats
        ]
        kernel.use_compiled(True)
    assert seen
