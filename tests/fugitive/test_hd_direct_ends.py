"""The direct count's closing (issue 24, goal 1, the easy positions' fixed cost): a path's last
stack weights are looked up in :data:`~gamelib.fugitive.belief.direct.ENDS` by a key made at once
from the path's counts (no list copied, the caps read from the key) and made from that key
(:meth:`_Walk.new_end_weights`); a single face-down position's probabilities are its hideout
probabilities with no sums.  Each gives the same integers and floats as the code before."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import gamelib
from gamelib.fugitive.belief import direct, facts_from_state
from gamelib.fugitive.belief.facts import Facts
from gamelib.fugitive.belief.probabilities import probabilities_of
from gamelib.fugitive.rules import FugitiveState

BENCH = Path(__file__).parents[2] / "benchmarks" / "data"
SETS = (BENCH / "fugitive_belief_agents_v2.jsonl.gz", BENCH / "fugitive_belief_random_v2.jsonl.gz")


def direct_facts(every: int) -> list[Facts]:
    """Every ``every``-th position of the v2 sets that the direct count takes."""
    out = []
    for path in SETS:
        with gzip.open(path, "rt") as handle:
            rows = [json.loads(line) for line in handle][::every]
        for row in rows:
            state = gamelib.from_record(row["record"])
            assert isinstance(state, FugitiveState)
            facts = facts_from_state(state)
            if direct.direct_count(facts, "deals") is not None:
                out.append(facts)
    return out


def copied_closing(
    walk: Any, v: int, need: int, u: list[int], h: list[int], he: list[int], weight: int, hidden: bool
) -> int:
    """The closing as it was: the counts copied, a face-down ``v`` added, the caps checked by
    ``closes``, the weights by ``end_weights(u, h, he)`` (made afresh: ENDS not read)."""
    i = walk.size
    if hidden:
        g = walk.group_of[v]
        ug = u[g]
        if ug >= walk.capg[i][g]:
            return 0
        if walk.deals and g:
            weight *= walk.drawn[i][g - 1] - ug - walk.before[i][g - 1]
        u, h, he = u.copy(), h.copy(), he.copy()
        u[g] += 1
        h[g] += 1
        if not v & 1:
            he[g] += 1
    elif walk.deals:
        weight *= walk.face_up_weight(i, u)
    if not weight or not walk.closes(u, i):
        return 0
    saved = (dict(walk.low_pairs), dict(walk.high_pairs))
    walk.low_pairs.clear()
    walk.high_pairs.clear()
    fins = walk.new_end_weights((walk.context, *u, *h, *he))  # made from the counts, not looked up
    walk.low_pairs, walk.high_pairs = saved
    return weight * fins[need] if need < len(fins) else 0


def test_the_closing_key_gives_the_copied_counts_weights() -> None:
    """Every closing of the direct counts of real positions (both measures, ENDS kept along the
    way as the benchmark keeps it) equals the closing with copied counts and weights made afresh
    from them; the kept ENDS entry of each key equals new_end_weights of that key."""
    calls = 0
    original = direct._Walk.closing

    def checked(self: Any, *args: Any) -> int:
        nonlocal calls
        got = original(self, *args)
        assert got == copied_closing(self, *args)
        calls += 1
        return got

    direct.clear_shared()
    direct._Walk.closing = checked  # type: ignore[method-assign,assignment]
    try:
        for facts in direct_facts(4):
            for measure in ("deals", "worlds"):
                assert direct.direct_count(facts, measure) is not None
    finally:
        direct._Walk.closing = original  # type: ignore[method-assign]
    assert calls > 500


def test_the_counts_equal_those_made_with_every_memo_cleared() -> None:
    """Direct counts with ENDS kept from earlier positions equal the counts made after
    clear_shared() (the keys hold everything the weights depend on)."""
    sample = direct_facts(6)
    direct.clear_shared()
    kept = [direct.direct_count(f, m) for f in sample for m in ("deals", "worlds")]
    fresh = []
    for f in sample:
        for m in ("deals", "worlds"):
            direct.clear_shared()
            fresh.append(direct.direct_count(f, m))
    assert kept == fresh
    assert len(kept) > 100


def plain(
    marginals: dict[int, list[int]], total: int
) -> tuple[dict[int, tuple[float, ...]], tuple[float, ...]]:
    """Every weight divided, and the positions' weights summed per number then divided."""
    probs = {i: tuple(c / total for c in counts) for i, counts in marginals.items()}
    sums = [sum(counts[v] for counts in marginals.values()) for v in range(43)]
    return probs, tuple(s / total for s in sums)


weights = st.one_of(
    st.just(0),
    st.integers(1, 2**20),
    st.integers(2**63 - 2, 2**64 + 2),
    st.integers(2**127 - 2, 2**128 + 2),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(weights, min_size=43, max_size=43), st.integers(1, 45), st.integers(0, 2**130))
def test_one_position_s_probabilities_are_its_hideout_s(counts: list[int], i: int, extra: int) -> None:
    """One face-down position: its probabilities are the hideout probabilities (the same tuple),
    equal to every weight divided; zero and 2**63..2**128 weights, totals beyond."""
    total = sum(counts) + extra or 1
    position, hideout = probabilities_of({i: counts}, total)
    assert position == plain({i: counts}, total)[0]
    assert hideout is position[i]
    assert hideout == plain({i: counts}, total)[1]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(weights, min_size=43, max_size=43), min_size=0, max_size=4))
def test_several_positions_sum_per_number(rows: list[list[int]]) -> None:
    """Zero, two or more positions: the per-number sums divided, as before."""
    marginals = {j + 1: row for j, row in enumerate(rows)}
    total = sum(map(sum, rows)) or 1
    assert probabilities_of(marginals, total) == plain(marginals, total)
