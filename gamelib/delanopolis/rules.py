"""Delanopolis: the rules engine (state, actions, notation, rule options).

Seed: ``shared/seeds/001_65a2bbb1a7b7e170.txt``.  The text says its rules are unclear on purpose
("aussi clair que les principes de circulation dans un quartier vert"); every reading we had to
choose is a field of :class:`DelanopolisOptions`, quoted in ``docs/rules/delanopolis.md``.

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
from typing import Annotated, Any, ClassVar, Literal

from gamelib.core.errors import IllegalAction
from gamelib.core.fields import StateFields, current_player_field
from gamelib.core.game import CHANCE, TERMINAL, Action, Game, GameInfo, State
from gamelib.core.notation import Int, Notation, action_class
from gamelib.core.options import Between, check_declared
from gamelib.delanopolis.board import REFUGE_BASE, START, TERRAINS, board, content

START_VOTS = 1200
"""« Chaque joueur dispose de 1200 points VOT'S. »"""
REFUGE_COMS = 200
REFUGE_VOTS = 20
"""« Les refuges permettent de passer son tour tout en recevant 200 points COM'S et 20 points VOT'S. »"""
MAX_NOTATION = 10**18 - 1
"""Largest amount the notation reads (beyond every game's bids: :meth:`DelanopolisGame.max_bid_bound`
raises it when a configuration could ever need more), so an amount over the cap is read and then
refused by the rule it breaks (``bid-cap``, ``bid-funds``), not by the notation."""
MAX_START_VOTS = 10**6
"""Bound of option ``start_vots`` (keeps the action universe and the notation finite)."""


# ---------------------------------------------------------------------------- options
Placement = Literal["sum", "twelve_faces", "ring"]
RefugeBonus = Literal["both", "by_role"]
MayorBidCap = Literal["per_challenger", "same", "none"]
MayorBid = Literal["sealed", "open_first"]
ChallengerPot = Literal["takes_all", "refund"]
MayorPrice = Literal["bid", "zero"]
TieBreak = Literal["seat_order", "no_sale"]
MayorTie = Literal["challengers", "mayor", "no_sale"]
AllZero = Literal["no_sale", "roller_free"]
RentRounding = Literal["down", "up"]
JokerWhen = Literal["mayor_rolls", "every_atout"]
BoostTiming = Literal["own_roll", "any_roll"]
ResalePayment = Literal["mayor_pays", "aside_back"]
BrokeRule = Literal["pay_what_you_can", "sell_to_pay"]
EndWhen = Literal["rounds", "all_owned", "bankruptcy"]
Majority = Literal["of_twelve", "of_owned", "plurality"]
RichestAmong = Literal["challengers", "all"]
SetAside = Literal["winner_bid", "all_bids"]
ResaleWhen = Literal["any_decision", "before_roll"]
BoostDoubles = Literal["value", "cap"]
Occupied = Literal["by_another", "by_anyone"]
RentCurrency = Literal["purse_first", "vots"]
ResalePrice = Literal["paid", "kept"]
RichestBy = Literal["sum", "each"]
CeDernier = Literal["mayor", "richest"]
TokenDraw = Literal["parking", "doubles"]
Bankrupt = Literal["out", "plays_on"]
ResalePaidTo = Literal["seller", "roller"]


