"""MCTS, IS-MCTS and greedy agents on toy games with known answers, and on every registered game."""

from __future__ import annotations

import random
import time

import pytest

import gamelib
from gamelib.agents import FirstLegalAgent, GreedyAgent, ISMCTSAgent, MCTSAgent, RandomAgent


def nim(pile: int, players: int = 2) -> gamelib.State:
    return gamelib.make("toy-nim", players=players, pile=pile).new_game(seed=0)


def dealt(card: int) -> gamelib.State:
    state = gamelib.make("toy-hidden").new_game(seed=0)
    state.apply(f"card {card}")
    return state


# ---------------------------------------------------------------- MCTS finds known answers
@pytest.mark.parametrize(("pile", "winning"), [(5, "take 1"), (6, "take 2"), (7, "take 3"), (10, "take 2")])
def test_mcts_finds_the_winning_nim_move(toy_games: None, pile: int, winning: str) -> None:
    state = nim(pile)
    action = MCTSAgent(iterations=3000).act(state, 0, random.Random(1))
    assert str(action) == winning


def test_mcts_in_a_lost_position_still_plays_a_legal_move(toy_games: None) -> None:
    state = nim(8)  # every move loses against perfect play
    action = MCTSAgent(iterations=300).act(state, 0, random.Random(1))
    assert action in state.legal_actions()


@pytest.mark.parametrize("players", [3, 4])
def test_mcts_with_more_players_takes_the_immediate_win(toy_games: None, players: int) -> None:
    state = nim(3, players)
    state.apply("take 1")  # player 1 now faces a pile of 2 and can take it all
    assert str(MCTSAgent(iterations=500).act(state, 1, random.Random(0))) == "take 2"


def test_mcts_samples_chance_by_probability(toy_games: None) -> None:
    state = gamelib.make("toy-gamble").new_game(seed=0)
    stats = {str(s.action): s for s in MCTSAgent(iterations=4000).analyse(state, 0, random.Random(3))}
    assert stats["gamble"].value == pytest.approx(0.4, abs=0.05)
    assert stats["safe"].value == pytest.approx(0.3)
    assert str(MCTSAgent(iterations=4000).act(state, 0, random.Random(3))) == "gamble"


def test_mcts_refuses_hidden_information_unless_omniscient(toy_games: None) -> None:
    state = dealt(2)
    with pytest.raises(ValueError, match="ISMCTSAgent"):
        MCTSAgent(iterations=50).act(state, 0, random.Random(0))
    # the omniscient version reads the card: an upper bound, not a fair player
    assert str(MCTSAgent(iterations=300, omniscient=True).act(state, 0, random.Random(0))) == "guess 2"


@pytest.mark.parametrize("card", [0, 1, 2])
def test_ismcts_does_not_peek(toy_games: None, card: int) -> None:
    state = dealt(card)
    stats = {str(s.action): s for s in ISMCTSAgent(iterations=3000).analyse(state, 0, random.Random(5))}
    assert stats["guess 0"].value == pytest.approx(0.6, abs=0.06)
    assert str(ISMCTSAgent(iterations=3000).act(state, 0, random.Random(5))) == "guess 0"


def test_ismcts_on_perfect_information_finds_the_winning_move(toy_games: None) -> None:
    assert str(ISMCTSAgent(iterations=3000).act(nim(6), 0, random.Random(2))) == "take 2"


def test_ismcts_rejects_an_inconsistent_determinize(toy_games: None) -> None:
    state = dealt(1)

    def bad_determinize(player: int, rng: random.Random) -> gamelib.State:
        world = gamelib.make("toy-hidden").new_game(seed=0)  # still at the deal: not the same moves
        return world

    state.determinize = bad_determinize  # type: ignore[method-assign]
    with pytest.raises(gamelib.IllegalAction, match="determinize"):
        ISMCTSAgent(iterations=10).act(state, 0, random.Random(0))


