"""A local process pool gets few, large batches and a short tail: every task costs the pool's
parent CPU that the workers do not get on a 2-core machine (see
:data:`~gamelib.analysis.executors.POOL_TASK_SECONDS`)."""

from __future__ import annotations

import concurrent.futures as cf
import sys
from typing import Any

import pytest

import gamelib
from gamelib.analysis import executors


def batches(sizer: executors.BatchSizer, games: int, per_game: float) -> list[int]:
    """The batch sizes a run of ``games`` games of ``per_game`` CPU seconds each gets, results
    coming back in the order sent, :data:`~gamelib.analysis.executors.IN_FLIGHT` tasks per worker."""
    left, sizes, flying = games, [], []
    while left or flying:
        while left and len(flying) < executors.IN_FLIGHT * sizer.workers:
            size = sizer.next_size(left)
            sizes.append(size)
            flying.append(size)
            left -= size
        done = flying.pop(0)
        sizer.observe(done, done * per_game)
    return sizes


def pool_sizer(workers: int = 2) -> executors.BatchSizer:
    runner = executors.pool_runner(cf.ThreadPoolExecutor(1), workers, True, "pool")
    runner.close()
    return executors.BatchSizer(
        runner.workers, None, runner.task_seconds, runner.costly_tasks, runner.shortest_task
    )


@pytest.mark.parametrize(("per_game", "most_tasks"), [(0.00062, 20), (0.0012, 24), (0.01, 90)])
def test_a_local_pool_sends_few_batches_and_still_ends_with_short_ones(
    per_game: float, most_tasks: int
) -> None:
    """2,000 games of Get on Board's (0.62 ms), A Une Passante's (1.2 ms), Fugitive's (10 ms)
    speed: 31, 52 and 361 tasks at 50 ms batches; 19, 23 and 85 now, the last ones as short."""
    sizes = batches(pool_sizer(), 2000, per_game)
    assert sum(sizes) == 2000
    assert len(sizes) <= most_tasks
    first_wave = executors.IN_FLIGHT * 2  # sized blind, cut by the budget when games are slow
    assert max(sizes[first_wave:]) * per_game <= executors.POOL_TASK_SECONDS
    shortest = max(1, int(executors.SHORTEST_TASK_SECONDS / per_game))
    assert all(size <= shortest for size in sizes[-3:-1])  # the tail: both workers finish together


def test_processes_get_the_pool_batches_and_other_executors_keep_theirs() -> None:
    runner = executors.resolve_executor("processes", workers=2)
    try:
        assert runner.task_seconds == executors.POOL_TASK_SECONDS
        assert runner.shortest_task == executors.SHORTEST_TASK_SECONDS
    finally:
        runner.close()
    with cf.ThreadPoolExecutor(2) as pool:
        other = executors.resolve_executor(pool)
        assert (other.task_seconds, other.shortest_task) == (executors.TASK_SECONDS, None)
    assert executors.BatchSizer(2).shortest == executors.TASK_SECONDS / 4


def test_run_jobs_sizes_batches_with_the_runners_tail(monkeypatch: pytest.MonkeyPatch) -> None:
    """The runner's shortest batch reaches the sizer, and the games are the serial games."""
    made: list[Any] = []

    class Recorded(executors.BatchSizer):
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            made.append(self)

    monkeypatch.setattr(executors, "BatchSizer", Recorded)
    game = gamelib.make("getonboard")
    agents = ["random"] * game.num_players
    serial = gamelib.tournament(game, agents, games=40, seed=3, progress=False)
    runner = executors.pool_runner(cf.ThreadPoolExecutor(2), 2, True, "threads")
    monkeypatch.setattr(sys.modules["gamelib.analysis.tournament"], "resolve_executor", lambda *_: runner)
    pooled = gamelib.tournament(game, agents, games=40, seed=3, executor="processes", progress=False)
    assert pooled.outcomes == serial.outcomes
    assert [sizer.shortest for sizer in made] == [executors.SHORTEST_TASK_SECONDS]


def test_a_callers_process_pool_gets_the_local_pool_batches() -> None:
    """A ``concurrent.futures.ProcessPoolExecutor`` given as such costs its caller what a local
    pool does per task: the same batches (Get on Board's 2,000 games: 19 tasks, not 31)."""
    with cf.ProcessPoolExecutor(max_workers=2) as pool:
        runner = executors.resolve_executor(pool)
        assert (runner.task_seconds, runner.shortest_task) == (
            executors.POOL_TASK_SECONDS,
            executors.SHORTEST_TASK_SECONDS,
        )
        assert runner.workers == 2 and not runner.owned and runner.label == "ProcessPoolExecutor"
        played = gamelib.tournament(
            "getonboard", ["random"] * 3, games=20, seed=8, executor=pool, progress=False
        )
    assert (
        played.outcomes
        == gamelib.tournament("getonboard", ["random"] * 3, games=20, seed=8, progress=False).outcomes
    )
