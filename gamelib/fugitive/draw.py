"""Fugitive drawn with matplotlib: the table as one of the players (or a spectator) sees it.

:func:`draw_state` lays the whole table out in one axes whose data unit is a card's width: a
status header, the row(s) of hideouts with their sprint cards underneath, both hands and the
three decks, and optionally the detective's belief as a heat strip over the numbers 1..41.
:func:`draw_belief` draws a belief on its own, one row per face-down position.

A smaller deck (option ``escape_card``) is drawn with its own numbers: the escape card, the deck
ranges and colours come from ``state.layout``, and the belief strip and axis cover 1..last-1.

What a perspective may not see is never handed to the painter: the row comes from
:func:`gamelib.fugitive.board.hideout_graph`, which already replaced hidden numbers by ``None``,
and a hidden hand is reduced to its size before drawing.  A detective-view picture is therefore
a function of the detective's observation only (the tests check it pixel for pixel); the public
view is the detective's without the detective's hand.

Speed matters because a widget redraws at every step.  Drawing a matplotlib ``Text`` costs about
2 ms, and a table has 100-150 labels, so labels are drawn as glyph outlines instead
(:class:`~matplotlib.textpath.TextPath`, cached per character and per string) gathered in one
:class:`LabelCollection`, and every card shape goes into one
:class:`~matplotlib.collections.PatchCollection`: a whole table renders in a few artists.  Sizes
are in card units, so the picture reads the same at any figure size or resolution.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from matplotlib import colormaps
from matplotlib.collections import LineCollection, PatchCollection, PathCollection
from matplotlib.colors import Normalize
from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch, Rectangle
from matplotlib.path import Path
from matplotlib.transforms import Affine2D

from gamelib.core.drawing import FontStyle, LabelCollection, glyph_ink, public_moves, public_view_label
from gamelib.core.game import PUBLIC, Perspective
from gamelib.core.i18n import Wording, using_language
from gamelib.fugitive.analysis import check_perspective, hideout_graph
from gamelib.fugitive.board import check_last
from gamelib.fugitive.rules import (
    DETECTIVE,
    FUGITIVE,
    HUNTING,
    LAST,
    OVER,
    PHASES,
    Layout,
    footprints,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from gamelib.fugitive.rules import FugitiveState

# ---------------------------------------------------------------------------- geometry (card units)
CARD_W, CARD_H = 1.0, 1.4
GAP = 0.36
"""Between two hideouts: room for the step label."""
PITCH = CARD_W + GAP
MAX_PER_ROW = 10
"""Hideouts per row before the row wraps (rows are then balanced)."""
STRIP_W, STRIP_H, STRIP_GAP = 0.9, 0.32, 0.05
"""A sprint card peeking out under its hideout."""
MINI_W, MINI_H, MINI_PITCH = 0.62, 0.86, 0.7
"""A card in a hand."""
DECK_PITCH = 1.45
MARGIN = 0.45
MIN_WIDTH = 14.5
HAND_WIDTH = 8.0
"""The least room the hands get left of the decks (a long legend widens the figure instead)."""
CARD_TEXT = CARD_W - 0.12
"""The widest a word on a card may be."""
UNIT_INCHES = 0.62
"""Figure inches per card width when draw_state makes its own figure."""
CAP_CENTER = 0.36
"""Half the height of a digit, in em: labels are centred on it so that rows of labels align."""

# ---------------------------------------------------------------------------- colours
BACKGROUND = "#f3efe6"
INK = "#222222"
MUTED = "#666666"
FACE = "#fffdf7"
FACE_EDGE = "#4a4a4a"
BACK = "#1d3557"
BACK_INNER = "#2f5685"
BACK_TEXT = "#b4d0f0"
FOUND = "#c1121f"
START_FACE, START_EDGE = "#e3f2d6", "#2d6a4f"
ESCAPE_FACE, ESCAPE_EDGE = "#ffd166", "#9c6b00"
PENDING = "#f77f00"
SPRINT_STEP = "#d35400"
FOOT, FOOT_ON_BACK = "#6b4f3a", "#e9d8bd"
DECK_COLOURS = ("#2a9d8f", "#e76f51", "#7b68b5")
"""Deck 1 (4-14), deck 2 (15-28), deck 3 (29-41) (a smaller deck: its own ranges): the band on
every card of that range."""
OTHER_BAND = "#9aa5b1"
"""The band of cards 0-3 and the escape card, which belong to no deck."""
MAX_CELL = CARD_W
"""The widest a belief cell gets: a small deck's strip stays compact instead of stretching."""
BELIEF_CMAP = "YlOrRd"
IMPOSSIBLE = 1e-12
"""Probabilities at or below this are drawn blank (white): the number is ruled out."""

WORDS = Wording("gamelib.fugitive")
"""Every label of the drawing, from ``gamelib/fugitive/data/words.json`` (English by default,
French after ``gamelib.set_language("fr")``)."""
VIEW_KEYS = {None: "view_omniscient", FUGITIVE: "view_fugitive", DETECTIVE: "view_detective"}


