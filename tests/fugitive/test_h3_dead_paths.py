"""The early direct count (gamelib.fugitive.belief.direct_early) on positions where some hideout
paths die for want of a value: a path whose next position has no value left in reach (every value
of its range taken, missed or out of step) is done, and its part of the walk counts as done.  The
walk used to leave that part out of its progress, so its work over the part done looked unbounded
and it gave up on small positions (work 10-40 units), sending them to the programme at 1.5-3x the
cost."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import gamelib
from gamelib.fugitive.belief import build, direct_early, facts_from_state
from gamelib.fugitive.belief.build import backward
from gamelib.fugitive.rules import FugitiveState

RANDOM = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "fugitive_belief_random_v2.jsonl.gz"
IDS = ("random-120", "random-356", "random-479", "random-971", "random-801", "random-199")
"""Small random-play positions (reference under 0.01 ms, one to three face-down hideouts) whose
early walk gave up at 15-30 units of work."""


def test_an_early_walk_with_dead_paths_counts_its_position() -> None:
    with gzip.open(RANDOM, "rt") as handle:
        rows = {row["id"]: row for row in map(json.loads, handle) if row["id"] in IDS}
    assert set(rows) == set(IDS)
    for ident in IDS:
        state = gamelib.from_record(rows[ident]["record"])
        assert isinstance(state, FugitiveState)
        facts = facts_from_state(state)
        for measure in ("deals", "worlds"):
            counted = direct_early.early_count(facts, measure)
            assert counted is not None, (ident, measure)
            total, tallies = counted
            prog = build(facts, measure)
            backward(prog)
            assert prog.marginals is not None
            assert prog.total == total * prog.stacks, (ident, measure)
            assert set(tallies) == set(prog.marginals)
            for i, weights in tallies.items():
                assert [c * prog.stacks for c in weights] == prog.marginals[i], (ident, measure, i)
        assert total == rows[ident]["worlds"]
