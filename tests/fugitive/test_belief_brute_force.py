"""The exact belief against a brute-force enumeration, in both measures, under every option that
changes what a guess reveals.

The enumeration here shares nothing with the belief's programme: it lists every way to fill the
face-down cards (hideouts, sprint stacks, the fugitive's hand) with cards the detective cannot
see, and every order in which the fugitive's deck cards could have been dealt to him, rewrites
the history with them and lets the rules engine replay it.  A (world, deal order) pair counts
when the replay is legal and shows the detective exactly what he saw.  So the worlds measure is
the number of worlds with at least one such order, and the deals measure the number of pairs.

Small decks (option ``escape_card``) keep the lists short.  The positions are random-play
positions at the detective's decisions, under both editions, ``refuse_known_numbers`` on and off
(off, the text's reading, the detective names face-up and held numbers: a series holding one is
a certain miss that says nothing, issue 24) and both ``manhunt`` readings.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator

import pytest

import gamelib
from gamelib.core.errors import IllegalAction
from gamelib.fugitive.belief import belief, clear_caches
from gamelib.fugitive.rules import (
    DEALS,
    DETECTIVE,
    FUGITIVE,
    HIDES,
    REVEAL,
    SPRINTS,
    Deal,
    Done,
    FugitiveState,
    Hide,
    Pass,
    Sprint,
)

DETECTIVE_PHASES = (5, 7)  # D_GUESS, MANHUNT: where the detective decides what to name


def deal_slots(state: FugitiveState) -> list[tuple[int, int, int]]:
    """The fugitive's deals: (history index, deck, fugitive moves made before it)."""
    setup = state.layout.setup_deals
    out, draws, moves = [], 0, 0
    for index, action in enumerate(state.history):
        if isinstance(action, Deal):
            if index < len(setup):
                out.append((index, setup[index], moves))
            else:
                player, deck, _ = state.draw_log[draws]
                draws += 1
                if player == FUGITIVE:
                    out.append((index, deck, moves))
        elif isinstance(action, (Hide, Sprint, Done, Pass)):
            moves += 1
    return out


def unseen_cards(state: FugitiveState) -> list[int]:
    """The cards 1..last-1 the detective cannot see (its hand, face-up cards and their stacks)."""
    seen = state.dhand
    for value, _, cards in state.observation(DETECTIVE).hideouts:
        if value is not None:
            seen |= 1 << value
        for c in cards or ():
            seen |= 1 << c
    return [c for c in range(1, state.last) if not seen >> c & 1]


def fillings(state: FugitiveState) -> Iterator[tuple[dict[int, int], dict[int, tuple[int, ...]], set[int]]]:
    """Every filling of the face-down cards, hideouts increasing, and the hand from the rest."""
    hidden = state.hidden_positions()
    stack_only = [
        i for i in range(1, len(state.hideouts)) if state.revealed[i] and not state.sprints_shown(i)
    ]
    spots = sorted(hidden + stack_only)
    unseen = unseen_cards(state)
    last = state.last
    escape_in_hand = last not in state.hideouts
    hand_size = state.fhand.bit_count() - escape_in_hand

    def fill(
        k: int, cards: tuple[int, ...]
    ) -> Iterator[tuple[dict[int, int], dict[int, tuple[int, ...]], tuple[int, ...]]]:
        if k == len(spots):
            yield {}, {}, cards
            return
        i = spots[k]
        values = [state.hideouts[i]] if i in stack_only else [v for v in cards if v < last]
        for v in values:
            rest = tuple(c for c in cards if c != v)
            for stack in itertools.combinations(rest, len(state.sprints[i])):
                left = tuple(c for c in rest if c not in stack)
                for vs, ss, remaining in fill(k + 1, left):
                    chosen = {} if i in stack_only else {i: v}
                    yield {**chosen, **vs}, {i: stack, **ss}, remaining

    for values, stacks, remaining in fill(0, tuple(unseen)):
        row = [values.get(i, h) for i, h in enumerate(state.hideouts)]
        if any(b <= a for a, b in itertools.pairwise(row)):
            continue
        for hand in itertools.combinations(remaining, hand_size):
            yield values, stacks, set(hand) | ({last} if escape_in_hand else set())


