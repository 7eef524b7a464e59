"""Information-set MCTS (single-observer IS-MCTS, Cowling, Powley & Whitehouse 2012).

For games with hidden information the agent must not read the cards it cannot see.  Each
iteration starts from a fresh ``state.determinize(player, rng)``: a full world consistent with
what ``player`` observes, sampled by the game.  All those worlds share one tree whose edges are
actions; in a given world only some edges are legal, so UCB1 counts, for each child, how often it
was *available* rather than how often its parent was visited.

The root's moves are the player's own, identical in every world, so the choice averages over
the worlds the player cannot tell apart: it never peeks.  Below the root the opponents' moves are
searched as seen in each sampled world (the known weakness of single-observer IS-MCTS: it models
opponents as if they saw the sampled world).  On a perfect-information game ``determinize`` is a
clone and this is UCT with availability counts.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from gamelib.agents.inputs import optional_whole_number
from gamelib.agents.mcts import Node, SearchAgent
from gamelib.core.errors import IllegalAction
from gamelib.core.game import Action, State


class ISMCTSAgent(SearchAgent):
    """IS-MCTS over determinizations (see the module docstring).

    ``worlds``: when a game's ``determinize`` is expensive (exact belief counting, say), sample
    this many worlds once per move and cycle through them instead of sampling one per iteration.
    """

    name = "ismcts"

    def __init__(self, iterations: int | None = 1000, *, worlds: int | None = None, **options: Any) -> None:
        """``options``: the search's (``time_limit``, ``c``, ``max_rollout_steps``, ``evaluate``,
        ``rollout_agent``, ``rollout``; see :class:`~gamelib.agents.mcts.SearchAgent`)."""
        super().__init__(iterations, **options)
        self.worlds = optional_whole_number(worlds, "worlds", minimum=1)

    def _params(self) -> str:
        text = super()._params()
        return text + (f", worlds={self.worlds}" if self.worlds is not None else "")

    def _sample(self, state: State, player: int, rng: random.Random, root_legal: list[Action]) -> State:
        world = state.determinize(player, rng)
        legal = world.legal_actions()
        # games intern their actions: the same list compares element by element by identity first
        if world.current_player != player or (legal != root_legal and set(legal) != set(root_legal)):
            raise IllegalAction(
                "determinize",
                f"{state.game.name}: determinize({player}) gave a world where "
                f"{state.player_name(player)} does not have the same legal moves",
            )
        return world

    def _worlds(self, state: State, player: int, rng: random.Random) -> Callable[[int], State]:
        """A fresh determinization per iteration, or a fixed pool of ``worlds`` reused in turn."""
        root_legal = state.legal_actions()
        pool = [self._sample(state, player, rng, root_legal) for _ in range(self.worlds or 0)]
        if pool:
            return lambda done: pool[done % len(pool)].clone()
        return lambda done: self._sample(state, player, rng, root_legal)

    def _select(
        self, node: Node, world: State, to_move: int, rng: random.Random
    ) -> tuple[Action, Node | None]:
        # what is legal depends on the world: untried moves of this world first, then UCB1 with
        # availability counts (a move is scored against the iterations in which it was legal)
        legal = world.legal_actions()
        children = node.children
        untried = [a for a in legal if a not in children]
        if untried:
            return untried[int(rng.random() * len(untried))], None
        c, log, sqrt = self.c, math.log, math.sqrt
        best_score = -1.0
        best_action = legal[0]
        best = None
        # each child looked up once, in C (an action's hash is a call of its dataclass's __hash__)
        for action, child in zip(legal, map(children.__getitem__, legal), strict=True):
            child.avail += 1
            score = child.totals[to_move] / child.visits + c * sqrt(log(child.avail) / child.visits)
            if score > best_score:
                best_score, best_action, best = score, action, child
        return best_action, best
