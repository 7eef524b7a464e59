"""The fixed cost of the belief on easy positions (issue 24, goal 1): the probabilities assembled
from the weights in one pass over the numbers that have weight, the direct counts' last-stack
weights as a product of two memoised pairs of group tables, an early stack's shares paired by
groups (2-3 by cards first).  Each gives the same integers and floats as before."""

from __future__ import annotations

import gzip
import json
from itertools import product
from pathlib import Path
from typing import Any

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


def test_the_end_weights_multiply_two_shared_pairs() -> None:
    """The direct and early counts make each last-stack weight from two pair products kept per
    walk (the values of a class change one group only): fewer pairs than weights on the sample,
    and the counts equal those made with every memo cleared first."""
    weights = pairs = taken = 0
    for facts in facts_of_sets(5):
        for module in (direct, direct_early):
            made: list[Any] = []
            original = module._Walk.__init__

            def keep(self: Any, *args: Any, original: Any = original, made: list[Any] = made) -> None:
                original(self, *args)
                made.append(self)

            module._Walk.__init__ = keep  # type: ignore[method-assign]
            try:
                direct.clear_shared()  # every end weight made by this walk
                count = (direct.direct_count if module is direct else direct_early.early_count)(
                    facts, "deals"
                )
            finally:
                module._Walk.__init__ = original  # type: ignore[method-assign]
            if count is None or not made:
                continue
            taken += 1
            walk = made[-1]
            weights += len(direct.ENDS)
            pairs += len(walk.low_pairs) + len(walk.high_pairs)
            direct.clear_shared()
            again = (direct.direct_count if module is direct else direct_early.early_count)(facts, "deals")
            assert again == count
    assert taken >= 150
    assert pairs < 2 * weights


def test_an_early_stack_s_shares_are_every_combination_of_the_groups() -> None:
    """_shares (groups 2-3 paired by cards, memoised on their counts): the same moves as every
    combination of the four groups' shares whose cards fill the stack."""
    checked = 0
    for facts in facts_of_sets(3):
        size = facts.size
        stacks = [0] + [facts.sprint_counts[i] - len(facts.known_sprints[i]) for i in range(1, size + 1)]
        if not any(stacks[:size]) or facts.pending or not direct_early.takes(facts, stacks):
            continue
        if any(min(cap) < 0 for cap in facts.caps) or any(
            stacks[i] and facts.known[i] >= 0 for i in range(size + 1)
        ):
            continue
        walk = direct_early._Walk(facts, "deals", stacks)
        i = next(j for j in range(1, size) if stacks[j])
        for key in (0, direct_early._hide_keys(facts.tables.group_of)[5]):
            got = walk._shares(i, key)
            groups = [walk._group_shares(i, g, key) for g in range(4)]
            want = [
                (
                    sum(s[3] for s in combo),
                    combo[0][2] * combo[1][2] * combo[2][2] * combo[3][2],
                    sum(s[1] for s in combo),
                )
                for combo in product(*groups)
                if sum(s[0] for s in combo) == stacks[i]
            ]
            assert sorted(got) == sorted(want)
            checked += 1
    assert checked >= 100
