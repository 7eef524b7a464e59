"""The direct count of the simplest positions (gamelib.fugitive.belief.direct) against the programme
and against a brute-force enumeration, in both measures, under every option that changes what a
guess reveals."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest
from test_belief_brute_force import OPTIONS, enumerate_worlds, positions

import gamelib
from gamelib.fugitive.belief import build, clear_caches, direct, facts_from_state
from gamelib.fugitive.belief.build import backward
from gamelib.fugitive.belief.facts import Facts
from gamelib.fugitive.rules import FugitiveState

DATA = Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz"


def same_as_programme(facts: Facts, measure: str) -> bool | None:
    """None if the direct count does not take the position, else whether it equals the programme:
    the total and every face-down position's weights, the programme's over its ``n!`` orders."""
    counted = direct.direct_count(facts, measure)
    if counted is None:
        return None
    total, tallies = counted
    prog = build(facts, measure)
    backward(prog)
    assert prog.marginals is not None
    return (
        prog.total == total * prog.stacks
        and set(tallies) == set(prog.marginals)
        and all([c * prog.stacks for c in tallies[i]] == prog.marginals[i] for i in tallies)
    )


@pytest.fixture
def any_stack(monkeypatch: pytest.MonkeyPatch) -> None:
    """The direct count on every last stack, however large (its formula holds for any size)."""
    monkeypatch.setattr(direct, "MAX_STACK", 64)


@pytest.mark.usefixtures("any_stack")
def test_the_direct_count_equals_the_programme_on_the_shared_positions() -> None:
    with gzip.open(DATA, "rt") as handle:
        rows = [json.loads(line) for line in handle]
    taken = 0
    for row in rows:
        state = gamelib.from_record(row["record"])
        assert isinstance(state, FugitiveState)
        facts = facts_from_state(state)
        for measure in ("deals", "worlds"):
            same = same_as_programme(facts, measure)
            assert same is not False, (row["id"], measure)
            taken += same is True
    assert taken >= 200  # 130 of the 640 positions, both measures


@pytest.mark.usefixtures("any_stack")
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_the_direct_count_equals_the_programme_along_random_games(options: dict) -> None:
    game = gamelib.make("fugitive", options=options)
    taken = 0
    for seed in range(15):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            assert isinstance(state, FugitiveState)
            facts = facts_from_state(state)
            try:
                build(facts, "worlds")
            except ValueError:  # a doctored-looking moment the programme refuses (none expected)
                pass
            else:
                for measure in ("deals", "worlds"):
                    same = same_as_programme(facts, measure)
                    assert same is not False, (state.history, measure)
                    taken += same is True
            action = (
                state.sample_chance(rng) if state.current_player < 0 else rng.choice(state.legal_actions())
            )
            state.apply(action)
    assert taken >= 20


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_the_direct_count_equals_the_enumeration(options: dict) -> None:
    taken = 0
    for state in positions(options, seed=7 + len(str(options)), count=8):
        facts = facts_from_state(state)
        counted = [direct.direct_count(facts, measure) for measure in ("worlds", "deals")]
        if counted[0] is None or counted[1] is None:
            continue
        clear_caches()
        worlds, deals = enumerate_worlds(state)
        if facts.stuck_first_turn or facts.canonical_pending:  # the documented relaxations: a superset
            assert 0 < worlds <= counted[0][0] and deals <= counted[1][0]
        else:
            assert (counted[0][0], counted[1][0]) == (worlds, deals), state.history
        taken += 1
    assert taken >= 1


def test_the_belief_takes_the_direct_count_and_the_card_locations_still_come() -> None:
    """A position the direct count takes gives the programme's belief, world count and card
    locations (these build the programme on first use)."""
    with gzip.open(DATA, "rt") as handle:
        rows = [json.loads(line) for line in handle]
    for row in rows[:80]:
        state = gamelib.from_record(row["record"])
        assert isinstance(state, FugitiveState)
        facts = facts_from_state(state)
        if direct.direct_count(facts, "deals") is None:
            continue
        from gamelib.fugitive.belief import belief

        clear_caches()
        got = belief(state)
        assert (got.mass, got.worlds) == (row["deal_weighted_mass"], row["worlds"])
        prog = build(facts, "deals")
        backward(prog)
        assert prog.marginals is not None
        assert got.position_probs == {
            i: tuple(c / prog.total if c else 0.0 for c in counts) for i, counts in prog.marginals.items()
        }
        assert abs(sum(got.sprint_prob) + sum(got.hand_prob) + sum(got.deck_prob) + sum(got.hideout_prob)) > 0
