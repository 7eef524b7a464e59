"""Delanopolis: what follows from a move without a new choice — the turn order, where the dice
land, the auction's reveal, rents, resales, atouts and jokers, and the end of the game.

:class:`Effects` is the part of :class:`~gamelib.delanopolis.rules.DelanopolisState` that changes
the state once an action is legal (``rules.py`` declares the fields, whose annotations here only
tell the type checker, picks the legal actions and pairs each action's transition with its
refusal).  Points are ints; every VOT'S and COM'S is in a player's hands or set aside on a terrain,
and only refuges create points (``created``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gamelib.core.game import State
from gamelib.delanopolis.board import REFUGE_BASE, TERRAINS, content
from gamelib.delanopolis.options import (
    REFUGE_COMS,
    REFUGE_VOTS,
    DelanopolisOptions,
    direct_landing,
    rent_for,
    ring_landing,
)
from gamelib.delanopolis.phases import BIDDING, BOOST_WINDOW, OVER, PARK_CHOICE, PRE_ROLL, ROLL_DICE


@dataclass(frozen=True)
class AuctionResult:
    """A revealed auction: who bid what (``boosted`` bids count double), who took the terrain."""

    terrain: int
    """The terrain auctioned (0-based)."""
    roller: int
    bids: tuple[int, ...]
    """Each seat's bid as placed (COM'S for the mayor, VOT'S for a challenger; 0 for a player out)."""
    boosted: tuple[bool, ...]
    winner: int
    """The seat that took the terrain; -1: no sale."""
    kind: str
    """Who took it: "mayor", "challenger" or "none"."""
    price: int
    """What the terrain is worth for rents and resale."""
    counts_double: bool = True
    """False under ``boost="cap"``: a boost raised the cap, each point counts once."""

    def values(self) -> tuple[int, ...]:
        """The bids as they count: doubled by an atout or a joker (``boost="value"``)."""
        if not self.counts_double:
            return self.bids
        return tuple(b * (2 if x else 1) for b, x in zip(self.bids, self.boosted, strict=True))


@dataclass(frozen=True)
class Event:
    """Something that makes the players read a chapter, or moves points (the public log).

    ``kind``: "mayor", "chapter" (a terrain changes hands), "atout", "joker", "refuge", "rent",
    "park", "sale", "skip", "no_sale", "bankrupt", "end".  ``subject`` is a terrain (0-based),
    refuge (0-based) or card index; ``amount`` the points moved.
    """

    turn: int
    kind: str
    player: int
    subject: int = -1
    amount: int = 0
    other: int = -1

    def chapter(self) -> str:
        """The French chapter this event makes the table read ("" for bookkeeping events)."""
        data = content()
        if self.kind in ("chapter", "sale") and self.subject >= 0:
            return data.terrains[self.subject].chapter
        if self.kind == "refuge" and self.subject >= 0:
            return data.refuges[self.subject].chapter
        if self.kind == "atout":
            return data.atouts[self.subject % len(data.atouts)].chapter
        if self.kind == "joker":
            return data.jokers[self.subject % len(data.jokers)].chapter
        return ""


OUTCOME_TEXT = {
    "president": "the mayor becomes President of the Republic",
    "reelected": "the mayor kept the majority of terrains and is re-elected",
    "new_mayor": "the richest player wins and becomes mayor",
    "richest_mayor": "the mayor is the richest player and stays mayor",
    "richest_tie": "the mayor and a challenger tie for the most points: they share the win",
    "mayor_stays": "nobody is the richest (or every challenger is out): the mayor stays",
}
"""The ends of a game (``state.outcome``, set by :meth:`Effects._finish`) and what each means."""


