"""The belief's hardest positions: what makes them cheaper keeps the counts exact.

* ``build(count_only=True)`` (the total alone: no edges kept, the last layer summed by need without
  the values' tallies) gives the same total as the full count, under both measures;
* the stack's group moves skip allocations the later groups cannot complete (room under the free
  draws, marks their even cards can bring): the counts stay the reference's (also checked on every
  shared position by test_belief_reference.py) and the hideout probabilities stay those of counts
  with the value fixed;
* the last layer's final weights are read from convolutions shared by halves whose rows differ by
  a factor: equal to the final weights computed one state at a time.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

import gamelib
from gamelib.fugitive import belief as belief_module
from gamelib.fugitive.belief.bits import KEEP, NEED, VALUE_READS
from gamelib.fugitive.belief.build import backward, build
from gamelib.fugitive.rules import FugitiveState

DATA = Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz"


def rows() -> list[dict]:
    with gzip.open(DATA, "rt") as handle:
        return [json.loads(line) for line in handle]


def facts_of(row: dict) -> belief_module.Facts:
    state = gamelib.from_record(row["record"])
    assert isinstance(state, FugitiveState)
    return belief_module.facts_from_state(state)


def hardest(count: int) -> list[dict]:
    """The shared positions with the most face-down sprint cards (the largest programmes)."""
    return sorted(rows(), key=lambda row: -row.get("hidden_sprint_cards", 0))[:count]


@pytest.mark.parametrize("measure", ["deals", "worlds"])
def test_count_only_gives_the_full_count(measure: str) -> None:
    for row in hardest(12) + rows()[::40]:
        facts = facts_of(row)
        full = build(facts, measure)
        alone = build(facts, measure, count_only=True)
        assert alone.total == full.total
        assert alone.edges == full.edges
        expected = row["deal_weighted_mass"] if measure == "deals" else row["worlds"]
        assert alone.mass == expected, row["id"]


def test_count_only_has_no_backward_pass() -> None:
    prog = build(facts_of(hardest(1)[0]), "deals", count_only=True)
    assert prog.saved is None
    with pytest.raises(ValueError):
        backward(prog)


def test_last_layer_weights_equal_one_state_at_a_time() -> None:
    """The suffix sums the last layer reads (shared between halves' rows met up to a factor) equal
    each final state's weight computed alone (``final_weight``, by marks), need by need."""
    checked = 0
    for row in hardest(6):
        facts = facts_of(row)
        prog = build(facts, "worlds")
        if not prog.folded:
            continue
        fresh = build(facts, "worlds")  # a programme whose memos hold no shared suffix sums yet
        i = prog.npos
        states = prog.forward[-2]
        for src in list(states)[:200]:
            for inc, top, _ in prog._tail_moves(i, src & VALUE_READS):
                key = (src & KEEP) + inc
                fins = prog._fins_by_need(key, top)
                for need in range(top + 1):
                    alone = fresh.final_weight(key | need << NEED)
                    assert (fins[need] if need < len(fins) else 0) == alone
                    checked += 1
    assert checked > 100
