"""``State.apply_legal``: the unchecked fast path of rollouts plays exactly what ``apply`` plays."""

from __future__ import annotations

import random

import pytest

import gamelib


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_apply_legal_plays_the_same_game_as_apply(name: str) -> None:
    game = gamelib.make(name)
    for seed in range(5):
        checked, fast = game.new_game(seed=seed), game.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if checked.is_terminal():
                break
            if checked.is_chance_node():
                action = checked.sample_chance(rng)
            else:
                action = rng.choice(checked.legal_actions())
            checked.apply(action)
            fast.apply_legal(action)
            assert fast.key() == checked.key()
        assert fast.history == checked.history and fast.returns() == checked.returns()
        assert gamelib.from_record(fast.to_record()).key() == fast.key()


def test_apply_still_refuses_what_apply_legal_would_trust() -> None:
    state = gamelib.make("fugitive").new_game(seed=0)
    before = state.key()
    with pytest.raises(gamelib.IllegalAction):
        state.apply("guess 5")
    assert state.key() == before
