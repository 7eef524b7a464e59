"""The cheaper fixed cost of the belief (session H3): the facts built without the frozen
dataclass's __init__, the one-pass reachable values and holdings, the direct counts' shared
last-stack weights (direct.ENDS), each checked against a plain reference on stored positions."""

from __future__ import annotations

import dataclasses
import gzip
import json
import random
from pathlib import Path

import pytest
from fugitive_positions import random_position

import gamelib
from gamelib.fugitive.belief import belief, clear_caches, direct, direct_early, facts_from_state
from gamelib.fugitive.belief.facts import (
    Facts,
    _holdings,
    facts_from_observation,
    reachable_values,
    spread_up,
)
from gamelib.fugitive.belief.tables import tables_for
from gamelib.fugitive.rules import DEALING, DETECTIVE, FUGITIVE, SETUP, STEP_LIMIT, Deal, FugitiveState

DATA = Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz"
AGENTS = Path(__file__).parents[2] / "benchmarks" / "data" / "fugitive_belief_agents_v2.jsonl.gz"


def states_of(path: Path, every: int = 1) -> list[FugitiveState]:
    with gzip.open(path, "rt") as handle:
        rows = [json.loads(line) for n, line in enumerate(handle) if n % every == 0]
    states = [gamelib.from_record(row["record"]) for row in rows]
    assert all(isinstance(s, FugitiveState) for s in states)
    return states  # type: ignore[return-value]


def plain_reach(facts: Facts) -> list[int]:
    """The reachable values as first written: per position its allowed values and span."""
    reach = [1] + [0] * facts.size
    for i in range(1, facts.size + 1):
        known, shown = facts.known[i], facts.known_sprints[i]
        allowed = 1 << known if known >= 0 else facts.unknown & ~facts.forbidden[i]
        span = STEP_LIMIT + sum(2 - c % 2 for c in shown) + 2 * (facts.sprint_counts[i] - len(shown))
        if facts.pending and i == facts.size:
            span = facts.last
        reach[i] = spread_up(reach[i - 1], span) & allowed
    return reach


def plain_holdings(state: FugitiveState) -> tuple[list[tuple[int, int, int]], tuple[int, int, int]]:
    """Per position the fugitive's deck cards usable there, and per deck his unknown cards: every
    draw and face-up card counted one by one."""
    size = len(state.hideouts) - 1
    group_of = tables_for(state.layout.last).group_of
    done = len(state.layout.setup_deals)
    if state.phase == SETUP:
        done = sum(1 for a in state.history if isinstance(a, Deal))
    log = list(state.draw_log)[: -1 if state.phase == DEALING and state.draw_log else None]

    def drawn_before(i: int, d: int) -> int:
        setup = sum(1 for x in state.layout.setup_deals[:done] if x == d)
        return setup + sum(1 for p, deck, at in log if p == FUGITIVE and deck == d and at + 1 <= i)

    def used_to(i: int, d: int) -> int:
        cards = [state.hideouts[j] for j in range(1, i + 1) if state.revealed[j]]
        cards += [c for j in range(1, i + 1) if state.sprints_shown(j) for c in state.sprints[j]]
        return sum(1 for c in cards if group_of[c] == d + 1)

    caps = [(0, 0, 0)] + [
        tuple(drawn_before(i, d) - used_to(i, d) for d in range(3)) for i in range(1, size + 1)
    ]
    hand = tuple(drawn_before(size + 1, d) - used_to(size, d) for d in range(3))
    return caps, hand  # type: ignore[return-value]


def mixed_states() -> list[FugitiveState]:
    """Stored positions, and every position of random games on a small deck with the escape
    card's sprints hidden (mid-turn positions, sprints under face-up hideouts)."""
    states = states_of(DATA, 2) + states_of(AGENTS, 3)
    game = gamelib.make("fugitive", options={"escape_card": 21, "escape_sprints": "hidden"})
    for seed in range(4):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            assert isinstance(state, FugitiveState)
            states.append(state.clone())
            state.apply(
                state.sample_chance(rng) if state.current_player < 0 else rng.choice(state.legal_actions())
            )
    for seed in range(60):  # mid-turn with the escape card laid face up (its sprints shown)
        states.append(random_position(seed, random.Random(seed).randrange(10, 40), escape_card=11))
    return states


def test_the_facts_equal_those_built_field_by_field() -> None:
    for state in mixed_states():
        facts = facts_from_state(state)
        again = dataclasses.replace(facts)  # through the dataclass's own __init__
        assert facts == again and vars(facts) == vars(again)
        assert hash(facts) == hash(again)
        with pytest.raises(dataclasses.FrozenInstanceError):
            facts.unknown = 0  # type: ignore[misc]
        edition = state.game.options.edition
        seen = state.information_state(DETECTIVE)
        assert facts == facts_from_observation(seen.observation, edition, state.canonical, seen.history)


def test_the_reach_and_the_holdings_equal_their_plain_versions() -> None:
    for state in mixed_states():
        facts = facts_from_state(state)
        assert reachable_values(facts) == plain_reach(facts)
        hideouts = [h if r else -1 for h, r in zip(state.hideouts, state.revealed, strict=True)]
        ups = [s if state.sprints_shown(i) else () for i, s in enumerate(state.sprints)]
        done = sum(1 for a in state.history if isinstance(a, Deal)) if state.phase == SETUP else None
        got = _holdings(hideouts, ups, state.draw_log, state.phase, [], state.layout, done)
        assert got == plain_holdings(state), state.history
        assert (list(facts.caps), facts.hand_unknown) == got


def test_the_shared_end_weights_change_no_count() -> None:
    """The direct counts with their shared last-stack weights kept from earlier positions (and
    started again past ENDS_KEPT) equal the counts made afresh, with every memo cleared."""
    states = states_of(AGENTS, 2)
    kept: list[object] = []
    clear_caches()
    old = direct.ENDS_KEPT
    direct.ENDS_KEPT = 300  # starts again several times along the way
    try:
        for state in states:
            facts = facts_from_state(state)
            for measure in ("deals", "worlds"):
                kept.append(direct.direct_count(facts, measure) or direct_early.early_count(facts, measure))
        assert len(direct.ENDS) <= 300 + 64
    finally:
        direct.ENDS_KEPT = old
    fresh = []
    for state in states:
        facts = facts_from_state(state)
        for measure in ("deals", "worlds"):
            direct.clear_shared()
            fresh.append(direct.direct_count(facts, measure) or direct_early.early_count(facts, measure))
    assert kept == fresh
    assert sum(c is not None for c in kept) >= 300


def test_the_hideout_probabilities_sum_the_positions() -> None:
    """belief(): a number's probability of being a face-down hideout is the sum of its positions'
    (taken as is when there is one face-down position)."""
    taken = 0
    for state in states_of(AGENTS, 7):
        clear_caches()
        got = belief(state)
        summed = [sum(p[v] for p in got.position_probs.values()) for v in range(43)]
        assert all(abs(a - b) < 1e-12 for a, b in zip(got.hideout_prob, summed, strict=True))
        if len(got.position_probs) == 1:
            assert got.hideout_prob == next(iter(got.position_probs.values()))
        taken += len(got.position_probs) > 1
    assert taken >= 10
