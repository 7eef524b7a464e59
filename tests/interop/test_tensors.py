"""Observation tensors of every registered game: the contract learning libraries rely on.

OpenSpiel and PettingZoo size their observation spaces once, from the initial state, then copy
``state.observation_tensor(player)`` into that buffer at every step.  So a tensor must keep one
length per game configuration, stay in [0, 1], move when the observed position moves, and never
leak what ``player`` may not see: a determinized world (hidden information resampled) must give
``player`` exactly the same tensor.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from game_configs import configurations as game_configurations

import gamelib
from gamelib.core.game import State
from gamelib.delanopolis.encoding import delanopolis_tensor_size
from gamelib.getonboard.rules import getonboard_tensor_size
from gamelib.passante.encoding import passante_tensor_size

TENSOR_GAMES = [n for n in gamelib.registered_games() if gamelib.make(n).info.has("observation_tensor")]

# Rule options that change what the tensor has to encode (open hands, hints, other boards).
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "passante": [{"open_hands": True, "table_talk": True}],
    "delanopolis": [
        {"placement": "sum", "refuge_on_double": True, "mayor_bid": "open_first"},
        {"refuges": 0, "chain_auctions": True, "boost_timing": "any_roll", "bid_step": 1},
    ],
    "getonboard": [{"city": "paris", "free_city": True}],
}

EXPECTED_SIZE: dict[str, Callable[[Any], int]] = {
    "passante": lambda game: passante_tensor_size(game.num_players),
    "delanopolis": lambda game: delanopolis_tensor_size(game.num_players),
    "getonboard": getonboard_tensor_size,
}


def configurations() -> list[tuple[str, int, dict[str, Any]]]:
    return game_configurations(TENSOR_GAMES, VARIANTS)


CONFIGS = configurations()
IDS = [f"{n}-{p}p" + ("-" + "-".join(sorted(o)) if o else "") for n, p, o in CONFIGS]
SEEDS = 4


def walk(state: State, rng: random.Random) -> Iterator[State]:
    """Every state of one random game (chance sampled with its probabilities), the first included."""
    yield state
    while not state.is_terminal():
        if state.current_player == gamelib.CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        yield state


def tensors(state: State) -> list[list[float]]:
    return [state.observation_tensor(p) for p in range(state.game.num_players)]


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS, ids=IDS)
def test_length_is_constant_and_values_in_unit_interval(
    name: str, players: int, options: dict[str, Any]
) -> None:
    game = gamelib.make(name, players=players, options=options)
    expected = len(game.new_game(0).observation_tensor(0))
    if name in EXPECTED_SIZE:
        assert expected == EXPECTED_SIZE[name](game), "the documented size function disagrees"
    for seed in range(SEEDS):
        for state in walk(game.new_game(seed), random.Random(seed)):
            for player, tensor in enumerate(tensors(state)):
                assert len(tensor) == expected, f"seed {seed}, step {len(state.history)}, player {player}"
                assert all(isinstance(x, float) and math.isfinite(x) and 0.0 <= x <= 1.0 for x in tensor), (
                    f"seed {seed}, step {len(state.history)}, player {player}: "
                    f"{[(i, x) for i, x in enumerate(tensor) if not 0.0 <= x <= 1.0][:5]}"
                )


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS, ids=IDS)
def test_tensor_moves_with_the_position(name: str, players: int, options: dict[str, Any]) -> None:
    """Every action changes what someone sees, and a player's own move changes their own tensor."""
    game = gamelib.make(name, players=players, options=options)
    for seed in range(SEEDS):
        state = game.new_game(seed)
        rng = random.Random(seed)
        before = tensors(state)
        while not state.is_terminal():
            mover = state.current_player
            if mover == gamelib.CHANCE:
                action = state.sample_chance(rng)
            else:
                action = rng.choice(state.legal_actions())
            state.apply(action)
            after = tensors(state)
            where = f"seed {seed}, step {len(state.history)} ({action})"
            if mover == gamelib.CHANCE:
                assert after != before, f"{where}: nobody's tensor changed"
            else:
                assert after[mover] != before[mover], f"{where}: the mover's own tensor did not change"
            before = after


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS, ids=IDS)
def test_hidden_information_never_shows(name: str, players: int, options: dict[str, Any]) -> None:
    """A world that differs only in what ``player`` cannot see gives ``player`` the same tensor.

    For imperfect-information games the worlds must also differ somewhere for somebody else
    (otherwise the check would be vacuous, or the tensor would omit the players' own secrets).
    """
    game = gamelib.make(name, players=players, options=options)
    hidden_seen = False
    for seed in range(SEEDS):
        rng = random.Random(100 + seed)
        checked = 0
        for state in walk(game.new_game(seed), random.Random(seed)):
            # some determinizers solve a constraint problem: sample the game, do not sweep it
            if len(state.history) % 3 or checked >= 15:
                continue
            checked += 1
            own = tensors(state)
            for player in range(players):
                world = state.determinize(player, rng)
                world_tensors = tensors(world)
                assert world_tensors[player] == own[player], (
                    f"seed {seed}, step {len(state.history)}: player {player}'s tensor shows hidden information"
                )
                hidden_seen = hidden_seen or world_tensors != own
    # alone at the table (solo Passante) the only secret is the deck order, which no tensor shows
    hides_something = not game.info.perfect_information and not options.get("open_hands") and players > 1
    assert hidden_seen == hides_something


@pytest.mark.parametrize("name", [n for n in TENSOR_GAMES if n in EXPECTED_SIZE])
def test_openspiel_observer_uses_the_tensor(name: str) -> None:
    pytest.importorskip("pyspiel")
    from gamelib.interop.openspiel import load_game

    spiel = load_game(name)
    state = spiel.new_initial_state()
    native = gamelib.make(name)
    size = EXPECTED_SIZE[name](native)
    rng = random.Random(0)
    for _ in range(40):
        if state.is_terminal():
            break
        for player in range(spiel.num_players()):
            tensor = state.observation_tensor(player)
            assert len(tensor) == size
            assert list(tensor) == pytest.approx(state.gamelib_state.observation_tensor(player))
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_observation_tensor_rejects_a_bad_player() -> None:
    for name in [n for n in TENSOR_GAMES if n in EXPECTED_SIZE]:
        state = gamelib.make(name).new_game(0)
        with pytest.raises(ValueError, match="player"):
            state.observation_tensor(99)
