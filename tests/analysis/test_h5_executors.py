"""Dask tasks answer in bytes (:func:`~gamelib.analysis.executors.run_packed`), and a tournament
on any executor gives exactly the serial games."""

from __future__ import annotations

import concurrent.futures as cf
import gc
import pickle
import time
from typing import Any, ClassVar

import pytest

import gamelib
from gamelib.agents import RandomAgent
from gamelib.analysis import executors
from gamelib.analysis.tournament import make_jobs


def test_a_packed_answer_is_the_payload_answer_pickled() -> None:
    game = gamelib.make("getonboard")
    setup = executors.make_setup(game, [RandomAgent()] * 3, None, False)
    payload = executors.batch_payload(setup, make_jobs(3, 5, 2, True), None, 0.1)
    packed = executors.run_packed(payload)
    assert isinstance(packed, bytes)
    seconds, rows = pickle.loads(packed)
    again = executors.run_payload(payload)[1]
    outcomes = [executors.GameOutcome(*row) for row in rows]
    assert seconds >= 0 and len(rows) == 5
    assert outcomes == [executors.GameOutcome(*row) for row in again]  # timings aside


class CostlyPool(cf.ThreadPoolExecutor):
    """A thread pool taken for a Dask ClientExecutor (it has a ``_client``): its tasks are packed."""

    _client = object()

    def __init__(self) -> None:
        super().__init__(max_workers=2)
        self.tasks: list[Any] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        self.tasks.append(fn)
        return super().submit(fn, *args, **kwargs)


def test_costly_executors_run_packed_tasks_and_give_the_serial_games() -> None:
    serial = gamelib.tournament("getonboard", ["random"] * 3, games=30, seed=4, progress=False)
    with CostlyPool() as pool:
        runner = executors.resolve_executor(pool, workers=2)
        assert runner.costly_tasks
        packed = gamelib.tournament(
            "getonboard",
            ["random"] * 3,
            games=30,
            seed=4,
            executor=runner.executor,
            workers=2,
            progress=False,
        )
    assert pool.tasks and set(pool.tasks) == {executors.run_packed}
    assert packed.outcomes == serial.outcomes
    with cf.ThreadPoolExecutor(max_workers=2) as plain:
        local = gamelib.tournament(
            "getonboard", ["random"] * 3, games=30, seed=4, executor=plain, progress=False
        )
    assert local.outcomes == serial.outcomes


def test_loky_workers_stay_warm_between_tournaments() -> None:
    """loky's reusable workers exit after 10 idle seconds by default, and the next tournament then
    starts fresh ones inside its clock: the runner asks for LOKY_IDLE_SECONDS instead."""
    loky = pytest.importorskip("loky")
    runner = executors.spawned_runner(2)  # "processes" where forking is not safe
    assert executors.LOKY_IDLE_SECONDS >= 300
    assert runner.executor is loky.get_reusable_executor(max_workers=2, timeout=executors.LOKY_IDLE_SECONDS)
    assert getattr(runner.executor, "_timeout", executors.LOKY_IDLE_SECONDS) == executors.LOKY_IDLE_SECONDS
    first = gamelib.tournament(
        "getonboard", ["random"] * 3, games=12, seed=1, executor=runner.executor, workers=2, progress=False
    )
    assert runner.executor is executors.spawned_runner(2).executor
    runner.executor.shutdown(wait=True)  # its threads would keep this process from forking
    assert (
        first.outcomes
        == gamelib.tournament("getonboard", ["random"] * 3, games=12, seed=1, progress=False).outcomes
    )


def test_a_new_workers_set_up_is_not_counted_as_game_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker new to a tournament rebuilds its game (0.1-0.4 s: modules, tables) before the first
    game.  Counted in, it spent the first batch's budget before the second game and made the
    scheduler size the next batches as if every game took that long (one game a task)."""
    built = executors.GameRecipe.build

    def slow_build(recipe: executors.GameRecipe) -> Any:
        end = time.thread_time() + 0.2  # CPU time, as a real build spends it
        while time.thread_time() < end:
            pass
        return built(recipe)

    monkeypatch.setattr(executors.GameRecipe, "build", slow_build)
    monkeypatch.setattr(executors, "_SETUPS", {})
    game = gamelib.make("delanopolis")
    setup = executors.make_setup(game, [RandomAgent()] * game.num_players, None, False)
    jobs = make_jobs(game.num_players, 400, 3, True)
    seconds, rows = executors.run_payload(executors.batch_payload(setup, jobs, budget=0.1))
    assert 1 < len(rows) < 400 and seconds < 0.2  # the games' time, cut by the budget, not by the build
    sizer = executors.BatchSizer(workers=2)
    sizer.observe(len(rows), seconds)
    assert sizer.next_size(1000) > 10
    serial = gamelib.tournament(game, ["random"] * game.num_players, games=len(rows), seed=3, progress=False)
    assert [executors.GameOutcome(*row) for row in rows] == serial.outcomes


class ThresholdAgent(RandomAgent):
    """A random agent that notes the collector's first threshold at each move."""

    seen: ClassVar[set[int]] = set()

    def act(self, state: Any, player: int, rng: Any) -> Any:
        ThresholdAgent.seen.add(gc.get_threshold()[0])
        return super().act(state, player, rng)


def test_a_worker_plays_under_a_sparse_collector_and_restores_its_own() -> None:
    """A new worker fills the game's caches with tens of thousands of long-lived objects; a young
    collection every 700 of them (and full ones over the whole worker) cost Get on Board ~25% of
    its first games.  Batches play under WORKER_GC_THRESHOLD; the process's thresholds come back."""
    game = gamelib.make("getonboard", players=2)
    before = gc.get_threshold()
    ThresholdAgent.seen = set()
    setup = executors.make_setup(game, [ThresholdAgent(), ThresholdAgent()], None, False)
    _, rows = executors.run_payload(executors.batch_payload(setup, make_jobs(2, 4, 5, True)))
    assert ThresholdAgent.seen == {max(before[0], executors.WORKER_GC_THRESHOLD)}
    assert gc.get_threshold() == before
    serial = gamelib.tournament(game, ["random", "random"], games=4, seed=5, progress=False)
    assert [executors.GameOutcome(*row).returns for row in rows] == [o.returns for o in serial.outcomes]
    gc.set_threshold(0)  # collection off: left off
    try:
        with executors.sparse_collections():
            assert gc.get_threshold()[0] == 0
    finally:
        gc.set_threshold(*before)
