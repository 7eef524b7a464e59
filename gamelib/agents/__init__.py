"""Game-independent agents: anything with ``act(state, player, rng) -> Action``."""

from gamelib.agents.basic import FirstLegalAgent, RandomAgent

__all__ = ["FirstLegalAgent", "RandomAgent"]
