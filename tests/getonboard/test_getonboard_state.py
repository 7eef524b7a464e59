"""Get on Board state bookkeeping: key, clones, memo tables, editing a state by hand (issues 15, 16)."""

from __future__ import annotations

import random

import pytest

import gamelib
from gamelib.core.play import random_playout
from gamelib.getonboard.analysis import hypothetical_turn
from gamelib.getonboard.board import completable, load_map, load_tables
from gamelib.getonboard.phases import P_LAY
from gamelib.getonboard.rules import GetOnBoardState


def mid_game(players: int = 3, seed: int = 1, steps: int = 70) -> GetOnBoardState:
    state = gamelib.make("getonboard", players=players).new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    assert isinstance(state, GetOnBoardState)
    return state


def test_key_sees_routes_and_turn_transfers() -> None:
    state = mid_game()
    other = state.clone()
    other.routes[0] = (*other.routes[0], other.routes[0][0])
    assert other.key() != state.key()
    other = state.clone()
    other.turn_transfers = ((0, 1),)
    assert other.key() != state.key()


def test_clones_share_nothing_mutable() -> None:
    rng = random.Random(3)
    for seed in range(5):
        state = mid_game(seed=seed, steps=rng.randrange(20, 90))
        if state.is_terminal():
            continue
        before = state.key()
        random_playout(state.clone(), rng)
        assert state.key() == before


@pytest.mark.parametrize("city", ["rome", "paris"])
def test_memoised_fit_table_matches_the_search(city: str) -> None:
    board, tables = load_map(city), load_tables()
    for node in range(board.num_nodes):
        for heading in (-1, 0, 1, 2, 3):
            for shape in tables.shapes:
                for step in range(shape.sticks + 1):
                    for boxes in range(6):
                        want = completable(
                            board, node, heading, shape.junctions, step, shape.sticks, boxes, None
                        )
                        assert board.fits(node, heading, shape.junctions, step, shape.sticks, boxes) == want


def test_chance_outcomes_are_copies() -> None:
    state = gamelib.make("getonboard", players=2).new_game(seed=0)
    outcomes = state.chance_outcomes()
    outcomes.clear()
    assert len(state.chance_outcomes()) == 6
    other = gamelib.make("getonboard", players=2).new_game(seed=1)
    assert len(other.chance_outcomes()) == 6


def in_a_turn(seed: int) -> GetOnBoardState:
    state = gamelib.make("getonboard", players=2).new_game(seed=seed)
    rng = random.Random(seed)
    while state.phase != P_LAY:
        state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    assert isinstance(state, GetOnBoardState)
    return state


def test_invalidate_after_editing_by_hand() -> None:
    state = in_a_turn(4)
    p = state.current_player
    before = [str(a) for a in state.legal_actions()]
    state.sheets[p] = state.sheets[p]._replace(modifications=5)
    state.invalidate()
    after = [str(a) for a in state.legal_actions()]
    assert set(after) <= set(before)
    fresh = state.clone()
    fresh.invalidate()
    assert [str(a) for a in fresh.legal_actions()] == after


def test_with_turn_is_hypothetical_turn() -> None:
    state = in_a_turn(6)
    state.apply(state.legal_actions()[0])
    p = state.current_player
    if state.phase != P_LAY:
        state = in_a_turn(6)
        p = state.current_player
    for ticket in (1, 6, 12):
        turn = state.with_turn(p, ticket)
        assert turn.current_player == p and turn.phase == P_LAY and turn.ticket == ticket
        assert turn.key() == hypothetical_turn(state, p, ticket).key()
        assert turn.legal_actions()
    with pytest.raises(ValueError):
        state.with_turn(p, 13)
    with pytest.raises(ValueError):
        state.with_turn(7, 1)


def test_every_option_says_what_it_allows() -> None:
    """Declared once (core's Literal choices and Between ranges): listed, checked on make, by hand too."""
    import pytest

    from gamelib.getonboard.options import GetOnBoardOptions

    specs = {o.name: o for o in gamelib.options("getonboard")}
    assert set(specs["city"].choices) == {"auto", "rome", "paris"}
    assert all(s.range is not None for s in specs.values() if s.type is int)
    with pytest.raises(gamelib.OptionError, match="loops"):
        gamelib.make("getonboard", options={"loops": "never"})
    with pytest.raises(ValueError, match="rounds"):
        GetOnBoardOptions(rounds=13)
