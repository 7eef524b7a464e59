"""Delanopolis: the rule options, each an unclear sentence of the seed, and the phases of a turn.

Every reading we had to choose is a field of :class:`DelanopolisOptions`, quoted in
``docs/rules/delanopolis.md``; :data:`VERSION_3_DEFAULTS` keeps the earlier versions' readings so
their records replay.  Beside them, what an option means where several rules read it: the square
the dice name (:func:`direct_landing`, :func:`ring_landing`), the bid caps, the rent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from gamelib.core.options import Between, check_declared
from gamelib.delanopolis.board import REFUGE_BASE, TERRAINS

START_VOTS = 1200
"""« Chaque joueur dispose de 1200 points VOT'S. »"""
REFUGE_COMS = 200
REFUGE_VOTS = 20
"""« Les refuges permettent de passer son tour tout en recevant 200 points COM'S et 20 points VOT'S. »"""
MAX_START_VOTS = 10**6
"""Bound of option ``start_vots`` (keeps the action universe and the notation finite)."""


@dataclass(frozen=True)
class DelanopolisOptions:
    """Rule options: one field per unclear sentence of the seed (see docs/rules/delanopolis.md)."""

    placement: Literal["sum", "twelve_faces", "ring"] = "sum"
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
    refuge_bonus: Literal["both", "by_role"] = "both"
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
    mayor_bid_cap: Literal["per_challenger", "same", "none"] = "per_challenger"
    """The cap on the mayor's COM'S: bid_cap x challengers, bid_cap itself, or none."""
    mayor_bid: Literal["sealed", "open_first"] = "sealed"
    """"sealed": the mayor bids secretly like everyone; "open_first": the mayor bids first, in the
    open (the seed reveals only « les points VOT'S »)."""
    challenger_pot: Literal["takes_all", "refund"] = "takes_all"
    """A challenger's win: "takes_all", he « emporte les points » (the other bids); "refund": they
    go back to their owners.  His own bid is set aside on the terrain either way."""
    mayor_price: Literal["bid", "zero"] = "zero"
    """The price of a terrain the mayor takes (its rent is a quarter of it).  He keeps every bid,
    his own included, so he paid nothing: « le quart des points VOT'S que ce dernier a dû acquitter
    pour l'acheter » is a quarter of 0 ("zero"); "bid": his COM'S bid (versions 1-3)."""
    tie_break: Literal["seat_order", "no_sale"] = "seat_order"
    """Equal top VOT'S bids: the first in seat order from the roller wins, or nobody does."""
    mayor_tie: Literal["challengers", "mayor", "no_sale"] = "challengers"
    """Mayor's COM'S equal to the challengers' total: challengers win, the mayor wins, or no sale."""
    all_zero: Literal["no_sale", "roller_free"] = "no_sale"
    """Every bid zero: the terrain stays free, or the roller takes it at price 0."""
    rent_rounding: Literal["down", "up"] = "down"
    """« le quart » of a price that is not a multiple of 4."""
    park_skips_turn: bool = True
    """« peut y stationner un tour »: parking skips the parker's next roll."""
    joker_when: Literal["mayor_rolls", "every_atout"] = "mayor_rolls"
    """« Dans ce cas, le maire a droit, lui, à un joker »: when the mayor is the one landing twice,
    or also every time a challenger wins an atout."""
    boost_timing: Literal["own_roll", "any_roll"] = "own_roll"
    """« au moment de lancer les dés »: before one's own roll, or before any roll."""
    boost_kept_if_no_auction: bool = False
    """A boost played before a roll that brings no auction: lost, or given back."""
    resale_payment: Literal["mayor_pays", "aside_back"] = "mayor_pays"
    """« revendre au maire ... moyennant son prix d'acquisition »: the mayor pays the price from his
    COM'S, or the seller takes back the points set aside on the terrain."""
    broke_rule: Literal["pay_what_you_can", "sell_to_pay"] = "pay_what_you_can"
    """A rent one cannot pay: pay everything one has, or first resell terrains to the mayor."""
    end_when: Literal["rounds", "all_owned", "bankruptcy"] = "rounds"
    """The seed never says when the game ends: after ``rounds`` rounds, when every reachable
    terrain is owned, or at the first bankruptcy (``rounds`` stays a limit in every case)."""
    rounds: Annotated[int, Between(1, 100)] = 8
    """Rolls per player (a round = every roller rolls once)."""
    majority: Literal["of_twelve", "of_owned", "plurality"] = "of_twelve"
    """« la majorité des terrains »: more than 6 of 12, more than half of the owned ones, or more
    than any other single player."""
    president_more_than: Annotated[int, Between(0, TERRAINS)] = 9
    """« plus de 9 terrains sur 12 »: the mayor becomes president with more than this many."""
    richest_among: Literal["challengers", "all"] = "challengers"
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
    set_aside: Literal["winner_bid", "all_bids"] = "winner_bid"
    """« Ces points sont placés de côté par celui qui emporte le pli »: the winner's own bid (the
    highest, "ces points"), or every VOT'S bid revealed (the whole trick)."""
    aside_counts: bool = False
    """Do the points set aside count for the final « possède le plus de points »?  False: they paid
    for the terrain (« a dû acquitter pour l'acheter »); True: they are still the setter's."""
    resale_when: Literal["any_decision", "before_roll"] = "any_decision"
    """« A tout moment, un joueur peut revendre au maire »: whenever the owner is to act, outside a
    sealed auction; or only on his own turn, before rolling (the rules version 1 reading)."""
    boost: Literal["value", "cap"] = "value"
    """« doubler les points joués »: the bid counts double (its value), or the boosted player may
    stake twice the cap (the points he may play double, each counting once)."""
    occupied: Literal["by_another", "by_anyone"] = "by_another"
    """« deux fois de suite en zone occupée »: occupied by another player (as in the rent sentence
    before it), or by anyone, one's own terrains included."""
    rent_currency: Literal["purse_first", "vots"] = "purse_first"
    """« le quart des points VOT'S »: paid from the payer's bidding currency first, then the other;
    or in VOT'S only (the mayor pays with the VOT'S he holds)."""
    resale_price: Literal["paid", "kept"] = "paid"
    """A resold terrain's price for rents: what the mayor paid for it (« que ce dernier a dû
    acquitter pour l'acheter »: the price, or nothing under ``resale_payment="aside_back"``), or the
    price kept from the first sale (version 1)."""
    richest_by: Literal["sum", "each"] = "sum"
    """« possède le plus de points VOT'S et COM'S »: the most of the two together, or the most of
    each (a player leading both; when nobody does, nobody displaces the mayor: he stays)."""
    ce_dernier: Literal["mayor", "richest"] = "mayor"
    """« … devient maire sauf si ce dernier a conservé la majorité des terrains, auquel cas il est
    réélu »: "ce dernier" is the mayor (his majority re-elects him); "richest": the richest player,
    so a majority re-elects the mayor only when he is also the richest."""
    token_draw: Literal["parking", "doubles"] = "parking"
    """« A chaque fois qu'un atout, un joker ou un refuge sont tirés »: atouts and jokers are only won
    by parking; "doubles": a double thrown also draws one for the roller."""
    bankrupt: Literal["out", "plays_on"] = "out"
    """« pour éviter la faillite »: a challenger who cannot pay is out (no more rolls or bids, his
    terrains go to the mayor, he cannot win); "plays_on": he stays with nothing (version 1)."""
    resale_paid_to: Literal["seller", "roller"] = "seller"
    """« un joueur peut revendre au maire la zone-cobaye qu'il détient »: the player who sells is
    paid.  "roller" is rules versions 1-2's error, kept only so their records replay: a token
    holder selling in another player's boost window had the roller paid instead."""

    def __post_init__(self) -> None:
        check_declared(self)  # choices and ranges, as declared above (options built by hand too)
        if self.bid_cap and self.bid_cap % self.bid_step:
            raise ValueError(
                f"option 'bid_cap' ({self.bid_cap}) must be a multiple of 'bid_step' ({self.bid_step})"
            )


