"""Issue 13: every unclear sentence of the seed an option, the text's reading by default.

For each option: the default and every other value, with a move that is legal and one that is
refused (or, for the scoring options, the outcome each reading gives).  Scenarios use placement
"sum", the default (dice 1 2 -> terrain 3, dice 3 4 -> terrain 7, dice 1 1 -> terrain 2) with seat 0
mayor and rollers 1, 2, 3, 0 (seats as in the notation; a student reads them as players 1-4).
"""

from __future__ import annotations

import json
import random

import pytest
from delanopolis_scenes import conserved, start, turn

import gamelib
from gamelib.agents import RandomAgent
from gamelib.core.checks import refusal
from gamelib.delanopolis.agents import FractionBidder, MayorStrategy, RoleAgent, ValueBidder
from gamelib.delanopolis.rules import BIDDING, PARK_CHOICE, PRE_ROLL, DelanopolisState

CHOICES = {o.name: o.choices for o in gamelib.options("delanopolis") if o.choices is not None}
"""Every option with a list of values, as the public declarations give them."""

T1, T3, T7 = 0, 2, 6


def rule_of(state: DelanopolisState, text: str) -> str:
    return refusal(state, text).rule


def give(state: DelanopolisState, terrain: int, owner: int, price: int) -> None:
    """Hand ``terrain`` to ``owner`` at ``price`` (set aside from his VOT'S: the books still balance)."""
    state.owner[terrain] = owner
    state.price[terrain] = state.aside[terrain] = price
    state.aside_by[terrain] = owner
    if owner == state.mayor:
        state.coms[owner] -= price
    else:
        state.vots[owner] -= price
    state.invalidate()


def zero_turns(state: DelanopolisState, count: int) -> None:
    """``count`` turns that land on terrain 3 (free or not) with every bid 0."""
    for _ in range(count):
        turn(state, "1 2")
        if state.phase == PARK_CHOICE:
            state.apply("pay")


def test_defaults_follow_the_text_and_version_4() -> None:
    game = gamelib.make("delanopolis")
    o = game.options
    assert game.version == "4"
    assert (o.resale_when, o.resale_price, o.bankrupt, o.resale_paid_to) == (
        "any_decision",
        "paid",
        "out",
        "seller",
    )
    # « en fonction du nombre obtenu, sur le terrain concerné »; points one by one; the mayor paid nothing
    assert (o.placement, o.snake_eyes_is_one, o.bid_step, o.mayor_price) == ("sum", False, 1, "zero")
    old = {"placement": "ring", "snake_eyes_is_one": True, "bid_step": 10, "mayor_price": "bid"}
    assert game.legacy_defaults["3"] == old
    assert game.legacy_defaults["2"] == {"resale_paid_to": "roller", **old}
    assert set(game.legacy_defaults["1"]) == {
        "resale_when",
        "resale_price",
        "bankrupt",
        "resale_paid_to",
    } | set(old)


def _version_3_record(**options: object) -> dict:
    """A record as rules version 3 wrote it: its defaults spelled out, as to_record() did."""
    old = {"placement": "ring", "snake_eyes_is_one": True, "bid_step": 10, "mayor_price": "bid"}
    game = gamelib.make("delanopolis", players=4, options={**old, **options})
    state = gamelib.play(game, [RoleAgent()] * 4, seed=5)
    record = json.loads(json.dumps(state.to_record()))
    record["version"] = record["version"].replace("delanopolis.4", "delanopolis.3")
    return record


def test_a_version_3_record_replays_with_the_ring() -> None:
    """Records of versions 1-3 name every option they were played with; one that leaves the changed
    defaults out (written by hand, or trimmed) still replays with the ring, bids in tens and the
    mayor's bid as his price."""
    record = _version_3_record()
    for name in ("placement", "snake_eyes_is_one", "bid_step", "mayor_price"):
        del record["options"][name]
    replayed = gamelib.from_record(record)
    o = replayed.game.options  # type: ignore[attr-defined]
    assert (o.placement, o.snake_eyes_is_one, o.bid_step, o.mayor_price) == ("ring", True, 10, "bid")
    assert replayed.to_record()["actions"] == record["actions"]
    # the same actions under version 4's defaults are another game: refused, not misread
    record["version"] = record["version"].replace("delanopolis.3", "delanopolis.4")
    with pytest.raises(gamelib.RecordError):
        gamelib.from_record(record)


