"""Delanopolis: the rules engine — the game, the state, and each action's rule.

Seed: ``shared/seeds/001_65a2bbb1a7b7e170.txt``.  The text says its rules are unclear on purpose
("aussi clair que les principes de circulation dans un quartier vert"); every reading we had to
choose is a field of :class:`DelanopolisOptions` (``options.py``), quoted in
``docs/rules/delanopolis.md``.  The folder reads as: ``options.py`` (the options and what they
mean), ``actions.py`` (the actions and their notation), ``phases.py`` (a turn's phases, each
declared once), ``effects.py`` (what follows from a move: the
turn order, the dice, the auction, rents, resales, the end), and here, for each action class,
its ``@transition`` next to its ``@refusal`` (the rule it names when refused).

A game: a lot draws the mayor (chance ``mayor k``); then players roll in turn.  A turn is

* ``sell T`` (any number), ``boost`` (play an atout/joker), ``roll`` — the roller's choices,
  skipped when there are none; with ``boost_timing="any_roll"`` the other holders then say
  ``boost`` or ``keep``;
* the dice (chance ``dice a b``): the pawn lands on a terrain or a refuge;
* on a free terrain, a sealed-bid auction: every player says ``bid N`` in turn, hidden from the
  others until the last bid, then the bids are revealed and the terrain changes hands;
* on an occupied terrain, the rent; the second occupied landing in a row offers ``park``
  (stay without paying, win an atout / joker) or ``pay``.

Points are ints; every VOT'S and COM'S is in a player's hands or set aside on a terrain (the
price a challenger paid), and only refuges create points (``state.created``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from gamelib.core.errors import IllegalAction
from gamelib.core.fields import StateFields, current_player_field
from gamelib.core.game import CHANCE, Action, Game, GameInfo
from gamelib.core.rulebook import refusal, transition
from gamelib.delanopolis.actions import (
    ALL_DICE,
    BOOST,
    DICE_OUTCOMES,
    KEEP,
    LOTS,
    NOTATION,
    PARK,
    PAY,
    ROLL,
    SELLS,
    Bid,
    Boost,
    Dice,
    Keep,
    Lot,
    Park,
    Pay,
    Roll,
    Sell,
    bid,
    bid_list,
    bids_up_to,
)
from gamelib.delanopolis.board import START, TERRAINS, board, content
from gamelib.delanopolis.effects import OUTCOME_TEXT, AuctionResult, Effects, Event
from gamelib.delanopolis.options import (
    REFUGE_COMS,
    REFUGE_VOTS,
    VERSION_3_DEFAULTS,
    DelanopolisOptions,
    bid_caps,
    reachable_terrains,
    rent_for,
)
from gamelib.delanopolis.phases import (
    BIDDING,
    BOOST_WINDOW,
    DECISIONS,
    LOT,
    OVER,
    PARK_CHOICE,
    PHASES,
    PRE_ROLL,
    ROLL_DICE,
)

_ACTORS = PHASES.actors
"""``_ACTORS[phase](state)``: who acts (read after every move)."""


def points_bound(game: DelanopolisGame) -> int:
    """No amount in a game exceeds this: the points dealt at the start plus every refuge bonus
    the game's rolls could create (points are conserved otherwise)."""
    o, n = game.options, game.num_players
    return max(1, o.start_vots * (2 * n - 1) + o.rounds * n * (REFUGE_COMS + REFUGE_VOTS))


