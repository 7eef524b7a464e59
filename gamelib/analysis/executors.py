"""Where tournament games run: in this process, a local process pool, or any executor (Dask...).

Work is shipped as **batches** of games: a task costs 0.3 ms (local pool) to ~10 ms (Dask) of
CPU to schedule, ship and collect while a Get on Board game takes 0.5 ms, so one game per task
would spend most of the time in overhead.  Batches are sized from the CPU time the workers report
(:class:`BatchSizer`: up to 250 ms of games a task in a local pool, shrinking to 12.5 ms at the
end so the workers finish together; on Dask, where a task costs ~10 ms of CPU, one task per
worker first, then a second of games), two tasks are kept queued per worker, and results come
back as plain tuples.  What
makes the parallel run as fast as the serial one per game: a worker unpacks a tournament's game
and agents once and keeps them (the game's caches stay warm), and a registered game travels as
its recipe (:class:`GameRecipe`), not as its precomputed tables; on Linux a local pool's workers
are forked at the call and take the game and agents as this process holds them
(:mod:`gamelib.analysis.pools`).

Every task is the same importable function, :func:`run_payload`, applied to bytes made by
cloudpickle (the game's recipe, the agents, and the games: a tournament's as a :class:`JobRange`
whose seeds the worker derives); on Dask it answers in bytes too (:func:`run_packed`).  cloudpickle
serialises by value the classes and functions defined in a notebook cell or in ``__main__``, so agents
written in a notebook work under every start method (fork, spawn, forkserver), in loky's pool and
on Dask workers, which only need ``gamelib`` importable.  The games, and so the results, never
depend on the executor, the batch sizes or the number of workers: each game has its own seed.
"""

from __future__ import annotations

import collections
import concurrent.futures as cf
import contextlib
import gc
import math
import os
import pickle
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, overload

from gamelib.analysis import roles
from gamelib.analysis.pools import LOKY_IDLE_SECONDS as LOKY_IDLE_SECONDS
from gamelib.analysis.pools import LocalPool, fork_is_safe, spawned_pool
from gamelib.core.game import Game
from gamelib.core.play import play
from gamelib.core.registry import game_class, make
from gamelib.core.rng import derive_seed


class GameFailed(RuntimeError):
    """A tournament game raised: the message names the game number, its seed and the seating."""


@dataclass(frozen=True)
class GameJob:
    """One game to play: its number in the tournament, its seed, and who sits where."""

    index: int
    seed: int
    seating: tuple[int, ...]
    """``seating[seat]`` is the index of the agent playing that seat."""


@dataclass(frozen=True)
class GameOutcome:
    """What a tournament keeps of one game (enough to replay it with the same agents)."""

    index: int
    seed: int
    seating: tuple[int, ...]
    returns: tuple[float, ...]
    """One return per *seat*."""
    length: int
    finished: bool
    """Ended by the rules (:func:`finished_by_rules`); False: cut by a safety limit."""
    record: dict[str, Any] | None = None
    moves: tuple[int, ...] = ()
    """Decisions made by each seat."""
    seconds: tuple[float, ...] = field(default=(), compare=False)
    """Time spent deciding by each seat (not compared: it is the only part that varies)."""
    roles: tuple[str, ...] = ()
    """Each seat's role key in this game (:func:`gamelib.analysis.roles.seat_roles`)."""
    scores: tuple[float, ...] = ()
    """Each seat's final score (:func:`gamelib.analysis.roles.final_scores`)."""
    ending: str = ""
    """How the game ended, in the game's words (:func:`gamelib.analysis.roles.ending`)."""
    facts: tuple[tuple[str, float], ...] = ()
    """The game's own per-game numbers (:func:`gamelib.analysis.roles.facts`)."""

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> GameOutcome:
        """The outcome of a :func:`play_row` tuple, made without the frozen ``__init__`` (which sets
        each of the 13 fields through ``object.__setattr__``): 2.9 instead of 6.2 us a game, work the
        parent does while its workers play (a 2,000-game tournament: 6 ms less in the parent)."""
        outcome = object.__new__(cls)
        outcome.__dict__.update(zip(_OUTCOME_FIELDS, row, strict=True))
        return outcome


_OUTCOME_FIELDS = tuple(f.name for f in fields(GameOutcome))