def _band_colour(card: int, layout: Layout) -> str:
    deck = layout.deck_of(card)
    return DECK_COLOURS[deck] if deck >= 0 else OTHER_BAND


def _range_text(lo: int, hi: int) -> str:
    """``lo–hi``, or one number when a small deck's pile holds a single card."""
    return f"{lo}–{hi}" if lo < hi else str(lo)


def _footprint_marker() -> Path:
    """A bare footprint (sole, heel, three toes) as a marker path about one unit tall."""
    parts = [
        Path.unit_circle().transformed(Affine2D().scale(0.26, 0.34).translate(0.0, 0.08)),
        Path.unit_circle().transformed(Affine2D().scale(0.2, 0.22).translate(0.02, -0.38)),
    ]
    for dx, dy, r in ((-0.2, 0.5, 0.08), (-0.04, 0.56, 0.08), (0.12, 0.52, 0.07)):
        parts.append(Path.unit_circle().transformed(Affine2D().scale(r).translate(dx, dy)))
    return Path.make_compound_path(*parts)


FOOTPRINT = _footprint_marker()


# ---------------------------------------------------------------------------- the painter
@dataclass
class _Painter:
    """Collects shapes and labels in card units, then emits them as a handful of artists."""

    patches: list[Any] = field(default_factory=list)
    label_paths: list[Path] = field(default_factory=list)
    label_colours: list[str] = field(default_factory=list)
    label_strings: list[str] = field(default_factory=list)
    feet: list[tuple[float, float, str]] = field(default_factory=list)  # x, y, colour
    images: list[tuple[np.ndarray, tuple[float, float, float, float]]] = field(default_factory=list)

    def box(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        face: str,
        edge: str = "none",
        lw: float = 1.0,
        radius: float = 0.08,
        **kw: Any,
    ) -> None:
        """A rounded rectangle with its lower-left corner at (x, y)."""
        self.patches.append(
            FancyBboxPatch(
                (x + radius, y + radius),
                max(w - 2 * radius, 1e-3),
                max(h - 2 * radius, 1e-3),
                boxstyle=f"round,pad={radius}",
                facecolor=face,
                edgecolor=edge,
                linewidth=lw,
                **kw,
            )
        )

    def rect(
        self, x: float, y: float, w: float, h: float, face: Any, edge: str = "none", lw: float = 0.5
    ) -> None:
        self.patches.append(Rectangle((x, y), w, h, facecolor=face, edgecolor=edge, linewidth=lw))

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float,
        colour: str = INK,
        ha: str = "center",
        weight: str = "normal",
        style: FontStyle = "normal",
        fit: float | None = None,
    ) -> None:
        """A label of em height ``size`` (card units), vertically centred on digit height at y.

        ``fit``: the widest the label may be; a longer one (a French word on a card, two digits
        in a narrow cell) is drawn smaller instead of running into its neighbours.
        """
        path, x0, x1 = glyph_ink(text, weight, style)
        if fit is not None and (x1 - x0) * size > fit:
            size = fit / (x1 - x0)
        shift = {"left": -x0, "center": -(x0 + x1) / 2, "right": -x1}[ha]
        transform = Affine2D().translate(shift, -CAP_CENTER).scale(size).translate(x, y)
        self.label_paths.append(transform.transform_path(path))
        self.label_colours.append(colour)
        self.label_strings.append(text)

    def footprint(self, x: float, y: float, colour: str = FOOT) -> None:
        self.feet.append((x, y, colour))

    def emit(self, ax: Axes, width: float, height: float) -> None:
        """Add everything to ``ax``, fitted to a width x height table (y runs down from 0)."""
        for image, extent in self.images:
            ax.imshow(
                image, extent=extent, interpolation="bilinear", zorder=1.5, cmap=BELIEF_CMAP, vmin=0, vmax=1
            )
        # after imshow, which sets its own limits and aspect
        ax.set(xlim=(0, width), ylim=(-height, 0))
        ax.set_aspect("equal", adjustable="box")
        ax.set_axis_off()
        if self.patches:
            ax.add_collection(PatchCollection(self.patches, match_original=True, zorder=1), autolim=False)
        if self.feet:
            foot = Affine2D().scale(0.22)
            feet = [foot.frozen().translate(fx, fy).transform_path(FOOTPRINT) for fx, fy, _ in self.feet]
            ax.add_collection(
                PathCollection(
                    feet,
                    facecolors=[colour for _, _, colour in self.feet],
                    edgecolors="none",
                    linewidths=0,
                    transform=ax.transData,
                    zorder=2,
                ),
                autolim=False,
            )
        if self.label_paths:
            labels = LabelCollection(
                self.label_paths,
                facecolors=self.label_colours,
                edgecolors="none",
                linewidths=0,
                transform=ax.transData,
                zorder=3,
            )
            labels.strings = tuple(self.label_strings)
            ax.add_collection(labels, autolim=False)


