"""Delanopolis probes: exact landing odds, expected rents, outcome rates by option.

Landing odds are exact (``fractions.Fraction``):

* the direct placements ("sum", "twelve_faces") are memoryless: the 36 ordered dice outcomes
  map to squares, so each roll lands on terrain ``t`` with a fixed probability;
* the "ring" placement is a Markov chain on the ring positions.  Its transition matrix is
  circulant (every position moves by the same 2d6 distribution), hence doubly stochastic, so
  the long-run odds are uniform over the squares; but a game is short (8 rolls each by
  default) and starts with every pawn at the same place, so the odds *over a game* are not
  uniform at all.  :func:`landing_odds` gives both (``rolls=None`` for the long run).

Outcome rates are measured by playing games (:func:`outcome_rates`), deterministic per seed;
:func:`option_sweep` runs the generic :func:`gamelib.sweep` for each player count, seeded like
tournaments, with rates by role (the mayor is drawn by lot: :func:`seat_role`), intervals,
pandas tables and progress bars.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from gamelib.core.i18n import Wording
from gamelib.core.play import play
from gamelib.core.registry import make
from gamelib.delanopolis.board import REFUGE_BASE, START, TERRAINS, board, square_name
from gamelib.delanopolis.options import DelanopolisOptions, direct_landing, rent_for, ring_landing
from gamelib.delanopolis.rules import DelanopolisGame, DelanopolisState

TWO_DICE: dict[int, Fraction] = {s: Fraction(6 - abs(s - 7), 36) for s in range(2, 13)}
"""The sum of two dice: 2..12 with probabilities 1/36 .. 6/36 .. 1/36."""


def _options(options: DelanopolisOptions | Mapping[str, Any] | None) -> DelanopolisOptions:
    if isinstance(options, DelanopolisOptions):
        return options
    return DelanopolisGame(options=dict(options or {})).options


def roll_distribution(
    options: DelanopolisOptions | Mapping[str, Any] | None, position: int = START
) -> dict[int, Fraction]:
    """Square codes (terrains 0-11, refuges 100+) one roll lands on, from ring ``position``.

    ``position`` is a ring index (``START`` before the first roll); it is ignored by the direct
    placements.
    """
    o = _options(options)
    dist: dict[int, Fraction] = {}
    ring = board(o.refuges).ring if o.placement == "ring" else ()
    for a in range(1, 7):
        for b in range(1, 7):
            code = ring_landing(o, ring, position, a, b)[1] if ring else direct_landing(o, a, b)
            dist[code] = dist.get(code, Fraction(0)) + Fraction(1, 36)
    return dict(sorted(dist.items()))


def ring_position_distributions(
    options: DelanopolisOptions | Mapping[str, Any] | None, rolls: int
) -> list[dict[int, Fraction]]:
    """The distribution of a pawn's ring index after 1, 2, ..., ``rolls`` rolls from the start.

    Exact propagation of the Markov chain: the pawn moves by the dice sum around the circle
    (a double sent to a refuge by ``refuge_on_double`` still moves the pawn).
    """
    o = _options(options)
    length = len(board(o.refuges).ring)
    current = {START: Fraction(1)}
    out = []
    for _ in range(rolls):
        nxt: dict[int, Fraction] = {}
        for pos, p in current.items():
            for steps, prob in TWO_DICE.items():
                q = (pos + steps) % length
                nxt[q] = nxt.get(q, Fraction(0)) + p * prob
        current = nxt
        out.append(dict(sorted(nxt.items())))
    return out


def per_roll_landings(
    options: DelanopolisOptions | Mapping[str, Any] | None, rolls: int
) -> list[dict[int, Fraction]]:
    """For a pawn's rolls 1..``rolls``, the exact distribution of the square each lands on."""
    o = _options(options)
    if o.placement != "ring":
        return [roll_distribution(o)] * rolls
    before = [{START: Fraction(1)}, *ring_position_distributions(o, rolls - 1)]
    out = []
    for dist in before:
        landing: dict[int, Fraction] = {}
        for pos, p in dist.items():
            for code, q in roll_distribution(o, pos).items():
                landing[code] = landing.get(code, Fraction(0)) + p * q
        out.append(dict(sorted(landing.items())))
    return out


