"""A decision where the game says every move leaves a player to move (``surely_continues``, chance
first allowed: Fugitive's detective draws) is worth 0 whatever the world: the greedy draws no
world there, picks uniformly, and the next decision follows the worlds it had, through its own
moves, or draws afresh."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import gamelib
from gamelib.agents import GreedyAgent
from gamelib.core.game import Action, State
from gamelib.core.play import play
from gamelib.fugitive.agents import FugitiveHeuristic
from gamelib.fugitive.rules import D_DRAW, D_SERIES, Add, Draw, FugitiveState


def hook(self: FugitiveState, action: Action, through_chance: bool = False) -> bool:
    """Fugitive's promise: a series number leaves the detective to move; with chance first, so
    does his draw (his card, then another draw or a number)."""
    kind = type(action)
    return kind is Add or (through_chance and kind is Draw and self.phase == D_DRAW)


class Counting(GreedyAgent):
    """Records, per decision, the phase and the worlds drawn afresh and carried."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[tuple[int, int]] = []
        self.phase = -1

    def act(self, state: State, player: int, rng: random.Random) -> Action:
        assert isinstance(state, FugitiveState)
        self.phase = state.phase
        before = drawn[0]
        action = super().act(state, player, rng)
        self.log.append((state.phase, drawn[0] - before))
        return action


drawn = [0]


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> None:
    original = FugitiveState.determinize

    def determinize(self: FugitiveState, player: int, rng: random.Random) -> State:
        drawn[0] += 1
        return original(self, player, rng)

    monkeypatch.setattr(FugitiveState, "determinize", determinize)
    monkeypatch.setattr(FugitiveState, "surely_continues", hook, raising=False)


@pytest.mark.usefixtures("counted")
def test_no_world_is_drawn_where_every_move_is_worth_0() -> None:
    agent = Counting()
    for seed in range(3):
        state = play(gamelib.make("fugitive"), [FugitiveHeuristic(), agent], seed=seed)
        assert state.is_terminal()
    per_phase = Counter(phase for phase, _ in agent.log)
    assert per_phase[D_DRAW] > 5 and per_phase[D_SERIES] > 20
    assert all(worlds == 0 for phase, worlds in agent.log if phase == D_DRAW)
    # a series' numbers: worlds followed through the detective's own moves, never drawn afresh
    assert all(worlds == 0 for phase, worlds in agent.log if phase == D_SERIES)
    assert sum(worlds for _, worlds in agent.log) > 0


@pytest.mark.usefixtures("counted")
def test_a_move_worth_0_everywhere_is_picked_uniformly() -> None:
    game = gamelib.make("fugitive")
    state = game.new_game(3)
    rng = random.Random(3)
    while not (state.current_player >= 0 and state.phase == D_DRAW and len(state.legal_actions()) == 3):
        player = state.current_player
        state.apply(state.sample_chance(rng) if player < 0 else FugitiveHeuristic().act(state, player, rng))
    agent = GreedyAgent()
    before = drawn[0]
    picks = Counter(str(agent.act(state, state.current_player, random.Random(i))) for i in range(300))
    assert drawn[0] == before
    assert len(picks) == 3 and min(picks.values()) > 70