VERSION_3_DEFAULTS: dict[str, Any] = {
    "placement": "ring",
    "snake_eyes_is_one": True,
    "bid_step": 10,
    "mayor_price": "bid",
}
"""The defaults rules versions 1-3 had where version 4 reads the text: « en fonction du nombre
obtenu, sur le terrain concerné » (the dice sum names the terrain, not a walk on a drawn ring),
points counted one by one, and a mayor who paid nothing for his terrain."""


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


def ring_landing(
    options: DelanopolisOptions, ring: tuple[int, ...], position: int, a: int, b: int
) -> tuple[int, int]:
    """Placement "ring": the pawn at ring index ``position`` walks the dice sum around the loop
    (``START`` before its first roll); returns its new index and the square code it lands on (a
    refuge instead on a double under ``refuge_on_double``, the pawn still moved)."""
    position = (position + a + b) % len(ring)
    if options.refuge_on_double and a == b:
        return position, REFUGE_BASE + (a - 1) % 4
    return position, ring[position]


def bid_caps(options: DelanopolisOptions, players: int) -> tuple[int, int]:
    """« La mise maximum par coup et par joueur est de 60 points VOT'S »: the cap on a
    challenger's bid and on the mayor's (-1: none), before a boost doubles them under
    ``boost="cap"``."""
    cap = options.bid_cap
    if not cap:
        return -1, -1
    mayor = {"none": -1, "same": cap, "per_challenger": cap * (players - 1)}[options.mayor_bid_cap]
    return cap, mayor


def rent_for(options: DelanopolisOptions, price: int) -> int:
    """« le quart des points VOT'S que ce dernier a dû acquitter pour l'acheter »: the rent of a
    terrain bought at ``price``, a quarter rounded as option ``rent_rounding`` says."""
    return -(-price // 4) if options.rent_rounding == "up" else price // 4