@dataclass(frozen=True)
class DelanopolisOptions:
    """Rule options: one field per unclear sentence of the seed (see docs/rules/delanopolis.md)."""

    placement: Placement = "sum"
    """« pour se placer, en fonction du nombre obtenu, sur le terrain concerné, numéroté de 1 à
    12 »: "sum", the terrain is the number obtained, the sum 2-12; "twelve_faces": one die picks
    1-6, the other the half (1-6 or 7-12); "ring": walk a drawn loop of terrains and refuges by
    the dice sum (rules versions 1-3's default)."""
    snake_eyes_is_one: bool = False
    """placement "sum": False, the number obtained names the terrain, so terrain 1 is never rolled;
    True: a double one reaches terrain 1 (so terrain 2 is never rolled; versions 1-3)."""
    refuges: Annotated[int, Between(0, 4)] = 4
    """placement "ring": number of refuge squares (0-4) spread evenly on the loop."""
    refuge_on_double: bool = False
    """Any double sends the pawn to a refuge instead (the only refuges of the direct placements)."""
    refuge_bonus: RefugeBonus = "both"
    """"both": +200 COM'S and +20 VOT'S to anyone; "by_role": the mayor +200 COM'S, a challenger +20 VOT'S."""
    refuge_skips_next_turn: bool = False
    """« passer son tour »: False, the turn ends there; True, the next turn is skipped as well."""
    start_vots: Annotated[int, Between(0, MAX_START_VOTS)] = START_VOTS
    """« Chaque joueur dispose de 1200 points VOT'S »: the challengers' purse (the mayor has it times
    the challengers in COM'S)."""
    mayor_starts_with_vots: bool = False
    """« Chaque joueur dispose de 1200 points VOT'S »: does "chaque joueur" include the mayor?"""
    bid_step: Annotated[int, Between(1, None)] = 1
    """Bids are multiples of this.  The text counts points one by one and sets no granularity: 1,
    any amount (versions 1-3 bid in tens, which keeps an agent's search small)."""
    bid_cap: Annotated[int, Between(0, None)] = 60
    """« La mise maximum par coup et par joueur est de 60 points VOT'S » (0 = no cap)."""
    mayor_bid_cap: MayorBidCap = "per_challenger"
    """The cap on the mayor's COM'S: bid_cap x challengers, bid_cap itself, or none."""
    mayor_bid: MayorBid = "sealed"
    """"sealed": the mayor bids secretly like everyone; "open_first": the mayor bids first, in the
    open (the seed reveals only « les points VOT'S »)."""
    challenger_pot: ChallengerPot = "takes_all"
    """A challenger's win: "takes_all", he « emporte les points » (the other bids); "refund": they
    go back to their owners.  His own bid is set aside on the terrain either way."""
    mayor_price: MayorPrice = "zero"
    """The price of a terrain the mayor takes (its rent is a quarter of it).  He keeps every bid,
    his own included, so he paid nothing: « le quart des points VOT'S que ce dernier a dû acquitter
    pour l'acheter » is a quarter of 0 ("zero"); "bid": his COM'S bid (versions 1-3)."""
    tie_break: TieBreak = "seat_order"
    """Equal top VOT'S bids: the first in seat order from the roller wins, or nobody does."""
    mayor_tie: MayorTie = "challengers"
    """Mayor's COM'S equal to the challengers' total: challengers win, the mayor wins, or no sale."""
    all_zero: AllZero = "no_sale"
    """Every bid zero: the terrain stays free, or the roller takes it at price 0."""
    rent_rounding: RentRounding = "down"
    """« le quart » of a price that is not a multiple of 4."""
    park_skips_turn: bool = True
    """« peut y stationner un tour »: parking skips the parker's next roll."""
    joker_when: JokerWhen = "mayor_rolls"
    """« Dans ce cas, le maire a droit, lui, à un joker »: when the mayor is the one landing twice,
    or also every time a challenger wins an atout."""
    boost_timing: BoostTiming = "own_roll"
    """« au moment de lancer les dés »: before one's own roll, or before any roll."""
    boost_kept_if_no_auction: bool = False
    """A boost played before a roll that brings no auction: lost, or given back."""
    resale_payment: ResalePayment = "mayor_pays"
    """« revendre au maire ... moyennant son prix d'acquisition »: the mayor pays the price from his
    COM'S, or the seller takes back the points set aside on the terrain."""
    broke_rule: BrokeRule = "pay_what_you_can"
    """A rent one cannot pay: pay everything one has, or first resell terrains to the mayor."""
    end_when: EndWhen = "rounds"
    """The seed never says when the game ends: after ``rounds`` rounds, when every reachable
    terrain is owned, or at the first bankruptcy (``rounds`` stays a limit in every case)."""
    rounds: Annotated[int, Between(1, 100)] = 8
    """Rolls per player (a round = every roller rolls once)."""
    majority: Majority = "of_twelve"
    """« la majorité des terrains »: more than 6 of 12, more than half of the owned ones, or more
    than any other single player."""
    president_more_than: Annotated[int, Between(0, TERRAINS)] = 9
    """« plus de 9 terrains sur 12 »: the mayor becomes president with more than this many."""
    richest_among: RichestAmong = "challengers"
    """« Le joueur qui ... possède le plus de points » : among the challengers, or everyone."""
    mayor_rolls: bool = True
    """« on lance les dés à tour de rôle »: does the mayor roll too?"""
    winner_rolls_next: bool = False
    """« prend la main »: the auction's winner rolls next (turn order continues from him)."""
    chain_auctions: bool = False
    """« Puis on passe au terrain suivant »: after an auction, the next free terrain (by number)
    is auctioned at once, once per roll.  False: the next roll."""

    mayor_start_jokers: Annotated[int, Between(0, TERRAINS)] = 0
    """« Vous disposez, au départ, d'atouts : la direction de la communication et les caisses de la
    ville » (the Principes, to the mayor): read as his COM'S treasury (0); a number gives him that
    many jokers at the start (2: one per atout named)."""
    set_aside: SetAside = "winner_bid"
    """« Ces points sont placés de côté par celui qui emporte le pli »: the winner's own bid (the
    highest, "ces points"), or every VOT'S bid revealed (the whole trick)."""
    aside_counts: bool = False
    """Do the points set aside count for the final « possède le plus de points »?  False: they paid
    for the terrain (« a dû acquitter pour l'acheter »); True: they are still the setter's."""
    resale_when: ResaleWhen = "any_decision"
    """« A tout moment, un joueur peut revendre au maire »: whenever the owner is to act, outside a
    sealed auction; or only on his own turn, before rolling (the rules version 1 reading)."""
    boost: BoostDoubles = "value"
    """« doubler les points joués »: the bid counts double (its value), or the boosted player may
    stake twice the cap (the points he may play double, each counting once)."""
    occupied: Occupied = "by_another"
    """« deux fois de suite en zone occupée »: occupied by another player (as in the rent sentence
    before it), or by anyone, one's own terrains included."""
    rent_currency: RentCurrency = "purse_first"
    """« le quart des points VOT'S »: paid from the payer's bidding currency first, then the other;
    or in VOT'S only (the mayor pays with the VOT'S he holds)."""
    resale_price: ResalePrice = "paid"
    """A resold terrain's price for rents: what the mayor paid for it (« que ce dernier a dû
    acquitter pour l'acheter »: the price, or nothing under ``resale_payment="aside_back"``), or the
    price kept from the first sale (version 1)."""
    richest_by: RichestBy = "sum"
    """« possède le plus de points VOT'S et COM'S »: the most of the two together, or the most of
    each (a player leading both; when nobody does, nobody displaces the mayor: he stays)."""
    ce_dernier: CeDernier = "mayor"
    """« … devient maire sauf si ce dernier a conservé la majorité des terrains, auquel cas il est
    réélu »: "ce dernier" is the mayor (his majority re-elects him); "richest": the richest player,
    so a majority re-elects the mayor only when he is also the richest."""
    token_draw: TokenDraw = "parking"
    """« A chaque fois qu'un atout, un joker ou un refuge sont tirés »: atouts and jokers are only won
    by parking; "doubles": a double thrown also draws one for the roller."""
    bankrupt: Bankrupt = "out"
    """« pour éviter la faillite »: a challenger who cannot pay is out (no more rolls or bids, his
    terrains go to the mayor, he cannot win); "plays_on": he stays with nothing (version 1)."""
    resale_paid_to: ResalePaidTo = "seller"
    """« un joueur peut revendre au maire la zone-cobaye qu'il détient »: the player who sells is
    paid.  "roller" is rules versions 1-2's error, kept only so their records replay: a token
    holder selling in another player's boost window had the roller paid instead."""

    def __post_init__(self) -> None:
        check_declared(self)  # choices and ranges, as declared above (options built by hand too)
        if self.bid_cap and self.bid_cap % self.bid_step:
            raise ValueError(
                f"option 'bid_cap' ({self.bid_cap}) must be a multiple of 'bid_step' ({self.bid_step})"
            )


