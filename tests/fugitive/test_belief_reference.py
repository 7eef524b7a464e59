"""The exact belief against an independent C++ count on 640 reference positions.

``/work/shared/bench/fugitive_belief_positions.jsonl.gz`` holds detective decisions from agent and
random play with the world count (each world once) and the deal-weighted mass (each world weighed
by the deal orders that produce it) of smsxgz/fugitive ``belief.cc``: both measures must agree
exactly (the deal mass uses the same normalisation: injective assignments of the fugitive's deck
cards to its draw slots, hand cards included).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

import gamelib
from gamelib.fugitive import belief as belief_module

REFERENCE = Path("/work/shared/bench/fugitive_belief_positions.jsonl.gz")

pytestmark = pytest.mark.skipif(not REFERENCE.exists(), reason="reference positions not available")


def rows() -> list[dict]:
    with gzip.open(REFERENCE, "rt") as handle:
        return [json.loads(line) for line in handle]


@pytest.mark.slow
def test_counts_and_deal_mass_match_the_reference_on_every_position() -> None:
    wrong = []
    for row in rows():
        state = gamelib.from_record(row["record"])
        facts = belief_module._facts_from_state(state)
        worlds = belief_module._build(facts, "worlds").mass
        deals = belief_module._build(facts, "deals").mass
        if (worlds, deals) != (row["worlds"], row["deal_weighted_mass"]):
            wrong.append((row["id"], worlds, row["worlds"], deals, row["deal_weighted_mass"]))
    assert not wrong, wrong[:5]


def test_a_few_reference_positions_through_the_public_api() -> None:
    sample = [row for row in rows() if row["reference_ms"] < 0.05][:20]
    for row in sample:
        state = gamelib.from_record(row["record"])
        belief_module.clear_caches()
        deals = belief_module.belief(state)
        assert deals.measure == "deals" and deals.mass == row["deal_weighted_mass"]
        assert deals.worlds == row["worlds"]
        assert belief_module.belief(state, measure="worlds").mass == row["worlds"]