# ---------------------------------------------------------------------------- cards
def _face_card(p: _Painter, x: float, y: float, card: int, found: bool, layout: Layout) -> None:
    """A face-up hideout: the number and its deck band; red-edged when the detective found it."""
    mid = x + CARD_W / 2
    if card == 0:
        p.box(x, y, CARD_W, CARD_H, START_FACE, START_EDGE, lw=2.0)
        p.text(mid, y + CARD_H * 0.55, "0", 0.6, START_EDGE, weight="bold")
        p.text(mid, y + 0.2, WORDS("start"), 0.24, START_EDGE, fit=CARD_TEXT)
        return
    if card == layout.last:
        p.box(x, y, CARD_W, CARD_H, ESCAPE_FACE, ESCAPE_EDGE, lw=2.5)
        p.text(mid, y + CARD_H * 0.55, str(card), 0.55, weight="bold")
        p.text(mid, y + 0.2, WORDS("escape"), 0.24, fit=CARD_TEXT)
        return
    p.box(x, y, CARD_W, CARD_H, FACE, FOUND if found else FACE_EDGE, lw=2.5 if found else 1.2)
    p.rect(x + 0.1, y + CARD_H - 0.2, CARD_W - 0.2, 0.09, _band_colour(card, layout))
    p.text(mid, y + CARD_H * 0.52, str(card), 0.6, weight="bold")
    if found:
        p.text(mid, y + 0.2, WORDS("found"), 0.24, FOUND, weight="bold", fit=CARD_TEXT)


def _back_card(p: _Painter, x: float, y: float, card: int | None, low: int, high: int) -> None:
    """A face-down hideout: its number faintly if the viewer knows it, else the range deduced."""
    mid = x + CARD_W / 2
    p.box(x, y, CARD_W, CARD_H, BACK, BACK, lw=1.2)
    p.box(x + 0.1, y + 0.1, CARD_W - 0.2, CARD_H - 0.2, BACK_INNER, BACK_TEXT, lw=0.6, radius=0.05)
    if card is not None:
        p.text(mid, y + CARD_H * 0.52, str(card), 0.55, BACK_TEXT, style="italic")
        p.text(mid, y + 0.25, WORDS("hidden"), 0.22, BACK_TEXT, fit=CARD_TEXT - 0.1)
    else:
        p.text(mid, y + CARD_H * 0.56, "?", 0.6, BACK_TEXT, weight="bold")
        p.text(mid, y + 0.25, f"{low}–{high}" if low < high else f"= {low}", 0.24, "white")


def _mini_card(p: _Painter, x: float, y: float, card: int | None, layout: Layout) -> None:
    """A hand card: face up (number and deck band), or a back when ``card`` is None."""
    if card is None:
        p.box(x, y, MINI_W, MINI_H, BACK, BACK_TEXT, lw=0.6, radius=0.05)
        return
    p.box(x, y, MINI_W, MINI_H, FACE, FACE_EDGE, lw=0.8, radius=0.05)
    p.rect(x + 0.07, y + MINI_H - 0.15, MINI_W - 0.14, 0.07, _band_colour(card, layout))
    p.text(x + MINI_W / 2, y + MINI_H * 0.42, str(card), 0.36, weight="bold")


def _sprint_strip(p: _Painter, x: float, y: float, card: int | None, face_up: bool) -> None:
    """A sprint card under its hideout: number and footprints (1 odd, 2 even) when visible."""
    cy = y + STRIP_H / 2
    if card is None:
        p.box(x, y, STRIP_W, STRIP_H, BACK, BACK_TEXT, lw=0.6, radius=0.04)
        p.text(x + STRIP_W / 2, cy, "?", 0.26, BACK_TEXT, weight="bold")
        return
    if face_up:
        p.box(x, y, STRIP_W, STRIP_H, FACE, FACE_EDGE, lw=0.8, radius=0.04)
        colour, foot = INK, FOOT
    else:
        p.box(x, y, STRIP_W, STRIP_H, BACK_INNER, BACK, lw=0.8, radius=0.04)
        colour, foot = BACK_TEXT, FOOT_ON_BACK
    p.text(x + 0.08, cy, str(card), 0.26, colour, ha="left", weight="bold")
    for k in range(footprints(card)):
        p.footprint(x + STRIP_W - 0.14 - 0.18 * k, cy, foot)