def deal_orders(state: FugitiveState, game: gamelib.Game, values, stacks, hand) -> int:
    """How many orders of the fugitive's deck cards make this world replay to the detective's view."""
    layout = state.layout
    slots = deal_slots(state)
    mine = set(hand) | set(values.values()) | set().union(*stacks.values())
    for i in range(1, len(state.hideouts)):
        if state.revealed[i]:
            mine.add(state.hideouts[i])
        if state.sprints_shown(i):
            mine |= set(state.sprints[i])
    per_deck = [sorted(c for c in mine if layout.deck_of(c) == d) for d in range(3)]
    slots_of = [[s for s in slots if s[1] == d] for d in range(3)]
    if any(len(per_deck[d]) != len(slots_of[d]) for d in range(3)):
        return 0
    # orders that give every card the same number of fugitive moves before its deal replay alike:
    # replay one order per timing, and count the orders that share it
    timings = []
    for d in range(3):
        seen: dict[tuple[tuple[int, int], ...], tuple[int, ...]] = {}
        for perm in itertools.permutations(per_deck[d]):
            key = tuple(sorted(zip(perm, (s[2] for s in slots_of[d]), strict=True)))
            seen.setdefault(key, perm)
        timings.append(list(seen.values()))
    multiplicity = 1
    for d in range(3):
        for _, group in itertools.groupby(s[2] for s in slots_of[d]):
            multiplicity *= math.factorial(len(list(group)))
    target = state.observation(DETECTIVE)
    total = 0
    for choice in itertools.product(*timings):
        deal_of = {s[0]: card for d in range(3) for s, card in zip(slots_of[d], choice[d], strict=True)}
        world = game.new_game(seed=state.seed)
        position = sprint_no = 0
        try:
            for index, action in enumerate(state.history):
                if index in deal_of:
                    action = DEALS[deal_of[index]]
                elif isinstance(action, Hide):
                    position += 1
                    sprint_no = 0
                    if position in values:
                        action = HIDES[values[position]]
                elif isinstance(action, Sprint) and position in stacks:
                    action = SPRINTS[sorted(stacks[position])[sprint_no]]
                    sprint_no += 1
                world.apply(action)
        except IllegalAction:
            continue
        if world.observation(DETECTIVE) == target:
            total += multiplicity
    return total


def enumerate_worlds(state: FugitiveState) -> tuple[int, int]:
    """(worlds, deal orders): both measures' totals, by listing."""
    worlds = deals = 0
    for values, stacks, hand in fillings(state):
        orders = deal_orders(state, state.game, values, stacks, hand)
        if orders:
            worlds += 1
            deals += orders
    return worlds, deals


def listable(state: FugitiveState) -> bool:
    hidden = state.hidden_positions()
    return (
        len(hidden) <= 3 and sum(len(state.sprints[i]) for i in hidden) <= 3 and len(unseen_cards(state)) <= 9
    )


def choose(state: FugitiveState, rng: random.Random) -> gamelib.Action:
    """Random play, except that the detective often starts a series with a face-up number (a
    certain miss the text allows: the case issue 24 found miscounted)."""
    if state.current_player < 0:
        return state.sample_chance(rng)
    legal = state.legal_actions()
    if state.phase == 5 and rng.random() < 0.4:
        known = [a for a in legal if str(a).startswith("add ") and state.face_up >> int(str(a)[4:]) & 1]
        if known:
            return rng.choice(known)
    if state.phase == 6 and any(state.face_up >> n & 1 for n in state.series) and rng.random() < 0.7:
        # ... and goes on with a true face-down hideout: the view the old count refused
        hidden = {state.hideouts[i] for i in state.hidden_positions()}
        if hidden & set(state.series) and len(state.series) >= 2:
            return REVEAL
        adds = [a for a in legal if str(a).startswith("add ") and int(str(a)[4:]) in hidden]
        if adds:
            return rng.choice(adds)
    return rng.choice(legal)


def positions(options: dict, seed: int, count: int) -> Iterator[FugitiveState]:
    """Up to ``count`` detective decisions of random games under ``options``, small enough to list."""
    game = gamelib.make("fugitive", options=options)
    rng = random.Random(seed)
    found = 0
    for _ in range(40 * count):
        state = game.new_game(seed=rng.getrandbits(32))
        assert isinstance(state, FugitiveState)
        stop = rng.randrange(1, 12)  # the detective decision to stop at
        seen = 0
        while not state.is_terminal():
            if state.phase in DETECTIVE_PHASES:
                seen += 1
                if seen == stop or not listable(state):
                    break
            state.apply(choose(state, rng))
        if state.is_terminal() or state.phase not in DETECTIVE_PHASES or not listable(state):
            continue
        yield state
        found += 1
        if found == count:
            return


