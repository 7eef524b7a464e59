"""Agents that know Get on Board: greedy, a planner for the current ticket, MCTS over unknown tickets.

* :class:`GreedyAgent` lays each stick where the score (half-value open rows included) grows
  most right now; ties go to the stick that keeps more room to move.
* :class:`PlannerAgent` enumerates every complete placement of the current ticket (all sticks
  and the metro-entrance decision, :func:`~gamelib.getonboard.analysis.placements`) and plays
  the first stick of the best one by :func:`~gamelib.getonboard.analysis.position_value`.
* :class:`LookaheadAgent` scores the best placements of the current ticket by the expected value
  of the best placement of the *next* ticket, over the tickets left in the pile (expectimax).
* :func:`ticket_mcts` is the generic :class:`gamelib.agents.MCTSAgent` (UCT, chance nodes
  sampled) set up for this game: the unknown future tickets are its chance nodes, rollouts
  use the greedy agent and are cut after a few rounds, where ``position_value`` estimates
  every player's outcome.

``AGENTS`` exposes them to :func:`gamelib.agents.make_agent` under their own names
(``"stick_greedy"``, ``"planner"``, ``"lookahead"``, ``"ticket_mcts"``): the generic ``"greedy"``
and ``"mcts"`` stay the game-independent agents here as in every game (``"greedy(samples=4)"``).
The agents' ``name`` (their label in tables) is unchanged: stored experiments keep their labels.
"""

from __future__ import annotations

import random
from typing import Any

from gamelib.agents.mcts import MCTSAgent
from gamelib.core.game import Action, State
from gamelib.getonboard.analysis import free_region, next_ticket_value, placements, position_value
from gamelib.getonboard.phases import P_BONUS, P_LAY, P_START
from gamelib.getonboard.rules import GetOnBoardState


def _check(state: State) -> GetOnBoardState:
    if not isinstance(state, GetOnBoardState):
        raise TypeError(f"this agent plays Get on Board, got a {state.game.name} state")
    return state


class GreedyAgent:
    """Best immediate value: the stick after which the player's score is highest.

    A stick that eliminates the player (a loop now, or one every way to finish the shape forces)
    is chosen only when nothing else is legal: the text makes it legal (``loops="allowed"``).
    """

    name = "greedy"

    def act(self, state: State, player: int, rng: random.Random) -> Action:
        s = _check(state)
        best: list[Action] = []
        best_value = float("-inf")
        for action in s.legal_actions():
            if s.fatal(action):  # a loop now or forced later this turn (legal under loops="allowed")
                value = -1000.0
            else:
                child = _check(s.clone())
                child.apply(action)
                value = child.score(player) + 0.01 * free_region(child, player)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return best[int(rng.random() * len(best))]

    def __repr__(self) -> str:
        return "GreedyAgent()"


class PlannerAgent:
    """Plans the whole current ticket: the best complete placement, then its first stick.

    At the start choice it looks at the value of every intersection near each start.
    """

    name = "planner"

    def act(self, state: State, player: int, rng: random.Random) -> Action:
        s = _check(state)
        if s.phase in (P_LAY, P_BONUS):
            options = placements(s, position_value)
            top = options[0].value
            best = [pl for pl in options if pl.value >= top - 1e-9]
            return best[int(rng.random() * len(best))].actions[0]
        if s.phase == P_START:
            return max(s.legal_actions(), key=lambda a: _start_value(s, s.target(a)))
        actions = s.legal_actions()
        return actions[int(rng.random() * len(actions))]

    def __repr__(self) -> str:
        return "PlannerAgent()"


class LookaheadAgent:
    """Plans the current ticket *and* the next one: an expectimax over the unknown next ticket.

    The ``top`` best placements of the current ticket (by :func:`position_value`) are each scored
    by the expected value of the best placement of the next ticket, averaged over the tickets
    still in the pile (:func:`~gamelib.getonboard.analysis.next_ticket_value`).  The chosen
    placement is then followed stick by stick without recomputing.
    """

    name = "lookahead"

    def __init__(self, top: int = 6) -> None:
        if isinstance(top, bool) or not isinstance(top, int) or top < 1:
            raise ValueError(f"top must be a positive int, got {top!r}")
        self.top = top
        self._plan: dict[tuple[Any, ...], Action] = {}

    def act(self, state: State, player: int, rng: random.Random) -> Action:
        s = _check(state)
        if s.phase not in (P_LAY, P_BONUS):
            return PlannerAgent().act(s, player, rng)
        key = (len(s.history), s.key())
        if key in self._plan:
            return self._plan.pop(key)
        options = placements(s, position_value)[: self.top]
        scored = [(next_ticket_value(pl.state, player), pl.value, i) for i, pl in enumerate(options)]
        best = options[max(scored)[2]]
        # remember the rest of the placement: the turn has no chance node, so it is deterministic
        self._plan.clear()
        walker = s.clone()
        for action in best.actions:
            self._plan[(len(walker.history), walker.key())] = action
            walker.apply(action)
        return self._plan.pop(key)

    def __repr__(self) -> str:
        return f"LookaheadAgent(top={self.top})"


def _start_value(state: GetOnBoardState, node: int) -> float:
    """Features within two sections of a start, and room around it: a cheap opening heuristic."""
    board = state.board
    ring = {node}
    frontier = {node}
    for _ in range(2):
        frontier = {nb for v in frontier for nb in board.neighbour[v] if nb >= 0} - ring
        ring |= frontier
    return sum(len(board.features[v]) for v in ring) + 0.5 * len(ring)


def estimate(state: State) -> list[float]:
    """Every player's :func:`position_value`: the MCTS leaf evaluation after a cut rollout."""
    s = _check(state)
    return [max(-10.0, position_value(s, p)) for p in range(s.num_players)]


def ticket_mcts(iterations: int = 200, rollout_rounds: int = 2, c: float = 1.0, **kwargs: Any) -> MCTSAgent:
    """UCT over sticks and unknown tickets (chance nodes), greedy rollouts of ``rollout_rounds`` rounds."""
    agent = MCTSAgent(
        iterations=iterations,
        c=c,
        evaluate=estimate,
        rollout_agent=GreedyAgent(),
        max_rollout_steps=rollout_rounds * 12,
        **kwargs,
    )
    agent.name = "mcts"
    return agent


AGENTS: dict[str, Any] = {
    "stick_greedy": GreedyAgent,
    "planner": PlannerAgent,
    "lookahead": LookaheadAgent,
    "ticket_mcts": ticket_mcts,
}
"""The game's own agents, by names that do not shadow the generic ``greedy`` and ``mcts``."""

SEAT_AGENTS = "planner"
"""The agent each seat starts with in a Stepper (:func:`gamelib.agents.registry.default_agents`)."""