# ---------------------------------------------------------------- 1. the mayor's starting atouts
@pytest.mark.parametrize(("jokers", "rule"), [(0, "boost-needs-token"), (2, None)])
def test_mayor_start_jokers(jokers: int, rule: str | None) -> None:
    state = start(mayor_start_jokers=jokers)
    assert state.tokens[0] == jokers
    assert [e.kind for e in state.events].count("joker") == jokers  # each chapter read
    zero_turns(state, 3)
    assert state.roller == 0
    if rule:
        assert rule_of(state, "boost") == rule
    else:
        state.apply("boost")  # nothing left to decide: the dice come
        assert state.tokens[0] == 1 and state.boosted[0] and state.is_chance_node()


# ---------------------------------------------------------------- 2. « Ces points sont placés de côté »
@pytest.mark.parametrize(("set_aside", "left", "aside"), [("winner_bid", 40, 40), ("all_bids", 20, 60)])
def test_set_aside(set_aside: str, left: int, aside: int) -> None:
    state = start(set_aside=set_aside, start_vots=60)
    turn(state, "3 4", {1: 40, 2: 20})
    assert state.owner[T7] == 1 and state.price[T7] == 40
    assert state.vots[1] == left and state.aside[T7] == aside and conserved(state)
    state.apply("dice 1 2")  # player 2 rolls: bids from 2, 3, the mayor, then 1
    assert state.phase == BIDDING
    state.apply("bid 0")  # player 2
    state.apply("bid 0")  # player 3
    state.apply("bid 0")  # the mayor
    if left >= 40:
        state.apply("bid 40")  # player 1 can still stake 40
    else:
        assert rule_of(state, "bid 40") == "bid-funds"
        state.apply("bid 20")


@pytest.mark.parametrize(("counts", "winners"), [(False, (2,)), (True, (1,))])
def test_aside_counts(counts: bool, winners: tuple[int, ...]) -> None:
    state = start(players=3, rounds=1, aside_counts=counts)
    turn(state, "3 4", {1: 60})  # player 1 sets 60 aside for terrain 7
    assert state.final_points(1) == (1140 + (60 if counts else 0), 0)
    state.vots[2] -= 10
    state.vots[1] += 10  # in hand: player 1 has 1150 (1210 with what he set aside), player 2 1190
    zero_turns(state, 2)  # player 2, the mayor
    assert state.is_terminal() and state.winners == winners
    assert rule_of(state, "roll") == "game-over"
    with pytest.raises(ValueError, match="seat"):
        state.final_points(3)


# ---------------------------------------------------------------- 3. « A tout moment » (resale)
def _park_choice(**options: object) -> DelanopolisState:
    """Player 1 owns terrain 3 and is on his second occupied landing in a row (player 2's terrain 7)."""
    state = start(**options)
    give(state, T7, 2, 40)
    give(state, T3, 1, 20)
    state.prev_occupied[1] = True
    state.phase = PRE_ROLL  # he has a terrain to resell now
    state.invalidate()
    state.apply("roll")
    state.apply("dice 3 4")
    assert state.phase == PARK_CHOICE and state.current_player == 1
    return state


def test_resale_when_any_decision() -> None:
    state = _park_choice()
    assert "sell 3" in [str(a) for a in state.legal_actions()]
    state.apply("sell 3")  # « A tout moment »: at park or pay too
    assert state.owner[T3] == 0 and state.phase == PARK_CHOICE
    state.apply("park")
    state.apply("roll")  # player 2 (he owns terrain 7)
    state.apply("dice 1 1")  # a free terrain: an auction
    assert state.phase == BIDDING
    assert rule_of(state, "sell 7") == "resale-when"  # not inside a sealed auction


