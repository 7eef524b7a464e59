"""Exact equilibria of small configurations with OpenSpiel's CFR, brought back into gamelib.

CFR visits every history on every iteration, so it needs a configuration whose whole tree fits
in memory and in patience.  The published games are far too large (Fugitive's setup deal alone has
180,180 orders), so each game that has a solver-sized configuration lists it in
:data:`SMALL_CONFIGURATIONS`; :func:`gamelib.analysis.tree.tree_size` tells how large any other
configuration is before you try.

>>> from gamelib.interop.solve import solve
>>> solution = solve("fugitive", iterations=64)          # the small configuration, CFR+
>>> solution.nash_conv[-1]                              # (iteration, NashConv): 0 is an equilibrium
>>> solution.strategy(solution.game.new_game(seed=0))   # the fugitive's opening, as gamelib actions
>>> gamelib.tournament("fugitive", [solution.agent(), "heuristic"], options=solution.options)

``pyspiel`` is an optional dependency (``pip install gamelib[openspiel]``): this module imports
without it (its configurations and argument checks work), and :func:`solve` and
:func:`exploitability_of` import OpenSpiel when they run, with an ImportError that says how to
install it.
"""

from __future__ import annotations

import importlib
import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

import gamelib
from gamelib.analysis.progress import progress_bar
from gamelib.core.errors import OptionError
from gamelib.core.game import Action, Game, State

if TYPE_CHECKING:
    from types import ModuleType

    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from open_spiel.python.policy import TabularPolicy

    from gamelib.interop.openspiel import SpielGame

SMALL_CONFIGURATIONS: dict[str, dict[str, Any]] = {
    "fugitive": {
        "escape_card": 7,
        "max_rounds": 1,
        "canonical_order": True,
        "refuse_known_numbers": True,
        "manhunt": "immediate",
    },
}
"""Rule options that make a game small enough for full-tree CFR (a few thousand histories).

Fugitive: cards 0..7 (one card per draw pile), one detective turn, then a draw; series numbers and
sprint cards named in increasing order so that no history is a mere reordering of another; no
certain misses (numbers held or face up) and the manhunt at once after the escape card (the
rules-version-1 readings, pinned so the tree stays the size documented).
The other three games have no such configuration: they are multi-player or cooperative, where
CFR's equilibrium guarantee does not hold, and their smallest setups are still far too large.
"""

ALGORITHMS = {"cfr": "CFRSolver", "cfr+": "CFRPlusSolver"}
"""The solvers by name: the class of ``open_spiel.python.algorithms.cfr`` each one runs."""


def _openspiel() -> tuple[ModuleType, ModuleType]:
    """``(open_spiel.python.algorithms, gamelib.interop.openspiel)``, imported on first use."""
    try:
        for name in ("cfr", "expected_game_score", "exploitability", "get_all_states"):
            importlib.import_module(f"open_spiel.python.algorithms.{name}")
        from open_spiel.python import algorithms

        from gamelib.interop import openspiel
    except ImportError as exc:
        raise ImportError(
            f"solving needs OpenSpiel ({exc.name} is missing): pip install gamelib[openspiel]"
        ) from exc
    return algorithms, openspiel


def _value(algorithms: ModuleType, spiel_game: SpielGame, policy: Any, players: int) -> list[float]:
    """Each seat's expected return when every seat follows ``policy`` (exact, over the tree)."""
    value = algorithms.expected_game_score.policy_value(spiel_game.new_initial_state(), [policy] * players)
    return [float(v) for v in value]


