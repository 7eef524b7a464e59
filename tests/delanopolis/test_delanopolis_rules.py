"""Delanopolis rule scenarios: every rule sentence and option, each with a legal and an illegal case.

Scenarios use placement "sum" (the terrain is the dice sum) unless they test the placement, so
``dice 3 4`` is terrain 7 and ``dice 1 2`` terrain 3.  With 4 players and the mayor 0, the
rollers go 1, 2, 3, 0.
"""

from __future__ import annotations

import pytest
from delanopolis_scenes import bids, conserved, start, turn

import gamelib
from gamelib.core.checks import refusal
from gamelib.delanopolis.board import REFUGE_BASE, content
from gamelib.delanopolis.phases import BIDDING, BOOST_WINDOW, OVER, PARK_CHOICE, PRE_ROLL, ROLL_DICE
from gamelib.delanopolis.rules import DelanopolisState

T3, T7 = 2, 6  # 0-based codes of terrains 3 and 7


def rule_of(state: DelanopolisState, notation: str) -> str:
    """The rule named by the error ``notation`` raises; the state must not change."""
    return refusal(state, notation).rule


# ---------------------------------------------------------------------------- setup
def test_lot_draws_the_mayor_uniformly() -> None:
    state = gamelib.make("delanopolis", players=5).new_game(seed=0)
    outcomes = state.chance_outcomes()
    assert [str(a) for a, _ in outcomes] == [f"mayor {p}" for p in range(5)]
    assert all(abs(p - 0.2) < 1e-12 for _, p in outcomes)
    assert rule_of(state, "mayor 5") == "notation"  # there is no player 5
    assert rule_of(state, "bid 10") == "chance-node"
    state.apply("mayor 3")
    assert state.mayor == 3


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_purses_at_start(players: int) -> None:
    state = start(players=players, mayor=1)
    for p in range(players):
        if p == 1:
            assert (state.vots[p], state.coms[p]) == (0, 1200 * (players - 1))
        else:
            assert (state.vots[p], state.coms[p]) == (1200, 0)
    assert conserved(state)


def test_option_mayor_starts_with_vots_and_start_vots() -> None:
    state = start(mayor_starts_with_vots=True, start_vots=1000)
    assert state.vots == [1000, 1000, 1000, 1000]
    assert state.coms == [3000, 0, 0, 0]
    assert conserved(state)
    with pytest.raises(gamelib.OptionError, match="start_vots"):
        start(start_vots=-1)


def test_player_count_is_3_to_6() -> None:
    for bad in (2, 7):
        with pytest.raises(gamelib.OptionError, match="players"):
            gamelib.make("delanopolis", players=bad)


# ---------------------------------------------------------------------------- turn order
def test_rollers_take_turns_from_the_mayors_left() -> None:
    state = start()
    seen = []
    for _ in range(5):
        seen.append(state.roller)
        turn(state, "1 2")  # terrain 3, everyone bids 0: no sale
    assert seen == [1, 2, 3, 0, 1]
    assert rule_of(state, "roll") == "chance-node"  # the roller has nothing to decide: dice now


def test_option_mayor_rolls() -> None:
    state = start(mayor_rolls=False)
    seen = []
    for _ in range(4):
        seen.append(state.roller)
        turn(state, "1 2")
    assert seen == [1, 2, 3, 1]
    with pytest.raises(gamelib.OptionError):
        start(mayor_rolls="no")


# ---------------------------------------------------------------------------- placement
def test_placement_sum_is_the_default_the_number_obtained() -> None:
    """« pour se placer, en fonction du nombre obtenu, sur le terrain concerné, numéroté de 1 à 12 »"""
    game = gamelib.make("delanopolis")
    assert (game.options.placement, game.options.snake_eyes_is_one) == ("sum", False)
    state = game.new_game(seed=0)
    state.apply("mayor 0")
    state.apply("dice 3 4")
    assert state.landed == T7 and state.phase == BIDDING  # 7: terrain 7
    state = start()
    state.apply("dice 1 1")  # the number obtained is 2: terrain 2
    assert state.landed == 1 and 0 not in state.game.reachable
    assert rule_of(state, "dice 7 1") == "notation"


