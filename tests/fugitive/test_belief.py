"""The detective's exact belief against a brute-force enumeration of fugitive worlds.

The brute force knows nothing of the dynamic programme: it lists every way to fill the face-down
cards from the cards the detective cannot see, and keeps a world if the rules, the draw log and a
re-simulation of every guess in the history agree with what the detective saw.  To keep it small
the test pretends the detective holds most of the cards the fugitive does not have ("restricted
card sets"): the true world stays consistent and the counts stay small enough to list.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from fugitive_positions import detective_view, random_position
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamelib
from gamelib.agents import RandomAgent
from gamelib.fugitive import analysis
from gamelib.fugitive.analysis import Belief, belief
from gamelib.fugitive.board import PUBLISHED
from gamelib.fugitive.rules import (
    DEALING,
    DETECTIVE,
    F_SPRINT,
    FUGITIVE,
    LAST,
    SETUP,
    FugitiveObservation,
    FugitiveState,
    footprints,
)


def new_state(seed: int, **options: object) -> FugitiveState:
    state = gamelib.make("fugitive", options=options).new_game(seed=seed)
    assert isinstance(state, FugitiveState)
    return state


def deck_index(card: int) -> int:
    for d, (lo, hi) in enumerate(PUBLISHED.deck_ranges):
        if lo <= card <= hi:
            return d
    return -1


# ------------------------------------------------------------------------------ brute force
def brute_force(obs: FugitiveObservation) -> tuple[int, dict[int, Counter[int]], Counter[int], Counter[int]]:
    """Every consistent world, listed: (count, per-position value counts, sprint counts, hand counts)."""
    size = len(obs.hideouts) - 1
    values = [v if r else None for (v, _, _), r in zip(obs.hideouts, obs.revealed, strict=True)]
    known_stacks = [
        tuple(s or ()) if r else None for (_, _, s), r in zip(obs.hideouts, obs.revealed, strict=True)
    ]
    counts = [n for _, n, _ in obs.hideouts]
    seen = set(obs.detective_hand or ())
    for value, stack in zip(values, known_stacks, strict=True):
        if value is not None:
            seen.add(value)
            seen.update(stack or ())
    unseen = [c for c in range(1, 42) if c not in seen]
    log = list(obs.draw_log)
    if obs.phase == DEALING:
        log = log[:-1]
    drawn = Counter(PUBLISHED.setup_deals) + Counter(d for p, d, _ in log if p == FUGITIVE)
    known_deck = Counter(
        deck_index(c)
        for value, stack in zip(values, known_stacks, strict=True)
        if value is not None
        for c in (value, *(stack or ()))
    )
    mine = {d: drawn[d] - known_deck[d] for d in range(3)}
    hidden = [i for i in range(1, size + 1) if values[i] is None]
    own = [c for c in unseen if c <= 3]
    per_deck = [[c for c in unseen if deck_index(c) == d] for d in range(3)]

    total = 0
    at: dict[int, Counter[int]] = {i: Counter() for i in hidden}
    sprint_hits: Counter[int] = Counter()
    hand_hits: Counter[int] = Counter()
    for t0 in itertools.combinations(per_deck[0], mine[0]):
        for t1 in itertools.combinations(per_deck[1], mine[1]):
            for t2 in itertools.combinations(per_deck[2], mine[2]):
                cards = set(own) | set(t0) | set(t1) | set(t2)
                for world in fillings(hidden, counts, cards):
                    hv, stacks, hand = world
                    full = list(values)
                    full_stacks = list(known_stacks)
                    for i in hidden:
                        full[i] = hv[i]
                        full_stacks[i] = stacks[i]
                    if LAST not in full:
                        hand = hand | {LAST}
                    if consistent(obs, full, full_stacks, hand, log):
                        total += 1
                        for i in hidden:
                            at[i][hv[i]] += 1
                            sprint_hits.update(stacks[i])
                        hand_hits.update(hand)
    return total, at, sprint_hits, hand_hits


def fillings(hidden: list[int], counts: list[int], cards: set[int]):
    """Every assignment of face-down hideouts and stacks from ``cards``; the rest is the hand."""
    if not hidden:
        yield {}, {}, frozenset(cards)
        return
    i, rest = hidden[0], hidden[1:]
    for v in sorted(cards):
        left = cards - {v}
        for stack in itertools.combinations(sorted(left), counts[i]):
            for hv, stacks, hand in fillings(rest, counts, left - set(stack)):
                yield {i: v, **hv}, {i: stack, **stacks}, hand


def consistent(obs, full, stacks, hand, log) -> bool:
    size = len(full) - 1
    for i in range(1, size + 1):
        if full[i] <= full[i - 1]:
            return False
        fp = sum(footprints(c) for c in stacks[i])
        excess = full[i] - full[i - 1] - 3 - fp
        if obs.phase == F_SPRINT and i == size:
            if excess > sum(footprints(c) for c in hand if c != LAST):
                return False
        elif excess > 0:
            return False
    # timing: cards of a deck laid up to position i were drawn before it
    for d in range(3):
        laid = 0
        for i in range(1, size + 1):
            laid += sum(1 for c in (full[i], *stacks[i]) if deck_index(c) == d)
            held = sum(1 for x in PUBLISHED.setup_deals if x == d) + sum(
                1 for p, dd, k in log if p == FUGITIVE and dd == d and k < i
            )
            if laid > held:
                return False
    # replay every guess of the history on this world: the reveals must match
    revealed = [True] + [full[i] == LAST for i in range(1, size + 1)]
    on_table, series = 0, []
    for text in obs.history:
        verb, _, arg = text.partition(" ")
        if verb == "hide":
            on_table += 1
        elif verb == "guess":
            n = int(arg)
            for i in range(1, on_table + 1):
                if full[i] == n and not revealed[i]:
                    revealed[i] = True
        elif verb == "add":
            series.append(int(arg))
        elif verb == "reveal":
            spots = [i for n in series for i in range(1, on_table + 1) if full[i] == n and not revealed[i]]
            if len(spots) == len(series):
                for i in spots:
                    revealed[i] = True
            series = []
    return revealed == list(obs.revealed)


# ------------------------------------------------------------------------------ helpers
def restricted(state: FugitiveState, decoys: int, rng: random.Random) -> FugitiveObservation:
    """The detective's view, pretending it holds every unseen deck card but ``decoys`` per deck."""
    obs = detective_view(state)
    theirs = set(state.fugitive_hand)
    for h, s in zip(state.hideouts, state.sprints, strict=True):
        theirs.add(h)
        theirs.update(s)
    extra = set(obs.detective_hand or ())
    for lo, hi in PUBLISHED.deck_ranges:
        free = [
            c for c in range(lo, hi + 1) if c not in theirs and c not in extra and not state.face_up >> c & 1
        ]
        rng.shuffle(free)
        extra.update(free[decoys:])
    return dataclasses.replace(obs, detective_hand=tuple(sorted(extra)))