class DelanopolisGame(Game):
    """Delanopolis for 3 to 6 players: one mayor (drawn by lot) against the challengers."""

    info: ClassVar[GameInfo] = GameInfo(
        name="delanopolis",
        title="Delanopolis",
        min_players=3,
        max_players=6,
        default_players=4,
        min_return=0.0,
        max_return=1.0,
        perfect_information=False,
        has_chance=True,
        utility="general_sum",
        capabilities=frozenset({"observation_tensor"}),
        hidden_masks=("bid ?",),
        description="Satirical sealed-bid game: the mayor of Paris (COM'S) against the challengers "
        "(VOT'S) for twelve zones cobayes.  Returns: 1 to each winner, 0 to the others.",
    )
    Options: ClassVar[type] = DelanopolisOptions
    options: DelanopolisOptions
    version: ClassVar[str] = "4"
    drawing: ClassVar[str] = "gamelib.delanopolis.draw:draw_state"
    encoder: ClassVar[str] = "gamelib.delanopolis.encoding:observation_tensor"
    legacy_defaults: ClassVar[dict[str, dict[str, Any]]] = {
        # version 2 follows the text where version 1 did not: resale « A tout moment », the price
        # a resold terrain keeps, and the bankrupt player (out); the other options it added
        # default to the version 1 behaviour
        "1": {
            "resale_when": "before_roll",
            "resale_price": "kept",
            "bankrupt": "plays_on",
            "resale_paid_to": "roller",
            **VERSION_3_DEFAULTS,
        },
        # version 3 pays the seller of a resale made in another player's boost window (version 2
        # paid the roller)
        "2": {"resale_paid_to": "roller", **VERSION_3_DEFAULTS},
        # version 4: every default is the text's reading (the number obtained names the terrain)
        "3": dict(VERSION_3_DEFAULTS),
    }

    def _setup(self) -> None:
        o = self.options
        self.board = board(o.refuges if o.placement == "ring" else 0)
        self.ring = self.board.ring
        self.reachable = reachable_terrains(o)
        self.caps = bid_caps(o, self.num_players)
        """(challenger's cap, mayor's cap) on a bid, -1 for none (:func:`bid_caps`)."""

    @property
    def max_game_length(self) -> int:
        n = self.num_players
        # per turn: up to 12 sales, boost and roll, n-1 boost/keep, the dice, n bids (twice with
        # chained auctions), park/pay
        per_turn = TERRAINS + 2 + (n - 1) + 1 + 2 * n + 1
        return 1 + self.options.rounds * n * per_turn

    def max_bid_bound(self) -> int:
        """No bid can ever exceed this: the largest cap, or every point the game can hold."""
        o, n = self.options, self.num_players
        if min(self.caps) >= 0:
            top = max(self.caps) * (2 if o.boost == "cap" else 1)  # a boost may double a cap
        else:
            created = o.rounds * n * (REFUGE_COMS + REFUGE_VOTS)
            top = o.start_vots * (2 * n - 1) + created
        return top - top % o.bid_step

    def action_universe(self) -> tuple[Action, ...]:
        """Lots, dice, roll/boost/keep/park/pay, sales, then bids in increasing amounts."""
        return NOTATION.universe(self)

    def new_game(self, seed: int | None = None) -> DelanopolisState:
        return DelanopolisState(self, seed)

    def parse_action(self, text: str) -> Action:
        # A bid is read up to MAX_NOTATION in any step (the declaration's static range): an amount
        # this game cannot take is refused by the rule it breaks (bid-step, bid-cap, bid-funds).
        loose = isinstance(text, str) and text.lower().split(maxsplit=1)[:1] == ["bid"]
        return NOTATION.parse(text, None if loose else self)