def test_option_snake_eyes_is_one() -> None:
    state = start(snake_eyes_is_one=True)
    state.apply("dice 1 1")
    assert state.landed == 0  # a double one reaches terrain 1, and terrain 2 is never rolled
    assert 1 not in state.game.reachable
    with pytest.raises(gamelib.OptionError):
        start(snake_eyes_is_one=1)


def test_placement_twelve_faces() -> None:
    state = start(placement="twelve_faces")
    state.apply("dice 3 5")  # second die 4-6: the upper half
    assert state.landed == 8
    state = start(placement="twelve_faces")
    state.apply("dice 3 2")
    assert state.landed == 2
    with pytest.raises(gamelib.OptionError, match="placement"):
        start(placement="teleport")


def test_placement_ring_walks_the_loop() -> None:
    state = start(placement="ring")
    assert state.game.ring[:5] == (0, 1, 2, REFUGE_BASE, 3)
    state.apply("dice 3 4")  # 7 steps from the start: T1 T2 T3 R1 T4 T5 T6
    assert state.landed == 5 and state.ring_pos[1] == 6
    bids(state)
    turn(state, "2 2")  # roller 2: four steps, the first refuge
    assert state.where[2] == REFUGE_BASE
    # roller 3 then moves on from where it is: two rolls of 6 = 12 steps
    turn(state, "3 3")
    assert state.ring_pos[3] == 5


def test_option_refuges_on_the_ring() -> None:
    state = start(placement="ring", refuges=0)
    assert len(state.game.ring) == 12
    state.apply("dice 2 2")
    assert state.landed == 3  # no refuge: the fourth square is terrain 4
    with pytest.raises(gamelib.OptionError, match="refuges"):
        start(placement="ring", refuges=5)


# ---------------------------------------------------------------------------- sealed bids
def test_bids_in_seat_order_from_the_roller_then_revealed() -> None:
    state = start()
    state.apply("dice 3 4")
    assert state.bid_order == (1, 2, 3, 0)
    state.apply("bid 40")
    state.apply("bid 20")
    view = state.observation(3)
    assert view.bids[1] is None and view.bids[2] is None  # sealed
    assert state.public_history(3)[-2:] == ("bid ?", "bid ?")
    assert state.observation(1).bids[1] == 40 and state.observation(1).bids[2] is None
    assert state.observation(None).bids[1] == 40  # the omniscient view
    state.apply("bid 0")
    state.apply("bid 50")
    last = state.auctions[-1]
    assert last.bids == (50, 40, 20, 0) and last.winner == 1
    assert state.public_history(3)[-4:] == ("bid 40", "bid 20", "bid 0", "bid 50")


def test_bid_cap_step_and_funds() -> None:
    state = start()
    state.apply("dice 3 4")
    assert rule_of(state, "bid 61") == "bid-cap"
    assert [str(a) for a in state.legal_actions()] == [f"bid {x}" for x in range(61)]  # any amount
    state.apply("bid 15")
    tens = start(bid_step=10)  # rules versions 1-3
    tens.apply("dice 3 4")
    assert rule_of(tens, "bid 70") == "bid-cap"
    assert rule_of(tens, "bid 15") == "bid-step"
    assert [str(a) for a in tens.legal_actions()] == [f"bid {x}" for x in range(0, 70, 10)]
    tens.apply("bid 60")
    poor = start(start_vots=30)
    poor.apply("dice 3 4")
    assert rule_of(poor, "bid 40") == "bid-funds"
    poor.apply("bid 30")


def test_option_bid_cap_and_step() -> None:
    state = start(bid_cap=0, bid_step=1)
    state.apply("dice 3 4")
    state.apply("bid 1200")  # no cap: the whole purse
    state.apply("bid 15")
    assert rule_of(state, "bid 1201") == "bid-funds"
    with pytest.raises(gamelib.OptionError, match="bid_cap"):
        start(bid_cap=65, bid_step=10)  # not a multiple of the step
    with pytest.raises(gamelib.OptionError, match="bid_step"):
        start(bid_step=0)


@pytest.mark.parametrize(("rule", "cap"), [("per_challenger", 180), ("same", 60), ("none", 3600)])
def test_option_mayor_bid_cap(rule: str, cap: int) -> None:
    state = start(mayor_bid_cap=rule)
    state.apply("dice 3 4")
    bids_before_mayor = 3
    for _ in range(bids_before_mayor):
        state.apply("bid 0")
    assert state.current_player == 0 and state.max_bid(0) == cap
    if rule != "none":
        assert rule_of(state, f"bid {cap + 10}") == "bid-cap"
    else:
        assert rule_of(state, f"bid {cap + 10}") == "bid-funds"
    state.apply(f"bid {cap}")
    with pytest.raises(gamelib.OptionError, match="mayor_bid_cap"):
        start(mayor_bid_cap="unlimited")