def landing_odds(
    options: DelanopolisOptions | Mapping[str, Any] | None = None, rolls: int | None = None
) -> dict[int, Fraction]:
    """Probability that a roll lands on each square (terrain codes 0-11, refuges 100+).

    Direct placements: the same for every roll.  Ring: ``rolls=None`` gives the long-run
    (stationary) odds, which are uniform because the chain is circulant; ``rolls=k`` gives the
    odds averaged over a pawn's first ``k`` rolls from the start, which is what a game sees.
    """
    o = _options(options)
    if o.placement != "ring":
        return roll_distribution(o)
    if rolls is None:
        length = len(board(o.refuges).ring)
        stationary = {i: Fraction(1, length) for i in range(length)}
        odds: dict[int, Fraction] = {}
        for pos, p in stationary.items():
            for code, q in roll_distribution(o, pos).items():
                odds[code] = odds.get(code, Fraction(0)) + p * q
        return dict(sorted(odds.items()))
    if rolls < 1:
        raise ValueError(f"rolls must be >= 1, got {rolls}")
    total: dict[int, Fraction] = {}
    for dist in per_roll_landings(o, rolls):
        for code, p in dist.items():
            total[code] = total.get(code, Fraction(0)) + p / rolls
    return dict(sorted(total.items()))


def terrain_odds_table(
    placements: Iterable[Mapping[str, Any]], rolls: int | None = 8
) -> list[dict[str, Any]]:
    """Rows ``{"options": ..., "T1": p1, ..., "T12": p12, "refuge": p}`` (floats), one per option set."""
    rows = []
    for opts in placements:
        o = _options(opts)
        odds = landing_odds(o, rolls if o.placement == "ring" else None)
        row: dict[str, Any] = {"options": dict(opts)}
        for t in range(TERRAINS):
            row[square_name(t)] = float(odds.get(t, 0))
        row["refuge"] = float(sum(p for c, p in odds.items() if c >= REFUGE_BASE))
        rows.append(row)
    return rows


def expected_landings(
    options: DelanopolisOptions | Mapping[str, Any] | None, rollers: int, rolls: int
) -> dict[int, Fraction]:
    """Expected number of landings on each square in a game of ``rolls`` rolls by each of
    ``rollers`` pawns (ignoring parked turns): the sum over rolls of the landing probabilities."""
    total: dict[int, Fraction] = {}
    for dist in per_roll_landings(options, rolls):
        for code, p in dist.items():
            total[code] = total.get(code, Fraction(0)) + p * rollers
    return dict(sorted(total.items()))


def expected_rent(
    options: DelanopolisOptions | Mapping[str, Any] | None = None,
    players: int = 4,
    price: int = 60,
    from_round: int = 0,
) -> dict[int, float]:
    """Expected rent a terrain bought at ``price`` in round ``from_round`` (0-based) earns its
    owner by the end of the game: a quarter of the price for each landing of another pawn.

    Every roller's pawn follows the same exact chain; the owner's own landings pay nothing, so
    the other ``rollers - 1`` pawns count (parked turns ignored).
    """
    o = _options(options)
    rollers = players if o.mayor_rolls else players - 1
    rent = rent_for(o, price)
    visits: dict[int, Fraction] = {}
    for dist in per_roll_landings(o, o.rounds)[from_round:]:
        for code, p in dist.items():
            visits[code] = visits.get(code, Fraction(0)) + p
    return {t: float(visits.get(t, 0) * (rollers - 1) * rent) for t in range(TERRAINS)}


# ---------------------------------------------------------------------------- played outcomes
@dataclass(frozen=True)
class OutcomeRates:
    """Outcome frequencies over ``games`` games of one configuration."""

    players: int
    options: dict[str, Any]
    games: int
    president: float
    reelected: float
    new_mayor: float
    richest_mayor: float
    mayor_wins: float
    mean_mayor_terrains: float
    mean_actions: float
    richest_tie: float = 0.0
    """Games the mayor shared with a challenger (``richest_among="all"`` only): not in ``mayor_wins``."""

    def as_row(self) -> dict[str, Any]:
        """One table row: the player count, the options, then :data:`ROW` (``pandas`` frames)."""
        return {"players": self.players, **self.options, **{name: getattr(self, name) for name in ROW}}


ROW = ("games", "president", "reelected", "new_mayor", "mayor_wins", "mean_mayor_terrains")
"""The rates :meth:`OutcomeRates.as_row` reports after the player count and the options."""


