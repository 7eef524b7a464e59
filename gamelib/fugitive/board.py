"""Fugitive's static board: the deck (cards 0..42, its three draw piles) and the step graph.

* The deck: :class:`Layout` gives the card numbers of one deck size (the escape card, the three
  draw piles, the setup deal); :func:`layout_for` builds it for the published 42 or a smaller deck
  (option ``escape_card``, 7..42), and cards are int bitmasks (core's
  :func:`~gamelib.core.bitsets.mask_of`, :func:`cards_of`).
* :func:`step_graph` is the static topology: which number may follow which.  A normal move goes
  at most 3 higher than the previous hideout; a longer jump needs sprint cards worth the excess
  in footprints (odd cards 1, even cards 2).  It is built once per bound and deck size
  (``functools.cache``).  Every static helper takes ``last``, the escape card of the deck
  (default the published 42), so that a small game has its own board 0..last and its errors
  name its own range.

The table of one position as a graph, seen from a seat, is
:func:`gamelib.fugitive.analysis.hideout_graph`.  This module imports no other module of the game.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gamelib.core.bitsets import mask_of

if TYPE_CHECKING:
    import networkx as nx

LAST = 42
"""The escape card of the published game: laying it ends the fugitive's run.  Its decks, setup
deal and manhunt threshold are ``PUBLISHED`` (``layout_for(42)``), said once there."""
STEP_LIMIT = 3


def footprints(card: int) -> int:
    """A card's sprint value: 1 for odd numbers, 2 for even numbers."""
    return 2 if card % 2 == 0 else 1


def deck_of(card: int) -> int:
    """The published deck index (0, 1, 2) a card 4..41 comes from; -1 for 0-3 and 42."""
    return PUBLISHED.deck_of(card)


def cards_of(mask: int) -> list[int]:
    """The cards of a bitmask, in increasing order.

    Not core's cached :func:`~gamelib.core.bitsets.members`: the rules read a new mask (a hand
    shifted past the last hideout) at almost every move, so a quarter of those lookups miss the
    cache, and random play ran 3% slower with it."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def footprints_of_mask(mask: int) -> int:
    # odd cards give 1, even cards give 2: every card counts once, even ones once more
    return mask.bit_count() + (mask & _EVENS).bit_count()


_EVENS = int("01" * 32, 2)  # bits 0, 2, 4, ... 62: every even card of any deck size

MIN_ESCAPE_CARD = 7
"""The smallest deck that keeps every mechanic: one card per draw pile between 3 and the escape card."""


@dataclass(frozen=True)
class Layout:
    """The card numbers of one deck size: the escape card, the three draw piles, the setup deal.

    The published game is ``layout_for(42)``.  Smaller decks (option ``escape_card``) scale the
    published proportions so that solvers can enumerate the whole game (docs/rules/fugitive.md).
    """

    last: int
    """The escape card (42 in the published game)."""
    deck_ranges: tuple[tuple[int, int], tuple[int, int], tuple[int, int]]
    """The three draw piles as inclusive card ranges, numbered 1-3 in notation."""
    setup_deals: tuple[int, ...]
    """The fugitive's setup draws, as deck indices (published: 3 from deck 1, 2 from deck 2)."""
    manhunt_threshold: int
    """A manhunt follows the escape card only if the highest revealed hideout is at most this."""

    @property
    def start_hand(self) -> tuple[int, ...]:
        return (1, 2, 3, self.last)

    @functools.cached_property
    def deck_masks(self) -> tuple[int, ...]:
        return tuple(mask_of(range(lo, hi + 1)) for lo, hi in self.deck_ranges)

    def deck_of(self, card: int) -> int:
        """The deck index (0, 1, 2) a card comes from; -1 for 0-3 and the escape card."""
        for i, (lo, hi) in enumerate(self.deck_ranges):
            if lo <= card <= hi:
                return i
        return -1


@functools.lru_cache(maxsize=64)
def layout_for(escape_card: int) -> Layout:
    """The layout of a deck whose escape card is ``escape_card`` (7..42).

    The published deck splits the 38 cards 4..41 at 15 and 29 (11/38 and 25/38 of the way), deals
    the fugitive 3 cards of deck 1 and 2 of deck 2, and starts a manhunt up to 29, the first card
    of deck 3.  A smaller deck keeps those fractions, rounded half up.
    """
    if isinstance(escape_card, bool) or not isinstance(escape_card, int):
        raise ValueError(f"option 'escape_card' must be an int, got {escape_card!r}")
    if not MIN_ESCAPE_CARD <= escape_card <= LAST:
        raise ValueError(
            f"option 'escape_card' must be between {MIN_ESCAPE_CARD} and {LAST}, got {escape_card}"
        )
    middle = escape_card - 4  # the cards 4..escape_card-1 of the three decks

    def scaled(numerator: int) -> int:
        return (2 * middle * numerator + 38) // 76  # middle * numerator / 38, rounded half up

    first, second = 4 + scaled(11), 4 + scaled(25)
    ranges = ((4, first - 1), (first, second - 1), (second, escape_card - 1))
    setup = (0,) * min(scaled(3), first - 4) + (1,) * min(scaled(2), second - first)
    return Layout(escape_card, ranges, setup, second)


PUBLISHED = layout_for(LAST)


NUMBERS = tuple(range(LAST + 1))
"""The card numbers 0..42: the nodes of the published step graph (``range(last + 1)`` in general)."""

