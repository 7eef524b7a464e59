"""The size of a game tree: is this configuration small enough for an exact solver?

CFR and other exact methods visit every history of a game on every iteration, so before starting
one an analyst wants the counts: histories, terminal histories, chance nodes and information states
per player.  :func:`tree_size` walks the whole tree through the public contract (``legal_actions``,
``clone``, ``apply``, ``information_state_string``) and stops with :class:`TreeTooLarge` past a budget, so asking
about the published games is cheap: they are astronomically large.

>>> import gamelib
>>> small = gamelib.make("fugitive", escape_card=7, max_rounds=1, canonical_order=True,
...                      refuse_known_numbers=True, manhunt="immediate")
>>> tree_size(small).histories
4145
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gamelib.agents.inputs import whole_number
from gamelib.core.game import CHANCE

if TYPE_CHECKING:
    from gamelib.core.game import Game, State


class TreeTooLarge(RuntimeError):
    """The tree has more histories than the budget given to :func:`tree_size`."""

    def __init__(self, budget: int) -> None:
        super().__init__(f"the game tree has more than {budget:,} histories (max_histories={budget:,})")
        self.budget = budget


@dataclass
class TreeSize:
    """Counts over every history of one game configuration (chance outcomes included)."""

    histories: int = 0
    """Every node of the tree: decision, chance and terminal histories."""
    terminals: int = 0
    chance_nodes: int = 0
    decision_nodes: list[int] = field(default_factory=list)
    """Histories where each player acts."""
    information_states: list[int] = field(default_factory=list)
    """Distinct ``information_state_string(player)`` where each player acts (perfect recall)."""
    depth: int = 0
    """The longest history, in actions."""

    def __str__(self) -> str:
        per_player = ", ".join(
            f"player {p}: {n:,} decisions in {i:,} information states"
            for p, (n, i) in enumerate(zip(self.decision_nodes, self.information_states, strict=True))
        )
        return (
            f"{self.histories:,} histories ({self.terminals:,} terminal, {self.chance_nodes:,} chance), "
            f"depth {self.depth}; {per_player}"
        )


def tree_size(game: Game, seed: int = 0, max_histories: int = 1_000_000) -> TreeSize:
    """Count the histories and information states of ``game`` by walking the whole tree.

    Chance nodes branch on every outcome (``chance_outcomes``), so the count does not depend on
    ``seed`` for games whose chance is explicit.  Information states are the distinct
    ``state.information_state_string(player)`` at that player's decisions: the key OpenSpiel's CFR
    uses through :mod:`gamelib.interop.openspiel`.  Raises :class:`TreeTooLarge` as soon as more
    than ``max_histories`` histories have been seen.
    """
    max_histories = whole_number(max_histories, "max_histories", minimum=1)
    players = game.num_players
    size = TreeSize(decision_nodes=[0] * players)
    seen: list[set[str]] = [set() for _ in range(players)]
    stack: list[tuple[State, int]] = [(game.new_game(seed=seed), 0)]
    while stack:
        state, depth = stack.pop()
        size.histories += 1
        if size.histories > max_histories:
            raise TreeTooLarge(max_histories)
        size.depth = max(size.depth, depth)
        if state.is_terminal():
            size.terminals += 1
            continue
        player = state.current_player
        if player == CHANCE:
            size.chance_nodes += 1
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            size.decision_nodes[player] += 1
            seen[player].add(state.information_state_string(player))
            actions = state.legal_actions()
        for action in actions:
            child = state.clone()
            child.apply(action)
            stack.append((child, depth + 1))
    size.information_states = [len(s) for s in seen]
    return size