def assert_matches(obs: FugitiveObservation, edition: int = 1) -> Belief:
    analysis.clear_caches()
    got = belief(obs, edition=edition, measure="worlds")
    total, at, sprints, hands = brute_force(obs)
    assert got.worlds == total
    for i, counter in at.items():
        for v in range(43):
            assert got.position_probs[i][v] == pytest.approx(float(Fraction(counter[v], total)), abs=1e-12), (
                i,
                v,
            )
    for v in range(1, 42):
        assert got.sprint_prob[v] == pytest.approx(sprints[v] / total, abs=1e-12), ("sprint", v)
        assert got.hand_prob[v] == pytest.approx(hands[v] / total, abs=1e-12), ("hand", v)
    return got


# ------------------------------------------------------------------------------ tests
CASES = [(seed, steps) for seed in range(40) for steps in (8, 14, 22, 30)]


@pytest.mark.parametrize(("seed", "steps"), CASES[::3])
def test_belief_equals_brute_force_on_random_states(seed: int, steps: int) -> None:
    state = random_position(seed, steps)
    if state.phase == SETUP or len(state.hidden_positions()) > 3:
        pytest.skip("too big to list")
    obs = restricted(state, decoys=1, rng=random.Random(seed))
    assert_matches(obs)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(6, 40), decoys=st.integers(0, 2))
