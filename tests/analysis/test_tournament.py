"""Tournaments: seat rotation, seeds, replay, statistics, tables and plots."""

from __future__ import annotations

import random

import pytest
from matplotlib.figure import Figure

import gamelib
from gamelib.agents import FirstLegalAgent, RandomAgent
from gamelib.analysis.executors import GameFailed
from gamelib.analysis.tournament import game_seed, outcome_labels


def test_seats_rotate_so_each_agent_plays_each_seat_equally(toy_games: None) -> None:
    results = gamelib.tournament(
        "toy-nim", ["first", "random", "greedy"], games=12, players=3, progress=False
    )
    seatings = [o.seating for o in results.outcomes]
    assert seatings[:3] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    for agent in range(3):
        for seat in range(3):
            assert sum(s[seat] == agent for s in seatings) == 4
    frame = results.to_pandas()
    assert len(frame) == 12 * 3
    assert (frame.groupby(["agent", "role"]).size() == 4).all()


def test_fixed_seats_when_rotation_is_off(toy_games: None) -> None:
    results = gamelib.tournament("toy-nim", ["first", "random"], games=6, rotate=False, progress=False)
    assert {o.seating for o in results.outcomes} == {(0, 1)}


def test_known_outcome_first_legal_nim(toy_games: None) -> None:
    # taking 1 each time from 10: the 10th take, by the second seat, wins every game
    results = gamelib.tournament("toy-nim", [FirstLegalAgent(), FirstLegalAgent()], games=10, progress=False)
    seats = results.stats("seat")
    first, second = results.seat_names
    assert seats[second].win_rate == 1.0 and seats[first].win_rate == 0.0
    agents = results.stats("agent")
    assert agents["first"].wins == 5 and agents["first#2"].wins == 5  # rotation shares the good seat
    assert agents["first"].win_low < 0.5 < agents["first"].win_high
    assert results.mean_length == 10


def test_distinct_recorded_seeds_and_replay(toy_games: None) -> None:
    results = gamelib.tournament("fugitive", ["random", "random"], games=8, seed=5, progress=False)
    seeds = [o.seed for o in results.outcomes]
    assert len(set(seeds)) == 8
    assert seeds == [game_seed(5, i) for i in range(8)]
    for i in (0, 3, 7):
        record = results.record(i)
        replayed = gamelib.from_record(record)
        assert replayed.is_terminal()
        assert tuple(replayed.returns()) == results.outcomes[i].returns
        assert record["seed"] == seeds[i]
        # the same game again with gamelib.play and the seated agents
        again = gamelib.play(results.game, results.seated_agents(i), seed=seeds[i])
        assert again == results.state(i)


def test_same_seed_same_tournament_other_seed_other_games() -> None:
    a = gamelib.tournament("fugitive", ["random", "first"], games=10, seed=1, progress=False)
    b = gamelib.tournament("fugitive", ["random", "first"], games=10, seed=1, progress=False)
    c = gamelib.tournament("fugitive", ["random", "first"], games=10, seed=2, progress=False)
    assert a.outcomes == b.outcomes
    assert [o.seed for o in a.outcomes] != [o.seed for o in c.outcomes]


def test_keep_records_stores_every_game() -> None:
    results = gamelib.tournament("fugitive", ["random", "random"], games=4, keep_records=True, progress=False)
    assert all(o.record is not None for o in results.outcomes)
    assert results.record(2) is results.outcomes[2].record
    assert gamelib.from_record(results.record(2)).returns() == list(results.outcomes[2].returns)


class ForgetfulAgent:
    """Plays differently on its first call ever: replaying its games cannot match."""

    name = "forgetful"

    def __init__(self) -> None:
        self.calls = 0

    def act(self, state: gamelib.State, player: int, rng: random.Random) -> gamelib.Action:
        self.calls += 1
        actions = state.legal_actions()
        return actions[-1] if self.calls == 1 else actions[0]


def test_replay_detects_agents_that_are_not_deterministic(toy_games: None) -> None:
    results = gamelib.tournament("toy-nim", [ForgetfulAgent(), FirstLegalAgent()], games=2, progress=False)
    with pytest.raises(RuntimeError, match="keep_records=True"):
        results.state(0)
    with pytest.raises(IndexError, match="not in this tournament"):
        results.record(2)