def test_option_mayor_bid_open_first() -> None:
    state = start(mayor_bid="open_first")
    state.apply("dice 3 4")
    assert state.bid_order == (0, 1, 2, 3) and state.current_player == 0
    state.apply("bid 100")
    assert state.observation(2).bids[0] == 100  # the mayor's COM'S are on the table
    state.apply("bid 60")
    assert state.observation(2).bids[1] is None  # challengers still bid sealed
    with pytest.raises(gamelib.OptionError, match="mayor_bid"):
        start(mayor_bid="shouted")


def test_bid_only_during_an_auction() -> None:
    state = start(placement="ring")
    state.apply("dice 2 2")  # roller 1 on a refuge: no auction; roller 2 to roll
    assert state.phase == ROLL_DICE
    assert rule_of(state, "bid 10") == "chance-node"
    state = start()
    turn(state, "3 4", {1: 40})  # player 1 owns terrain 7
    for dice in ("1 2", "1 2", "1 2"):
        turn(state, dice)
    assert state.phase == PRE_ROLL and state.roller == 1  # may resell terrain 7
    assert rule_of(state, "bid 10") == "bid-when-auction"


# ---------------------------------------------------------------------------- who takes the terrain
def test_highest_vots_bid_takes_the_terrain_and_the_points() -> None:
    state = start()
    turn(state, "3 4", {1: 40, 2: 20, 3: 0, 0: 50})  # challengers 60 > mayor 50
    assert state.owner[T7] == 1 and state.price[T7] == 40 and state.aside[T7] == 40
    assert state.vots[1] == 1200 - 40 + 20 and state.coms[1] == 50
    assert state.vots[2] == 1180 and state.coms[0] == 3550
    assert conserved(state)
    event = state.events[-1]  # « On lit aussitôt avec intérêt le chapitre consacré audit terrain »
    assert event.kind == "chapter" and event.subject == T7 and event.player == 1
    assert event.chapter() == content().terrains[T7].chapter


def test_option_challenger_pot_refund() -> None:
    state = start(challenger_pot="refund")
    turn(state, "3 4", {1: 40, 2: 20, 3: 0, 0: 50})
    assert state.owner[T7] == 1
    assert state.vots[1:] == [1160, 1200, 1200] and state.coms == [3600, 0, 0, 0]
    assert conserved(state)
    with pytest.raises(gamelib.OptionError, match="challenger_pot"):
        start(challenger_pot="share")


def test_mayor_beats_the_challengers_total_and_takes_every_bid() -> None:
    state = start()
    turn(state, "3 4", {1: 10, 2: 10, 3: 10, 0: 40})  # 40 COM'S > 30 VOT'S
    assert state.owner[T7] == 0 and state.price[T7] == 0  # he paid nothing (mayor_price="zero")
    assert state.vots == [30, 1190, 1190, 1190] and state.coms[0] == 3600
    assert conserved(state)
    # and loses when he bids less than the total
    state = start()
    turn(state, "3 4", {1: 10, 2: 10, 3: 10, 0: 20})
    assert state.owner[T7] == 1


def test_option_mayor_price() -> None:
    state = start()  # "zero": the mayor kept every bid, his own included
    turn(state, "3 4", {0: 40})
    assert state.owner[T7] == 0 and state.price[T7] == 0 and state.rent(T7) == 0
    turn(state, "3 4")  # player 2 lands on it: a quarter of nothing
    assert state.vots[2] == 1200 and state.events[-1].kind == "rent" and state.events[-1].amount == 0
    bid = start(mayor_price="bid")  # rules versions 1-3: his COM'S bid is the price
    turn(bid, "3 4", {0: 40})
    assert bid.price[T7] == 40 and bid.rent(T7) == 10
    turn(bid, "3 4")
    assert bid.vots[2] == 1190 and bid.vots[0] == 10  # the rent, in the VOT'S it left in
    with pytest.raises(gamelib.OptionError, match="mayor_price"):
        start(mayor_price="pot")


