"""The card-location share sums packed at the narrower width (divided by the stacks' orders) give
the very sums of the full width, and the full-width fallback is never needed: under every rule
option of the brute-force tests, mid-turn, and on random positions of the published deck."""

from __future__ import annotations

import random

import pytest
from fugitive_positions import random_position
from test_belief_brute_force import OPTIONS, positions

from gamelib.fugitive.belief import build, facts_from_state, marginals
from gamelib.fugitive.belief.marginals import ClassShares
from gamelib.fugitive.rules import SETUP, FugitiveState, cards_of


def assert_narrow_equals_full(state: FugitiveState, measure: str) -> bool:
    """Both widths on one position's count; True if its stacks' orders divide anything."""
    facts = facts_from_state(state)
    prog = build(facts, measure)
    if not prog.total:
        return False
    narrow = marginals.class_shares(prog)
    full = marginals._class_shares(prog, 1)
    assert full is not None
    assert narrow.total * prog.stacks == full.total == prog.total
    for v in cards_of(facts.unknown):
        klass = facts.tables.class_of[v]
        wide = full.where(v, klass)
        assert tuple(x * prog.stacks for x in narrow.where(v, klass)) == wide, (v, measure)
    return prog.stacks > 1


def test_no_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    """class_shares never reruns at full width (a sum not a multiple of the stacks' orders)."""
    real = marginals._class_shares
    divisors: list[int] = []

    def recording(prog, divisor):  # type: ignore[no-untyped-def]
        divisors.append(divisor)
        return real(prog, divisor)

    monkeypatch.setattr(marginals, "_class_shares", recording)
    rng = random.Random(11)
    for seed in range(30):
        state = random_position(seed, rng.randrange(20, 90))
        if state.phase == SETUP:
            continue
        divisors.clear()
        shares = marginals.class_shares(build(facts_from_state(state), "deals"))
        assert isinstance(shares, ClassShares)
        assert len(divisors) == 1, divisors


@pytest.mark.parametrize("measure", ["deals", "worlds"])
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_narrow_width_equals_full_width(options: dict, measure: str) -> None:
    divided = 0
    for state in positions(options, seed=700 + len(str(options)), count=6):
        divided += assert_narrow_equals_full(state, measure)
    assert divided >= 1, "no position with face-down sprint cards: the divisor went untested"


def test_narrow_width_mid_turn() -> None:
    found = 0
    for seed in range(400):
        state = random_position(seed, random.Random(seed).randrange(10, 40), escape_card=11)
        if state.phase != 3 or not state.sprints[-1]:  # F_SPRINT with a card already laid
            continue
        for measure in ("deals", "worlds"):
            assert_narrow_equals_full(state, measure)
        found += 1
        if found == 3:
            break
    assert found >= 2


def test_narrow_width_published_deck() -> None:
    rng = random.Random(23)
    divided = 0
    for seed in range(40):
        state = random_position(seed, rng.randrange(30, 110), **({"edition": 2} if seed % 2 else {}))
        if state.phase == SETUP:
            continue
        divided += assert_narrow_equals_full(state, "deals")
        if divided == 8:
            break
    assert divided >= 4
