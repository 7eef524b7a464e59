"""Tournaments: many games between agents, with seat rotation, recorded seeds and statistics.

>>> import gamelib
>>> results = gamelib.tournament("fugitive", ["random", "first"], games=20, seed=1, progress=False)
>>> len(results), results.agent_names
(20, ['random', 'first'])

Design choices, and why:

* **Seat rotation**: game ``i`` seats agent ``(seat + i) mod n`` in each seat, so in every run of
  ``n`` games each agent plays each seat once.  Many games are asymmetric (Fugitive's fugitive
  and detective, a first-player advantage): without rotation a comparison of agents measures
  the seats.  ``rotate=False`` keeps the seats fixed, for agents that only know one role.
* **A distinct recorded seed per game**, derived from the tournament seed and the game number;
  the agents' generators derive from it too (:func:`gamelib.play`).  Any game can be replayed
  (``results.state(i)``, ``results.record(i)``) and opened in the stepper, and the same call on
  a process pool or a Dask cluster gives exactly the same games as in this process.
* Outcomes: in each game the seats with the highest return **win** if alone, **draw** if tied
  (a game where everyone ties is a draw for all), and the others **lose**.  Win rates get Wilson
  intervals and mean returns t intervals cut to the game's return range
  (:mod:`gamelib.analysis.stats`).
* **Unfinished is not a draw**: a game stopped by a safety limit (``max_actions``, or an engine
  limit such as Fugitive's ``max_rounds``) did not end by its rules.  It is counted apart
  (``unfinished``, ``unfinished_rate``; outcome ``"unfinished"`` in :meth:`~TournamentResults.rows`)
  and is evidence for no side: win, draw and loss rates and mean returns are over the games that
  finished.
* **Roles**: an agent that knows only some seats says so (``seats = (1,)``, Fugitive's belief
  detective); seating it elsewhere, by hand or by rotation, raises a :class:`RoleWarning`.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gamelib.agents.inputs import optional_whole_number, whole_number
from gamelib.analysis.executors import (
    GameJob,
    GameOutcome,
    JobRange,
    play_job,
    resolve_executor,
    run_jobs,
)
from gamelib.analysis.progress import progress_bar
from gamelib.analysis.stats import mean_interval, wilson_interval
from gamelib.core import rng as _rng
from gamelib.core.game import Game, State
from gamelib.core.play import agent_label, as_agent_fn, unique_names
from gamelib.core.registry import make

if TYPE_CHECKING:
    from matplotlib.figure import Figure


# ---------------------------------------------------------------------------- inputs
def resolve_game(
    game: Game | str, players: int | None = None, options: Mapping[str, Any] | None = None
) -> Game:
    """A game from a name or a Game, with a player count and options merged in."""
    if isinstance(game, str):
        return make(game, players=players, options=options)
    if not isinstance(game, Game):
        raise TypeError(f"game must be a gamelib Game or a registered name, got {game!r}")
    if players is None and not options:
        return game
    merged = {**game.option_dict(), **dict(options or {})}
    return make(game.name, players=players if players is not None else game.num_players, options=merged)


def labelled_agents(agents: Sequence[Any] | Mapping[str, Any]) -> list[tuple[str, Any]]:
    """``(label, agent)`` pairs: a dict's keys, else each spec string or the agent's own label."""
    if isinstance(agents, Mapping):
        return [(str(k), v) for k, v in agents.items()]
    if isinstance(agents, (str, bytes)) or not isinstance(agents, Sequence):
        raise TypeError(f"agents must be a list or a dict name -> agent, got {agents!r}")
    return [(a if isinstance(a, str) else agent_label(a), a) for a in agents]


Fields = Callable[[Game, list[tuple[str, Any]]], Mapping[Any, Mapping[str, Any]]]
"""Which agents meet in each tournament of a comparison: ``(game, labelled agents) -> {key: {name: agent}}``."""


def tournaments_of(
    game: Game | str,
    agents: Sequence[Any] | Mapping[str, Any],
    fields: Fields,
    players: int | None,
    options: Mapping[str, Any] | None,
    games: int,
    seed: int,
    executor: Any,
    progress: bool,
    settings: Mapping[str, Any],
) -> tuple[Game, list[tuple[str, Any]], dict[Any, TournamentResults]]:
    """The tournaments of a comparison (:func:`~gamelib.analysis.compare.compare_agents`,
    :func:`~gamelib.analysis.round_robin.round_robin`): ``fields`` says who meets in each, and
    every one is played on the same game with the same seeds and settings (``settings``: the other
    keywords of :func:`tournament`), so their games differ only by the agents.  Returns the game,
    the labelled agents and the results by key."""
    the_game = resolve_game(game, players, options)
    pairs = labelled_agents(agents)
    common = {"games": games, "seed": seed, "executor": executor, "progress": progress, **settings}
    chosen = fields(the_game, pairs)
    return the_game, pairs, {k: tournament(the_game, f, **common) for k, f in chosen.items()}


def resolve_agents(game: Game, agents: Sequence[Any] | Mapping[str, Any]) -> tuple[list[str], list[Any]]:
    """Agent objects and unique display names; strings are agent specs (``"mcts(iterations=50)"``)."""
    from gamelib.agents.registry import make_agent

    pairs = labelled_agents(agents)
    objects = [make_agent(a, game.name) if isinstance(a, str) else a for _, a in pairs]
    for (label, _), obj in zip(pairs, objects, strict=True):
        as_agent_fn(obj, label)  # TypeError naming the agent if it cannot play
    names = unique_names([label for label, _ in pairs])
    if len(objects) != game.num_players:
        raise ValueError(
            f"{game.name} with {game.num_players} players needs {game.num_players} agents "
            f"(one per seat; seats rotate between games), got {len(objects)}"
        )
    return names, objects


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a tournament started with ``seed``."""
    return _rng.derive_seed(seed, index)


