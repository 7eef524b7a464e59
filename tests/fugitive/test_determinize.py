"""Determinization: sampled worlds agree with the observation, replay, and are uniform."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from fugitive_positions import random_position

import gamelib
from gamelib.core.checks import determinize_problems
from gamelib.fugitive.analysis import MEASURES, belief, determinize
from gamelib.fugitive.rules import DETECTIVE, FUGITIVE, SETUP, FugitiveState


def chi_square_ok(observed: Counter, expected: dict, samples: int) -> bool:
    """Pearson's test at the 0.1% level (Wilson-Hilferty quantile: no scipy needed)."""
    stat = sum((observed[k] - samples * p) ** 2 / (samples * p) for k, p in expected.items() if p > 0)
    df = sum(1 for p in expected.values() if p > 0) - 1
    z = 3.09  # one-sided 0.1%
    critical = df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3
    return stat < critical


STATES = [(seed, steps, edition) for seed in range(8) for steps in (12, 30, 50) for edition in (1, 2)]


@pytest.mark.parametrize(("seed", "steps", "edition"), STATES)
def test_worlds_match_the_observation_and_replay(seed: int, steps: int, edition: int) -> None:
    state = random_position(seed, steps, edition=edition)
    if state.phase == SETUP:
        return
    for player in (FUGITIVE, DETECTIVE):
        world = state.determinize(player, random.Random(seed))
        assert isinstance(world, FugitiveState)
        assert world.observation(player) == state.observation(player)
        assert world.current_player == state.current_player
        assert gamelib.from_record(world.to_record()) == world
        # the sampled world is a state the other player's secrets could really be
        if player == DETECTIVE:
            b = belief(state)
            for i in state.hidden_positions():
                assert b.position_probs[i][world.hideouts[i]] > 0
            assert world.dhand == state.dhand
        else:
            assert world.fhand == state.fhand and world.hideouts == state.hideouts
            assert world.dhand.bit_count() == state.dhand.bit_count()


def test_worlds_differ_from_the_truth_sometimes() -> None:
    state = random_position(3, 40)
    hidden = state.hidden_positions()
    assert hidden
    worlds = {tuple(determinize(state, DETECTIVE, random.Random(s)).hideouts) for s in range(30)}
    assert len(worlds) > 1, "determinize must sample, not copy the truth"


def first_turn_state(**options: object) -> FugitiveState:
    state = gamelib.make("fugitive", options=options).new_game(seed=2)
    for line in ("deal 9", "deal 11", "deal 13", "deal 20", "deal 22", "hide 2", "done", "pass"):
        state.apply(line)
    assert isinstance(state, FugitiveState)
    return state


def test_detective_sampling_is_uniform_over_worlds() -> None:
    # first turn: the hideout is 1, 2 or 3 and the 3 + 2 dealt cards any of the 11 and 14:
    # a uniform world makes each hideout 1/3 and each deck-1 card in hand 3/11
    state = first_turn_state()
    rng = random.Random(12345)
    samples = 3000
    hideouts: Counter[int] = Counter()
    deck1: Counter[int] = Counter()
    for _ in range(samples):
        world = determinize(state, DETECTIVE, rng)
        hideouts[world.hideouts[1]] += 1
        deck1.update(c for c in world.fugitive_hand if 4 <= c <= 14)
    assert chi_square_ok(hideouts, {1: 1 / 3, 2: 1 / 3, 3: 1 / 3}, samples)
    # each deck-1 card is in hand with probability 3/11: 3 draws per sample
    assert chi_square_ok(deck1, {c: 1 / 11 for c in range(4, 15)}, 3 * samples)


def test_detective_sampling_matches_the_exact_belief() -> None:
    state = random_position(8, 30)
    b = belief(state)
    hidden = state.hidden_positions()
    assert hidden
    rng = random.Random(7)
    samples = 1500
    counts: dict[int, Counter[int]] = {i: Counter() for i in hidden}
    for _ in range(samples):
        world = determinize(state, DETECTIVE, rng)
        for i in hidden:
            counts[i][world.hideouts[i]] += 1
    for i in hidden:
        expected = {v: p for v, p in enumerate(b.position_probs[i]) if p > 0}
        if len(expected) > 1:
            assert chi_square_ok(counts[i], expected, samples), (i, counts[i], expected)
        assert set(counts[i]) <= set(expected)


def test_fugitive_sampling_is_uniform_over_detective_hands() -> None:
    # the detective drew two deck-3 cards and named nothing yet: any 2 of the 13 are as likely
    state = first_turn_state()
    state.apply("draw 3")
    state.apply("deal 30")
    state.apply("draw 3")
    state.apply("deal 31")
    rng = random.Random(99)
    samples = 2000
    seen: Counter[int] = Counter()
    for _ in range(samples):
        world = determinize(state, FUGITIVE, rng)
        assert world.observation(FUGITIVE) == state.observation(FUGITIVE)
        seen.update(world.detective_hand)
    assert chi_square_ok(seen, {c: 1 / 13 for c in range(29, 42)}, 2 * samples)


