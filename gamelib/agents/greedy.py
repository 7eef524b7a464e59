"""Greedy one-step lookahead: the best immediate outcome, for any game.

For each legal move the agent looks at the position right after it and scores it with an
evaluation function (by default ``state.returns()``, so it takes a win when one is on the table
and otherwise plays at random among equals).  If the move leads to chance (a draw, a die), the
score is the expectation over the chance outcomes, ``chance_depth`` levels deep.

With hidden information the agent scores each move in ``samples`` worlds drawn by
``state.determinize(player, rng)`` and averages: it never reads cards it cannot see.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from gamelib.agents.inputs import whole_number
from gamelib.core.game import CHANCE, Action, State

Evaluation = Callable[[State], Sequence[float]]


class GreedyAgent:
    """Plays the move with the best one-step value (ties broken at random)."""

    name = "greedy"

    def __init__(self, evaluate: Evaluation | None = None, samples: int = 8, chance_depth: int = 1) -> None:
        self.evaluate = evaluate
        self.samples = whole_number(samples, "samples", minimum=1)
        self.chance_depth = whole_number(chance_depth, "chance_depth", minimum=0)

    def _value(self, state: State, player: int, depth: int) -> float:
        if depth > 0 and state.current_player == CHANCE:
            total = 0.0
            for outcome, probability in state.chance_outcomes():
                child = state.clone()
                child.apply(outcome)
                total += probability * self._value(child, player, depth - 1)
            return total
        scores = state.returns() if self.evaluate is None else self.evaluate(state)
        return float(scores[player])

    def scores(self, state: State, player: int, rng: random.Random) -> dict[Action, float]:
        """The value of every legal move for ``player`` (averaged over sampled worlds)."""
        legal = state.legal_actions()
        if state.game.info.perfect_information:
            worlds = [state]
        else:
            worlds = [state.determinize(player, rng) for _ in range(self.samples)]
        values = dict.fromkeys(legal, 0.0)
        for world in worlds:
            world.legal_actions()  # computed once: every clone below shares the list to check its move
            for action in legal:
                child = world.clone()
                child.apply(action)
                values[action] += self._value(child, player, self.chance_depth)
        return {a: v / len(worlds) for a, v in values.items()}

    def act(self, state: State, player: int, rng: random.Random) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        values = self.scores(state, player, rng)
        top = max(values.values())
        best = [a for a in legal if values[a] >= top - 1e-12]
        return best[int(rng.random() * len(best))]

    def __repr__(self) -> str:
        extra = (
            [] if self.evaluate is None else [f"evaluate={getattr(self.evaluate, '__name__', self.evaluate)}"]
        )
        if self.samples != 8:
            extra.append(f"samples={self.samples}")
        if self.chance_depth != 1:
            extra.append(f"chance_depth={self.chance_depth}")
        return f"GreedyAgent({', '.join(extra)})"