AgentFactory = Callable[[int, int], Any]
"""``factory(players, seat) -> agent``: builds the agent for one seat (roles come from the lot)."""


def outcome_rates(
    players: int = 4,
    options: Mapping[str, Any] | None = None,
    agents: AgentFactory | Sequence[Any] | None = None,
    games: int = 200,
    seed: int = 0,
) -> OutcomeRates:
    """Play ``games`` games and count presidencies, re-elections and new mayors.

    ``agents``: a list (one agent per seat; an agent playing both roles must handle both), a
    factory ``(players, seat) -> agent``, or None for each seat's default agent (the game's
    ``SEAT_AGENTS``: :class:`~gamelib.delanopolis.agents.RoleAgent` with its default strategies).
    Game ``i`` uses seed ``seed + i``: the same call gives the same rates everywhere.
    """
    game = make("delanopolis", players=players, options=dict(options or {}))
    if agents is None:
        from gamelib.agents.registry import default_agents, make_agent

        seats: Sequence[Any] = [make_agent(name, game.name) for name in default_agents(game)]
    elif callable(agents):
        seats = [agents(players, s) for s in range(players)]
    else:
        seats = list(agents)
    counts = dict.fromkeys(
        ("president", "reelected", "new_mayor", "richest_mayor", "richest_tie", "mayor_stays"), 0
    )
    held = 0
    actions = 0
    for i in range(games):
        state = play(game, seats, seed=seed + i)
        assert isinstance(state, DelanopolisState)
        counts[state.outcome] += 1
        held += state.owner.count(state.mayor)
        actions += len(state.history)
    g = max(1, games)
    mayor_wins = counts["president"] + counts["reelected"] + counts["richest_mayor"] + counts["mayor_stays"]
    return OutcomeRates(
        players=players,
        options=dict(options or {}),
        games=games,
        president=counts["president"] / g,
        reelected=counts["reelected"] / g,
        new_mayor=counts["new_mayor"] / g,
        richest_mayor=counts["richest_mayor"] / g,
        mayor_wins=mayor_wins / g,
        mean_mayor_terrains=held / g,
        mean_actions=actions / g,
        richest_tie=counts["richest_tie"] / g,
    )


# ---------------------------------------------------------------------------- roles for experiments
ROLES = ("mayor", "challenger")
"""The role keys :func:`seat_role` gives (what :mod:`gamelib.analysis.roles` groups games by)."""

_WORDS = Wording("gamelib.delanopolis")


def seat_role(state: DelanopolisState, seat: int) -> str:
    """``"mayor"`` for the seat the lot made mayor in this game, else ``"challenger"``."""
    return "mayor" if seat == state.mayor else "challenger"


def role_title(role: str) -> str:
    """The role as a student reads it (« maire » / « concurrent » in French)."""
    if role not in ROLES:
        raise ValueError(f"Delanopolis roles are {ROLES}, got {role!r}")
    return _WORDS(role)


def game_facts(state: DelanopolisState) -> dict[str, float]:
    """Per-game numbers experiments average: the terrains the mayor holds at the end."""
    return {"mayor_terrains": float(state.owner.count(state.mayor))}


MAYOR_WINS = ("president", "reelected", "richest_mayor", "mayor_stays")
"""Endings (``state.outcome``) in which the mayor wins."""


