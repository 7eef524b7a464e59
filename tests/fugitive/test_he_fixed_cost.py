"""The fixed cost of the belief on easy positions (issue 24, goal 1, 0.2 ms): the direct and early
counts' shortcuts give the same integers as the plain computations they replace, and the same
beliefs as the programme (the general path) on stored positions of both v2 sets."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

import gamelib
from gamelib.fugitive.belief import direct, direct_early, facts_from_state, probabilities
from gamelib.fugitive.belief.facts import Facts
from gamelib.fugitive.belief.tables import FALL
from gamelib.fugitive.rules import FugitiveState

BENCH = Path(__file__).parents[2] / "benchmarks" / "data"
SETS = (BENCH / "fugitive_belief_agents_v2.jsonl.gz", BENCH / "fugitive_belief_random_v2.jsonl.gz")


def states_of_sets(every: int, start: int = 0) -> list[FugitiveState]:
    out = []
    for path in SETS:
        with gzip.open(path, "rt") as handle:
            rows = [json.loads(line) for line in handle][start::every]
        for row in rows:
            state = gamelib.from_record(row["record"])
            assert isinstance(state, FugitiveState)
            out.append(state)
    return out


def test_pick_rows_are_the_rows_of_the_powers() -> None:
    """pick_rows builds each row from binomials: the same ints as the rows of
    ``(1 + xy)**evens (1 + x)**odds`` packed, wherever an entry fits its digit (the packing's
    bound: ``evens + odds + 2 <= width``)."""
    checked = 0
    for width in (16, 32, 48):
        for n in range(0, 10):
            row_bits = width * (n + 1)
            mask = (1 << row_bits) - 1
            for evens in range(0, 15):
                for odds in range(0, 15):
                    if evens + odds + 2 > width:
                        continue
                    powers = ((1 + (1 << (row_bits + width))) ** evens) * ((1 + (1 << row_bits)) ** odds)
                    want = tuple((powers >> (row_bits * k)) & mask for k in range(n + 1))
                    assert direct.pick_rows(width, n, evens, odds) == want
                    checked += 1
    assert checked > 2000


def plain_table(
    width: int, n: int, evens: int, odds: int, left: int, hand_total: int, room: int, slots: int, drawn: bool
) -> int:
    """packed_table as before: the picks as powers of packed binomials, each row times its factor."""
    row_bits = width * (n + 1)
    row_mask = (1 << row_bits) - 1
    picks = ((1 + (1 << (row_bits + width))) ** evens) * ((1 + (1 << row_bits)) ** odds)
    out = 0
    for k in range(room + 1):
        hand = hand_total - k
        w = direct._comb(left - k, hand)
        if drawn:
            if k:
                if k > slots:
                    break
                w *= FALL[slots][k]
            w *= direct._FACTORIALS[hand]
        if w:
            shift = row_bits * k
            out |= (((picks >> shift) & row_mask) * w) << shift
    return out


def walks_of(facts: Facts) -> list[Any]:
    """The direct or early walk that counts ``facts`` (run), or []."""
    made: list[Any] = []
    for module in (direct, direct_early):
        original = module._Walk.__init__

        def keep(self: Any, *args: Any, original: Any = original) -> None:
            original(self, *args)
            made.append(self)

        module._Walk.__init__ = keep  # type: ignore[method-assign]
        try:
            count = (direct.direct_count if module is direct else direct_early.early_count)(facts, "deals")
        finally:
            module._Walk.__init__ = original  # type: ignore[method-assign]
        if count is not None:
            return made[-1:]
        made.clear()
    return []


def test_the_packed_tables_equal_the_powers() -> None:
    """Every packed group table the direct and early counts make (TABLES, from PICKS) equals the
    table made from powers, on every 3rd position of both v2 sets (the memos cleared for each)."""
    checked = 0
    for state in states_of_sets(3):
        direct.clear_shared()
        if not walks_of(facts_from_state(state)):
            continue
        for key, table in direct.TABLES.items():
            width, n, evens, odds, left, hand_total, room, slots, drawn = key
            assert table == plain_table(width, n, evens, odds, left, hand_total, room, slots, bool(drawn))
            checked += 1
    assert checked > 1000


def test_a_stackless_position_s_cloud_is_hidden_then_capped() -> None:
    """hide_closed: the same dict (keys, order, weights of 0 kept) as hide() then the caps'
    filter, at every face-down position without a stack of every early walk of the sample, for
    every value's class, and for a face-up position the filter alone."""
    checked = 0
    for state in states_of_sets(5):
        facts = facts_from_state(state)
        walks = walks_of(facts)
        if not walks or not isinstance(walks[0], direct_early._Walk):
            continue
        (walk,) = walks
        cloud = {0: 1, walk.hide_key[5]: 3, walk.hide_key[20] + walk.hide_key[33]: 0, 2 | 1 << 5: 7}
        for i in range(1, walk.size):
            if walk.stacks[i]:
                continue
            for v in range(1, facts.last):
                if walk.group_of[v] < 0:
                    continue
                plain = {k: w for k, w in walk.hide(i, v, cloud).items() if walk.closes(k, i)}
                got = walk.hide_closed(i, v, cloud, True)
                assert list(got.items()) == list(plain.items())
                checked += 1
            plain = {k: w for k, w in cloud.items() if walk.closes(k, i)}
            assert list(walk.hide_closed(i, 0, cloud, False).items()) == list(plain.items())
    assert checked > 1000


@pytest.mark.parametrize("measure", ["deals", "worlds"])
def test_the_direct_counts_equal_the_programme(measure: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast paths (direct and early counts) give the programme's beliefs (general path):
    masses, every position's probabilities and the hideout probabilities equal as floats."""
    checked = 0
    for state in states_of_sets(4, 1):
        facts = facts_from_state(state)
        if walks_of(facts) == []:
            continue
        probabilities.clear_caches()
        fast = probabilities.belief(state, measure=measure)
        probabilities.clear_caches()
        monkeypatch.setattr(probabilities, "DIRECT_COUNT", False)
        general = probabilities.belief(state, measure=measure)
        monkeypatch.setattr(probabilities, "DIRECT_COUNT", True)
        assert fast == general
        checked += 1
    probabilities.clear_caches()
    assert checked > 250