def test_fugitive_sampling_respects_the_detectives_guesses() -> None:
    # with refuse_known_numbers, a number the detective named cannot have been in its hand then;
    # by default (the rule text) it may name a card it holds, so 35 may come with any deal
    early = {}
    for refuse in (True, False):
        state = first_turn_state(refuse_known_numbers=refuse)
        for line in ("draw 3", "deal 30", "draw 3", "deal 31", "guess 35"):
            state.apply(line)
        for line in ("draw 1", "deal 4", "pass", "draw 3", "deal 32"):
            state.apply(line)
        rng = random.Random(5)
        early[refuse] = 0
        for _ in range(200):
            world = determinize(state, FUGITIVE, rng)
            deals = [str(a) for a in world.history]
            # 35 may come with the last deal (after the guess); before it only if it may be named held
            first_two = [d for d in deals[: deals.index("guess 35")] if d.startswith("deal 3")]
            early[refuse] += "deal 35" in first_two[-2:]
    assert early[True] == 0 and early[False] > 0, early


def test_determinize_rejects_unknown_players() -> None:
    with pytest.raises(ValueError, match="player"):
        determinize(first_turn_state(), 2, random.Random(0))


# ------------------------------------------------------------------------------ both measures


# small decks (escape card 10 or 12) and one early published position whose two measures differ
MEASURED = [("small", 12, 11, 14), ("small", 12, 10, 18), ("small", 10, 2, 14), ("published", 42, 14, 30)]


@pytest.mark.parametrize("measure", MEASURES)
@pytest.mark.parametrize(("kind", "escape", "seed", "steps"), MEASURED)
def test_determinize_samples_the_exact_belief_of_each_measure(
    measure: str, kind: str, escape: int, seed: int, steps: int
) -> None:
    """Hideout values (per position) and hand cards of the sampled worlds against the exact belief.

    Pearson's chi-square per face-down position and a binomial test per card in hand, at the
    0.1% level split over the tests (Bonferroni): a sampler off by a few percent fails.
    """
    scipy_stats = pytest.importorskip("scipy.stats")
    state = (
        random_position(seed, steps, escape_card=escape) if kind == "small" else random_position(seed, steps)
    )
    b = belief(state, measure=measure)
    assert b.exact and b.measure == measure
    hidden = state.hidden_positions()
    assert hidden
    rng = random.Random(1000 + seed)
    samples = 1200
    at: dict[int, Counter[int]] = {i: Counter() for i in hidden}
    hand: Counter[int] = Counter()
    for _ in range(samples):
        world = determinize(state, DETECTIVE, rng, measure=measure)
        for i in hidden:
            at[i][world.hideouts[i]] += 1
        hand.update(world.fugitive_hand)
    cards = [v for v in range(1, state.last) if 0 < b.hand_prob[v] < 1]
    tests = len(hidden) + len(cards)
    level = 1e-3 / tests
    for i in hidden:
        support = [v for v in range(43) if b.position_probs[i][v] > 0]
        assert set(at[i]) <= set(support), (i, at[i], support)
        if len(support) > 1:
            observed = [at[i][v] for v in support]
            expected = [samples * b.position_probs[i][v] for v in support]
            assert scipy_stats.chisquare(observed, expected).pvalue > level, (i, observed, expected)
    for v in cards:
        assert scipy_stats.binomtest(hand[v], samples, b.hand_prob[v]).pvalue > level, (
            v,
            hand[v],
            b.hand_prob[v],
        )
    for v in range(43):
        if b.hand_prob[v] == 0:
            assert hand[v] == 0, v


@pytest.mark.parametrize("measure", MEASURES)
@pytest.mark.parametrize(
    ("seed", "steps", "escape"), [(s, t, e) for s in range(4) for t in (14, 30, 60) for e in (42, 10)]
)
def test_the_determinized_history_is_rewritten_and_replays_to_itself(
    measure: str, seed: int, steps: int, escape: int
) -> None:
    state = random_position(seed, steps, escape_card=escape)
    if state.phase == SETUP:
        pytest.skip("setup deal")
    rng = random.Random(seed)
    world = determinize(state, DETECTIVE, rng, measure=measure)
    assert gamelib.from_record(world.to_record()) == world
    assert world.observation(DETECTIVE) == state.observation(DETECTIVE)
    assert world.public_history(DETECTIVE) == state.public_history(DETECTIVE)
    assert world.information_state(DETECTIVE) == state.information_state(DETECTIVE)
    # the generic check of core: the detective (seat 1) and the fugitive (seat 0) are shown the same
    assert determinize_problems(state, DETECTIVE, rng) == []
    assert determinize_problems(state, FUGITIVE, rng) == []


def escape_positions(count: int) -> list[FugitiveState]:
    """Detective decisions after the fugitive laid the escape card, after random play (long failed
    series by a random detective: where rejection sampling once gave up, issue 22)."""
    out: list[FugitiveState] = []
    for seed in range(200):
        state = gamelib.make("fugitive").new_game(seed=seed)
        assert isinstance(state, FugitiveState)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.current_player == DETECTIVE and state.phase in (5, 7) and 42 in state.hideouts:
                out.append(state)
                break
            state.apply(
                state.sample_chance(rng) if state.current_player < 0 else rng.choice(state.legal_actions())
            )
        if len(out) == count:
            break
    return out


def test_the_detective_seat_draws_exactly_where_rejection_gave_up() -> None:
    from gamelib.fugitive.belief import cache_sizes, clear_caches

    positions = escape_positions(4)
    assert len(positions) == 4
    for state in positions:
        clear_caches()
        for seed in range(20):
            rng = random.Random(seed)
            world = determinize(state, DETECTIVE, rng)
            assert world.observation(DETECTIVE) == state.observation(DETECTIVE)
            assert gamelib.from_record(world.to_record()) == world
        assert cache_sizes()["samplers"] == 1  # one sampler served every draw at this position
        assert determinize_problems(state, DETECTIVE, random.Random(7)) == []