# ---------------------------------------------------------------------------- actions
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
    configuration can ever take (multiples of ``bid_step`` up to :meth:`DelanopolisGame.max_bid_bound`);
    the notation reads any amount up to ``MAX_NOTATION`` (see :meth:`DelanopolisGame.parse_action`)."""

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


def _bid_list(top: int, step: int) -> list[Action]:
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


def points_bound(game: DelanopolisGame) -> int:
    """No amount in a game exceeds this: the points dealt at the start plus every refuge bonus
    the game's rolls could create (points are conserved otherwise)."""
    o, n = game.options, game.num_players
    return max(1, o.start_vots * (2 * n - 1) + o.rounds * n * (REFUGE_COMS + REFUGE_VOTS))


# ---------------------------------------------------------------------------- phases
LOT = 0  # chance: who is mayor
PRE_ROLL = 1  # roller: sell / boost / roll
BOOST_WINDOW = 2  # other token holders: boost / keep
ROLL_DICE = 3  # chance: the dice
BIDDING = 4  # bid N, in turn
PARK_CHOICE = 5  # park / pay
OVER = 6

PHASE_NAMES = {
    LOT: "the lot draws the mayor",
    PRE_ROLL: "before the roll",
    BOOST_WINDOW: "atouts and jokers before the roll",
    ROLL_DICE: "dice",
    BIDDING: "sealed bids",
    PARK_CHOICE: "park or pay",
    OVER: "game over",
}