def make_jobs(num_players: int, games: int, seed: int, rotate: bool) -> JobRange:
    """The tournament's games: game ``i`` has the seed :func:`game_seed` ``(seed, i)`` and, with
    ``rotate``, agent ``(seat + i) mod num_players`` in each seat.  A :class:`JobRange` makes each
    job when it is read (on an executor, in the worker that plays it)."""
    return JobRange(seed, num_players, rotate, 0, games)


GROUPINGS = ("agent", "seat", "role", "agent_seat", "agent_role")
"""The ways :meth:`TournamentResults.stats` groups (game, seat) pairs."""


def pooled_name(name: str) -> str:
    """The label identical agents share: ``random#2`` -> ``random`` (see :func:`unique_names`)."""
    base, sep, number = name.rpartition("#")
    return base if sep and number.isdigit() else name


class RoleWarning(UserWarning):
    """An agent is seated in a role it cannot play (its ``seats`` attribute leaves that seat out)."""


def warn_misplaced_roles(
    game: Game, names: Sequence[str], agents: Sequence[Any], jobs: Sequence[GameJob]
) -> None:
    """One :class:`RoleWarning` per agent and seat it is given but does not play (see ``seats``)."""
    if all(getattr(agent, "seats", None) is None for agent in agents):
        return  # nobody is restricted to some seats: no job needs reading
    misplaced: dict[tuple[int, int], int] = {}
    if isinstance(jobs, JobRange):
        seatings: Iterable[tuple[int, ...]] = (jobs.seating(i) for i in range(jobs.start, jobs.stop))
    else:
        seatings = (job.seating for job in jobs)
    for seating in seatings:
        for seat, agent in enumerate(seating):
            seats = getattr(agents[agent], "seats", None)
            if seats is not None and seat not in seats:
                misplaced[(agent, seat)] = misplaced.get((agent, seat), 0) + 1
    for (agent, seat), count in misplaced.items():
        roles = ", ".join(game.player_name(s) for s in getattr(agents[agent], "seats", ()))
        warnings.warn(
            f"{game.name}: agent {names[agent]!r} plays only as {roles}, but it is seated as "
            f"{game.player_name(seat)} (seat {seat}) in {count} of {len(jobs)} games; its games "
            "there say nothing about it (seat it in its role, e.g. rotate=False)",
            RoleWarning,
            stacklevel=3,
        )


def outcome_labels(returns: Sequence[float], finished: bool = True) -> list[str]:
    """'win', 'draw' or 'loss' for each seat (see the module docstring); 'unfinished' for every
    seat of a game a safety limit stopped."""
    if not finished:
        return ["unfinished"] * len(returns)
    top = max(returns)
    leaders = [r == top for r in returns]
    count = sum(leaders)
    if count == 1:
        return ["win" if lead else "loss" for lead in leaders]
    return ["draw" if lead else "loss" for lead in leaders]


