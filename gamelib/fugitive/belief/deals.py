"""Deal orders: which deal brought which card, for both seats' determinizations.

A world fixes where each card is; the history also says when each was dealt.  For the fugitive's
cards a deal of deck ``d`` made with ``k`` hideouts on the table can bring a card laid at position
``k + 1`` or later (or one still in hand); for the detective's, a card he named cannot have been in
his hand then.  Both are matchings sampled uniformly among the valid ones.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from typing import Any

from gamelib.core.errors import IllegalAction
from gamelib.fugitive.rules import DETECTIVE, FUGITIVE, Deal, FugitiveState, cards_of

ATTEMPTS = 2000
"""Detective hands tried (canonical order only) before giving up."""


def pick(weights: list[int], rng: random.Random) -> int:
    """An index drawn with probability proportional to exact integer weights."""
    total = sum(weights)
    r = rng.randrange(total)
    for i, w in enumerate(weights):
        if r < w:
            return i
        r -= w
    raise AssertionError("unreachable")


def assign_slots(cards: list[tuple[int, int]], slots: list[int], rng: random.Random) -> dict[int, int] | None:
    """Give each card a distinct slot, uniformly among valid matchings.

    ``cards``: (card, bound) with a slot valid iff ``slot_key < bound`` for cards that must have
    arrived in time; ``slots``: the slots' keys.  Processing cards tightest bound first, the
    number of free valid slots never depends on earlier choices, so each step is uniform.
    Returns card -> slot index, or None if impossible.
    """
    order = sorted(cards, key=lambda cb: cb[1])
    if all(a <= b for a, b in itertools.pairwise(slots)):
        return _assign_sorted(order, slots, rng)
    used = [False] * len(slots)
    out = {}
    for card, bound in order:
        free = [j for j, key in enumerate(slots) if key < bound and not used[j]]
        if not free:
            return None
        j = free[int(rng.random() * len(free))]
        used[j] = True
        out[card] = j
    return out


def _assign_sorted(
    order: list[tuple[int, int]], slots: list[int], rng: random.Random
) -> dict[int, int] | None:
    """:func:`assign_slots` when the slots' keys never decrease (the fugitive's deals, in history
    order): a card's valid slots are a prefix, its free ones the unused indices below the prefix's
    end, in the same order as the general loop lists them (the same draws, the same matching)."""
    unused = list(range(len(slots)))
    out = {}
    for card, bound in order:
        k = bisect.bisect_left(unused, bisect.bisect_left(slots, bound))
        if not k:
            return None
        out[card] = unused.pop(int(rng.random() * k))
    return out


def deal_slots(state: FugitiveState) -> list[tuple[int, int, int, int]]:
    """Every deal in the history: (history index, receiver, deck, hideouts on the table)."""
    out = []
    deal_no = 0
    setup_deals = state.layout.setup_deals
    for index, action in enumerate(state.history):
        if not isinstance(action, Deal):
            continue
        if index < len(setup_deals):
            out.append((index, FUGITIVE, setup_deals[index], 0))
        else:
            player, deck, on_table = state.draw_log[deal_no]
            out.append((index, player, deck, on_table))
            deal_no += 1
    return out


def replay(state: FugitiveState, actions: list[Any]) -> FugitiveState | None:
    world = state.game.new_game(seed=state.seed)
    try:
        for action in actions:
            world.apply(action)
    except IllegalAction:
        return None
    assert isinstance(world, FugitiveState)
    return world


def determinize_fugitive(state: FugitiveState, rng: random.Random) -> FugitiveState:
    """The detective's hand and deal order, sampled; with canonical order, redrawn until it replays.

    Canonical order adds a rule the deal order can break: a series may only start with a number
    that has a higher nameable one, so the detective's hand at that moment must leave one free.
    Those samples are rejected; without canonical order the first sample always replays.
    """
    slots = [s for s in deal_slots(state) if s[1] == DETECTIVE]
    last_named: dict[int, int] = {}
    for index, action in enumerate(state.history):
        number = getattr(action, "number", None)
        if number is not None and state.refuse_known:  # else a held card may be named too
            last_named[number] = index
    attempts = ATTEMPTS if state.canonical else 1
    for _ in range(attempts):
        assignment: dict[int, int] = {}
        for d in range(3):
            pool = cards_of(state.decks[d] | (state.dhand & state.layout.deck_masks[d]))
            mine = [s for s in slots if s[2] == d]
            chosen = _sample_detective_cards(pool, [s[0] for s in mine], last_named, rng)
            # a card named at step t came to the detective's hand after t: slot index > t
            cards = [(c, -last_named.get(c, -1)) for c in chosen]
            matched = assign_slots(cards, [-s[0] for s in mine], rng)
            assert matched is not None
            for card, j in matched.items():
                assignment[mine[j][0]] = card
        actions = [f"deal {assignment[i]}" if i in assignment else a for i, a in enumerate(state.history)]
        world = replay(state, actions)
        if world is not None:
            return world
    if not state.canonical:
        raise AssertionError("determinize: the rewritten history does not replay")
    raise RuntimeError("determinize: no detective hand found that keeps every series in canonical order")


def _sample_detective_cards(
    pool: list[int], slots: list[int], last_named: dict[int, int], rng: random.Random
) -> list[int]:
    """Uniformly, ``len(slots)`` cards of ``pool`` the detective can have drawn at those steps.

    A card named at step ``t`` cannot have been in the detective's hand then, so it came with a
    deal after ``t``.  Group the cards by ``rank`` = how many deals came before their last
    naming; a hand is possible iff, for every ``k``, at most ``m - k`` of its cards have rank
    ``>= k`` (Hall's condition for suffixes).  Count hands by rank groups, then sample.
    """
    m = len(slots)
    order = sorted(slots)
    groups: list[list[int]] = [[] for _ in range(m + 1)]
    for c in pool:
        named = last_named.get(c, -1)
        groups[bisect.bisect_left(order, named + 1)].append(c)
    memo: dict[tuple[int, int], int] = {}

    def ways(k: int, taken: int) -> int:
        # choices among groups k, k-1, ..., 0 given ``taken`` cards of rank > k
        if k < 0:
            return 1 if taken == m else 0
        key = (k, taken)
        if key not in memo:
            memo[key] = sum(
                math.comb(len(groups[k]), j) * ways(k - 1, taken + j)
                for j in range(len(groups[k]) + 1)
                if taken + j <= m - k
            )
        return memo[key]

    if ways(m - 1, 0) == 0:
        raise ValueError("inconsistent state: no detective hand fits the guesses it made")
    chosen: list[int] = []
    taken = 0
    for k in range(m - 1, -1, -1):
        options = [j for j in range(len(groups[k]) + 1) if taken + j <= m - k]
        weights = [math.comb(len(groups[k]), j) * ways(k - 1, taken + j) for j in options]
        j = options[pick(weights, rng)]
        chosen += rng.sample(groups[k], j)
        taken += j
    return chosen
