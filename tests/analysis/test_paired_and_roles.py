"""Paired comparisons (same seeds, same seats) and sweeps by role and score."""

from __future__ import annotations

import concurrent.futures as cf
import math

import pytest
from matplotlib.figure import Figure

import gamelib
import gamelib.agents
from gamelib.analysis import paired
from gamelib.analysis.paired import paired_jobs
from gamelib.analysis.tournament import pooled_name
from gamelib.core.i18n import using_language


def test_paired_runs_share_seeds_and_seats_and_differ_by_the_contender_only(toy_games: None) -> None:
    p = paired("toy-nim", "first", "random", opponents="first", games=8, seed=3, progress=False)
    a, b = p.results_a.outcomes, p.results_b.outcomes
    assert [(o.seed, o.seating) for o in a] == [(o.seed, o.seating) for o in b]
    tournament = gamelib.tournament("toy-nim", ["first", "first"], games=8, seed=3, progress=False)
    assert [o.seed for o in a] == [o.seed for o in tournament.outcomes]  # seeded like tournaments
    frame = p.to_pandas()
    assert len(frame) == 8 and (frame["diff"] == frame["return_a"] - frame["return_b"]).all()
    summary = p.summary()
    row = summary.loc["all"]
    assert row["diff_low"] <= row["mean_diff"] <= row["diff_high"]
    assert row["mean_diff"] == pytest.approx(frame["diff"].mean())
    assert set(summary.index) == {"all", *p.results_a.seat_names}
    assert "paired games" in str(p) and isinstance(p.plot(), Figure)


def test_a_contender_against_itself_differs_by_nothing(toy_games: None) -> None:
    p = paired("toy-nim", "random", "random", opponents=["first"], games=6, progress=False)
    s = p.stats()["all"]
    assert (s.mean_diff, s.diff_low, s.diff_high) == (0.0, 0.0, 0.0)
    assert p.name_b == "random (B)"


def test_paired_interval_is_narrower_than_unpaired_on_fugitive() -> None:
    p = paired(
        "fugitive",
        "belief",
        "random_single_guess",
        opponents=["heuristic"],
        seats=[1],
        games=30,
        progress=False,
    )
    rows = p.to_pandas()
    assert (rows["seat"] == 1).all() and set(rows["seat_name"]) == {"detective"}
    s = p.stats()["all"]
    assert -2.0 <= s.diff_low <= s.mean_diff <= s.diff_high <= 2.0  # inside the range of a difference
    assert s.paired + s.unfinished == 30