# ---------------------------------------------------------------------------- results
def rates_text(row: Mapping[str, Any]) -> str:
    """A :class:`Stat`'s rates as one line of text, from ``vars(stat)`` or a row holding its fields:
    win rate and mean return, each with its 95% interval."""
    text = (
        f"win rate {row['win_rate']:.3f} [{row['win_low']:.3f}, {row['win_high']:.3f}]  "
        f"mean return {row['mean_return']:.2f} [{row['return_low']:.2f}, {row['return_high']:.2f}]"
    )
    if row.get("unfinished"):
        text += f"  ({row['unfinished']} unfinished, not counted)"
    return text


@dataclass(frozen=True)
class Stat:
    """Win/draw/loss counts and mean return of one group of (game, seat) pairs, with 95% intervals.

    ``games`` counts every game, ``unfinished`` those a safety limit stopped; the rates and the
    mean return are over the ``games - unfinished`` games that ended by the rules.
    """

    games: int
    wins: int
    draws: int
    losses: int
    unfinished: int
    win_rate: float
    win_low: float
    win_high: float
    draw_rate: float
    unfinished_rate: float
    mean_return: float
    return_low: float
    return_high: float
    mean_score: float = math.nan
    score_low: float = math.nan
    score_high: float = math.nan

    @property
    def finished(self) -> int:
        """Games that ended by the rules (the ones the rates are over)."""
        return self.games - self.unfinished

    @classmethod
    def of(
        cls,
        outcomes: Sequence[str],
        returns: Sequence[float],
        confidence: float = 0.95,
        bounds: tuple[float, float] | None = None,
        scores: Sequence[float] | None = None,
    ) -> Stat:
        """From one outcome label and one return per (game, seat); ``bounds``: the game's return range;
        ``scores``: one score per (game, seat) when the game keeps a score apart from its returns."""
        n = len(outcomes)
        kept = [r for o, r in zip(outcomes, returns, strict=True) if o != "unfinished"]
        points = [
            x
            for o, x in zip(outcomes, scores if scores is not None else returns, strict=True)
            if o != "unfinished"
        ]
        smean, slow, shigh = mean_interval(points, confidence, None if scores is not None else bounds)
        done = len(kept)
        wins = outcomes.count("win")
        draws = outcomes.count("draw")
        low, high = wilson_interval(wins, done, confidence) if done else (math.nan, math.nan)
        mean, mlow, mhigh = mean_interval(kept, confidence, bounds)
        return cls(
            games=n,
            wins=wins,
            draws=draws,
            losses=done - wins - draws,
            unfinished=n - done,
            win_rate=wins / done if done else math.nan,
            win_low=low,
            win_high=high,
            draw_rate=draws / done if done else math.nan,
            unfinished_rate=(n - done) / n if n else math.nan,
            mean_return=mean,
            return_low=mlow,
            return_high=mhigh,
            mean_score=smean,
            score_low=slow,
            score_high=shigh,
        )


class ShownAsTable:
    """Results Jupyter shows as their ``summary()`` DataFrame, under a title line when they have
    one (their plain text when pandas is missing): said once for every kind of experiment."""

    def summary(self) -> Any:
        raise NotImplementedError

    def _title(self) -> str:
        return ""

    def _repr_html_(self) -> str:
        try:
            html: str = self.summary()._repr_html_()
        except ImportError:
            return f"<pre>{self}</pre>"
        title = self._title()
        return f"<p>{title}</p>{html}" if title else html


