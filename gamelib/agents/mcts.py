"""Monte Carlo tree search (UCT with rollouts), for any game of the contract.

The search works on clones of the state it is given (one clone per iteration, never a copy of a
board graph): games keep their hot state in ints and tuples, so a clone costs microseconds.

* **Any number of players**: every node keeps the sum of ``returns()`` for *each* player, and a
  node's children are compared from the point of view of the player to move there (the
  ``max^n`` generalisation of UCT).
* **Chance nodes** are sampled with their probabilities (``state.sample_chance(rng)``); each
  outcome drawn gets its own child, so frequent outcomes get most of the statistics.
* **Budget**: a number of iterations, a time limit in seconds, or both (whichever comes first).
  An iteration budget with a seeded ``rng`` makes the agent deterministic, so tournament games
  replay exactly; a time budget does not.
* **Rollouts end games the way players do**: by default (``rollout="game"``) a rollout follows
  the game's declared rollout policy (``ROLLOUT_AGENT`` in its ``agents`` module), else uniform
  random moves.  Fugitive declares ``random_single_guess`` (uniformly random, but the detective
  names one number it has not seen per turn): under the text's rules a uniformly random detective
  names numbers it holds or sees face up and builds long series, so uniform rollouts run ~1,200
  actions to the round limit and say nothing; the policy's end in ~160.  ``rollout="random"``
  keeps uniform random rollouts; ``rollout_agent=`` any agent.  A uniform rollout calls the
  rules' hooks directly (``_legal_actions``, ``_apply``: the moves of ``legal_actions`` and
  ``apply_legal`` without their per-move bookkeeping) when the state class keeps core's two; a
  state class may play that loop itself (a ``_uniform_rollout(state, rng, limit)`` class
  attribute, e.g. A Une Passante's compiled loop: the same moves from the same ``rng``).
* Returns are rescaled to [0, 1] with the game's ``min_return``/``max_return`` so the exploration
  constant ``c`` means the same thing in every game.

Hidden information: plain UCT reads the whole state, including the opponents' hidden cards.
On an imperfect-information game it therefore refuses to play unless ``omniscient=True`` (a
useful upper bound: "what is knowing the cards worth?"); use :class:`~gamelib.agents.ismcts.ISMCTSAgent`.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gamelib.agents.inputs import optional_whole_number, whole_number
from gamelib.core.game import CHANCE, TERMINAL, Action, State

Evaluation = Callable[[State], Sequence[float]]
"""An estimate of ``returns()`` (one float per player) for a non-terminal state."""


class Node:
    """Statistics of one tree node: visits, the sum of normalised returns per player, children."""

    __slots__ = ("avail", "children", "totals", "untried", "visits")

    def __init__(self, num_players: int) -> None:
        self.visits = 0
        self.avail = 1
        self.totals = [0.0] * num_players
        self.children: dict[Action, Node] = {}
        self.untried: list[Action] | None = None


@dataclass(frozen=True)
class MoveStat:
    """How the search rated one move at the root."""

    action: Action
    visits: int
    value: float
    """Mean normalised return (0 = worst, 1 = best) for the player to move."""


ROLLOUTS = ("game", "random")
"""``rollout=`` values: the game's declared rollout policy (default) or uniform random moves."""


def check_budget(iterations: int | None, time_limit: float | None) -> None:
    if iterations is None and time_limit is None:
        raise ValueError("a search needs a budget: iterations, time_limit, or both")
    if iterations is not None:
        whole_number(iterations, "iterations", minimum=1)
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")