class Effects(State):
    """The consequences of a legal move in Delanopolis (see the module docstring)."""

    game: Any  # a DelanopolisGame (rules.py): its ring and reachable terrains, drawn once per game
    options: DelanopolisOptions
    phase: int
    mayor: int
    vots: list[int]
    coms: list[int]
    owner: list[int]
    price: list[int]
    aside: list[int]
    aside_by: list[int]
    ring_pos: list[int]
    where: list[int]
    tokens: list[int]
    tokens_drawn: list[int]
    prev_occupied: list[bool]
    skip_next: list[bool]
    bankrupt: list[bool]
    roll_order: tuple[int, ...]
    turn: int
    order_offset: int
    roller: int
    boosted: list[bool]
    queue: tuple[int, ...]
    landed: int
    bids: list[int]
    bid_order: tuple[int, ...]
    chained: bool
    created: int
    auctions: list[AuctionResult]
    events: list[Event]
    outcome: str
    winners: tuple[int, ...]

    @property
    def challengers(self) -> list[int]:
        """The players other than the mayor, in seat order."""
        return [p for p in range(self.game.num_players) if p != self.mayor]

    @property
    def round(self) -> int:
        """Rounds played so far (a round: every roller rolls once)."""
        return self.turn // max(1, len(self.roll_order))

    def _seat(self, player: object) -> int:
        """``player`` if it is a seat of this game; ValueError otherwise (per-seat queries)."""
        seat = self.check_player(player)
        assert seat is not None
        return seat

    def _terrain(self, terrain: object) -> int:
        """``terrain`` (0-based) if it is one of the twelve; ValueError otherwise."""
        if isinstance(terrain, bool) or not isinstance(terrain, int) or not 0 <= terrain < TERRAINS:
            raise ValueError(
                f"terrain must be 0..{TERRAINS - 1} (terrains 1-12 in notation), got {terrain!r}"
            )
        return terrain

    def _can_resell(self, terrain: int) -> bool:
        """« moyennant son prix d'acquisition »: the mayor can pay the price (or, under
        ``resale_payment="aside_back"``, the seller takes back what he set aside: always)."""
        if self.options.resale_payment == "aside_back":
            return True
        return self.coms[self.mayor] >= self.price[terrain]

    def _sellable(self, player: int) -> list[int]:
        """« revendre au maire la zone-cobaye qu'il détient »: the terrains ``player`` holds and
        can resell now (a challenger: the mayor does not sell to himself)."""
        if player == self.mayor or player not in self.owner:
            return []
        return [t for t in range(TERRAINS) if self.owner[t] == player and self._can_resell(t)]

    def _next_turn(self) -> None:
        """Start the next turn: skip parked players, end the game when its end condition holds."""
        while True:
            self.turn += 1
            if self._game_should_end():
                self._finish()
                return
            order = self.roll_order
            roller = order[(self.turn + self.order_offset) % len(order)]
            self.roller = roller
            if self._is_out(roller):
                continue
            if self.skip_next[roller]:
                self.skip_next[roller] = False
                self.events.append(Event(self.turn, "skip", roller))
                continue
            break
        self.boosted = [False] * self.game.num_players
        self.landed = -1
        self.chained = False
        if self._roller_has_choices():
            self.phase = PRE_ROLL
        else:
            self._after_roller_ready()

    def _is_out(self, player: int) -> bool:
        """A bankrupt challenger out of the game (option ``bankrupt="out"``)."""
        return self.bankrupt[player] and player != self.mayor and self.options.bankrupt == "out"

    def _may_boost(self, player: int) -> bool:
        """An atout or a joker in hand and none played yet this roll (« au moment de lancer »)."""
        return self.tokens[player] > 0 and not self.boosted[player]

    def _roller_has_choices(self) -> bool:
        """Something for the roller to decide before the dice (else they come at once)."""
        p = self.roller
        return self._may_boost(p) or bool(self._sellable(p))

    def _after_roller_ready(self) -> None:
        """The roller has rolled: open the boost window for the others, or throw the dice."""
        if self.options.boost_timing == "any_roll":
            n = self.game.num_players
            seats = [(self.roller + i) % n for i in range(1, n)]
            self.queue = tuple(p for p in seats if self.tokens[p] > 0)
            if self.queue:
                self.phase = BOOST_WINDOW
                return
        self.phase = ROLL_DICE

    def _next_in_window(self) -> None:
        """The next token holder answers the boost window; the dice when nobody is left."""
        self.queue = self.queue[1:]
        if not self.queue:
            self.phase = ROLL_DICE

    def _land(self, a: int, b: int) -> None:
        """The dice ``a, b`` move the roller's pawn: a refuge, an auction, a rent, or park or pay."""
        o, p = self.options, self.roller
        if o.placement == "ring":
            self.ring_pos[p], code = ring_landing(o, self.game.ring, self.ring_pos[p], a, b)
        else:
            code = direct_landing(o, a, b)
        self.where[p] = code
        if a == b and o.token_draw == "doubles":
            self._give_token(p)  # « A chaque fois qu'un atout, un joker … sont tirés »
        if code >= REFUGE_BASE:
            self._refuge(p, code - REFUGE_BASE)
            return
        owner = self.owner[code]
        self.landed = code
        if owner < 0:
            self._open_auction(code)
        elif owner == p and o.occupied == "by_another":
            self.prev_occupied[p] = False
            self._no_auction()
            self._end_turn()
        elif self.prev_occupied[p]:
            self._no_auction()
            self.phase = PARK_CHOICE
        else:
            self._no_auction()
            self._pay_rent(p, code)
            self.prev_occupied[p] = True
            self._end_turn()

    def _no_auction(self) -> None:
        """Boosts played before a roll that brings no auction are lost, or given back (option)."""
        if self.options.boost_kept_if_no_auction:
            for q, used in enumerate(self.boosted):
                if used:
                    self.tokens[q] += 1
        self.boosted = [False] * self.game.num_players

    def _refuge(self, p: int, refuge: int) -> None:
        """« Les refuges permettent de passer son tour tout en recevant 200 points COM'S et 20
        points VOT'S » (option ``refuge_bonus``); the turn ends there."""
        o = self.options
        if o.refuge_bonus == "both":
            coms, vots = REFUGE_COMS, REFUGE_VOTS
        elif p == self.mayor:
            coms, vots = REFUGE_COMS, 0
        else:
            coms, vots = 0, REFUGE_VOTS
        self.coms[p] += coms
        self.vots[p] += vots
        self.created += coms + vots
        self.events.append(Event(self.turn, "refuge", p, refuge, coms + vots))
        self.prev_occupied[p] = False
        if o.refuge_skips_next_turn:
            self.skip_next[p] = True
        self._no_auction()
        self._end_turn()

    def _open_auction(self, terrain: int) -> None:
        """A sealed auction for ``terrain``: every player still in bids once, from the roller
        (the mayor first and in the open under ``mayor_bid="open_first"``)."""
        n = self.game.num_players
        self.landed = terrain
        self.bids = [-1] * n
        seats = [q for q in ((self.roller + i) % n for i in range(n)) if not self._is_out(q)]
        if self.options.mayor_bid == "open_first":
            seats.remove(self.mayor)
            seats.insert(0, self.mayor)
        self.bid_order = tuple(seats)
        self.queue = self.bid_order
        self.prev_occupied[self.roller] = False
        self.phase = BIDDING

    def _resolve_auction(self) -> None:
        """The last bid is in: reveal, hand the terrain over, then the next auction or turn."""
        o, t, n = self.options, self.landed, self.game.num_players
        bids = [max(0, b) for b in self.bids]  # a player out of the game bids nothing
        double = o.boost == "value"
        values = [b * (2 if x and double else 1) for b, x in zip(bids, self.boosted, strict=True)]
        challengers = [p for p in self.bid_order if p != self.mayor]  # seat order from the roller
        kind, winner = self._auction_winner(values, challengers)
        price = self._pay_for_terrain(kind, winner, bids, challengers)
        self.auctions.append(
            AuctionResult(t, self.roller, tuple(bids), tuple(self.boosted), winner, kind, price, double)
        )
        if winner >= 0:
            self.owner[t] = winner
            self.price[t] = price
            self.events.append(Event(self.turn, "chapter", winner, t, price))
            if o.winner_rolls_next and winner in self.roll_order:
                # the next turn's roller is the winner; the order goes on from him
                order = self.roll_order
                self.order_offset = (order.index(winner) - (self.turn + 1)) % len(order)
        else:
            self.events.append(Event(self.turn, "no_sale", self.roller, t))
        self.bids = [-1] * n
        self.boosted = [False] * n
        if o.chain_auctions and not self.chained:
            self.chained = True
            nxt = self._next_free_terrain(t)
            if nxt >= 0:
                self._open_auction(nxt)
                return
        self._end_turn()

    def _auction_winner(self, values: list[int], challengers: list[int]) -> tuple[str, int]:
        """« Le contrôle d'une zone cobaye s'obtient en deux temps »: the mayor's COM'S against
        the challengers' VOT'S together, then the highest challenger.  ``(kind, winner)``, kind
        "mayor", "challenger" or "none" (winner -1)."""
        o, mayor = self.options, self.mayor
        total = sum(values[c] for c in challengers)
        m = values[mayor]
        if total == 0 and m == 0:
            if o.all_zero == "roller_free":
                return ("mayor" if self.roller == mayor else "challenger"), self.roller
            return "none", -1
        if m > total or (m == total and o.mayor_tie == "mayor"):
            return "mayor", mayor
        if m < total or o.mayor_tie == "challengers":
            top = max(values[c] for c in challengers)
            leaders = [c for c in challengers if values[c] == top]
            if len(leaders) == 1 or o.tie_break == "seat_order":
                return "challenger", leaders[0]
        return "none", -1

    def _pay_for_terrain(self, kind: str, winner: int, bids: list[int], challengers: list[int]) -> int:
        """Move the points the auction's ``kind`` of win moves; returns the terrain's price."""
        o, t, mayor = self.options, self.landed, self.mayor
        if kind == "mayor":
            # « Il s'empare alors des points COM'S et VOT'S qui ont été misés sur la case. »
            for c in challengers:
                self.vots[c] -= bids[c]
                self.vots[mayor] += bids[c]
            return bids[mayor] if o.mayor_price == "bid" else 0
        if kind != "challenger":
            return 0
        price = bids[winner]
        self.vots[winner] -= price
        self.aside[t] += price  # « Ces points sont placés de côté par celui qui emporte le pli. »
        self.aside_by[t] = winner
        if o.challenger_pot == "takes_all":
            pile = self.aside if o.set_aside == "all_bids" else None
            for c in challengers:
                if c != winner:
                    self.vots[c] -= bids[c]
                    if pile is None:
                        self.vots[winner] += bids[c]
                    else:
                        pile[t] += bids[c]  # the whole trick is set aside
            self.coms[mayor] -= bids[mayor]
            self.coms[winner] += bids[mayor]
        return price

    def _next_free_terrain(self, terrain: int) -> int:
        """« Puis on passe au terrain suivant »: the next free reachable terrain after ``terrain``
        by number (round the twelve), or -1."""
        for k in range(1, TERRAINS):
            nxt = (terrain + k) % TERRAINS
            if self.owner[nxt] < 0 and nxt in self.game.reachable:
                return nxt
        return -1

    def _transfer(self, payer: int, payee: int, amount: int) -> int:
        """Move up to ``amount`` points, from the payer's bidding currency first (the mayor's
        COM'S, a challenger's VOT'S), each point arriving in the currency it left in; VOT'S only
        under ``rent_currency="vots"``.  Returns what could be paid."""
        if self.options.rent_currency == "vots":
            purses: tuple[list[int], ...] = (self.vots,)
        else:
            purses = (self.coms, self.vots) if payer == self.mayor else (self.vots, self.coms)
        paid = 0
        for purse in purses:
            take = min(purse[payer], amount - paid)
            purse[payer] -= take
            purse[payee] += take
            paid += take
        return paid

    def _can_pay(self, payer: int) -> int:
        """Everything ``payer`` could pay a rent with (option ``rent_currency``)."""
        if self.options.rent_currency == "vots":
            return self.vots[payer]
        return self.vots[payer] + self.coms[payer]

    def _pay_rent(self, payer: int, terrain: int) -> None:
        """« le quart des points VOT'S que ce dernier a dû acquitter »: ``payer`` pays the rent of
        ``terrain`` to its owner, reselling first under ``broke_rule="sell_to_pay"``; short of
        it, the payer is bankrupt (out of the game under ``bankrupt="out"``)."""
        owner = self.owner[terrain]
        if owner == payer:
            return  # one's own terrain (``occupied="by_anyone"``): nothing to pay
        due = rent_for(self.options, self.price[terrain])
        if due > self._can_pay(payer) and self.options.broke_rule == "sell_to_pay" and payer != self.mayor:
            # resell terrains to the mayor, in number order, until the rent is covered
            for t in range(TERRAINS):
                if due <= self._can_pay(payer):
                    break
                if self.owner[t] == payer and self._can_resell(t):
                    self._resell(payer, t)
        paid = self._transfer(payer, owner, due)
        self.events.append(Event(self.turn, "rent", payer, terrain, paid, owner))
        if paid < due:
            self.bankrupt[payer] = True
            self.events.append(Event(self.turn, "bankrupt", payer, terrain, due - paid, owner))
            if self._is_out(payer):
                # « la faillite »: out of the game; his terrains go to the mayor (prices kept)
                for t in range(TERRAINS):
                    if self.owner[t] == payer:
                        self.owner[t] = self.mayor

    def _give_token(self, p: int) -> None:
        """An atout (a challenger) or a joker (the mayor) for ``p``; the next card's chapter."""
        slot = 1 if p == self.mayor else 0
        self.tokens[p] += 1
        self.events.append(Event(self.turn, ("atout", "joker")[slot], p, self.tokens_drawn[slot]))
        self.tokens_drawn[slot] += 1

    def _resell(self, seller: int, terrain: int) -> None:
        """``seller`` resells ``terrain`` to the mayor at its acquisition price (option
        ``resale_payment``); the roller's turn goes on, or the dice come if he has nothing left."""
        price = self.price[terrain]
        if self.options.resale_payment == "mayor_pays":
            self.coms[self.mayor] -= price
            self.coms[seller] += price
        else:
            self.vots[seller] += self.aside[terrain]
            self.aside[terrain] = 0
            self.aside_by[terrain] = -1
        self.owner[terrain] = self.mayor
        if self.options.resale_price == "paid":
            # « que ce dernier a dû acquitter pour l'acheter »: what the mayor paid
            self.price[terrain] = price if self.options.resale_payment == "mayor_pays" else 0
        self.events.append(Event(self.turn, "sale", seller, terrain, price, self.mayor))
        if self.phase == PRE_ROLL and not self._roller_has_choices():
            self._after_roller_ready()

    def _end_turn(self) -> None:
        """The turn is over: the next roller (or the end of the game)."""
        self.queue = ()
        self.landed = -1
        self._next_turn()

    def _game_should_end(self) -> bool:
        """The seed never says when the game ends: option ``end_when`` (``rounds`` always a limit)."""
        o = self.options
        if self.turn >= o.rounds * len(self.roll_order):
            return True
        if o.end_when == "all_owned":
            return all(self.owner[t] >= 0 for t in self.game.reachable)
        if o.end_when == "bankruptcy":
            return any(self.bankrupt)
        return False

    def final_points(self, player: int) -> tuple[int, int]:
        """(VOT'S, COM'S) that count for « possède le plus de points »: in hand, plus the VOT'S
        ``player`` set aside on terrains under ``aside_counts=True``."""
        p = self._seat(player)
        kept = 0
        if self.options.aside_counts:
            kept = sum(a for a, by in zip(self.aside, self.aside_by, strict=True) if by == p)
        return self.vots[p] + kept, self.coms[p]

    def _richest(self, pool: list[int]) -> tuple[int, ...]:
        """« Le joueur qui ... possède le plus de points »: the richest of ``pool`` (option
        ``richest_by``: the sum, or the most of each currency; maybe nobody, maybe a tie)."""
        points = {p: self.final_points(p) for p in pool}
        if self.options.richest_by == "each":
            top_v = max(v for v, _ in points.values())
            top_c = max(c for _, c in points.values())
            return tuple(p for p in pool if points[p] == (top_v, top_c))  # may be nobody
        best = max(v + c for v, c in points.values())
        return tuple(p for p in pool if sum(points[p]) == best)

    def _finish(self) -> None:
        """The end: president, re-elected mayor, or the richest player wins (see :data:`OUTCOME_TEXT`)."""
        o = self.options
        mayor = self.mayor
        held = self.owner.count(mayor)
        owned = sum(1 for x in self.owner if x >= 0)
        n = self.game.num_players
        pool = [p for p in range(n) if (o.richest_among == "all" or p != mayor) and not self._is_out(p)]
        richest = self._richest(pool) if pool else ()
        majority = self._mayor_has_majority(held, owned)
        if held > o.president_more_than:
            self.outcome, self.winners = "president", (mayor,)
        elif majority and (o.ce_dernier == "mayor" or mayor in richest or not pool):
            self.outcome, self.winners = "reelected", (mayor,)
        elif not richest:
            # every challenger is out, or (richest_by="each") nobody has the most of both: nobody
            # « devient maire », the mayor stays
            self.outcome, self.winners = "mayor_stays", (mayor,)
        else:
            self.winners = richest
            if richest == (mayor,):
                self.outcome = "richest_mayor"
            elif mayor in richest:
                self.outcome = "richest_tie"
            else:
                self.outcome = "new_mayor"
        self.events.append(Event(self.turn, "end", self.winners[0], held))
        self.phase = OVER
        self.queue = ()

    def _mayor_has_majority(self, held: int, owned: int) -> bool:
        """« la majorité des terrains » as option ``majority`` reads it."""
        rule = self.options.majority
        if rule == "of_twelve":
            return held * 2 > TERRAINS
        if rule == "of_owned":
            return held * 2 > owned
        others = [self.owner.count(p) for p in self.challengers]
        return held > max(others, default=0)
