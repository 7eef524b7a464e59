"""Rule-option sweeps and the command line."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest
from matplotlib.figure import Figure

import gamelib
from gamelib.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def test_sweep_moves_outcomes_as_the_rules_say(toy_games: None) -> None:
    # first-legal players take 1 each: an even pile goes to the second seat, an odd one to the first
    swept = gamelib.sweep(
        "toy-nim",
        option="pile",
        values=[4, 5, 6],
        agents=["first", "first"],
        games=6,
        rotate=False,
        progress=False,
    )
    rates = swept.summary()
    first, second = (swept.results[0].game.player_name(p) for p in (0, 1))
    assert rates.loc[4, second] == 1.0 and rates.loc[5, first] == 1.0 and rates.loc[6, second] == 1.0
    frame = swept.to_pandas()
    assert set(frame["pile"]) == {4, 5, 6}
    assert frame.groupby("pile")["mean_length"].first().tolist() == [4, 5, 6]
    fig = swept.plot()
    assert isinstance(fig, Figure)
    assert "pile" in fig.axes[0].get_xlabel()
    assert "pile=5" in str(swept)


def test_sweep_uses_common_seeds_and_keeps_other_options() -> None:
    swept = gamelib.sweep(
        "fugitive",
        "edition",
        [1, 2],
        ["random", "random"],
        games=4,
        options={"max_rounds": 50},
        progress=False,
    )
    assert [r.game.options.edition for r in swept.results] == [1, 2]
    assert all(r.game.options.max_rounds == 50 for r in swept.results)
    assert [o.seed for o in swept.results[0].outcomes] == [o.seed for o in swept.results[1].outcomes]
    swept.plot(by="agent")


def test_sweep_names_bad_options() -> None:
    with pytest.raises(ValueError, match="no rule option 'colour'"):
        gamelib.sweep("fugitive", "colour", [1], ["random", "random"], games=2, progress=False)
    with pytest.raises(gamelib.OptionError, match="edition"):
        gamelib.sweep("fugitive", "edition", [3], ["random", "random"], games=2, progress=False)
    with pytest.raises(ValueError, match="at least one"):
        gamelib.sweep("fugitive", "edition", [], ["random", "random"], games=2, progress=False)


def test_cli_tournament_writes_csv_and_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, records = tmp_path / "results.csv", tmp_path / "games.jsonl"
    code = main(
        [
            "tournament", "fugitive", "--agents", "random,first", "--games", "6", "--seed", "4",
            "--set", "edition=2", "--out", str(out), "--records", str(records), "--no-progress",
        ]
    )  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    assert "random vs first, 6 games" in printed and "games/s" in printed
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 12
    assert {r["agent"] for r in rows} == {"random", "first"}
    lines = records.read_text().splitlines()
    assert len(lines) == 6
    first = json.loads(lines[0])
    assert first["options"]["edition"] == 2
    assert gamelib.from_record(first).is_terminal()
    assert str(first["seed"]) == rows[0]["seed"]


def test_cli_sweep_and_listings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sweep.csv"
    code = main(
        ["sweep", "fugitive", "--option", "edition", "--values", "1,2", "--agents", "random,random",
         "--games", "4", "--out", str(out), "--no-progress"]
    )  # fmt: skip
    assert code == 0
    assert "edition=2" in capsys.readouterr().out
    assert {r["edition"] for r in csv.DictReader(out.open())} == {"1", "2"}
    assert main(["agents", "fugitive"]) == 0
    assert "ismcts" in capsys.readouterr().out
    assert main(["games"]) == 0
    assert "fugitive" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tournament", "fugitive", "--agents", "random,ghost", "--games", "2"], "unknown agent 'ghost'"),
        (["tournament", "chess", "--agents", "random,random", "--games", "2"], "unknown game 'chess'"),
        (["tournament", "fugitive", "--agents", "mcts(iterations=0),random", "--games", "2"], "iterations"),
        (["tournament", "fugitive", "--agents", "random,random", "--set", "edition"], "NAME=VALUE"),
        (["tournament", "fugitive", "--agents", "random,random", "--workers", "0"], "--workers"),
    ],
)
def test_cli_errors_are_one_clear_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--no-progress"]) == 2
    assert message in capsys.readouterr().err


def test_python_dash_m_with_two_workers(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    done = subprocess.run(
        [sys.executable, "-m", "gamelib", "tournament", "fugitive", "--agents", "random,random",
         "--games", "20", "--workers", "2", "--out", str(out), "--no-progress"],
        capture_output=True, text=True, cwd=ROOT, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "2 loky processes" in done.stdout or "2 processes" in done.stdout
    assert len(out.read_text().splitlines()) == 1 + 40


def test_compare_agents_against_a_common_field(toy_games: None) -> None:
    from gamelib.analysis.compare import compare_agents

    # first-legal in 3-player Nim from 10: the 10th take is by seat 0 (moves 0,1,2,0,...) -> seat 0 wins
    comparison = compare_agents(
        "toy-nim", ["first", "mcts(iterations=200)"], baseline="first", games=6, players=3
    )
    first = comparison.stat("first")
    assert (first.games, first.wins) == (6, 2)  # rotation: 2 of 6 games in the winning seat
    assert comparison.stat("first", comparison.game.player_name(0)).win_rate == 1.0
    assert comparison.results["mcts(iterations=200)"].agent_names == [
        "mcts(iterations=200)",
        "first",
        "first#2",
    ]
    assert list(comparison.summary().index) == ["first", "mcts(iterations=200)"]
    fig = comparison.plot()
    assert "vs first" in fig.axes[0].get_title()
    assert "win rate" in str(comparison)
    with pytest.raises(ValueError, match="at least one"):
        compare_agents("toy-nim", [], games=2)


def test_plots_offer_each_metric_and_cooperative_games_default_to_the_score(toy_games: None) -> None:
    from types import SimpleNamespace

    from gamelib.analysis.plots import default_metric

    assert default_metric(SimpleNamespace(info=SimpleNamespace(utility="identical"))) == "mean_return"
    assert default_metric(SimpleNamespace(info=SimpleNamespace(utility="zero_sum"))) == "win_rate"
    solo = SimpleNamespace(num_players=1, info=SimpleNamespace(utility="general_sum"))
    assert default_metric(solo) == "mean_return"
    swept = gamelib.sweep("toy-nim", "pile", [4, 5], ["first", "random"], games=4, progress=False)
    assert "mean return" in swept.plot(metric="mean_return").axes[0].get_ylabel()
    assert "actions per game" in swept.plot(metric="mean_length").axes[0].get_ylabel()
    with pytest.raises(ValueError, match="metric must be"):
        swept.plot(metric="elo")
    results = swept.results[0]
    assert "mean return" in results.plot(metric="mean_return").axes[0].get_ylabel()
    with pytest.raises(ValueError, match="metric must be"):
        results.plot(metric="elo")


def test_round_robin_win_matrix(toy_games: None, tmp_path: Path) -> None:
    from gamelib.analysis import round_robin

    # Nim from 5: the first mover wins by taking 1. MCTS finds it, first-legal takes 1 by luck,
    # "last" takes 3 and loses whenever it moves first.
    class Last:
        name = "last"

        def act(self, state, player, rng):  # type: ignore[no-untyped-def]
            return state.legal_actions()[-1]

    rr = round_robin("toy-nim", ["mcts(iterations=300)", "first", Last()], games=4, options={"pile": 5})
    assert sorted(rr.results) == sorted(
        [("mcts(iterations=300)", "first"), ("mcts(iterations=300)", "last"), ("first", "last")]
    )
    matrix = rr.matrix()
    assert matrix.loc["mcts(iterations=300)", "last"] == 1.0
    assert matrix.loc["last", "mcts(iterations=300)"] == 0.0
    assert matrix.loc["first", "last"] + matrix.loc["last", "first"] == 1.0
    assert matrix.isna().to_numpy().diagonal().all()
    assert rr.summary().loc["mcts(iterations=300)", "games"] == 8
    rr.plot().savefig(tmp_path / "matrix.png")
    assert "round robin" in str(rr)
    with pytest.raises(ValueError, match="at least 2 agents"):
        round_robin("toy-nim", ["first"], games=2)
    three = round_robin("toy-nim", ["first", "random", "greedy", "first"], games=3, players=3, progress=False)
    assert len(three.results) == 4
    with pytest.raises(ValueError, match="two-player"):
        three.matrix()
    three.plot()
