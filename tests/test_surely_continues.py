"""``State.surely_continues``: a promise agents rely on to skip playing moves, never broken."""

from __future__ import annotations

import random
from typing import Any

import pytest

import gamelib
from gamelib.core.game import State


def _always_a_player_after(state: State, action: object, depth: int = 0) -> bool:
    """Every chain of chance outcomes after ``action`` reaches a player to move."""
    child = state.clone()
    child.apply(action)  # type: ignore[arg-type]
    if child.is_terminal():
        return False
    if not child.is_chance_node():
        return True
    outcomes = [a for a, _ in child.chance_outcomes()]
    if depth > 0:  # a second chance in a row: sample a few (draws deal one card)
        outcomes = outcomes[:3]
    return all(_always_a_player_after(child, a, depth + 1) for a in outcomes)


def _random_decisions(name: str, seeds: range, steps: int = 600):  # type: ignore[no-untyped-def]
    game = gamelib.make(name)
    for seed in seeds:
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(steps):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            yield seed, state
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_a_move_said_to_continue_leaves_a_player_to_move(name: str) -> None:
    promised = 0
    for seed, state in _random_decisions(name, range(4)):
        for action in state.legal_actions():
            if state.surely_continues(action):
                promised += 1
                child = state.clone()
                child.apply(action)
                assert child.current_player >= 0, (name, seed, action)
            if state.surely_continues(action, through_chance=True):
                assert _always_a_player_after(state, action), (name, seed, action)
    if name == "fugitive":
        assert promised > 100  # every series' "add N" is promised


def test_fugitive_promises_namings_that_cannot_catch_and_through_chance_the_detectives_draws() -> None:
    kinds: set[str] = set()
    through: set[str] = set()
    for _, state in _random_decisions("fugitive", range(3, 5)):
        for action in state.legal_actions():
            if state.surely_continues(action):
                kinds.add(type(action).__name__)
            if state.surely_continues(action, through_chance=True):
                through.add(type(action).__name__)
    assert {"Add", "Guess", "Reveal"} <= kinds <= {"Add", "Guess", "Reveal", "Manhunt"}
    assert through == kinds | {"Draw"}


def test_fugitive_answers_alike_in_the_detectives_worlds() -> None:
    """The promise reads only what the detective sees: his determinized worlds agree with it."""
    checked = 0
    for seed, state in _random_decisions("fugitive", range(2)):
        if state.current_player != 1 or checked > 40:
            continue
        world = state.determinize(1, random.Random(seed))
        for action in state.legal_actions():
            for through_chance in (False, True):
                said = state.surely_continues(action, through_chance)
                assert world.surely_continues(action, through_chance) == said
        checked += 1
    assert checked > 10


@pytest.mark.parametrize(
    "options",
    [
        {"edition": 2},
        {"manhunt": "immediate"},
        {"max_rounds": 6},
        {"escape_card": 28, "refuse_known_numbers": True},
        {"canonical_order": True, "edition": 2, "max_rounds": 9},
    ],
)
def test_fugitive_promises_hold_under_every_ending(options: dict[str, Any]) -> None:
    """Round limits, the escape card's last turn and manhunts: no promised move ends the game."""
    game = gamelib.make("fugitive", **options)
    promised = 0
    for seed in range(30):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            for action in state.legal_actions():
                if state.surely_continues(action, through_chance=True):
                    promised += 1
                    assert _always_a_player_after(state, action), (options, seed, action)
            state.apply(rng.choice(state.legal_actions()))
    assert promised > 100
