"""Unfinished is not a draw: games a safety limit stopped are counted apart and prove nothing."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from matplotlib.figure import Figure

import gamelib
from gamelib.analysis.executors import finished_by_rules
from gamelib.analysis.stats import mean_interval
from gamelib.analysis.tournament import RoleWarning, Stat, outcome_labels


def test_games_cut_by_max_actions_are_unfinished_not_draws(toy_games: None) -> None:
    results = gamelib.tournament("toy-nim", ["first", "first"], games=4, max_actions=2, progress=False)
    assert results.unfinished == 4
    frame = results.to_pandas()
    assert set(frame["outcome"]) == {"unfinished"} and not frame["finished"].any()
    summary = results.summary()
    assert summary["draws"].tolist() == [0, 0] and summary["unfinished"].tolist() == [4, 4]
    assert summary["unfinished_rate"].tolist() == [1.0, 1.0]
    assert math.isnan(summary["win_rate"].iloc[0]) and math.isnan(summary["mean_return"].iloc[0])
    assert "unfinished" in str(results) and "not by the rules" in str(results)
    assert isinstance(results.plot(), Figure)


def test_fugitive_round_limit_is_unfinished_and_left_out_of_the_rates() -> None:
    # one detective turn: random games hit max_rounds; the engine calls it terminal, the rules do not
    results = gamelib.tournament(
        "fugitive", ["random", "random"], games=6, options={"max_rounds": 1}, progress=False
    )
    stopped = [i for i in range(len(results)) if results.state(i).ended_by == "max_rounds"]
    assert stopped and results.unfinished == len(stopped)
    stats = results.stats("agent")["random"]
    assert stats.unfinished == len(stopped) and stats.draws == 0
    assert stats.wins + stats.losses == stats.finished == 6 - len(stopped)
    assert not finished_by_rules(results.state(stopped[0]))


def test_outcome_labels_of_an_unfinished_game() -> None:
    assert outcome_labels([0.0, 0.0], finished=False) == ["unfinished", "unfinished"]
    assert outcome_labels([0.0, 0.0]) == ["draw", "draw"]


def test_stat_rates_are_over_finished_games_only() -> None:
    s = Stat.of(["win", "loss", "unfinished", "unfinished"], [1.0, -1.0, 0.0, 0.0], bounds=(-1.0, 1.0))
    assert (s.games, s.finished, s.unfinished, s.wins, s.losses, s.draws) == (4, 2, 2, 1, 1, 0)
    assert s.win_rate == 0.5 and s.mean_return == 0.0 and s.unfinished_rate == 0.5


def test_mean_return_interval_stays_inside_the_return_range(toy_games: None) -> None:
    mean, low, high = mean_interval([1.0] * 99 + [-1.0], bounds=(-1.0, 1.0))
    assert high == 1.0 and low < mean < high
    assert mean_interval([1.0] * 99 + [-1.0])[2] > 1.0  # unbounded, the t interval leaves the range
    results = gamelib.tournament(
        "fugitive", ["random_single_guess", "belief"], games=6, rotate=False, progress=False
    )
    summary = results.summary()
    assert (summary["return_high"] <= 1.0).all() and (summary["return_low"] >= -1.0).all()


@pytest.mark.parametrize("bad", [-1, 0, 1.5, "3", True])
def test_max_actions_must_be_a_positive_integer(bad: object) -> None:
    with pytest.raises(ValueError, match="max_actions must be an integer >= 1"):
        gamelib.tournament("fugitive", ["random", "random"], games=2, max_actions=bad, progress=False)


@pytest.mark.parametrize("name, bad", [("games", 0), ("seed", -1), ("batch_size", 0), ("games", 2.0)])
def test_counts_and_seeds_refused_with_their_name(name: str, bad: object) -> None:
    kwargs = {"games": 2, name: bad}
    with pytest.raises(ValueError, match=name):
        gamelib.tournament("fugitive", ["random", "random"], progress=False, **kwargs)  # type: ignore[arg-type]


def test_numpy_integers_are_accepted_everywhere(toy_games: None) -> None:
    a = gamelib.tournament(
        "toy-nim",
        ["first", "random"],
        games=np.int64(4),
        seed=np.int32(3),
        max_actions=np.int64(100),
        batch_size=np.int64(2),
        progress=False,
    )
    b = gamelib.tournament("toy-nim", ["first", "random"], games=4, seed=3, progress=False)
    assert [o.returns for o in a.outcomes] == [o.returns for o in b.outcomes]
    assert type(a.seed) is int


def test_a_one_role_agent_seated_out_of_its_role_warns() -> None:
    with pytest.warns(RoleWarning) as caught:
        gamelib.tournament("fugitive", ["heuristic", "belief"], games=2, progress=False)
    messages = sorted(str(w.message) for w in caught)
    assert len(messages) == 2
    assert "'belief' plays only as detective" in messages[0] and "seated as fugitive" in messages[0]
    assert "'heuristic' plays only as fugitive" in messages[1] and "1 of 2 games" in messages[1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # in their roles, or agents for every role: no warning
        gamelib.tournament("fugitive", ["heuristic", "belief"], games=2, rotate=False, progress=False)
        gamelib.tournament("fugitive", ["random_single_guess", "random"], games=2, progress=False)
