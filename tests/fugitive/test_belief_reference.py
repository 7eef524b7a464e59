"""The exact belief against an independent C++ count on 640 reference positions.

``tests/fugitive/data/fugitive_belief_positions.jsonl.gz`` (a copy of shared/bench/) holds detective decisions from agent and
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
from gamelib.fugitive.rules import FugitiveState

REFERENCE = Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz"
"""A copy of the project's shared reference file (shared/bench/, see its README), kept with the tests
so that they never depend on where the shared folder lies."""


def fugitive_state(record: dict) -> FugitiveState:
    state = gamelib.from_record(record)
    assert isinstance(state, FugitiveState)
    return state


def rows() -> list[dict]:
    with gzip.open(REFERENCE, "rt") as handle:
        return [json.loads(line) for line in handle]


@pytest.mark.slow
def test_counts_and_deal_mass_match_the_reference_on_every_position() -> None:
    wrong = []
    for row in rows():
        state = fugitive_state(row["record"])
        facts = belief_module.facts_from_state(state)
        worlds = belief_module.build(facts, "worlds").mass
        deals = belief_module.build(facts, "deals").mass
        if (worlds, deals) != (row["worlds"], row["deal_weighted_mass"]):
            wrong.append((row["id"], worlds, row["worlds"], deals, row["deal_weighted_mass"]))
    assert not wrong, wrong[:5]


def test_a_few_reference_positions_through_the_public_api() -> None:
    sample = [row for row in rows() if row["reference_ms"] < 0.05][:20]
    for row in sample:
        state = fugitive_state(row["record"])
        belief_module.clear_caches()
        deals = belief_module.belief(state)
        assert deals.measure == "deals" and deals.mass == row["deal_weighted_mass"]
        assert deals.worlds == row["worlds"]
        assert belief_module.belief(state, measure="worlds").mass == row["worlds"]


def marginals_by_fixing(state: FugitiveState, measure: str) -> dict[int, dict[int, int]]:
    """Per face-down position, the mass of each value counted by a forward pass with it fixed."""
    facts = belief_module.facts_from_state(state)
    full = belief_module.build(facts, measure)
    out: dict[int, dict[int, int]] = {}
    for i in range(1, facts.size + 1):
        if full.hidden[i]:
            out[i] = {v: belief_module.build(facts, measure, fixed={i: v}).mass for v in full.values[i]}
    return out


def assert_marginals_by_fixing(row: dict, measure: str) -> None:
    state = fugitive_state(row["record"])
    belief_module.clear_caches()
    got = belief_module.belief(state, measure=measure)
    expected = marginals_by_fixing(state, measure)
    assert set(got.position_probs) == set(expected)
    for i, counts in expected.items():
        assert sum(counts.values()) == got.mass
        for v in range(43):
            assert got.position_probs[i][v] == pytest.approx(counts.get(v, 0) / got.mass, abs=1e-12), (
                row["id"],
                i,
                v,
            )


@pytest.mark.parametrize("measure", ["deals", "worlds"])
def test_position_probabilities_equal_counts_with_the_value_fixed(measure: str) -> None:
    """The backward pass against forward counts with one hideout fixed (each exact on the file).

    The signed footprint identity lets a state's weight cancel to 0 while one value's paths
    through it do not: such states must stay in the programme (random-183 lost them once).
    """
    sample = [row for row in rows() if row["reference_ms"] < 0.5][::25]
    sample += [row for row in rows() if row["id"] in ("agents-148", "random-218")]
    for row in sample:
        assert_marginals_by_fixing(row, measure)


@pytest.mark.slow
def test_position_probabilities_equal_counts_with_the_value_fixed_on_many_positions() -> None:
    for row in rows()[::7]:
        if row["reference_ms"] < 20:
            assert_marginals_by_fixing(row, "deals")


def test_polynomials_shared_between_positions_never_mix_them_up() -> None:
    """The last stack's polynomials are shared between programmes (weights.POLYS, keyed by each
    group's context): counted in one order, then in the reverse order after forgetting them, the
    positions with a face-down last stack keep the reference counts, both measures, and the memo
    serves some of the polynomials from another position."""
    from gamelib.fugitive.belief import weights

    cases = []
    for row in rows()[::3]:
        facts = belief_module.facts_from_state(fugitive_state(row["record"]))
        if row["reference_ms"] < 5 and facts.sprint_counts[-1] > len(facts.known_sprints[-1]):
            cases.append((facts, (row["worlds"], row["deal_weighted_mass"])))
    assert len(cases) >= 30, "too few positions with a face-down last stack"
    for order in (cases, cases[::-1]):
        weights.clear_shared()
        calls = 0
        for facts, expected in order:
            got = []
            for measure in ("worlds", "deals"):
                prog = belief_module.build(facts, measure)
                calls += len(prog.polys) + len(prog.polys0)
                got.append(prog.mass)
            assert tuple(got) == expected
        shared = weights.shared_sizes()
        assert 0 < shared["polys"] + shared["polys0"] < calls, "no polynomial was shared"
    weights.clear_shared()


def test_kept_programmes_memos_are_not_tracked_by_the_collector() -> None:
    """A counted programme's memos hold tuples of ints (and dicts of them), which the collector
    stops tracking: the programmes a cache keeps must not lengthen its full collections."""
    import gc

    row = next(row for row in rows() if 1 < row["reference_ms"] < 20)
    prog = belief_module.build(belief_module.facts_from_state(fugitive_state(row["record"])), "deals")
    belief_module.backward(prog)
    gc.collect()  # a tuple is untracked once its items are: the outer ones on the next pass
    gc.collect()
    memos = (prog.weights_memo, prog.mark_vectors, prog.halves, prog.polys, prog.halves0, prog.polys0)
    memos += (prog.even_vectors, prog.even_halves, prog.even_polys, prog.closed_memo, prog.part_memo)
    assert any(memos)
    tracked = [value for memo in memos for value in memo.values() if gc.is_tracked(value)]
    assert not tracked, tracked[:3]
    assert not any(gc.is_tracked(layer) for layer in prog.forward + prog.back)