def test_paired_is_the_same_on_any_executor(toy_games: None) -> None:
    here = paired("toy-nim", "first", "random", games=10, seed=2, progress=False)
    with cf.ThreadPoolExecutor(2) as pool:
        there = paired(
            "toy-nim", "first", "random", games=10, seed=2, executor=pool, batch_size=3, progress=False
        )
    assert here.rows() == there.rows()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"seats": [2]}, "seat must be an integer between 0 and 1"),
        ({"seats": []}, "at least one seat"),
        ({"opponents": ["first", "first"]}, "give one opponent, or 1"),
        ({"games": 0}, "games must be"),
        ({"max_actions": -1}, "max_actions must be"),
        ({"opponents": "nobody"}, "unknown agent 'nobody'"),
    ],
)
def test_paired_refuses_bad_inputs_clearly(toy_games: None, kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        paired("toy-nim", "first", "random", **{"games": 2, "progress": False, **kwargs})


def test_paired_jobs_place_the_contender_in_turn() -> None:
    jobs = paired_jobs(3, 4, 0, [0, 2])
    assert [j.seating for j in jobs] == [(0, 1, 2), (1, 2, 0), (0, 1, 2), (1, 2, 0)]


def test_sweep_by_role_follows_the_lot_in_delanopolis() -> None:
    s = gamelib.sweep(
        "delanopolis",
        "bid_cap",
        [0, 60],
        agents=["random"] * 3,
        players=3,
        games=9,
        progress=False,
        pool=True,
    )
    frame = s.to_pandas(by="role")
    assert set(frame["role"]) == {"mayor", "challenger"}
    mayors = frame[frame["role"] == "mayor"]
    assert mayors["games"].tolist() == [9, 9]  # one mayor per game, whoever the lot chose
    assert (frame[frame["role"] == "challenger"]["games"] == 18).all()
    for column in ("win_rate", "win_low", "win_high", "mean_score", "score_low", "score_high", "unfinished"):
        assert column in frame
    assert (frame["win_low"] <= frame["win_rate"]).all() and (frame["win_rate"] <= frame["win_high"]).all()
    pooled = s.to_pandas(by="agent")
    assert pooled["agent"].tolist() == ["random", "random"]  # pooled: one label per value
    assert (
        len(s.to_pandas(by="agent").index) == 2
        and len(
            gamelib.sweep(
                "delanopolis", "bid_cap", [0], agents=["random"] * 3, players=3, games=3, progress=False
            ).to_pandas(by="agent")
        )
        == 3
    )
    assert isinstance(s.plot(by="role"), Figure)
    with using_language("fr"):
        assert set(s.to_pandas(by="role")["role"]) == {"maire", "concurrent"}
    games = s.games()
    assert {"bid_cap", "role", "score", "ending"} <= set(games) and len(games) == 2 * 9 * 3


def test_sweep_summary_and_bad_groupings() -> None:
    s = gamelib.sweep(
        "fugitive", "edition", [1, 2], agents=["random_single_guess"] * 2, games=4, progress=False
    )
    table = s.summary(by="role", metric="mean_score")
    assert list(table.index) == [1, 2] and set(table.columns) == {"fugitive", "detective"}
    with pytest.raises(ValueError, match="metric must be a column"):
        s.summary(metric="nonsense")
    with pytest.raises(ValueError, match="by must be one of"):
        s.to_pandas(by="colour")


def test_scores_kept_apart_from_returns_when_a_game_keeps_them() -> None:
    results = gamelib.tournament("getonboard", ["random"] * 3, games=3, progress=False)
    frame = results.to_pandas()
    assert {"score", "return", "role", "seat_name", "ending"} <= set(frame)
    stat = results.stats("agent", pool=True)["random"]
    assert not math.isnan(stat.mean_score) and stat.score_low <= stat.mean_score <= stat.score_high


def test_pooled_names() -> None:
    assert [pooled_name(n) for n in ("random", "random#2", "mcts#10", "a#b")] == [
        "random",
        "random",
        "mcts",
        "a#b",
    ]


def test_option_sweep_is_the_generic_sweep_per_player_count() -> None:
    from gamelib.delanopolis.analysis import OptionSweep, option_sweep

    sw = option_sweep("bid_cap", [0, 60], players=(3, 4), base={"rounds": 2}, games=6, seed=1)
    assert isinstance(sw, OptionSweep) and len(sw) == 4
    rates = list(sw)
    assert [(r.options["bid_cap"], r.players) for r in rates] == [(0, 3), (0, 4), (60, 3), (60, 4)]
    assert all(
        r.president + r.reelected + r.new_mayor + r.richest_mayor + r.richest_tie <= 1.0 + 1e-9 for r in rates
    )
    frame = sw.to_pandas()
    assert {"players", "bid_cap", "role", "win_rate", "win_low", "mean_score"} <= set(frame)
    endings = sw.endings()
    assert (endings.groupby(["players", "bid_cap"])["count"].sum() == 6).all()
    same = gamelib.sweep(
        "delanopolis",
        "bid_cap",
        [0, 60],
        agents=sw.sweeps[3].results[0].agents,
        players=3,
        options={"rounds": 2},
        games=6,
        seed=1,
        rotate=False,
        progress=False,
    )
    assert [r.outcomes for r in same.results] == [r.outcomes for r in sw.sweeps[3].results]


def test_delanopolis_roles_are_keys_with_titles_in_both_languages() -> None:
    from gamelib.delanopolis import analysis as A

    state = gamelib.play(gamelib.make("delanopolis", players=3), [gamelib.agents.RandomAgent()] * 3, seed=4)
    roles = [A.seat_role(state, s) for s in range(3)]
    assert roles.count("mayor") == 1 and roles.index("mayor") == state.mayor
    assert (
        A.role_title("mayor") == "mayor"
        and A.role_title(
            "challenger",
        )
        == "challenger"
    )
    with using_language("fr"):
        assert A.role_title("mayor") == "maire"
    with pytest.raises(ValueError, match="Delanopolis roles are"):
        A.role_title("king")
    assert A.game_facts(state) == {"mayor_terrains": float(state.owner.count(state.mayor))}