def _sale_in_a_boost_window(paid_to: str) -> tuple[DelanopolisState, int, int, int]:
    """A random game (boost before any roll) up to a token holder's resale in a challenger's
    boost window: (the state just before it, the seller, the roller, the terrain)."""
    options = {"boost_timing": "any_roll", "token_draw": "doubles", "resale_paid_to": paid_to}
    game = gamelib.make("delanopolis", players=4, options=options)
    for seed in range(40):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.sample_chance())
                continue
            seller = state.current_player
            sales = [a for a in state.legal_actions() if str(a).startswith("sell")]
            if sales and state.phase != PRE_ROLL and state.mayor != state.roller != seller:
                assert isinstance(state, DelanopolisState)
                return state, seller, state.roller, sales[0].terrain  # type: ignore[attr-defined]
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no resale in a boost window in 40 random games")


def test_the_player_who_sells_is_paid() -> None:
    state, seller, roller, terrain = _sale_in_a_boost_window("seller")
    coms, price = list(state.coms), state.price[terrain]
    state.apply(f"sell {terrain + 1}")
    assert state.owner[terrain] == state.mayor
    assert state.coms[seller] == coms[seller] + price  # the seller, not the roller
    assert state.coms[roller] == coms[roller]
    assert state.coms[state.mayor] == coms[state.mayor] - price


def test_records_of_version_2_replay_with_the_roller_paid() -> None:
    state, seller, roller, terrain = _sale_in_a_boost_window("roller")
    coms, price = list(state.coms), state.price[terrain]
    state.apply(f"sell {terrain + 1}")
    assert state.coms[roller] == coms[roller] + price and state.coms[seller] == coms[seller]
    record = state.to_record()
    record["version"] = record["version"].replace("delanopolis.4", "delanopolis.2")
    del record["options"]["resale_paid_to"]
    replayed = gamelib.from_record(json.loads(json.dumps(record)))
    assert replayed.game.options.resale_paid_to == "roller"  # type: ignore[attr-defined]
    assert replayed == state


def test_resale_when_before_roll() -> None:
    state = _park_choice(resale_when="before_roll")
    assert rule_of(state, "sell 3") == "resale-before-roll"
    state.apply("park")
    zero_turns(state, 3)  # players 2, 3, the mayor; player 1 parked: his roll is skipped
    zero_turns(state, 3)
    assert state.roller == 1 and state.phase == PRE_ROLL
    state.apply("sell 3")  # his own turn, before rolling


# ---------------------------------------------------------------- 4. « doubler les points joués »
@pytest.mark.parametrize(("boost", "legal", "counted"), [("value", "bid 180", 360), ("cap", "bid 360", 360)])
def test_boost(boost: str, legal: str, counted: int) -> None:
    state = start(boost=boost, mayor_start_jokers=1)
    zero_turns(state, 3)
    state.apply("boost")  # the dice come at once
    state.apply("dice 3 4")
    assert state.current_player == 0  # the mayor bids first: he rolled
    if boost == "value":
        assert rule_of(state, "bid 360") == "bid-cap"
    state.apply(legal)
    for _ in range(3):
        state.apply("bid 60")
    assert state.auctions[-1].values()[0] == counted and state.owner[T7] == 0


# ---------------------------------------------------------------- 5. « deux fois de suite en zone occupée »
@pytest.mark.parametrize("occupied", ["by_another", "by_anyone"])
def test_occupied(occupied: str) -> None:
    state = start(occupied=occupied)
    give(state, T7, 1, 40)
    state.apply("dice 3 4")  # player 1 on his own terrain: nothing to pay
    assert state.vots[1] == 1160 and state.prev_occupied[1] == (occupied == "by_anyone")
    zero_turns(state, 3)
    turn(state, "3 4")  # and again
    if occupied == "by_anyone":
        assert state.phase == PARK_CHOICE
        state.apply("pay")  # costs nothing: his own terrain
        assert state.vots[1] == 1160 and conserved(state)
    else:
        assert state.roller == 2 and rule_of(state, "park") == "park-twice-occupied"


# ---------------------------------------------------------------- 6. « le quart des points VOT'S »
@pytest.mark.parametrize(("currency", "paid", "broke"), [("purse_first", 10, False), ("vots", 0, True)])
def test_rent_currency(currency: str, paid: int, broke: bool) -> None:
    state = start(rent_currency=currency)
    give(state, T7, 1, 40)
    zero_turns(state, 1)  # player 1 (terrain 3, free)
    turn(state, "1 2")
    turn(state, "1 2")
    assert state.roller == 0
    turn(state, "3 4")  # the mayor (COM'S only) lands on player 1's terrain
    assert state.vots[1] + state.coms[1] == 1160 + paid and state.bankrupt[0] == broke
    assert state.current_player != 0 and rule_of(state, "pay") == "park-twice-occupied"
    assert conserved(state)


