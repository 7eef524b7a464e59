"""Every registered game through OpenSpiel's Python-game API."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gamelib

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import ismcts, mcts, outcome_sampling_mccfr  # noqa: E402

from gamelib.interop.openspiel import load_game, register_all  # noqa: E402

GAMES = gamelib.registered_games()


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test(name: str) -> None:
    # Fugitive's random games mostly run to max_rounds (100 rounds, thousands of actions, each
    # with information-state tensors): 20 rounds keep the same checks at a tenth of the time.
    options = {"max_rounds": 20} if name == "fugitive" else {}
    pyspiel.random_sim_test(load_game(name, **options), num_sims=3, serialize=False, verbose=False)


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


# Short games for the bots' rollouts (a rollout plays to the end).
SHORT = {
    "fugitive": {"max_rounds": 3},
    "passante": {},
    "delanopolis": {"rounds": 1},
    "getonboard": {"rounds": 1},
}


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_mcts_bot_runs_on_every_game(name: str) -> None:
    """Terminal rewards for every game type, so MCTSBot accepts each (it refused Passante)."""
    options = {k: v for k, v in SHORT.get(name, {}).items() if k in gamelib.make(name).option_dict()}
    game = load_game(name, **options)
    assert game.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2, 2, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions < 3:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    assert decisions == 3 or state.is_terminal()


@pytest.mark.parametrize("name", GAMES)
def test_rewards_are_terminal_and_sum_to_the_returns(name: str) -> None:
    game = load_game(name)
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    total = np.zeros(game.num_players())
    while not state.is_terminal():
        assert list(state.rewards()) == [0.0] * game.num_players()
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        total += state.rewards()
    assert list(total) == pytest.approx(state.returns())


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"max_rounds": 10**18}, "'max_rounds' must be an int between 1 and 100000"),
        ({"max_rounds": 0}, "'max_rounds' must be an int between 1 and 100000, got 0"),
        ({"edition": 3}, "'edition' must be one of [1, 2], got 3"),
        ({"players": 3}, "players must be between 2 and 2"),
        ({"nope": 1}, "unknown rule option"),
    ],
)
def test_openspiel_and_gamelib_refuse_the_same_options_by_name(params: dict[str, Any], message: str) -> None:
    for make in (lambda: load_game("fugitive", **params), lambda: gamelib.make("fugitive", **params)):
        with pytest.raises(gamelib.OptionError) as caught:
            make()
        assert message in str(caught.value)


def test_openspiel_and_gamelib_accept_the_same_bounds() -> None:
    for rounds in (1, 100_000):
        spiel = load_game("fugitive", max_rounds=rounds)
        assert spiel.gamelib_game.options.max_rounds == rounds  # type: ignore[attr-defined]
        assert spiel.max_game_length() == gamelib.make("fugitive", max_rounds=rounds).max_game_length