# ---------------------------------------------------------------- greedy
def test_greedy_takes_an_immediate_win(toy_games: None) -> None:
    assert str(GreedyAgent().act(nim(3), 0, random.Random(0))) == "take 3"


def test_greedy_weighs_chance_outcomes_by_probability(toy_games: None) -> None:
    state = gamelib.make("toy-gamble").new_game(seed=0)
    scores = {str(a): v for a, v in GreedyAgent().scores(state, 0, random.Random(0)).items()}
    assert scores == {"safe": pytest.approx(0.3), "gamble": pytest.approx(0.4)}
    # without looking through chance, the gamble is worth nothing yet
    assert str(GreedyAgent(chance_depth=0).act(state, 0, random.Random(0))) == "safe"


def test_greedy_averages_over_determinizations(toy_games: None) -> None:
    scores = GreedyAgent(samples=500).scores(dealt(2), 0, random.Random(0))
    by_name = {str(a): v for a, v in scores.items()}
    assert by_name["guess 0"] == pytest.approx(0.6, abs=0.07)
    assert by_name["guess 2"] == pytest.approx(0.2, abs=0.07)


def test_greedy_uses_an_evaluation_function(toy_games: None) -> None:
    def leave_multiples_of_four(state: gamelib.State) -> list[float]:
        mover = 1 - state.current_player if not state.is_terminal() else 0
        good = 1.0 if state.pile % 4 == 0 else 0.0  # type: ignore[attr-defined]
        return [good, 1 - good] if mover == 0 else [1 - good, good]

    assert str(GreedyAgent(evaluate=leave_multiples_of_four).act(nim(10), 0, random.Random(0))) == "take 2"


# ---------------------------------------------------------------- budgets, determinism, errors
def test_iteration_budget_is_deterministic_given_the_rng(toy_games: None) -> None:
    state = nim(9, players=3)
    a = MCTSAgent(iterations=200).analyse(state, 0, random.Random(11))
    b = MCTSAgent(iterations=200).analyse(state, 0, random.Random(11))
    assert a == b
    assert sum(s.visits for s in a) == 200


