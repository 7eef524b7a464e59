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
from typing import Any

from gamelib.agents.mcts import Evaluation, MoveStat, Node, SearchAgent
from gamelib.core.errors import IllegalAction
from gamelib.core.game import CHANCE, Action, State


class ISMCTSAgent(SearchAgent):
    """IS-MCTS over determinizations (see the module docstring).

    ``worlds``: when a game's ``determinize`` is expensive (exact belief counting, say), sample
    this many worlds once per move and cycle through them instead of sampling one per iteration.
    """

    name = "ismcts"

    def __init__(
        self,
        iterations: int | None = 1000,
        time_limit: float | None = None,
        c: float = 1.4,
        max_rollout_steps: int | None = None,
        evaluate: Evaluation | None = None,
        rollout_agent: Any = None,
        worlds: int | None = None,
    ) -> None:
        super().__init__(iterations, time_limit, c, max_rollout_steps, evaluate, rollout_agent)
        if worlds is not None and (isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1):
            raise ValueError(f"worlds must be a positive int, got {worlds!r}")
        self.worlds = worlds

    def _params(self) -> str:
        text = super()._params()
        return text + (f", worlds={self.worlds}" if self.worlds is not None else "")

    def _sample(self, state: State, player: int, rng: random.Random, root_legal: set[Action]) -> State:
        world = state.determinize(player, rng)
        if world.current_player != player or set(world.legal_actions()) != root_legal:
            raise IllegalAction(
                "determinize",
                f"{state.game.name}: determinize({player}) gave a world where "
                f"{state.player_name(player)} does not have the same legal moves",
            )
        return world

    def _search(self, state: State, player: int, rng: random.Random) -> list[MoveStat]:
        num_players = state.game.num_players
        low, inv_span = self._scale(state)
        c = self.c
        log = math.log
        sqrt = math.sqrt
        root = Node(num_players)
        root_legal = set(state.legal_actions())
        more = self._budget()
        pool = [self._sample(state, player, rng, root_legal) for _ in range(self.worlds or 0)]
        done = 0
        while more(done):
            done += 1
            world = pool[done % len(pool)].clone() if pool else self._sample(state, player, rng, root_legal)
            node = root
            path = [root]
            while not world.is_terminal():
                to_move = world.current_player
                if to_move == CHANCE:
                    outcome = world.sample_chance(rng)
                    world.apply(outcome)
                    child = node.children.get(outcome)
                    if child is None:
                        child = node.children[outcome] = Node(num_players)
                        path.append(child)
                        break
                    node = child
                    path.append(child)
                    continue
                legal = world.legal_actions()
                children = node.children
                untried = [a for a in legal if a not in children]
                if untried:
                    action = untried[int(rng.random() * len(untried))]
                    world.apply(action)
                    child = children[action] = Node(num_players)
                    path.append(child)
                    break
                best_score = -1.0
                best_action = legal[0]
                for action in legal:
                    child = children[action]
                    child.avail += 1
                    score = child.totals[to_move] / child.visits + c * sqrt(log(child.avail) / child.visits)
                    if score > best_score:
                        best_score, best_action = score, action
                world.apply(best_action)
                node = children[best_action]
                path.append(node)
            returns = self._rollout(world, rng)
            self._backpropagate(path, returns, low, inv_span)
        return self._root_stats(root, player, state.legal_actions())
