"""Every registered game through OpenSpiel's Python-game API."""

from __future__ import annotations

import numpy as np
import pytest

import gamelib

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import ismcts, mcts, outcome_sampling_mccfr  # noqa: E402

from gamelib.interop.openspiel import load_game, register_all  # noqa: E402

GAMES = gamelib.registered_games()


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test(name: str) -> None:
    pyspiel.random_sim_test(load_game(name), num_sims=3, serialize=False, verbose=False)


def test_register_all_and_load_by_short_name() -> None:
    names = register_all()
    assert names == [f"gamelib_{n}" for n in GAMES]
    game = pyspiel.load_game("gamelib_fugitive", {"edition": 2})
    assert game.gamelib_game.options.edition == 2  # type: ignore[attr-defined]
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


@pytest.mark.parametrize("name", GAMES)
def test_integer_actions_match_the_native_engine(name: str) -> None:
    game = load_game(name)
    native = gamelib.make(name)
    state, twin = game.new_initial_state(), native.new_game(seed=0)
    rng = np.random.RandomState(1)
    for _ in range(60):
        if state.is_terminal():
            break
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            action = int(rng.choice(ids, p=np.array(probs) / sum(probs)))
        else:
            assert sorted(native.action_id(a) for a in twin.legal_actions()) == state.legal_actions()
            action = int(rng.choice(state.legal_actions()))
        twin.apply(state.action_to_string(state.current_player(), action))
        state.apply_action(action)
    assert state.gamelib_state.key() == twin.key()  # type: ignore[attr-defined]


def _mid_game(game: object, steps: int = 12) -> object:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    rng = np.random.RandomState(0)
    for _ in range(steps):
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        elif not state.is_terminal():
            state.apply_action(int(rng.choice(state.legal_actions())))
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def test_openspiel_mcts_and_ismcts_bots_play_fugitive() -> None:
    game = load_game("fugitive")
    state = _mid_game(game)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bot = mcts.MCTSBot(game, 2, 8, evaluator, random_state=rng)
    assert bot.step(state) in state.legal_actions()
    isbot = ismcts.ISMCTSBot(game, evaluator, 2, 8, random_state=rng)
    assert isbot.step(state) in state.legal_actions()


def test_resample_from_infostate_keeps_the_information_state() -> None:
    game = load_game("fugitive")
    state = _mid_game(game, 20)
    player = state.current_player()
    world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(player) == state.information_state_string(player)


def test_observation_tensors_and_strings() -> None:
    game = load_game("fugitive")
    state = _mid_game(game)
    for player in range(2):
        tensor = np.asarray(state.observation_tensor(player))
        assert tensor.shape == (318,) and tensor.min() >= 0 and tensor.max() <= 1
        assert state.observation_string(player) != state.information_state_string(player)


def test_outcome_sampling_mccfr_runs() -> None:
    """Full CFR needs the whole tree (astronomical here); sampled CFR runs on the real game."""
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(load_game("fugitive", max_rounds=2))
    for _ in range(3):
        solver.iteration()
    assert solver.average_policy() is not None