class OptionSweep:
    """:func:`gamelib.sweep` of one option for each player count (see :func:`option_sweep`).

    ``sweeps[players]`` is the generic :class:`~gamelib.analysis.SweepResults`;
    :meth:`to_pandas` stacks their rows with a ``players`` column (``by="role"`` by default:
    the mayor's and the challengers' win rates and mean scores with 95% intervals), and
    :meth:`endings` gives the rate of each ending with its Wilson interval.  Iterating yields
    one :class:`OutcomeRates` per (value, player count), as this function always returned.
    """

    def __init__(
        self, option: str, values: Sequence[Any], sweeps: Mapping[int, Any], base: Mapping[str, Any]
    ):
        self.option = option
        self.values = list(values)
        self.sweeps = dict(sweeps)
        self.base = dict(base)

    def to_pandas(self, by: str = "role", confidence: float = 0.95) -> Any:
        import pandas as pd

        frames = []
        for n, swept in self.sweeps.items():
            frame = swept.to_pandas(by, confidence)
            frame.insert(0, "players", n)
            frames.append(frame)
        return pd.concat(frames, ignore_index=True)

    def endings(self, confidence: float = 0.95) -> Any:
        """One row per (players, value, ending): count, rate and Wilson interval over the games."""
        import pandas as pd

        from gamelib.analysis.stats import wilson_interval

        rows = []
        for n, swept in self.sweeps.items():
            for value, res in zip(swept.values, swept.results, strict=True):
                counts: dict[str, int] = {}
                for o in res.outcomes:
                    counts[o.ending] = counts.get(o.ending, 0) + 1
                total = len(res.outcomes)
                for ending, count in sorted(counts.items()):
                    low, high = wilson_interval(count, total, confidence)
                    rows.append(
                        {
                            "players": n,
                            self.option: value,
                            "ending": ending,
                            "games": total,
                            "count": count,
                            "rate": count / total,
                            "low": low,
                            "high": high,
                        }
                    )
        return pd.DataFrame(rows)

    def rates(self) -> list[OutcomeRates]:
        """One :class:`OutcomeRates` per (value, player count), value-major as before."""
        out = []
        for i, value in enumerate(self.values):
            for n, swept in self.sweeps.items():
                out.append(_rates_of(n, {**self.base, self.option: value}, swept.results[i].outcomes))
        return out

    def __iter__(self) -> Iterator[OutcomeRates]:
        return iter(self.rates())

    def __len__(self) -> int:
        return len(self.values) * len(self.sweeps)

    def __getitem__(self, index: int) -> OutcomeRates:
        return self.rates()[index]

    def __repr__(self) -> str:
        return f"<OptionSweep {self.option}={self.values}, players {list(self.sweeps)}>"


def _rates_of(players: int, options: dict[str, Any], outcomes: Sequence[Any]) -> OutcomeRates:
    g = max(1, len(outcomes))
    counts: dict[str, int] = {}
    for o in outcomes:
        counts[o.ending] = counts.get(o.ending, 0) + 1
    held = sum(dict(o.facts).get("mayor_terrains", 0.0) for o in outcomes)
    return OutcomeRates(
        players=players,
        options=options,
        games=len(outcomes),
        president=counts.get("president", 0) / g,
        reelected=counts.get("reelected", 0) / g,
        new_mayor=counts.get("new_mayor", 0) / g,
        richest_mayor=counts.get("richest_mayor", 0) / g,
        mayor_wins=sum(counts.get(k, 0) for k in MAYOR_WINS) / g,
        mean_mayor_terrains=held / g,
        mean_actions=sum(o.length for o in outcomes) / g,
        richest_tie=counts.get("richest_tie", 0) / g,
    )


def option_sweep(
    option: str,
    values: Iterable[Any],
    players: Iterable[int] = (3, 4, 5, 6),
    base: Mapping[str, Any] | None = None,
    agents: AgentFactory | Sequence[Any] | None = None,
    games: int = 100,
    seed: int = 0,
    *,
    executor: Any = None,
    progress: bool = False,
    pool: bool = True,
) -> OptionSweep:
    """:func:`gamelib.sweep` of ``option`` over ``values`` for every player count.

    ``agents``: None (each seat's default agent, the role agent), a list (one per seat), or a
    factory ``(players, seat) -> agent``.  Seats do not rotate (roles come from the lot) and
    identical agents are pooled under one label (``pool``).  Games are seeded like
    :func:`gamelib.tournament` with ``seed``, so the same call gives the same results on any
    executor.
    """
    from gamelib.analysis.sweep import sweep

    values = list(values)
    sweeps = {}
    for n in players:
        game = make("delanopolis", players=n, options=dict(base or {}))
        seats = _agents_by_seat(game, agents)
        sweeps[n] = sweep(
            game, option, values, seats, games, seed, executor, progress=progress, rotate=False, pool=pool
        )
    return OptionSweep(option, values, sweeps, dict(base or {}))


def _agents_by_seat(game: Any, agents: AgentFactory | Sequence[Any] | None) -> list[Any]:
    if agents is None:
        from gamelib.agents.registry import default_agents, make_agent

        return [make_agent(name, game.name) for name in default_agents(game)]
    if callable(agents):
        return [agents(game.num_players, s) for s in range(game.num_players)]
    return list(agents)
