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

from gamelib.agents.mcts import MoveStat, Node, SearchAgent
from gamelib.core.errors import IllegalAction
from gamelib.core.game import CHANCE, State


class ISMCTSAgent(SearchAgent):
    """IS-MCTS over determinizations (see the module docstring)."""

    name = "ismcts"

    def _search(self, state: State, player: int, rng: random.Random) -> list[MoveStat]:
        num_players = state.game.num_players
        low, inv_span = self._scale(state)
        c = self.c
        log = math.log
        sqrt = math.sqrt
        root = Node(num_players)
        root_legal = set(state.legal_actions())
        more = self._budget()
        done = 0
        while more(done):
            done += 1
            world = state.determinize(player, rng)
            if world.current_player != player or set(world.legal_actions()) != root_legal:
                raise IllegalAction(
                    "determinize",
                    f"{state.game.name}: determinize({player}) gave a world where "
                    f"{state.player_name(player)} does not have the same legal moves",
                )
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
