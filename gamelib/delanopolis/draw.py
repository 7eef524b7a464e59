"""Delanopolis drawn with matplotlib: the zones cobayes on a stylized Paris, and the auctions.

:func:`draw_state` lays out one figure for a projector: the map (the périphérique, the Seine,
the twelve terrains coloured by owner with their price, the refuges, the pawns), the players'
purses and atouts/jokers on the right, the auction being bid or the last one revealed below
them, and the chapter the table has just read under the map.  :func:`draw_auction` draws one
auction on its own, bids hidden or revealed.

A perspective never sees the others' pending sealed bids: the painter reads
``state.observation(perspective)``, where they are already ``None``, and draws a "?".
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
import textwrap
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib import axis
from matplotlib.axes import Axes
from matplotlib.collections import PatchCollection
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Ellipse, FancyBboxPatch, Patch, Polygon, Rectangle

from gamelib.core.drawing import Backdrop, Labels, public_view_label
from gamelib.core.game import PUBLIC, Perspective
from gamelib.core.i18n import Wording
from gamelib.delanopolis.board import REFUGE_BASE, START, TERRAINS, content
from gamelib.delanopolis.rules import (
    BIDDING,
    BOOST_WINDOW,
    LOT,
    OVER,
    PARK_CHOICE,
    PRE_ROLL,
    ROLL_DICE,
    AuctionResult,
    DelanopolisObservation,
    Event,
)

if TYPE_CHECKING:
    from gamelib.delanopolis.rules import DelanopolisState

PLAYER_COLOURS = ("#1f77b4", "#e8710a", "#2ca02c", "#d62728", "#9467bd", "#8c564b")
FREE_COLOUR = "#f4f1ea"
PARIS_COLOUR = "#ece4d4"
SEINE_COLOUR = "#6fa8dc"
REFUGE_COLOUR = "#7cb66b"
HIGHLIGHT = "#f1c40f"
SEINE = np.array(
    [
        (1.12, -0.46),
        (0.78, -0.40),
        (0.52, -0.22),
        (0.28, -0.08),
        (0.02, -0.03),
        (-0.30, 0.02),
        (-0.55, -0.04),
        (-0.76, -0.24),
        (-1.12, -0.38),
    ]
)
TERRAIN_RADIUS = 0.085
HIDDEN_BAR = 60
"""Height of the grey "?" bar standing for a sealed bid not yet revealed."""
WORDS = Wording(__package__)
"""What the drawing says, in English or French (``gamelib.set_language``)."""
_CORE_WORDS = Wording("gamelib.core")
"""Core's words: "Player {n}", as every game names its seats."""
PHASE_WORDS = {
    LOT: "phase_lot",
    PRE_ROLL: "phase_pre_roll",
    BOOST_WINDOW: "phase_boost",
    ROLL_DICE: "phase_dice",
    BIDDING: "phase_bidding",
    PARK_CHOICE: "phase_park",
    OVER: "phase_over",
}
REFUGE_NAME_RIGHT = frozenset({1})
"""Refuges whose name goes right of their box (Buttes-Chaumont would sit on La Villette's)."""


def player_colour(player: int) -> str:
    return PLAYER_COLOURS[player % len(PLAYER_COLOURS)]


def _role(view: DelanopolisObservation, player: int) -> str:
    return WORDS("mayor") if player == view.mayor else WORDS("challenger")


def number(player: int) -> int:
    """How a student counts seat ``player`` (0-based in code): from 1."""
    return player + 1


def player_name(player: int) -> str:
    """ "Player 3" ("Joueur 3" in French) for seat 2: core's name, in the language in force."""
    return _CORE_WORDS("player", n=number(player))


def _who(view: DelanopolisObservation, player: int) -> str:
    """ "3 challenger", "1 mayor" (seat 2, seat 0) under the table's "player" heading."""
    return WORDS("player_role", player=number(player), role=_role(view, player))


def _wrapped(name: str, longest: int = 16) -> str:
    """A long place name on two lines, cut at its hyphen or space nearest the middle."""
    cuts = [i for i, c in enumerate(name) if c in "- "]
    if len(name) <= longest or not cuts:
        return name
    cut = min(cuts, key=lambda i: abs(i - len(name) / 2))
    return name[: cut + 1].rstrip() + "\n" + name[cut + 1 :]


