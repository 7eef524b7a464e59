"""A determinized world's chance is its own (issue 22 item 2), for every registered game.

``state.determinize(p, rng)`` gives a world whose seed is drawn from ``rng``: neither
``new_game(seed=world.seed)`` nor ``world.sample_chance()`` without an rng may tell the real
game's hidden deal or its next chance outcome.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

import gamelib


def _chance_positions(name: str, wanted: int = 2) -> list[gamelib.State]:
    """Chance nodes after a few decisions of random play (where the seats have secrets)."""
    found: list[gamelib.State] = []
    for seed in range(40):
        rng = random.Random(seed)
        state = gamelib.make(name).new_game(seed=1000 + seed)
        decisions = 0
        while not state.is_terminal() and len(state.history) < 300:
            if state.is_chance_node():
                if decisions >= 3 and len(state.chance_outcomes()) > 1:
                    found.append(state.clone())
                    break
                state.apply(state.sample_chance())
            else:
                state.apply(rng.choice(state.legal_actions()))
                decisions += 1
        if len(found) == wanted:
            return found
    raise AssertionError(f"{name}: no chance node with a choice after decisions")


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_a_world_samples_its_own_chance(name: str) -> None:
    worlds = 60
    for state in _chance_positions(name):
        real = state.sample_chance()  # the real next outcome, from the real seed
        for player in range(state.game.num_players):
            same, expected, variance = 0, 0.0, 0.0
            for k in range(worlds):
                world = state.determinize(player, random.Random(k))
                assert world.seed != state.seed
                assert world.information_state(player) == state.information_state(player)
                p = dict(world.chance_outcomes()).get(real, 0.0)
                expected += p
                variance += p * (1 - p)
                same += world.sample_chance() == real
            # a world draws the real outcome at the rate its own chance gives it, no more
            assert same <= expected + 4 * math.sqrt(variance) + 2, (name, player, same, expected)


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_a_world_seed_does_not_replay_the_real_deal(name: str) -> None:
    state = _chance_positions(name, wanted=1)[0]
    seeds = {state.determinize(0, random.Random(k)).seed for k in range(20)}
    assert state.seed not in seeds and len(seeds) == 20
    again = {state.determinize(0, random.Random(k)).seed for k in range(20)}
    assert again == seeds  # the caller's rng decides: same rng, same worlds


def test_determinize_needs_an_rng() -> None:
    state = gamelib.make("fugitive").new_game(seed=1)
    with pytest.raises(TypeError, match=r"random\.Random"):
        state.determinize(1, None)  # type: ignore[arg-type]
    world = state.determinize(np.int64(1), random.Random(0))  # any integral seat
    assert world.information_state(1) == state.information_state(1)