@dataclass(frozen=True)
class JobRange(Sequence[GameJob]):
    """Games ``start`` to ``stop - 1`` of a tournament, as a sequence of :class:`GameJob` computed on
    demand: game ``i`` has the seed ``derive_seed(seed, i)`` and, with ``rotate``, agent
    ``(seat + i) mod players`` in each seat (:func:`gamelib.analysis.tournament.make_jobs`).

    A batch of a tournament travels as this (five numbers) and its worker derives the seeds: the
    parent spent 27 ms making 2,000 seeds and jobs before its first task left (29 ms of a 2-worker
    run's ~700 on Delanopolis, in the clock of every executor), and shipped a tuple a game."""

    seed: int
    players: int
    rotate: bool
    start: int
    stop: int

    def __len__(self) -> int:
        return max(0, self.stop - self.start)

    @overload
    def __getitem__(self, item: int) -> GameJob: ...

    @overload
    def __getitem__(self, item: slice) -> JobRange: ...

    def __getitem__(self, item: int | slice) -> GameJob | JobRange:
        if isinstance(item, slice):
            first, last, step = item.indices(len(self))
            if step != 1:
                raise ValueError("a JobRange is sliced with step 1 only")
            return JobRange(
                self.seed, self.players, self.rotate, self.start + first, self.start + max(first, last)
            )
        if item < 0:
            item += len(self)
        if not 0 <= item < len(self):
            raise IndexError(f"job {item} is not in a range of {len(self)}")
        index = self.start + item
        return GameJob(index, derive_seed(self.seed, index), self.seating(index))

    def __iter__(self) -> Iterator[GameJob]:
        for index, seed, seating in self.rows():
            yield GameJob(index, seed, seating)

    def seating(self, index: int) -> tuple[int, ...]:
        """Who sits where in game ``index`` (no seed needed)."""
        shift = index % self.players if self.rotate else 0
        return tuple([(seat + shift) % self.players for seat in range(self.players)])

    def rows(self) -> Iterator[tuple[int, int, tuple[int, ...]]]:
        """``(index, seed, seating)`` of each game: what :func:`play_row` takes."""
        seatings = [self.seating(shift) for shift in range(self.players)]
        seed, players = self.seed, self.players
        for index in range(self.start, self.stop):
            yield index, derive_seed(seed, index), seatings[index % players]


class _TimedAgent:
    """Counts the decisions of one seat and the time they take."""

    __slots__ = ("act_fn", "moves", "seconds")

    def __init__(self, agent: Any) -> None:
        from gamelib.core.play import as_agent_fn

        self.act_fn = as_agent_fn(agent)
        self.moves = 0
        self.seconds = 0.0

    def act(self, state: Any, player: int, rng: Any) -> Any:
        start = time.perf_counter()
        action = self.act_fn(state, player, rng)
        self.seconds += time.perf_counter() - start
        self.moves += 1
        return action


SAFETY_LIMIT_ENDINGS = frozenset({"max_rounds"})
"""``state.ended_by`` values of games an engine safety limit stopped (Fugitive's ``max_rounds``):
terminal for the engine, but no rule of the game ended them."""


def finished_by_rules(state: Any) -> bool:
    """Whether the game reached an end its rules define.

    False while it is still going (a tournament's ``max_actions`` cut it) and when an engine
    safety limit stopped it (``state.ended_by`` in :data:`SAFETY_LIMIT_ENDINGS`, or a game's own
    ``stopped_by_limit``): such a game is *unfinished*, which is neither a draw nor evidence for a
    side.
    """
    if not state.is_terminal():
        return False
    stopped = getattr(state, "stopped_by_limit", None)
    if isinstance(stopped, bool):
        return not stopped
    return getattr(state, "ended_by", None) not in SAFETY_LIMIT_ENDINGS


def play_row(
    game: Game,
    agents: Sequence[Any],
    job: tuple[int, int, tuple[int, ...]],
    max_actions: int | None = None,
    keep_record: bool = False,
) -> tuple[Any, ...]:
    """Play one tournament game and return its :class:`GameOutcome` fields as a plain tuple.

    The same code in every executor, so results agree; a tuple of ints, floats and strings is
    what workers send back (it pickles several times faster than the dataclass).
    """
    index, seed, seating = job
    seated = [_TimedAgent(agents[a]) for a in seating]
    try:
        state = play(game, seated, seed=seed, max_actions=max_actions)
    except Exception as exc:
        raise GameFailed(
            f"game {index} (seed {seed}, seating {seating}) failed: {type(exc).__name__}: {exc}"
        ) from exc
    return (
        index,
        seed,
        seating,
        tuple([float(r) for r in state.returns()]),
        len(state.history),
        finished_by_rules(state),
        state.to_record() if keep_record else None,
        tuple([t.moves for t in seated]),
        tuple([t.seconds for t in seated]),
        roles.seat_roles(state),
        roles.final_scores(state),
        roles.ending(state),
        roles.facts(state),
    )