OUTCOME_TEXT = {
    "president": "the mayor becomes President of the Republic",
    "reelected": "the mayor kept the majority of terrains and is re-elected",
    "new_mayor": "the richest player wins and becomes mayor",
    "richest_mayor": "the mayor is the richest player and stays mayor",
    "richest_tie": "the mayor and a challenger tie for the most points: they share the win",
    "mayor_stays": "nobody is the richest (or every challenger is out): the mayor stays",
}


@dataclass(frozen=True)
class AuctionResult:
    """A revealed auction: who bid what (``boosted`` bids count double), who took the terrain.

    ``kind`` is "mayor", "challenger" or "none"; ``price`` is what the terrain is worth for rents
    and resale.
    """

    terrain: int
    roller: int
    bids: tuple[int, ...]
    boosted: tuple[bool, ...]
    winner: int
    kind: str
    price: int
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


# ---------------------------------------------------------------------------- the game
VERSION_3_DEFAULTS: dict[str, Any] = {
    "placement": "ring",
    "snake_eyes_is_one": True,
    "bid_step": 10,
    "mayor_price": "bid",
}
"""The defaults rules versions 1-3 had where version 4 reads the text: « en fonction du nombre
obtenu, sur le terrain concerné » (the dice sum names the terrain, not a walk on a drawn ring),
points counted one by one, and a mayor who paid nothing for his terrain."""


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
        if o.bid_cap and o.mayor_bid_cap != "none":
            top = o.bid_cap * (n - 1 if o.mayor_bid_cap == "per_challenger" else 1)
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


def reachable_terrains(options: DelanopolisOptions) -> tuple[int, ...]:
    """Terrains (0-based) the dice can bring a pawn to under ``options``."""
    if options.placement == "ring":
        return tuple(range(TERRAINS))
    hit = set()
    for a in range(1, 7):
        for b in range(1, 7):
            code = direct_landing(options, a, b)
            if code < REFUGE_BASE:
                hit.add(code)
    return tuple(sorted(hit))


def direct_landing(options: DelanopolisOptions, a: int, b: int) -> int:
    """The square code the dice ``a, b`` name in the "sum" and "twelve_faces" placements."""
    if options.refuge_on_double and a == b:
        return REFUGE_BASE + (a - 1) % 4
    if options.placement == "sum":
        total = a + b
        if total == 2 and options.snake_eyes_is_one:
            return 0
        return total - 1
    return a - 1 + (6 if b >= 4 else 0)