# ---------------------------------------------------------------------------- sections
def _header(p: _Painter, state: FugitiveState, perspective: Perspective, width: float) -> float:
    """Title, whose turn and what to do (or the manhunt / the winner), the last move."""
    right = width - MARGIN
    title, corner = _header_texts(state, perspective)
    p.text(MARGIN, -0.38, title, 0.42, ha="left", weight="bold")
    room = width - 2 * MARGIN - _ink_width(title, 0.42, "bold") - 0.4  # the corner never meets the title
    p.text(right, -0.38, corner, 0.28, MUTED, ha="right", fit=room)
    banner = None
    if state.phase == OVER:
        escaped = "banner_manhunt_missed" if state.ended_by == "manhunt-miss" else "banner_escapes"
        ends = {FUGITIVE: (escaped, ESCAPE_EDGE), DETECTIVE: ("banner_caught", FOUND)}
        key, colour = ends.get(state.winner, ("banner_round_limit", MUTED))
        banner = (WORDS(key), colour)
    elif state.phase == HUNTING:
        banner = (WORDS("banner_manhunt"), FOUND)
    elif state.escape_pending:
        banner = (WORDS("banner_last_turn", last=state.last), FOUND)
    if banner is not None:
        message, colour = banner
        _, x0, x1 = glyph_ink(message, "bold", "normal")
        p.box(MARGIN - 0.1, -1.25, (x1 - x0) * 0.3 + 0.4, 0.56, "white", colour, lw=2.5)
        p.text(MARGIN + 0.1, -0.97, message, 0.3, colour, ha="left", weight="bold")
        return -1.4
    p.text(MARGIN, -0.95, WORDS(f"phase: {PHASES.names[state.phase]}"), 0.28, ha="left")
    if state.series:  # its own line: a long series would run into the status
        numbers = ", ".join(map(str, state.series))
        p.text(MARGIN, -1.4, WORDS("series", numbers=numbers), 0.28, ha="left", weight="bold")
        return -1.75
    return -1.3


def _header_texts(state: FugitiveState, perspective: Perspective) -> tuple[str, str]:
    """The title (round, a small deck's escape card) and the corner (view, last move)."""
    title = WORDS("title", n=state.round + 1)
    if state.last != LAST:  # a smaller deck says so: its numbers stop early
        title += WORDS("title_escape_card", n=state.last)
    if isinstance(perspective, str):  # PUBLIC
        corner, moves = WORDS("view", who=public_view_label()), public_moves(state)
    else:
        corner, moves = WORDS("view", who=WORDS(VIEW_KEYS[perspective])), state.public_history(perspective)
    if moves:
        corner += WORDS("last_move", move=moves[-1])
    return title, corner


def _header_width(state: FugitiveState, perspective: Perspective) -> float:
    """The width the header needs with the corner at its full size."""
    title, corner = _header_texts(state, perspective)
    return 2 * MARGIN + _ink_width(title, 0.42, "bold") + 0.4 + _ink_width(corner, 0.28)


def _row_layout(n: int) -> tuple[int, int]:
    """(rows, columns) for ``n`` cards: one row up to MAX_PER_ROW, then balanced rows."""
    rows = max(1, math.ceil(n / MAX_PER_ROW))
    return rows, math.ceil(n / rows)


def _hideouts(p: _Painter, state: FugitiveState, perspective: int | None, y: float) -> float:
    """The row(s) of hideouts, sprint cards underneath, steps between; returns the y below."""
    graph = hideout_graph(state, perspective)
    layout = state.layout
    last = layout.last
    nodes = [graph.nodes[i] for i in range(graph.number_of_nodes())]
    rows, cols = _row_layout(len(nodes))
    for r in range(rows):
        row = range(r * cols, min(len(nodes), (r + 1) * cols))
        top = y - 0.4  # room for the step labels above the cards
        card_y = top - CARD_H
        deepest = max(nodes[i]["sprint_count"] for i in row)
        for j, i in enumerate(row):
            node = nodes[i]
            x = MARGIN + 0.3 + j * PITCH
            if node["pending"]:
                p.box(x - 0.08, card_y - 0.08, CARD_W + 0.16, CARD_H + 0.16, "none", PENDING, lw=3, ls="--")
            if node["revealed"]:
                _face_card(p, x, card_y, node["card"], 0 < node["card"] < last, layout)
            else:
                _back_card(p, x, card_y, node["card"], node["low"], node["high"])
            shown = node["sprint_cards"]
            if node["pending"] and i > 0 and shown is not None:
                short = graph.edges[i - 1, i]["sprint_needed"] - node["footprints"]
                if short > 0:
                    sy = card_y - 0.42 - node["sprint_count"] * (STRIP_H + STRIP_GAP)
                    p.text(x + CARD_W / 2 - 0.12, sy, WORDS("more", n=short), 0.24, PENDING, weight="bold")
                    p.footprint(x + CARD_W + 0.05, sy, PENDING)
                    deepest = max(deepest, node["sprint_count"] + 1)
            for k in range(node["sprint_count"]):
                sy = card_y - 0.1 - (k + 1) * (STRIP_H + STRIP_GAP) + STRIP_GAP
                card = shown[k] if shown is not None else None
                _sprint_strip(p, x + (CARD_W - STRIP_W) / 2, sy, card, node["revealed"])
            if i == 0:
                continue
            step, needed = graph.edges[i - 1, i]["step"], graph.edges[i - 1, i]["sprint_needed"]
            lx = x - GAP / 2 if j > 0 else x - 0.12
            if step is not None:  # a step paid with sprint cards stands out
                colour, weight = (SPRINT_STEP, "bold") if needed > 0 else (MUTED, "normal")
                p.text(lx, top + 0.2, f"+{step}", 0.22, colour, weight=weight)
            elif j == 0:
                p.text(lx, top + 0.2, "→", 0.25, MUTED)
        y = card_y - 0.15 - deepest * (STRIP_H + STRIP_GAP) - 0.1
    return y


