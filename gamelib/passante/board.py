"""The static board of A Une Passante: four zones in a half-octagon plus the central place.

Seed (``000_c10289aac3de1a1f.txt``): "Un plateau en demi-octogone constitué de quatre zones"
(école, parc, théâtre, café from left to right) and "la place centrale, qui est considérée comme
adjacente à toutes les zones du plateau".  The graph lives in networkx once; everything the rules
need at play time (neighbours, distances, start zones) is precomputed here into tuples of ints so
that a state never touches the graph.
"""

from __future__ import annotations

import itertools

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
    """The board as a networkx graph: zones in a row, the place joined to every zone."""
    g = nx.Graph()
    for loc in LOCATIONS:
        g.add_node(loc, name=LOCATION_NAMES[loc], title=LOCATION_TITLES[loc], zone=loc != PLACE)
    for a, b in itertools.pairwise(ZONES):
        g.add_edge(a, b, kind="row")
    for z in ZONES:
        g.add_edge(z, PLACE, kind="place")
    return g


GRAPH = build_graph()

NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(GRAPH.neighbors(loc))) for loc in LOCATIONS)
"""Where one ordinary move leads from each location (seed: "une zone située directement à côté
de la sienne ou sur la place centrale"; from the place, any zone)."""
ROW_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(n for n in GRAPH.neighbors(loc) if GRAPH.edges[loc, n]["kind"] == "row"))
    if loc != PLACE
    else ()
    for loc in LOCATIONS
)
"""Left/right neighbours of a zone along the half-octagon (the place has none)."""
CHAT_MOVES: tuple[tuple[int, ...], ...] = tuple(
    tuple(z for z in ZONES if 1 <= abs(z - loc) <= 2) if loc != PLACE else () for loc in LOCATIONS
)
"""The Chat moves one or two zones along the row, never onto the central place."""

_ROW_GRAPH = GRAPH.edge_subgraph([(a, b) for a, b, k in GRAPH.edges(data="kind") if k == "row"])
GRAPH_DISTANCE: tuple[tuple[int, ...], ...] = tuple(
    tuple(nx.shortest_path_length(GRAPH, a, b) for b in LOCATIONS) for a in LOCATIONS
)
"""Shortest path lengths on the board graph: the place makes any two zones at most 2 apart."""
ROW_DISTANCE: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        0 if a == b else 1 if PLACE in (a, b) else nx.shortest_path_length(_ROW_GRAPH, a, b)
        for b in LOCATIONS
    )
    for a in LOCATIONS
)
"""Distances counted along the row of zones (the place one step from every zone)."""


def location_of(name: str) -> int:
    """The location index for a notation name ("ecole", ..., "place"); ValueError otherwise."""
    try:
        return LOCATION_NAMES.index(name.lower())
    except ValueError:
        raise ValueError(f"unknown location {name!r}; expected one of {', '.join(LOCATION_NAMES)}") from None


def piece_of(name: str) -> int:
    """The piece index for a notation name ("policier", ..., "omnibus"); ValueError otherwise."""
    try:
        return PIECE_NAMES.index(name.lower())
    except ValueError:
        raise ValueError(f"unknown piece {name!r}; expected one of {', '.join(PIECE_NAMES)}") from None
