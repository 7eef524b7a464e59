"""Game-independent agents: anything with ``act(state, player, rng) -> Action``.

Agents never mutate the state they are given (search agents work on clones) and draw all their
randomness from the ``rng`` they receive, so a game replays exactly from its seed.

* :class:`RandomAgent`, :class:`FirstLegalAgent`: baselines;
* :class:`GreedyAgent`: best one-step value (``returns()`` or an evaluation function);
* :class:`MCTSAgent`: UCT with random rollouts, chance nodes, any number of players;
* :class:`ISMCTSAgent`: information-set MCTS over ``state.determinize`` for hidden information.

Agents by name: :func:`make_agent` (``"mcts(iterations=200)"``), :func:`register_agent` for a
game's own heuristics, :func:`registered_agents`, :func:`agent_title` (what a student reads,
in English or French).
"""

from gamelib.agents.basic import FirstLegalAgent, RandomAgent
from gamelib.agents.greedy import GreedyAgent
from gamelib.agents.ismcts import ISMCTSAgent
from gamelib.agents.mcts import MCTSAgent, MoveStat
from gamelib.agents.registry import agent_title, make_agent, register_agent, registered_agents

__all__ = [
    "FirstLegalAgent",
    "GreedyAgent",
    "ISMCTSAgent",
    "MCTSAgent",
    "MoveStat",
    "RandomAgent",
    "agent_title",
    "make_agent",
    "register_agent",
    "registered_agents",
]