def test_time_budget_stops_in_time(toy_games: None) -> None:
    state = nim(40)
    start = time.perf_counter()
    stats = MCTSAgent(iterations=None, time_limit=0.05).analyse(state, 0, random.Random(0))
    assert time.perf_counter() - start < 0.5
    assert sum(s.visits for s in stats) > 10


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"iterations": None, "time_limit": None}, "budget"),
        ({"iterations": 0}, "iterations"),
        ({"time_limit": -1}, "time_limit"),
        ({"c": -0.5}, "exploration"),
    ],
)
def test_bad_search_parameters_are_named(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MCTSAgent(**kwargs)
    with pytest.raises(ValueError, match=message):
        ISMCTSAgent(**kwargs)


def test_truncated_rollouts_use_the_evaluation_function(toy_games: None) -> None:
    calls = []

    def evaluate(state: gamelib.State) -> list[float]:
        calls.append(1)
        return [0.5, 0.5]

    MCTSAgent(iterations=50, max_rollout_steps=0, evaluate=evaluate).act(nim(20), 0, random.Random(0))
    assert calls


# ---------------------------------------------------------------- every registered game
def search_agents(game: gamelib.Game) -> list:
    agents = [RandomAgent(), FirstLegalAgent(), GreedyAgent(samples=2), ISMCTSAgent(iterations=20)]
    if game.info.perfect_information:
        agents.append(MCTSAgent(iterations=20))
    else:
        agents.append(MCTSAgent(iterations=20, omniscient=True))
    return agents


def mid_game_states(game: gamelib.Game, count: int) -> list[gamelib.State]:
    states = []
    for seed in range(count):
        rng = random.Random(seed)
        state = game.new_game(seed=seed)
        for _ in range(rng.randrange(1, 60)):
            if state.is_terminal():
                break
            if state.current_player == gamelib.CHANCE:
                state.apply(state.sample_chance())
            else:
                state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal() and state.current_player != gamelib.CHANCE:
            states.append(state)
    return states


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_agents_play_legal_moves_and_never_mutate_the_state(name: str) -> None:
    game = gamelib.make(name)
    for state in mid_game_states(game, 6):
        before = (state.key(), [str(a) for a in state.history], state.legal_actions())
        for agent in search_agents(game):
            action = agent.act(state, state.current_player, random.Random(0))
            assert action in state.legal_actions(), f"{agent!r} played {action}"
            assert (state.key(), [str(a) for a in state.history], state.legal_actions()) == before, agent


def test_ismcts_can_reuse_a_few_sampled_worlds(toy_games: None) -> None:
    state = dealt(1)
    calls = []
    original = state.determinize

    def counting(player: int, rng: random.Random) -> gamelib.State:
        calls.append(player)
        return original(player, rng)

    state.determinize = counting  # type: ignore[method-assign]
    stats = ISMCTSAgent(iterations=200, worlds=3).analyse(state, 0, random.Random(0))
    assert len(calls) == 3
    assert sum(s.visits for s in stats) == 200
    with pytest.raises(ValueError, match="worlds"):
        ISMCTSAgent(worlds=0)
    assert "worlds=3" in repr(ISMCTSAgent(iterations=5, worlds=3))


def test_rollouts_follow_the_games_declared_policy_by_default() -> None:
    from gamelib.fugitive.agents import RandomSingleGuess

    fugitive = gamelib.make("fugitive")
    assert isinstance(ISMCTSAgent(iterations=5).rollout_policy(fugitive), RandomSingleGuess)
    assert ISMCTSAgent(iterations=5, rollout="random").rollout_policy(fugitive) is None
    assert MCTSAgent(iterations=5).rollout_policy(gamelib.make("getonboard")) is None  # declares none
    own = RandomAgent()
    assert MCTSAgent(iterations=5, rollout_agent=own).rollout_policy(fugitive) is own
    assert "rollout='random'" in repr(MCTSAgent(iterations=5, rollout="random"))
    with pytest.raises(ValueError, match="rollout must be one of"):
        MCTSAgent(iterations=5, rollout="greedy")


def test_fugitive_search_under_the_texts_rules_ends_its_rollouts() -> None:
    # the default rollouts end by the rules, so a search is short; uniform ones run to max_rounds
    state = gamelib.make("fugitive").new_game(seed=2)
    while state.current_player != 1:
        state.apply(state.legal_actions()[0] if state.current_player >= 0 else state.sample_chance())
    agent = ISMCTSAgent(iterations=30)
    action = agent.act(state, 1, random.Random(0))
    assert action in state.legal_actions()
    rollout = agent.rollout_policy(state.game)
    ends = [agent._rollout(state.determinize(1, random.Random(s)), random.Random(s)) for s in range(5)]
    assert all(r in ([1.0, -1.0], [-1.0, 1.0]) for r in ends), ends
    assert rollout is not None


@pytest.mark.parametrize(
    "kwargs", [{"iterations": 0}, {"iterations": 2.5}, {"worlds": 0}, {"max_rollout_steps": -1}]
)
def test_search_budgets_refused_with_their_name(kwargs: dict) -> None:
    with pytest.raises(ValueError, match=next(iter(kwargs))):
        ISMCTSAgent(**kwargs)


def test_numpy_integers_are_budgets_too() -> None:
    import numpy as np

    agent = ISMCTSAgent(iterations=np.int64(7), worlds=np.int32(2), max_rollout_steps=np.int64(3))
    assert (agent.iterations, agent.worlds, agent.max_rollout_steps) == (7, 2, 3)
    assert type(agent.iterations) is int
    assert GreedyAgent(samples=np.int64(2)).samples == 2
