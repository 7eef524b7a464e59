"""Delanopolis board: twelve "zones cobayes" of Paris and the refuges, as a networkx ring.

The seed says only that the terrains are numbered 1 to 12 and lets the players "dessiner
vous-mêmes les cases".  We draw them as a loop around a stylized Paris, clockwise from the
centre: in the ``ring`` placement the pawns walk this loop by the roll of two dice, with the
refuges (parks) spread evenly between the terrains.  The static topology lives in a networkx
graph built once per refuge count, when first asked for (``Board.graph``): the rules only use the
precomputed tuple ``Board.ring``, so a process that only plays (a tournament's worker) never imports
networkx (~170 ms of CPU, more than the rest of the game's set-up).

Square codes (the ints kept in the hot state):

* ``0..11``: terrain ``code + 1``;
* ``REFUGE_BASE + j``: refuge ``j + 1``;
* ``START`` (-1): the pawns' starting point before the first roll.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from gamelib.core.data import DataError, entries, field, load_json

if TYPE_CHECKING:
    import networkx as nx

TERRAINS = 12
REFUGE_BASE = 100
START = -1
MAX_REFUGES = 4


@dataclass(frozen=True)
class Place:
    """A terrain or a refuge: its number (1-based), name, position on the map and chapter."""

    number: int
    name: str
    x: float
    y: float
    chapter: str
    district: str = ""


@dataclass(frozen=True)
class Card:
    """An atout or a joker: a name and the chapter read when it is drawn."""

    name: str
    chapter: str


@dataclass(frozen=True)
class Content:
    """Everything in ``data/terrains.json``, validated."""

    terrains: tuple[Place, ...]
    refuges: tuple[Place, ...]
    atouts: tuple[Card, ...]
    jokers: tuple[Card, ...]


def _places(raw: Any, section: str, count: int) -> tuple[Place, ...]:
    places: list[Place] = []
    for where, entry in entries(raw, section, count):
        number = field(entry, "number", int, where)
        if number != len(places) + 1:
            raise DataError(f"{where}: numbers must run 1..{count} in order, got {number}")
        x = float(field(entry, "x", (int, float), where))
        y = float(field(entry, "y", (int, float), where))
        if not (-1.2 <= x <= 1.2 and -0.9 <= y <= 0.9):
            raise DataError(f"{where}: position ({x}, {y}) is off the map")
        district = entry.get("district", "")
        if not isinstance(district, str):
            raise DataError(f"{where}: field 'district' must be a string")
        name, chapter = field(entry, "name", str, where), field(entry, "chapter", str, where)
        places.append(Place(number=number, name=name, x=x, y=y, chapter=chapter, district=district))
    names = [p.name for p in places]
    if len(set(names)) != len(names):
        raise DataError(f"{section}: names must be distinct")
    return tuple(places)


def _cards(raw: Any, section: str) -> tuple[Card, ...]:
    return tuple(
        Card(field(entry, "name", str, where), field(entry, "chapter", str, where))
        for where, entry in entries(raw, section)
    )


def parse_content(data: Any) -> Content:
    """Validate the JSON data (a dict) and return it typed; :class:`DataError` names any fault."""
    if not isinstance(data, dict):
        raise DataError("the terrain file must hold a JSON object")
    return Content(
        terrains=_places(data.get("terrains"), "terrains", TERRAINS),
        refuges=_places(data.get("refuges"), "refuges", MAX_REFUGES),
        atouts=_cards(data.get("atouts"), "atouts"),
        jokers=_cards(data.get("jokers"), "jokers"),
    )


@cache
def content() -> Content:
    """The game's content, loaded and validated once."""
    return parse_content(load_json("gamelib.delanopolis", "terrains.json"))


def refuge_slots(refuges: int) -> tuple[int, ...]:
    """After which terrain numbers (1-based) the refuges sit: evenly spread, the last after 12."""
    return tuple(round(TERRAINS * (j + 1) / refuges) for j in range(refuges))


def square_name(code: int) -> str:
    """A square code as text: ``T5``, ``R2`` or ``start``."""
    if code == START:
        return "start"
    if code >= REFUGE_BASE:
        return f"R{code - REFUGE_BASE + 1}"
    return f"T{code + 1}"


@dataclass(frozen=True)
class Board:
    """The static board for one refuge count: the ring of squares and its networkx graph."""

    refuges: int
    ring: tuple[int, ...]
    """Square codes in walking order (terrain 1 first); pawns start just before index 0."""
    ring_index: dict[int, int]

    @property
    def graph(self) -> nx.DiGraph:
        """The ring as a networkx graph (see :func:`board`), built on first use."""
        return ring_graph(self.refuges)

    def terrain(self, code: int) -> Place:
        return content().terrains[code]

    def place(self, code: int) -> Place:
        if code >= REFUGE_BASE:
            return content().refuges[code - REFUGE_BASE]
        return content().terrains[code]


@cache
def board(refuges: int = MAX_REFUGES) -> Board:
    """The ring with ``refuges`` parks (0..4) spread between the twelve terrains (its networkx
    graph: ``Board.graph``, :func:`ring_graph`)."""
    if not 0 <= refuges <= MAX_REFUGES:
        raise ValueError(f"refuges must be between 0 and {MAX_REFUGES}, got {refuges}")
    slots = refuge_slots(refuges)
    ring: list[int] = []
    for t in range(TERRAINS):
        ring.append(t)
        for j, after in enumerate(slots):
            if after == t + 1:
                ring.append(REFUGE_BASE + j)
    return Board(
        refuges=refuges,
        ring=tuple(ring),
        ring_index={code: i for i, code in enumerate(ring)},
    )


@cache
def ring_graph(refuges: int = MAX_REFUGES) -> nx.DiGraph:
    """The ring of :func:`board` as a directed networkx graph (pawns walk clockwise): nodes are
    square codes with attributes ``kind`` ("terrain"/"refuge"), ``number``, ``name`` and ``pos``;
    edges follow the walk."""
    import networkx as nx

    ring = board(refuges).ring
    data = content()
    graph = nx.DiGraph(name=f"Delanopolis ring, {refuges} refuges")
    for code in ring:
        p = data.refuges[code - REFUGE_BASE] if code >= REFUGE_BASE else data.terrains[code]
        graph.add_node(
            code,
            kind="refuge" if code >= REFUGE_BASE else "terrain",
            number=p.number,
            name=p.name,
            pos=(p.x, p.y),
        )
    for i, code in enumerate(ring):
        graph.add_edge(code, ring[(i + 1) % len(ring)])
    return graph
