"""Get on Board – Paris & Roma: the static boards (maps, score-sheet tables), loaded and validated once.

A city map is a grid network read from ``data/<city>.json``: intersections named like a
spreadsheet cell (columns ``A``-``K`` west to east, rows ``1``-``9`` north to south), one section
between every two grid neighbours unless the river blocks it, read into plain dicts (:class:`Network`)
and offered as a networkx graph for drawing and analysis (``CityMap.graph``, built on first use:
playing never imports networkx).  The rules engine never touches it during play; it uses the tuples
precomputed here once (neighbour and section index by direction, features by intersection), so
a state holds only ints.

Everything in the data files is checked on load against the published facts (the seeds README):
a broken or hand-edited file fails with a :class:`MapError` naming the file and the field.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

from gamelib.core.data import DataError, load_json, require

if TYPE_CHECKING:
    import networkx as nx

DIRECTIONS = ("N", "E", "S", "W")
"""Direction index -> notation letter.  North is row 1 (the top of the drawing)."""
N, E, S, W = range(4)
DELTA = ((0, -1), (1, 0), (0, 1), (-1, 0))
OPPOSITE = (S, W, N, E)
NO_HEADING = -1
"""The heading of a line with no stick yet: its first stick may go anywhere."""

FEATURES = (
    "entrance",
    "granny",
    "student",
    "cinema",
    "tourist",
    "theatre",
    "opera",
    "light_lovers",
    "dark_lovers",
    "restaurant",
)
"""Feature kinds, in code order (a feature is stored as its index in this tuple)."""
(
    ENTRANCE,
    GRANNY,
    STUDENT,
    CINEMA,
    TOURIST,
    THEATRE,
    OPERA,
    LIGHT_LOVERS,
    DARK_LOVERS,
    RESTAURANT,
) = range(len(FEATURES))
FEATURE_INDEX = {name: i for i, name in enumerate(FEATURES)}
LETTERS = "abcdefghijklmno"
COLUMNS = "ABCDEFGHIJK"
MAX_WIDTH, MAX_HEIGHT = 11, 9

PUBLISHED: dict[str, dict[str, Any]] = {
    "rome": {
        "intersections": 76,
        "sections": 120,
        "starts": 6,
        "features": {
            "entrance": 14,
            "granny": 10,
            "student": 10,
            "cinema": 4,
            "tourist": 11,
            "theatre": 4,
            "opera": 4,
            "light_lovers": 6,
            "dark_lovers": 8,
            "restaurant": 8,
        },
    },
    "paris": {
        "intersections": 96,
        "sections": 164,
        "starts": 12,
        "features": {
            "entrance": 20,
            "granny": 12,
            "student": 14,
            "cinema": 5,
            "tourist": 16,
            "theatre": 4,
            "opera": 4,
            "light_lovers": 10,
            "dark_lovers": 10,
            "restaurant": 7,
        },
    },
}
"""The published statistics of both boards (seeds README); the original maps must match them."""
CITIES = tuple(PUBLISHED)
SECTION_COLOURS = ("amber", "teal")
"""Rome's two section colours (the "fluid" colour of a ticket names one of them)."""


class MapError(DataError):
    """A data file that breaks the published facts or is malformed."""


def node_name(x: int, y: int) -> str:
    return f"{COLUMNS[x]}{y + 1}"


def parse_node_name(text: str) -> tuple[int, int]:
    """``"C4"`` -> ``(2, 3)``; :class:`ValueError` for anything else."""
    text = text.strip().upper()
    if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit():
        raise ValueError(f"an intersection is a column A-K and a row 1-9, like 'C4'; got {text!r}")
    y = int(text[1:]) - 1
    if not 0 <= y < MAX_HEIGHT:
        raise ValueError(f"row must be 1-{MAX_HEIGHT}, got {text!r}")
    return COLUMNS.index(text[0]), y


# --------------------------------------------------------------------------- the score sheet
@dataclass(frozen=True)
class Shape:
    """A route shape: how many sticks, and what each junction between two sticks must be.

    ``junctions[i]`` is the junction between stick ``i`` and stick ``i + 1`` of the turn:
    ``"S"`` straight, ``"T"`` a turn, ``"F"`` free.  The elbow between the previous turn and the
    first stick is never counted (FAQ: "Le virage entre deux tours compte-t-il dans le Ticket ?").
    """

    name: str
    sticks: int
    junctions: str