def test_outcome_labels() -> None:
    assert outcome_labels([1.0, -1.0]) == ["win", "loss"]
    assert outcome_labels([0.0, 0.0]) == ["draw", "draw"]
    assert outcome_labels([3.0, 5.0, 5.0]) == ["loss", "draw", "draw"]


def test_summary_to_pandas_and_text(toy_games: None) -> None:
    results = gamelib.tournament(
        "toy-nim", {"a": RandomAgent(), "b": FirstLegalAgent()}, games=40, progress=False
    )
    summary = results.summary()
    assert list(summary.index) == ["a", "b"]
    assert {"games", "wins", "draws", "losses", "win_rate", "win_low", "win_high", "mean_return"} <= set(
        summary
    )
    assert (summary["win_low"] <= summary["win_rate"]).all() and (
        summary["win_rate"] <= summary["win_high"]
    ).all()
    assert summary["games"].tolist() == [40, 40]
    by_seat = results.summary("agent_seat")
    seat0 = results.seat_names[0]
    assert by_seat.loc[("a", seat0), "games"] == 20
    text = str(results)
    assert f"a as {seat0}" in text and "95% interval" in text
    assert "<table" in results._repr_html_()
    with pytest.raises(ValueError, match="by must be"):
        results.stats("colour")


def test_plot_is_a_figure_with_error_bars(tmp_path) -> None:
    results = gamelib.tournament("fugitive", ["random", "first"], games=20, progress=False)
    fig = results.plot()
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert "Fugitive" in ax.get_title()
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[:4] == ["fair share 50%", "all seats", "as fugitive", "as detective"]
    assert len(ax.containers) >= 3  # bar groups with their error bars
    fig.savefig(tmp_path / "tournament.png")


def test_agents_by_spec_and_options(toy_games: None) -> None:
    results = gamelib.tournament(
        "toy-nim", ["mcts(iterations=30)", "random"], games=4, options={"pile": 7}, progress=False
    )
    assert results.game.options.pile == 7
    assert results.agent_names == ["mcts(iterations=30)", "random"]
    assert all(o.length <= 7 for o in results.outcomes)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"agents": ["random"]}, ValueError, "needs 2 agents"),
        ({"agents": "random"}, TypeError, "agents must be a list"),
        ({"agents": ["random", "nobody"]}, ValueError, "unknown agent 'nobody'"),
        ({"agents": ["random", 42]}, TypeError, "needs an act"),
        ({"games": 0}, ValueError, "games must be"),
        ({"seed": -1}, ValueError, "seed must be"),
        ({"executor": "threads"}, ValueError, "executor must be"),
        ({"executor": "processes", "workers": 0}, ValueError, "workers must be"),
        ({"batch_size": 0}, ValueError, "batch_size"),
        ({"options": {"editon": 2}}, gamelib.OptionError, "editon"),
    ],
)
def test_bad_arguments_are_named(kwargs: dict, error: type, message: str) -> None:
    call = {"game": "fugitive", "agents": ["random", "random"], "games": 2, "progress": False, **kwargs}
    with pytest.raises(error, match=message):
        gamelib.tournament(**call)


class Crasher:
    name = "crasher"

    def act(self, state: gamelib.State, player: int, rng: random.Random) -> gamelib.Action:
        raise KeyError("boom")


def test_a_failing_agent_names_the_game_and_its_seed() -> None:
    with pytest.raises(GameFailed, match=r"game 0 \(seed \d+, seating \(0, 1\)\) failed: KeyError"):
        gamelib.tournament("fugitive", [Crasher(), RandomAgent()], games=3, progress=False)


def test_progress_bar_runs(capsys: pytest.CaptureFixture[str]) -> None:
    gamelib.tournament("fugitive", ["random", "random"], games=3, progress=True)
    assert "fugitive: random vs random#2" in capsys.readouterr().err


def test_timing_counts_each_agents_decisions(toy_games: None) -> None:
    results = gamelib.tournament("toy-nim", ["first", "first"], games=4, progress=False)
    timing = results.timing()
    # first-legal takes 1 each time from 10: 5 decisions per seat in every game
    assert timing["moves"].to_dict() == {"first": 20, "first#2": 20}
    assert (timing["seconds"] >= 0).all() and (timing["ms_per_move"] >= 0).all()
    assert results.to_pandas().groupby("agent")["moves"].sum().to_dict() == timing["moves"].to_dict()