def play_job(
    game: Game,
    agents: Sequence[Any],
    job: GameJob,
    max_actions: int | None = None,
    keep_record: bool = False,
) -> GameOutcome:
    """Play one tournament game (the same code in every executor, so results agree)."""
    return GameOutcome(*play_row(game, agents, (job.index, job.seed, job.seating), max_actions, keep_record))


def _dumps(obj: Any) -> bytes:
    try:
        import cloudpickle
    except ImportError:  # plain pickle still handles importable classes
        return pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    data: bytes = cloudpickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return data


@dataclass(frozen=True)
class GameRecipe:
    """A registered game as its name, player count and options: how a game travels to workers.

    A game is a value (equal games have the same name, players and options) whose class may
    precompute large tables: Get on Board's pickle to 700 KB and take 30 ms to pickle, more than
    its first hundred games take to play.  The worker rebuilds the game from the registry instead.
    """

    name: str
    players: int
    options: dict[str, Any]

    @staticmethod
    def of(game: Game) -> GameRecipe | Game:
        """The recipe of ``game``, or the game itself when the registry would not rebuild it
        (a game class made in a notebook, say)."""
        try:
            registered = game_class(game.name)
        except Exception:
            return game
        if registered is not type(game):
            return game
        return GameRecipe(game.name, game.num_players, game.option_dict())

    def build(self) -> Game:
        return make(self.name, players=self.players, options=self.options)


def make_setup(game: Game, agents: Sequence[Any], max_actions: int | None, keep_records: bool) -> bytes:
    """What every batch of a tournament shares (game, agents, limits), serialised once."""
    try:
        return _dumps((GameRecipe.of(game), list(agents), max_actions, keep_records))
    except Exception as exc:
        raise TypeError(
            f"cannot ship the game and agents to other processes ({type(exc).__name__}: {exc}); "
            "agents holding locks, open files or live connections can only run with executor=None"
        ) from exc


def setup_digest(setup: bytes) -> bytes:
    """The key a worker keeps an unpacked setup under (hashlib imported here: a forked pool's
    call never needs it, nor its 4-8 ms of OpenSSL loading in a process's first call)."""
    import hashlib

    return hashlib.blake2b(setup, digest_size=16).digest()


def batch_payload(
    setup: bytes,
    jobs: Sequence[GameJob],
    budget: float | None = None,
    switch_interval: float | None = None,
    digest: bytes | None = None,
) -> bytes:
    """One task: the shared setup, its digest (the worker's cache key; None: computed), the games
    (a :class:`JobRange` as itself, other jobs as tuples), the CPU seconds after which the worker
    stops and hands the unplayed games back (None: play all), and the GIL switch interval to play
    them under (None: the worker's own; see :func:`run_payload`)."""
    digest = digest or setup_digest(setup)
    rows: Any = jobs if isinstance(jobs, JobRange) else [(job.index, job.seed, job.seating) for job in jobs]
    return pickle.dumps((digest, setup, rows, budget, switch_interval), protocol=pickle.HIGHEST_PROTOCOL)


_INHERITED: dict[bytes, tuple[int, tuple[Any, ...]]] = {}
"""Per call forking a local pool (by digest): this process's id and (game, agents, max_actions,
keep_records) as :func:`run_jobs` holds them.  A worker forked from it (another process id) takes
them instead of unpickling and rebuilding; this process's threads never do (each unpacks its own)."""

_SETUPS: dict[tuple[bytes, int], tuple[Any, ...]] = {}
"""A worker's unpacked setups by (digest, thread): later batches of a tournament reuse the same
game and agents, so a game's own caches stay warm (Get on Board: a fresh game costs ~13 ms of cold
caches) and nothing is unpickled twice.  Keyed by thread too, so that threads of one Dask worker
never share an agent (some plan across their moves)."""