class DelanopolisState(Effects):
    """A position of Delanopolis (see the module docstring for the turn structure)."""

    game: DelanopolisGame
    fields = StateFields(
        key="phase mayor vots coms owner price aside aside_by ring_pos where tokens tokens_drawn "
        "prev_occupied skip_next bankrupt roll_order turn order_offset roller boosted queue landed "
        "bids bid_order chained created auctions events outcome winners",
        private="bids",  # the others' pending sealed bids
        config="options",
        derived="_to_move",
        lists="vots coms owner price aside aside_by ring_pos where tokens tokens_drawn prev_occupied "
        "skip_next bankrupt boosted bids auctions events",
    )

    def __init__(self, game: DelanopolisGame, seed: int | None) -> None:
        super().__init__(game, seed)
        n = game.num_players
        self.options: DelanopolisOptions = game.options
        self._to_move = CHANCE
        self.phase = LOT
        self.mayor = -1
        self.vots = [0] * n
        self.coms = [0] * n
        self.owner = [-1] * TERRAINS
        self.price = [0] * TERRAINS
        self.aside = [0] * TERRAINS
        self.aside_by = [-1] * TERRAINS  # who set the points aside on each terrain
        self.ring_pos = [START] * n  # index on the ring (placement "ring")
        self.where = [START] * n  # square code, for every placement
        self.tokens = [0] * n  # atouts (challengers) / jokers (the mayor)
        self.tokens_drawn = [0, 0]  # atouts, jokers handed out so far (which chapter comes next)
        self.prev_occupied = [False] * n
        self.skip_next = [False] * n
        self.bankrupt = [False] * n
        self.roll_order: tuple[int, ...] = ()
        self.turn = 0  # turns started (a round is len(roll_order) turns)
        self.order_offset = 0  # shifts the order ("winner_rolls_next")
        self.roller = -1
        self.boosted = [False] * n
        self.queue: tuple[int, ...] = ()  # players still to act in BOOST_WINDOW / BIDDING
        self.landed = -1  # terrain under auction (0-based)
        self.bids = [-1] * n  # -1: not yet bid
        self.bid_order: tuple[int, ...] = ()
        self.chained = False
        self.created = 0  # points created by refuges
        self.auctions: list[AuctionResult] = []
        self.events: list[Event] = []
        self.outcome = ""
        self.winners: tuple[int, ...] = ()

    # ------------------------------------------------------------------ queries
    current_player = current_player_field("_to_move")

    def _derive(self) -> None:
        self._to_move = _ACTORS[self.phase](self)

    def wealth(self, player: int) -> int:
        """VOT'S + COM'S in hand (points set aside on terrains are spent)."""
        p = self._seat(player)
        return self.vots[p] + self.coms[p]

    def purse(self, player: int) -> int:
        """The points ``player`` bids with: COM'S for the mayor, VOT'S for a challenger."""
        return self._purse(self._seat(player))

    def _purse(self, player: int) -> int:
        """:meth:`purse` for a seat already checked."""
        return self.coms[player] if player == self.mayor else self.vots[player]

    def terrains_of(self, player: int) -> list[int]:
        """The terrains ``player`` holds (0-based)."""
        p = self._seat(player)
        return [t for t in range(TERRAINS) if self.owner[t] == p]

    def total_points(self) -> int:
        """Every point in the game: in hands plus set aside (conservation: initial + created)."""
        return sum(self.vots) + sum(self.coms) + sum(self.aside)

    def initial_points(self) -> int:
        """The points dealt at the lot (the mayor's COM'S, the challengers' VOT'S)."""
        o, n = self.options, self.game.num_players
        return o.start_vots * (n - 1) * 2 + (o.start_vots if o.mayor_starts_with_vots else 0)

    def bid_cap(self, player: int) -> int:
        """The largest bid the rules allow ``player`` (before counting what he holds); -1: none."""
        return self._bid_cap(self._seat(player))

    def _bid_cap(self, player: int) -> int:
        """:meth:`bid_cap` for a seat already checked."""
        cap = self.game.caps[player == self.mayor]
        if cap > 0 and self.boosted[player] and self.options.boost == "cap":
            return cap * 2  # « doubler les points joués » read as the stake: a boost doubles the cap
        return cap

    def max_bid(self, player: int) -> int:
        """The largest bid ``player`` may make now: the cap, or what he holds, on the step."""
        return self._max_bid(self._seat(player))

    def _max_bid(self, player: int) -> int:
        """:meth:`max_bid` for a seat already checked (the legal bids are the steps up to it)."""
        cap = self._bid_cap(player)
        have = self._purse(player)
        top = have if cap < 0 else min(cap, have)
        step = self.options.bid_step
        return top - top % step

    def bid_amounts(self, player: int) -> range:
        """The amounts ``player`` may bid now."""
        return range(0, self.max_bid(player) + 1, self.options.bid_step)

    def rent(self, terrain: int) -> int:
        """The rent due on ``terrain``: « le quart » of its price."""
        return rent_for(self.options, self.price[self._terrain(terrain)])

    def sellable(self, player: int) -> list[int]:
        """Terrains ``player`` may resell to the mayor now (challengers only)."""
        return self._sellable(self._seat(player))

    def bid_is_public(self, player: int) -> bool:
        """``mayor_bid="open_first"``: the mayor's bid is open, the others' sealed."""
        return self._seat(player) == self.mayor and self.options.mayor_bid == "open_first"

    # ------------------------------------------------------------------ legal moves
    def _legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == BIDDING:  # the most frequent first
            return bid_list(self._max_bid(self.queue[0]), self.options.bid_step)
        if phase == ROLL_DICE:
            return list(ALL_DICE)
        if phase == PRE_ROLL:
            acts = self._sales()
            if self._may_boost(self.roller):
                acts.append(BOOST)
            acts.append(ROLL)
            return acts
        if phase == BOOST_WINDOW:
            return [*self._sales(), BOOST, KEEP]
        if phase == PARK_CHOICE:
            return [*self._sales(), PARK, PAY]
        if phase == LOT:
            return list(LOTS[: self.game.num_players])
        return []

    def _resale_open(self) -> bool:
        """« A tout moment, un joueur peut revendre au maire »: before one's own roll, and under
        ``resale_when="any_decision"`` at every decision outside the roll's own (a boost window,
        park or pay); never inside a sealed auction, nor once the dice are due."""
        phase = self.phase
        return phase == PRE_ROLL or (phase in DECISIONS and self.options.resale_when == "any_decision")

    def _sales(self) -> list[Action]:
        """The resales open now to the player to act."""
        if not self._resale_open():
            return []
        return [SELLS[t] for t in self._sellable(self._to_move)]

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase == ROLL_DICE:
            return list(DICE_OUTCOMES)
        if self.phase == LOT:
            n = self.game.num_players
            return [(LOTS[p], 1.0 / n) for p in range(n)]
        return []

    # ------------------------------------------------------------------ each action: transition, refusal
    def _apply(self, action: Action) -> None:
        """The action's ``@transition``, then who acts next (the one epilogue every move shares)."""
        self._transitions[type(action)](self, action)
        self._to_move = _ACTORS[self.phase](self)

    _OWN_RULE_AT_CHANCE: ClassVar[frozenset[type]] = frozenset({Lot, Dice, Sell, Park, Pay, Boost})
    """The actions whose refusal names its own rule even when a chance outcome is due: the chance
    outcomes themselves, and the moves a player may try just after the dice came at once (he had
    nothing left to decide): a resale, ``park``/``pay``, a boost without a token."""

    def _refuse_now(self, action: Action) -> IllegalAction | None:
        """Whatever the move, it waits while a chance outcome is due (except those above)."""
        if type(action) in self._OWN_RULE_AT_CHANCE:
            return None
        return self._chance_due(action)

    def _chance_due(self, action: Action) -> IllegalAction | None:
        """« on lance les dés »: a chance outcome (the lot, the dice) is expected, not a move."""
        if self._to_move != CHANCE:
            return None
        name = PHASES.names[self.phase]
        return IllegalAction("chance-node", f"a chance outcome is expected now ({name})", action)

    @transition(Lot)
    def _draw_mayor(self, action: Lot) -> None:
        """The lot makes ``action.player`` the mayor: the purses are dealt, the first turn starts."""
        o, n, mayor = self.options, self.game.num_players, action.player
        self.mayor = mayor
        for p in range(n):
            if p == mayor:
                self.coms[p] = o.start_vots * (n - 1)
                self.vots[p] = o.start_vots if o.mayor_starts_with_vots else 0
            else:
                self.vots[p] = o.start_vots
        first = (mayor + 1) % n
        seats = [(first + i) % n for i in range(n)]
        self.roll_order = tuple(p for p in seats if o.mayor_rolls or p != mayor)
        self.events.append(Event(0, "mayor", mayor))
        for _ in range(o.mayor_start_jokers):
            self._give_token(mayor)
        self.turn = -1
        self._next_turn()

    @transition(Dice)
    def _throw(self, action: Dice) -> None:
        """The dice land the roller's pawn (:meth:`~gamelib.delanopolis.effects.Effects._land`)."""
        self._land(action.a, action.b)

    @refusal(Lot, Dice)
    def _why_not_outcome(self, action: Action) -> IllegalAction:
        """A chance outcome given when a player must act, or not one this chance node offers."""
        if self._to_move != CHANCE:
            now = PHASES.names[self.phase]
            return IllegalAction("chance-node", f"{action} is a chance outcome; now: {now}", action)
        return IllegalAction("chance-node", f"{action} is not an outcome of this chance node", action)

    @transition(Roll)
    def _roll(self, action: Roll) -> None:
        """« on lance les dés »: the roller is done; the boost window or the dice follow."""
        self._after_roller_ready()

    @transition(Keep)
    def _keep(self, action: Keep) -> None:
        """A token holder lets someone else's roll go without a boost."""
        self._next_in_window()

    @refusal(Roll, Keep)
    def _why_not_now(self, action: Action) -> IllegalAction:
        """« à tour de rôle »: ``roll`` and ``keep`` only when the rules ask for them."""
        if isinstance(action, Roll):
            asked = "only the roller rolls, before the dice"
        else:
            asked = "'keep' answers a boost window"
        return IllegalAction("turn-order", f"{asked}; now: {PHASES.names[self.phase]}", action)

    @transition(Boost)
    def _boost(self, action: Boost) -> None:
        """« Ils pourront utiliser atouts et jokers ... au moment de lancer les dés »: a token
        played, this roll's bid doubled (its value or its cap: option ``boost``)."""
        p = self._to_move
        self.tokens[p] -= 1
        self.boosted[p] = True
        if self.phase == BOOST_WINDOW:
            self._next_in_window()
        elif not self._roller_has_choices():
            self._after_roller_ready()

    @refusal(Boost)
    def _why_not_boost(self, action: Boost) -> IllegalAction:
        """Before the dice only, one per roll, with a token in hand."""
        phase = self.phase
        if phase == ROLL_DICE and not self.tokens[self.roller]:
            return self._no_token(self.roller, action)  # the dice came at once: say why
        error = self._chance_due(action)
        if error is not None:
            return error
        if phase not in (PRE_ROLL, BOOST_WINDOW):
            now = PHASES.names[phase]
            return IllegalAction(
                "boost-at-roll", f"atouts and jokers are played at the moment of rolling; now: {now}", action
            )
        if self.boosted[self._to_move]:
            return IllegalAction("one-boost-per-roll", "one atout or joker per roll", action)
        return self._no_token(self._to_move, action)

    def _no_token(self, player: int, action: Action) -> IllegalAction:
        token = "joker" if player == self.mayor else "atout"
        return IllegalAction("boost-needs-token", f"{self.player_name(player)} holds no {token}", action)

    @transition(Park)
    def _park(self, action: Park) -> None:
        """« le lanceur peut y stationner un tour sans payer et il a droit à un atout »."""
        o, p = self.options, self.roller
        self.prev_occupied[p] = False
        if o.park_skips_turn:
            self.skip_next[p] = True
        self.events.append(Event(self.turn, "park", p, self.landed))
        self._give_token(p)
        if o.joker_when == "every_atout" and p != self.mayor:
            self._give_token(self.mayor)
        self._end_turn()

    @transition(Pay)
    def _pay(self, action: Pay) -> None:
        """The second occupied landing in a row, paid like the first."""
        self._pay_rent(self.roller, self.landed)
        self.prev_occupied[self.roller] = True
        self._end_turn()

    @refusal(Park, Pay)
    def _why_not_park(self, action: Action) -> IllegalAction:
        """« Si les dés le conduisent deux fois de suite en zone occupée »: only then."""
        return IllegalAction(
            "park-twice-occupied",
            "'park' and 'pay' answer a second landing in a row on an occupied terrain",
            action,
        )

    @transition(Sell)
    def _sell(self, action: Sell) -> None:
        """« A tout moment, un joueur peut revendre au maire la zone-cobaye qu'il détient »."""
        # the seller is whoever acts: the roller before his roll or at park/pay, a token holder in
        # a boost window (rules versions 1-2 paid the roller: option resale_paid_to)
        seller = self.roller if self.options.resale_paid_to == "roller" else self._to_move
        self._resell(seller, action.terrain)

    @refusal(Sell)
    def _why_not_sell(self, action: Sell) -> IllegalAction:
        """The moment (option ``resale_when``), then the seller, the terrain, the mayor's purse."""
        terrain = action.terrain
        before_roll = self.options.resale_when == "before_roll"
        seller = self.roller if before_roll or self._to_move == CHANCE else self._to_move
        if not self._resale_open():
            # just after the roller's own decisions (the dice came at once, or a boost window
            # opened), a resale he could have made is refused by the moment, any other by its
            # own rule below (he may not have seen the moment pass)
            just_after = self.phase == ROLL_DICE or (before_roll and self.phase == BOOST_WINDOW)
            if not just_after or terrain in self._sellable(seller):
                return self._resale_closed(action)
        if seller == self.mayor:
            return IllegalAction("resale-to-mayor", "the mayor cannot resell to himself", action)
        if self.owner[terrain] != seller:
            return IllegalAction("resale-own-terrain", f"terrain {terrain + 1} is not yours", action)
        return IllegalAction(
            "resale-mayor-funds",
            f"the mayor has {self.coms[self.mayor]} COM'S, not the price {self.price[terrain]}",
            action,
        )

    def _resale_closed(self, action: Sell) -> IllegalAction:
        """The refusal for a resale at a moment the option ``resale_when`` does not open."""
        if self.options.resale_when == "before_roll":
            return IllegalAction(
                "resale-before-roll",
                "terrains are resold by the roller before rolling (option resale_when)",
                action,
            )
        return IllegalAction(
            "resale-when",
            "a terrain is resold when its owner is to act, outside a sealed auction "
            f"and before the dice; now: {PHASES.names[self.phase]} (option resale_when)",
            action,
        )

    @transition(Bid)
    def _place_bid(self, action: Bid) -> None:
        """A sealed bid; the last one reveals the auction."""
        p = self.queue[0]
        self.bids[p] = action.amount
        self.queue = self.queue[1:]
        if not self.queue:
            self._resolve_auction()

    @refusal(Bid)
    def _why_not_bid(self, action: Bid) -> IllegalAction:
        """During an auction only; then « La mise maximum par coup et par joueur est de 60 points
        VOT'S » (the cap), the step, and the bidder's purse."""
        if self.phase != BIDDING:
            now = PHASES.names[self.phase]
            return IllegalAction("bid-when-auction", f"bids are made during an auction; now: {now}", action)
        amount, p, step = action.amount, self.queue[0], self.options.bid_step
        cap = self._bid_cap(p)
        if 0 <= cap < amount:
            return IllegalAction(
                "bid-cap",
                f"the maximum bid per roll is {cap} for {self.player_name(p)} (option bid_cap)",
                action,
            )
        have = self._purse(p)
        if amount % step and amount <= have:
            return IllegalAction("bid-step", f"bids are multiples of {step} (option bid_step)", action)
        currency = "COM'S" if p == self.mayor else "VOT'S"
        return IllegalAction("bid-funds", f"{self.player_name(p)} has only {have} {currency}", action)

    # ------------------------------------------------------------------ results
    def returns(self) -> list[float]:
        """1 to each winner, 0 to the others, once the game is over."""
        n = self.game.num_players
        if self.phase != OVER:
            return [0.0] * n
        return [1.0 if p in self.winners else 0.0 for p in range(n)]

    # ------------------------------------------------------------------ hidden information
    def hidden_bidders(self, viewer: int | None) -> list[int]:
        """Players whose pending bid ``viewer`` may not see (everyone else's sealed bid)."""
        return self._hidden_bidders(self.check_player(viewer, allow_none=True))

    def _hidden_bidders(self, viewer: int | None) -> list[int]:
        """:meth:`hidden_bidders` for a viewer already checked."""
        if self.phase != BIDDING or viewer is None:
            return []
        open_mayor = self.mayor if self.options.mayor_bid == "open_first" else -1
        return [
            q for q in range(self.game.num_players) if q != viewer and q != open_mayor and self.bids[q] >= 0
        ]

    def _observation(self, player: int | None) -> DelanopolisObservation:
        """What ``player`` sees: everything on the table, but not the others' pending bids."""
        hidden = self._hidden_bidders(player)
        seen = {name: _frozen(getattr(self, name)) for name in _OBSERVED}
        bids = tuple(None if q in hidden else b for q, b in enumerate(self.bids))
        return DelanopolisObservation(player=player, bids=bids, **seen)

    def _hidden_steps(self, player: int) -> dict[int, str]:
        """The others' pending sealed bids, as ``"bid ?"`` (everything else is on the table)."""
        return dict.fromkeys(self._pending_bid_steps(set(self._hidden_bidders(player))), "bid ?")

    def _pending_bid_steps(self, hidden: set[int]) -> dict[int, int]:
        """History index -> bidder, for the pending bids of ``hidden`` players.

        During an auction the bids placed so far are the last actions of the history, in
        ``bid_order``.
        """
        if not hidden:
            return {}
        placed = [q for q in self.bid_order if self.bids[q] >= 0]
        start = len(self.history) - len(placed)
        return {start + i: q for i, q in enumerate(placed) if q in hidden}

    def _determinize(self, player: int, rng: random.Random) -> DelanopolisState:
        """A full state consistent with ``player``'s view: hidden pending bids resampled.

        Each hidden bid is drawn uniformly from what that bidder could legally bid (the purse,
        the cap and the step are public, and nothing moves during an auction, so the set is
        known), and the history step that placed it is rewritten to match: the world replays
        to itself from its record.
        """
        world = self.clone()
        assert isinstance(world, DelanopolisState)
        for index, q in self._pending_bid_steps(set(self._hidden_bidders(player))).items():
            amount = rng.choice(bids_up_to(self._max_bid(q), self.options.bid_step)).amount
            world.bids[q] = amount
            world.history[index] = bid(amount)
        world.invalidate()
        return world

    def __str__(self) -> str:
        """The table as text, players numbered from 1 as a student counts (notation stays 0-based)."""
        names = content().terrains
        rounds = self.options.rounds  # after the last turn the count would read one past the end
        head = f"Delanopolis turn {self.turn}, round {min(self.round + 1, rounds)}/{rounds}"
        lines = [f"{head}, {PHASES.names[self.phase]}"]
        for p in range(self.game.num_players):
            role = "mayor" if p == self.mayor else "challenger"
            token = ("joker" if p == self.mayor else "atout") + "s"
            held = ", ".join(str(t + 1) for t in self.terrains_of(p)) or "none"
            lines.append(
                f"  {self.player_name(p)} {role:10s} VOT'S {self.vots[p]:5d}  COM'S {self.coms[p]:5d}  "
                f"{token} {self.tokens[p]}  terrains {held}"
            )
        if self.phase == BIDDING:
            placed = ", ".join(
                f"{self.player_name(q)} {self.bids[q]}" for q in self.bid_order if self.bids[q] >= 0
            )
            lines.append(
                f"  auction for {self.landed + 1}. {names[self.landed].name}: bids {placed or 'none yet'}"
            )
        if self.phase == OVER:
            winners = ", ".join(self.player_name(w) for w in self.winners)
            lines.append(f"  {OUTCOME_TEXT[self.outcome]}: {winners}")
        return "\n".join(lines)


