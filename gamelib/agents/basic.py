"""The simplest agents: baselines every game supports."""

from __future__ import annotations

import random

from gamelib.core.game import Action, State


class RandomAgent:
    """Plays a uniformly random legal action: the baseline every strategy must beat."""

    name = "random"

    def act(self, state: State, player: int, rng: random.Random) -> Action:
        actions = state.legal_actions()
        return actions[int(rng.random() * len(actions))]

    def strategy(self, state: State, player: int) -> dict[Action, float]:
        """The move probabilities ``act`` samples from: uniform over the legal actions."""
        actions = state.legal_actions()
        return dict.fromkeys(actions, 1.0 / len(actions))

    def __repr__(self) -> str:
        return "RandomAgent()"


class FirstLegalAgent:
    """Always plays the first legal action: deterministic, handy in tests and demos."""

    name = "first"

    def act(self, state: State, player: int, rng: random.Random) -> Action:
        return state.legal_actions()[0]

    def __repr__(self) -> str:
        return "FirstLegalAgent()"