def test_belief_equals_brute_force_fuzzed(seed: int, steps: int, decoys: int) -> None:
    state = random_position(seed, steps)
    hidden = len(state.hidden_positions())
    if state.phase == SETUP or hidden > 3 or sum(len(state.sprints[i]) for i in state.hidden_positions()) > 6:
        return
    assert_matches(restricted(state, decoys, random.Random(seed)))


def test_pending_sprint_phase_counts_the_hand_footprints() -> None:
    # mid-turn: the pending hideout may be far above the previous one, reachable with the hand
    state = new_state(1)
    for card in (4, 6, 8, 15, 16):
        state.apply(f"deal {card}")
    state.apply("hide 8")  # 8 - 0 - 3 = 5 footprints still to lay
    assert state.phase == F_SPRINT
    got = assert_matches(restricted(state, decoys=1, rng=random.Random(0)))
    assert got.position_probs[1][8] > 0


def test_probabilities_sum_and_revealed_cards_are_zero() -> None:
    rng = random.Random(4)
    for seed in range(40):
        state = random_position(seed, rng.randrange(10, 50))
        if state.phase == SETUP:
            continue
        b = belief(state)
        hidden = state.hidden_positions()
        assert set(b.position_probs) == set(hidden)
        for i in hidden:
            assert sum(b.position_probs[i]) == pytest.approx(1.0)
            assert b.position_probs[i][state.hideouts[i]] > 0, "the true hideout must be possible"
        assert sum(b.hideout_prob) == pytest.approx(len(hidden))
        # every unseen card is somewhere: hideout, sprint, hand or deck
        for v in range(1, 42):
            where = b.hideout_prob[v] + b.sprint_prob[v] + b.hand_prob[v] + b.deck_prob[v]
            if state.face_up >> v & 1 or state.dhand >> v & 1:
                assert where == 0.0, v
            else:
                assert where == pytest.approx(1.0), v
        expected_sprints = sum(len(state.sprints[i]) for i in hidden)
        assert sum(b.sprint_prob) == pytest.approx(expected_sprints)
        assert sum(b.hand_prob) == pytest.approx(state.fhand.bit_count())


def test_first_turn_single_hideout_among_one_two_three() -> None:
    # the fugitive holds 1, 2, 3 and laid one hideout without sprint: it is 1, 2 or 3 and,
    # counted over worlds, each of these is equally likely
    state = new_state(2)
    for card in (9, 11, 13, 20, 22):
        state.apply(f"deal {card}")
    state.apply("hide 2")
    state.apply("done")
    state.apply("pass")
    b = belief(state)
    probs = b.position_probs[1]
    assert [v for v in range(43) if probs[v] > 0] == [1, 2, 3]
    assert probs[1] == probs[2] == probs[3] == pytest.approx(1 / 3)
    assert b.hand_prob[LAST] == 1.0
    # worlds: the hideout (3 ways) x the 3 deck-1 cards of 11 x the 2 deck-2 cards of 14
    assert b.worlds == 3 * 165 * 91
    assert b.certain_numbers() == []


def test_a_missed_guess_rules_a_number_out() -> None:
    state = new_state(2)
    for line in ("deal 9", "deal 11", "deal 13", "deal 20", "deal 22", "hide 2", "done", "pass"):
        state.apply(line)
    for line in ("draw 3", "deal 30", "draw 3", "deal 31", "guess 1"):
        state.apply(line)
    b = belief(state)
    assert b.position_probs[1][1] == 0.0
    assert b.position_probs[1][2] == b.position_probs[1][3] == pytest.approx(0.5)