@dataclass(frozen=True)
class DelanopolisObservation:
    """One player's view now: the whole table except the others' sealed bids (``None`` in
    ``bids``) until the reveal.  The history as the player saw it (``"bid ?"`` for those bids) is
    ``state.public_history(player)``."""

    player: int | None
    phase: int
    current_player: int
    mayor: int
    vots: tuple[int, ...]
    coms: tuple[int, ...]
    owner: tuple[int, ...]
    price: tuple[int, ...]
    aside: tuple[int, ...]
    where: tuple[int, ...]
    tokens: tuple[int, ...]
    skip_next: tuple[bool, ...]
    prev_occupied: tuple[bool, ...]
    turn: int
    roller: int
    boosted: tuple[bool, ...]
    landed: int
    bids: tuple[int | None, ...]
    bid_order: tuple[int, ...]
    auctions: tuple[AuctionResult, ...]
    events: tuple[Event, ...]
    outcome: str
    winners: tuple[int, ...]


_OBSERVED = tuple(f.name for f in fields(DelanopolisObservation) if f.name not in ("player", "bids"))
"""What an observation copies from the state as it is (the observation's fields say it once); the
viewer and the bids, some of them hidden, are its own."""


def _frozen(value: Any) -> Any:
    """A list of the state as the observation keeps it: a tuple (the observation is immutable)."""
    return tuple(value) if isinstance(value, list) else value