@dataclass
class Solution:
    """An average CFR policy for one configuration, with its convergence log and game value."""

    game: Game
    """The gamelib game solved (its options are the configuration)."""
    spiel_game: SpielGame
    policy: TabularPolicy
    """The average policy (OpenSpiel ``TabularPolicy`` keyed by information-state strings)."""
    algorithm: str
    iterations: int
    nash_conv: list[tuple[int, float]] = field(default_factory=list)
    """``(iteration, NashConv)`` at each checkpoint: the sum of what best responses gain; 0 = equilibrium."""
    value: list[float] = field(default_factory=list)
    """Expected returns per player when both follow the average policy."""
    seconds: float = 0.0

    @property
    def options(self) -> dict[str, Any]:
        """The rule options of the solved configuration (to make the same game again)."""
        return self.game.option_dict()

    def strategy(self, state: State, player: int | None = None) -> dict[Action, float]:
        """The policy at ``state`` as gamelib actions -> probabilities (for the player to act).

        Raises ``KeyError`` naming the information state if the policy has never seen it (a state
        of another configuration, or a chance/terminal state).
        """
        if player is None:
            player = state.current_player
        if not 0 <= player < self.game.num_players:
            raise KeyError(f"no player decides at this state (current_player={state.current_player})")
        key = state.information_state_string(player)
        if key not in self.policy.state_lookup:
            raise KeyError(f"information state not in the solved configuration: {key[:200]}")
        probs = self.policy.policy_for_key(key)
        decode = self.game.action_from_id
        return {decode(int(i)): float(p) for i, p in enumerate(probs) if p > 0}

    def agent(self) -> PolicyAgent:
        """A gamelib agent that samples its moves from this policy (for tournaments and the Stepper)."""
        return PolicyAgent(self)

    def plot(self, ax: Axes | None = None) -> Figure:
        """NashConv against iterations on log-log axes: how fast CFR approaches an equilibrium."""
        # a pyplot-free Figure: Jupyter shows the returned figure once, and no global state leaks
        from matplotlib.figure import Figure

        if ax is None:
            ax = Figure(figsize=(6, 3.6)).add_subplot()
        fig: Any = ax.figure
        its = [i for i, _ in self.nash_conv]
        values = [max(v, 1e-6) for _, v in self.nash_conv]
        ax.loglog(its, values, "o-", color="tab:blue", label=self.algorithm.upper())
        ax.set_xlabel("iterations")
        ax.set_ylabel("NashConv (0 = equilibrium)")
        ax.set_title(f"{self.game.info.title}: {self.algorithm.upper()} on the small configuration")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        fig.tight_layout()
        figure: Figure = fig
        return figure

    def __str__(self) -> str:
        last = self.nash_conv[-1][1] if self.nash_conv else float("nan")
        values = ", ".join(f"{self.game.player_name(p)} {v:+.4f}" for p, v in enumerate(self.value))
        return (
            f"{self.algorithm.upper()} x {self.iterations} on {self.game.info.name} {self.options}: "
            f"NashConv {last:.4f}, value {values} ({self.seconds:.1f} s)"
        )


class PolicyAgent:
    """Plays a solved policy in gamelib: samples an action with the policy's probabilities."""

    name = "cfr"

    def __init__(self, solution: Solution) -> None:
        self.solution = solution

    def strategy(self, state: State, player: int) -> dict[Action, float]:
        """The exact move probabilities (what :func:`exploitability_of` reads instead of sampling)."""
        return self.solution.strategy(state, player)

    def act(self, state: State, player: int, rng: random.Random) -> Action:
        strategy = self.solution.strategy(state, player)
        actions, weights = zip(*strategy.items(), strict=True)
        return rng.choices(actions, weights)[0]

    def __repr__(self) -> str:
        return f"PolicyAgent({self.solution.algorithm}, {self.solution.iterations} iterations)"


@dataclass
class Exploitability:
    """How much best responses gain against a set of agents, computed over the whole game tree."""

    names: list[str]
    """The agent in each seat."""
    value: list[float]
    """Each seat's expected return when these agents meet (exact: every deal, every move weighed)."""
    best_response: list[float]
    """What a best response in each seat gets against the other seats' agents."""

    @property
    def gains(self) -> list[float]:
        """How much each seat would gain by switching to its best response (0 = nothing to gain)."""
        return [b - v for b, v in zip(self.best_response, self.value, strict=True)]

    @property
    def nash_conv(self) -> float:
        """The sum of the gains: 0 exactly when the agents form an equilibrium."""
        return sum(self.gains)

    def guaranteed(self, seat: int) -> float:
        """The return the agent in ``seat`` can count on against any opponent (two players)."""
        return -self.best_response[1 - seat]

    def __str__(self) -> str:
        seats = "; ".join(
            f"{n}: value {v:+.3f}, best response {b:+.3f}"
            for n, v, b in zip(self.names, self.value, self.best_response, strict=True)
        )
        return f"{seats}; NashConv {self.nash_conv:.3f}"