DASK_SWITCH_INTERVAL = 0.1
"""The GIL switch interval (seconds) a Dask worker plays a batch under (Python's default: 5 ms).

A Dask worker's event loop thread wakes every 10-20 ms by default (statistical profiler, loop
health ticks) and each time takes the GIL from the thread playing games: a worker running one
long batch used 7-10% more CPU than the batch itself.  Asked to wait 100 ms for the GIL, the
loop runs its periodic work less often (they skip missed beats) and the overhead falls to ~2%
(measured at 20/50/200 ms: 5-7%, 3.4-4.5%, 2%).  Messages to the worker wait up to that long
while a batch runs, nothing that needs to be faster; the worker's own interval is restored
after the batch (:func:`coarse_switching`, counted, so threads of one worker nest safely)."""

_SWITCHING = threading.Lock()
_SWITCHING_STATE: list[Any] = [0, None]
"""How many batches run under a coarse switch interval in this process, and the interval before."""


@contextlib.contextmanager
def coarse_switching(interval: float | None) -> Iterator[None]:
    """Within it, the GIL switch interval is at least ``interval`` seconds (None: unchanged); the
    process's own is restored when the last thread using it leaves (see :data:`DASK_SWITCH_INTERVAL`)."""
    if interval is None:
        yield
        return
    with _SWITCHING:
        if _SWITCHING_STATE[0] == 0:
            _SWITCHING_STATE[1] = sys.getswitchinterval()
            sys.setswitchinterval(max(interval, _SWITCHING_STATE[1]))
        _SWITCHING_STATE[0] += 1
    try:
        yield
    finally:
        with _SWITCHING:
            _SWITCHING_STATE[0] -= 1
            if _SWITCHING_STATE[0] == 0:
                sys.setswitchinterval(_SWITCHING_STATE[1])


WORKER_GC_THRESHOLD = 50_000
"""The garbage collector's first threshold while a worker plays a batch (Python's default: 700).

A worker new to a tournament fills the game's caches over its first games: tens of thousands of
long-lived tuples and dicts, each pushed through the young generations by a collection every 700
of them, with full collections of the whole worker (a Dask worker holds ~65k objects of its own).
150 Get on Board games on a fresh Dask worker ran 83 young, 7 middle and 1 full collections and
took 132-160 ms of CPU; with this threshold 1 young collection and 115-124 ms (the next call
~60-85 ms).  Later batches hardly collect either way (games free what they make by reference
counting); cyclic garbage, an agent's search tree say, waits at most 50,000 objects.  The
process's own thresholds are restored after the batch (:func:`sparse_collections`)."""

_COLLECTING = threading.Lock()
_COLLECTING_STATE: list[Any] = [0, None]
"""How many batches run under :data:`WORKER_GC_THRESHOLD` in this process, and the thresholds before."""


@contextlib.contextmanager
def sparse_collections() -> Iterator[None]:
    """Within it, the collector's first threshold is at least :data:`WORKER_GC_THRESHOLD` (unless
    collection is off, threshold 0); the process's own thresholds come back when the last thread
    using it leaves."""
    with _COLLECTING:
        if _COLLECTING_STATE[0] == 0:
            _COLLECTING_STATE[1] = before = gc.get_threshold()
            if before[0]:
                gc.set_threshold(max(before[0], WORKER_GC_THRESHOLD), *before[1:])
        _COLLECTING_STATE[0] += 1
    try:
        yield
    finally:
        with _COLLECTING:
            _COLLECTING_STATE[0] -= 1
            if _COLLECTING_STATE[0] == 0:
                gc.set_threshold(*_COLLECTING_STATE[1])