@dataclass(frozen=True)
class Ticket:
    number: int
    colour: int
    """Index into :attr:`Tables.colours`."""
    rome_fluid: int
    """Index into :data:`SECTION_COLOURS`: the Rome section colour this ticket makes fluid."""


@dataclass(frozen=True)
class Tables:
    """Everything printed on the paper sheet: tickets, shapes, the 5 sheets, scoring tables."""

    colours: tuple[str, ...]
    tickets: tuple[Ticket, ...]
    shapes: tuple[Shape, ...]
    sheets: tuple[tuple[int, ...], ...]
    """``sheets[s][colour]`` is the shape index sheet ``s`` gives to a ticket colour."""
    granny_track: tuple[int, ...]
    students_max: int
    cinemas_max: int
    tourist_rows: int
    tourist_row_size: int
    tourist_row_values: tuple[int, ...]
    lover_rows: int
    lovers_per_colour: int
    couple_points: int
    single_points: int
    entrance_boxes: int
    entrance_points: int
    turn_penalties: tuple[int, ...]
    transfer_track: tuple[int, ...]
    common: tuple[tuple[int, str, tuple[int, ...], int], ...]
    """Common objectives: (id, name, feature codes counted, count needed)."""
    first_points: int
    later_points: int
    personal_points: tuple[int, ...]
    personal: dict[str, tuple[str, ...]]
    """City -> personal objective deck (each a string of 3 letters)."""

    @property
    def max_modifications(self) -> int:
        return len(self.turn_penalties)

    def shape_for(self, sheet: int, ticket: int) -> Shape:
        """The shape sheet ``sheet`` (0-based) draws for ticket number ``ticket`` (1-12)."""
        return self.shapes[self.sheets[sheet][self.tickets[ticket - 1].colour]]


def _data(name: str) -> Any:
    return load_json("gamelib.getonboard", name, MapError)


def _require(cond: bool, where: str, message: str) -> None:
    require(cond, where, message, MapError)


@cache
def load_tables() -> Tables:
    """The score-sheet tables from ``sheets.json`` and ``objectives.json``, checked against the facts."""
    sheets, objectives = _data("sheets.json"), _data("objectives.json")
    return tables_from_data(sheets, objectives)


def tables_from_data(sheets: dict[str, Any], objectives: dict[str, Any]) -> Tables:
    """The tables from their JSON data, each part checked against the published facts."""
    colours = tuple(sheets["colours"])
    tickets, shapes, sheet_maps = _read_sheets(sheets, colours)
    common, personal = _read_objectives(objectives)
    t = Tables(
        colours=colours,
        tickets=tickets,
        shapes=shapes,
        sheets=sheet_maps,
        granny_track=tuple(sheets["granny_track"]),
        students_max=sheets["students_max"],
        cinemas_max=sheets["cinemas_max"],
        tourist_rows=sheets["tourist_rows"],
        tourist_row_size=sheets["tourist_row_size"],
        tourist_row_values=tuple(sheets["tourist_row_values"]),
        lover_rows=sheets["lover_rows"],
        lovers_per_colour=sheets["lovers_per_colour"],
        couple_points=sheets["couple_points"],
        single_points=sheets["single_points"],
        entrance_boxes=sheets["entrance_boxes"],
        entrance_points=sheets["entrance_points"],
        turn_penalties=tuple(sheets["turn_penalties"]),
        transfer_track=tuple(sheets["transfer_track"]),
        common=common,
        first_points=objectives["first_points"],
        later_points=objectives["later_points"],
        personal_points=tuple(objectives["personal_points"]),
        personal=personal,
    )
    _check_scoring(t)
    return t


