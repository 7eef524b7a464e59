"""Generic tests run over every registered game and player count (OpenSpiel-style).

They rely only on the public contract and on each game's metadata, so a new game gets them
for free by registering itself.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from game_configs import configurations

import gamelib
from gamelib.agents import RandomAgent
from gamelib.core import rng as grng

SEEDS = int(__import__("os").environ.get("GAMELIB_GENERIC_SEEDS", "500"))


CONFIGS = [(name, players) for name, players, _ in configurations(gamelib.registered_games())]
IDS = [f"{n}-{p}p" for n, p in CONFIGS]


def random_walk(state, rng: random.Random, steps: int):
    """Random legal play (chance sampled with its probabilities) for at most ``steps`` actions."""
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.current_player == gamelib.CHANCE:
            outcomes = state.chance_outcomes()
            assert outcomes, "a chance node must list its outcomes"
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            state.apply(state.sample_chance(rng))
        else:
            actions = state.legal_actions()
            assert actions, f"no legal action for player {state.current_player} in\n{state}"
            state.apply(rng.choice(actions))
    return state


def walked(
    game: gamelib.Game, rng: random.Random, seeds: int, low: int, high: int
) -> Iterator[tuple[int, Any]]:
    """``(seed, position)`` after a random number in [low, high) of random actions from each of
    ``seeds`` new games; the games that ended by then are left out."""
    for seed in range(seeds):
        state = random_walk(game.new_game(seed=seed), rng, rng.randrange(low, high))
        if not state.is_terminal():
            yield seed, state


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_random_play_ends_within_max_length(name: str, players: int) -> None:
    game = gamelib.make(name, players=players)
    info = game.info
    per_config = max(20, SEEDS // max(1, len(CONFIGS) // len(set(n for n, _ in CONFIGS))))
    for seed in range(per_config):
        state = gamelib.play(game, [RandomAgent()] * players, seed=seed)
        assert state.is_terminal(), f"seed {seed}: not over after {len(state.history)} actions"
        assert len(state.history) <= game.max_game_length
        returns = state.returns()
        assert len(returns) == players
        assert all(info.min_return <= r <= info.max_return for r in returns), returns
        if info.utility == "zero_sum":
            assert abs(sum(returns)) < 1e-9


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_same_seed_same_game(name: str, players: int) -> None:
    game = gamelib.make(name, players=players)
    a = gamelib.play(game, [RandomAgent()] * players, seed=11)
    b = gamelib.play(game, [RandomAgent()] * players, seed=11)
    assert [str(x) for x in a.history] == [str(x) for x in b.history]
    assert a.returns() == b.returns()


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_clone_independence(name: str, players: int) -> None:
    game = gamelib.make(name, players=players)
    rng = random.Random(5)
    for _, state in walked(game, rng, 10, 0, 80):
        snapshot = state.key()
        history = [str(a) for a in state.history]
        copy = state.clone()
        assert copy == state
        random_walk(copy, rng, 30)
        assert state.key() == snapshot
        assert [str(a) for a in state.history] == history


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_record_round_trip(name: str, players: int) -> None:
    game = gamelib.make(name, players=players)
    for seed in range(5):
        state = gamelib.play(game, [RandomAgent()] * players, seed=seed)
        record = json.loads(json.dumps(state.to_record()))
        replayed = gamelib.from_record(record)
        assert replayed == state
        assert replayed.returns() == state.returns()


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_notation_round_trip_and_legal_actions_distinct(name: str, players: int) -> None:
    game = gamelib.make(name, players=players)
    rng = random.Random(3)
    state = game.new_game(seed=3)
    while not state.is_terminal():
        actions = state.legal_actions()
        assert len(set(actions)) == len(actions), "legal actions must be distinct"
        assert len({str(a) for a in actions}) == len(actions), "notations must be distinct"
        for action in actions:
            assert game.parse_action(str(action)) == action
            hash(action)
        if state.current_player == gamelib.CHANCE:
            assert {a for a, _ in state.chance_outcomes()} == set(actions)
        state.apply(rng.choice(actions))


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_illegal_action_leaves_state_unchanged(name: str, players: int) -> None:
    """Every notation of another position's action that is illegal here is refused cleanly."""
    game = gamelib.make(name, players=players)
    rng = random.Random(9)
    seen: set[str] = set()
    for seed in range(5):
        state = game.new_game(seed=seed)
        while not state.is_terminal():
            actions = state.legal_actions()
            legal = {str(a) for a in actions}
            seen |= legal
            candidates = rng.sample(sorted(seen - legal), min(8, len(seen - legal)))
            for text in candidates:
                before_key, before_hist = state.key(), list(state.history)
                with pytest.raises(gamelib.IllegalAction) as err:
                    state.apply(text)
                assert err.value.rule, "the error must name the rule broken"
                assert state.key() == before_key and state.history == before_hist
            state.apply(rng.choice(actions))
    with pytest.raises(gamelib.IllegalAction):
        state.apply(actions[0] if actions else "nonsense")


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_determinize_is_consistent_with_observation(name: str, players: int) -> None:
    game = gamelib.make(name, players=players)
    rng = random.Random(2)
    for seed, state in walked(game, rng, 8, 5, 60):
        if state.current_player == gamelib.CHANCE:
            continue
        for player in range(players):
            world = state.determinize(player, random.Random(seed))
            assert world.observation(player) == state.observation(player)
            assert world.current_player == state.current_player
            # the sampled world must be playable on from here
            random_walk(world, rng, 20)


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_metadata(name: str) -> None:
    info = gamelib.core.game_class(name).info
    assert info.name == name
    assert info.min_players <= info.default_players <= info.max_players
    assert info.min_return <= info.max_return
    game = gamelib.make(name)
    assert game.max_game_length > 0
    assert repr(game).startswith("gamelib.make(")


def test_unknown_game_and_options_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        gamelib.make("monopoly")
    for name in gamelib.registered_games():
        with pytest.raises(ValueError, match="unknown rule option"):
            gamelib.make(name, options={"no_such_option": 1})


def test_seed_derivation_is_stable() -> None:
    # fixed numbers: the same seed must give the same game on every machine and Python
    assert grng.splitmix64(0) == 0xE220A8397B1DCDAF
    assert grng.uniform(7, 0) == grng.uniform(7, 0)
    assert 0.0 <= grng.uniform(123, 45) < 1.0


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_every_legal_action_is_in_the_action_universe(name: str, players: int) -> None:
    game = gamelib.make(name, players=players)
    universe = game.action_universe()
    assert len(set(universe)) == len(universe), "the universe lists each action once"
    rng = random.Random(4)
    for seed in range(5):
        state = game.new_game(seed=seed)
        while not state.is_terminal():
            actions = state.legal_actions()
            for action in actions:
                assert universe[game.action_id(action)] == action
            state.apply(rng.choice(actions))


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_returns_during_play_matches_the_metadata(name: str) -> None:
    """``GameInfo.returns_during_play`` is False only if returns stay 0 until the end."""
    game = gamelib.make(name)
    if game.info.returns_during_play:
        return
    rng = random.Random(8)
    for seed in range(10):
        state = game.new_game(seed=seed)
        while not state.is_terminal():
            assert not any(state.returns()), f"returns moved mid-game: {state.returns()}"
            state.apply(rng.choice(state.legal_actions()))
