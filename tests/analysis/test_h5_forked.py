"""On Linux a local pool forks its workers from the calling process (when no other thread runs
there): they start with the game and agents made, instead of importing and building them inside
the call (:class:`~gamelib.analysis.executors.LocalPool`)."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

import gamelib
from gamelib.analysis import executors

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork is used on Linux only")


@pytest.fixture(autouse=True)
def alone() -> None:
    """This process with no thread but this one: loky's pool (earlier tests) shut down."""
    try:
        from loky import get_reusable_executor
    except ImportError:
        return
    get_reusable_executor(max_workers=2, timeout=executors.LOKY_IDLE_SECONDS).shutdown(wait=True)
    others = [t.name for t in threading.enumerate() if t is not threading.current_thread()]
    if sys.platform.startswith("linux") and not executors.fork_is_safe():
        pytest.skip(f"threads of earlier tests still run here: {others}")


def play(**options: object) -> gamelib.analysis.TournamentResults:
    return gamelib.tournament("getonboard", ["random"] * 3, games=30, seed=5, progress=False, **options)  # type: ignore[arg-type]


@linux
def test_a_local_pool_forks_and_plays_the_serial_games() -> None:
    assert executors.fork_is_safe()
    forked = play(executor="processes", workers=2)
    assert forked.executor_label == "2 processes (forked)"
    assert forked.outcomes == play().outcomes


@linux
def test_forked_workers_use_the_game_and_agents_made_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """The recipe is not rebuilt and the setup not unpickled in a forked worker."""

    def refuse(*_: object) -> None:
        raise AssertionError("a forked worker rebuilt the game")

    monkeypatch.setattr(executors.GameRecipe, "build", refuse)
    assert play(executor="processes", workers=2).outcomes == play().outcomes
    assert not executors._INHERITED  # nothing left behind in this process


@linux
def test_another_thread_means_a_spawned_pool() -> None:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()
    try:
        assert not executors.fork_is_safe()
        spawned = play(executor="processes", workers=2)
    finally:
        stop.set()
        other.join()
    assert "forked" not in spawned.executor_label
    assert spawned.outcomes == play().outcomes


@linux
def test_a_progress_bar_does_not_stop_the_next_call_forking() -> None:
    pytest.importorskip("tqdm")
    options = {"executor": "processes", "workers": 2, "progress": True}
    first = gamelib.tournament("getonboard", ["random"] * 3, games=20, seed=6, **options)  # type: ignore[arg-type]
    second = gamelib.tournament("getonboard", ["random"] * 3, games=20, seed=6, **options)  # type: ignore[arg-type]
    assert first.executor_label == second.executor_label == "2 processes (forked)"
    assert first.outcomes == second.outcomes


@linux
def test_a_forked_pool_pickles_no_setup() -> None:
    """Forked workers take the game and agents as they are: a process's first call does not even
    import cloudpickle (~40 ms) or hashlib (its OpenSSL, 4-8 ms), nor does any worker unpickle or
    rebuild anything."""
    code = (
        "import sys, gamelib\n"
        "r = gamelib.tournament('getonboard', ['random'] * 3, games=6, executor='processes', workers=2,"
        " progress=False)\n"
        "print(r.executor_label, 'cloudpickle' in sys.modules, 'hashlib' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.split() == ["2", "processes", "(forked)", "False", "False"], out.stderr


@linux
def test_no_fork_warning_for_harmless_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Python 3.12+ warns of a fork whenever another thread runs; with only harmless ones
    (tqdm's monitor, Dask's idle offload thread), the pool forks without a word."""
    import os
    import warnings

    real_fork = os.fork

    def warning_fork() -> int:  # what Python 3.12's os.fork says when another thread runs
        warnings.warn(
            f"This process (pid={os.getpid()}) is multi-threaded, use of fork() may lead to deadlocks "
            "in the child.",
            DeprecationWarning,
            stacklevel=2,
        )
        return real_fork()

    monkeypatch.setattr(os, "fork", warning_fork)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        forked = play(executor="processes", workers=2)
    assert forked.executor_label == "2 processes (forked)"


@linux
def test_a_pool_forked_for_one_call_plays_the_next_with_pickled_setups() -> None:
    """Workers forked for one call hold its game and agents only: a second call on the same
    runner ships its setup as spawned workers get it."""
    from gamelib.agents import FirstLegalAgent, RandomAgent
    from gamelib.analysis.tournament import make_jobs

    game = gamelib.make("getonboard")
    runner = executors.resolve_executor("processes", 2)
    try:
        for agents in ([RandomAgent()] * 3, [FirstLegalAgent(), RandomAgent(), RandomAgent()]):
            outcomes = list(executors.run_jobs(game, agents, make_jobs(3, 12, 7, True), runner))
            serial = gamelib.tournament(game, agents, games=12, seed=7, progress=False).outcomes
            assert sorted(outcomes, key=lambda o: o.index) == serial
    finally:
        runner.close()
    assert runner.label == "2 processes (forked)"