def test_a_failed_series_leaves_at_least_one_number_out() -> None:
    state = new_state(2)
    for line in ("deal 4", "deal 11", "deal 13", "deal 20", "deal 22", "hide 2", "done", "hide 4", "done"):
        state.apply(line)
    for line in ("draw 3", "deal 30", "draw 3", "deal 31", "add 1", "add 4", "reveal"):
        state.apply(line)
    b = belief(state)
    # worlds where 1 and 4 are both hideouts would have revealed them: they are gone
    joint = b.position_probs[1][1] * b.position_probs[2][4]
    assert b.position_probs[1][1] > 0 and b.position_probs[2][4] > 0
    assert joint < b.position_probs[1][1]
    analysis_worlds = assert_matches(restricted(state, decoys=1, rng=random.Random(1)))
    assert analysis_worlds.worlds > 0


def test_certain_numbers_and_most_likely() -> None:
    # with 1 and 3 named and missed, the one hideout laid without sprint must be 2
    state = new_state(2)
    for line in ("deal 9", "deal 11", "deal 13", "deal 20", "deal 22", "hide 2", "done", "pass"):
        state.apply(line)
    state.apply("draw 3")
    state.apply("deal 30")
    state.apply("draw 3")
    state.apply("deal 31")
    state.apply("guess 1")
    b = belief(state)
    assert b.most_likely(1) in (2, 3)
    state.apply("draw 1")  # the fugitive's turn: draw, then pass
    state.apply("deal 4")
    state.apply("pass")
    state.apply("draw 3")
    state.apply("deal 32")
    state.apply("guess 3")
    b = belief(state)
    assert b.certain_numbers() == [2]
    assert b.most_likely(1) == 2 and b.entropy(1) == 0.0


def test_observation_and_state_agree() -> None:
    for seed in range(20):
        state = random_position(seed, 40)
        if state.phase == SETUP:
            continue
        analysis.clear_caches()
        a = belief(state)
        analysis.clear_caches()
        b = belief(detective_view(state))
        assert a == b


def test_belief_rejects_the_fugitive_view() -> None:
    state = random_position(3, 20)
    with pytest.raises(ValueError, match="detective"):
        belief(state.observation(FUGITIVE))
    with pytest.raises(TypeError):
        belief("not a state")  # type: ignore[arg-type]


def test_edition_two_first_turn_pass_is_flagged_not_exact() -> None:
    state = new_state(5, **{"edition": 2})
    for card in (4, 5, 6, 15, 16):
        state.apply(f"deal {card}")
    # lay 6 over 1-5: 15, 16 and 42 are out of reach, so the fugitive must stop at one hideout
    state.apply("hide 6")
    for card in (1, 2, 3, 4, 5):
        state.apply(f"sprint {card}")
    state.apply("done")
    assert [str(a) for a in state.legal_actions()] == ["pass"]
    state.apply("pass")
    b = belief(state)
    assert not b.exact
    assert b.position_probs[1][6] > 0
    # determinize still samples exactly: it rejects the worlds where a second hideout was possible
    for seed in range(5):
        world = state.determinize(DETECTIVE, random.Random(seed))
        assert world.observation(DETECTIVE) == state.observation(DETECTIVE)


def test_an_edge_budget_refuses_a_big_count_cleanly() -> None:
    """A live view asks for a budget: a position over it raises BeliefTooLarge, nothing cached."""
    from gamelib.fugitive.analysis import BeliefTooLarge, clear_caches

    state = gamelib.play(gamelib.make("fugitive"), [RandomAgent(), RandomAgent()], seed=3, max_actions=40)
    assert isinstance(state, FugitiveState)
    clear_caches()
    with pytest.raises(BeliefTooLarge, match="edges"):
        belief(state, max_edges=1)
    full = belief(state)  # no budget: counted in full
    assert full.worlds > 0
    assert belief(state, max_edges=1) is full  # a counted position is remembered


def test_belief_detective_takes_a_measure() -> None:
    from gamelib.fugitive.agents import BeliefDetective, FugitiveHeuristic

    assert repr(BeliefDetective()) == "BeliefDetective()" and BeliefDetective().measure == "deals"
    worlds = BeliefDetective(measure="worlds")
    assert repr(worlds) == "BeliefDetective(measure='worlds')"
    with pytest.raises(ValueError, match="measure"):
        BeliefDetective(measure="uniform")
    final = gamelib.play(gamelib.make("fugitive"), [FugitiveHeuristic(), worlds], seed=4)
    assert final.is_terminal()