def exploitability_of(
    agents: list[Any],
    name: str = "fugitive",
    options: dict[str, Any] | None = None,
    samples: int = 16,
    seed: int = 0,
) -> Exploitability:
    """Exact best responses against gamelib agents on a small configuration.

    Each agent becomes a policy over every information state of its seat: an agent with a
    ``strategy(state, player)`` method (``PolicyAgent``, ``RandomAgent``) is read exactly; any other
    is asked ``samples`` times with its own seeded ``random.Random`` and its answers counted (one
    answer per information state is exact for a deterministic agent).  Agents may be names
    (``"random"``, ``"heuristic"``, ``"belief"``).
    """
    from gamelib.agents.registry import make_agent

    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ValueError(f"samples must be a positive int, got {samples!r}")
    options = small_configuration(name) if options is None else dict(options)
    game = gamelib.make(name, options=options)
    if len(agents) != game.num_players:
        raise ValueError(f"{name} needs {game.num_players} agents, one per seat, got {len(agents)}")
    objects = [make_agent(a, name) if isinstance(a, str) else a for a in agents]
    algorithms, openspiel = _openspiel()
    from open_spiel.python.policy import TabularPolicy

    spiel_game = openspiel.load_game(name, **options)
    policy = TabularPolicy(spiel_game)
    states = algorithms.get_all_states.get_all_states(
        spiel_game, include_terminals=False, include_chance_states=False
    )
    done: set[str] = set()
    for spiel_state in states.values():
        player = spiel_state.current_player()
        key = spiel_state.information_state_string(player)
        if key in done:
            continue
        done.add(key)
        row = policy.policy_for_key(key)
        row[:] = 0.0
        for action, p in _agent_strategy(
            objects[player], spiel_state.gamelib_state, player, samples, seed, key
        ):
            row[game.action_id(action)] = p
    value = _value(algorithms, spiel_game, policy, game.num_players)
    gains = algorithms.exploitability.nash_conv(spiel_game, policy, return_only_nash_conv=False)
    names = [a if isinstance(a, str) else getattr(a, "name", type(a).__name__) for a in agents]
    best = [v + float(g) for v, g in zip(value, gains.player_improvements, strict=True)]
    return Exploitability(names=names, value=value, best_response=best)


def _agent_strategy(
    agent: Any, state: State, player: int, samples: int, seed: int, key: str
) -> list[tuple[Action, float]]:
    if hasattr(agent, "strategy"):
        return list(agent.strategy(state, player).items())
    rng = random.Random(f"{seed}:{key}")  # str seeds hash the same way on every machine
    counts: dict[Action, int] = {}
    for _ in range(samples):
        action = agent.act(state, player, rng)
        counts[action] = counts.get(action, 0) + 1
    return [(a, c / samples) for a, c in counts.items()]


def small_configuration(name: str) -> dict[str, Any]:
    """The solver-sized rule options of game ``name`` (see :data:`SMALL_CONFIGURATIONS`)."""
    if name not in SMALL_CONFIGURATIONS:
        raise OptionError(
            f"{name!r} has no solver-sized configuration; games that have one: "
            f"{', '.join(SMALL_CONFIGURATIONS)}"
        )
    return dict(SMALL_CONFIGURATIONS[name])


def solve(
    name: str,
    iterations: int = 64,
    algorithm: str = "cfr+",
    options: dict[str, Any] | None = None,
    checkpoints: int = 8,
    progress: bool = False,
) -> Solution:
    """Run full-tree CFR (or CFR+) on a configuration of game ``name`` and measure NashConv.

    ``options``: the rule options (default: :func:`small_configuration`).  ``checkpoints``: how
    many times NashConv is measured, at iterations spaced evenly on a log scale (each measure costs
    a few iterations' time).  ``progress``: a tqdm bar over the iterations.
    """
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {', '.join(ALGORITHMS)}, got {algorithm!r}")
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise ValueError(f"iterations must be a positive int, got {iterations!r}")
    if isinstance(checkpoints, bool) or not isinstance(checkpoints, int) or checkpoints < 1:
        raise ValueError(f"checkpoints must be a positive int, got {checkpoints!r}")
    info = gamelib.core.game_class(name).info
    if info.utility not in ("zero_sum", "constant_sum") or info.max_players != 2:
        raise ValueError(f"CFR's equilibrium guarantee needs a two-player zero-sum game; {name} is not one")
    options = small_configuration(name) if options is None else dict(options)
    algorithms, openspiel = _openspiel()
    spiel_game = openspiel.load_game(name, **options)
    game = gamelib.make(name, options=options)
    spaced = np.geomspace(1, iterations, num=min(checkpoints, iterations))
    marks = {round(float(x)) for x in spaced[:-1]} | {iterations}  # the last iteration always
    start = time.perf_counter()
    solver = getattr(algorithms.cfr, ALGORITHMS[algorithm])(spiel_game)
    nash_conv = algorithms.exploitability.nash_conv
    bar = progress_bar(progress, iterations, f"{name}: {algorithm.upper()}", unit="iteration")
    log: list[tuple[int, float]] = []
    try:
        for i in range(1, iterations + 1):
            solver.evaluate_and_update_policy()
            if bar is not None:
                bar.update(1)
            if i in marks:
                log.append((i, float(nash_conv(spiel_game, solver.average_policy()))))
    finally:
        if bar is not None:
            bar.close()
    policy = solver.average_policy()
    value = _value(algorithms, spiel_game, policy, game.num_players)
    return Solution(game, spiel_game, policy, algorithm, iterations, log, value, time.perf_counter() - start)