@pytest.mark.parametrize(
    ("price_rule", "payment", "rent"),
    [
        ("paid", "mayor_pays", 10),
        ("paid", "aside_back", 0),
        ("kept", "mayor_pays", 10),
        ("kept", "aside_back", 10),
    ],
)
def test_resale_price(price_rule: str, payment: str, rent: int) -> None:
    state = start(resale_price=price_rule, resale_payment=payment)
    give(state, T7, 1, 40)
    state.phase = PRE_ROLL
    state.invalidate()
    state.apply("sell 7")
    assert state.owner[T7] == 0 and state.rent(T7) == rent
    assert rule_of(state, "sell 7") == "resale-own-terrain"  # the mayor's now
    state.apply("dice 1 2")
    assert conserved(state)


# ---------------------------------------------------------------- 7. « le plus de points VOT'S et COM'S »
@pytest.mark.parametrize(
    ("by", "outcome", "winners"), [("sum", "new_mayor", (1,)), ("each", "mayor_stays", (0,))]
)
def test_richest_by(by: str, outcome: str, winners: tuple[int, ...]) -> None:
    state = start(players=3, rounds=1, richest_by=by)
    # player 1 leads the VOT'S and the sum, player 2 the COM'S: nobody leads both
    state.vots[1], state.vots[2], state.coms[2] = 1300, 1100, 150  # (scoring only)
    zero_turns(state, 3)
    assert state.is_terminal() and (state.outcome, state.winners) == (outcome, winners)
    assert rule_of(state, "dice 1 2") == "game-over"
    state = start(players=3, rounds=1, richest_by=by)
    state.vots[2], state.coms[2] = 1300, 150  # player 2 leads both: the same for both readings
    zero_turns(state, 3)
    assert (state.outcome, state.winners) == ("new_mayor", (2,))


# ---------------------------------------------------------------- 8. « sauf si ce dernier »
@pytest.mark.parametrize(
    ("ce_dernier", "among", "outcome"),
    [
        ("mayor", "challengers", "reelected"),
        ("richest", "challengers", "new_mayor"),
        ("richest", "all", "reelected"),
    ],
)
def test_ce_dernier(ce_dernier: str, among: str, outcome: str) -> None:
    state = start(players=3, rounds=1, ce_dernier=ce_dernier, richest_among=among)
    for t in range(7):
        state.owner[t] = 0  # the mayor holds 7 of 12: the majority
    state.invalidate()
    zero_turns(state, 3)
    assert state.outcome == outcome
    assert state.winners == ((0,) if outcome == "reelected" else (1, 2))


# ---------------------------------------------------------------- 9. atouts and jokers « tirés »
@pytest.mark.parametrize(("draw", "tokens"), [("parking", 0), ("doubles", 1)])
def test_token_draw(draw: str, tokens: int) -> None:
    state = start(token_draw=draw)
    turn(state, "2 2")  # player 1 throws a double (terrain 4, free: bids 0)
    assert state.tokens[1] == tokens
    zero_turns(state, 3)
    assert state.roller == 1
    if tokens:
        state.apply("boost")
    else:
        assert rule_of(state, "boost") in ("chance-node", "boost-needs-token")


# ---------------------------------------------------------------- the bankrupt player
def _bankrupt(**options: object) -> DelanopolisState:
    state = start(**options)
    give(state, T7, 2, 40)
    give(state, T3, 1, 0)
    state.vots[3] += state.vots[1]  # player 1 has nothing left
    state.vots[1] = 0
    state.phase = PRE_ROLL
    state.invalidate()
    state.apply("roll")
    state.apply("dice 3 4")  # a rent of 10 he cannot pay
    assert state.bankrupt[1] and conserved(state)
    return state


