"""The static board of A Une Passante: four zones in a half-octagon plus the central place.

Seed (``000_c10289aac3de1a1f.txt``): "Un plateau en demi-octogone constitué de quatre zones"
(école, parc, théâtre, café from left to right) and "la place centrale, qui est considérée comme
adjacente à toutes les zones du plateau".  The graph lives in networkx (``GRAPH``, made on first
use, for display and analysis); everything the rules need at play time (neighbours, distances,
start zones) is precomputed here into tuples of ints without it, so that a state never touches the
graph and playing never imports networkx.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, overload

from gamelib.core.data import DataError, entries, load_json

if TYPE_CHECKING:
    import networkx as nx

# ------------------------------------------------------------------ locations
ECOLE, PARC, THEATRE, CAFE, PLACE = 0, 1, 2, 3, 4
ZONES = (ECOLE, PARC, THEATRE, CAFE)
"""The four zones of the half-octagon, left to right (the Passante's clockwise order)."""
LOCATIONS = (*ZONES, PLACE)
LOCATION_NAMES = ("ecole", "parc", "theatre", "cafe", "place")
"""Location names in notation (ASCII, lower case)."""
LOCATION_TITLES = ("École", "Parc", "Théâtre", "Café", "Place centrale")
"""Location names for drawings and text."""

# ------------------------------------------------------------------ pieces
POLICIER, INSTITUTRICE, MENDIANTE, GARDIEN, CHAT, COMEDIENNE, POETE, GARCON = range(8)
CHARACTERS = tuple(range(8))
OMNIBUS = 8
"""Piece index of the Omnibus (not a character: no effect touches it)."""
PIECE_NAMES = (
    "policier",
    "institutrice",
    "mendiante",
    "gardien",
    "chat",
    "comedienne",
    "poete",
    "garcon",
    "omnibus",
)
PIECE_TITLES = (
    "Policier",
    "Institutrice",
    "Mendiante",
    "Gardien",
    "Chat",
    "Comédienne",
    "Poète",
    "Garçon de café",
    "Omnibus",
)
START_ZONE = (ECOLE, ECOLE, PARC, PARC, THEATRE, THEATRE, CAFE, CAFE)
"""Seed: "Policier et Institutrice à l'école, Mendiante et Gardien au Parc, Chat et Comédienne
au théâtre, Poète et Garçon de café au Café"."""
OMNIBUS_START = PLACE
"""Seed: "l'Omnibus à l'extérieur du plateau (sur la place centrale)"."""
ZONE_SOCLE = {ECOLE: "gris", PARC: "vert", THEATRE: "rouge", CAFE: "jaune"}
"""The seed's socle colours (2 gris, 2 rouges, 2 verts, 2 jaunes), one pair per start zone."""
SOCLE_COLOURS = {"gris": "#8a8f98", "vert": "#2f9e55", "rouge": "#c8362f", "jaune": "#e3b21c"}
PASSANTE_COLOUR = "#8e4fb5"
"""The Passante's mauve socle."""


def build_graph() -> nx.Graph:
    """The board as a networkx graph: zones in a row, the place joined to every zone (for display
    and analysis; :data:`GRAPH` is this graph, made on first use: playing never imports networkx)."""
    import networkx as nx

    g = nx.Graph()
    for loc in LOCATIONS:
        g.add_node(loc, name=LOCATION_NAMES[loc], title=LOCATION_TITLES[loc], zone=loc != PLACE)
    for a, b in itertools.pairwise(ZONES):
        g.add_edge(a, b, kind="row")
    for z in ZONES:
        g.add_edge(z, PLACE, kind="place")
    return g


@cache
def _graph() -> nx.Graph:
    return build_graph()


def __getattr__(name: str) -> Any:
    """``GRAPH``, the board's networkx graph (:func:`build_graph`), made on first use."""
    if name == "GRAPH":
        return _graph()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


ROW_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(z for z in ZONES if abs(z - loc) == 1) if loc != PLACE else () for loc in LOCATIONS
)
"""Left/right neighbours of a zone along the half-octagon (the place has none): the graph's
``row`` edges."""
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    (*ROW_NEIGHBOURS[loc], PLACE) if loc != PLACE else ZONES for loc in LOCATIONS
)
"""Where one ordinary move leads from each location (seed: "une zone située directement à côté
de la sienne ou sur la place centrale"; from the place, any zone): the graph's neighbours, in
order (a test checks both tables against networkx on :func:`build_graph`)."""
CHAT_MOVES: tuple[tuple[int, ...], ...] = tuple(
    tuple(z for z in ZONES if 1 <= abs(z - loc) <= 2) if loc != PLACE else () for loc in LOCATIONS
)
"""The Chat moves one or two zones along the row, never onto the central place."""


def _breadth_first(start: int) -> tuple[int, ...]:
    """Shortest path lengths from ``start`` to every location over :data:`NEIGHBOURS`."""
    far = {start: 0}
    frontier = [start]
    while frontier:
        reached = []
        for at in frontier:
            for n in NEIGHBOURS[at]:
                if n not in far:
                    far[n] = far[at] + 1
                    reached.append(n)
        frontier = reached
    return tuple(far[b] for b in LOCATIONS)


