"""The exact belief and determinization on small decks (option ``escape_card``), by exhaustion.

A small deck (escape card 7 to 12) has so few cards that every fugitive world can be listed
outright, without the "restricted card sets" trick of ``test_belief.py``.  The brute force here
knows nothing of the dynamic programme *nor* of the rules' fine print: a world (face-down
hideouts, face-down sprint sets, the fugitive's hand) is consistent iff some order of the
fugitive's deals makes the history, rewritten with that world, replay legally through the rules
engine and show the detective exactly what it saw.  So timing, footprints, missed guesses,
failed series, the edition-2 first turn and canonical order are all checked by the engine itself.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from fugitive_positions import detective_view, random_position
from test_belief_brute_force import deal_orders, fillings  # the worlds and their replay, listed once

import gamelib
from gamelib.agents import RandomAgent
from gamelib.fugitive import analysis
from gamelib.fugitive.agents import BeliefDetective
from gamelib.fugitive.analysis import Belief, belief, determinize
from gamelib.fugitive.rules import (
    DETECTIVE,
    F_SPRINT,
    FUGITIVE,
    SETUP,
    Done,
    FugitiveObservation,
    FugitiveState,
    Hide,
    Sprint,
    layout_for,
)

# ------------------------------------------------------------------------------ states


def play_to(escape: int, edition: int, canonical: bool, seed: int, steps: int) -> FugitiveState:
    """A position ``steps`` random actions into a game on a small deck."""
    return random_position(seed, steps, escape_card=escape, edition=edition, canonical_order=canonical)


# ------------------------------------------------------------------------------ brute force
@dataclasses.dataclass
class Tally:
    """Consistent worlds, listed: their number and how often each card is where."""

    total: int = 0
    at: dict[int, Counter[int]] = dataclasses.field(default_factory=dict)
    hideout: Counter[int] = dataclasses.field(default_factory=Counter)
    sprint: Counter[int] = dataclasses.field(default_factory=Counter)
    hand: Counter[int] = dataclasses.field(default_factory=Counter)
    deck: Counter[int] = dataclasses.field(default_factory=Counter)


def seen_by_detective(state: FugitiveState) -> int:
    """Mask of the cards the detective sees: its hand, the face-up hideouts and the sprint cards
    shown under them (read from its observation: mid-stack the escape card is face up already)."""
    seen = state.face_up | state.dhand
    for value, _, cards in state.observation(DETECTIVE).hideouts:
        if value is not None:
            seen |= 1 << value
        for c in cards or ():
            seen |= 1 << c
    return seen


def brute_force(state: FugitiveState, game: gamelib.Game | None = None) -> Tally:
    """Every world consistent with the detective's view of ``state`` under ``game``'s rules."""
    game = game or state.game
    tally = Tally(at={i: Counter() for i in state.hidden_positions()})
    seen = seen_by_detective(state)
    unseen = {c for c in range(1, state.last) if not seen >> c & 1}
    for values, stacks, hand in fillings(state):
        if not deal_orders(state, game, values, stacks, hand):  # no order of deals replays to the view
            continue
        tally.total += 1
        for i, v in values.items():
            tally.at[i][v] += 1
            tally.hideout[v] += 1
        sprints = set().union(*stacks.values())
        tally.sprint.update(sprints)
        tally.hand.update(hand)
        tally.deck.update(unseen - sprints - set(values.values()) - hand)
    return tally


def assert_equal(got: Belief, tally: Tally) -> None:
    def p(count: int) -> float:
        return float(Fraction(count, tally.total))

    assert got.worlds == tally.total
    for i, counter in tally.at.items():
        assert got.position_probs[i] == pytest.approx([p(counter[v]) for v in range(43)], abs=1e-12), i
    for name, counter in (
        ("hideout_prob", tally.hideout),
        ("sprint_prob", tally.sprint),
        ("hand_prob", tally.hand),
        ("deck_prob", tally.deck),
    ):
        assert len(getattr(got, name)) == 43  # indexed 0..42 in every deck size
        assert getattr(got, name) == pytest.approx([p(counter[v]) for v in range(43)], abs=1e-12), name


# ------------------------------------------------------------------------------ the cases
def small_positions() -> list[tuple[int, int, bool, int, int]]:
    """(escape card, edition, canonical, seed, steps): every combination, cut at varied points."""
    cases = []
    for escape, edition, canonical in itertools.product((7, 8, 10, 12), (1, 2), (False, True)):
        for seed in range(3):
            steps = 6 + (7 * seed + escape + 3 * edition + 5 * canonical) % 19
            cases.append((escape, edition, canonical, seed, steps))
    return cases


def too_big(state: FugitiveState) -> bool:
    hidden = state.hidden_positions()
    return len(hidden) > 3 or sum(len(state.sprints[i]) for i in hidden) > 4


@pytest.mark.parametrize(("escape", "edition", "canonical", "seed", "steps"), small_positions())
def test_belief_equals_the_exhaustive_enumeration(
    escape: int, edition: int, canonical: bool, seed: int, steps: int
) -> None:
    state = play_to(escape, edition, canonical, seed, steps)
    while state.phase == SETUP or too_big(state):  # back up to a position small enough to list
        state = play_to(escape, edition, canonical, seed, steps := steps - 1)
    analysis.clear_caches()
    got = belief(state, measure="worlds")
    assert all(x == 0 for x in got.hideout_prob[escape:]), "no hideout at or above the escape card"
    if got.exact:
        assert_equal(got, brute_force(state))
        return
    # inexact: the count relaxes one rule; it must hold the true worlds, and equal the relaxed set
    true = brute_force(state)
    assert 0 < true.total <= got.worlds
    supported = {(i, v) for i, counter in true.at.items() for v in counter}
    assert all(got.position_probs[i][v] > 0 for i, v in supported)
    # canonical mid-stack: the same history without canonical order is counted exactly
    relaxed = gamelib.make("fugitive", options={"escape_card": escape, "edition": edition})
    twin = relaxed.new_game(seed=state.seed)
    for action in state.history:
        twin.apply(action)
    assert isinstance(twin, FugitiveState)
    if belief(twin).exact:  # not also an edition-2 first-turn pass
        assert state.canonical and state.phase == F_SPRINT
        assert_equal(got, brute_force(state, relaxed))


def escape_stack_position(seed: int) -> FugitiveState:
    """A position with the escape card face up and sprint cards face down under it, small enough
    to list, on a deck of 9, 10 or 12 under ``escape_sprints="hidden"``: the detective to move.

    The fugitive heads for the escape card (the highest hideout he can reach) and slips one sprint
    card under it; every other choice is random, the detective's too.  A play that ends first, or
    grows past what the brute force lists, is replayed with the next generator (the search is
    deterministic, so every seed has its position)."""
    escape = (9, 10, 12)[seed % 3]
    game = gamelib.make("fugitive", options={"escape_card": escape, "escape_sprints": "hidden"})
    for attempt in range(50):
        state, rng = game.new_game(seed=seed), random.Random(f"{seed}/{attempt}")
        assert isinstance(state, FugitiveState)
        while not state.is_terminal() and not (
            state.current_player == DETECTIVE and state.last in state.hideouts
        ):
            if state.current_player == gamelib.CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            hides = [a for a in legal if isinstance(a, Hide)]
            sprints = [a for a in legal if isinstance(a, Sprint)]
            if hides:
                state.apply(max(hides, key=lambda a: a.card))
            elif (
                state.phase == F_SPRINT
                and state.hideouts[-1] == state.last
                and not state.sprints[-1]
                and sprints
            ):
                state.apply(rng.choice(sprints))
            elif state.phase == F_SPRINT and Done() in legal:
                state.apply(Done())
            else:
                state.apply(rng.choice(legal))
        if not state.is_terminal() and not too_big(state) and state.sprints[state.hideouts.index(state.last)]:
            return state
    raise AssertionError(f"seed {seed}: no face-down escape stack in 50 plays")


@pytest.mark.parametrize("seed", range(40))
def test_hidden_escape_sprints_are_counted(seed: int) -> None:
    """escape_sprints="hidden": the escape card lies face up, its sprint cards face down (the DP
    places them like any face-down stack, under a known hideout)."""
    state = escape_stack_position(seed)
    assert state.sprints_shown(state.hideouts.index(state.last)) is False
    analysis.clear_caches()
    got = belief(state, measure="worlds")
    assert got.exact
    assert_equal(got, brute_force(state))
    world = determinize(state, DETECTIVE, random.Random(seed))
    assert world.observation(DETECTIVE) == state.observation(DETECTIVE)
    assert gamelib.from_record(world.to_record()) == world


def hand_built(
    escape: int, edition: int, canonical: bool, lines: list[str], **extra: object
) -> FugitiveState:
    options = {"escape_card": escape, "edition": edition, "canonical_order": canonical, **extra}
    state = gamelib.make("fugitive", options=options).new_game(seed=0)
    for line in lines:
        state.apply(line)
    assert isinstance(state, FugitiveState)
    return state


def test_layouts_of_the_cases() -> None:
    # the cases above cover both kinds of start: with a setup deal (12) and without (7, 8, 10)
    assert layout_for(7).setup_deals == layout_for(8).setup_deals == layout_for(10).setup_deals == ()
    assert layout_for(12).setup_deals == (0,)
    assert play_to(7, 1, False, seed=0, steps=0).phase != SETUP
    assert play_to(12, 1, False, seed=0, steps=0).phase == SETUP


def test_canonical_mid_stack_rule_is_flagged_and_counted_relaxed() -> None:
    # escape card 10: decks 4-5, 6-7, 8-9.  The fugitive lays 9 over a face-down hideout and one
    # sprint card so far: in canonical order it must still hold, above that card, what 9 needs.
    lines = [
        *("hide 3", "sprint 1", "done", "pass", "draw 3", "deal 8", "draw 2", "deal 7", "guess 5"),
        *("draw 3", "deal 9", "pass", "draw 2", "deal 6", "guess 4", "draw 1", "deal 4", "hide 9"),
        "sprint 2",
    ]
    relaxed = hand_built(10, 1, False, lines)
    strict = hand_built(10, 1, True, lines)
    assert strict.phase == F_SPRINT
    analysis.clear_caches()
    loose = belief(relaxed)
    flagged = belief(strict)
    assert loose.exact and not flagged.exact
    assert loose.worlds == flagged.worlds  # the DP counts the relaxed set either way
    assert_equal(loose, brute_force(relaxed))
    truth = brute_force(strict)
    assert 0 < truth.total < flagged.worlds, "canonical order must exclude some relaxed worlds"
    # determinize rejects the excluded worlds: its samples stay inside the true set
    supported = {v for v, n in truth.at[1].items() if n}
    for seed in range(20):
        world = determinize(strict, DETECTIVE, random.Random(seed))
        assert world.observation(DETECTIVE) == strict.observation(DETECTIVE)
        assert world.hideouts[1] in supported
        assert list(world.sprints[1]) == sorted(world.sprints[1])


def test_observation_gives_the_same_belief_and_infers_the_deck() -> None:
    def fresh(source: FugitiveState | FugitiveObservation) -> Belief:
        analysis.clear_caches()
        return belief(source)

    states = [play_to(escape, 1, False, seed=escape, steps=18) for escape in (7, 8, 10, 12, 20)]
    assert all(fresh(detective_view(s)) == fresh(s) for s in states if s.phase != SETUP)


def test_a_doctored_observation_is_refused() -> None:
    state = play_to(10, 1, False, seed=1, steps=12)
    obs = detective_view(state)
    # card counts that add up to no deck size (the escape card would be 3)
    bad = dataclasses.replace(obs, deck_sizes=(0, 0, 0), fugitive_hand_size=0, detective_hand_size=0)
    with pytest.raises(ValueError, match="escape_card"):
        belief(bad)
    assert belief(obs).worlds > 0  # the true view is explained


def test_an_unexplainable_view_is_refused() -> None:
    # escape card 7, no setup deal: a first hideout without sprint card is 1, 2 or 3
    state = hand_built(7, 1, False, ["hide 2", "done", "pass", "draw 1", "deal 4", "draw 2", "deal 5"])
    obs = detective_view(state)
    missed = dataclasses.replace(obs, history=(*obs.history, "guess 1", "guess 3"))
    assert belief(missed).position_probs[1][2] == 1.0
    impossible = dataclasses.replace(obs, history=(*obs.history, "guess 1", "guess 2", "guess 3"))
    with pytest.raises(ValueError, match="inconsistent"):
        belief(impossible)


def test_published_tables_unchanged() -> None:
    assert tuple(analysis.card_class(c) if 1 <= c <= 41 else -1 for c in range(43)) == analysis._CLASS_OF
    assert [analysis.group_of(c) for c in (0, 1, 14, 15, 41, 42)] == [-1, 0, 1, 2, 3, -1]
    small = layout_for(12)  # decks 4-5, 6-8, 9-11
    assert [analysis.group_of(c, small) for c in (0, 3, 5, 6, 9, 11, 12, 13)] == [-1, 0, 1, 2, 3, 3, -1, -1]
    assert analysis.card_class(6, small) == 5 and analysis.card_class(9, small) == 6
    assert analysis._tables(12).class_of[12:] == (-1,) * 31


# ------------------------------------------------------------------------------ determinize
def chi_square_ok(observed: Counter, expected: dict, samples: int) -> bool:
    """Pearson's test at the 0.1% level (Wilson-Hilferty quantile)."""
    stat = sum((observed[k] - samples * p) ** 2 / (samples * p) for k, p in expected.items() if p > 0)
    df = sum(1 for p in expected.values() if p > 0) - 1
    if df <= 0:
        return set(observed) <= set(expected)
    z = 3.09
    critical = df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3
    return stat < critical