@pytest.mark.parametrize(("rule", "owner"), [("seat_order", 1), ("no_sale", -1)])
def test_option_tie_break(rule: str, owner: int) -> None:
    state = start(tie_break=rule)
    turn(state, "3 4", {1: 30, 2: 30})
    assert state.owner[T7] == owner
    assert state.auctions[-1].kind == ("challenger" if owner >= 0 else "none")
    assert conserved(state)
    with pytest.raises(gamelib.OptionError, match="tie_break"):
        start(tie_break="coin")


@pytest.mark.parametrize(("rule", "owner"), [("challengers", 1), ("mayor", 0), ("no_sale", -1)])
def test_option_mayor_tie(rule: str, owner: int) -> None:
    state = start(mayor_tie=rule)
    turn(state, "3 4", {1: 30, 0: 30})
    assert state.owner[T7] == owner
    assert conserved(state)
    with pytest.raises(gamelib.OptionError, match="mayor_tie"):
        start(mayor_tie="duel")


@pytest.mark.parametrize(("rule", "owner"), [("no_sale", -1), ("roller_free", 1)])
def test_option_all_zero(rule: str, owner: int) -> None:
    state = start(all_zero=rule)
    turn(state, "3 4")
    assert state.owner[T7] == owner and state.price[T7] == 0
    with pytest.raises(gamelib.OptionError, match="all_zero"):
        start(all_zero="mayor")


def test_option_winner_rolls_next() -> None:
    state = start(winner_rolls_next=True)
    turn(state, "3 4", {3: 20})  # player 3 wins: « prend la main »
    assert state.roller == 3
    turn(state, "1 2")
    assert state.roller == 0  # then the order goes on from him
    plain = start()
    turn(plain, "3 4", {3: 20})
    assert plain.roller == 2
    with pytest.raises(gamelib.OptionError):
        start(winner_rolls_next="yes")


def test_option_chain_auctions() -> None:
    state = start(chain_auctions=True)
    state.apply("dice 3 4")
    for amount in (20, 0, 0, 0):
        state.apply(f"bid {amount}")
    assert state.owner[T7] == 1
    assert state.phase == BIDDING and state.landed == 7  # « on passe au terrain suivant »: 8
    bids(state, {2: 20})
    assert state.owner[7] == 2 and state.roller == 2  # once per roll, then the next roller
    assert state.phase == PRE_ROLL and state.landed == -1  # (player 2 may resell terrain 8)
    plain = start()
    turn(plain, "3 4", {1: 20})
    assert plain.phase == ROLL_DICE and plain.roller == 2


# ---------------------------------------------------------------------------- occupied terrains
def test_rent_is_a_quarter_of_the_price_paid() -> None:
    state = start()
    turn(state, "3 4", {1: 40})
    turn(state, "3 4")  # roller 2 lands on player 1's terrain 7
    assert state.vots[2] == 1190 and state.vots[1] == 1170
    assert state.events[-1].kind == "rent" and state.events[-1].amount == 10
    turn(state, "1 2")
    turn(state, "4 3")  # the mayor pays in COM'S
    assert state.coms[0] == 3590 and state.coms[1] == 10
    assert conserved(state)


def test_own_terrain_costs_nothing() -> None:
    state = start()
    turn(state, "3 4", {1: 40})
    for dice in ("1 2", "1 2", "1 2"):
        turn(state, dice)
    wealth = state.wealth(1)
    turn(state, "5 2")  # player 1 on his own terrain 7
    assert state.wealth(1) == wealth and state.roller == 2


@pytest.mark.parametrize(("rule", "rent"), [("down", 7), ("up", 8)])
def test_option_rent_rounding(rule: str, rent: int) -> None:
    state = start(rent_rounding=rule)
    turn(state, "3 4", {1: 30})
    turn(state, "3 4")
    assert state.vots[2] == 1200 - rent
    with pytest.raises(gamelib.OptionError, match="rent_rounding"):
        start(rent_rounding="nearest")


def _twice_occupied(**options: object) -> DelanopolisState:
    """Player 1 owns terrain 7; player 2 lands on it on two rolls in a row."""
    state = start(**options)  # type: ignore[arg-type]
    turn(state, "3 4", {1: 40})
    turn(state, "3 4")  # roller 2 pays
    for dice in ("1 2", "1 2", "1 2"):  # rollers 3, 0, 1
        turn(state, dice)
    state.apply("dice 3 4")  # roller 2 again on an occupied terrain
    return state


