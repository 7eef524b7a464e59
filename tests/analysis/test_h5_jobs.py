"""A tournament's games travel as ranges (:class:`~gamelib.analysis.executors.JobRange`) whose
workers derive the seeds, and outcomes are made from rows without the frozen ``__init__``."""

from __future__ import annotations

import concurrent.futures as cf
import pickle

import gamelib
from gamelib.agents import RandomAgent
from gamelib.analysis import executors
from gamelib.analysis.tournament import game_seed, make_jobs, resolve_agents, warn_misplaced_roles


def listed_jobs(players: int, games: int, seed: int, rotate: bool) -> list[executors.GameJob]:
    """The jobs as make_jobs listed them before ranges: seeds and seatings written out here."""
    jobs = []
    for i in range(games):
        shift = i % players if rotate else 0
        jobs.append(
            executors.GameJob(i, game_seed(seed, i), tuple((s + shift) % players for s in range(players)))
        )
    return jobs


def test_a_range_holds_the_listed_jobs_and_slices_as_a_range() -> None:
    for players, rotate in ((2, True), (3, True), (4, False)):
        listed = listed_jobs(players, 23, 9, rotate)
        jobs = make_jobs(players, 23, 9, rotate)
        assert isinstance(jobs, executors.JobRange)
        assert len(jobs) == 23 and list(jobs) == listed
        assert [jobs[i] for i in range(-23, 23)] == listed + listed
        assert list(jobs.rows()) == [(j.index, j.seed, j.seating) for j in listed]
        for start, stop in ((0, 5), (5, 23), (7, 7), (20, 40), (-3, None)):
            part = jobs[start:stop]
            assert isinstance(part, executors.JobRange) and list(part) == listed[start:stop]
            assert list(part.rows()) == [(j.index, j.seed, j.seating) for j in listed[start:stop]]


def test_a_range_batch_is_a_few_numbers_whatever_its_games() -> None:
    game = gamelib.make("getonboard")
    setup = executors.make_setup(game, [RandomAgent()] * 3, None, False)
    jobs = make_jobs(3, 100_000, 2, True)
    small, large = (len(executors.batch_payload(setup, jobs[:n])) for n in (5, 100_000))
    assert large - small < 8
    _, rows = executors.run_payload(executors.batch_payload(setup, jobs[40:45]))
    listed = executors.batch_payload(setup, listed_jobs(3, 45, 2, True)[40:])
    assert len(executors.batch_payload(setup, listed_jobs(3, 1000, 2, True))) > 10 * large
    assert [executors.GameOutcome.from_row(r) for r in rows] == [
        executors.GameOutcome.from_row(r) for r in executors.run_payload(listed)[1]
    ]
    serial = gamelib.tournament(game, ["random"] * 3, games=45, seed=2, progress=False)
    assert [executors.GameOutcome.from_row(r) for r in rows] == serial.outcomes[40:]


def test_an_outcome_from_a_row_is_the_outcome_of_its_fields() -> None:
    game = gamelib.make("delanopolis")
    setup = executors.make_setup(game, [RandomAgent()] * game.num_players, None, True)
    _, rows = executors.run_payload(executors.batch_payload(setup, make_jobs(game.num_players, 6, 3, True)))
    for row in rows:
        fast, slow = executors.GameOutcome.from_row(row), executors.GameOutcome(*row)
        assert fast == slow
        assert vars(fast) == vars(slow) and pickle.loads(pickle.dumps(fast)) == slow
        assert fast.seconds == slow.seconds and fast.record == slow.record is not None


def test_games_handed_back_from_a_range_are_played_again_first() -> None:
    """A budget cuts batches of a range anywhere; the rest goes back as a range, sent first."""
    game = gamelib.make("getonboard", players=2)
    serial = gamelib.tournament(game, ["random", "random"], games=120, seed=6, progress=False)
    _, agents = resolve_agents(game, ["random", "random"])
    with cf.ThreadPoolExecutor(max_workers=2) as pool:
        runner = executors.resolve_executor(pool, workers=2)
        runner.task_seconds = 0.001
        outcomes = list(executors.run_jobs(game, agents, make_jobs(2, 120, 6, True), runner))
    assert sorted(outcomes, key=lambda o: o.index) == serial.outcomes
    unsent = executors.Unsent(make_jobs(2, 10, 6, True))
    first = unsent.take(4)
    unsent.give_back(first[1:])
    assert unsent.left == 9 and list(unsent.take(100)) == list(first[1:])
    assert list(unsent.take(100)) == list(make_jobs(2, 10, 6, True)[4:]) and unsent.left == 0


class DetectiveOnly(RandomAgent):
    seats = (1,)


def test_misplaced_roles_are_counted_on_a_range_as_on_a_list() -> None:
    import warnings

    game = gamelib.make("fugitive")
    agents = [RandomAgent(), DetectiveOnly()]
    for jobs in (make_jobs(2, 7, 1, True), listed_jobs(2, 7, 1, True)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            warn_misplaced_roles(game, ["random", "detective"], agents, jobs)
        assert [str(w.message).count("(seat 0) in 3 of 7 games") for w in caught] == [1]