def _read_sheets(
    sheets: dict[str, Any], colours: tuple[str, ...]
) -> tuple[tuple[Ticket, ...], tuple[Shape, ...], tuple[tuple[int, ...], ...]]:
    """Tickets, shapes and the five sheets' colour-to-shape maps (cyclic shifts)."""
    w = "sheets.json"
    _require(len(colours) == 6 and len(set(colours)) == 6, w + " colours", "6 distinct ticket colours")
    tickets = []
    for i, t in enumerate(sheets["tickets"]):
        _require(t["number"] == i + 1, f"{w} tickets[{i}]", "tickets are numbered 1-12 in order")
        _require(t["colour"] in colours, f"{w} tickets[{i}].colour", f"unknown colour {t['colour']!r}")
        _require(t["rome_fluid"] in SECTION_COLOURS, f"{w} tickets[{i}].rome_fluid", "amber or teal")
        tickets.append(
            Ticket(t["number"], colours.index(t["colour"]), SECTION_COLOURS.index(t["rome_fluid"]))
        )
    _require(len(tickets) == 12, w + " tickets", f"12 tickets, got {len(tickets)}")
    for c in range(6):  # "n and n+6 share one" colour
        _require(tickets[c].colour == tickets[c + 6].colour == c, w + " tickets", "n and n+6 share a colour")
    shapes = tuple(Shape(s["name"], s["sticks"], s["junctions"]) for s in sheets["shapes"])
    expected_shapes = {(2, "S"), (2, "T"), (2, "F"), (1, ""), (3, "SS"), (3, "TT")}
    _require(
        {(s.sticks, s.junctions) for s in shapes} == expected_shapes and len(shapes) == 6,
        w + " shapes",
        "the 6 published shapes: 2 straight, 2 with a turn, 2 free, 1, 3 straight, 3 with two turns",
    )
    sheet_maps = []
    for i, sh in enumerate(sheets["sheets"]):
        mapping = tuple(sh["shape_of_colour"][c] for c in colours)
        _require(
            sorted(mapping) == list(range(6)), f"{w} sheets[{i}]", "each sheet maps colours to shapes 1:1"
        )
        shift = (mapping[0] - 0) % 6
        _require(all(mapping[c] == (c + shift) % 6 for c in range(6)), f"{w} sheets[{i}]", "a cyclic shift")
        sheet_maps.append(mapping)
    _require(len(sheet_maps) == 5, w + " sheets", "5 player sheets")
    _require(len({m[0] for m in sheet_maps}) == 5, w + " sheets", "each sheet has a different cyclic shift")
    return tuple(tickets), shapes, tuple(sheet_maps)


def _read_objectives(
    objectives: dict[str, Any],
) -> tuple[tuple[tuple[int, str, tuple[int, ...], int], ...], dict[str, tuple[str, ...]]]:
    """The 6 common objectives and each city's personal deck (3 letters a-o each)."""
    common = []
    for i, o in enumerate(objectives["common"]):
        feats = ("light_lovers", "dark_lovers") if o["feature"] == "lovers" else (o["feature"],)
        for f in feats:
            _require(f in FEATURE_INDEX, f"objectives.json common[{i}]", f"unknown feature {f!r}")
        common.append((o["id"], o["name"], tuple(FEATURE_INDEX[f] for f in feats), o["count"]))
    _require(len(common) == 6, "objectives.json common", "6 common objectives")
    personal = {}
    for city in CITIES:
        deck = tuple(objectives["personal"][city])
        for j, p in enumerate(deck):
            _require(
                len(p) == 3 and len(set(p)) == 3 and set(p) <= set(LETTERS),
                f"objectives.json personal.{city}[{j}]",
                f"3 distinct letters a-o, got {p!r}",
            )
        _require(len(deck) >= 5, f"objectives.json personal.{city}", "at least 5 (one per player)")
        personal[city] = deck
    return tuple(common), personal


def _check_scoring(t: Tables) -> None:
    """The scoring tracks are the published ones."""
    w = "sheets.json"
    facts = {
        "granny_track": (t.granny_track, (1, 1, 1, 2, 2, 2, 3, 3)),
        "students/cinemas max": ((t.students_max, t.cinemas_max), (6, 4)),
        "tourist rows": (
            (t.tourist_rows, t.tourist_row_size, t.tourist_row_values),
            (3, 4, (0, 2, 5, 9, 14)),
        ),
        "lover rows": ((t.lover_rows, t.lovers_per_colour, t.couple_points, t.single_points), (3, 2, 6, 2)),
        "entrances": ((t.entrance_boxes, t.entrance_points), (6, 2)),
        "turn_penalties": (t.turn_penalties, (1, 2, 2, 2, 3)),
        "transfer_track": (
            t.transfer_track,
            (0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 10),
        ),
        "objective points": ((t.first_points, t.later_points, t.personal_points), (10, 6, (0, 2, 5, 10))),
    }
    for fact, (got, want) in facts.items():
        _require(got == want, f"{w} {fact}", f"expected the published {want}, got {got}")


