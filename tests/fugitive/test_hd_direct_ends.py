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


def bit_loop(mask: int) -> list[int]:
    """The set bits' numbers, lowest bit first, one at a time (the loop _bits had)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.integers(0, 2**43), st.integers(2**47, 2**49), st.integers(2**62, 2**130)))
def test_bits_read_bytes_as_the_loop_reads_bits(mask: int) -> None:
    """_bits (a byte at a time from _BYTE_BITS below 2**48, the loop beyond) = the bit loop."""
    assert direct._bits(mask) == bit_loop(mask)
    assert direct._BYTE_BITS[5][255] == tuple(range(40, 48))


def summed_tables(facts: Facts, gavail: list[int]) -> Any:
    """_position_tables as it was: a face-up stack's footprints summed by a generator."""
    known, known_sprints, caps = facts.known, facts.known_sprints, facts.caps
    group_of = facts.tables.group_of
    a0, a1, a2, a3 = gavail
    zero = (0, 0, 0)
    cap = caps[0]
    known_at, before, drawn = [zero], [zero], [cap]
    capg = [(a0, min(cap[0], a1), min(cap[1], a2), min(cap[2], a3))]
    fixed_fp = [0] * len(known)
    r0 = r1 = r2 = 0
    for i in range(1, len(known)):
        before.append((r0, r1, r2))
        k = known[i]
        if k >= 0:
            by_group = [0, 0, 0, 0, 0]
            by_group[group_of[k]] += 1
            shown = known_sprints[i]
            if shown:
                fixed_fp[i] = 2 * len(shown) - sum(c & 1 for c in shown)
                for c in shown:
                    by_group[group_of[c]] += 1
            known_at.append((by_group[1], by_group[2], by_group[3]))
            r0, r1, r2 = r0 + by_group[1], r1 + by_group[2], r2 + by_group[3]
        else:
            known_at.append(zero)
        x0, x1, x2 = caps[i]
        drawn.append((x0 + r0, x1 + r1, x2 + r2))
        capg.append((a0, min(x0, a1), min(x1, a2), min(x2, a3)))
    return known_at, before, drawn, capg, fixed_fp


def test_position_tables_equal_the_summed_footprints() -> None:
    """_position_tables (footprints and groups of a face-up stack in one pass) on real positions
    with face-up stacks, any counts of free cards: the tables as they were made."""
    seen = 0
    for facts in direct_facts(3):
        seen += any(facts.known_sprints)
        for gavail in ([3, 8, 8, 8], [3, 2, 0, 5]):
            assert direct._position_tables(facts, gavail) == summed_tables(facts, gavail)
    assert seen > 20