MAX_JUMP = LAST
"""The longest jump conceivable in the published deck (0 straight to 42; ``last`` in general)."""

MAX_SPRINT = MAX_JUMP - STEP_LIMIT
"""Footprints needed by the longest published jump: beyond this bound, no new edge appears in the
step graph (:func:`max_sprint_for` gives the bound of a smaller deck)."""


def check_last(last: object) -> int:
    """``last`` as a valid escape card (7..42), or a ValueError naming ``last``.

    The board helpers accept any deck size the rules accept (``FugitiveOptions.escape_card``).
    """
    return _check_int(last, "last", MIN_ESCAPE_CARD, LAST)


def max_sprint_for(last: int = LAST) -> int:
    """The largest useful sprint bound of the deck 0..``last``: the jump from 0 to ``last``."""
    return check_last(last) - STEP_LIMIT


def _check_int(value: object, name: str, low: int, high: int) -> int:
    """``value`` as an int in [low, high], or a ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an int, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}, got {value}")
    return value


# ---------------------------------------------------------------------------- the step graph
def step_graph(max_sprint: int = 0, last: int = LAST) -> nx.DiGraph:
    """The numbers 0..``last`` with an edge ``a -> b`` whenever ``b`` may follow ``a`` as a hideout.

    ``b - a`` in 1..3 is a normal move (``sprint_needed == 0``); longer jumps appear up to
    ``3 + max_sprint`` with ``sprint_needed = b - a - 3``, the footprints of sprint cards the
    fugitive must slip under ``b``.  Nodes carry ``deck`` (0-2, or -1 for 0-3 and the escape
    card, from the layout of ``last``) and ``footprints`` (the card's value as a sprint card).
    The graph has ``last`` and ``max_sprint`` as graph attributes.  It is shared: do not mutate
    it (it is frozen to make that an error).
    """
    last = check_last(last)
    max_sprint = _check_int(max_sprint, "max_sprint", 0, last - STEP_LIMIT)
    return _step_graph(max_sprint, last)


@functools.cache
def _step_graph(max_sprint: int, last: int) -> nx.DiGraph:
    """:func:`step_graph` once validated: one frozen graph per (bound, deck size)."""
    layout = layout_for(last)
    import networkx as nx  # only for teaching and analysis: play never builds the graph

    graph = nx.DiGraph(max_sprint=max_sprint, last=last)
    for n in range(last + 1):
        graph.add_node(n, deck=layout.deck_of(n), footprints=footprints(n))
    for a in range(last + 1):
        for b in range(a + 1, min(last, a + STEP_LIMIT + max_sprint) + 1):
            step = b - a
            graph.add_edge(a, b, step=step, sprint_needed=max(0, step - STEP_LIMIT))
    return nx.freeze(graph)


@functools.cache
def _distances_from(start: int, max_sprint: int, last: int = LAST) -> dict[int, int]:
    import networkx as nx

    return dict(nx.single_source_shortest_path_length(_step_graph(max_sprint, last), start))


def sprint_needed(from_card: int, to_card: int, last: int = LAST) -> int:
    """Footprints of sprint cards needed to lay ``to_card`` right after ``from_card``.

    Both cards are numbers of the deck 0..``last``.
    """
    last = check_last(last)
    from_card = _check_int(from_card, "from_card", 0, last)
    to_card = _check_int(to_card, "to_card", 0, last)
    if to_card <= from_card:
        raise ValueError(f"hideouts increase: {to_card} cannot follow {from_card}")
    return max(0, to_card - from_card - STEP_LIMIT)


def reachable(from_card: int, footprints: int = 0, last: int = LAST) -> tuple[int, ...]:
    """The numbers that may follow ``from_card`` with sprint cards worth ``footprints`` underneath.

    Every number above ``from_card`` up to ``from_card + 3 + footprints`` (capped at the escape
    card ``last``): sprint cards only raise the limit, so overpaying is allowed.
    """
    last = check_last(last)
    from_card = _check_int(from_card, "from_card", 0, last)
    footprints = _check_int(footprints, "footprints", 0, 2 * last)
    return tuple(range(from_card + 1, min(last, from_card + STEP_LIMIT + footprints) + 1))


def min_hideouts_to(target: int, start: int = 0, max_sprint: int = 0, last: int = LAST) -> int:
    """The fewest hideouts laid to go from ``start`` to ``target`` (the shortest path length).

    With ``max_sprint`` footprints allowed under every hideout (0: normal moves only), in the
    deck 0..``last``.  From 0 to 42 without sprinting that is 14 hideouts.
    """
    last = check_last(last)
    start = _check_int(start, "start", 0, last)
    target = _check_int(target, "target", 0, last)
    max_sprint = _check_int(max_sprint, "max_sprint", 0, last - STEP_LIMIT)
    if target <= start:
        raise ValueError(f"target must be above start (hideouts increase), got {start} -> {target}")
    return _distances_from(start, max_sprint, last)[target]


def shortest_route(target: int, start: int = 0, max_sprint: int = 0, last: int = LAST) -> tuple[int, ...]:
    """One fewest-hideouts route from ``start`` to ``target`` (both included), as card numbers."""
    min_hideouts_to(target, start, max_sprint, last)  # validates the arguments
    import networkx as nx

    return tuple(nx.shortest_path(_step_graph(max_sprint, last), start, target))
