"""Card locations without a programme (belief.direct_locations) for the positions whose only
face-down stack is the last one: equal to the brute-force listing on small decks under every option
that changes what a guess reveals, and float for float to the programme's own pass on the stored
positions; None (the caller builds the programme) for any other position."""

from __future__ import annotations

import gzip
import json
from fractions import Fraction
from pathlib import Path

import pytest
from test_belief_brute_force import OPTIONS, positions
from test_belief_locations import enumerated_locations

import gamelib
from gamelib.fugitive.belief import belief, build, clear_caches, facts_from_state
from gamelib.fugitive.belief.direct_early_locations import early_stacks
from gamelib.fugitive.belief.direct_locations import direct_locations, last_stack
from gamelib.fugitive.belief.locations import card_locations
from gamelib.fugitive.rules import FugitiveState

DATA = Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz"


def programme_locations(state: FugitiveState, measure: str) -> tuple[tuple[float, ...], ...]:
    facts = facts_from_state(state)
    hideout = belief(state, measure=measure).hideout_prob
    return card_locations(build(facts, measure), hideout)


@pytest.mark.parametrize("measure", ["deals", "worlds"])
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_direct_locations_equal_the_enumeration(options: dict, measure: str) -> None:
    taken = with_stack = 0
    for state in positions(options, seed=700 + len(str(options)), count=30):
        clear_caches()
        b = belief(state, measure=measure)
        if not b.exact:
            continue
        facts = facts_from_state(state)
        got = direct_locations(facts, measure, b.hideout_prob)
        if got is None:
            assert last_stack(facts) is None
            continue
        taken += 1
        with_stack += bool(last_stack(facts))
        total, places = enumerated_locations(state, measure)
        for name, probs in zip(("sprint", "hand", "deck"), got, strict=True):
            for v in range(1, state.last):
                expected = float(Fraction(places[name][v], total))
                assert probs[v] == pytest.approx(expected, abs=1e-12), (name, v, measure, state.history)
    assert taken >= 2
    assert with_stack >= 1, "no position with a face-down last stack: the stack's counts went untested"


def test_direct_locations_are_the_programmes_on_stored_positions() -> None:
    """Exact integers until one division: the very floats of the programme's pass, both measures."""
    taken = stacked = 0
    with gzip.open(DATA, "rt") as handle:
        rows = [json.loads(line) for line in handle]
    for row in rows[::3]:
        state = gamelib.from_record(row["record"])
        assert isinstance(state, FugitiveState)
        facts = facts_from_state(state)
        for measure in ("deals", "worlds"):
            got = direct_locations(facts, measure, belief(state, measure=measure).hideout_prob)
            if got is None:
                assert last_stack(facts) is None or facts.pending
                continue
            assert got == programme_locations(state, measure), row["id"]
            taken += 1
            stacked += bool(last_stack(facts))
    assert taken >= 60
    assert stacked >= 20


def test_other_positions_are_left_to_the_programme() -> None:
    """A face-down stack under an earlier hideout beyond direct_early_locations' gate, or a
    fugitive mid-turn: None."""
    earlier = 0
    with gzip.open(DATA, "rt") as handle:
        rows = [json.loads(line) for line in handle]
    for row in rows:
        facts = facts_from_state(gamelib.from_record(row["record"]))
        stacks = [facts.sprint_counts[i] - len(facts.known_sprints[i]) for i in range(1, facts.size + 1)]
        if (any(stacks[:-1]) and early_stacks(facts) is None) or facts.pending:
            assert direct_locations(facts, "deals", (0.0,) * 43) is None
            earlier += any(stacks[:-1])
    assert earlier >= 10