class SearchAgent:
    """What MCTS and IS-MCTS share: budget, rollouts, normalisation, final move choice."""

    name = "search"

    def __init__(
        self,
        iterations: int | None = 1000,
        time_limit: float | None = None,
        c: float = 1.4,
        max_rollout_steps: int | None = None,
        evaluate: Evaluation | None = None,
        rollout_agent: Any = None,
        rollout: str = "game",
    ) -> None:
        check_budget(iterations, time_limit)
        if not c >= 0:
            raise ValueError(f"the exploration constant c must be >= 0, got {c!r}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {ROLLOUTS}, got {rollout!r}")
        self.iterations = optional_whole_number(iterations, "iterations", minimum=1)
        self.time_limit = time_limit
        self.c = float(c)
        self.max_rollout_steps = optional_whole_number(max_rollout_steps, "max_rollout_steps", minimum=0)
        self.evaluate = evaluate
        self.rollout_agent = rollout_agent
        self.rollout = rollout
        self._policies: dict[str, Any] = {}

    def rollout_policy(self, game: Any) -> Any:
        """The agent rollouts follow in ``game`` (None: uniform random moves); see the module docstring."""
        if self.rollout_agent is not None:
            return self.rollout_agent
        if self.rollout == "random":
            return None
        name = game.name
        if name not in self._policies:
            from gamelib.agents.registry import rollout_agent_for

            self._policies[name] = rollout_agent_for(game)
        return self._policies[name]

    # ------------------------------------------------------------------ shared pieces
    def _budget(self) -> Callable[[int], bool]:
        """A predicate ``more(done_iterations)`` that says whether to keep searching."""
        limit = self.iterations
        if self.time_limit is None:
            assert limit is not None
            return lambda done: done < limit
        deadline = time.perf_counter() + self.time_limit
        if limit is None:
            return lambda done: time.perf_counter() < deadline
        return lambda done: done < limit and time.perf_counter() < deadline

    @staticmethod
    def _scale(state: State) -> tuple[float, float]:
        info = state.game.info
        low, high = float(info.min_return), float(info.max_return)
        span = high - low
        return low, (1.0 / span if span > 0 else 1.0)

    def _rollout(self, state: State, rng: random.Random) -> list[float]:
        """Play to the end (or ``max_rollout_steps``) and return the raw returns."""
        limit = state.game.max_game_length if self.max_rollout_steps is None else self.max_rollout_steps
        policy = self.rollout_policy(state.game)
        if policy is None and _plain(type(state)):
            # a state class may play this loop itself (``_uniform_rollout``: the same moves)
            (getattr(type(state), "_uniform_rollout", None) or _uniform_rollout)(state, rng, limit)
            return self._returns(state)
        # Uniform moves are drawn from the legal ones just listed and chance moves from the
        # outcomes, so they skip apply's check (a rollout is most of an iteration's time); a
        # policy's answer (maybe a notation) goes through apply.
        apply, legal_actions, sample_chance, uniform = (
            state.apply_legal,
            state.legal_actions,
            state.sample_chance,
            rng.random,
        )
        steps = 0
        while steps < limit:
            player = state.current_player
            if player == TERMINAL:
                break
            if player == CHANCE:
                apply(sample_chance(rng))
            elif policy is None:
                actions = legal_actions()
                apply(actions[int(uniform() * len(actions))])
            else:
                state.apply(policy.act(state, player, rng))
            steps += 1
        return self._returns(state)

    def _returns(self, state: State) -> list[float]:
        """The raw returns at the rollout's end (``evaluate``'s estimate if it stopped early)."""
        if not state.is_terminal() and self.evaluate is not None:
            return list(self.evaluate(state))
        return state.returns()

    @staticmethod
    def _backpropagate(path: list[Node], returns: Sequence[float], low: float, inv_span: float) -> None:
        scaled = [(r - low) * inv_span for r in returns]
        for node in path:
            node.visits += 1
            totals = node.totals
            for i, r in enumerate(scaled):
                totals[i] += r

    @staticmethod
    def _root_stats(root: Node, player: int, legal: Sequence[Action]) -> list[MoveStat]:
        stats = []
        for action in legal:
            child = root.children.get(action)
            if child is None or child.visits == 0:
                stats.append(MoveStat(action, 0, 0.0))
            else:
                stats.append(MoveStat(action, child.visits, child.totals[player] / child.visits))
        return stats

    @staticmethod
    def _best(stats: Sequence[MoveStat], rng: random.Random) -> Action:
        """The most visited move (the robust choice), ties broken by value then at random."""
        top = max((s.visits, s.value) for s in stats)
        best = [s.action for s in stats if (s.visits, s.value) == top]
        return best[int(rng.random() * len(best))] if len(best) > 1 else best[0]

    def analyse(self, state: State, player: int, rng: random.Random) -> list[MoveStat]:
        """Run a search and return the root statistics of every legal move (best first)."""
        stats = self._search(state, player, rng)
        return sorted(stats, key=lambda s: (-s.visits, -s.value, str(s.action)))

    def act(self, state: State, player: int, rng: random.Random) -> Action:
        legal = state.legal_actions()
        if not legal:
            raise ValueError(f"{self!r} asked to act where {state.player_name(player)} has no legal action")
        if len(legal) == 1:
            return legal[0]
        return self._best(self._search(state, player, rng), rng)

    def _search(self, state: State, player: int, rng: random.Random) -> list[MoveStat]:
        """Grow a tree from ``state`` for the budget, then the root statistics of ``player``'s moves.

        Each iteration takes a world to search (:meth:`_world`), walks down the tree (chance
        nodes by sampling, decision nodes by :meth:`_select`), expands one node, rolls out and
        backpropagates.  MCTS and IS-MCTS differ only in the world and the selection.
        """
        num_players = state.game.num_players
        low, inv_span = self._scale(state)
        root = Node(num_players)
        more = self._budget()
        worlds = self._worlds(state, player, rng)
        done = 0
        while more(done):
            done += 1
            world = worlds(done)
            node = root
            path = [root]
            while not world.is_terminal():
                to_move = world.current_player
                if to_move == CHANCE:
                    action = world.sample_chance(rng)
                    world.apply_legal(action)  # drawn here: no need to look it up again
                    child = node.children.get(action)
                    if child is None:
                        path.append(node.children.setdefault(action, Node(num_players)))
                        break
                else:
                    action, child = self._select(node, world, to_move, rng)
                    world.apply_legal(action)  # one of this world's legal moves (_select)
                    if child is None:
                        path.append(node.children.setdefault(action, Node(num_players)))
                        break
                node = child
                path.append(child)
            self._backpropagate(path, self._rollout(world, rng), low, inv_span)
        return self._root_stats(root, player, state.legal_actions())

    def _worlds(self, state: State, player: int, rng: random.Random) -> Callable[[int], State]:
        """The world each iteration searches, by iteration number (MCTS: a clone of ``state``)."""
        raise NotImplementedError

    def _select(
        self, node: Node, world: State, to_move: int, rng: random.Random
    ) -> tuple[Action, Node | None]:
        """The move to play at a decision node, and its child (``None``: a new node to expand)."""
        raise NotImplementedError

    def _params(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(f"iterations={self.iterations}")
        if self.time_limit is not None:
            parts.append(f"time_limit={self.time_limit}")
        if self.c != 1.4:
            parts.append(f"c={self.c}")
        if self.max_rollout_steps is not None:
            parts.append(f"max_rollout_steps={self.max_rollout_steps}")
        if self.rollout != "game":
            parts.append(f"rollout={self.rollout!r}")
        return ", ".join(parts)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._params()})"