GRAPH_DISTANCE: tuple[tuple[int, ...], ...] = tuple(_breadth_first(a) for a in LOCATIONS)
"""Shortest path lengths on the board graph: the place makes any two zones at most 2 apart."""
ROW_DISTANCE: tuple[tuple[int, ...], ...] = tuple(
    tuple(0 if a == b else 1 if PLACE in (a, b) else abs(a - b) for b in LOCATIONS) for a in LOCATIONS
)
"""Distances counted along the row of zones (the place one step from every zone)."""


# ------------------------------------------------------------------ the wish deck (data/wishes.json)
NUM_WISHES = 38


@dataclass(frozen=True)
class Wish:
    """One wish card: fulfilled when all its characters stand on its zone."""

    id: int
    """The card's number, 1..38: the number used in notation, the data file and every attribute."""
    zone: int
    characters: tuple[int, ...]
    title: str

    @property
    def mask(self) -> int:
        m = 0
        for c in self.characters:
            m |= 1 << c
        return m

    def __str__(self) -> str:
        who = ", ".join(PIECE_TITLES[c] for c in self.characters)
        return f"#{self.id} « {self.title} » ({who} — {LOCATION_TITLES[self.zone]})"


class WishDeck(Sequence[Wish]):
    """The 38 wish cards, looked up by their number: ``WISHES[12]`` is card 12 (1..38).

    Iterating gives the cards in order 1..38; ``len`` is 38.  Number 0, negative numbers and
    slices are refused (they would silently mean another card).
    """

    __slots__ = ("_cards",)

    def __init__(self, cards: tuple[Wish, ...]) -> None:
        self._cards = cards

    @overload
    def __getitem__(self, number: int) -> Wish: ...
    @overload
    def __getitem__(self, number: slice) -> Sequence[Wish]: ...
    def __getitem__(self, number: int | slice) -> Wish | Sequence[Wish]:
        if isinstance(number, (slice, bool)) or not isinstance(number, int):
            raise TypeError(
                f"wishes are looked up by their number 1..{len(self._cards)} "
                f"(use list(WISHES) to slice), got {number!r}"
            )
        if not 1 <= number <= len(self._cards):
            raise IndexError(f"wish numbers are 1..{len(self._cards)}, got {number}")
        return self._cards[number - 1]

    def __iter__(self) -> Iterator[Wish]:
        return iter(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def __repr__(self) -> str:
        return f"WishDeck({len(self._cards)} cards)"


class WishDataError(DataError):
    """The wish data file breaks the deck's rules (named field and card)."""


def parse_wishes(doc: Any) -> tuple[Wish, ...]:
    """Validate a wish deck document (the JSON of ``data/wishes.json``) and return its cards."""
    if not isinstance(doc, dict) or not isinstance(doc.get("cards"), list):
        raise WishDataError("wishes.json: expected an object with a 'cards' list")
    cards = doc["cards"]
    if len(cards) != NUM_WISHES:
        raise WishDataError(f"wishes.json: the deck has {NUM_WISHES} cards, found {len(cards)}")
    out = []
    for i, (where, card) in enumerate(entries(cards, "wishes.json cards", NUM_WISHES, WishDataError)):
        if card.get("id") != i + 1:
            raise WishDataError(f"{where}: field 'id' must be {i + 1}, got {card.get('id')!r}")
        zone_name = card.get("zone")
        if zone_name not in LOCATION_NAMES[:4]:
            raise WishDataError(
                f"{where}: field 'zone' must be one of {LOCATION_NAMES[:4]} (the place holds no wish), "
                f"got {zone_name!r}"
            )
        names = card.get("characters")
        if not isinstance(names, list) or not 1 <= len(names) <= 3:
            raise WishDataError(f"{where}: field 'characters' must list one to three characters")
        if any(n not in PIECE_NAMES[:8] for n in names):
            raise WishDataError(f"{where}: unknown character in {names!r}; known: {PIECE_NAMES[:8]}")
        if len(set(names)) != len(names):
            raise WishDataError(f"{where}: field 'characters' repeats a character: {names!r}")
        title = card.get("title")
        if not isinstance(title, str) or not title.strip():
            raise WishDataError(f"{where}: field 'title' must be a non-empty string")
        zone = LOCATION_NAMES.index(zone_name)
        chars = tuple(PIECE_NAMES.index(n) for n in names)
        if all(START_ZONE[c] == zone for c in chars):
            raise WishDataError(f"{where}: « {title} » is already fulfilled by the starting position")
        out.append(Wish(i + 1, zone, chars, title))
    return tuple(out)


@cache
def load_wishes() -> WishDeck:
    """The original 38-card wish deck, validated on load (``load_wishes()[n]`` is card n)."""
    return WishDeck(parse_wishes(load_json("gamelib.passante", "wishes.json", WishDataError)))


WISHES = load_wishes()
