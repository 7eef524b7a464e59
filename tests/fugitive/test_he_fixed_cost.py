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


def test_pair_rows_give_the_product_s_last_row() -> None:
    """sum(map(mul, rows, reversed rows)) is the n-card row of the truncated product of two packed
    tables whose row k holds at most k even cards (every group table and pair product)."""
    width, n = 16, 5
    row_bits = width * (n + 1)
    keep = (1 << (row_bits * (n + 1))) - 1

    def table(seed: int) -> int:
        out = 0
        for k in range(n + 1):
            for e in range(k + 1):
                out += ((seed * (k + 3) * (e + 5)) % 97) << (row_bits * k + width * e)
        return out

    for a in range(1, 6):
        for b in range(1, 6):
            first, second = table(a), table(7 * b)
            whole = ((first * second) & keep) >> (row_bits * n)
            rows = direct.pair_rows(first, n, row_bits, False)
            others = direct.pair_rows(second, n, row_bits, True)
            assert isinstance(rows, list) and isinstance(others, list)
            assert sum(x * y for x, y in zip(rows, others, strict=True)) == whole
    assert direct.pair_rows(0, n, row_bits, True) == []


def plain_end_weights(walk: Any, tables: list[int]) -> tuple[int, ...]:
    """The last stack's weights by need as the code before: the four tables multiplied whole."""
    prod = 1
    for table in tables:
        prod = (prod * table) & walk.keep
    row = (prod >> walk.row_shift) & walk.row_mask
    out = [0] * (walk.n + 1)
    run = 0
    for e in range(walk.n, -1, -1):
        run += (row >> (walk.width * e)) & walk.digit
        out[e] = run
    return tuple(out)


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


def test_the_end_weights_equal_the_whole_products() -> None:
    """Every last-stack weight a direct or early count makes (kept in ENDS) equals the four group
    tables multiplied whole, on every 3rd position of both v2 sets."""
    checked = 0
    for state in states_of_sets(3):
        facts = facts_from_state(state)
        direct.clear_shared()
        walks = walks_of(facts)
        if not walks:
            continue
        (walk,) = walks
        for key, weights in direct.ENDS.items():
            if isinstance(walk, direct_early._Walk):
                tables = [walk.group_table(g, key[1]) for g in range(4)]
            else:
                u, h, he = key[1:5], key[5:9], key[9:13]
                tables = [walk.group_table(g, u[g], h[g], he[g]) for g in range(4)]
            assert weights == plain_end_weights(walk, tables)
            checked += 1
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