def test_second_occupied_landing_parks_and_wins_an_atout() -> None:
    state = _twice_occupied()
    assert state.phase == PARK_CHOICE and state.current_player == 2
    assert rule_of(state, "bid 0") == "bid-when-auction"
    vots = state.vots[2]
    state.apply("park")
    assert state.vots[2] == vots and state.tokens[2] == 1  # « sans payer », « un atout »
    assert [e.kind for e in state.events[-2:]] == ["park", "atout"]
    assert state.events[-1].chapter().startswith("Atout")
    for dice in ("1 2", "1 2", "1 2"):  # rollers 3, 0, 1
        turn(state, dice)
    assert state.roller == 3  # « stationner un tour »: player 2's roll is skipped
    assert any(e.kind == "skip" and e.player == 2 for e in state.events)


def test_pay_instead_of_parking() -> None:
    state = _twice_occupied()
    state.apply("pay")
    assert state.vots[2] == 1180 and state.tokens[2] == 0
    assert state.prev_occupied[2]
    state.apply("dice 1 2")  # roller 3 on a free terrain: an auction, not a choice to park
    assert rule_of(state, "park") == "park-twice-occupied"


def test_option_park_skips_turn() -> None:
    state = _twice_occupied(park_skips_turn=False)
    state.apply("park")
    for dice in ("1 2", "1 2", "1 2"):
        turn(state, dice)
    assert state.roller == 2 and state.phase == PRE_ROLL  # rolls again, with an atout to play
    with pytest.raises(gamelib.OptionError):
        start(park_skips_turn=0)


def test_mayor_landing_twice_gets_a_joker() -> None:
    state = start()
    turn(state, "3 4", {1: 40})
    for dice in ("1 2", "1 2"):  # rollers 2, 3
        turn(state, dice)
    turn(state, "3 4")  # the mayor pays rent
    for dice in ("1 2", "1 2", "1 2"):  # rollers 1, 2, 3 (1 must roll first: he may resell)
        turn(state, dice)
    state.apply("dice 3 4")
    state.apply("park")
    assert state.tokens[0] == 1 and state.events[-1].kind == "joker"
    assert state.events[-1].chapter().startswith("Joker")


@pytest.mark.parametrize(("rule", "jokers"), [("mayor_rolls", 0), ("every_atout", 1)])
def test_option_joker_when(rule: str, jokers: int) -> None:
    state = _twice_occupied(joker_when=rule)
    state.apply("park")
    assert state.tokens[2] == 1 and state.tokens[0] == jokers
    with pytest.raises(gamelib.OptionError, match="joker_when"):
        start(joker_when="always")


# ---------------------------------------------------------------------------- atouts and jokers
def _with_tokens(tokens: dict[int, int], **options: object) -> DelanopolisState:
    options.setdefault("placement", "sum")
    state = gamelib.make("delanopolis", players=4, options=options).new_game(seed=0)
    assert isinstance(state, DelanopolisState)
    for p, k in tokens.items():
        state.tokens[p] = k
    state.apply("mayor 0")
    return state


def test_atout_doubles_the_bid_at_the_moment_of_rolling() -> None:
    state = _with_tokens({1: 1})
    assert state.phase == PRE_ROLL and {str(a) for a in state.legal_actions()} == {"boost", "roll"}
    state.apply("boost")
    assert state.tokens[1] == 0 and state.boosted[1] and state.phase == ROLL_DICE
    state.apply("dice 3 4")
    bids(state, {1: 30, 2: 50})  # 30 counts 60 > 50
    assert state.owner[T7] == 1 and state.price[T7] == 30  # the price is what was paid
    assert state.auctions[-1].values()[1] == 60
    assert conserved(state)