class TournamentResults(ShownAsTable):
    """The games of a tournament and their statistics.

    ``summary()`` (a pandas DataFrame per agent, seat, or agent and seat), ``plot()`` (a
    matplotlib Figure), ``to_pandas()`` (one row per game and seat), ``record(i)``/``state(i)``
    (replay game ``i``).  ``str(results)`` is a plain-text table that needs no pandas.
    """

    def __init__(
        self,
        game: Game,
        agent_names: Sequence[str],
        agents: Sequence[Any],
        seed: int,
        outcomes: Sequence[GameOutcome],
        max_actions: int | None = None,
        executor_label: str = "serial",
    ) -> None:
        self.game = game
        self.agent_names = list(agent_names)
        self.agents = list(agents)
        self.seed = seed
        self.outcomes = sorted(outcomes, key=lambda o: o.index)
        self.max_actions = max_actions
        self.executor_label = executor_label

    def __len__(self) -> int:
        return len(self.outcomes)

    @property
    def seat_names(self) -> list[str]:
        return [self.game.player_name(s) for s in range(self.game.num_players)]

    @property
    def mean_length(self) -> float:
        """Mean number of actions per game (chance outcomes included)."""
        return sum(o.length for o in self.outcomes) / len(self.outcomes) if self.outcomes else math.nan

    @property
    def unfinished(self) -> int:
        """Games a safety limit stopped (``max_actions``, Fugitive's ``max_rounds``): not draws,
        and left out of every rate and mean (see the module docstring)."""
        return sum(not o.finished for o in self.outcomes)

    @property
    def bounds(self) -> tuple[float, float]:
        """The game's return range, which mean-return intervals never leave."""
        return (float(self.game.info.min_return), float(self.game.info.max_return))

    # ------------------------------------------------------------------ rows and statistics
    def rows(self) -> list[dict[str, Any]]:
        """One dict per (game, seat): the tidy form behind ``to_pandas()`` and the CSV output."""
        from gamelib.analysis.roles import role_title

        rows = []
        seat_names = self.seat_names
        titles: dict[str, str] = {}
        for o in self.outcomes:
            labels = outcome_labels(o.returns, o.finished)
            for seat, agent in enumerate(o.seating):
                role = o.roles[seat] if o.roles else f"seat {seat}"
                if role not in titles:
                    titles[role] = role_title(self.game, role)
                rows.append(
                    {
                        "game": o.index,
                        "seed": o.seed,
                        "seat": seat,
                        "seat_name": seat_names[seat],
                        "role": titles[role],
                        "agent": self.agent_names[agent],
                        "return": o.returns[seat],
                        "score": o.scores[seat] if o.scores else o.returns[seat],
                        "outcome": labels[seat],
                        "ending": o.ending,
                        "length": o.length,
                        "moves": o.moves[seat],
                        "finished": o.finished,
                        **dict(o.facts),
                    }
                )
        return rows

    def stats(self, by: str = "agent", confidence: float = 0.95, pool: bool = False) -> dict[Any, Stat]:
        """Statistics grouped ``by`` "agent", "seat", "role", "agent_seat" or "agent_role".

        Keys: agent names, seat names, role names (the role each seat held in each game, e.g.
        Delanopolis' mayor drawn by lot), or (agent, seat/role) pairs.  ``pool=True`` groups
        identical agents under one label (``random`` and ``random#2`` as ``random``).
        """
        if by not in GROUPINGS:
            raise ValueError(f"by must be one of {GROUPINGS}, got {by!r}")
        groups: dict[Any, tuple[list[str], list[float], list[float]]] = {}
        agents = list(dict.fromkeys(pooled_name(a) for a in self.agent_names)) if pool else self.agent_names
        # fixed orders for agents and seats (roles come in the order games first show them)
        order: list[Any] = []
        if by == "agent":
            order = list(agents)
        elif by == "seat":
            order = list(self.seat_names)
        elif by == "agent_seat":
            order = [(a, s) for a in agents for s in self.seat_names]
        for k in order:
            groups[k] = ([], [], [])
        for row in self.rows():
            agent = pooled_name(row["agent"]) if pool else row["agent"]
            seat = row["seat_name"]
            key = {
                "agent": agent,
                "seat": seat,
                "role": row["role"],
                "agent_seat": (agent, seat),
                "agent_role": (agent, row["role"]),
            }[by]
            group = groups.setdefault(key, ([], [], []))
            group[0].append(row["outcome"])
            group[1].append(row["return"])
            group[2].append(row["score"])
        keeps_score = any(o.scores != o.returns for o in self.outcomes if o.scores)
        return {
            k: Stat.of(o, r, confidence, self.bounds, sc if keeps_score else None)
            for k, (o, r, sc) in groups.items()
            if o
        }

    def timing(self) -> Any:
        """Decisions and thinking time per agent (a DataFrame; timings vary from run to run)."""
        import pandas as pd

        moves = dict.fromkeys(self.agent_names, 0)
        seconds = dict.fromkeys(self.agent_names, 0.0)
        for o in self.outcomes:
            for seat, agent in enumerate(o.seating):
                moves[self.agent_names[agent]] += o.moves[seat]
                seconds[self.agent_names[agent]] += o.seconds[seat]
        frame = pd.DataFrame({"moves": moves, "seconds": seconds})
        frame["ms_per_move"] = 1000 * frame["seconds"] / frame["moves"].where(frame["moves"] > 0)
        frame.index.name = "agent"
        return frame

    def win_rate(self, agent: str) -> float:
        return self.stats("agent")[agent].win_rate

    # ------------------------------------------------------------------ pandas
    def to_pandas(self) -> Any:
        """A DataFrame with one row per game and seat (see :meth:`rows`)."""
        import pandas as pd

        return pd.DataFrame(self.rows())

    def summary(self, by: str = "agent", confidence: float = 0.95, pool: bool = False) -> Any:
        """A DataFrame of games, wins, draws, losses, unfinished games, win rate and mean return with
        intervals (rates and means over the finished games)."""
        import pandas as pd

        stats = self.stats(by, confidence, pool)
        frame = pd.DataFrame([vars(s) for s in stats.values()])
        if by in ("agent_seat", "agent_role"):
            frame.index = pd.MultiIndex.from_tuples(list(stats), names=["agent", by[6:]])
        else:
            frame.index = pd.Index(list(stats), name=by)
        return frame

    # ------------------------------------------------------------------ text
    def _title(self) -> str:
        return (
            f"{self.game.name}: {' vs '.join(self.agent_names)}, {len(self)} games "
            f"(seed {self.seed}), {self.mean_length:.1f} actions per game"
        )

    def __str__(self) -> str:
        lines = [self._title()]
        header = (
            f"{'':<22}{'games':>7}{'win rate':>10}{'95% interval':>17}{'draws':>7}"
            f"{'unfinished':>12}{'mean return':>13}"
        )
        for by in ("agent", "agent_seat"):
            lines.append(header)
            for key, s in self.stats(by).items():
                label = key if isinstance(key, str) else f"{key[0]} as {key[1]}"
                lines.append(
                    f"{label[:21]:<22}{s.games:>7}{s.win_rate:>10.3f}"
                    f"{f'[{s.win_low:.3f}, {s.win_high:.3f}]':>17}{s.draws:>7}{s.unfinished:>12}"
                    f"{s.mean_return:>13.3f}"
                )
        if self.unfinished:
            limit = (
                f"max_actions={self.max_actions}" if self.max_actions is not None else "the engine's limit"
            )
            lines.append(
                f"{self.unfinished} game(s) unfinished: stopped by a safety limit ({limit}), "
                "not by the rules; rates and means leave them out"
            )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<TournamentResults {self._title()}>"

    # ------------------------------------------------------------------ plot
    def plot(self, metric: str | None = None, ax: Any = None, confidence: float = 0.95) -> Figure:
        """Each agent's win rate (or ``metric="mean_return"``), over all seats and in each seat.

        Error bars are 95% intervals; cooperative games default to the mean return.
        """
        from gamelib.analysis.plots import WORDS, default_metric, grouped_bars

        overall = self.stats("agent", confidence)
        by_seat = self.stats("agent_seat", confidence)
        series = {WORDS("all_seats"): [overall.get(a) for a in self.agent_names]}
        if len(self.seat_names) > 1:
            for seat in self.seat_names:
                series[WORDS("as_seat", seat=seat)] = [by_seat.get((a, seat)) for a in self.agent_names]
        title = WORDS("games_title", title=self.game.info.title, n=len(self))
        if self.unfinished:
            title += "\n" + WORDS("unfinished_note", n=self.unfinished)
        return grouped_bars(
            groups=self.agent_names,
            series=series,
            title=title,
            metric=metric or default_metric(self.game),
            fair=1.0 / self.game.num_players,
            ax=ax,
            game=self.game,
        )

    # ------------------------------------------------------------------ replay
    def seated_agents(self, index: int) -> list[Any]:
        return [self.agents[a] for a in self.outcomes[index].seating]

    def state(self, index: int) -> State:
        """The final state of game ``index``, rebuilt from its record or replayed with ``gamelib.play``."""
        outcome = self._outcome(index)
        if outcome.record is not None:
            from gamelib.core.records import from_record

            return from_record(outcome.record)
        job = GameJob(outcome.index, outcome.seed, outcome.seating)
        replay = play_job(self.game, self.agents, job, self.max_actions, keep_record=True)
        if replay.returns != outcome.returns or replay.length != outcome.length:
            raise RuntimeError(
                f"game {index} did not replay identically (returns {replay.returns} vs {outcome.returns}): "
                "an agent is not deterministic given its rng (a time budget?); "
                "run the tournament with keep_records=True to keep every game"
            )
        from gamelib.core.records import from_record

        assert replay.record is not None
        return from_record(replay.record)

    def record(self, index: int) -> dict[str, Any]:
        """The JSON-safe record of game ``index`` (``gamelib.from_record`` replays it)."""
        outcome = self._outcome(index)
        if outcome.record is not None:
            return outcome.record
        return self.state(index).to_record()

    def _outcome(self, index: int) -> GameOutcome:
        if not 0 <= index < len(self.outcomes):
            raise IndexError(f"game {index} is not in this tournament of {len(self.outcomes)} games")
        return self.outcomes[index]