def run_payload(payload: bytes) -> tuple[float, list[tuple[Any, ...]]]:
    """The task every worker runs: unpack a batch, play its games in order, and return the CPU
    seconds they took (the scheduler sizes later batches from it) and one :func:`play_row` each.

    With a budget the worker stops after the first game that spends it: the games it did not
    play are the first ones missing from the rows, and the scheduler sends them again.  CPU time
    of this thread, not wall time: other work on the machine must not make batches shrink.
    Agents are reused from one batch to the next in a worker, which is why they must not keep
    state from one game to the next (a tournament's rule for every executor).  A Dask batch is
    played under a coarse GIL switch interval (:data:`DASK_SWITCH_INTERVAL`).

    The seconds and the budget count the games only, not the unpacking: a worker new to the
    tournament rebuilds its game first (importing the game's modules, building its tables: 0.1-0.4 s,
    more than a hundred short games), and counted in, it cut the first batch after one game and made
    the scheduler size the next ones as if each game took that long (one game a task).  A task runs
    under a sparse garbage collector (:data:`WORKER_GC_THRESHOLD`).
    """
    clock = time.thread_time
    with sparse_collections():
        digest, setup, jobs, budget, switch_interval = pickle.loads(payload)
        key = (digest, threading.get_ident())
        unpacked = _SETUPS.get(key)
        if unpacked is None:
            if len(_SETUPS) >= 16:
                _SETUPS.clear()
            parent, objects = _INHERITED.get(digest, (os.getpid(), None))
            if parent != os.getpid() and objects is not None:  # a forked worker: made already
                unpacked = _SETUPS[key] = objects
            else:
                recipe, agents, max_actions, keep_records = pickle.loads(setup)
                game = recipe.build() if isinstance(recipe, GameRecipe) else recipe
                unpacked = _SETUPS[key] = (game, agents, max_actions, keep_records)
        game, agents, max_actions, keep_records = unpacked
        start = clock()  # the games' own time: a new worker's set-up must not count as a slow game
        rows = []
        with coarse_switching(switch_interval):
            for job in jobs.rows() if isinstance(jobs, JobRange) else jobs:
                rows.append(play_row(game, agents, job, max_actions, keep_records))
                if budget is not None and clock() - start >= budget:
                    break
        return clock() - start, rows


def run_packed(payload: bytes) -> bytes:
    """:func:`run_payload` with its answer pickled: the task a Dask worker runs.

    Dask hands a task's result to the client through the scheduler and a fetch from the worker;
    a pickled answer travels as one frame of bytes, while the same rows as a Python list took
    ~15 ms longer on that way (1,000 rows: in the client 14 ms after the task ended against 29,
    best of 20; median 27 against 43), on the critical path of every short tournament."""
    return pickle.dumps(run_payload(payload), protocol=pickle.HIGHEST_PROTOCOL)


# ---------------------------------------------------------------------------- choosing an executor
TASK_SECONDS = 0.05
"""What a batch aims to cost, in CPU seconds, on an executor given as such (a thread pool, a user's
own): progress moves and the last batches are short.  Local process pools aim higher
(:data:`POOL_TASK_SECONDS`), Dask higher still (:data:`DASK_TASK_SECONDS`)."""

DASK_TASK_SECONDS = 1.0
"""The same on Dask, where a task costs ~10 ms of CPU (3-5 ms in the client and scheduler, as
much in the worker), twenty times a local pool's: measured with 100 tasks of 20 games against 2
of 1,000, 2,000 Get on Board games took 0.5 s more CPU.  So Dask gets few, long tasks: its first
wave is one task per worker holding every game (:class:`BatchSizer`), which is all there is when
the games are short (2,000 Get on Board or A Une Passante games: 2 tasks, not 14-18; the worker's
budget, 2 s, cuts slower ones), and after that a second of games a task, a quarter at the end."""

POOL_TASK_SECONDS = 0.25
"""What a batch aims to cost at most on a local process pool (``executor="processes"``), in CPU
seconds; batches shrink from it towards the end (guided self-scheduling, :class:`BatchSizer`)
down to :data:`SHORTEST_TASK_SECONDS`.

A task costs the pool's parent ~0.5 ms of CPU (the call's loop, loky's manager and feeder threads:
400 Get on Board games on 2 workers cost it 106 ms in 100 tasks against 7 ms in 4, load ~14),
CPU taken from the workers on a 2-core machine.  At :data:`TASK_SECONDS` (50 ms) a batch,
2,000 games took 31 (Get on Board), 45 (Delanopolis), 52 (A Une Passante) and 361 (Fugitive)
tasks; at 250 ms 19, 22, 23 and 85, with the same 12.5 ms batches at the end, so the workers
still finish together."""

SHORTEST_TASK_SECONDS = 0.0125
"""The smallest batch a local pool's tail is cut into, in CPU seconds (a quarter of the 50 ms
batches it had before :data:`POOL_TASK_SECONDS`): the most one worker can still be playing
after the other has run out of games."""

IN_FLIGHT = 2
"""Tasks kept queued per worker: one running, one waiting, so no worker idles while the parent
collects a result and sizes the next batch."""


