"""Playing whole games with agents."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast, runtime_checkable

from gamelib.core import rng as _rng
from gamelib.core.game import CHANCE, Action, Game, State


@runtime_checkable
class Agent(Protocol):
    """Anything with ``act(state, player, rng) -> Action`` (or the action's notation)."""

    def act(self, state: State, player: int, rng: random.Random) -> Action | str: ...


AgentLike = Agent | Callable[[State, int, random.Random], Any]


AgentFn = Callable[[State, int, random.Random], Any]


def as_agent_fn(agent: object, name: object = None) -> AgentFn:
    """The function to call for ``agent``: its ``act`` method, or the agent itself if callable.

    The one place that says what an agent is; TypeError (naming ``name`` when given) otherwise.
    """
    act = getattr(agent, "act", None)
    if callable(act):
        return cast(AgentFn, act)
    if callable(agent):
        return cast(AgentFn, agent)
    label = f"agent {name!r}" if name is not None else f"{agent!r}"
    raise TypeError(f"{label} needs an act(state, player, rng) method, got {agent!r}")


def agent_label(agent: object) -> str:
    """How an agent is called in tables: its ``name``, else its ``__name__`` (a function), else its class."""
    name = getattr(agent, "name", None)
    if isinstance(name, str) and name:
        return name
    named = getattr(agent, "__name__", None)
    return named if isinstance(named, str) and named else type(agent).__name__


def unique_names(labels: Sequence[str]) -> list[str]:
    """The labels with repeats numbered: ``random``, ``random#2``, ``random#3`` (the one numbering,
    so that results can be keyed by name in tournaments, comparisons and round robins)."""
    names: list[str] = []
    for label in labels:
        name, k = label, 2
        while name in names:
            name, k = f"{label}#{k}", k + 1
        names.append(name)
    return names


def random_playout(state: State, rng: random.Random, max_actions: int | None = None) -> State:
    """Play ``state`` on to the end at random and return it (it is changed in place).

    Chance nodes draw an outcome with its probability (:meth:`State.sample_chance` with ``rng``),
    players pick uniformly among their legal actions (``rng.choice``); at most ``max_actions``
    actions when given.  The loop every random-play test, benchmark and rollout needs, said once.
    """
    steps = 0
    while not state.is_terminal() and (max_actions is None or steps < max_actions):
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        steps += 1
    return state


def play(
    game: Game,
    agents: Sequence[AgentLike],
    seed: int = 0,
    max_actions: int | None = None,
    state: State | None = None,
) -> State:
    """Play one game to the end and return the final state.

    Chance nodes are resolved from the seed (:meth:`State.sample_chance`); player ``i`` gets its
    own ``random.Random`` derived from ``seed`` and ``i``, so results do not depend on the other
    agents' use of randomness.  ``state`` continues a game instead of starting one.
    """
    if len(agents) != game.num_players:
        raise ValueError(
            f"{game.name} with {game.num_players} players needs that many agents, got {len(agents)}"
        )
    fns = [as_agent_fn(a) for a in agents]
    rngs = [_rng.new_rng(seed, 1 + i) for i in range(game.num_players)]
    if state is None:
        state = game.new_game(seed=seed)
    limit = game.max_game_length if max_actions is None else max_actions
    steps = 0
    while not state.is_terminal() and steps < limit:
        player = state.current_player
        if player == CHANCE:
            state.apply(state.sample_chance())
        else:
            # Agents get the live state and must not mutate it (search agents clone it).
            state.apply(fns[player](state, player, rngs[player]))
        steps += 1
    return state