# --------------------------------------------------------------------------- the city maps
class Network:
    """A city's intersections and sections as read from its file, in reading order, in plain dicts:
    what :attr:`CityMap.graph` holds as a networkx graph, kept apart so that loading a map (every
    game, every tournament worker) never imports networkx.  ``nodes``: name -> attributes (``pos``,
    ``features``, ``start``, ``letter``); ``adj[a][b]``: section a-b's attributes (one dict both
    ways, as networkx keeps them); ``added``: the sections in the order they were added."""

    __slots__ = ("added", "adj", "city", "nodes")

    def __init__(self, city: str) -> None:
        self.city = city
        self.nodes: dict[str, dict[str, Any]] = {}
        self.adj: dict[str, dict[str, dict[str, Any]]] = {}
        self.added: list[tuple[str, str]] = []

    def add_node(self, name: str, **attrs: Any) -> None:
        self.nodes[name], self.adj[name] = attrs, {}

    def add_edge(self, a: str, b: str, **attrs: Any) -> None:
        self.adj[a][b] = self.adj[b][a] = attrs
        self.added.append((a, b))

    def edges(self) -> Iterator[tuple[str, str, dict[str, Any]]]:
        """Each section once, ``(a, b, attributes)``, in networkx's order for the same graph."""
        seen: set[str] = set()
        for name, nbrs in self.adj.items():
            yield from ((name, other, attrs) for other, attrs in nbrs.items() if other not in seen)
            seen.add(name)

    def is_connected(self) -> bool:
        first = list(self.nodes)[:1]
        reached, todo = set(first), first
        while todo:
            new = [other for other in self.adj[todo.pop()] if other not in reached]
            reached.update(new)
            todo.extend(new)
        return bool(self.nodes) and len(reached) == len(self.nodes)

    def to_networkx(self) -> nx.Graph:
        """The same network as a networkx graph (nodes, sections and their order as read)."""
        import networkx as nx

        graph = nx.Graph(city=self.city)
        for name, attrs in self.nodes.items():
            graph.add_node(name, **attrs)
        for a, b in self.added:
            graph.add_edge(a, b, **self.adj[a][b])
        return graph


