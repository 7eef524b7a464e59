"""The direct count of positions with face-down stacks before the last hideout
(gamelib.fugitive.belief.direct_early) against the programme and against a brute-force enumeration,
in both measures, under every option that changes what a guess reveals.  The size gate is opened
wide here (the formula holds for any size; the gate only chooses where it is faster)."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest
from test_belief_brute_force import OPTIONS, enumerate_worlds, positions

import gamelib
from gamelib.fugitive.belief import belief, build, clear_caches, direct_early, facts_from_state, probabilities
from gamelib.fugitive.belief.build import backward
from gamelib.fugitive.belief.facts import Facts
from gamelib.fugitive.rules import FugitiveState

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz"
AGENTS = ROOT / "benchmarks" / "data" / "fugitive_belief_agents_v2.jsonl.gz"
RANDOM = ROOT / "benchmarks" / "data" / "fugitive_belief_random_v2.jsonl.gz"


def same_as_programme(facts: Facts, measure: str) -> bool | None:
    """None if the early count does not take the position, else whether it equals the programme:
    the total and every face-down position's weights, the programme's over its stacks' orders."""
    counted = direct_early.early_count(facts, measure)
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
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """The early count on every position it can count, however large."""
    monkeypatch.setattr(direct_early, "EARLY_CARDS", 64)
    monkeypatch.setattr(direct_early, "EARLY_HIDDEN", 64)
    monkeypatch.setattr(direct_early, "EARLY_WORK", 20_000)


def rows_of(path: Path, every: int = 1) -> list[dict]:
    with gzip.open(path, "rt") as handle:
        return [json.loads(line) for n, line in enumerate(handle) if n % every == 0]


@pytest.mark.usefixtures("wide")
@pytest.mark.parametrize(("path", "every", "least"), [(SHARED, 1, 150), (AGENTS, 2, 150), (RANDOM, 4, 40)])
def test_the_early_count_equals_the_programme_on_stored_positions(path: Path, every: int, least: int) -> None:
    taken = 0
    for row in rows_of(path, every):
        state = gamelib.from_record(row["record"])
        assert isinstance(state, FugitiveState)
        facts = facts_from_state(state)
        for measure in ("deals", "worlds"):
            same = same_as_programme(facts, measure)
            assert same is not False, (row["id"], measure)
            taken += same is True
    assert taken >= least


@pytest.mark.usefixtures("wide")
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_the_early_count_equals_the_programme_along_random_games(options: dict) -> None:
    game = gamelib.make("fugitive", options=options)
    taken = 0
    for seed in range(12):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            assert isinstance(state, FugitiveState)
            facts = facts_from_state(state)
            for measure in ("deals", "worlds"):
                same = same_as_programme(facts, measure)
                assert same is not False, (state.history, measure)
                taken += same is True
            action = (
                state.sample_chance(rng) if state.current_player < 0 else rng.choice(state.legal_actions())
            )
            state.apply(action)
    assert taken >= 10


@pytest.mark.usefixtures("wide")
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_the_early_count_equals_the_enumeration(options: dict) -> None:
    taken = 0
    for state in positions(options, seed=11 + len(str(options)), count=12):
        facts = facts_from_state(state)
        counted = [direct_early.early_count(facts, measure) for measure in ("worlds", "deals")]
        if counted[0] is None or counted[1] is None:
            continue
        worlds, deals = enumerate_worlds(state)
        if facts.stuck_first_turn or facts.canonical_pending:  # the documented relaxations: a superset
            assert 0 < worlds <= counted[0][0] and deals <= counted[1][0]
        else:
            assert (counted[0][0], counted[1][0]) == (worlds, deals), state.history
        taken += 1
    assert taken >= 1


def test_the_belief_of_an_early_position_is_the_programmes(monkeypatch: pytest.MonkeyPatch) -> None:
    """belief() takes the early count on small positions (the gate as shipped) and gives the same
    belief, world count and card locations as with the direct counts off."""
    taken = 0
    for row in rows_of(AGENTS, 3):
        state = gamelib.from_record(row["record"])
        assert isinstance(state, FugitiveState)
        facts = facts_from_state(state)
        if direct_early.early_count(facts, "deals") is None:
            continue
        taken += 1
        clear_caches()
        got = belief(state)
        assert got.mass == row["deal_weighted_mass"] and got.worlds == row["worlds"]
        where = (got.sprint_prob, got.hand_prob, got.deck_prob)
        monkeypatch.setattr(probabilities, "DIRECT_COUNT", False)
        clear_caches()
        want = belief(state)
        monkeypatch.setattr(probabilities, "DIRECT_COUNT", True)
        assert got == want and got.worlds == want.worlds
        assert where == (want.sprint_prob, want.hand_prob, want.deck_prob)
    assert taken >= 20