def _smooth(points: np.ndarray, samples: int = 200) -> np.ndarray:
    """A Catmull-Rom curve through ``points`` (the Seine's meanders)."""
    p = np.vstack([points[0], points, points[-1]])
    out = []
    for i in range(1, len(p) - 2):
        p0, p1, p2, p3 = p[i - 1], p[i], p[i + 1], p[i + 2]
        for t in np.linspace(0, 1, samples // (len(p) - 3), endpoint=False):
            t2, t3 = t * t, t * t * t
            out.append(
                0.5
                * (
                    2 * p1
                    + (-p0 + p2) * t
                    + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t2
                    + (-p0 + 3 * p1 - 3 * p2 + p3) * t3
                )
            )
    out.append(points[-1])
    return np.array(out)


def _place_xy(code: int) -> tuple[float, float]:
    data = content()
    if code >= REFUGE_BASE:
        r = data.refuges[code - REFUGE_BASE]
        return r.x, r.y
    t = data.terrains[code]
    return t.x, t.y


@functools.cache
def _seine() -> np.ndarray:
    return _smooth(SEINE)


def _arrowhead(a: np.ndarray, b: np.ndarray, length: float = 0.032) -> np.ndarray:
    """A triangle at the middle of segment a-b pointing from a to b (the walking direction)."""
    direction = (b - a) / np.hypot(*(b - a))
    normal = np.array([-direction[1], direction[0]])
    tip = (a + b) / 2 + direction * length / 2
    base = tip - direction * length
    return np.array([tip, base + normal * length * 0.45, base - normal * length * 0.45])


def _draw_city(ring: tuple[int, ...], refuge_on_double: bool, ax: Axes) -> None:
    """Paris, the Seine, the walking ring (when pawns walk it) and the refuges."""
    data = content()
    shapes: list[Patch] = [Ellipse((0, -0.02), 2.16, 1.56, facecolor=PARIS_COLOUR, edgecolor="#9a8f7a", lw=6)]
    labels, names = Labels(), Labels()
    seine = _seine()
    ax.plot(seine[:, 0], seine[:, 1], color=SEINE_COLOUR, lw=14, solid_capstyle="round", zorder=1)
    labels.add(0.86, -0.50, "la Seine", 13, colour="#2f6ea5", style="italic", rotation=12)
    ring_shapes: list[Patch] = []
    if ring:
        pts = np.array([_place_xy(c) for c in (*ring, ring[0])])
        ax.plot(pts[:, 0], pts[:, 1], color="#8a8478", lw=1.6, ls=(0, (4, 3)), zorder=2)
        ring_shapes = [
            Polygon(_arrowhead(a, b), closed=True, facecolor="#8a8478", edgecolor="#8a8478", lw=1)
            for a, b in itertools.pairwise(pts)
        ]
    refuges = [c for c in ring if c >= REFUGE_BASE]
    if refuge_on_double:
        refuges = [REFUGE_BASE + j for j in range(4)]
    refuge_shapes: list[Patch] = []
    for code in refuges:
        r = data.refuges[code - REFUGE_BASE]
        refuge_shapes.append(
            FancyBboxPatch(
                (r.x - 0.06, r.y - 0.05),
                0.12,
                0.10,
                boxstyle="round,pad=0.01",
                facecolor=REFUGE_COLOUR,
                edgecolor="#3d6b32",
                lw=2,
            )
        )
        labels.add(r.x, r.y, f"R{r.number}", 14, colour="white", ha="center", va="center", weight="bold")
        if r.number in REFUGE_NAME_RIGHT:
            names.add(r.x + 0.075, r.y, r.name, 10.5, colour="#2e5a25", va="center")
        else:
            names.add(r.x, r.y - 0.085, r.name, 10.5, colour="#2e5a25", ha="center", va="top")
    for group, zorder in ((shapes, 0), (ring_shapes, 2), (refuge_shapes, 3)):
        if group:
            ax.add_collection(PatchCollection(group, match_original=True, zorder=zorder), autolim=False)
    labels.emit(ax, zorder=5)
    names.emit(ax, zorder=5, named=True)


def public_view(state: DelanopolisState, perspective: Perspective) -> DelanopolisObservation:
    """``state.observation(perspective)``; ``PUBLIC`` hides every seat's pending sealed bid."""
    if perspective != PUBLIC:
        return state.observation(perspective)
    hidden = {q for p in range(state.game.num_players) for q in state.hidden_bidders(p)}
    view = state.observation(None)
    return dataclasses.replace(view, bids=tuple(None if q in hidden else b for q, b in enumerate(view.bids)))


def draw_map(state: DelanopolisState, ax: Axes, perspective: Perspective = None) -> None:
    """The map of Paris with terrains, owners, prices, refuges and pawns, into ``ax``.

    The city itself (Seine, walking ring, refuges) never changes during a game: it is a cached
    layer (see :class:`Backdrop`) under the terrains, their names (over the landing halo) and
    the pawns.
    """
    view = public_view(state, perspective)
    o = state.options
    data = content()
    ax.set_aspect("equal")
    ax.set_xlim(-1.18, 1.18)
    ax.set_ylim(-0.86, 0.82)
    ax.axis("off")
    ring = tuple(state.game.ring) if o.placement == "ring" else ()
    reachable = frozenset(state.game.reachable)
    city = (ring, o.refuge_on_double)
    ax.add_artist(Backdrop(("city", *city), functools.partial(_draw_city, *city), zorder=0))
    labels, names = Labels(), Labels()
    halos: list[Patch] = []
    terrains: list[Patch] = []
    for t in range(TERRAINS):
        place = data.terrains[t]
        owner = view.owner[t]
        face = player_colour(owner) if owner >= 0 else FREE_COLOUR
        edge = "#222222" if t in reachable else "#aaaaaa"
        if view.landed == t:
            halos.append(Circle((place.x, place.y), TERRAIN_RADIUS * 1.45, facecolor=HIGHLIGHT, alpha=0.8))
        terrains.append(Circle((place.x, place.y), TERRAIN_RADIUS, facecolor=face, edgecolor=edge, lw=2.5))
        labels.add(
            place.x,
            place.y,
            str(place.number),
            18,
            colour="white" if owner >= 0 else "#222222",
            ha="center",
            va="center",
            weight="bold",
        )
        label = _wrapped(place.name) + ("" if t in reachable else "\n" + WORDS("never_rolled"))
        names.add(place.x, place.y - TERRAIN_RADIUS - 0.012, label, 11, ha="center", va="top")
        if owner >= 0:
            side, drop = _price_spot(t)  # beside the circle, on its freer side: the pawns stand above
            labels.add(
                place.x + side * (TERRAIN_RADIUS + PRICE_GAP),
                place.y + drop,
                f"{view.price[t]}",
                12,
                colour=player_colour(owner),
                ha="left" if side > 0 else "right",
                va="center",
                weight="bold",
                box=("white", player_colour(owner), 0.15),
            )
    for group, zorder in ((halos, 3), (terrains, 4)):
        if group:
            ax.add_collection(PatchCollection(group, match_original=True, zorder=zorder), autolim=False)

    discs, stars = _pawns(view)
    for pawns, marker, size in ((discs, "o", 12), (stars, "*", 17)):
        if pawns:
            xs, ys, colours = zip(*pawns, strict=True)
            ax.scatter(
                xs, ys, s=size**2, marker=marker, c=list(colours), edgecolors="k", linewidths=1.5, zorder=7
            )
    if any(c == START for c in view.where):
        labels.add(-1.02, 0.72, WORDS("start"), 11.5, colour="#555555", ha="center")
    labels.emit(ax, zorder=5)
    names.emit(ax, zorder=5, named=True)


PRICE_GAP = 0.012
"""Data units between a terrain's circle and its price tag."""
PAWN_STEP, PAWN_RISE = 0.044, 0.115
"""Pawns stand in a row above their square (its name is under it, its price beside it): the
distance between two pawns, and from the square's centre up to the row."""


Box = tuple[float, float, float, float]
"""(x0, y0, x1, y1) in data units."""
PRICE_BOX = (0.08, 0.055)
"""The room a price tag of two digits takes (data units; the default cap is 60)."""
PRICE_DROPS = (0.0, -0.03, 0.03)
"""Heights (data units) a price tag may sit at beside its circle, the middle preferred."""


def _gap(a: Box, b: Box) -> float:
    """Distance between two boxes; when they overlap, minus the area they share."""
    dx = max(a[0], b[0]) - min(a[2], b[2])
    dy = max(a[1], b[1]) - min(a[3], b[3])
    if dx < 0 and dy < 0:
        return -dx * dy
    return float(np.hypot(max(dx, 0.0), max(dy, 0.0)))


CHAR_WIDTH, LINE_HEIGHT = 0.0135, 0.048
"""Half the width of one character and the height of one line of an 11 pt name, in data units."""
PAWN_SHIFTS = (0.0, -0.05, 0.05, -0.1, 0.1, -0.15, 0.15)
"""Where a row of pawns may stand left or right of its square's top, the middle preferred."""
ROOM_ENOUGH = 0.02
"""Clearance (data units) past which a spot is as good as any farther one."""


def _static_boxes(terrain: int) -> list[Box]:
    """A terrain's circle and its name under it (the name's own width; the terrains a placement
    may leave unrolled get the "(never rolled)" line too)."""
    t = content().terrains[terrain]
    r = TERRAIN_RADIUS
    lines = _wrapped(t.name).split("\n") + (["(jamais atteint)"] if terrain in (0, 1) else [])
    boxes = [(t.x - r, t.y - r, t.x + r, t.y + r)]
    for i, line in enumerate(lines):
        top = t.y - r - 0.012 - LINE_HEIGHT * i
        boxes.append((t.x - CHAR_WIDTH * len(line), top - LINE_HEIGHT, t.x + CHAR_WIDTH * len(line), top))
    return boxes


def _refuge_boxes() -> list[Box]:
    return [(r.x - 0.07, r.y - 0.06, r.x + 0.07, r.y + 0.06) for r in content().refuges]


PAWNS_PER_ROW = 3
"""Pawns side by side above a square; more stand in a second row above the first."""
PAWN_RADIUS = 0.03
"""Half the mayor's star (17 pt across; a data unit is 290 pt of the 9.5-inch map)."""


def _pawn_row(terrain: int, shift: float, count: int = 6) -> Box:
    """The room ``count`` pawns take above ``terrain`` (rows of three), ``shift`` from its centre."""
    t = content().terrains[terrain]
    half = PAWN_STEP * (min(count, PAWNS_PER_ROW) - 1) / 2 + PAWN_RADIUS
    rows = (count - 1) // PAWNS_PER_ROW
    x = t.x + shift
    return (
        x - half,
        t.y + PAWN_RISE - PAWN_RADIUS,
        x + half,
        t.y + PAWN_RISE + PAWN_STEP * rows + PAWN_RADIUS,
    )


@functools.cache
def _pawn_shift(terrain: int, count: int = 6) -> float:
    """How far left or right of ``terrain``'s top its ``count`` pawns stand: clear of the other
    circles, names and refuges (Saint-Germain's pawns stay off "Les Halles"); a pawn alone stays
    on top of its square wherever it can."""
    obstacles = [box for i in range(TERRAINS) if i != terrain for box in _static_boxes(i)] + _refuge_boxes()

    def score(shift: float) -> tuple[float, float]:
        room = min(_gap(_pawn_row(terrain, shift, count), box) for box in obstacles)
        return min(room, ROOM_ENOUGH), -abs(shift)

    return max(PAWN_SHIFTS, key=score)


def _footprint(terrain: int) -> list[Box]:
    """What a terrain may show around it: its circle, its name under it, its pawns' row above."""
    return [*_static_boxes(terrain), _pawn_row(terrain, _pawn_shift(terrain))]


@functools.cache
def _price_spot(terrain: int) -> tuple[int, float]:
    """(+1 right or -1 left, height): where beside ``terrain`` its price tag lies farthest from
    every other terrain's circle, pawns and name and from the refuges (La Villette's right is
    Buttes-Chaumont's, Le Marais' right is under Bastille's pawns)."""
    data = content()
    here = data.terrains[terrain]
    obstacles = [box for i in range(TERRAINS) if i != terrain for box in _footprint(i)]
    obstacles += [*_refuge_boxes(), _pawn_row(terrain, _pawn_shift(terrain))]
    width, height = PRICE_BOX

    def room(spot: tuple[int, float]) -> float:
        side, drop = spot
        near = here.x + side * (TERRAIN_RADIUS + PRICE_GAP)
        far, y = near + side * width, here.y + drop
        tag = (min(near, far), y - height / 2, max(near, far), y + height / 2)
        return min(_gap(tag, box) for box in obstacles)

    return max(((side, drop) for drop in PRICE_DROPS for side in (1, -1)), key=room)


Pawn = tuple[float, float, str]


def _pawns(view: DelanopolisObservation) -> tuple[list[Pawn], list[Pawn]]:
    """(challengers' discs, the mayor's star): a row above each square, in seat order, centred;
    a ring in the corner before the first roll."""
    discs: list[Pawn] = []
    stars: list[Pawn] = []
    here: dict[int, list[int]] = {}
    for p, code in enumerate(view.where):
        here.setdefault(code, []).append(p)
    for code, players in here.items():
        for k, p in enumerate(players):
            if code == START:
                angle = 2 * np.pi * p / len(view.where)
                discs.append((-1.02 + 0.07 * np.cos(angle), 0.62 + 0.07 * np.sin(angle), player_colour(p)))
                continue
            x, y = _place_xy(code)
            if code < REFUGE_BASE:
                x += _pawn_shift(code, len(players))
            row, place = divmod(k, PAWNS_PER_ROW)
            in_row = min(PAWNS_PER_ROW, len(players) - row * PAWNS_PER_ROW)
            dx = PAWN_STEP * (place - (in_row - 1) / 2)
            pawn = (x + dx, y + PAWN_RISE + PAWN_STEP * row, player_colour(p))
            (stars if p == view.mayor else discs).append(pawn)
    return discs, stars


def _draw_players(state: DelanopolisState, ax: Axes, view: DelanopolisObservation) -> None:
    ax.axis("off")
    ax.set_xlim(0, 1)
    n = len(view.vots)
    ax.set_ylim(-0.95, n + 1.2)
    labels = Labels()
    headers = (WORDS("col_player"), "VOT'S", "COM'S", WORDS("col_tokens"), WORDS("col_terrains"))
    xs = (0.02, 0.45, 0.63, 0.81, 0.95)
    for x, h in zip(xs, headers, strict=True):
        labels.add(x, n + 0.6, h, 12, weight="bold", ha="left" if x < 0.3 else "center", va="center")
    for row, p in enumerate(range(n)):
        y = n - 1 - row + 0.3
        if p == view.current_player:
            ax.add_patch(
                FancyBboxPatch(
                    (0.0, y - 0.42),
                    1.0,
                    0.84,
                    boxstyle="round,pad=0.01",
                    facecolor="#fff3c4",
                    edgecolor="none",
                )
            )
        ax.plot(
            0.045,
            y,
            "*" if p == view.mayor else "o",
            ms=19 if p == view.mayor else 14,
            mfc=player_colour(p),
            mec="k",
        )
        labels.add(0.09, y, _who(view, p), 12, va="center", weight="bold" if p == view.mayor else "normal")
        labels.add(xs[1], y, str(view.vots[p]), 12, va="center", ha="center")
        labels.add(xs[2], y, str(view.coms[p]), 12, va="center", ha="center")
        tok = view.tokens[p]
        # the mayor's tokens are jokers (a "J"), a challenger's atouts; "✓" once one is played
        joker = " " + WORDS("joker_mark") if p == view.mayor else ""
        tokens = (f"{tok}{joker}" if tok else "—") + (" ✓" if view.boosted[p] else "")
        labels.add(xs[3], y, tokens, 12, va="center", ha="center")
        labels.add(xs[4], y, str(view.owner.count(p)), 12, va="center", ha="center", weight="bold")
        flags = []
        if view.skip_next[p]:
            flags.append(WORDS("skips"))
        if state.bankrupt[p]:
            flags.append(WORDS("bankrupt"))
        if flags:
            labels.add(0.09, y - 0.36, ", ".join(flags), 10.5, colour="#aa3333", va="center")
    # the key of the map: a terrain takes its owner's colour (the markers above), a free one stays pale
    ax.add_patch(Rectangle((0.03, -0.78), 0.032, 0.3, facecolor=FREE_COLOUR, edgecolor="k", lw=1))
    labels.add(0.09, -0.63, WORDS("free_terrain"), 11.5, va="center", colour="#444444")
    labels.emit(ax, named=True)


AUCTION_TITLE_CHARS = 34
"""The auction's title wraps past this many characters (12.5 pt bold in the 4-inch panel)."""
NOT_YET = -1
"""A bid in ``_auction_rows`` not made yet (the seat is still to bid)."""


def _auction_rows(
    view: DelanopolisObservation, auction: AuctionResult | None
) -> tuple[str, list[tuple[int, int | None, bool]], int]:
    """(title, [(player, bid, None if hidden or NOT_YET if still to bid, boosted)], winner)."""
    names = content().terrains
    if view.phase == BIDDING:
        bids = [NOT_YET if b is not None and b < 0 else b for b in view.bids]
        rows = [(p, bids[p], view.boosted[p]) for p in view.bid_order]
        title = WORDS("sealed_bids", number=view.landed + 1, name=names[view.landed].name)
        return title, rows, -1
    if auction is None:
        return WORDS("no_auction"), [], -1
    rows = [(p, auction.bids[p], auction.boosted[p]) for p in range(len(auction.bids))]
    title = WORDS("last_auction", number=auction.terrain + 1, name=names[auction.terrain].name)
    return title, rows, auction.winner


def _bar(b: int | None, boosted: bool) -> tuple[float, str, bool]:
    """(height, text over it, hatched) of one bid's bar: its value as it counts, "?" if hidden."""
    if b is None:
        return HIDDEN_BAR, "?", True
    if b == NOT_YET:
        return 0, WORDS("not_yet"), False
    return b * (2 if boosted else 1), f"{b}×2" if boosted else f"{b}", boosted


def draw_auction_into(ax: Axes, view: DelanopolisObservation, auction: AuctionResult | None = None) -> None:
    """Bars of the bids (as they count: atouts and jokers double them) against the mayor's COM'S.

    Every bidder has a place from the first bid on: "?" for a sealed bid, "…" for a seat still
    to bid; the challengers' total and the mayor's COM'S stand at the right.
    """
    if auction is None and view.auctions and view.phase != BIDDING:
        auction = view.auctions[-1]
    title, rows, winner = _auction_rows(view, auction)
    ax.spines[["top", "right"]].set_visible(False)
    # every bar carries its value: no ticks (their layout was a third of this panel's time)
    ax.set_xticks([])
    ax.set_yticks([])
    notes = Labels()  # in axes coordinates, around the axes as a title and axis labels are
    # a long terrain name goes to a second line (the panel is 4 inches wide)
    title = "\n".join(textwrap.wrap(title, AUCTION_TITLE_CHARS))
    notes.add(0, 1, title, 12.5, va="bottom", weight="bold", offset=(0, 6))
    notes.add(0, 0.5, WORDS("points"), 11, ha="center", va="bottom", rotation=90, offset=(-4, 0))
    if not rows:
        notes.add(0.5, 0.5, WORDS("no_auction"), 12, ha="center", va="center", colour="#777777")
        notes.emit(ax, coordinates="axes", bound="figure")
        return
    notes.add(0.5, 0, WORDS("bidders"), 10.5, ha="center", va="top", colour="#555555", offset=(0, -34))
    bars = _draw_bars(ax, rows, view.mayor)
    xs_all, heights_all = [x for x, _, _, _ in bars], [h for _, h, _, _ in bars]
    top = max([*heights_all, 1])
    if view.phase == BIDDING:
        waiting = [str(number(p)) for p, b, _ in rows if b == NOT_YET]
        if waiting:
            notes.add(0.01, 0.97, WORDS("still_to_bid", players=", ".join(waiting)), 11, va="top")
    values, ticks = Labels(), Labels()
    for bar_x, bar_h, bar_text, label in bars:
        values.add(bar_x, bar_h + top * 0.03, bar_text, 12, ha="center", va="bottom", weight="bold")
        ticks.add(bar_x, 0, label, 11, ha="center", va="top", offset=(0, -4))  # as tick labels were
    values.emit(ax)
    ticks.emit(ax, bound="figure")
    ax.set_xlim(-0.6, xs_all[-1] + 0.6)
    ax.set_ylim(0, top * 1.45)  # room above the bars for the notes
    if winner >= 0:
        taken = WORDS("taken_by", player=player_name(winner), role=_role(view, winner))
        notes.add(0.99, 0.97, taken, 11.5, colour=player_colour(winner), ha="right", va="top", weight="bold")
    elif view.phase != BIDDING:
        notes.add(0.99, 0.97, WORDS("no_sale"), 11.5, ha="right", va="top")
    notes.emit(ax, coordinates="axes", bound="figure")


def _bar_patch(ax: Axes, x: float, height: float, colour: str, lw: float, hatch: str) -> None:
    """One bar as ``ax.bar`` draws it, without its autoscaling (the panel sets its limits)."""
    ax.add_artist(Rectangle((x - 0.4, 0), 0.8, height, facecolor=colour, edgecolor="k", lw=lw, hatch=hatch))


Bar = tuple[float, float, str, str]
"""(x, height, the value written over it, the name under it)."""


def _draw_bars(ax: Axes, rows: list[tuple[int, int | None, bool]], mayor: int) -> list[Bar]:
    """The challengers' bids in seat order, their total, then the mayor's COM'S, drawn into ``ax``."""
    bars: list[Bar] = []
    challengers_total, hidden_total = 0, False
    x = 0.0
    for p, b, boosted in rows:
        if p == mayor:
            continue
        height, text, hatched = _bar(b, boosted)
        hidden_total |= b is None  # seats still to bid add nothing yet
        challengers_total += int(height) if b is not None and b != NOT_YET else 0
        if height:
            colour = player_colour(p) if b is not None else "#dddddd"
            _bar_patch(ax, x, height, colour, 1.5, "//" if hatched else "")
        bars.append((x, height, text, str(number(p))))
        x += 1
    total_x = x + 0.3
    total = HIDDEN_BAR if hidden_total else challengers_total
    grey, hatch = ("#dddddd", "//") if hidden_total else ("#bbbbbb", "")
    _bar_patch(ax, total_x, total, grey, 1.5, hatch)
    bars.append((total_x, total, "?" if hidden_total else str(challengers_total), WORDS("challengers_total")))
    mayor_row = next(((b, boosted) for p, b, boosted in rows if p == mayor), None)
    if mayor_row is not None:
        height, text, hatched = _bar(*mayor_row)
        mx = total_x + 1.2
        if height:
            colour = "#dddddd" if mayor_row[0] is None else player_colour(mayor)
            _bar_patch(ax, mx, height, colour, 2.5, "//" if hatched else "")
        bars.append((mx, height, text, WORDS("mayor_bar", player=number(mayor))))
    return bars


_TIED = re.compile(r"(«) | ([»:;!?])")


def _tie_punctuation(text: str) -> str:
    """French spaces inside « » and before : ; ! ? made non-breaking: no line starts with "»,"."""
    return _TIED.sub(lambda m: f"{m.group(1)}\u00a0" if m.group(1) else f"\u00a0{m.group(2)}", text)


def _last_chapter(view: DelanopolisObservation) -> str:
    for event in reversed(view.events):
        text = event.chapter()
        if text:
            return text
    return ""


def _place_name(code: int) -> str:
    """ "7. Bercy" for a terrain (0-based code), "Parc Montsouris" for a refuge."""
    data = content()
    if code >= REFUGE_BASE:
        return data.refuges[code - REFUGE_BASE].name
    return f"{code + 1}. {data.terrains[code].name}"


def event_sentence(event: Event) -> str:
    """One line of the table's log as a sentence, in the language in force: what a student reads
    instead of the event's fields (``Event(turn=3, kind='rent', ...)``)."""
    fields: dict[str, Any] = {"player": player_name(event.player), "amount": event.amount}
    if event.kind in ("chapter", "rent", "park", "sale", "no_sale", "bankrupt") and event.subject >= 0:
        fields["terrain"] = _place_name(event.subject)
    if event.kind == "refuge":
        fields["refuge"] = _place_name(REFUGE_BASE + event.subject)
    if event.other >= 0:
        fields["other"] = player_name(event.other)
    return WORDS(f"event_{event.kind}", **fields)


def outcome_sentence(state: DelanopolisState) -> str:
    """How the game ended, in a sentence: the outcome, the winners by name, the mayor's terrains
    (what a notebook shows instead of ``('new_mayor', (1,), 6, 11)``)."""
    if state.outcome == "":
        return WORDS("not_over")
    winners = ", ".join(player_name(w) for w in state.winners)
    return WORDS(
        "outcome_sentence_many" if len(state.winners) > 1 else "outcome_sentence",
        outcome=_capitalised(WORDS(f"outcome_{state.outcome}")),
        winners=winners,
        mayor=player_name(state.mayor),
        held=state.owner.count(state.mayor),
        owned=sum(1 for o in state.owner if o >= 0),
    )


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def status_line(state: DelanopolisState, view: DelanopolisObservation | None = None) -> str:
    """The table's status in words: round, roller, phase and who acts (or the outcome)."""
    view = view or state.observation(None)
    o = state.options
    if view.phase == OVER:
        winners = ", ".join(player_name(w) for w in view.winners)
        return WORDS("game_over", outcome=WORDS(f"outcome_{view.outcome}"), winners=winners)
    who = view.current_player
    if who >= 0:
        actor = WORDS("to_act", player=player_name(who), role=_role(view, who))
    else:
        actor = WORDS("the_dice") if view.mayor >= 0 else WORDS("the_lot")
    roller = WORDS("roller", player=player_name(view.roller)) if view.roller >= 0 else ""
    return WORDS(
        "status",
        round=min(state.round + 1, o.rounds),
        rounds=o.rounds,
        roller=roller,
        phase=WORDS(PHASE_WORDS[view.phase]),
        actor=actor,
    )


FIGURE_WIDTH = 9.5
"""Inches: the Stepper (100 dpi) shows a 950 px PNG at 680-830 px, a mild shrink."""
HEADING, MAP_HEIGHT, PANELS, STORY = 0.5, 6.76, 3.1, 0.95  # inches: status, map, players | auction, story
HEADING_CHARS = 80
"""The status line wraps past this many characters (13 pt bold, 9.5 in): two lines fit the heading."""


class _TicklessX(axis.XAxis):
    def reset_ticks(self) -> None:  # no lazy tick lists: no Tick is ever built
        self.majorTicks, self.minorTicks = [], []


class _TicklessY(axis.YAxis):
    reset_ticks = _TicklessX.reset_ticks


class PanelAxes(Axes):
    """Axes that never build ticks, for the table's panels (none shows any): matplotlib builds two
    default ticks per axis for every new axes, half of a redraw's CPU for four panels."""

    def _init_axis(self) -> None:
        self.xaxis, self.yaxis = _TicklessX(self, clear=False), _TicklessY(self, clear=False)
        for side in ("bottom", "top", "left", "right"):
            self.spines[side].register_axis(self.xaxis if side in ("bottom", "top") else self.yaxis)

    def clear(self) -> None:  # a tick used to place the spines where they belong, on the edges
        super().clear()
        for spine in self.spines.values():
            spine.set_position(("outward", 0.0))


def draw_state(state: DelanopolisState, ax: Axes | None = None, perspective: Perspective = None) -> Figure:
    """The whole table.  With ``ax`` only the map is drawn into it (for dashboards).

    Stacked for a notebook column: the status line, the map across the whole width, the
    players' table beside the auction under it, the last chapter of the story at the foot.
    """
    if ax is not None:
        draw_map(state, ax, perspective)
        fig = ax.get_figure(root=True)
        assert fig is not None  # an Axes always belongs to a figure
        return fig
    view = public_view(state, perspective)
    # fixed panels (a constrained layout measures every artist: a third of the redraw time)
    height = HEADING + MAP_HEIGHT + PANELS + STORY
    fig = Figure(figsize=(FIGURE_WIDTH, height))

    def band(top: float, size: float) -> tuple[float, float]:
        """(bottom, height) in figure fractions of a band ``size`` inches tall, ``top`` from the top."""
        return 1 - (top + size) / height, size / height

    bottom, size = band(HEADING, MAP_HEIGHT)
    ax_map = fig.add_axes((0.0, bottom, 1.0, size), axes_class=PanelAxes)
    draw_map(state, ax_map, perspective)
    bottom, size = band(HEADING + MAP_HEIGHT, PANELS)
    ax_players = fig.add_axes((0.005, bottom, 0.47, size * 0.97), axes_class=PanelAxes)
    _draw_players(state, ax_players, view)
    ax_auction = fig.add_axes((0.56, bottom + size * 0.24, 0.43, size * 0.6), axes_class=PanelAxes)
    draw_auction_into(ax_auction, view)
    bottom, size = band(HEADING + MAP_HEIGHT + PANELS, STORY)
    chapter = _last_chapter(view)
    if chapter:  # at the foot, in figure coordinates (its own axes cost a tenth of a redraw)
        story, text = Labels(), "\n".join(textwrap.wrap(_tie_punctuation(chapter), 100))
        story.add(
            0.012, bottom + 0.92 * size, text, 11.5, va="top", style="italic", box=("#fbf7ee", "#c9b98f", 0.4)
        )
        story.emit(ax_map, coordinates="figure")
    heading = Labels()  # in figure coordinates, where a suptitle goes
    status = _tie_punctuation(status_line(state, view))
    if len(status) > HEADING_CHARS and ": " in status and view.phase != OVER:
        status = status.replace(": ", ":\n", 1)  # where it is, then what happens
    status = "\n".join(line for part in status.split("\n") for line in textwrap.wrap(part, HEADING_CHARS))
    heading.add(0.5, 1 - 0.06 / height, status, 13, ha="center", va="top", weight="bold")
    heading.emit(ax_map, zorder=10, coordinates="figure", named=True)
    if perspective is not None:  # where the map's title goes
        who = WORDS("seen_by", player=player_name(perspective)) if isinstance(perspective, int) else None
        seen = Labels()
        seen.add(0.99, 1, who or public_view_label(), 12, ha="right", va="top", style="italic")
        seen.emit(ax_map, zorder=10, coordinates="axes")
    return fig


def draw_auction(
    state: DelanopolisState, perspective: Perspective = None, auction: AuctionResult | None = None
) -> Figure:
    """One auction on its own: the one being bid (hidden bids as "?") or ``auction``/the last one."""
    view = public_view(state, perspective)
    fig = Figure(figsize=(9, 5.5))
    draw_auction_into(fig.add_axes((0.08, 0.14, 0.9, 0.76), axes_class=PanelAxes), view, auction)
    return fig


def draw_landing_odds(odds: dict[str, dict[int, Any]], title: str | None = None) -> Figure:
    """Grouped bars: for each label (a placement option), the probability of landing on each terrain."""
    fig = Figure(figsize=(14, 6), layout="constrained")
    ax = fig.add_subplot()
    width = 0.8 / max(1, len(odds))
    xs = np.arange(TERRAINS)
    for k, (label, dist) in enumerate(odds.items()):
        ax.bar(
            xs + k * width - 0.4 + width / 2,
            [float(dist.get(t, 0)) for t in range(TERRAINS)],
            width,
            label=label,
        )
    ax.set_xticks(xs, [f"{t + 1}. {content().terrains[t].name}" for t in range(TERRAINS)], fontsize=12)
    ax.tick_params(axis="x", labelrotation=30)
    for tick in ax.get_xticklabels():
        tick.set_horizontalalignment("right")
    ax.set_ylabel(WORDS("odds_axis"), fontsize=13)
    ax.set_xlabel(WORDS("odds_terrain"), fontsize=13)
    ax.set_title(WORDS("odds_title") if title is None else title, fontsize=16, weight="bold")
    ax.legend(fontsize=12)
    return fig
