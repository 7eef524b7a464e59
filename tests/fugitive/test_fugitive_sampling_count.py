"""The detective's determinization reads its first draws at a position from the counting programme
(:class:`~gamelib.fugitive.belief.sampling.CountSampler`): the same distribution of hideout values
and per-stack group counts as the full sampler, checked exactly by enumerating both samplers'
trees of labels (every label's weight is an exact count), under the rule options that change the
count (editions, small decks, canonical order, hidden escape sprints, mid-stack positions)."""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import pytest
from fugitive_positions import random_position

import gamelib
from gamelib.fugitive.belief import belief, clear_caches, probabilities, sampling
from gamelib.fugitive.belief.bits import GROUP, GROUPS, VALUE
from gamelib.fugitive.belief.sampling import PAIR_LABEL, CountSampler, Node, Sampler
from gamelib.fugitive.rules import DETECTIVE, F_SPRINT, FugitiveState

LEAVES = 3000
"""Worlds (values and counts) enumerated at most per position; larger positions are skipped."""

Law = dict[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]], float]


class TooLarge(Exception):
    pass


def _enumerate(steps: list[tuple[int, tuple[int, int, int]]], weigh: Any, root: Node, size: int) -> Law:
    """The probability of every (values, counts) the walk can draw, from its exact label weights."""
    law: Law = defaultdict(float)
    leaves = [0]

    def down(
        n: int, node: Node, p: float, values: dict[int, int], counts: dict[tuple[int, int], int]
    ) -> None:
        t, (i, kind, g) = steps[n]
        if node.current is not None:
            weigh(t, kind, node)
        total, before = node.cumulative[-1], 0
        for label, running in zip(list(node.labels), list(node.cumulative), strict=True):
            q = p * (running - before) / total
            before = running
            vs, cs = dict(values), dict(counts)
            if kind == VALUE:
                vs[i] = label
            elif kind == GROUP:
                cs[i, g] = label
            else:
                cs[i, g], cs[i, g + 1] = divmod(label, PAIR_LABEL)
            if n == len(steps) - 1:
                leaves[0] += 1
                if leaves[0] > LEAVES:
                    raise TooLarge
                key = (
                    tuple(vs.get(j, -1) for j in range(1, size + 1)),
                    tuple(tuple(cs.get((j, h), 0) for h in range(GROUPS)) for j in range(1, size + 1)),
                )
                law[key] += q
                continue
            child = node.children.get(label)
            if child is None:
                child = node.children[label] = Node(node.ahead.pop(label))
            down(n + 1, child, q, vs, cs)

    down(0, root, 1.0, {}, {})
    return law


def full_law(sampler: Sampler) -> Law:
    steps = list(enumerate(sampler.prog.layers))
    return _enumerate(steps, lambda t, _, node: sampler.weigh(t, node), sampler.root, sampler.facts.size)


def count_law(sampler: CountSampler) -> Law:
    prog = sampler.prog
    steps = list(enumerate(prog.layers))
    if prog.folded:
        steps += [(g, (prog.npos, GROUP, g)) for g in range(GROUPS)]

    def weigh(t: int, kind: int, node: Node) -> None:
        (sampler.weigh_last if kind == GROUP else sampler.weigh)(t, node)

    return _enumerate(steps, weigh, sampler.root, sampler.facts.size)


def positions() -> list[tuple[str, FugitiveState]]:
    configs: list[dict[str, Any]] = [
        {},
        {"edition": 2},
        {"escape_card": 12},
        {"escape_card": 16, "edition": 2},
        {"canonical_order": True},
        {"escape_sprints": "hidden"},
        {"refuse_known_numbers": True, "manhunt": "immediate"},
    ]
    out = []
    for c, options in enumerate(configs):
        for seed in range(4):
            for steps in (12, 24, 40):
                state = random_position(100 * c + seed, steps, **options)
                if not state.is_terminal():
                    out.append((f"{options}-{seed}-{steps}", state))
    return out


@pytest.mark.parametrize("measure", ["deals", "worlds"])
def test_the_count_sampler_draws_what_the_full_sampler_draws(measure: str) -> None:
    compared = pending = 0
    for name, state in positions():
        clear_caches()
        facts, _ = sampling.facts_and_plan(state)
        if facts.size == 0:
            continue
        try:
            full = full_law(sampling._full_sampler(facts, measure))
            count = count_law(sampling._count_sampler(facts, measure))
        except TooLarge:
            continue
        assert set(count) == set(full), name
        for key, p in full.items():
            assert count[key] == pytest.approx(p, rel=1e-9, abs=1e-15), (name, key)
        compared += 1
        pending += facts.pending
    assert compared >= 40
    assert pending >= 3  # mid-stack positions: the hand may still pay the last hideout


def test_every_draw_comes_from_the_count_sampler_kept_for_the_position() -> None:
    clear_caches()
    state = random_position(7, 30)
    key = (*sampling.facts_key(sampling.facts_and_plan(state)[0]), "deals")
    rng = random.Random(0)
    state.determinize(DETECTIVE, rng)
    sampler = sampling.SAMPLERS[key]
    assert isinstance(sampler, CountSampler)
    for _ in range(200):
        state.determinize(DETECTIVE, rng)
    assert sampling.SAMPLERS[key] is sampler
    assert sampler.draws == 201


@pytest.mark.parametrize("seed", [2, 5, 11])
def test_the_same_rng_draws_the_same_worlds_with_cold_or_warm_caches(seed: int) -> None:
    # A sampler that changed after some draws (the full programme's after 64, once) gave other
    # worlds from the same rng when the caches were warm: a seeded IS-MCTS did not repeat.
    state = random_position(seed, 25)
    if state.is_terminal():
        pytest.skip("the game ended")

    def draws() -> list[tuple[str, ...]]:
        rng = random.Random(5)
        worlds = []
        for _ in range(90):
            worlds.append(tuple(map(str, state.determinize(DETECTIVE, rng).history)))
            rng.random()
        return worlds

    clear_caches()
    cold = draws()
    assert draws() == cold
    assert draws() == cold
    clear_caches()
    belief(state)  # the count the belief keeps serves the draws instead of a count of their own
    assert draws() == cold


def test_worlds_of_a_mid_stack_position_replay() -> None:
    game = gamelib.make("fugitive")
    found = 0
    for seed in range(40):
        state = random_position(seed, 30)
        while not state.is_terminal() and state.phase != F_SPRINT:
            state.apply(state.sample_chance() if state.current_player < 0 else state.legal_actions()[0])
        if state.is_terminal():
            continue
        clear_caches()
        world = state.determinize(DETECTIVE, random.Random(seed))
        replay = game.new_game(seed=state.seed)
        for action in world.history:
            replay.apply(action)
        assert replay.observation(DETECTIVE) == state.observation(DETECTIVE)
        found += 1
    assert found >= 5


def test_a_position_the_belief_counted_is_not_counted_again_to_draw_worlds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The direct count keeps no programme to share: off, so every position here leaves one.
    monkeypatch.setattr(probabilities, "DIRECT_COUNT", False)
    shared = 0
    for seed in range(6):
        clear_caches()
        state = random_position(seed, 40)
        if state.is_terminal():
            continue
        belief(state)
        key = (*sampling.facts_key(sampling.facts_and_plan(state)[0]), "deals")
        kept = sampling.COUNTED.get(key)  # None: the belief counted it another way
        state.determinize(DETECTIVE, random.Random(0))
        sampler = sampling.SAMPLERS[key]
        assert isinstance(sampler, CountSampler)
        if kept is not None:
            assert sampler.prog is kept
            shared += 1
    assert shared >= 2
