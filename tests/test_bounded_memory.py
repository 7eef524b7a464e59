"""Refused input never grows memory: 20,000 refused actions leave the process as it was."""

from __future__ import annotations

import contextlib
import gc
import random
import tracemalloc

import pytest

import gamelib


def _decision(name: str) -> gamelib.State:
    """A state where a seat decides (not a chance node), reached by random play."""
    rng = random.Random(3)
    state = gamelib.make(name).new_game(seed=3)
    while state.is_chance_node() or len(state.history) < 8:
        if state.is_terminal():
            raise AssertionError(f"{name}: game over before a decision")
        state.apply(state.sample_chance() if state.is_chance_node() else rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_refused_actions_do_not_grow_memory(name: str) -> None:
    state = _decision(name)
    game = state.game
    texts = [f"{verb} {n}" for verb in ("bid", "guess", "wish", "ticket", "hide") for n in range(4000)]
    refused = 0
    for text in texts[:500]:  # warm every path once
        with contextlib.suppress(gamelib.IllegalAction):
            state.clone().apply(text)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        probe = state.clone()
        for text in texts:
            try:
                game.parse_action(text)
                probe.apply(text)
            except gamelib.IllegalAction:
                refused += 1
            else:
                probe = state.clone()
        del probe
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert refused > 10_000
    assert grown < 50_000, f"{name}: {grown} bytes kept after {refused} refused actions"