class DelanopolisState(State):
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
        self._to_move = self._who_moves()

    def _who_moves(self) -> int:
        phase = self.phase
        if phase == OVER:
            return TERMINAL
        if phase in (LOT, ROLL_DICE):
            return CHANCE
        if phase in (BOOST_WINDOW, BIDDING):
            return self.queue[0]
        return self.roller

    @property
    def challengers(self) -> list[int]:
        return [p for p in range(self.game.num_players) if p != self.mayor]

    @property
    def round(self) -> int:
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

    def wealth(self, player: int) -> int:
        """VOT'S + COM'S in hand (points set aside on terrains are spent)."""
        p = self._seat(player)
        return self.vots[p] + self.coms[p]

    def purse(self, player: int) -> int:
        """The points ``player`` bids with: COM'S for the mayor, VOT'S for a challenger."""
        p = self._seat(player)
        return self.coms[p] if p == self.mayor else self.vots[p]

    def terrains_of(self, player: int) -> list[int]:
        p = self._seat(player)
        return [t for t in range(TERRAINS) if self.owner[t] == p]

    def total_points(self) -> int:
        """Every point in the game: in hands plus set aside (conservation: initial + created)."""
        return sum(self.vots) + sum(self.coms) + sum(self.aside)

    def initial_points(self) -> int:
        o, n = self.options, self.game.num_players
        return o.start_vots * (n - 1) * 2 + (o.start_vots if o.mayor_starts_with_vots else 0)

    def bid_cap(self, player: int) -> int:
        """The largest bid the rules allow ``player`` (before counting what he holds); -1: none."""
        return self._bid_cap(self._seat(player))

    def _bid_cap(self, player: int) -> int:
        o = self.options
        if not o.bid_cap:
            return -1
        # « doubler les points joués » read as the stake: a boost doubles the cap
        double = 2 if o.boost == "cap" and self.boosted[player] else 1
        if player != self.mayor:
            return o.bid_cap * double
        if o.mayor_bid_cap == "none":
            return -1
        if o.mayor_bid_cap == "same":
            return o.bid_cap * double
        return o.bid_cap * (self.game.num_players - 1) * double

    def max_bid(self, player: int) -> int:
        """The largest bid ``player`` may make now: the cap, or what he holds, on the step."""
        return self._max_bid(self._seat(player))

    def _max_bid(self, player: int) -> int:
        cap = self._bid_cap(player)
        have = self.coms[player] if player == self.mayor else self.vots[player]
        top = have if cap < 0 else min(cap, have)
        step = self.options.bid_step
        return top - top % step

    def bid_amounts(self, player: int) -> range:
        return range(0, self.max_bid(player) + 1, self.options.bid_step)

    def rent(self, terrain: int) -> int:
        price = self.price[self._terrain(terrain)]
        return -(-price // 4) if self.options.rent_rounding == "up" else price // 4

    def _can_resell(self, terrain: int) -> bool:
        if self.options.resale_payment == "aside_back":
            return True
        return self.coms[self.mayor] >= self.price[terrain]

    def sellable(self, player: int) -> list[int]:
        """Terrains ``player`` may resell to the mayor now (challengers only)."""
        return self._sellable(self._seat(player))

    def _sellable(self, player: int) -> list[int]:
        if player == self.mayor or player not in self.owner:
            return []
        return [t for t in range(TERRAINS) if self.owner[t] == player and self._can_resell(t)]

    def bid_is_public(self, player: int) -> bool:
        return self._seat(player) == self.mayor and self.options.mayor_bid == "open_first"

    # ------------------------------------------------------------------ legal moves
    def _legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == ROLL_DICE:
            return list(ALL_DICE)
        if phase == LOT:
            return list(LOTS[: self.game.num_players])
        if phase == PRE_ROLL:
            p = self.roller
            acts: list[Action] = [SELLS[t] for t in self._sellable(p)]
            if self.tokens[p] and not self.boosted[p]:
                acts.append(BOOST)
            acts.append(ROLL)
            return acts
        if phase == BOOST_WINDOW:
            return [*self._decision_sales(self.queue[0]), BOOST, KEEP]
        if phase == BIDDING:
            return _bid_list(self._max_bid(self.queue[0]), self.options.bid_step)
        if phase == PARK_CHOICE:
            return [*self._decision_sales(self.roller), PARK, PAY]
        return []

    def _decision_sales(self, player: int) -> list[Action]:
        """« A tout moment »: resales open to ``player`` at a decision outside the roll's own."""
        if self.options.resale_when != "any_decision":
            return []
        return [SELLS[t] for t in self._sellable(player)]

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase == LOT:
            n = self.game.num_players
            return [(LOTS[p], 1.0 / n) for p in range(n)]
        if self.phase == ROLL_DICE:
            return list(DICE_OUTCOMES)
        return []

    # ------------------------------------------------------------------ errors
    def _explain_illegal(self, action: Action) -> IllegalAction:
        phase, who = self.phase, self._who_moves()
        name = PHASE_NAMES[phase]
        if isinstance(action, (Lot, Dice)):
            if who != CHANCE:
                return IllegalAction("chance-node", f"{action} is a chance outcome; now: {name}", action)
            return IllegalAction("chance-node", f"{action} is not an outcome of this chance node", action)
        if isinstance(action, Sell):
            # before the chance check: the dice come at once when the roller has nothing to decide,
            # so a refused resale is explained by its own rule, not by "the dice are expected"
            return self._explain_sell(action)
        if isinstance(action, Boost) and phase == ROLL_DICE:
            # the dice come at once when the roller has nothing to decide: say why
            p = self.roller
            if not self.tokens[p]:
                token = "joker" if p == self.mayor else "atout"
                return IllegalAction("boost-needs-token", f"{self.player_name(p)} holds no {token}", action)
        if isinstance(action, (Park, Pay)):
            return IllegalAction(
                "park-twice-occupied",
                "'park' and 'pay' answer a second landing in a row on an occupied terrain",
                action,
            )
        if who == CHANCE:
            return IllegalAction("chance-node", f"a chance outcome is expected now ({name})", action)
        if isinstance(action, Bid):
            if phase != BIDDING:
                return IllegalAction(
                    "bid-when-auction", f"bids are made during an auction; now: {name}", action
                )
            return self._explain_bid(action)
        if isinstance(action, Boost):
            if phase not in (PRE_ROLL, BOOST_WINDOW):
                return IllegalAction(
                    "boost-at-roll",
                    f"atouts and jokers are played at the moment of rolling; now: {name}",
                    action,
                )
            if self.boosted[who]:
                return IllegalAction("one-boost-per-roll", "one atout or joker per roll", action)
            token = "joker" if who == self.mayor else "atout"
            return IllegalAction("boost-needs-token", f"{self.player_name(who)} holds no {token}", action)
        if isinstance(action, Roll):
            return IllegalAction("turn-order", f"only the roller rolls, before the dice; now: {name}", action)
        if isinstance(action, Keep):
            return IllegalAction("turn-order", f"'keep' answers a boost window; now: {name}", action)
        return IllegalAction("not-legal", f"{action} is not legal now ({name})", action)

    def _explain_bid(self, action: Bid) -> IllegalAction:
        amount = action.amount
        p = self.queue[0]
        step = self.options.bid_step
        cap = self._bid_cap(p)
        if 0 <= cap < amount:
            return IllegalAction(
                "bid-cap",
                f"the maximum bid per roll is {cap} for {self.player_name(p)} (option bid_cap)",
                action,
            )
        have = self.coms[p] if p == self.mayor else self.vots[p]
        if amount % step and amount <= have:
            return IllegalAction("bid-step", f"bids are multiples of {step} (option bid_step)", action)
        currency = "COM'S" if p == self.mayor else "VOT'S"
        return IllegalAction("bid-funds", f"{self.player_name(p)} has only {have} {currency}", action)

    def _explain_sell(self, action: Sell) -> IllegalAction:
        terrain = action.terrain
        phase, who = self.phase, self._who_moves()
        if self.options.resale_when == "before_roll":
            before_dice = phase in (PRE_ROLL, BOOST_WINDOW, ROLL_DICE)
            if not before_dice or (phase != PRE_ROLL and terrain in self._sellable(self.roller)):
                return IllegalAction(
                    "resale-before-roll",
                    "terrains are resold by the roller before rolling (option resale_when)",
                    action,
                )
            p = self.roller
        else:
            # any decision of one's own outside an auction; at the dice, the roller's (he had
            # nothing left to decide)
            p = self.roller if who == CHANCE else who
            if phase in (LOT, BIDDING) or (phase == ROLL_DICE and terrain in self._sellable(p)):
                return IllegalAction(
                    "resale-when",
                    "a terrain is resold when its owner is to act, outside a sealed auction "
                    f"and before the dice; now: {PHASE_NAMES[phase]} (option resale_when)",
                    action,
                )
        if p == self.mayor:
            return IllegalAction("resale-to-mayor", "the mayor cannot resell to himself", action)
        if self.owner[terrain] != p:
            return IllegalAction("resale-own-terrain", f"terrain {terrain + 1} is not yours", action)
        return IllegalAction(
            "resale-mayor-funds",
            f"the mayor has {self.coms[self.mayor]} COM'S, not the price {self.price[terrain]}",
            action,
        )

    # ------------------------------------------------------------------ transitions
    def _apply(self, action: Action) -> None:
        phase = self.phase
        # the most frequent actions first: bids, then the dice
        if isinstance(action, Bid):
            self._bid(action.amount)
        elif isinstance(action, Dice):
            self._land(action.a, action.b)
        elif isinstance(action, Lot):
            self._setup(action.player)
        elif isinstance(action, Sell):
            # the seller is whoever acts: the roller before his roll or at park/pay, a token
            # holder in a boost window
            seller = self.roller if self.options.resale_paid_to == "roller" else self.current_player
            self._resell(seller, action.terrain)
        elif isinstance(action, Boost):
            p = self.current_player
            self.tokens[p] -= 1
            self.boosted[p] = True
            if phase == BOOST_WINDOW:
                self._next_in_window()
            elif not self._roller_has_choices():
                self._after_roller_ready()
        elif isinstance(action, Roll):
            self._after_roller_ready()
        elif isinstance(action, Keep):
            self._next_in_window()
        elif isinstance(action, Park):
            self._park()
        elif isinstance(action, Pay):
            self._pay_rent(self.roller, self.landed)
            self.prev_occupied[self.roller] = True
            self._end_turn()
        self._to_move = self._who_moves()

    def _setup(self, mayor: int) -> None:
        o, n = self.options, self.game.num_players
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

    def _roller_has_choices(self) -> bool:
        p = self.roller
        return bool(self._sellable(p)) or (self.tokens[p] > 0 and not self.boosted[p])

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
        self.queue = self.queue[1:]
        if not self.queue:
            self.phase = ROLL_DICE

    def _land(self, a: int, b: int) -> None:
        o, p = self.options, self.roller
        if o.placement == "ring":
            ring = self.game.ring
            self.ring_pos[p] = (self.ring_pos[p] + a + b) % len(ring)
            code = ring[self.ring_pos[p]]
            if o.refuge_on_double and a == b:
                code = REFUGE_BASE + (a - 1) % 4
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

    def _bid(self, amount: int) -> None:
        p = self.queue[0]
        self.bids[p] = amount
        self.queue = self.queue[1:]
        if not self.queue:
            self._resolve_auction()

    def _resolve_auction(self) -> None:
        o, t, n = self.options, self.landed, self.game.num_players
        mayor = self.mayor
        bids = [max(0, b) for b in self.bids]  # a player out of the game bids nothing
        double = o.boost == "value"
        values = [b * (2 if x and double else 1) for b, x in zip(bids, self.boosted, strict=True)]
        challengers = [p for p in self.bid_order if p != mayor]  # seat order from the roller
        total = sum(values[c] for c in challengers)
        m = values[mayor]
        kind, winner = "none", -1
        if total == 0 and m == 0:
            if o.all_zero == "roller_free":
                winner = self.roller
                kind = "mayor" if winner == mayor else "challenger"
        elif m > total or (m == total and o.mayor_tie == "mayor"):
            kind, winner = "mayor", mayor
        elif m < total or o.mayor_tie == "challengers":
            top = max(values[c] for c in challengers)
            leaders = [c for c in challengers if values[c] == top]
            if len(leaders) == 1 or o.tie_break == "seat_order":
                kind, winner = "challenger", leaders[0]
        price = 0
        if kind == "mayor":
            # « Il s'empare alors des points COM'S et VOT'S qui ont été misés sur la case. »
            for c in challengers:
                self.vots[c] -= bids[c]
                self.vots[mayor] += bids[c]
            price = bids[mayor] if o.mayor_price == "bid" else 0
        elif kind == "challenger":
            w = winner
            price = bids[w]
            self.vots[w] -= price
            self.aside[t] += price  # « Ces points sont placés de côté par celui qui emporte le pli. »
            self.aside_by[t] = w
            if o.challenger_pot == "takes_all":
                pile = self.aside if o.set_aside == "all_bids" else None
                for c in challengers:
                    if c != w:
                        self.vots[c] -= bids[c]
                        if pile is None:
                            self.vots[w] += bids[c]
                        else:
                            pile[t] += bids[c]  # the whole trick is set aside
                self.coms[mayor] -= bids[mayor]
                self.coms[w] += bids[mayor]
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
            nxt = next(
                (
                    (t + k) % TERRAINS
                    for k in range(1, TERRAINS)
                    if self.owner[(t + k) % TERRAINS] < 0 and (t + k) % TERRAINS in self.game.reachable
                ),
                -1,
            )
            if nxt >= 0:
                self._open_auction(nxt)
                return
        self._end_turn()

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
        if self.options.rent_currency == "vots":
            return self.vots[payer]
        return self.vots[payer] + self.coms[payer]

    def _pay_rent(self, payer: int, terrain: int) -> None:
        owner = self.owner[terrain]
        if owner == payer:
            return  # one's own terrain (``occupied="by_anyone"``): nothing to pay
        price = self.price[terrain]
        due = -(-price // 4) if self.options.rent_rounding == "up" else price // 4
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

    def _park(self) -> None:
        o, p = self.options, self.roller
        self.prev_occupied[p] = False
        if o.park_skips_turn:
            self.skip_next[p] = True
        self.events.append(Event(self.turn, "park", p, self.landed))
        self._give_token(p)
        if o.joker_when == "every_atout" and p != self.mayor:
            self._give_token(self.mayor)
        self._end_turn()

    def _give_token(self, p: int) -> None:
        slot = 1 if p == self.mayor else 0
        self.tokens[p] += 1
        self.events.append(Event(self.turn, ("atout", "joker")[slot], p, self.tokens_drawn[slot]))
        self.tokens_drawn[slot] += 1

    def _resell(self, seller: int, terrain: int) -> None:
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
        self.queue = ()
        self.landed = -1
        self._next_turn()

    def _game_should_end(self) -> bool:
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
        points = {p: self.final_points(p) for p in pool}
        if self.options.richest_by == "each":
            top_v = max(v for v, _ in points.values())
            top_c = max(c for _, c in points.values())
            return tuple(p for p in pool if points[p] == (top_v, top_c))  # may be nobody
        best = max(v + c for v, c in points.values())
        return tuple(p for p in pool if sum(points[p]) == best)

    def _finish(self) -> None:
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
        rule = self.options.majority
        if rule == "of_twelve":
            return held * 2 > TERRAINS
        if rule == "of_owned":
            return held * 2 > owned
        others = [self.owner.count(p) for p in self.challengers]
        return held > max(others, default=0)

    # ------------------------------------------------------------------ results
    def returns(self) -> list[float]:
        n = self.game.num_players
        if self.phase != OVER:
            return [0.0] * n
        return [1.0 if p in self.winners else 0.0 for p in range(n)]

    # ------------------------------------------------------------------ hidden information
    def hidden_bidders(self, viewer: int | None) -> list[int]:
        """Players whose pending bid ``viewer`` may not see (everyone else's sealed bid)."""
        return self._hidden_bidders(self.check_player(viewer, allow_none=True))

    def _hidden_bidders(self, viewer: int | None) -> list[int]:
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
        lines = [f"{head}, {PHASE_NAMES[self.phase]}"]
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