DASK_CPU_CONFIG: dict[str, Any] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.worker.memory.monitor-interval": "1s",
}
"""Dask settings for a cluster that plays games: its servers' periodic work made rare.

By default a Dask worker samples its running task's stack every 10 ms (the statistical profiler),
checks its event loop every 20 ms and its memory every 100 ms: a worker running one long task
used 11-12% more CPU than the task itself (5% with the profiler off, 1-3% with these settings),
and an idle 2-worker cluster 7-11% of a core (1.7% with them).  On a 2-core machine that is
what separates 1.7x from 1.9x.  What is lost: the dashboard's profile, event-loop health
warnings within 1 s rather than 20 ms, memory limits enforced within 1 s.  :func:`local_cluster`
starts a cluster with them; for another cluster, start it inside ``dask.config.set(DASK_CPU_CONFIG)``
(workers take the settings when they start)."""


def local_cluster(workers: int | None = None, **options: Any) -> Any:
    """A Dask ``LocalCluster`` for tournaments: ``workers`` processes of one thread each (default
    one per core), no dashboard, under :data:`DASK_CPU_CONFIG`, its workers importing this module
    as they start (``preload``: not in a tournament's first task, 50-100 ms); ``options`` go to
    ``LocalCluster`` and win.  Use it as ``with local_cluster(2) as cluster, Client(cluster) as
    client: gamelib.tournament(..., executor=client)``, under ``if __name__ == "__main__":``."""
    import dask
    from distributed import LocalCluster

    settings: dict[str, Any] = {"n_workers": workers or os.cpu_count() or 1, "threads_per_worker": 1}
    settings |= {"processes": True, "dashboard_address": None, "preload": [__name__], **options}
    with dask.config.set(DASK_CPU_CONFIG):
        return LocalCluster(**settings)


@dataclass
class Runner:
    """A resolved executor: ``executor`` None means run here; ``owned`` pools are shut down after."""

    executor: cf.Executor | None
    workers: int
    owned: bool = False
    label: str = "serial"
    task_seconds: float = TASK_SECONDS
    """What a batch aims to cost in CPU (longer on Dask, whose tasks cost more to schedule)."""
    costly_tasks: bool = False
    """Tasks cost milliseconds (Dask): the first wave is one task per worker (see :class:`BatchSizer`)."""
    shortest_task: float | None = None
    """The smallest batch at the end, in CPU seconds (None: a quarter of ``task_seconds``)."""

    def close(self) -> None:
        if self.owned and self.executor is not None:
            self.executor.shutdown(wait=True)


def _dask_workers(client: Any) -> int:
    try:
        return max(1, int(sum(client.nthreads().values())))
    except Exception:  # a client that cannot answer yet still runs tasks
        return 1


def resolve_executor(executor: Any, workers: int | None = None) -> Runner:
    """Turn the ``executor=`` argument of :func:`tournament` into a :class:`Runner`.

    * ``None`` or ``"serial"``: this process;
    * ``"processes"``: a local pool of ``workers`` processes, forked from this one at the call
      where that is safe (:class:`~gamelib.analysis.pools.LocalPool`), else loky's reusable pool
      when loky is installed, else the standard library's, shut down at the end;
    * a Dask ``Client`` (anything with ``get_executor``): its ``get_executor(pure=False)``;
    * any :class:`concurrent.futures.Executor` (a Dask ``ClientExecutor`` included).
    """
    from gamelib.agents.inputs import optional_whole_number

    workers = optional_whole_number(workers, "workers", minimum=1)
    if executor is None or executor == "serial":
        return Runner(None, 1)
    if isinstance(executor, str):
        if executor != "processes":
            raise ValueError(
                f"executor must be None, 'serial', 'processes', a Dask Client or a "
                f"concurrent.futures.Executor; got {executor!r}"
            )
        n = workers or os.cpu_count() or 1
        if fork_is_safe():
            return pool_runner(LocalPool(n), n, True, f"{n} processes (forked)")
        return spawned_runner(n)
    if hasattr(executor, "get_executor") and not isinstance(executor, cf.Executor):
        n = workers or _dask_workers(executor)
        return Runner(
            executor.get_executor(pure=False),
            n,
            label=f"Dask ({n} threads)",
            task_seconds=DASK_TASK_SECONDS,
            costly_tasks=True,
        )
    if isinstance(executor, cf.Executor) or hasattr(executor, "submit"):
        n = workers or _executor_workers(executor)
        if isinstance(executor, cf.ProcessPoolExecutor):  # a caller's own pool: a local pool's batches
            return pool_runner(executor, n, False, type(executor).__name__)
        dask = getattr(executor, "_client", None) is not None  # a Dask ClientExecutor
        seconds = DASK_TASK_SECONDS if dask else TASK_SECONDS
        return Runner(executor, n, label=type(executor).__name__, task_seconds=seconds, costly_tasks=dask)
    raise TypeError(
        f"cannot run games on {executor!r}: expected 'processes' or a concurrent.futures.Executor"
    )


