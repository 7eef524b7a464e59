"""Card locations without a programme for the small positions with face-down stacks before the last
hideout (belief.direct_early_locations, what belief.direct_early counts): float for float the
programme's own pass (stored positions, random games under every option that changes what a guess
reveals, both measures), equal to the brute-force listing on small decks, and served by belief()
without building a programme.  The size gate is opened wide where said (the formula holds for any
size; the gate only chooses where it is faster)."""

from __future__ import annotations

import gzip
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from test_belief_brute_force import OPTIONS, positions
from test_belief_locations import enumerated_locations

import gamelib
from gamelib.fugitive.belief import belief, build, clear_caches, direct_early, facts_from_state, probabilities
from gamelib.fugitive.belief import direct_early_locations as early
from gamelib.fugitive.belief.direct_locations import direct_locations
from gamelib.fugitive.belief.facts import Facts
from gamelib.fugitive.belief.locations import Where, card_locations
from gamelib.fugitive.rules import FugitiveState

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz"
AGENTS = ROOT / "benchmarks" / "data" / "fugitive_belief_agents_v2.jsonl.gz"
RANDOM = ROOT / "benchmarks" / "data" / "fugitive_belief_random_v2.jsonl.gz"
MEASURES = ("deals", "worlds")


@pytest.fixture
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every position with a face-down stack before the last hideout, however large."""
    monkeypatch.setattr(direct_early, "EARLY_CARDS", 64)
    monkeypatch.setattr(direct_early, "EARLY_HIDDEN", 64)
    monkeypatch.setattr(early, "WORK", 20_000)


def rows_of(path: Path, every: int = 1) -> list[dict]:
    with gzip.open(path, "rt") as handle:
        return [json.loads(line) for n, line in enumerate(handle) if n % every == 0]


def programme_locations(facts: Facts, measure: str, hideout: tuple[float, ...]) -> Where:
    return card_locations(build(facts, measure), hideout)


def same_as_programme(state: FugitiveState, measure: str) -> bool | None:
    """None if the early card locations do not take the position, else whether they are the
    programme's floats."""
    facts = facts_from_state(state)
    if early.early_stacks(facts) is None:
        return None
    hideout = belief(state, measure=measure).hideout_prob
    got = early.early_locations(facts, measure, hideout)
    if got is None:
        return None
    return got == programme_locations(facts, measure, hideout)


@pytest.mark.usefixtures("wide")
@pytest.mark.parametrize(("path", "every", "least"), [(SHARED, 3, 40), (AGENTS, 4, 40), (RANDOM, 15, 6)])
def test_early_locations_are_the_programmes_on_stored_positions(path: Path, every: int, least: int) -> None:
    taken = 0
    for row in rows_of(path, every):
        state = gamelib.from_record(row["record"])
        assert isinstance(state, FugitiveState)
        for measure in MEASURES:
            same = same_as_programme(state, measure)
            assert same is not False, (row["id"], measure)
            taken += same is True
    assert taken >= least


@pytest.mark.usefixtures("wide")
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_early_locations_are_the_programmes_along_random_games(options: dict) -> None:
    game = gamelib.make("fugitive", options=options)
    taken = 0
    for seed in range(8):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            assert isinstance(state, FugitiveState)
            if state.current_player >= 0 and belief(state).exact:
                for measure in MEASURES:
                    same = same_as_programme(state, measure)
                    assert same is not False, (state.history, measure)
                    taken += same is True
            action = (
                state.sample_chance(rng) if state.current_player < 0 else rng.choice(state.legal_actions())
            )
            state.apply(action)
    assert taken >= 4


@pytest.mark.usefixtures("wide")
@pytest.mark.parametrize("measure", MEASURES)
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_early_locations_equal_the_enumeration(options: dict, measure: str) -> None:
    taken = 0
    for state in positions(options, seed=1300 + len(str(options)), count=40):
        clear_caches()
        b = belief(state, measure=measure)
        facts = facts_from_state(state)
        if not b.exact or early.early_stacks(facts) is None:
            continue
        got = early.early_locations(facts, measure, b.hideout_prob)
        assert got is not None
        taken += 1
        total, places = enumerated_locations(state, measure)
        for name, probs in zip(("sprint", "hand", "deck"), got, strict=True):
            for v in range(1, state.last):
                expected = float(Fraction(places[name][v], total))
                assert probs[v] == pytest.approx(expected, abs=1e-12), (name, v, measure, state.history)
    assert taken >= 1


def test_belief_serves_early_locations_without_a_programme(monkeypatch: pytest.MonkeyPatch) -> None:
    """belief() counts a small early position directly; its card locations then come from this
    module (the gate as shipped), the programme's floats, and no programme is built for them."""
    taken = 0
    for row in rows_of(AGENTS, 2):
        state = gamelib.from_record(row["record"])
        assert isinstance(state, FugitiveState)
        facts = facts_from_state(state)
        if direct_early.early_count(facts, "deals") is None:
            continue
        clear_caches()
        got = belief(state)
        hideout = got.hideout_prob
        want = programme_locations(facts, "deals", hideout)
        with monkeypatch.context() as patch:
            patch.setattr(probabilities, "build", _no_programme)
            where = (got.sprint_prob, got.hand_prob, got.deck_prob)
        assert where == want, row["id"]
        taken += 1
    assert taken >= 25


def _no_programme(*args: object, **kwargs: object) -> None:
    raise AssertionError("a programme was built for the card locations of a directly counted position")


def test_direct_locations_hands_early_positions_over() -> None:
    """direct_locations answers for an early position what early_locations answers (None past the
    gate: the caller builds the programme)."""
    early_seen = 0
    for row in rows_of(SHARED, 2):
        facts = facts_from_state(gamelib.from_record(row["record"]))
        if early.early_stacks(facts) is None:
            continue
        hideout = belief(gamelib.from_record(row["record"])).hideout_prob
        assert direct_locations(facts, "deals", hideout) == early.early_locations(facts, "deals", hideout)
        early_seen += 1
    assert early_seen >= 20
