"""The same tournament in this process, in local process pools and on a local Dask cluster.

Agents here are defined inside the test functions, like agents written in a notebook cell: plain
pickle cannot ship them, cloudpickle can, under every start method.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import random
from pathlib import Path

import pytest

import gamelib
from gamelib.__main__ import main
from gamelib.agents import RandomAgent
from gamelib.analysis.executors import BatchSizer, resolve_executor
from gamelib.analysis.tournament import make_jobs

GAMES = 24


def local_agents() -> list:
    class CautiousAgent:
        """Prefers the smallest-looking move (defined locally: not importable by name)."""

        name = "cautious"

        def act(self, state: gamelib.State, player: int, rng: random.Random) -> gamelib.Action:
            actions = sorted(state.legal_actions(), key=str)
            return actions[0] if rng.random() < 0.7 else rng.choice(actions)

    def lazy(state: gamelib.State, player: int, rng: random.Random) -> gamelib.Action:
        return state.legal_actions()[-1]

    return [CautiousAgent(), lazy]


def serial() -> gamelib.analysis.tournament.TournamentResults:
    return gamelib.tournament("fugitive", local_agents(), games=GAMES, seed=3, progress=False)


def same_games(a, b) -> bool:  # type: ignore[no-untyped-def]
    return a.outcomes == b.outcomes and a.to_pandas().equals(b.to_pandas())


def test_processes_executor_matches_serial() -> None:
    parallel = gamelib.tournament(
        "fugitive",
        local_agents(),
        games=GAMES,
        seed=3,
        executor="processes",
        workers=2,
        batch_size=5,
        progress=False,
    )
    assert same_games(parallel, serial())
    assert "2" in parallel.executor_label


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_any_start_method_runs_notebook_defined_agents(method: str) -> None:
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"{method} is not available here")
    with cf.ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context(method)) as pool:
        parallel = gamelib.tournament(
            "fugitive", local_agents(), games=GAMES, seed=3, executor=pool, progress=False
        )
    assert same_games(parallel, serial())


def test_thread_pool_is_an_executor_too() -> None:
    with cf.ThreadPoolExecutor(max_workers=3) as pool:
        threaded = gamelib.tournament(
            "fugitive", local_agents(), games=GAMES, seed=3, executor=pool, progress=False
        )
    assert same_games(threaded, serial())


@pytest.mark.slow
def test_dask_local_cluster_matches_serial(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=50
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_client = gamelib.tournament(
            "fugitive", local_agents(), games=GAMES, seed=3, executor=client, batch_size=4, progress=False
        )
        on_executor = gamelib.tournament(
            "fugitive",
            local_agents(),
            games=GAMES,
            seed=3,
            executor=client.get_executor(pure=False),
            progress=False,
        )
        # the command line on the same cluster, by scheduler address
        csv_dask, csv_serial = tmp_path / "dask.csv", tmp_path / "serial.csv"
        common = ["tournament", "fugitive", "--agents", "random,first", "--games", "8", "--no-progress"]
        assert main([*common, "--scheduler", cluster.scheduler_address, "--out", str(csv_dask)]) == 0
        assert "Dask" in capsys.readouterr().out
    assert main([*common, "--out", str(csv_serial)]) == 0
    assert csv_dask.read_text() == csv_serial.read_text()
    expected = serial()
    assert same_games(on_client, expected)
    assert same_games(on_executor, expected)
    assert on_client.executor_label.startswith("Dask (2")


def test_batches_are_sized_from_the_measured_game_time_and_shrink_at_the_end() -> None:
    sizer = BatchSizer(workers=2)
    assert sizer.next_size(2000) == 63  # speed unknown: an eighth of a share, cut by the budget
    assert sizer.budget == 2 * sizer.task_seconds
    sizer.observe(games=10, seconds=0.005)  # 0.5 ms games: 100 fit in a 50 ms task
    assert sizer.next_size(2000) == 100
    assert sizer.next_size(200) == 50  # the rest shared among the 4 queued tasks
    assert sizer.next_size(30) == 25  # but never under a quarter of a full batch
    assert sizer.next_size(3) == 3
    sizer.observe(games=1, seconds=2.0)  # slow games: one a task
    assert sizer.next_size(2000) == 1
    fixed = BatchSizer(workers=2, fixed=7)
    assert (fixed.next_size(2000), fixed.next_size(5), fixed.budget) == (7, 5, None)


def test_on_dask_the_first_wave_is_one_task_per_worker_holding_every_game() -> None:
    """A Dask task costs ~10 ms of CPU: short games go in one task per worker, slow ones come
    back when the budget is spent and are then sized by time."""
    sizer = BatchSizer(workers=2, task_seconds=0.5, costly_tasks=True)
    assert [sizer.next_size(2000), sizer.next_size(1000)] == [1000, 1000]
    assert sizer.budget == 1.0
    sizer.observe(games=147, seconds=1.0)  # ~6.8 ms games: 73 fit in half a second
    assert sizer.next_size(1853) == 73
    assert sizer.next_size(40) == 18  # the tail: a quarter of a full batch
    odd = BatchSizer(workers=3, costly_tasks=True)
    assert [odd.next_size(10), odd.next_size(6), odd.next_size(2)] == [4, 4, 2]


def test_a_dask_client_runner_has_costly_tasks() -> None:
    class FakeClient:
        def get_executor(self, pure: bool = True) -> cf.Executor:
            return cf.ThreadPoolExecutor(max_workers=1)

        def nthreads(self) -> dict[str, int]:
            return {"a": 1, "b": 1}

    runner = resolve_executor(FakeClient())
    try:
        assert runner.costly_tasks and runner.workers == 2 and runner.label.startswith("Dask (2")
    finally:
        assert runner.executor is not None
        runner.executor.shutdown()
    assert not resolve_executor("processes", 2).costly_tasks


def test_batches_on_dask_run_under_a_coarse_switch_interval_then_restore_it() -> None:
    import sys
    import threading

    from gamelib.analysis import executors

    before = sys.getswitchinterval()
    with executors.coarse_switching(None):
        assert sys.getswitchinterval() == before
    inside: list[float] = []
    entered, leave = threading.Barrier(3), threading.Event()

    def batch() -> None:
        with executors.coarse_switching(0.1):
            entered.wait()
            leave.wait()
            inside.append(sys.getswitchinterval())

    threads = [threading.Thread(target=batch, daemon=True) for _ in range(2)]
    for thread in threads:
        thread.start()
    try:
        entered.wait(timeout=10)  # both batches are in
        assert sys.getswitchinterval() == pytest.approx(0.1)
    finally:
        leave.set()
    for thread in threads:
        thread.join(timeout=10)
    assert inside == pytest.approx([0.1, 0.1]) and sys.getswitchinterval() == before
    game = gamelib.make("fugitive")
    setup = executors.make_setup(game, [RandomAgent(), RandomAgent()], None, False)
    _, rows = executors.run_payload(executors.batch_payload(setup, make_jobs(2, 3, 1, True), None, 0.1))
    assert len(rows) == 3 and sys.getswitchinterval() == before


@pytest.mark.slow
def test_a_lean_local_cluster_plays_the_serial_games() -> None:
    """:func:`local_cluster` starts its workers under DASK_CPU_CONFIG (no profiler, rare ticks)."""
    pytest.importorskip("distributed")
    import sys

    import dask
    from distributed import Client

    from gamelib.analysis.executors import DASK_CPU_CONFIG, local_cluster

    def settings() -> tuple[bool, str]:
        return dask.config.get("distributed.worker.profile.enabled"), dask.config.get(
            "distributed.admin.tick.interval"
        )

    with local_cluster(2, silence_logs=50) as cluster, Client(cluster) as client:
        assert set(client.run(settings).values()) == {
            (False, DASK_CPU_CONFIG["distributed.admin.tick.interval"])
        }
        on_dask = gamelib.tournament(
            "fugitive", local_agents(), games=GAMES, seed=3, executor=client, progress=False
        )
        assert set(client.run(sys.getswitchinterval).values()) == {sys.getswitchinterval()}  # restored
    assert same_games(on_dask, serial())
    assert dask.config.get("distributed.worker.profile.enabled")  # this process's settings are left alone


def test_a_worker_hands_back_the_games_its_budget_leaves() -> None:
    from gamelib.analysis import executors

    game = gamelib.make("fugitive")
    jobs = make_jobs(2, 6, 1, True)
    setup = executors.make_setup(game, [RandomAgent(), RandomAgent()], None, False)
    seconds, rows = executors.run_payload(executors.batch_payload(setup, jobs, budget=0.0))
    assert len(rows) == 1 and rows[0][0] == 0 and seconds > 0
    _, rows = executors.run_payload(executors.batch_payload(setup, jobs, budget=None))
    assert [row[0] for row in rows] == list(range(6))


@pytest.mark.parametrize("workers", [1, 2])
def test_sized_batches_give_the_serial_games_on_any_worker_count(workers: int) -> None:
    """Batches sized from timing and games handed back by a budget never change a game."""
    from gamelib.analysis.executors import run_jobs
    from gamelib.analysis.tournament import resolve_agents

    game = gamelib.make("getonboard", players=2)
    serial = gamelib.tournament(game, ["random", "random"], games=150, seed=4, progress=False)
    _, agents = resolve_agents(game, ["random", "random"])
    runner = resolve_executor("processes", workers)
    runner.task_seconds = 0.002  # tiny batches and budgets: many games handed back
    try:
        outcomes = list(run_jobs(game, agents, make_jobs(2, 150, 4, True), runner))
    finally:
        runner.close()
    assert sorted(outcomes, key=lambda o: o.index) == serial.outcomes


def test_resolve_executor_rejects_what_cannot_run_games() -> None:
    with pytest.raises(TypeError, match="cannot run games"):
        resolve_executor(object())
    assert resolve_executor(None).executor is None
    assert resolve_executor("serial").workers == 1


def test_agents_that_cannot_travel_are_named() -> None:
    import threading

    class Locked:
        name = "locked"

        def __init__(self) -> None:
            self.lock = threading.Lock()

        def act(self, state: gamelib.State, player: int, rng: random.Random) -> gamelib.Action:
            return state.legal_actions()[0]

    with (
        cf.ThreadPoolExecutor(max_workers=1) as pool,
        pytest.raises(TypeError, match="cannot ship the game and agents"),
    ):
        gamelib.tournament("fugitive", [Locked(), "random"], games=2, executor=pool, progress=False)


@pytest.mark.parametrize("batch_size", [1, 3, 7, 20])
def test_same_games_whatever_the_batch_size_and_executor(batch_size: int) -> None:
    """Batches only group jobs: every game keeps its seed and seating, so results never move."""
    agents = ["random"] * gamelib.make("getonboard").num_players
    serial = gamelib.tournament("getonboard", agents, games=20, seed=5, progress=False)
    with cf.ThreadPoolExecutor(max_workers=2) as pool:
        threaded = gamelib.tournament(
            "getonboard",
            agents,
            games=20,
            seed=5,
            executor=pool,
            batch_size=batch_size,
            progress=False,
        )
    assert threaded.outcomes == serial.outcomes


def test_a_worker_unpacks_a_tournament_setup_once() -> None:
    from gamelib.analysis import executors

    game = gamelib.make("getonboard", players=2)
    jobs = make_jobs(2, 4, 1, True)
    setup = executors.make_setup(game, [RandomAgent(), RandomAgent()], None, False)
    executors._SETUPS.clear()
    first_seconds, first = executors.run_payload(executors.batch_payload(setup, jobs[:2]))
    second_seconds, second = executors.run_payload(executors.batch_payload(setup, jobs[2:]))
    assert len(executors._SETUPS) == 1
    assert first_seconds > 0 and second_seconds > 0
    serial = gamelib.tournament(game, ["random", "random"], games=4, seed=1, progress=False)
    assert [executors.GameOutcome(*row) for row in first + second] == serial.outcomes


def test_a_registered_game_travels_as_its_recipe_and_a_local_one_as_itself() -> None:
    """Get on Board's precomputed tables pickle to ~700 KB; workers rebuild the game instead."""
    import pickle

    from gamelib.analysis.executors import GameRecipe, make_setup

    game = gamelib.make("getonboard", players=3, options={"loops": "forced-only"})
    setup = make_setup(game, [RandomAgent()] * 3, None, False)
    assert len(setup) < 5000
    recipe = pickle.loads(setup)[0]
    assert isinstance(recipe, GameRecipe) and recipe.build() == game
    assert type(recipe.build()) is type(game)

    class Variant(type(game)):  # type: ignore[misc]
        """A game class made on the spot: not what the registry builds for the name."""

    local = Variant(players=3)
    assert GameRecipe.of(local) is local