@pytest.mark.parametrize(("escape", "edition", "canonical", "seed", "steps"), small_positions()[::2])
def test_determinize_matches_the_view_and_plays_on(
    escape: int, edition: int, canonical: bool, seed: int, steps: int
) -> None:
    state = play_to(escape, edition, canonical, seed, steps + 10)
    if state.phase == SETUP:
        pytest.skip("setup deal")
    rng = random.Random(seed)
    for player in (FUGITIVE, DETECTIVE):
        world = determinize(state, player, rng)
        assert world.observation(player) == state.observation(player)
        assert world.game.options == state.game.options
        if player == DETECTIVE:
            assert world.dhand == state.dhand
            for i in state.hidden_positions():
                assert world.hideouts[i] < escape
        else:
            assert world.fhand == state.fhand and world.hideouts == state.hideouts
        # legal to continue: random play from the sampled world reaches the end
        while not world.is_terminal():
            if world.current_player == gamelib.CHANCE:
                world.apply(world.sample_chance(rng))
            else:
                world.apply(rng.choice(world.legal_actions()))


def test_determinize_is_uniform_over_the_listed_worlds() -> None:
    # a small position with several worlds: the sampled hideouts follow the enumeration
    state = play_to(10, 1, False, seed=2, steps=14)
    hidden = state.hidden_positions()
    assert hidden and state.phase != SETUP
    tally = brute_force(state)
    assert tally.total > 2
    rng = random.Random(11)
    samples = 600
    position = hidden[-1]
    seen: Counter[int] = Counter()
    for _ in range(samples):
        seen[determinize(state, DETECTIVE, rng, measure="worlds").hideouts[position]] += 1
    expected = {v: n / tally.total for v, n in tally.at[position].items() if n}
    assert set(seen) <= set(expected)
    assert chi_square_ok(seen, expected, samples), (seen, expected)


