"""``State.surely_continues``: a promise agents rely on to skip playing moves, never broken."""

from __future__ import annotations

import random

import pytest

import gamelib


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_a_move_said_to_continue_leaves_a_player_to_move(name: str) -> None:
    game = gamelib.make(name)
    promised = 0
    for seed in range(4):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(600):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            for action in state.legal_actions():
                if state.surely_continues(action):
                    promised += 1
                    child = state.clone()
                    child.apply(action)
                    assert child.current_player >= 0, (name, seed, action)
            state.apply(rng.choice(state.legal_actions()))
    if name == "fugitive":
        assert promised > 100  # every series' "add N" is promised


def test_fugitive_promises_adds_only() -> None:
    state = gamelib.make("fugitive").new_game(seed=3)
    rng = random.Random(3)
    kinds: set[str] = set()
    while not state.is_terminal():
        if not state.is_chance_node():
            kinds |= {type(a).__name__ for a in state.legal_actions() if state.surely_continues(a)}
        state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    assert kinds == {"Add"}