def test_boost_needs_a_token_once_per_roll_and_only_before_the_dice() -> None:
    state = _with_tokens({1: 2})
    state.apply("boost")
    assert state.phase == ROLL_DICE  # nothing else to decide: the dice are thrown
    assert rule_of(state, "boost") == "chance-node"
    state = _with_tokens({1: 2})
    turn(state, "3 4", {1: 40})  # keeps both atouts, owns terrain 7
    for dice in ("1 2", "1 2", "1 2"):
        turn(state, dice)
    state.apply("boost")
    assert state.phase == PRE_ROLL  # may still resell
    assert rule_of(state, "boost") == "one-boost-per-roll"
    state.apply("roll")
    state.apply("dice 1 2")
    assert rule_of(state, "boost") == "boost-at-roll"
    plain = _with_tokens({}, tie_break="no_sale")
    turn(plain, "3 4", {1: 40})
    for dice in ("1 2", "1 2", "1 2"):
        turn(plain, dice)
    assert rule_of(plain, "boost") == "boost-needs-token"


def test_joker_doubles_the_mayors_bid() -> None:
    state = _with_tokens({0: 1})
    for dice in ("1 2", "1 2", "1 2"):
        turn(state, dice)
    assert state.roller == 0 and state.phase == PRE_ROLL
    state.apply("boost")
    state.apply("dice 3 4")
    bids(state, {1: 30, 2: 30, 0: 40})  # 80 > 60
    assert state.owner[T7] == 0


@pytest.mark.parametrize("timing", ["own_roll", "any_roll"])
def test_option_boost_timing(timing: str) -> None:
    state = _with_tokens({2: 1}, boost_timing=timing)
    assert state.roller == 1
    if timing == "own_roll":
        assert state.phase == ROLL_DICE
        assert rule_of(state, "keep") == "chance-node"
        return
    assert state.phase == BOOST_WINDOW and state.current_player == 2
    state.apply("boost")
    state.apply("dice 3 4")
    bids(state, {1: 50, 2: 30})  # player 2's 30 counts 60
    assert state.owner[T7] == 2
    with pytest.raises(gamelib.OptionError, match="boost_timing"):
        start(boost_timing="whenever")


@pytest.mark.parametrize(("kept", "left"), [(False, 0), (True, 1)])
def test_option_boost_kept_if_no_auction(kept: bool, left: int) -> None:
    state = _with_tokens({1: 1}, boost_kept_if_no_auction=kept, refuge_on_double=True)
    state.apply("boost")
    state.apply("dice 2 2")  # a refuge: nothing to bid on
    assert state.tokens[1] == left


# ---------------------------------------------------------------------------- resale
def test_resale_to_the_mayor_at_the_purchase_price() -> None:
    state = start()
    turn(state, "3 4", {1: 40})
    for dice in ("1 2", "1 2", "1 2"):
        turn(state, dice)
    assert state.phase == PRE_ROLL and state.roller == 1
    assert rule_of(state, "sell 3") == "resale-own-terrain"
    state.apply("sell 7")
    assert state.owner[T7] == 0 and state.coms[0] == 3560 and state.coms[1] == 40
    assert state.aside[T7] == 40 and state.price[T7] == 40
    assert state.phase == ROLL_DICE  # nothing left to decide: the dice
    assert conserved(state)
    assert rule_of(state, "sell 7") == "resale-own-terrain"  # the mayor's now, not "chance-node"
    state.apply("dice 1 2")
    assert rule_of(state, "sell 7") == "resale-when"  # an auction: no resale (option resale_when)


def test_resale_needs_the_mayors_funds() -> None:
    state = _with_tokens({1: 1})
    state.apply("roll")
    state.apply("dice 3 4")
    bids(state, {1: 40})
    for dice in ("1 2", "1 2", "1 2"):
        turn(state, dice)
    assert state.phase == PRE_ROLL
    state.coms[0] = 30  # the coffers are nearly empty
    state.invalidate()
    assert rule_of(state, "sell 7") == "resale-mayor-funds"


def test_the_mayor_does_not_resell() -> None:
    state = _with_tokens({0: 1})
    for dice in ("1 2", "1 2", "1 2"):
        turn(state, dice)
    assert state.roller == 0 and state.phase == PRE_ROLL
    assert rule_of(state, "sell 3") == "resale-to-mayor"


def test_option_resale_payment_aside_back() -> None:
    state = start(resale_payment="aside_back")
    turn(state, "3 4", {1: 40})
    for dice in ("1 2", "1 2", "1 2"):
        turn(state, dice)
    state.apply("sell 7")
    assert state.vots[1] == 1200 and state.aside[T7] == 0 and state.coms[0] == 3600
    assert state.owner[T7] == 0
    assert conserved(state)
    with pytest.raises(gamelib.OptionError, match="resale_payment"):
        start(resale_payment="barter")