def _plain(cls: type[State]) -> bool:
    """Are ``cls``'s ``legal_actions`` and ``apply_legal`` core's (so a rollout may call the hooks
    behind them, :func:`_uniform_rollout`)?  Asked per rollout: a class patched later is seen."""
    return cls.legal_actions is State.legal_actions and cls.apply_legal is State.apply_legal


def _uniform_rollout(state: State, rng: random.Random, limit: int) -> None:
    """Uniform random moves to the end (or ``limit`` actions), exactly as ``_rollout``'s loop
    plays them (the same moves from the same ``rng``), with core's per-move bookkeeping taken out
    of the loop: the moves come from ``_legal_actions`` (no cached copy: the state changes at
    once), each is applied by ``_apply`` and appended to the history (``apply_legal``'s steps; its
    cache of legal moves stays empty throughout, as ``apply_legal`` leaves it)."""
    state._legal_cache = None
    step, legal, sample_chance, append, uniform = (
        state._apply,
        state._legal_actions,
        state.sample_chance,
        state.history.append,
        rng.random,
    )
    for _ in range(limit):
        player = state.current_player
        if player < 0:  # a player to move first: most steps
            if player == TERMINAL:
                break
            if player == CHANCE:
                action = sample_chance(rng)
                step(action)
                append(action)
                continue
        actions = legal()
        action = actions[int(uniform() * len(actions))]
        step(action)
        append(action)


class MCTSAgent(SearchAgent):
    """UCT with random rollouts on the true state (see the module docstring).

    >>> import gamelib, random
    >>> agent = MCTSAgent(iterations=50)
    >>> agent.iterations
    50
    """

    name = "mcts"

    def __init__(self, iterations: int | None = 1000, *, omniscient: bool = False, **options: Any) -> None:
        """``options``: the search's (``time_limit``, ``c``, ``max_rollout_steps``, ``evaluate``,
        ``rollout_agent``, ``rollout``; see :class:`SearchAgent`)."""
        super().__init__(iterations, **options)
        self.omniscient = omniscient

    def _worlds(self, state: State, player: int, rng: random.Random) -> Callable[[int], State]:
        if not state.game.info.perfect_information and not self.omniscient:
            raise ValueError(
                f"MCTSAgent would read hidden information in {state.game.name}: use ISMCTSAgent "
                "('ismcts'), or MCTSAgent(omniscient=True) to measure what seeing everything is worth"
            )
        return lambda done: state.clone()

    def _select(
        self, node: Node, world: State, to_move: int, rng: random.Random
    ) -> tuple[Action, Node | None]:
        if node.untried is None:
            node.untried = world.legal_actions()
            rng.shuffle(node.untried)
        if node.untried:
            return node.untried.pop(), None
        # every child visited: UCB1 from the mover's point of view
        c, log_n, sqrt = self.c, math.log(node.visits), math.sqrt
        best_score = -1.0
        best: tuple[Action, Node | None] | None = None
        for action, child in node.children.items():
            score = child.totals[to_move] / child.visits + c * sqrt(log_n / child.visits)
            if score > best_score:
                best_score, best = score, (action, child)
        assert best is not None
        return best

    def _params(self) -> str:
        text = super()._params()
        return text + (", omniscient=True" if self.omniscient else "")