def test_fugitive_seat_keeps_a_canonical_series_legal() -> None:
    # escape card 12: decks 4-5, 6-8, 9-11.  The detective drew one card of deck 2 and one of
    # deck 3, then started a series with 10: in canonical order a higher nameable number must
    # exist, so (with refuse_known_numbers: a held card is not nameable) its deck-3 card cannot
    # be 11 (nor 10, which it named): it is 9
    lines = ["deal 5", "hide 2", "sprint 5", "done", "pass", "draw 2", "deal 8", "draw 3", "deal 9", "add 10"]
    state = hand_built(12, 1, True, lines, refuse_known_numbers=True)
    rng = random.Random(3)
    second: Counter[int] = Counter()
    for _ in range(60):
        world = determinize(state, FUGITIVE, rng)
        assert world.observation(FUGITIVE) == state.observation(FUGITIVE)
        assert world.dhand >> 9 & 1 and not world.dhand >> 11 & 1
        second.update(c for c in world.detective_hand if c in (6, 7, 8))
    assert set(second) == {6, 7, 8}  # the other card is still sampled
    # without canonical order the same history lets 11 be the deck-3 card
    loose = hand_built(12, 1, False, lines, refuse_known_numbers=True)
    assert any(determinize(loose, FUGITIVE, rng).dhand >> 11 & 1 for _ in range(60))


def test_determinize_rejects_an_unknown_player() -> None:
    state = play_to(7, 1, False, seed=0, steps=6)
    with pytest.raises(ValueError, match="player"):
        determinize(state, 3, random.Random(0))


# ------------------------------------------------------------------------------ the agent
def test_belief_detective_plays_a_small_deck() -> None:
    game = gamelib.make("fugitive", options={"escape_card": 10})
    for seed in range(4):
        final = gamelib.play(game, [RandomAgent(), BeliefDetective()], seed=seed)  # type: ignore[list-item]
        assert final.is_terminal()