def test_bankrupt_is_out() -> None:
    state = _bankrupt()
    assert state.owner[T3] == 0  # his terrains go to the mayor
    state.apply("roll")  # player 2 (he owns terrain 7)
    state.apply("dice 1 1")  # player 2: terrain 2 is free
    assert state.bid_order == (2, 3, 0)  # player 1 bids no more
    for _ in range(3):
        state.apply("bid 0")
    zero_turns(state, 2)  # player 3, the mayor
    assert state.roller == 2  # player 1's roll is skipped
    assert [e.player for e in state.events if e.kind == "skip"] == []  # out, not parked


def test_bankrupt_plays_on() -> None:
    state = _bankrupt(bankrupt="plays_on")
    assert state.owner[T3] == 1
    state.apply("roll")
    state.apply("dice 1 1")
    assert state.bid_order == (2, 3, 0, 1)
    for _ in range(3):
        state.apply("bid 0")
    assert rule_of(state, "bid 10") == "bid-funds"  # he holds nothing
    state.apply("bid 0")


# ---------------------------------------------------------------- richest_among="all": a tie with the mayor
def test_a_tie_with_the_mayor_is_not_a_new_mayor() -> None:
    state = start(players=3, rounds=1, richest_among="all")
    state.coms[0], state.vots[1], state.vots[2] = 2000, 2000, 400  # (scoring only)
    zero_turns(state, 3)
    assert state.outcome == "richest_tie" and state.winners == (0, 1)
    assert state.returns() == [1.0, 1.0, 0.0]
    assert rule_of(state, "bid 0") == "game-over"


# ---------------------------------------------------------------- records and agents
def test_a_version_1_record_replays_with_the_old_rules() -> None:
    game = gamelib.make(
        "delanopolis",
        players=4,
        options={"resale_when": "before_roll", "resale_price": "kept", "bankrupt": "plays_on"},
    )
    state = gamelib.play(game, [RoleAgent()] * 4, seed=11)
    record = json.loads(json.dumps(state.to_record()))
    new_names = {"mayor_start_jokers", "set_aside", "aside_counts", "resale_when", "boost", "occupied"}
    new_names |= {"rent_currency", "resale_price", "richest_by", "ce_dernier", "token_draw", "bankrupt"}
    for name in new_names:
        del record["options"][name]  # written before version 2 had them
    record["version"] = record["version"].rsplit(".", 1)[0] + ".1"
    replayed = gamelib.from_record(record)
    assert replayed.key() == state.key()
    assert replayed.game.options.bankrupt == "plays_on"


OPTION_VALUES = [(name, value) for name, values in sorted(CHOICES.items()) for value in values] + [
    ("aside_counts", True),
    ("mayor_start_jokers", 2),
]


@pytest.mark.parametrize(("name", "value"), OPTION_VALUES)
def test_agents_play_every_option(name: str, value: object) -> None:
    options = {name: value}
    if name == "rent_currency":
        options["rounds"] = 4
    game = gamelib.make("delanopolis", players=4, options=options)
    agents = [RoleAgent(), ValueBidder(), FractionBidder(0.3), MayorStrategy()]
    rng = random.Random(0)
    for seed in range(2):
        rng.shuffle(agents)
        state = gamelib.play(game, agents, seed=seed)
        assert state.is_terminal()
    state = gamelib.play(game, [RandomAgent()] * 4, seed=3)
    assert isinstance(state, DelanopolisState) and conserved(state)


def test_every_option_says_what_it_allows() -> None:
    """Declared once (core's Literal choices and Between ranges): listed, checked on make, by hand too."""
    specs = {o.name: o for o in gamelib.options("delanopolis")}
    for spec in specs.values():
        assert spec.doc, spec.name
        if spec.type is int:
            assert spec.range is not None, spec.name
    assert specs["placement"].choices == ("sum", "twelve_faces", "ring") or set(
        specs["placement"].choices
    ) == {
        "sum",
        "twelve_faces",
        "ring",
    }
    assert (specs["rounds"].range.low, specs["rounds"].range.high) == (1, 100)
    with pytest.raises(gamelib.OptionError, match="rounds"):
        gamelib.make("delanopolis", options={"rounds": 101})
    with pytest.raises(ValueError, match="refuges"):
        from gamelib.delanopolis.rules import DelanopolisOptions

        DelanopolisOptions(refuges=5)
