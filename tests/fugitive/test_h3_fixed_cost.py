"""The fixed cost of the belief on easy positions (issue 24, goal 1): the probabilities assembled
from the weights in one pass over the numbers that have weight.  The same floats as before."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import gamelib
from gamelib.fugitive.belief import direct, direct_early, facts_from_state
from gamelib.fugitive.belief.facts import Facts
from gamelib.fugitive.belief.probabilities import probabilities_of
from gamelib.fugitive.rules import FugitiveState

BENCH = Path(__file__).parents[2] / "benchmarks" / "data"
SETS = (BENCH / "fugitive_belief_agents_v2.jsonl.gz", BENCH / "fugitive_belief_random_v2.jsonl.gz")


def facts_of_sets(every: int) -> list[Facts]:
    out = []
    for path in SETS:
        with gzip.open(path, "rt") as handle:
            rows = [json.loads(line) for line in handle][::every]
        for row in rows:
            state = gamelib.from_record(row["record"])
            assert isinstance(state, FugitiveState)
            out.append(facts_from_state(state))
    return out


def plain(
    marginals: dict[int, list[int]], total: int
) -> tuple[dict[int, tuple[float, ...]], tuple[float, ...]]:
    """Every weight divided, and the positions' weights summed per number then divided."""
    probs = {i: tuple(c / total for c in counts) for i, counts in marginals.items()}
    sums = [sum(counts[v] for counts in marginals.values()) for v in range(43)]
    return probs, tuple(s / total for s in sums)


def test_the_probabilities_are_each_weight_divided() -> None:
    """probabilities_of: the same floats as dividing every weight and every sum, on direct and
    early counts (one face-down hideout or several) and on made-up weights."""
    seen = set()
    for facts in facts_of_sets(7):
        counted = direct.direct_count(facts, "deals") or direct_early.early_count(facts, "deals")
        if counted is None:
            continue
        total, tallies = counted
        seen.add(min(len(tallies), 3))
        assert probabilities_of(tallies, total) == plain(tallies, total)
    assert seen == {1, 2, 3}
    made = {1: [0] * 43, 4: [0] * 43}
    made[1][5], made[1][7], made[4][7], made[4][42] = 3, 10**30 + 1, 2, 1
    total = sum(map(sum, made.values()))
    assert probabilities_of(made, total) == plain(made, total)
    assert probabilities_of({}, 7) == ({}, (0.0,) * 43)
