"""The greedy agent scores a move on a light copy of each world (its history list shared, cut back
after): the same values as on full clones, and the worlds left exactly as they were."""

from __future__ import annotations

import random

import pytest

import gamelib
from gamelib.agents import GreedyAgent
from gamelib.agents import greedy as greedy_module
from gamelib.core.game import Action, State
from gamelib.core.play import play
from gamelib.fugitive.agents import BeliefDetective, FugitiveHeuristic
from gamelib.fugitive.rules import D_DRAW, Add, Draw, FugitiveState


def positions(name: str, count: int, seed: int) -> list[State]:
    """``count`` positions of ``name`` from random play (chance nodes and the end skipped)."""
    rng = random.Random(seed)
    game = gamelib.make(name)
    found: list[State] = []
    for game_seed in range(seed, seed + 50):
        state = game.new_game(game_seed)
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            if rng.random() < 0.2:
                found.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])
        if len(found) >= count:
            break
    return found


def detective_positions(games: int) -> list[State]:
    """The belief detective's decisions against the heuristic fugitive (it wins: some of its
    positions have a winning guess or series)."""
    found: list[State] = []

    class Recorder(BeliefDetective):
        def act(self, state: State, player: int, rng: random.Random) -> Action:
            found.append(state.clone())
            return super().act(state, player, rng)

    for seed in range(games):
        play(gamelib.make("fugitive"), [FugitiveHeuristic(), Recorder()], seed=seed)
    return found


def scored(agent: GreedyAgent, world: State, light: bool, monkeypatch: pytest.MonkeyPatch) -> dict:
    player = world.current_player
    legal = world.legal_actions()
    values = dict.fromkeys(legal, 0.0)
    with monkeypatch.context() as patch:
        if not light:
            patch.setattr(greedy_module, "_light_copier", lambda world: greedy_module._full_clone)
        agent._score([world], legal, values, player)
    return values


@pytest.mark.parametrize("name", sorted(gamelib.registered_games()))
@pytest.mark.parametrize("evaluate", [None, "first"])
def test_light_copies_score_as_full_clones_and_leave_the_world(
    name: str, evaluate: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def first(state: State) -> list[float]:
        # an evaluation that reads every child (its returns and its whole key), so none is skipped
        return [float(hash(state.key()) % 7 + r) for r in state.returns()]

    agent = GreedyAgent(evaluate=first if evaluate else None, chance_depth=2)
    states = positions(name, 12, 7)
    assert states
    differing = 0
    for world in states:
        before_key, before_history = world.key(), list(world.history)
        light = scored(agent, world, True, monkeypatch)
        assert world.key() == before_key and world.history == before_history
        full = scored(agent, world, False, monkeypatch)
        assert light == full
        differing += len(set(light.values())) > 1
    if evaluate:
        assert differing  # the values are not all equal: the comparison can fail


def test_a_game_with_its_own_clone_gets_full_clones() -> None:
    class Own(FugitiveState):
        def _clone(self) -> State:
            raise AssertionError("not called")

    world = gamelib.make("fugitive").new_game(0)
    assert greedy_module._light_copier(world) is not greedy_module._full_clone
    assert greedy_module._light_copier(object.__new__(Own)) is greedy_module._full_clone


def test_moves_the_game_calls_continuing_are_worth_0_without_being_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a ``surely_continues`` hook (every ``add N`` of Fugitive: the detective names again)
    the greedy skips those moves and scores every position exactly as when it plays them."""
    agent = GreedyAgent()
    worlds = detective_positions(3)
    played: list[object] = []
    original = FugitiveState.apply_legal

    def counting(self: FugitiveState, action: object) -> None:
        played.append(action)
        original(self, action)  # type: ignore[arg-type]

    def scored_with(hook: object) -> tuple[list[dict], int]:
        played.clear()
        with monkeypatch.context() as patch:
            patch.setattr(FugitiveState, "surely_continues", hook, raising=False)
            patch.setattr(FugitiveState, "apply_legal", counting)
            out = [scored(agent, w, True, monkeypatch) for w in worlds]
        return out, len(played)

    def adds(self: FugitiveState, action: Action, through_chance: bool = False) -> bool:
        kind = type(action)
        return kind is Add or (through_chance and kind is Draw and self.phase == D_DRAW)

    def never(self: FugitiveState, action: Action, through_chance: bool = False) -> bool:
        return False

    with_hook, played_with = scored_with(adds)
    without, played_without = scored_with(never)
    assert with_hook == without
    assert any(any(v for v in values.values()) for values in without)  # some move wins somewhere
    assert played_with < played_without  # the adds were not played
    for world in worlds:  # the claim holds: an add leaves a player to move
        for action in world.legal_actions():
            if type(action) is Add:
                child = world.clone()
                child.apply(action)
                assert child.current_player >= 0
