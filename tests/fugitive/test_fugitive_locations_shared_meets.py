"""The last stack's meets shared between final states whose halves have equal rows (on positions
with many final states: :data:`~gamelib.fugitive.belief.marginals_shares.SHARED_MEETS`) give the
same card locations as meeting every final state's halves, and as the brute-force listing."""

from __future__ import annotations

import random

import pytest
from fugitive_positions import random_position
from test_belief_brute_force import OPTIONS, positions
from test_belief_locations import assert_locations_equal_the_listing

from gamelib.fugitive.belief import belief, clear_caches, marginals_shares
from gamelib.fugitive.rules import SETUP


@pytest.mark.parametrize("options", OPTIONS[:4], ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_shared_meets_equal_the_enumeration(options: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(marginals_shares, "SHARED_MEETS", 0)
    for state in positions(options, seed=900 + len(str(options)), count=4):
        if belief(state).exact:
            assert_locations_equal_the_listing(state, "deals")


def test_shared_meets_equal_separate_meets(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(41)
    compared = 0
    for seed in range(40):
        state = random_position(seed, rng.randrange(30, 110), **({"edition": 2} if seed % 2 else {}))
        if state.phase == SETUP:
            continue
        where = []
        for threshold in (0, 10**9):
            monkeypatch.setattr(marginals_shares, "SHARED_MEETS", threshold)
            clear_caches()
            got = belief(state)
            where.append((got.sprint_prob, got.hand_prob, got.deck_prob))
        assert where[0] == where[1]
        compared += any(0 < p < 1 for p in where[0][0])
        if compared == 8:
            break
    assert compared >= 4