def spawned_runner(workers: int) -> Runner:
    """A local pool of new interpreters (:func:`~gamelib.analysis.pools.spawned_pool`)."""
    pool, owned, label = spawned_pool(workers)
    return pool_runner(pool, workers, owned, label)


def pool_runner(pool: cf.Executor, workers: int, owned: bool, label: str) -> Runner:
    """A local process pool's runner: batches of up to :data:`POOL_TASK_SECONDS`, down to
    :data:`SHORTEST_TASK_SECONDS` at the end."""
    return Runner(pool, workers, owned, label, POOL_TASK_SECONDS, shortest_task=SHORTEST_TASK_SECONDS)


def _executor_workers(executor: Any) -> int:
    client = getattr(executor, "_client", None)  # a Dask ClientExecutor
    if client is not None:
        return _dask_workers(client)
    n = getattr(executor, "_max_workers", None)
    return n if isinstance(n, int) and n > 0 else (os.cpu_count() or 1)


class BatchSizer:
    """How many games the next task gets: guided self-scheduling, sized from measured game time.

    Until a batch comes back the game's speed is unknown: the first batches get an eighth of a
    fair share each and the worker's CPU budget (twice ``task_seconds``) cuts them short if the
    games are slow (an MCTS agent's second-long games come back one by one).  Then a batch holds
    as many games as fit in ``task_seconds`` at the speed last measured (Get on Board's 0.6 ms
    games go ~400 a task in a local pool, so shipping them costs nothing next to playing them),
    and never more than the unsent games shared among the queued tasks (``remaining / (IN_FLIGHT
    * workers)``), down to ``shortest`` seconds of games (default a quarter of ``task_seconds``):
    batches shrink towards the end and the workers finish together.  A ``fixed`` size (``batch_size=``) overrides it all.

    Where a task costs milliseconds (``costly_tasks``: Dask), the first wave is instead one task
    per worker, the games shared equally among them: short games are then all played in
    ``workers`` tasks (random games of one game and agents take alike, so equal counts finish
    together), and slow ones come back when the budget is spent, after which batches are sized
    as above.
    """

    def __init__(
        self,
        workers: int,
        fixed: int | None = None,
        task_seconds: float = TASK_SECONDS,
        costly_tasks: bool = False,
        shortest: float | None = None,
    ) -> None:
        self.workers = workers
        self.fixed = fixed
        self.task_seconds = task_seconds
        self.costly_tasks = costly_tasks
        self.shortest = task_seconds / 4 if shortest is None else shortest
        self.per_game: float | None = None
        self.first_share: int | None = None

    @property
    def budget(self) -> float | None:
        """The CPU seconds after which a worker hands back the rest of its batch."""
        return None if self.fixed is not None else 2 * self.task_seconds

    def observe(self, games: int, seconds: float) -> None:
        """A batch of ``games`` games took ``seconds`` of CPU in its worker."""
        if games:
            self.per_game = max(seconds / games, 1e-7)

    def next_size(self, remaining: int) -> int:
        if self.fixed is not None:
            return min(self.fixed, remaining)
        if self.per_game is None and self.costly_tasks:
            if self.first_share is None:
                self.first_share = math.ceil(remaining / self.workers)
            return min(self.first_share, remaining)
        share = math.ceil(remaining / (IN_FLIGHT * self.workers))
        if self.per_game is None:
            return max(1, math.ceil(share / 8))
        by_time = max(1, int(self.task_seconds / self.per_game))
        floor = max(1, int(self.shortest / self.per_game))
        return max(1, min(remaining, max(floor, min(by_time, share))))