# ---------------------------------------------------------------------------- refuges
@pytest.mark.parametrize(("rule", "coms", "vots"), [("both", 200, 1220), ("by_role", 0, 1220)])
def test_refuge_bonus(rule: str, coms: int, vots: int) -> None:
    state = start(refuge_on_double=True, refuge_bonus=rule)
    state.apply("dice 2 2")
    assert state.where[1] == REFUGE_BASE + 1
    assert (state.coms[1], state.vots[1]) == (coms, vots)
    assert state.created == coms + vots - 1200 and conserved(state)
    assert state.events[-1].kind == "refuge" and state.events[-1].chapter().startswith("Refuge")
    assert state.roller == 2  # « passer son tour »


def test_refuge_bonus_by_role_for_the_mayor() -> None:
    state = start(refuge_on_double=True, refuge_bonus="by_role")
    for dice in ("1 2", "1 2", "1 2"):
        turn(state, dice)
    state.apply("dice 5 5")
    assert state.coms[0] == 3800 and state.vots[0] == 0
    with pytest.raises(gamelib.OptionError, match="refuge_bonus"):
        start(refuge_bonus="nobody")


def test_option_refuge_on_double() -> None:
    state = start(refuge_on_double=False)
    state.apply("dice 2 2")
    assert state.phase == BIDDING and state.landed == 3
    with pytest.raises(gamelib.OptionError):
        start(refuge_on_double="sometimes")


def test_option_refuge_skips_next_turn() -> None:
    state = start(placement="ring", refuge_skips_next_turn=True)
    state.apply("dice 2 2")  # roller 1 on the first refuge
    assert state.skip_next[1]
    for dice in ("1 2", "1 2", "1 2"):
        turn(state, dice)
    assert state.roller == 2
    with pytest.raises(gamelib.OptionError):
        start(refuge_skips_next_turn=None)


# ---------------------------------------------------------------------------- the end
def test_option_rounds() -> None:
    state = start(rounds=1)
    for dice in ("1 2", "1 2", "1 2", "1 2"):
        turn(state, dice)
    assert state.is_terminal() and state.turn == 4
    assert rule_of(state, "roll") == "game-over"
    with pytest.raises(gamelib.OptionError, match="rounds"):
        start(rounds=0)


def test_option_end_when_all_owned() -> None:
    state = start(end_when="all_owned")
    rolls = ["1 1"] + [f"{min(6, n - 1)} {n - min(6, n - 1)}" for n in range(3, 13)]
    for dice in rolls:
        roller = state.roller
        turn(state, dice, {roller: 10})
    assert state.is_terminal() and all(o >= 0 for o in state.owner[1:])
    assert state.owner[0] == -1  # terrain 1 is never rolled: the dice sum is 2 to 12
    assert state.turn == 11
    with pytest.raises(gamelib.OptionError, match="end_when"):
        start(end_when="exhaustion")


def _bankruptcy(**options: object) -> DelanopolisState:
    state = start(start_vots=20, **options)  # type: ignore[arg-type]
    turn(state, "3 4", {1: 20})  # player 1 spends everything on terrain 7 (rent 5)
    turn(state, "1 2", {2: 20})  # player 2 on terrain 3 (rent 5)
    turn(state, "2 1")  # player 3 pays 5 to player 2
    turn(state, "2 1")  # the mayor pays 5 COM'S to player 2
    turn(state, "1 2")  # player 1 owes 5 and holds nothing
    return state


def test_players_without_points_pay_what_they_can() -> None:
    state = _bankruptcy()
    assert state.bankrupt[1] and state.events[-1].kind == "bankrupt"
    assert state.wealth(1) == 0 and not state.is_terminal()
    assert conserved(state)
    assert state.roller == 2 and rule_of(state, "sell 7") == "resale-own-terrain"


def test_option_broke_rule_sell_to_pay() -> None:
    state = _bankruptcy(broke_rule="sell_to_pay")
    assert not state.bankrupt[1] and state.owner[T7] == 0  # terrain 7 went to the mayor
    assert state.coms[1] == 20 - 5
    assert conserved(state)
    with pytest.raises(gamelib.OptionError, match="broke_rule"):
        start(broke_rule="jail")


