"""Delanopolis heuristics: fixed-fraction bidders, a value-aware bidder and a mayor strategy.

Every agent here plays both roles (the lot decides who is mayor after the seats are filled):
:class:`RoleAgent` hands each decision to a challenger strategy or a mayor strategy.  Agents
read only what their player may see: purses, owners and prices are on the table, and past
auctions are public once revealed; the others' pending sealed bids are never looked at.

* :class:`FractionBidder`: bids a fixed fraction of the largest bid allowed.
* :class:`ValueBidder`: prices a terrain from the exact landing odds (rent to come), the
  resale option and the mayor's terrain count, and resells at the end only when that cannot
  hand the mayor his majority.
* :class:`MayorStrategy`: estimates the challengers' total from the auctions revealed so far and
  picks the COM'S bid with the best expected gain: winning costs the mayor nothing (he takes
  every bid back), losing under ``challenger_pot="takes_all"`` gives his bid to the winner.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import lru_cache
from typing import Any

from gamelib.core.game import Action
from gamelib.delanopolis.analysis import per_roll_landings
from gamelib.delanopolis.board import TERRAINS
from gamelib.delanopolis.rules import (
    BIDDING,
    BOOST,
    BOOST_WINDOW,
    KEEP,
    PARK,
    PARK_CHOICE,
    PRE_ROLL,
    ROLL,
    SELLS,
    DelanopolisOptions,
    DelanopolisState,
    bid,
)


def _snap(state: DelanopolisState, player: int, amount: float) -> Action:
    """The legal bid closest below ``amount`` (bids are multiples of ``bid_step``)."""
    step = state.options.bid_step
    top = state.max_bid(player)
    x = max(0, min(top, int(amount) // step * step))
    return bid(x)


class DelanopolisAgent:
    """Base: sensible defaults for every decision; subclasses choose the bids.

    Defaults: play an atout/joker at every roll (a bid can only gain from counting double),
    park on a second occupied landing (no rent and a token), never resell.
    """

    name = "delanopolis"

    def act(self, state: Any, player: int, rng: random.Random) -> Action:
        assert isinstance(state, DelanopolisState), "a Delanopolis agent plays Delanopolis"
        phase = state.phase
        if phase == BIDDING:
            return self.choose_bid(state, player, rng)
        if phase == PRE_ROLL:
            sale = self.choose_sale(state, player, rng)
            if sale is not None:
                return SELLS[sale]
            legal = state.legal_actions()
            if BOOST in legal and self.wants_boost(state, player):
                return BOOST
            return ROLL
        if phase == BOOST_WINDOW:
            return BOOST if self.wants_boost(state, player) else KEEP
        if phase == PARK_CHOICE:
            return PARK
        raise ValueError(f"{self.name}: nothing to decide in phase {phase}")

    def choose_bid(self, state: DelanopolisState, player: int, rng: random.Random) -> Action:
        raise NotImplementedError

    def choose_sale(self, state: DelanopolisState, player: int, rng: random.Random) -> int | None:
        return None

    def wants_boost(self, state: DelanopolisState, player: int) -> bool:
        return True

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class FractionBidder(DelanopolisAgent):
    """Bids ``fraction`` of the largest bid allowed, whatever the terrain (mayor included)."""

    name = "fraction"

    def __init__(self, fraction: float = 0.5) -> None:
        if not 0.0 <= fraction <= 1.0:
            raise ValueError(f"fraction must be between 0 and 1, got {fraction}")
        self.fraction = fraction

    def choose_bid(self, state: DelanopolisState, player: int, rng: random.Random) -> Action:
        return _snap(state, player, self.fraction * state.max_bid(player))

    def __repr__(self) -> str:
        return f"FractionBidder({self.fraction})"


@lru_cache(maxsize=64)
def _visits_to_come(options: DelanopolisOptions, from_round: int) -> tuple[float, ...]:
    """Expected landings of one pawn on each terrain in rounds ``from_round``.. (exact odds)."""
    visits = [Fraction(0)] * TERRAINS
    for dist in per_roll_landings(options, options.rounds)[from_round:]:
        for code, p in dist.items():
            if code < TERRAINS:
                visits[code] += p
    return tuple(float(v) for v in visits)


def majority_needed(state: DelanopolisState) -> int:
    """The number of terrains that gives the mayor his re-election (option ``majority``)."""
    o = state.options
    if o.majority == "of_twelve":
        return TERRAINS // 2 + 1
    owned = sum(1 for x in state.owner if x >= 0) + 1
    if o.majority == "of_owned":
        return owned // 2 + 1
    return max((state.owner.count(p) for p in state.challengers), default=0) + 1


class ValueBidder(DelanopolisAgent):
    """A challenger who prices terrains; as mayor it plays :class:`MayorStrategy`.

    Value of winning terrain ``t`` at price ``b`` (in points, for the bidder):

    * rents to come: ``b / 4`` times the expected landings of the other pawns on ``t`` from the
      exact chain (:func:`~gamelib.delanopolis.analysis.per_roll_landings`);
    * resale: the price comes back by reselling to the mayor before the end;
    * denial: a terrain the mayor does not get keeps him away from his majority, which is the
      only way a challenger can win at all.

    The bid is the cap scaled by that value, all-in when the mayor nears his majority.
    """

    name = "value"

    def __init__(self, aggression: float = 1.0) -> None:
        self.aggression = aggression
        self.mayor = MayorStrategy()

    def act(self, state: Any, player: int, rng: random.Random) -> Action:
        if isinstance(state, DelanopolisState) and player == state.mayor:
            return self.mayor.act(state, player, rng)
        return super().act(state, player, rng)

    def terrain_value(self, state: DelanopolisState, player: int, terrain: int) -> float:
        """Points of value per point of price (1.0 = break-even) for this terrain now."""
        o = state.options
        rollers = len(state.roll_order)
        visits = _visits_to_come(o, min(o.rounds, state.round + 1))[terrain] * (rollers - 1)
        rent_yield = visits / 4
        resale = 1.0 if o.resale_payment == "aside_back" else 0.8
        held = state.owner.count(state.mayor)
        danger = 1.0 if held + 1 >= majority_needed(state) else held / max(1, majority_needed(state))
        return rent_yield + resale * 0.5 + danger * 0.5

    def choose_bid(self, state: DelanopolisState, player: int, rng: random.Random) -> Action:
        mayor = state.mayor
        if state.bid_is_public(mayor) and state.bids[mayor] >= 0:
            # the mayor bid in the open: if every challenger together cannot beat him, a bid
            # would only feed him (he takes every bid); otherwise the full bid, to beat him
            mayor_value = state.bids[mayor] * (2 if state.boosted[mayor] else 1)
            reach = sum(state.max_bid(c) * (2 if state.boosted[c] else 1) for c in state.challengers)
            if mayor_value >= reach:
                return bid(0)
            return _snap(state, player, state.max_bid(player))
        value = self.terrain_value(state, player, state.landed)
        return _snap(state, player, state.max_bid(player) * min(1.0, self.aggression * value))

    def choose_sale(self, state: DelanopolisState, player: int, rng: random.Random) -> int | None:
        """Resell in the last round, cheapest first, if the mayor stays short of his majority."""
        o = state.options
        if state.round < o.rounds - 1:
            return None
        held = state.owner.count(state.mayor)
        if held + 1 >= majority_needed(state):
            return None
        sellable = state.sellable(player)
        if not sellable:
            return None
        return max(sellable, key=lambda t: (state.price[t], -t))

    def __repr__(self) -> str:
        return f"ValueBidder({self.aggression})"


class MayorStrategy(DelanopolisAgent):
    """The mayor's bid: the best expected gain against the challengers' totals seen so far.

    For each legal COM'S bid ``m`` the mayor estimates ``P(win) = P(total < m)`` from the revealed
    auctions (each past total rescaled to today's number of challengers, plus a prior of
    evenly spread totals), and scores ``P(win) * value - P(lose) * m * lose_share``, where the
    value of a terrain grows as his majority and the presidency come near and ``lose_share`` is
    1 if a winning challenger takes the mayor's bid (``challenger_pot="takes_all"``).  As a
    challenger this agent bids half the cap.
    """

    name = "mayor"

    def __init__(self, margin: float = 1.0) -> None:
        self.margin = margin

    def act(self, state: Any, player: int, rng: random.Random) -> Action:
        if isinstance(state, DelanopolisState) and player != state.mayor and state.phase == BIDDING:
            return _snap(state, player, state.max_bid(player) / 2)
        return super().act(state, player, rng)

    def observed_totals(self, state: DelanopolisState) -> list[float]:
        """Past challengers' totals (as they counted), per challenger, from revealed auctions."""
        mayor = state.mayor
        out = []
        for a in state.auctions:
            vals = a.values()
            out.append(sum(v for p, v in enumerate(vals) if p != mayor) / max(1, len(vals) - 1))
        return out

    def choose_bid(self, state: DelanopolisState, player: int, rng: random.Random) -> Action:
        o = state.options
        challengers = len(state.challengers)
        cap = o.bid_cap or 100  # what one challenger can bid (a guess when there is no cap)
        prior = [cap * k / 4 for k in range(5)]
        totals = [x * challengers for x in self.observed_totals(state) + prior]
        held = state.owner.count(player)
        need = majority_needed(state)
        value = 2.0 * cap * challengers
        if held + 1 >= need or held + 1 > o.president_more_than:
            value *= 4
        lose_share = 1.0 if o.challenger_pot == "takes_all" else 0.0
        best, best_score = 0, float("-inf")
        for m in state.bid_amounts(player):
            eff = m * (2 if state.boosted[player] else 1) * self.margin
            p_win = sum(1 for t in totals if t < eff) / len(totals)
            score = p_win * value - (1 - p_win) * m * lose_share
            if score > best_score:
                best, best_score = m, score
        return bid(best)

    def __repr__(self) -> str:
        return f"MayorStrategy({self.margin})"


class RoleAgent(DelanopolisAgent):
    """Plays ``challenger`` as a challenger and ``mayor`` once the lot makes it mayor."""

    name = "role"

    def __init__(self, challenger: DelanopolisAgent | None = None, mayor: DelanopolisAgent | None = None):
        self.challenger = challenger if challenger is not None else ValueBidder()
        self.mayor = mayor if mayor is not None else MayorStrategy()

    def act(self, state: Any, player: int, rng: random.Random) -> Action:
        agent = self.mayor if player == state.mayor else self.challenger
        return agent.act(state, player, rng)

    def __repr__(self) -> str:
        return f"RoleAgent({self.challenger!r}, {self.mayor!r})"


AGENTS: dict[str, Any] = {kind.name: kind for kind in (FractionBidder, ValueBidder, MayorStrategy, RoleAgent)}
"""Found by :mod:`gamelib.agents.registry`, each class under its own ``name`` (the label results
show): ``tournament("delanopolis", ["value", "fraction(fraction=0.3)"])``."""

SEAT_AGENTS = "role"
"""Every seat starts with :class:`RoleAgent` (the lot makes one seat mayor after the seats are
filled): :func:`gamelib.agents.registry.default_agents`."""
