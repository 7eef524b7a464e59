"""The packing's width made in C (``_early.packing_width``) equals the pure loop's
(``direct_early._Walk._bound_width``) on real walks and on any counts: same int, or the same
error, and counts beyond a C long fall back to the pure loop."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamelib
from gamelib.fugitive.belief import direct, direct_early, facts_from_state, kernel
from gamelib.fugitive.belief.facts import Facts
from gamelib.fugitive.belief.tables import COMB
from gamelib.fugitive.rules import FugitiveState

_early = pytest.importorskip("gamelib.fugitive.belief._early")

BENCH = Path(__file__).parents[2] / "benchmarks" / "data"
SETS = (BENCH / "fugitive_belief_random_v2.jsonl.gz", BENCH / "fugitive_belief_agents_v2.jsonl.gz")
PACKED = ("width", "row_bits", "keep", "row_shift", "row_mask", "digit", "x_1", "end_packing")


@pytest.fixture
def compiled() -> Iterator[None]:
    """Leaves the kernel's switch as it found it."""
    before = kernel.COMPILED
    if not kernel.use_compiled(True):
        pytest.skip("the kernel's switch cannot turn compiled loops on here (no _kernel)")
    yield
    kernel.use_compiled(before)


def early_walks(every: int) -> list[tuple[Facts, list[int]]]:
    """Every ``every``-th row of both v2 sets that the early count takes, with its stacks."""
    out = []
    for path in SETS:
        with gzip.open(path, "rt") as handle:
            rows = [json.loads(line) for line in handle][::every]
        for row in rows:
            state = gamelib.from_record(row["record"])
            assert isinstance(state, FugitiveState)
            facts = facts_from_state(state)
            if direct.direct_count(facts, "deals") is None and direct_early.early_count(facts, "deals"):
                stacks = [0] * (facts.size + 1)
                for i in range(1, facts.size + 1):
                    stacks[i] = facts.sprint_counts[i] - len(facts.known_sprints[i])
                out.append((facts, stacks))
    return out


def test_packing_equals_pure_on_stored_positions(compiled: None) -> None:
    """Real walks, both measures: the compiled _packing sets the pure one's width and packing."""
    walks = early_walks(4)
    assert len(walks) > 50
    for facts, stacks in walks:
        for measure in ("deals", "worlds"):
            walk = direct_early._Walk(facts, measure, stacks)
            assert walk.fast
            walk._packing()
            fast = [getattr(walk, name) for name in PACKED] + [walk.end_tables[1]]
            walk.fast = False
            walk._packing()
            assert fast == [getattr(walk, name) for name in PACKED] + [walk.end_tables[1]]
            assert fast[0] == walk._bound_width()


def stand_in(n: int, deals: bool, stacks: list[int], counts: list[list[int]]) -> Any:
    """A walk's fields that the width reads (size 2: one early stack, the last position)."""
    gavail, fug, cap, drawn, before = counts
    return SimpleNamespace(
        n=n,
        deals=deals,
        gavail=gavail,
        fug=fug,
        stacks=stacks,
        size=2,
        capg=[[], [], cap],
        drawn=[[], [], drawn],
        before=[[], [], before],
    )


SMALL = st.integers(-3, 45)
ANY = st.one_of(SMALL, st.integers(-(2**70), 2**70), st.sampled_from([2**63 - 1, 2**63, -(2**63), 2**64]))


@settings(max_examples=300, deadline=None)
@given(
    SMALL,
    st.booleans(),
    st.lists(SMALL, min_size=3, max_size=3),
    st.lists(st.lists(st.one_of(SMALL, SMALL, ANY), min_size=4, max_size=4), min_size=5, max_size=5),
)
def test_width_equals_pure(n: int, deals: bool, stacks: list[int], counts: list[list[int]]) -> None:
    """Any counts (negative, past COMB, beyond a C long): the C width is the pure loop's, or both
    raise the same error; OverflowError only where the pure loop then answers."""
    ns = stand_in(n, deals, stacks, counts)
    gavail, fug, cap, drawn, before = counts
    args = (
        n,
        deals,
        sum(stacks[:2]),
        gavail,
        fug,
        cap,
        drawn,
        before,
        direct.group_bound,
        COMB,
        direct.WIDTH_STEP,
    )
    try:
        want: Any = direct_early._Walk._bound_width(ns)
    except (IndexError, ValueError, TypeError) as error:
        want = type(error)
    try:
        got: Any = _early.packing_width(*args)
    except OverflowError:
        got = want  # the caller runs the pure loop: checked below through _packing
        assert any(abs(x) >= 2**62 for row in counts for x in row) or abs(sum(stacks[:2])) >= 2**62
    except (IndexError, ValueError, TypeError) as error:
        got = type(error)
    assert got == want


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 7), st.booleans(), st.integers(0, 40), st.sampled_from([2**63, 2**64, 2**100]))
def test_packing_falls_back_past_a_c_long(n: int, deals: bool, early: int, big: int) -> None:
    """A count beyond a C long (here group 3's cap at the last position, which the pure loop's
    ``min`` clips but C cannot read): _packing with the compiled loops on answers the pure width."""
    ns = stand_in(
        n, deals, [0, early, n], [[3, 4, 5, 6], [2, 1, 1, 1], [n, n, n, big], [9, 9, 9, 9], [1, 1, 1, 1]]
    )
    want = direct_early._Walk._bound_width(ns)
    with pytest.raises(OverflowError):
        _early.packing_width(
            n,
            deals,
            early,
            ns.gavail,
            ns.fug,
            ns.capg[2],
            ns.drawn[2],
            ns.before[2],
            direct.group_bound,
            COMB,
            direct.WIDTH_STEP,
        )
    ns.fast, ns.avail, ns.packed = True, [1] * 8, [{}, {}, {}, {}]
    ns._bound_width = lambda: direct_early._Walk._bound_width(ns)
    direct_early._Walk._packing(ns)
    assert ns.width == want
