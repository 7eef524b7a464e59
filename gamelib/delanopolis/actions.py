"""Delanopolis: the actions and their notation (``mayor 2``, ``dice 3 5``, ``sell 7``, ``bid 40``).

Each action class is declared once with ``@action_class``; :data:`NOTATION` reads and writes them
and lists the action universe.  The actions are interned (:func:`bid`, :data:`SELLS`...), so the
legal-move lists hand out the very objects the rules compare by identity.
"""

from __future__ import annotations

from gamelib.core.game import Action
from gamelib.core.notation import Int, Notation, action_class
from gamelib.delanopolis.board import TERRAINS

MAX_NOTATION = 10**18 - 1
"""Largest amount the notation reads (beyond every game's bids:
:meth:`~gamelib.delanopolis.rules.DelanopolisGame.max_bid_bound` raises it when a configuration
could ever need more), so an amount over the cap is read and then refused by the rule it breaks
(``bid-cap``, ``bid-funds``), not by the notation."""


@action_class("mayor", Int("player", 0, lambda game: game.num_players - 1, limit=5))
class Lot(Action):
    """Chance: the lot that makes ``player`` the mayor."""

    player: int


@action_class("dice", Int("a", 1, 6, what="die"), Int("b", 1, 6, what="die"))
class Dice(Action):
    """Chance: the two dice, in order (``a`` is the first die)."""

    a: int
    b: int


@action_class("roll")
class Roll(Action):
    """The roller is done with sales and boosts: the dice are thrown."""


@action_class("boost")
class Boost(Action):
    """Play an atout (challenger) or a joker (mayor): this roll's bid counts double."""


@action_class("keep")
class Keep(Action):
    """A token holder declines to boost before someone else's roll (``boost_timing="any_roll"``)."""


@action_class("park")
class Park(Action):
    """Second occupied landing in a row: stay without paying and win an atout (mayor: a joker)."""


@action_class("pay")
class Pay(Action):
    """Second occupied landing in a row: pay the rent instead of parking."""


@action_class("sell", Int("terrain", 1, TERRAINS, shift=1))
class Sell(Action):
    """Resell terrain ``terrain`` (0-based inside, 1-12 in notation) to the mayor."""

    terrain: int


@action_class(
    "bid",
    Int(
        "amount",
        0,
        lambda game: game.max_bid_bound(),
        limit=MAX_NOTATION,
        step=lambda game: game.options.bid_step,
        what="bid",
    ),
)
class Bid(Action):
    """A sealed bid: VOT'S for a challenger, COM'S for the mayor.  The universe holds the bids a
    configuration can ever take (multiples of ``bid_step`` up to
    :meth:`~gamelib.delanopolis.rules.DelanopolisGame.max_bid_bound`); the notation reads any amount
    up to ``MAX_NOTATION`` (see :meth:`~gamelib.delanopolis.rules.DelanopolisGame.parse_action`)."""

    amount: int


NOTATION = Notation(Lot, Dice, Roll, Boost, Keep, Park, Pay, Sell, Bid)
"""The actions in universe order: lots, dice, roll/boost/keep/park/pay, sales, then bids."""

LOTS: tuple[Lot, ...] = NOTATION.every(Lot)
ALL_DICE: tuple[Dice, ...] = NOTATION.every(Dice)
SELLS: tuple[Sell, ...] = NOTATION.every(Sell)
ROLL, BOOST, KEEP, PARK, PAY = (NOTATION.make(c) for c in (Roll, Boost, Keep, Park, Pay))
_BIDS: dict[int, Bid] = {}


def bid(amount: int) -> Bid:
    """The interned ``Bid(amount)``."""
    b = _BIDS.get(amount)
    if b is None:
        b = _BIDS[amount] = NOTATION.make(Bid, amount)
    return b


_BID_RANGES: dict[tuple[int, int], tuple[Bid, ...]] = {}
RANGES_KEPT = 256
"""Bid ranges kept at once: a capped game needs a few dozen; an uncapped one (``bid_cap=0``) one per
purse met, so the caches start afresh past this many."""
DICE_OUTCOMES: tuple[tuple[Action, float], ...] = tuple((d, 1.0 / 36) for d in ALL_DICE)


def bids_up_to(top: int, step: int) -> tuple[Bid, ...]:
    """The interned bids ``0, step, ..., top`` (cached: auctions ask for the same few ranges)."""
    key = (top, step)
    bids = _BID_RANGES.get(key)
    if bids is None:
        if len(_BID_RANGES) >= RANGES_KEPT:  # uncapped games meet many purses: memory stays bounded
            _BID_RANGES.clear()
        bids = _BID_RANGES[key] = tuple(bid(x) for x in range(0, top + 1, step))
    return bids


_BID_LISTS: dict[tuple[int, int], list[Action]] = {}


def bid_list(top: int, step: int) -> list[Action]:
    """:func:`bids_up_to` as the shared list the legal-move cache holds.  Shared safely: core never
    changes a legal-move list (``legal_actions()`` hands out copies, ``clone`` shares the cache), and
    with ``bid_step=1`` a bid list is up to 301 long, too long to copy at every auction step."""
    key = (top, step)
    bids = _BID_LISTS.get(key)
    if bids is None:
        if len(_BID_LISTS) >= RANGES_KEPT:
            _BID_LISTS.clear()
        bids = _BID_LISTS[key] = list(bids_up_to(top, step))
    return bids