@dataclass(frozen=True, eq=False)
class CityMap:
    """One city's board: its network (a networkx graph on demand) plus the tuples the engine reads
    in its hot loop."""

    city: str
    title: str
    width: int
    height: int
    network: Network = field(repr=False)
    """The intersections and sections as read (:attr:`graph` is the same as a networkx graph)."""
    names: tuple[str, ...]
    """Intersection index -> name (``"C4"``)."""
    index: dict[str, int]
    pos: tuple[tuple[int, int], ...]
    neighbour: tuple[tuple[int, int, int, int], ...]
    """``neighbour[node][direction]``: the intersection one section away, or -1 (edge or river)."""
    section: tuple[tuple[int, int, int, int], ...]
    """``section[node][direction]``: the section index in that direction, or -1."""
    section_ends: tuple[tuple[int, int], ...]
    section_colour: tuple[int, ...]
    """Rome: index into :data:`SECTION_COLOURS` per section; Paris: all -1."""
    features: tuple[tuple[int, ...], ...]
    starts: dict[int, int]
    """Start number -> intersection index."""
    start_at: dict[int, int]
    """Intersection index -> start number."""
    letters: dict[str, int]
    """Objective letter -> intersection index."""
    letter_at: dict[int, str]
    river: tuple[tuple[tuple[int, int], tuple[int, int]], ...]
    affluence: int
    """Bitmask of the sections of the solo "affluence" ghost line."""
    affluence_path: tuple[int, ...]
    _fit_cache: dict[tuple[int, int, str, int, int], bool] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _next_cache: dict[tuple[int, int, str, int], tuple[tuple[int, int, int], ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def next_sticks(
        self, node: int, heading: int, junctions: str, step: int, boxes_left: int
    ) -> tuple[tuple[int, int, int], ...]:
        """The sticks that may come next: ``(direction, intersection reached, boxes it costs)``.

        The geometry of a turn, said once: stay on the map, never go back along the section just
        laid, and pay one turn-modification box for every junction that differs from the shape;
        a stick costing more than ``boxes_left`` is left out.  Memoised: the board is static.
        """
        key = (node * 5 + heading + 1, boxes_left, junctions, step)
        hit = self._next_cache.get(key)
        if hit is None:
            nbrs = self.neighbour[node]
            back = OPPOSITE[heading] if heading >= 0 else -1
            found = []
            for d in range(4):
                nb = nbrs[d]
                if nb < 0 or d == back:
                    continue
                cost = junction_cost(junctions, step, heading, d)
                if cost <= boxes_left:
                    found.append((d, nb, cost))
            hit = self._next_cache[key] = tuple(found)
        return hit

    def fits(self, node: int, heading: int, junctions: str, step: int, sticks: int, boxes_left: int) -> bool:
        """:func:`completable` with loops ignored, memoised: it depends on the static board only.

        Boxes beyond the junctions still to come change nothing, so they are capped to keep the
        table small (at most nodes x 5 headings x 6 shapes x 3 steps x 4 box counts).
        """
        if step >= sticks:
            return True
        left = sticks - step
        if boxes_left > left:
            boxes_left = left
        key = (node * 5 + heading + 1, boxes_left, junctions, step, sticks)
        hit = self._fit_cache.get(key)
        if hit is None:
            hit = any(
                self.fits(nb, d, junctions, step + 1, sticks, boxes_left - cost)
                for d, nb, cost in self.next_sticks(node, heading, junctions, step, boxes_left)
            )
            self._fit_cache[key] = hit
        return hit

    @cached_property
    def graph(self) -> nx.Graph:
        """:attr:`network` as a networkx graph, built on first use (node and edge attributes alike)."""
        return self.network.to_networkx()

    def fill_fits(self, shapes: tuple[Shape, ...]) -> None:
        """Fill the :meth:`fits` and :meth:`next_sticks` tables for every shape at once (once per
        process; play then never recurses): the entries :meth:`fits` would make, from a shape's last
        stick back, each reading the next step's (Rome's 13,300: 25-30 ms, not 60-85 by recursion,
        paid by every new tournament worker before its first game).  A step's stick costs depend on
        heading and direction only (20, not one a node); a node's moves serve every box count."""
        fit, nexts = self._fit_cache, self._next_cache
        exits = [[(d, nb) for d, nb in enumerate(nbrs) if nb >= 0] for nbrs in self.neighbour]
        headings = (NO_HEADING, 0, 1, 2, 3)
        rows = [(h + 1, OPPOSITE[h] if h >= 0 else -1) for h in headings]
        for junctions, sticks in dict.fromkeys((shape.junctions, shape.sticks) for shape in shapes):
            for step in range(sticks - 1, -1, -1):
                left, last = sticks - step, step + 1 >= sticks
                costs = [[junction_cost(junctions, step, h, d) for d in range(4)] for h in headings]
                for node, out in enumerate(exits):
                    base = node * 5
                    for row, back in rows:
                        cost = costs[row]
                        moves = tuple([(d, nb, cost[d]) for d, nb in out if d != back])
                        code = base + row
                        free = tuple([m for m in moves if not m[2]])  # a stick costs 0 or 1 box
                        nexts.setdefault((code, 0, junctions, step), free)
                        for boxes in range(1, left + 1):
                            nexts.setdefault((code, boxes, junctions, step), moves)
                        if last:
                            fit[code, 0, junctions, step, sticks] = bool(free)
                            for boxes in range(1, left + 1):
                                fit[code, boxes, junctions, step, sticks] = bool(moves)
                            continue
                        nxt, top = step + 1, left - 1
                        for boxes in range(left + 1):
                            hit = False
                            for d, nb, paid in moves if boxes else free:
                                if fit[nb * 5 + d + 1, min(boxes - paid, top), junctions, nxt, sticks]:
                                    hit = True
                                    break
                            fit[code, boxes, junctions, step, sticks] = hit

    @property
    def num_nodes(self) -> int:
        return len(self.names)

    @property
    def num_sections(self) -> int:
        return len(self.section_ends)

    def node(self, name: str) -> int:
        """The index of an intersection named like ``"C4"``; :class:`ValueError` naming it if absent."""
        key = name.strip().upper()
        if key not in self.index:
            raise ValueError(f"{self.title} has no intersection {name!r}")
        return self.index[key]

    def direction(self, a: int, b: int) -> int:
        """The direction from intersection ``a`` to its neighbour ``b``; -1 if not adjacent."""
        for d in range(4):
            if self.neighbour[a][d] == b:
                return d
        return -1

    def features_of(self, node: int) -> tuple[str, ...]:
        return tuple(FEATURES[f] for f in self.features[node])

    def __repr__(self) -> str:
        return f"<CityMap {self.title}: {self.num_nodes} intersections, {self.num_sections} sections>"


def completable(
    board: CityMap,
    node: int,
    heading: int,
    junctions: str,
    step: int,
    sticks: int,
    boxes_left: int,
    visited: int | None,
) -> bool:
    """Can sticks ``step..sticks-1`` of a shape still be laid from ``node`` heading ``heading``?

    Each stick as :meth:`CityMap.next_sticks` allows.  With ``visited`` (a bitmask) the route must
    also avoid those intersections (a *safe* completion); with ``None`` loops are ignored, which
    is the test for the "would leave the map" exception of the FAQ.
    """
    if step >= sticks:
        return True
    for d, nb, cost in board.next_sticks(node, heading, junctions, step, boxes_left):
        if visited is not None:
            if visited >> nb & 1:
                continue
            if completable(board, nb, d, junctions, step + 1, sticks, boxes_left - cost, visited | 1 << nb):
                return True
        elif completable(board, nb, d, junctions, step + 1, sticks, boxes_left - cost, None):
            return True
    return False


def junction_cost(junctions: str, step: int, heading: int, direction: int) -> int:
    """Turn boxes needed for stick ``step`` of a turn going ``direction`` after ``heading``.

    The first stick of a turn (``step == 0``) is free: the elbow with the previous turn is not
    part of the ticket.
    """
    if step == 0:
        return 0
    want = junctions[step - 1]
    if want == "F":
        return 0
    turned = direction != heading
    return 1 if turned != (want == "T") else 0


@cache
def load_map(city: str) -> CityMap:
    """The validated board of ``city`` ("rome" or "paris"), built once per process."""
    if city not in PUBLISHED:
        raise MapError(f"unknown city {city!r}; expected one of {', '.join(CITIES)}")
    board = map_from_data(_data(f"{city}.json"), city)
    board.fill_fits(load_tables().shapes)
    return board


def map_from_data(data: dict[str, Any], city: str) -> CityMap:
    """Build and validate a board from its JSON data (exposed so tests can feed broken maps).

    In the order a reader checks a drawn map: its intersections and river, the published
    statistics, Rome's section colours, then the tuples the rules read, and last that every start
    can open the game with every shape.
    """
    where = f"{city}.json"
    try:
        width, height = int(data["width"]), int(data["height"])
        raw_nodes = data["intersections"]
        raw_river = data["river"]
    except (KeyError, TypeError, ValueError) as exc:
        raise MapError(f"{where}: missing or malformed field {exc}") from None
    _require(data.get("city") == city, where + " city", f"says {data.get('city')!r}")
    _require(width <= MAX_WIDTH and height <= MAX_HEIGHT, where, f"at most {MAX_WIDTH} x {MAX_HEIGHT}")
    graph = Network(city)
    starts, letters = _read_intersections(graph, raw_nodes, width, height, where)
    blocked = _read_river(graph, raw_river, where)
    _check_published(graph, starts, letters, PUBLISHED[city], where)
    if city == "rome":
        _colour_sections(graph, data.get("section_colours", {}), where)
    grid = _Grid.of(graph)
    path = tuple(grid.index[node_name(*parse_node_name(p))] for p in data.get("affluence", []))
    board = CityMap(
        city=city,
        title=str(data.get("title", city)),
        width=width,
        height=height,
        network=graph,
        names=grid.names,
        index=grid.index,
        pos=grid.pos,
        neighbour=grid.neighbour,
        section=grid.section,
        section_ends=grid.ends,
        section_colour=grid.colour_of,
        features=tuple(tuple(FEATURE_INDEX[f] for f in graph.nodes[n]["features"]) for n in grid.names),
        starts={k: grid.index[v] for k, v in sorted(starts.items())},
        start_at={grid.index[v]: k for k, v in starts.items()},
        letters={k: grid.index[v] for k, v in sorted(letters.items())},
        letter_at={grid.index[v]: k for k, v in letters.items()},
        river=tuple(
            (graph.nodes[a]["pos"], graph.nodes[b]["pos"]) for a, b in (tuple(pair) for pair in blocked)
        ),
        affluence=grid.mask_of(path, where),
        affluence_path=path,
    )
    _check_starts(board, where)
    return board


def _read_intersections(
    graph: Network, raw_nodes: list[Any], width: int, height: int, where: str
) -> tuple[dict[int, str], dict[str, str]]:
    """Add every intersection with its features to ``graph``; (start number -> name, letter -> name)."""
    starts: dict[int, str] = {}
    letters: dict[str, str] = {}
    for i, item in enumerate(raw_nodes):
        at = f"{where} intersections[{i}]"
        try:
            x, y = parse_node_name(item["at"])
        except (KeyError, ValueError) as exc:
            raise MapError(f"{at}.at: {exc}") from None
        name = node_name(x, y)
        _require(x < width and y < height, at, f"{name} lies outside the {width} x {height} grid")
        _require(name not in graph.nodes, at, f"{name} is listed twice")
        feats = item.get("features", [])
        _require(bool(feats), at, f"{name} has no feature (every intersection holds at least one)")
        for f in feats:
            _require(f in FEATURE_INDEX, at, f"unknown feature {f!r}")
        _require(len(set(feats)) == len(feats), at, f"{name} repeats a feature")
        graph.add_node(
            name, pos=(x, y), features=tuple(feats), start=item.get("start"), letter=item.get("letter")
        )
        if "start" in item:
            _require("entrance" in feats, at, f"start {item['start']} must be a metro entrance")
            _require(item["start"] not in starts, at, f"start {item['start']} is used twice")
            starts[item["start"]] = name
        if "letter" in item:
            _require(item["letter"] in LETTERS, at, f"letter must be a-o, got {item['letter']!r}")
            _require(item["letter"] not in letters, at, f"letter {item['letter']} is used twice")
            letters[item["letter"]] = name
    return starts, letters


def _read_river(graph: Network, raw_river: list[Any], where: str) -> set[frozenset[str]]:
    """Join grid neighbours by a section unless the river blocks it; the blocked pairs."""
    blocked = set()
    for j, pair in enumerate(raw_river):
        a, b = (node_name(*parse_node_name(p)) for p in pair)
        (ax, ay), (bx, by) = graph.nodes[a]["pos"], graph.nodes[b]["pos"]
        _require(abs(ax - bx) + abs(ay - by) == 1, f"{where} river[{j}]", f"{a}-{b} are not grid neighbours")
        blocked.add(frozenset((a, b)))
    for name in list(graph.nodes):
        x, y = graph.nodes[name]["pos"]
        for dx, dy in ((1, 0), (0, 1)):
            other = node_name(x + dx, y + dy) if x + dx < MAX_WIDTH and y + dy < MAX_HEIGHT else ""
            if other in graph.nodes and frozenset((name, other)) not in blocked:
                graph.add_edge(name, other, colour=None)
    return blocked


def _check_published(
    graph: Network, starts: dict[int, str], letters: dict[str, str], facts: dict[str, Any], where: str
) -> None:
    """The published statistics: intersections, sections, starts, letters, feature counts, a
    connected network without dead ends."""
    counts = Counter(f for attrs in graph.nodes.values() for f in attrs["features"])
    _require(
        len(graph.nodes) == facts["intersections"],
        where,
        f"{len(graph.nodes)} intersections, the published board has {facts['intersections']}",
    )
    _require(
        len(graph.added) == facts["sections"],
        where,
        f"{len(graph.added)} sections, the published board has {facts['sections']}",
    )
    _require(
        sorted(starts) == list(range(1, facts["starts"] + 1)),
        where + " starts",
        f"starts must be numbered 1-{facts['starts']}",
    )
    _require(sorted(letters) == list(LETTERS), where + " letters", "the 15 letters a-o, once each")
    for f, n in facts["features"].items():
        _require(counts[f] == n, where + " features", f"{counts[f]} {f}, the published board has {n}")
    _require(graph.is_connected(), where, "the network must be connected")
    low = [n for n, nbrs in graph.adj.items() if len(nbrs) < 2]
    _require(not low, where, f"dead ends (fewer than 2 sections): {low}")


def _colour_sections(graph: Network, colours: dict[str, list[str]], where: str) -> None:
    """Rome's two section colours: every section exactly one."""
    _require(set(colours) == set(SECTION_COLOURS), where + " section_colours", f"{SECTION_COLOURS}")
    for colour, sections in colours.items():
        for text in sections:
            a, _, b = text.partition("-")
            _require(b in graph.adj.get(a, {}), where + " section_colours", f"{text} is not a section")
            _require(graph.adj[a][b]["colour"] is None, where + " section_colours", f"{text} twice")
            graph.adj[a][b]["colour"] = colour
    missing = [f"{a}-{b}" for a, b, data in graph.edges() if data["colour"] is None]
    _require(not missing, where + " section_colours", f"sections without a colour: {missing[:5]}")


@dataclass(frozen=True)
class _Grid:
    """The tuples the rules read, intersections sorted by row then column (a stable, readable order)."""

    names: tuple[str, ...]
    index: dict[str, int]
    pos: tuple[tuple[int, int], ...]
    ends: tuple[tuple[int, int], ...]
    colour_of: tuple[int, ...]
    section_ids: dict[frozenset[int], int]
    neighbour: tuple[tuple[int, int, int, int], ...]
    section: tuple[tuple[int, int, int, int], ...]

    @classmethod
    def of(cls, graph: Network) -> _Grid:
        names = tuple(sorted(graph.nodes, key=lambda n: (graph.nodes[n]["pos"][1], graph.nodes[n]["pos"][0])))
        index = {n: i for i, n in enumerate(names)}
        pos = tuple(graph.nodes[n]["pos"] for n in names)
        at_pos = {p: i for i, p in enumerate(pos)}
        section_ids: dict[frozenset[int], int] = {}
        ends: list[tuple[int, int]] = []
        colour_of: list[int] = []
        pairs = sorted((min(index[u], index[v]), max(index[u], index[v])) for u, v in graph.added)
        for lo, hi in pairs:
            section_ids[frozenset((lo, hi))] = len(ends)
            ends.append((lo, hi))
            c = graph.adj[names[lo]][names[hi]]["colour"]
            colour_of.append(SECTION_COLOURS.index(c) if c else -1)
        neighbour, section = [], []
        for i, (x, y) in enumerate(pos):
            nb, sec = [], []
            for dx, dy in DELTA:
                j = at_pos.get((x + dx, y + dy), -1)
                joined = j >= 0 and names[j] in graph.adj[names[i]]
                nb.append(j if joined else -1)
                sec.append(section_ids[frozenset((i, j))] if joined else -1)
            neighbour.append((nb[0], nb[1], nb[2], nb[3]))
            section.append((sec[0], sec[1], sec[2], sec[3]))
        return cls(
            names, index, pos, tuple(ends), tuple(colour_of), section_ids, tuple(neighbour), tuple(section)
        )

    def mask_of(self, path: tuple[int, ...], where: str) -> int:
        """The sections along ``path`` as a bit mask (the solo game's affluence line)."""
        mask = 0
        for u, v in itertools.pairwise(path):
            key = frozenset((u, v))
            _require(
                key in self.section_ids,
                where + " affluence",
                f"{self.names[u]}-{self.names[v]} is not a section",
            )
            mask |= 1 << self.section_ids[key]
        return mask


def _check_starts(board: CityMap, where: str) -> None:
    """Every start usable: each of the 6 shapes can open the game from it, loop-free."""
    for number, node in board.starts.items():
        for shape in load_tables().shapes:
            _require(
                completable(board, node, NO_HEADING, shape.junctions, 0, shape.sticks, 0, 1 << node),
                where + f" start {number}",
                f"the shape {shape.name!r} cannot be laid from {board.names[node]}",
            )
