"""Every registered game as a PettingZoo AEC environment."""

from __future__ import annotations

import numpy as np
import pytest

import gamelib

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test

from gamelib.interop.pettingzoo import env


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", gamelib.registered_games())
def test_api_test(name: str) -> None:
    api_test(env(name), num_cycles=300, verbose_progress=False)


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_masked_random_play_matches_the_native_game(name: str) -> None:
    e = env(name)
    e.reset(seed=5)
    rng = np.random.default_rng(0)
    for _agent in e.agent_iter(max_iter=5000):
        obs, _reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size > 0
        e.step(int(rng.choice(legal)))
    final = e.state_
    assert final is not None and final.is_terminal()
    replay = gamelib.from_record(final.to_record())
    assert replay == final
    assert e.rewards == {} or all(isinstance(r, float) for r in e.rewards.values())


def test_illegal_action_is_refused() -> None:
    e = env("fugitive")
    e.reset(seed=1)
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(gamelib.IllegalAction):
        e.step(illegal)
    with pytest.raises(ValueError, match="action must be"):
        e.step(10**6)


def test_same_seed_same_game() -> None:
    def run(seed: int) -> list[str]:
        e = env("fugitive")
        e.reset(seed=seed)
        rng = np.random.default_rng(3)
        for _ in e.agent_iter(max_iter=200):
            obs, _, term, trunc, _ = e.last()
            e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return [str(a) for a in e.state_.history]  # type: ignore[union-attr]

    assert run(4) == run(4)
