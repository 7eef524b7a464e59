"""Get on Board and the core information protocol; hand-built actions and misleading messages (issue 12)."""

from __future__ import annotations

import random

import pytest

import gamelib
from gamelib import IllegalAction
from gamelib.getonboard.actions import (
    Bonus,
    ChooseStart,
    DealPersonal,
    DealSheet,
    DealStart,
    DrawObjective,
    EndTurn,
    Go,
    RevealTicket,
)
from gamelib.getonboard.rules import GetOnBoardObservation, GetOnBoardState

CONFIGS = [
    (1, "rome"),
    (2, "rome"),
    (3, "rome"),
    (4, "paris"),
    (5, "paris"),
    (3, "paris"),
    (5, "rome"),
]


def walk(state: GetOnBoardState, rng: random.Random, steps: int) -> GetOnBoardState:
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


def at_start_choice() -> GetOnBoardState:
    state = gamelib.make("getonboard", players=2).new_game(seed=0)
    for a in ["objective 1", "objective 2", "sheet 1", "sheet 2", "personal 1", "personal 2"]:
        state.apply(a)
    for t in (1, 2, 3, 4):
        state.apply(f"deal {t}")
    assert isinstance(state, GetOnBoardState)
    return state


# ------------------------------------------------------------------------------ the protocol
def test_capabilities_are_declared() -> None:
    info = gamelib.make("getonboard").info
    assert info.has("observation_tensor") and info.has("board_clicks") and not info.has("belief")
    assert info.perfect_information and info.hidden_masks == ()


@pytest.mark.parametrize("seat", [5, 3, -1, True, False, 1.0, "0"])
def test_observation_of_a_seat_that_does_not_exist(seat: object) -> None:
    state = gamelib.make("getonboard", players=3).new_game(seed=0)
    with pytest.raises(ValueError, match="seat"):
        state.observation(seat)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seat"):
        state.observation_tensor(seat)  # type: ignore[arg-type]


def test_observation_is_the_whole_table_for_every_seat() -> None:
    game = gamelib.make("getonboard", players=3)
    state = walk(game.new_game(seed=3), random.Random(3), 60)
    omniscient = state.observation(None)
    assert isinstance(omniscient, GetOnBoardObservation) and omniscient.player is None
    assert not hasattr(omniscient, "history")  # the current view only: history is core's
    for p in range(3):
        seen = state.observation(p)
        assert seen.player == p
        assert seen.table == omniscient.table == state.key()
        assert seen.routes == omniscient.routes and seen.sheets == tuple(state.sheets)
        assert seen.personal == state.personal and seen.phase == state.phase
        assert state.public_history(p) == tuple(str(a) for a in state.history)
        assert len(state.observation_tensor(p)) == len(state.observation_tensor(0))
    assert omniscient.routes[0][0] == state.routes[0][0]


def test_observation_reads_every_declared_field_by_name_and_nothing_else() -> None:
    state = walk(gamelib.make("getonboard", players=2).new_game(seed=1), random.Random(1), 40)
    seen = state.observation(1)
    for name in GetOnBoardState.fields.key:
        value = getattr(state, name)
        assert getattr(seen, name) == (tuple(value) if isinstance(value, list) else value)
    for name in ("lines", "table_", "_player", "history", "__deepcopy__"):
        with pytest.raises(AttributeError):
            getattr(seen, name)


def test_determinize_is_the_state_itself_and_replays() -> None:
    game = gamelib.make("getonboard", players=2)
    rng = random.Random(5)
    for seed in range(4):
        state = walk(game.new_game(seed=seed), rng, rng.randrange(10, 80))
        for p in range(2):
            world = state.determinize(p, random.Random(seed))
            assert world == state and world is not state
            assert gamelib.from_record(world.to_record()) == world
            assert world.information_state(p) == state.information_state(p)


# ------------------------------------------------------------------------------ hand-built actions
@pytest.mark.parametrize(
    "build",
    [
        lambda: Go(7),
        lambda: Go(-1),  # never read as W
        lambda: Go(4),
        lambda: Go(True),  # type: ignore[arg-type]
        lambda: Go("N"),  # type: ignore[arg-type]
        lambda: Bonus(9),
        lambda: Bonus(-4),
        lambda: DrawObjective(0),
        lambda: DrawObjective(7),
        lambda: DealSheet(6),
        lambda: DealPersonal(11),
        lambda: DealStart(13),
        lambda: ChooseStart(0),
        lambda: RevealTicket(13),
        lambda: RevealTicket(1.0),  # type: ignore[arg-type]
    ],
)
def test_hand_built_actions_out_of_range_are_illegal(build) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalAction) as err:
        build()
    assert err.value.rule == "notation"


def test_apply_and_str_of_out_of_range_actions_raise_illegal_action() -> None:
    state = gamelib.make("getonboard", players=2).new_game(seed=0)
    before = state.key()
    with pytest.raises(IllegalAction, match="direction"):
        state.apply(Go(7))
    with pytest.raises(IllegalAction, match="direction"):
        state.apply(Bonus(9))
    with pytest.raises(IllegalAction, match="direction"):
        str(Bonus(9))
    assert state.key() == before and state.history == []
    # in range: each field names the right intersection, W is 3 and only 3
    assert str(Go(3)) == "go W" and str(Bonus(0)) == "bonus N" and str(EndTurn()) == "end"


def test_start_ticket_missing_from_the_map() -> None:
    state = gamelib.make("getonboard", players=2).new_game(seed=0)  # Rome: starts 1-6
    for a in ["objective 1", "objective 2", "sheet 1", "sheet 2", "personal 1", "personal 2"]:
        state.apply(a)
    with pytest.raises(IllegalAction, match="start tickets 1-6, not 9"):
        state.apply(DealStart(9))
    with pytest.raises(IllegalAction, match="start number must be between 1 and 6"):
        state.apply("deal 9")


# ------------------------------------------------------------------------------ messages
@pytest.mark.parametrize("action", ["go N", "go W", "bonus N", "bonus E", "end"])
def test_sticks_while_choosing_a_start_say_so(action: str) -> None:
    state = at_start_choice()
    before = state.key()
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert err.value.rule == "turn-order"
    message = str(err.value)
    assert "choosing a start" in message and "start 1, start 2" in message
    assert "ticket's sticks" not in message and "are laid" not in message
    assert state.key() == before


# ------------------------------------------------------------------------------ notation
@pytest.mark.parametrize(("players", "city"), CONFIGS)
def test_every_legal_action_writes_and_reads_back(players: int, city: str) -> None:
    game = gamelib.make("getonboard", players=players, city=city, options={"free_city": True})
    for action in game.action_universe():
        assert game.parse_action(str(action)) == action
    rng = random.Random(players)
    for seed in range(3):
        state = game.new_game(seed=seed)
        while not state.is_terminal():
            actions = state.legal_actions()
            for action in actions:
                assert game.parse_action(str(action)) == action, action
            state.apply(rng.choice(actions))
        assert gamelib.from_record(state.to_record()) == state