def test_option_end_when_bankruptcy() -> None:
    state = _bankruptcy(end_when="bankruptcy")
    assert state.is_terminal()


def _ending(owner: dict[int, int], **options: object) -> DelanopolisState:
    """A one-round game whose terrains 1..k are owned as given (player -> count) at the end."""
    state = start(rounds=1, **options)  # type: ignore[arg-type]
    t = 0
    for p, k in owner.items():
        for _ in range(k):
            state.owner[t] = p
            t += 1
    for dice in ("6 6", "6 6", "6 6", "6 6"):  # terrain 12: never owned here, nobody bids
        turn(state, dice)
    assert state.is_terminal()
    return state


def test_president_with_more_than_nine_terrains() -> None:
    state = _ending({0: 10})
    assert state.outcome == "president" and state.returns() == [1.0, 0.0, 0.0, 0.0]
    state = _ending({0: 9})
    assert state.outcome == "reelected"


def test_option_president_more_than() -> None:
    state = _ending({0: 10}, president_more_than=10)
    assert state.outcome == "reelected"
    with pytest.raises(gamelib.OptionError, match="president_more_than"):
        start(president_more_than=13)


def test_reelected_with_the_majority_else_the_richest_wins() -> None:
    assert _ending({0: 7}).outcome == "reelected"
    state = _ending({0: 6})
    assert state.outcome == "new_mayor" and state.winners == (1, 2, 3)  # all equally rich
    assert state.returns() == [0.0, 1.0, 1.0, 1.0]


@pytest.mark.parametrize(
    ("rule", "owners", "outcome"),
    [
        ("of_twelve", {0: 3, 1: 2}, "new_mayor"),
        ("of_owned", {0: 3, 1: 2}, "reelected"),
        ("of_owned", {0: 3, 1: 3}, "new_mayor"),
        ("plurality", {0: 3, 1: 2, 2: 2}, "reelected"),
        ("plurality", {0: 3, 1: 4}, "new_mayor"),
    ],
)
def test_option_majority(rule: str, owners: dict[int, int], outcome: str) -> None:
    assert _ending(owners, majority=rule).outcome == outcome
    with pytest.raises(gamelib.OptionError, match="majority"):
        start(majority="most_votes")


def test_option_richest_among() -> None:
    state = _ending({0: 1}, richest_among="all")
    assert state.outcome == "richest_mayor" and state.winners == (0,)  # 3600 COM'S
    state = _ending({0: 1}, richest_among="challengers")
    assert 0 not in state.winners
    with pytest.raises(gamelib.OptionError, match="richest_among"):
        start(richest_among="mayor")


# ---------------------------------------------------------------------------- notation
@pytest.mark.parametrize(
    "text",
    ["mayor 1", "dice 3 4", "roll", "boost", "keep", "sell 12", "bid 40", "park", "pay"],
)
def test_notation_round_trip(text: str) -> None:
    game = gamelib.make("delanopolis")
    assert str(game.parse_action(text)) == text
    assert str(game.parse_action(text.upper())) == text  # keywords are case-insensitive


@pytest.mark.parametrize(
    "text", ["", "bid", "bid -10", "bid ten", "sell 13", "sell 0", "dice 3", "dice 0 4", "roll 2", "vote 3"]
)
def test_bad_notation(text: str) -> None:
    with pytest.raises(gamelib.IllegalAction) as err:
        gamelib.make("delanopolis").parse_action(text)
    assert err.value.rule == "notation"


def test_over_state_refuses_everything() -> None:
    state = _ending({0: 10})
    assert state.current_player == gamelib.TERMINAL and state.legal_actions() == []
    assert rule_of(state, "bid 0") == "game-over"
    assert state.phase == OVER


def test_roll_and_keep_only_when_asked() -> None:
    state = start()
    state.apply("dice 3 4")  # an auction is open
    assert rule_of(state, "roll") == "turn-order"
    assert rule_of(state, "keep") == "turn-order"
    assert rule_of(state, "sell 7") == "resale-when"
    state.apply("bid 0")  # a legal move in the same position
    with_window = _with_tokens({2: 1}, boost_timing="any_roll")
    assert with_window.phase == BOOST_WINDOW
    assert rule_of(with_window, "roll") == "turn-order"
    with_window.apply("keep")
    assert with_window.phase == ROLL_DICE