# ---------------------------------------------------------------------------- the entry point
def tournament(
    game: Game | str,
    agents: Sequence[Any] | Mapping[str, Any],
    games: int = 1000,
    seed: int = 0,
    executor: Any = None,
    *,
    options: Mapping[str, Any] | None = None,
    players: int | None = None,
    workers: int | None = None,
    batch_size: int | None = None,
    rotate: bool = True,
    keep_records: bool = False,
    max_actions: int | None = None,
    progress: bool = True,
) -> TournamentResults:
    """Play ``games`` games between ``agents`` and return :class:`TournamentResults`.

    ``game``: a Game or a registered name (with ``players=`` and rule ``options=``).
    ``agents``: one per seat, as objects with ``act(state, player, rng)``, agent specs
    (``"random"``, ``"mcts(iterations=200)"``, a game's own ``"heuristic"``), or a dict
    name -> agent.  Agents must not keep state from one game to the next (each worker plays its
    games with its own copies).
    ``executor``: None (here), ``"processes"`` (``workers`` local processes), a Dask ``Client``
    or any ``concurrent.futures.Executor``; the games, and so the results, are the same.
    ``keep_records``: store every game's record (needed to replay agents that use a time budget).
    ``max_actions``: a safety limit (a positive int; default the game's ``max_game_length``);
    games it stops are *unfinished*, never draws.
    ``batch_size``: games per task on an executor (default: chosen from the games' speed).
    ``progress``: a tqdm.auto bar (a widget in Jupyter, text in a terminal) if tqdm is installed.
    """
    games = whole_number(games, "games", minimum=1)
    seed = whole_number(seed, "seed", minimum=0)
    batch_size = optional_whole_number(batch_size, "batch_size", minimum=1)
    max_actions = optional_whole_number(max_actions, "max_actions", minimum=1)
    players = optional_whole_number(players, "players", minimum=1)
    the_game = resolve_game(game, players, options)
    names, objects = resolve_agents(the_game, agents)
    jobs = make_jobs(the_game.num_players, games, seed, rotate)
    warn_misplaced_roles(the_game, names, objects, jobs)
    runner = resolve_executor(executor, workers)
    bars: list[Any] = []  # made once the workers are started: a forked pool must fork before its thread

    def show() -> None:
        bars.append(progress_bar(progress, games, f"{the_game.name}: {' vs '.join(names)}"))

    def done(count: int) -> None:
        if bars[0] is not None:
            bars[0].update(count)

    try:
        outcomes = list(
            run_jobs(
                the_game,
                objects,
                jobs,
                runner,
                batch_size=batch_size,
                max_actions=max_actions,
                keep_records=keep_records,
                on_done=done,
                on_start=show,
            )
        )
    finally:
        if bars and bars[0] is not None:
            bars[0].close()
        runner.close()
    return TournamentResults(the_game, names, objects, seed, outcomes, max_actions, runner.label)
