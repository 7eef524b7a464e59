"""Delanopolis on the core information protocol, and the bad-input bugs of issue 12.

What a seat is shown (``observation``, ``public_history``, ``information_state`` and its string and
tensor) must be identical for a state S and for ``S.determinize(p)``, a world p cannot tell apart
from S; that world must be a real game (it replays to itself from its record).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import pytest
from delanopolis_scenes import start, turn

import gamelib
from gamelib.delanopolis.actions import MAX_NOTATION
from gamelib.delanopolis.rules import (
    BIDDING,
    Bid,
    DelanopolisObservation,
    DelanopolisState,
    Sell,
)

OPTION_SETS = [
    {},
    {"placement": "sum", "mayor_bid": "open_first"},
    {"boost_timing": "any_roll", "chain_auctions": True, "bid_step": 5},
]


def _positions(options: dict[str, object], players: int, seed: int, count: int) -> list[DelanopolisState]:
    """Random positions of one random game (every step), most of them mid-auction."""
    rng = random.Random(seed)
    state = gamelib.make("delanopolis", players=players, options=options).new_game(seed=seed)
    assert isinstance(state, DelanopolisState)
    out = []
    while not state.is_terminal() and len(out) < count:
        if state.phase == BIDDING or rng.random() < 0.1:
            out.append(state.clone())
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return out


def _shown(state: gamelib.State, seat: int) -> tuple[object, ...]:
    return (
        state.observation(seat),
        state.public_history(seat),
        state.information_state(seat),
        state.information_state_string(seat),
        state.information_state_tensor(seat),
        state.observation_tensor(seat),
    )


def _check_world(state: DelanopolisState, seat: int, world: gamelib.State) -> None:
    assert _shown(world, seat) == _shown(state, seat)
    assert gamelib.from_record(world.to_record()) == world


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("players", [3, 5])
def test_a_seat_sees_the_same_in_every_determinized_world(options: dict[str, object], players: int) -> None:
    checked = 0
    for seed in range(3):
        for state in _positions(options, players, seed, 12):
            for seat in range(players):
                for k in range(2):
                    _check_world(state, seat, state.determinize(seat, random.Random(k)))
                    checked += 1
    assert checked > 100


def test_the_information_check_can_fail() -> None:
    state = start(players=4)
    state.apply("dice 3 4")
    state.apply("bid 40")
    state.apply("bid 20")
    # a world that keeps the true history but changes the bids: it does not replay to itself
    lazy = state.clone()
    assert isinstance(lazy, DelanopolisState)
    lazy.bids[1] = 0
    with pytest.raises(AssertionError):
        _check_world(state, 3, lazy)
    # a world sampled for seat 3 resamples seat 1's bid: seat 1 would be shown something else
    world = next(w for k in range(20) if (w := state.determinize(3, random.Random(k))).bids[1] != 40)
    _check_world(state, 3, world)
    with pytest.raises(AssertionError):
        _check_world(state, 1, world)


def test_masked_history_and_declared_capabilities() -> None:
    game = gamelib.make("delanopolis")
    assert game.info.has("observation_tensor") and game.info.hidden_masks == ("bid ?",)
    assert "history" not in {f.name for f in dataclasses.fields(DelanopolisObservation)}
    state = start()
    state.apply("dice 3 4")
    state.apply("bid 40")
    assert state.public_history(2)[-1] == "bid ?" and state.public_history(1)[-1] == "bid 40"
    assert state.public_history(None)[-1] == "bid 40"
    tensor = state.information_state_tensor(2)
    assert len(tensor) == game.information_state_tensor_size()
    for bad in (4, -1, True, "1"):
        with pytest.raises(ValueError):
            state.observation(bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            state.public_history(bad)  # type: ignore[arg-type]


def test_open_mayor_bid_is_never_masked() -> None:
    state = start(mayor_bid="open_first")
    state.apply("dice 3 4")
    state.apply("bid 100")  # the mayor, first and in the open
    state.apply("bid 40")
    assert state.public_history(2)[-2:] == ("bid 100", "bid ?")


# ---------------------------------------------------------------------------- notation
@pytest.mark.parametrize(
    "options",
    [
        {"bid_cap": 0, "bid_step": 1000, "start_vots": 10**6},
        {"bid_cap": 0, "start_vots": 10**6, "rounds": 100},
        {"mayor_bid_cap": "none", "start_vots": 10**6},
    ],
)
def test_every_legal_bid_writes_and_reads_back(options: dict[str, object]) -> None:
    game = gamelib.make("delanopolis", players=6, options={"placement": "sum", **options})
    assert game.max_bid_bound() <= max(MAX_NOTATION, game.max_bid_bound())
    state = start(players=6, **options)
    state.apply("dice 3 4")
    while state.phase == BIDDING:
        legal = state.legal_actions()
        for action in (legal[0], legal[-1]):
            assert game.parse_action(str(action)) == action
        state.apply(legal[-1])
    assert state.auctions[-1].bids[0] == 5 * 10**6  # the mayor's whole treasury, in notation


def test_start_vots_is_bounded() -> None:
    with pytest.raises(gamelib.OptionError, match="start_vots"):
        gamelib.make("delanopolis", options={"start_vots": 10**6 + 1})


@pytest.mark.parametrize(
    "text",
    [
        "bid +40",
        "bid 4_0",
        "bid \uff14\uff10",
        "bid 040",
        "sell \u0663",
        "dice 3 \uff13",
        "mayor 01",
        "bid -10",
    ],
)
def test_notation_numbers_are_plain_ascii_digits(text: str) -> None:
    state = start()
    state.apply("dice 3 4")
    with pytest.raises(gamelib.IllegalAction, match="notation"):
        state.apply(text)


def test_a_huge_bid_reports_the_cap_in_force() -> None:
    state = start()
    state.apply("dice 3 4")  # player 1 bids first
    with pytest.raises(gamelib.IllegalAction, match=r"bid-cap.* 60 for Player 2"):  # seat 1
        state.apply("bid 10000001")
    for _ in range(3):
        state.apply("bid 0")  # players 1, 2, 3; then the mayor
    with pytest.raises(gamelib.IllegalAction, match=r"bid-cap.* 180 for Player 1"):
        state.apply("bid 10000001")
    with pytest.raises(gamelib.IllegalAction, match=r"bid-cap.* 180"):
        state.apply("bid " + "9" * 18)
    loose = start(bid_cap=0)
    loose.apply("dice 3 4")
    with pytest.raises(gamelib.IllegalAction, match=r"bid-funds.* 1200 VOT'S"):
        loose.apply("bid 10000001")


# ---------------------------------------------------------------------------- raw actions
def _refused(state: DelanopolisState, action: object, rule: str) -> gamelib.IllegalAction:
    before, history = state.key(), list(state.history)
    with pytest.raises(gamelib.IllegalAction) as info:
        state.apply(action)  # type: ignore[arg-type]
    assert info.value.rule == rule, str(info.value)
    assert state.key() == before and state.history == history
    return info.value


def _unbuildable(build: Callable[[], object]) -> gamelib.IllegalAction:
    """Actions out of their declared range are refused when built (rule ``notation``)."""
    with pytest.raises(gamelib.IllegalAction) as info:
        build()
    assert info.value.rule == "notation", str(info.value)
    return info.value


def test_raw_actions_out_of_range_are_illegal_not_crashes() -> None:
    state = start(bid_step=10)
    turn(state, "3 4", {1: 40})
    for terrain in (12, -1, 99):
        assert "terrain" in str(_unbuildable(lambda t=terrain: Sell(t)))
    state.apply("dice 1 2")
    assert state.phase == BIDDING
    error = _unbuildable(lambda: Bid(-10))
    assert "VOT'S" not in str(error) and "has only" not in str(error)
    _unbuildable(lambda: Bid(True))
    _refused(state, Bid(15), "bid-step")
    _refused(state, Bid(70), "bid-cap")


def test_per_seat_queries_refuse_seats_out_of_range() -> None:
    state = start()
    for method in (
        state.wealth,
        state.purse,
        state.terrains_of,
        state.bid_cap,
        state.max_bid,
        state.bid_amounts,
        state.sellable,
        state.bid_is_public,
        state.observation_tensor,
        state.information_state,
    ):
        for bad in (4, 7, -1, True, None, "0"):
            with pytest.raises(ValueError, match="seat"):
                method(bad)  # type: ignore[operator]
    with pytest.raises(ValueError, match="seat"):
        state.determinize(7, random.Random(0))
    with pytest.raises(ValueError, match="seat"):
        state.hidden_bidders(7)
    with pytest.raises(ValueError, match="terrain"):
        state.rent(12)


def test_a_resale_the_mayor_cannot_pay_names_its_rule() -> None:
    state = start()
    turn(state, "3 4", {1: 40})
    for dice in ("1 2", "1 2"):
        turn(state, dice)
    state.coms[0] = 30  # the coffers are nearly empty: player 1 has nothing to decide
    turn(state, "1 2")
    assert state.roller == 1 and state.is_chance_node()  # the dice come at once
    _refused(state, Sell(6), "resale-mayor-funds")
    _refused(state, Sell(2), "resale-own-terrain")


def test_bid_caches_stay_bounded_in_uncapped_games() -> None:
    """Issue 22: memory does not grow with play.  Without a cap each purse met is a bid range."""
    from gamelib.agents import RandomAgent
    from gamelib.delanopolis import actions

    game = gamelib.make("delanopolis", players=3, options={"bid_cap": 0, "bid_step": 1, "rounds": 3})
    for seed in range(40):
        gamelib.play(game, [RandomAgent()] * 3, seed=seed)
    assert len(actions._BID_RANGES) <= actions.RANGES_KEPT and len(actions._BID_LISTS) <= actions.RANGES_KEPT
