"""The search agents' uniform rollout without core's per-move bookkeeping (``_uniform_rollout``)
plays the very moves of the loop through ``legal_actions`` and ``apply_legal``, on every game."""

from __future__ import annotations

import random

import pytest

import gamelib
from gamelib.agents import ISMCTSAgent, MCTSAgent
from gamelib.agents.mcts import _plain, _uniform_rollout
from gamelib.core.game import CHANCE, TERMINAL, State
from gamelib.core.play import random_playout


def checked_rollout(state: State, rng: random.Random, limit: int) -> None:
    """The rollout through the public contract: ``legal_actions`` and ``apply_legal``."""
    steps = 0
    while steps < limit and state.current_player != TERMINAL:
        if state.current_player == CHANCE:
            state.apply_legal(state.sample_chance(rng))
        else:
            actions = state.legal_actions()
            state.apply_legal(actions[int(rng.random() * len(actions))])
        steps += 1


def starts(name: str, count: int = 6) -> list[State]:
    game = gamelib.make(name)
    out = []
    for seed in range(count):
        rng = random.Random(seed)
        out.append(random_playout(game.new_game(seed=seed), rng, max_actions=rng.randrange(0, 30)))
    return out


@pytest.mark.parametrize("name", gamelib.registered_games())
@pytest.mark.parametrize("limit", [10**9, 7])
def test_uniform_rollout_plays_the_moves_of_the_checked_loop(name: str, limit: int) -> None:
    for i, state in enumerate(starts(name)):
        assert _plain(type(state))
        state.legal_actions()  # a cached list of legal moves at the start is dropped
        fast, slow = state.clone(), state.clone()
        _uniform_rollout(fast, random.Random(i), limit)
        checked_rollout(slow, random.Random(i), limit)
        assert fast.history == slow.history
        assert fast == slow and fast.returns() == slow.returns()
        assert fast.legal_actions() == slow.legal_actions()  # no stale cache left behind
        assert len(fast.history) - len(state.history) <= limit


def test_a_state_class_with_its_own_legal_actions_takes_the_checked_loop() -> None:
    class Odd(type(gamelib.make("passante").new_game(seed=0))):  # type: ignore[misc]
        def legal_actions(self) -> list[gamelib.Action]:
            return super().legal_actions()

    assert not _plain(Odd)
    state = gamelib.make("passante").new_game(seed=0)
    assert _plain(type(state))


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_search_statistics_are_reproducible(name: str) -> None:
    state = starts(name, 3)[-1]
    if state.is_terminal() or state.current_player < 0:
        state = gamelib.make(name).new_game(seed=0)
        while state.current_player < 0:
            state.apply(state.sample_chance(random.Random(0)))
    for agent in (ISMCTSAgent(iterations=60, rollout="random"), MCTSAgent(iterations=60, omniscient=True)):
        first = agent.analyse(state, state.current_player, random.Random(5))
        again = agent.analyse(state, state.current_player, random.Random(5))
        assert first == again
        assert sum(s.visits for s in first) <= 60


def test_a_state_class_patched_later_takes_the_checked_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    state = gamelib.make("passante").new_game(seed=0)
    assert _plain(type(state))
    monkeypatch.setattr(type(state), "apply_legal", lambda self, action: State.apply_legal(self, action))
    assert not _plain(type(state))