def run_jobs(
    game: Game,
    agents: Sequence[Any],
    jobs: Sequence[GameJob],
    runner: Runner,
    batch_size: int | None = None,
    max_actions: int | None = None,
    keep_records: bool = False,
    on_done: Callable[[int], None] | None = None,
    on_start: Callable[[], None] | None = None,
) -> Iterator[GameOutcome]:
    """Play every job and yield the outcomes (in completion order when running in parallel).

    ``on_start`` is called once the workers are started (a local pool forks them at that moment:
    a progress bar made before would already run its thread, and :func:`fork_is_safe` says no).

    On an executor, batches are sized and sent as results come back (:class:`BatchSizer`), with
    :data:`IN_FLIGHT` tasks queued per worker; games a worker hands back unplayed are sent again.
    A batch is a slice of ``jobs`` (of a :class:`JobRange`, a range the worker expands).
    """
    if runner.executor is None:
        if on_start is not None:
            on_start()
        rows = jobs.rows() if isinstance(jobs, JobRange) else ((j.index, j.seed, j.seating) for j in jobs)
        for row in rows:
            outcome = GameOutcome.from_row(play_row(game, agents, row, max_actions, keep_records))
            if on_done is not None:
                on_done(1)
            yield outcome
        return
    executor = runner.executor
    setup, digest = b"", b""
    if isinstance(executor, LocalPool):
        setup, digest = start_local(executor, (game, agents, max_actions, keep_records))
        runner.label = executor.label
    if not setup:
        setup = make_setup(game, agents, max_actions, keep_records)
        digest = setup_digest(setup)
    if on_start is not None:
        on_start()
    sizer = BatchSizer(
        runner.workers, batch_size, runner.task_seconds, runner.costly_tasks, runner.shortest_task
    )
    switch = DASK_SWITCH_INTERVAL if runner.costly_tasks else None
    task: Callable[[bytes], Any] = run_packed if runner.costly_tasks else run_payload
    unsent = Unsent(jobs)
    pending: dict[cf.Future[Any], Sequence[GameJob]] = {}

    def top_up() -> None:
        while unsent.left and len(pending) < IN_FLIGHT * runner.workers:
            batch = unsent.take(sizer.next_size(unsent.left))
            payload = batch_payload(setup, batch, sizer.budget, switch, digest)
            pending[executor.submit(task, payload)] = batch

    try:
        top_up()
        while pending:
            done, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            results = []
            for future in done:
                batch = pending.pop(future)
                answer = future.result()
                seconds, rows = pickle.loads(answer) if task is run_packed else answer
                sizer.observe(len(rows), seconds)
                unsent.give_back(batch[len(rows) :])
                results.append(rows)
            top_up()  # before handing results on, so the workers stay busy meanwhile
            for rows in results:
                if on_done is not None:
                    on_done(len(rows))
                for row in rows:
                    yield GameOutcome.from_row(row)
    finally:
        for future in pending:
            future.cancel()


def start_local(pool: LocalPool, unpacked: tuple[Any, ...]) -> tuple[bytes, bytes]:
    """Start a local pool whose workers, if forked, take ``unpacked`` (game, agents, max_actions,
    keep_records) as they are (:data:`_INHERITED`); the setup and digest its tasks carry: none and
    a key of this call when forked now (nothing pickled, cloudpickle not even imported: 40 ms of a
    process's first call), else empty (spawned, or started by an earlier call: :func:`make_setup`)."""
    if pool.pool is not None:
        return b"", b""
    digest = os.urandom(16)
    _INHERITED[digest] = (os.getpid(), unpacked)
    try:
        pool.start()
    finally:
        del _INHERITED[digest]
    return (b"-", digest) if pool.forked else (b"", b"")


class Unsent:
    """The games not sent yet, as slices of the tournament's jobs (a :class:`JobRange` stays a
    range: slicing it costs nothing) and of batches handed back unplayed, sent again first."""

    def __init__(self, jobs: Sequence[GameJob]) -> None:
        self.pieces: collections.deque[Sequence[GameJob]] = collections.deque([jobs] if len(jobs) else [])
        self.left = len(jobs)

    def take(self, n: int) -> Sequence[GameJob]:
        """The next ``n`` games, or fewer: a batch never spans two pieces."""
        piece = self.pieces[0]
        if len(piece) <= n:
            self.pieces.popleft()
            batch = piece
        else:
            batch, self.pieces[0] = piece[:n], piece[n:]
        self.left -= len(batch)
        return batch

    def give_back(self, games: Sequence[GameJob]) -> None:
        if len(games):
            self.pieces.appendleft(games)
            self.left += len(games)