OPTIONS = [
    {"escape_card": 10},
    {"escape_card": 11, "edition": 2},
    {"escape_card": 12, "refuse_known_numbers": True},
    {"escape_card": 12, "manhunt": "immediate"},
    {"escape_card": 12, "edition": 2, "manhunt": "immediate", "refuse_known_numbers": True},
    {"escape_card": 9, "edition": 2},
    {"escape_card": 12, "canonical_order": True},
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_both_measures_equal_the_enumeration(options: dict) -> None:
    checked = 0
    for state in positions(options, seed=len(str(options)), count=6):
        clear_caches()
        got = belief(state, measure="worlds")
        worlds, deals = enumerate_worlds(state)
        if got.exact:
            assert (got.mass, belief(state, measure="deals").mass) == (worlds, deals), state.history
        else:  # the documented relaxations count a superset
            assert 0 < worlds <= got.mass
        checked += 1
    assert checked >= 3


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_both_measures_equal_the_enumeration_on_many_positions(options: dict) -> None:
    for state in positions(options, seed=1000 + len(str(options)), count=40):
        clear_caches()
        got = belief(state, measure="worlds")
        if got.exact:
            worlds, deals = enumerate_worlds(state)
            assert (got.mass, belief(state, measure="deals").mass) == (worlds, deals), state.history


def hand_built(lines: list[str], **options: object) -> FugitiveState:
    state = gamelib.make("fugitive", options=options).new_game(seed=0)
    for line in lines:
        state.apply(line)
    assert isinstance(state, FugitiveState)
    return state


SERIES_ON_A_FACE_UP_NUMBER = (
    *("hide 2", "done", "hide 3", "done", "draw 1", "deal 4", "draw 2", "deal 6", "guess 2"),
    *("draw 1", "deal 5", "hide 5", "done", "draw 3", "deal 8", "add 2", "add 5", "reveal"),
)


def test_a_series_naming_a_face_up_number_says_nothing() -> None:
    # escape card 10 (decks 4-5, 6-7, 8-9): hideouts 2, 3 then 5; 2 is found, then the series
    # {2, 5} names it again: a certain miss, so 5 stays possible (the issue's {19, 17})
    lines = [*SERIES_ON_A_FACE_UP_NUMBER]
    state = hand_built(lines, escape_card=10)
    clear_caches()
    got = belief(state, measure="worlds")
    assert got.position_probs[3][5] > 0
    assert (got.mass, belief(state).mass) == enumerate_worlds(state)


def test_a_series_with_a_face_up_number_and_one_found_later_is_consistent() -> None:
    # the series {2, 5} while 2 is face up, then 5 is found: both are known hideouts now, and the
    # series was a certain miss (the belief once called this view inconsistent)
    lines = [*SERIES_ON_A_FACE_UP_NUMBER, "draw 3", "deal 9", "pass", "draw 2", "deal 7", "guess 5"]
    state = hand_built(lines, escape_card=10)
    assert state.revealed == [True, True, False, True]
    clear_caches()
    assert belief(state, measure="worlds").mass == enumerate_worlds(state)[0] > 0


# ------------------------------------------------------------------------------ determinize
def world_weights(state: FugitiveState) -> dict[tuple, int]:
    """Every consistent world (hideouts, stacks as sets, hand) with its number of deal orders."""
    out = {}
    for values, stacks, hand in fillings(state):
        orders = deal_orders(state, state.game, values, stacks, hand)
        if orders:
            row = tuple(values.get(i, h) for i, h in enumerate(state.hideouts))
            sets = tuple(frozenset(stacks.get(i, state.sprints[i])) for i in range(len(state.hideouts)))
            out[(row, sets, frozenset(hand))] = orders
    return out


@pytest.mark.parametrize("measure", ["worlds", "deals"])
@pytest.mark.parametrize("options", OPTIONS[:4], ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_determinize_draws_whole_worlds_with_the_enumerated_weights(options: dict, measure: str) -> None:
    """Whole worlds (hideouts, every stack, the hand), not only marginals, against the listing:
    Pearson's chi-square at the 0.1% level over the listed worlds."""
    scipy_stats = pytest.importorskip("scipy.stats")
    from gamelib.fugitive.belief import determinize

    tried = 0
    for state in positions(options, seed=77 + len(str(options)), count=12):
        weights = world_weights(state)
        if not 3 <= len(weights) <= 40 or not belief(state).exact:
            continue
        tried += 1
        rng = random.Random(tried)
        draws = 60 * len(weights)
        seen: dict[tuple, int] = dict.fromkeys(weights, 0)
        for _ in range(draws):
            world = determinize(state, DETECTIVE, rng, measure=measure)
            key = (
                tuple(world.hideouts),
                tuple(frozenset(s) for s in world.sprints),
                frozenset(world.fugitive_hand),
            )
            assert key in seen, key
            seen[key] += 1
        total = sum(weights.values()) if measure == "deals" else len(weights)
        expected = [draws * (weights[k] if measure == "deals" else 1) / total for k in weights]
        assert scipy_stats.chisquare([seen[k] for k in weights], expected).pvalue > 1e-3
        if tried == 2:
            break
    assert tried >= 1