def _hand(
    p: _Painter,
    x: float,
    y: float,
    width: float,
    title: str,
    cards: Sequence[int] | None,
    size: int,
    layout: Layout,
) -> float:
    """A titled hand: face-up cards, or ``size`` backs when hidden; wraps to ``width``."""
    hidden = WORDS("hand_hidden") if cards is None and size else ""
    counted = WORDS("hand_title_one", title=title) if size == 1 else WORDS("hand_title", title=title, n=size)
    p.text(x, y - 0.22, counted + hidden, 0.27, ha="left", weight="bold")
    card_y = y - 0.5 - MINI_H
    if not size:
        p.text(x, card_y + MINI_H / 2, WORDS("no_cards"), 0.25, MUTED, ha="left", style="italic")
    if cards is None:  # backs carry no information: a compact fanned stack
        pitch = min(0.24, (width - MINI_W) / max(1, size - 1))
        for k in range(size):
            _mini_card(p, x + k * pitch, card_y, None, layout)
        return card_y - 0.2
    per_line = max(1, int((width + MINI_PITCH - MINI_W) / MINI_PITCH))
    lines = max(1, math.ceil(len(cards) / per_line))
    for k, card in enumerate(cards):
        line, col = divmod(k, per_line)
        _mini_card(p, x + col * MINI_PITCH, card_y - line * (MINI_H + 0.1), card, layout)
    return card_y - (lines - 1) * (MINI_H + 0.1) - 0.2


def _decks(p: _Painter, state: FugitiveState, x: float, y: float) -> float:
    """The three decks: a stack per range with its size, and the last deck each side drew from."""
    p.text(x, y - 0.22, WORDS("decks"), 0.27, ha="left", weight="bold")
    dy = y - 0.5 - CARD_H
    for d, ((lo, hi), n) in enumerate(zip(state.layout.deck_ranges, state.deck_sizes, strict=True)):
        dx = x + d * DECK_PITCH
        if n:
            for layer in range(min(3, n) - 1, -1, -1):
                p.box(dx + 0.05 * layer, dy - 0.05 * layer, CARD_W, CARD_H, BACK, BACK_TEXT, lw=0.8)
            p.rect(dx + 0.1, dy + CARD_H - 0.22, CARD_W - 0.2, 0.12, DECK_COLOURS[d])
            p.text(dx + CARD_W / 2, dy + CARD_H * 0.45, str(n), 0.45, "white", weight="bold")
        else:
            p.box(dx, dy, CARD_W, CARD_H, "none", MUTED, lw=1.0, ls="--")
            p.text(dx + CARD_W / 2, dy + CARD_H * 0.45, WORDS("empty"), 0.24, MUTED, fit=CARD_TEXT)
        p.text(dx + CARD_W / 2, dy - 0.3, _range_text(lo, hi), 0.26, DECK_COLOURS[d], weight="bold")
    last: dict[int, int] = {}
    for who, deck, _ in state.draw_log:
        last[who] = deck
    y = dy - 0.75
    for who, key in ((FUGITIVE, "last_drew_fugitive"), (DETECTIVE, "last_drew_detective")):
        if who in last:
            p.text(x, y, WORDS(key, d=last[who] + 1), 0.25, MUTED, ha="left")
            y -= 0.34
    return y


