"""Every rule Delanopolis refuses by, each with a legal and an illegal case side by side.

One row a rule: a scene, the move it refuses there (naming the rule, the state untouched), and the
move just on the legal side of the same rule (it plays).  The table is checked against the rules
the engine can raise (read from ``gamelib/delanopolis``) and the action classes it declares, so a
new rule or a new action without its two cases fails here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from delanopolis_scenes import start

import gamelib
from gamelib.core.checks import refusal
from gamelib.delanopolis.rules import BIDDING, PARK_CHOICE, PRE_ROLL, ROLL_DICE, DelanopolisState

ROOT = Path(__file__).resolve().parents[2]
T7 = 6  # 0-based code of terrain 7 (``dice 3 4`` under placement "sum")


def _own(state: DelanopolisState, terrain: int, owner: int, price: int = 40) -> None:
    """Hand ``terrain`` to ``owner`` at ``price`` (set aside from his VOT'S: the books balance)."""
    state.owner[terrain] = owner
    state.price[terrain] = state.aside[terrain] = price
    state.aside_by[terrain] = owner
    state.vots[owner] -= price


def dice_due() -> DelanopolisState:
    """Roller 1 has nothing to decide: the dice are due at once."""
    state = start()
    assert state.phase == ROLL_DICE
    return state


def bidding(**options: Any) -> DelanopolisState:
    """Terrain 7 under a sealed auction: challenger 1 bids first."""
    state = start(**options)
    state.apply("dice 3 4")
    assert state.phase == BIDDING and state.current_player == 1
    return state


def before_roll(tokens: int = 1, terrain_of_roller: bool = False, **options: Any) -> DelanopolisState:
    """Roller 1 before his roll: ``tokens`` atouts, and terrain 7 if asked."""
    state = start(**options)
    state.tokens[1] = tokens
    if terrain_of_roller:
        _own(state, T7, 1)
    state.phase = PRE_ROLL
    state.invalidate()
    assert state.current_player == 1
    return state


def boosted_with_a_terrain() -> DelanopolisState:
    """Roller 1 played one of his two atouts and still has a terrain to sell: still before the roll."""
    state = before_roll(tokens=2, terrain_of_roller=True)
    state.apply("boost")
    assert state.phase == PRE_ROLL
    return state


def mayors_roll() -> DelanopolisState:
    """The mayor (0) before his roll with a joker, holding terrain 7."""
    state = start(players=3, mayor=0, mayor_start_jokers=1)
    state.owner[T7], state.price[T7] = 0, 0
    state.phase, state.roller, state.turn = PRE_ROLL, 0, 2
    state.invalidate()
    return state


def window() -> DelanopolisState:
    """``boost_timing="any_roll"``: player 2 holds an atout and answers before roller 1's dice."""
    state = start(boost_timing="any_roll")
    state.tokens[2] = 1
    state.tokens[1] = 1
    state.phase = PRE_ROLL
    state.invalidate()
    state.apply("roll")
    assert state.current_player == 2 and {"boost", "keep"} <= {str(a) for a in state.legal_actions()}
    return state


def twice_occupied(**options: Any) -> DelanopolisState:
    """Roller 1 lands on player 2's terrain 7 for the second time in a row: park or pay."""
    state = start(**options)
    _own(state, T7, 2)
    state.prev_occupied[1] = True
    state.apply("dice 3 4")
    assert state.phase == PARK_CHOICE
    return state


def poor_mayor() -> DelanopolisState:
    """Roller 1 holds terrain 7 (price 40) and an atout; the mayor has 10 COM'S."""
    state = before_roll(terrain_of_roller=True)
    state.coms[1] += state.coms[0] - 10
    state.coms[0] = 10
    state.invalidate()
    return state


def twice_occupied_with_a_terrain(**options: Any) -> DelanopolisState:
    """:func:`twice_occupied`, the roller also holding terrain 3 (a decision: « A tout moment »)."""
    state = twice_occupied(**options)
    _own(state, 2, 1)
    state.invalidate()
    return state


def selling_in_auction() -> DelanopolisState:
    """Player 1 holds terrain 3 and is to bid on terrain 7: no resale inside a sealed auction."""
    state = bidding()
    _own(state, 2, 1)
    state.invalidate()
    return state


def lot() -> DelanopolisState:
    """A new game: the lot is due."""
    state = gamelib.make("delanopolis").new_game(0)
    assert isinstance(state, DelanopolisState)
    return state


CASES: list[tuple[str, Callable[[], DelanopolisState], str, Callable[[], DelanopolisState], str]] = [
    # rule, scene refusing, refused move, scene allowing, legal move
    ("chance-node", dice_due, "bid 0", dice_due, "dice 3 4"),
    ("chance-node", bidding, "dice 3 4", bidding, "bid 0"),
    ("chance-node", dice_due, "mayor 1", lot, "mayor 1"),
    ("turn-order", bidding, "roll", before_roll, "roll"),
    ("turn-order", before_roll, "keep", window, "keep"),
    ("bid-when-auction", before_roll, "bid 0", bidding, "bid 0"),
    ("bid-cap", bidding, "bid 61", bidding, "bid 60"),
    ("bid-step", lambda: bidding(bid_step=10), "bid 15", lambda: bidding(bid_step=10), "bid 20"),
    ("bid-funds", lambda: bidding(start_vots=30), "bid 31", lambda: bidding(start_vots=30), "bid 30"),
    ("boost-at-roll", bidding, "boost", before_roll, "boost"),
    ("boost-needs-token", dice_due, "boost", before_roll, "boost"),
    ("boost-needs-token", lambda: before_roll(tokens=0, terrain_of_roller=True), "boost", window, "boost"),
    ("one-boost-per-roll", boosted_with_a_terrain, "boost", lambda: before_roll(tokens=2), "boost"),
    ("park-twice-occupied", before_roll, "park", twice_occupied, "park"),
    ("park-twice-occupied", bidding, "pay", twice_occupied, "pay"),
    ("resale-to-mayor", mayors_roll, "sell 7", lambda: before_roll(terrain_of_roller=True), "sell 7"),
    ("resale-own-terrain", before_roll, "sell 7", lambda: before_roll(terrain_of_roller=True), "sell 7"),
    ("resale-mayor-funds", poor_mayor, "sell 7", lambda: before_roll(terrain_of_roller=True), "sell 7"),
    ("resale-when", selling_in_auction, "sell 3", twice_occupied_with_a_terrain, "sell 3"),
    (
        "resale-before-roll",
        lambda: twice_occupied_with_a_terrain(resale_when="before_roll"),
        "sell 3",
        lambda: before_roll(terrain_of_roller=True, resale_when="before_roll"),
        "sell 7",
    ),
]


@pytest.mark.parametrize(
    ("rule", "refusing", "refused", "allowing", "legal"),
    CASES,
    ids=[f"{rule}:{refused}" for rule, _, refused, _, _ in CASES],
)
def test_each_rule_refuses_and_allows(
    rule: str,
    refusing: Callable[[], DelanopolisState],
    refused: str,
    allowing: Callable[[], DelanopolisState],
    legal: str,
) -> None:
    error = refusal(refusing(), refused)
    assert error.rule == rule, str(error)
    state = allowing()
    assert legal in [str(a) for a in state.legal_actions()]
    state.apply(legal)
    assert state.history[-1] == state.game.parse_action(legal)


def test_the_table_covers_every_rule_raised_and_every_action() -> None:
    source = "".join(p.read_text() for p in sorted((ROOT / "gamelib" / "delanopolis").glob("*.py")))
    raised = set(re.findall(r'IllegalAction\(\s*"([a-z0-9-]+)"', source))
    assert raised == {case[0] for case in CASES}
    game = gamelib.make("delanopolis")
    kinds = {type(action).__name__ for action in game.action_universe()}
    refused = {type(game.parse_action(case[2])).__name__ for case in CASES}
    allowed = {type(game.parse_action(case[4])).__name__ for case in CASES}
    assert kinds <= refused and kinds <= allowed
