"""Playing whole games with agents."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from gamelib.core import rng as _rng
from gamelib.core.game import CHANCE, Action, Game, State


@runtime_checkable
class Agent(Protocol):
    """Anything with ``act(state, player, rng) -> Action`` (or the action's notation)."""

    def act(self, state: State, player: int, rng: random.Random) -> Action | str: ...


AgentLike = Agent | Callable[[State, int, random.Random], Any]


def as_agent_fn(agent: AgentLike) -> Callable[[State, int, random.Random], Any]:
    if isinstance(agent, Agent):
        return agent.act
    if callable(agent):
        return agent
    raise TypeError(f"an agent needs an act(state, player, rng) method, got {agent!r}")


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