def _legend(p: _Painter, x: float, y: float) -> float:
    """What the card looks and the step markers mean (the decks explain their own colours).

    Two columns of card looks, then one line per step marker ("+3" grey: a plain step;
    orange and bold: a step paid with sprint cards).  The first column is as wide as its
    longest label in the language in force, so a French label never runs into the second.
    """
    looks = (
        (FACE, FACE_EDGE, 1.0, WORDS("legend_face_up")),
        (BACK, BACK_TEXT, 1.0, WORDS("legend_face_down")),
        (FACE, FOUND, 2.2, WORDS("legend_found")),
        ("none", PENDING, 2.2, WORDS("legend_being_laid")),
    )
    column = _legend_column()
    for k, (face, edge, lw, name) in enumerate(looks):
        ex = x + (k % 2) * column
        ey = y - 0.2 - (k // 2) * 0.42
        p.box(ex, ey - 0.15, 0.24, 0.3, face, edge, lw=lw, radius=0.03)
        p.text(ex + 0.36, ey, name, LEGEND_SIZE, MUTED, ha="left")
    ey = y - 0.2 - 2 * 0.42
    for marker, colour, weight, key in (
        ("+3", MUTED, "normal", "legend_step"),
        ("+5", SPRINT_STEP, "bold", "legend_sprinted"),
    ):
        p.text(x + 0.12, ey, marker, 0.22, colour, weight=weight)
        p.text(x + 0.36, ey, WORDS(key), STEP_LEGEND_SIZE, MUTED, ha="left")
        ey -= 0.36
    return ey - 0.1


LEGEND_SIZE, STEP_LEGEND_SIZE = 0.26, 0.24


def _legend_column() -> float:
    first = max(_ink_width(WORDS(k), LEGEND_SIZE) for k in ("legend_face_up", "legend_found"))
    return max(2.0, 0.36 + first + 0.3)


def legend_width(lang: str | None = None) -> float:
    """The width (card units) the legend needs in ``lang`` (the language in force by default)."""
    with using_language(lang):
        second = max(_ink_width(WORDS(k), LEGEND_SIZE) for k in ("legend_face_down", "legend_being_laid"))
        steps = max(_ink_width(WORDS(k), STEP_LEGEND_SIZE) for k in ("legend_step", "legend_sprinted"))
        drew = max(_ink_width(WORDS(k, d=3), 0.25) for k in ("last_drew_fugitive", "last_drew_detective"))
        return max(_legend_column() + 0.36 + second, 0.36 + steps, drew)


def _ink_width(text: str, size: float, weight: str = "normal") -> float:
    """The width of ``text`` drawn at em height ``size`` (card units)."""
    _, x0, x1 = glyph_ink(text, weight, "normal")
    return (x1 - x0) * size


def _belief_strip(
    p: _Painter,
    probs: Sequence[float],
    x: float,
    y: float,
    width: float,
    true_hidden: Sequence[int] | None,
    series: Sequence[int] = (),
    last: int = LAST,
) -> float:
    """P(number is a face-down hideout) over 1..last-1 as coloured cells, with a colour bar.

    Numbers of the series being named are outlined; ``true_hidden`` (views that know them)
    are marked underneath.  A small deck's cells are at most a card wide, the colour bar just
    after them.
    """
    p.text(x, y - 0.22, WORDS("belief_strip_title"), 0.27, ha="left", weight="bold")
    bar_w = 1.9
    cells = last - 1
    cell = min(MAX_CELL, (width - bar_w) / cells)
    top, h = y - 0.5, 0.62
    cmap = colormaps[BELIEF_CMAP]
    hidden = set(true_hidden or ())
    for n in range(1, last):
        cx = x + (n - 1) * cell
        if probs[n] <= IMPOSSIBLE:  # ruled out: blank, so that "unlikely" and "impossible" differ
            p.rect(cx, top - h, cell, h, "white", "#dddddd", lw=0.6)
            p.text(cx + cell / 2, top - h / 2, str(n), 0.23, "#999999", fit=0.86 * cell)
        else:
            rgba = cmap(float(probs[n]))
            p.rect(cx, top - h, cell, h, rgba, "white", lw=0.6)
            dark = 0.299 * rgba[0] + 0.587 * rgba[1] + 0.114 * rgba[2] < 0.55
            p.text(cx + cell / 2, top - h / 2, str(n), 0.23, "white" if dark else INK, fit=0.86 * cell)
        if n in hidden:
            p.rect(cx + 0.04, top - h - 0.13, cell - 0.08, 0.07, BACK)
    for n in series:  # drawn last, so that neighbouring cells do not cover the outline
        p.rect(x + (n - 1) * cell, top - h, cell, h, "none", INK, lw=2.0)
    bx0 = x + cells * cell + 0.35
    bx1 = bx0 + bar_w - 0.35
    p.images.append((np.linspace(0.0, 1.0, 64).reshape(1, -1), (bx0, bx1, top - h, top - h / 2)))
    p.rect(bx0, top - h, bx1 - bx0, h / 2, "none", MUTED, lw=0.6)
    for value, label in ((0.0, "0"), (0.5, "0.5"), (1.0, "1")):
        p.text(bx0 + value * (bx1 - bx0), top - 0.14, label, 0.24, MUTED)
    bottom = top - h
    if hidden:
        p.rect(x, bottom - 0.37, 0.25, 0.07, BACK)
        p.text(x + 0.35, bottom - 0.33, WORDS("belief_truth"), 0.22, MUTED, ha="left")
        bottom -= 0.35
    return bottom - 0.2


def _entries_wanted(last: int) -> str:
    if last == LAST:
        return "43 entries (numbers 0..42)"
    return f"{last + 1} entries (numbers 0..{last}) or 43 (the published 0..42)"


def hideout_prob_of(belief: Any, last: int = LAST) -> list[float]:
    """The probabilities of a belief-like object (``belief.hideout_prob``), validated.

    Index = number.  A belief of the deck 0..``last`` may list 43 entries (the published card
    range, numbers above ``last`` never hidden) or just ``last + 1``.
    """
    probs = getattr(belief, "hideout_prob", None)
    if probs is None:
        raise ValueError("belief must have 'hideout_prob': one probability per number, index = number")
    return _probabilities(probs, last, "belief.hideout_prob")


def _probabilities(probs: Any, last: int, what: str) -> list[float]:
    """One probability per number 0..``last`` (or 0..42), checked: ``what`` names it in errors."""
    values = [float(v) for v in probs]
    if len(values) not in (last + 1, LAST + 1):
        raise ValueError(f"{what} must have {_entries_wanted(last)}, got {len(values)}")
    bad = [n for n, v in enumerate(values) if not -1e-9 <= v <= 1 + 1e-9]  # NaN fails too
    if bad:
        raise ValueError(f"{what} must hold probabilities in [0, 1]; bad at numbers {bad[:5]}")
    return values


# ---------------------------------------------------------------------------- public
def draw_state(
    state: FugitiveState, ax: Axes | None = None, perspective: Perspective = None, belief: Any = None
) -> Figure:
    """Draw the table of ``state`` as ``perspective`` sees it; returns the figure.

    ``perspective``: None (omniscient: face-down numbers shown faintly), 0 (the fugitive: the
    detective's hand hidden), 1 (the detective: face-down numbers and the fugitive's hand hidden;
    each face-down card shows the range its visible neighbours allow) or ``PUBLIC`` (what both
    see: the detective's view without the detective's hand; no belief).  ``belief``: any object
    with ``hideout_prob`` (43 floats, index = number; ``last + 1`` also do in a smaller deck),
    drawn as a heat strip over 1..last-1; outside the detective's view the true face-down
    hideouts are marked under it.  With ``ax`` the table is drawn into that axes and its figure
    returned; otherwise a new figure is sized to the table.
    """
    if (public := perspective == PUBLIC) and belief is not None:
        raise ValueError("a public drawing shows no belief: a belief is one seat's knowledge")
    seat = DETECTIVE if public else check_perspective(perspective)
    layout = state.layout
    probs = hideout_prob_of(belief, layout.last) if belief is not None else None
    _, cols = _row_layout(len(state.hideouts))
    # the decks and the legend under them share a right-hand block as wide as the wider of the
    # two in the language in force; the hands keep at least HAND_WIDTH to its left
    right_block = max(3 * DECK_PITCH - 0.45, legend_width())
    width = max(
        MIN_WIDTH,
        2 * MARGIN + 0.3 + cols * PITCH,
        2 * MARGIN + HAND_WIDTH + 0.8 + right_block,
        min(_header_width(state, perspective), MIN_WIDTH + 3.0),  # a longer corner is drawn smaller
    )
    see_fugitive = seat in (None, FUGITIVE)
    see_detective = seat in (None, DETECTIVE) and not public

    p = _Painter()
    y = _hideouts(p, state, seat, _header(p, state, perspective, width)) - 0.1
    decks_x = width - MARGIN - right_block
    hand_w = decks_x - MARGIN - 0.8
    below_hands = y
    for key, cards, mask in (
        ("fugitive_hand", state.fugitive_hand if see_fugitive else None, state.fhand),
        ("detective_hand", state.detective_hand if see_detective else None, state.dhand),
    ):
        below_hands = _hand(p, MARGIN, below_hands, hand_w, WORDS(key), cards, mask.bit_count(), layout)
    below_decks = _legend(p, decks_x, _decks(p, state, decks_x, y))
    y = min(below_hands, below_decks)
    if probs is not None:
        hidden = [h for h, r in zip(state.hideouts, state.revealed, strict=True) if not r]
        truth = hidden if see_fugitive else None
        y = _belief_strip(p, probs, MARGIN, y, width - 2 * MARGIN, truth, state.series, layout.last)
    height = 0.1 - y

    if ax is None:
        fig = Figure(figsize=(width * UNIT_INCHES, height * UNIT_INCHES), facecolor=BACKGROUND)
        ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    else:
        fig = _figure_of(ax)
    ax.set_facecolor(BACKGROUND)
    p.emit(ax, width, height)
    return fig


def _point_labels(
    ax: Axes,
    anchors: Sequence[tuple[float, float]],
    strings: Sequence[str],
    fontsize: float,
    axis: Literal["x", "y"],
    ha: Literal["left", "center", "right"],
    pad: float,
) -> LabelCollection:
    """Labels of ``fontsize`` points at data positions along an axis, drawn as glyph outlines.

    ``axis`` "x": anchors are (number, _) placed under the axes, ``pad`` points below it; "y":
    anchors are (_, row) placed left of the axes, ``pad`` points from it.  The glyphs are sized
    in points (``dpi_scale_trans``) while the anchors follow the data, so any aspect ratio works.
    """
    paths = []
    for text in strings:
        path, x0, x1 = glyph_ink(text, "normal", "normal")
        dx = {"left": -x0, "center": -(x0 + x1) / 2, "right": -x1}[ha]
        if axis == "x":
            dy = -0.76 + pad / fontsize  # the top of the digits ``pad`` points below the axis
        else:
            dx += pad / fontsize
            dy = -CAP_CENTER
        paths.append(Affine2D().translate(dx, dy).transform_path(path))
    fig = _figure_of(ax)
    anchor_transform = ax.get_xaxis_transform() if axis == "x" else ax.get_yaxis_transform()
    labels = LabelCollection(
        paths,
        offsets=np.array(anchors, dtype=float),
        offset_transform=anchor_transform,
        transform=Affine2D().scale(fontsize / 72) + fig.dpi_scale_trans,  # em -> inches -> pixels
        facecolors=INK,
        edgecolors="none",
        linewidths=0,
        clip_on=False,
    )
    labels.strings = tuple(strings)
    labels.bound = "figure"  # tick labels live outside the axes, inside the figure
    ax.add_collection(labels, autolim=False)
    return labels


def _figure_of(ax: Axes) -> Figure:
    """The figure ``ax`` is drawn in (an Axes always belongs to one)."""
    root = ax.get_figure(root=True)
    assert root is not None
    return root


def belief_last(belief: Any, last: int | None = None) -> int:
    """The escape card of the deck a belief is about: ``last`` if given, else the belief's own
    ``last`` attribute if it has one, else the published 42.

    Not guessed from the length: a belief one entry short must stay an error, not pass for a
    smaller deck.
    """
    if last is None:
        last = getattr(belief, "last", None)
    return LAST if last is None else check_last(last)


def draw_belief(belief: Any, ax: Axes | None = None, last: int | None = None) -> Figure:
    """A belief as a heat map over the numbers 1..last-1 (1..41 in the published deck).

    The top row ("any") is P(number is a face-down hideout); below it, one row per face-down
    position from ``belief.position_probs`` (position -> probabilities by number), if the belief
    has it.  ``last``: the escape card of the game (``state.last``); by default the belief's own
    ``last`` attribute, else the published 42.
    """
    last = belief_last(belief, last)
    probs = hideout_prob_of(belief, last)
    positions = getattr(belief, "position_probs", None) or {}
    rows, labels = [probs[1:last]], [WORDS("belief_any")]
    for pos in sorted(positions):
        rows.append(_probabilities(positions[pos], last, f"belief.position_probs[{pos}]")[1:last])
        labels.append(f"#{pos}")
    if ax is None:
        # fixed margins in inches (they hold for any number of rows): the constrained layout
        # engine would double the time of a redraw
        width, height = 14.0, 1.8 + 0.42 * len(rows)
        fig = Figure(figsize=(width, height), facecolor="white")
        ax = fig.add_subplot()
        fig.subplots_adjust(
            left=1.0 / width, right=1 - 0.8 / width, bottom=0.8 / height, top=1 - 0.45 / height
        )
    else:
        fig = _figure_of(ax)
    matrix = np.ma.masked_less_equal(np.array(rows), IMPOSSIBLE)  # ruled out: blank
    image = ax.imshow(
        matrix,
        cmap=colormaps[BELIEF_CMAP].with_extremes(bad="white"),
        norm=Normalize(0, 1),
        aspect="auto",
        interpolation="nearest",
        extent=(0.5, last - 0.5, len(rows) - 0.5, -0.5),
    )
    # tick labels as glyph outlines (56 Text artists would cost ~100 ms per redraw)
    ax.set_xticks([])
    ax.set_yticks([])
    numbers = range(1, last)
    _point_labels(ax, [(n, 0.0) for n in numbers], [str(n) for n in numbers], 9, "x", "center", -4)
    _point_labels(ax, [(0.0, r) for r in range(len(rows))], labels, 11, "y", "right", -5)
    # a faint grid between cells (one artist: grid ticks would cost ~50 Tick objects), and a
    # firm line under "any", which sums the rows below it
    top, bottom = -0.5, len(rows) - 0.5
    grid = [[(n + 0.5, top), (n + 0.5, bottom)] for n in range(1, last - 1)]
    grid += [[(0.5, r + 0.5), (last - 0.5, r + 0.5)] for r in range(1, len(rows) - 1)]
    ax.add_collection(LineCollection(grid, colors="#e4e4e4", linewidths=0.6, zorder=1.5), autolim=False)
    if len(rows) > 1:
        ax.plot([0.5, last - 0.5], [0.5, 0.5], color=MUTED, linewidth=1.5, zorder=2)
    ax.set_xlabel(WORDS("belief_number"), fontsize=12, labelpad=16)
    ax.set_ylabel(WORDS("belief_position"), fontsize=12, labelpad=30)
    ax.set_title(WORDS("belief_title"), fontsize=14)
    fig.colorbar(image, ax=ax, fraction=0.03, pad=0.01).set_label(WORDS("belief_probability"), fontsize=11)
    return fig
