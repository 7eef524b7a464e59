"""Drawings of Get on Board: the map with its features and lines, and a player's score sheet.

Built on :class:`matplotlib.figure.Figure` (no pyplot state).  Sized for a projector: big
markers, a legend for every feature, one strong colour per player, lines side by side where
they share a section, the turn in progress haloed and transfer sections marked.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from matplotlib.collections import LineCollection, PatchCollection
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyBboxPatch, Rectangle

from gamelib.core.drawing import (
    Backdrop,
    Labels,
)
from gamelib.core.i18n import Wording, language, using_language
from gamelib.getonboard.board import (
    CINEMA,
    DARK_LOVERS,
    ENTRANCE,
    FEATURES,
    LIGHT_LOVERS,
    RESTAURANT,
    SECTION_COLOURS,
    STUDENT,
    TOURIST,
    CityMap,
)
from gamelib.getonboard.phases import P_BONUS, P_LAY, P_OVER
from gamelib.getonboard.rules import GetOnBoardState
from gamelib.getonboard.scoring import CATEGORIES

if TYPE_CHECKING:
    from matplotlib.axes import Axes

PLAYER_COLOURS = ("#d62728", "#1f5fbf", "#2ca02c", "#8e44ad", "#ff8c00")
"""Hex colours of players 0-4 (red, blue, green, purple, orange)."""
SECTION_TINTS = {"amber": "#f7c948", "teal": "#5ec4c4"}
TICKET_TINTS = {
    "red": "#e74c3c",
    "orange": "#f39c12",
    "yellow": "#f1c40f",
    "green": "#27ae60",
    "blue": "#2e86de",
    "violet": "#8e44ad",
}
RIVER = "#7fb3e6"

WORDS = Wording(__package__)
"""What the drawings say, in English or French (``gamelib.set_language``)."""
PLAYER_COLOUR_NAMES = ("red", "blue", "green", "purple", "orange")
# feature -> (badge text, face colour, text colour, marker shape, legend word key)
FEATURE_STYLE: dict[int, tuple[str, str, str, str, str]] = {
    ENTRANCE: ("M", "#ffd500", "black", "s", "feature_entrance"),
    1: ("G", "#9b59b6", "white", "o", "feature_granny"),
    2: ("S", "#2e86de", "white", "o", "feature_student"),
    3: ("C", "#222222", "white", "s", "feature_cinema"),
    4: ("T", "#f39c12", "black", "o", "feature_tourist"),
    5: ("Th", "#c0392b", "white", "^", "feature_theatre"),
    6: ("Op", "#7b241c", "white", "p", "feature_opera"),
    LIGHT_LOVERS: ("♥", "#ffc0d9", "#d81b60", "o", "feature_light"),
    DARK_LOVERS: ("♥", "#6d1b3b", "#ffb3d1", "o", "feature_dark"),
    9: ("R", "#1e8449", "white", "h", "feature_restaurant"),
}
assert len(FEATURE_STYLE) == len(FEATURES)


def player_name(player: int) -> str:
    """ "Player 1 (red)" for seat 0, in the language in force (a student counts from 1)."""
    colour = PLAYER_COLOUR_NAMES[player % len(PLAYER_COLOUR_NAMES)]
    return WORDS("player", n=player + 1, colour=WORDS(f"colour_{colour}"))


def badge(feature: int) -> str:
    """The letter on ``feature``'s badge in the language in force ("G" granny, "Ma" mamie); the
    hearts of the lovers are no letter."""
    key = f"badge_{FEATURE_STYLE[feature][4].removeprefix('feature_')}"
    return WORDS(key) if key in WORDS.table["en"] else FEATURE_STYLE[feature][0]


def _word(prefix: str, name: str) -> str:
    """The translation of a data name (a shape, an objective, a colour), or the name itself."""
    key = f"{prefix}_{name}"
    return WORDS(key) if key in WORDS.table["en"] else name


def _xy(board: CityMap, node: int) -> tuple[float, float]:
    x, y = board.pos[node]
    return float(x), float(-y)


def draw_map(board: CityMap, ax: Axes, badge_size: float = 16.0) -> None:
    """The static board: river, streets (Rome's colours), intersections and their features.

    Two cached layers (see :class:`Backdrop`): the ground (river and streets) under the
    players' lines, the badges and labels over them.
    """
    ax.set_xlim(-1.1, board.width - 0.3)
    ax.set_ylim(-board.height + 0.3, 1.05)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.add_artist(Backdrop((board, "ground"), functools.partial(_draw_ground, board), zorder=1))
    lang = language()
    badges = functools.partial(_draw_badges_in, lang, board, badge_size)
    ax.add_artist(Backdrop((board, "badges", badge_size, lang), badges, zorder=5))


def _draw_ground(board: CityMap, ax: Axes) -> None:
    """River and streets."""
    # river: a band across every blocked section
    river = []
    for (ax_, ay), (bx, by) in board.river:
        mx, my = (ax_ + bx) / 2, -(ay + by) / 2
        if ay == by:  # horizontal section blocked: the river runs north-south here
            river.append([(mx, my - 0.5), (mx, my + 0.5)])
        else:
            river.append([(mx - 0.5, my), (mx + 0.5, my)])
    ax.add_collection(LineCollection(river, colors=RIVER, linewidths=14, capstyle="butt", zorder=1))
    streets: dict[int, list[list[tuple[float, float]]]] = {}
    for s, (a, b) in enumerate(board.section_ends):
        streets.setdefault(board.section_colour[s], []).append([_xy(board, a), _xy(board, b)])
    for colour, segments in streets.items():
        if colour >= 0:
            tint, width = SECTION_TINTS[SECTION_COLOURS[colour]], 7.0
        else:
            tint, width = "#c8c8c8", 5.0
        ax.add_collection(LineCollection(segments, colors=tint, linewidths=width, zorder=2, alpha=0.9))


def _draw_badges_in(lang: str, board: CityMap, badge_size: float, ax: Axes) -> None:
    """The badges lettered in ``lang``, the language in force when the figure was made (the
    layer is cached and may be rendered after the language switched)."""
    with using_language(lang):
        _draw_badges(board, badge_size, ax)


def _draw_badges(board: CityMap, badge_size: float, ax: Axes) -> None:
    """Feature badges, start numbers, objective letters, column and row names."""
    badges: dict[int, list[tuple[float, float]]] = {}
    badge_labels, tags = Labels(), Labels()
    for node in range(board.num_nodes):
        x, y = _xy(board, node)
        feats = board.features[node]
        offsets = [0.0] if len(feats) == 1 else [-0.17, 0.17]
        for f, dx in zip(feats, offsets, strict=False):
            badges.setdefault(f, []).append((x + dx, y))
            _, face, ink, marker, _ = FEATURE_STYLE[f]
            text = badge(f)
            badge_labels.add(
                x + dx,
                y - (0.03 if marker == "^" else 0),
                text,
                badge_size * (0.7 if len(text) == 1 else 0.6),
                colour=ink,
                ha="center",
                va="center",
                weight="bold",
            )
        if node in board.start_at:
            tags.add(
                x - 0.3,
                y + 0.3,
                str(board.start_at[node]),
                11,
                colour="white",
                ha="center",
                va="center",
                weight="bold",
                box=("black", "white", 0.2),
                box_style="circle",
            )
        if node in board.letter_at:
            tags.add(
                x + 0.3,
                y - 0.32,
                board.letter_at[node],
                12,
                colour="#333333",
                ha="center",
                va="center",
                weight="bold",
                style="italic",
                box=("white", "#333333", 0.1),
            )
    for f, points in badges.items():
        _, face, _, marker, _ = FEATURE_STYLE[f]
        ax.scatter(
            [p[0] for p in points],
            [p[1] for p in points],
            marker=marker,
            s=(badge_size * 1.9) ** 2,
            c=face,
            edgecolors="black",
            linewidths=1.0,
            zorder=5,
        )
    for x in range(board.width):
        tags.add(x, 0.75, "ABCDEFGHIJK"[x], 11, colour="#666666", ha="center", va="center")
    for y in range(board.height):
        tags.add(-0.85, -y, str(y + 1), 11, colour="#666666", ha="center", va="center")
    badge_labels.emit(ax, zorder=6)
    tags.emit(ax, zorder=7)


def _offset(board: CityMap, a: int, b: int, k: float) -> tuple[list[float], list[float]]:
    (x1, y1), (x2, y2) = _xy(board, a), _xy(board, b)
    # perpendicular offset so that lines sharing a section run side by side
    nx_, ny_ = (0.0, k) if y1 == y2 else (k, 0.0)
    return [x1 + nx_, x2 + nx_], [y1 + ny_, y2 + ny_]


def draw_lines(state: GetOnBoardState, ax: Axes) -> None:
    """Every player's line in its colour, the turn in progress haloed, transfers marked."""
    board = state.board
    n = state.num_players
    if state.game.solo and state.game.options.solo_affluence:
        path = board.affluence_path
        ax.plot(
            [_xy(board, v)[0] for v in path],
            [_xy(board, v)[1] for v in path],
            color="#555555",
            lw=3,
            ls=(0, (4, 3)),
            zorder=3,
        )
    mover = state.current_player
    ends: list[tuple[float, float, str]] = []
    eliminated_ends: list[tuple[float, float, str]] = []
    starts: list[Rectangle] = []
    for p in range(n):
        route = state.routes[p]
        if not route:
            continue
        k = (p - (n - 1) / 2) * 0.09
        colour = PLAYER_COLOURS[p]
        segments, halo = [], []
        for i in range(len(route) - 1):
            xs, ys = _offset(board, route[i], route[i + 1], k)
            segments.append(list(zip(xs, ys, strict=True)))
            if p == mover and state.phase in (6, 7) and i >= state.turn_start:
                halo.append(segments[-1])
        if halo:
            ax.add_collection(
                LineCollection(halo, colors="white", linewidths=14, capstyle="round", zorder=3.5)
            )
            ax.add_collection(
                LineCollection(halo, colors="black", linewidths=12, capstyle="round", zorder=3.6, alpha=0.55)
            )
        ax.add_collection(LineCollection(segments, colors=colour, linewidths=6, capstyle="round", zorder=4))
        sx, sy = _xy(board, route[0])
        starts.append(Rectangle((sx - 0.2, sy - 0.2), 0.4, 0.4, fc="none", ec=colour, lw=4))
        ex, ey = _xy(board, route[-1])
        (eliminated_ends if state.eliminated[p] else ends).append((ex, ey, colour))
    if starts:
        ax.add_collection(PatchCollection(starts, match_original=True, zorder=10), autolim=False)
    for points, marker in ((ends, "o"), (eliminated_ends, "X")):
        if points:
            ax.scatter(
                [x for x, _, _ in points],
                [y for _, y, _ in points],
                s=20**2,
                marker=marker,
                c=[c for _, _, c in points],
                edgecolors="black",
                linewidths=2,
                zorder=11,
            )
    _draw_transfers(state, ax)


def _draw_transfers(state: GetOnBoardState, ax: Axes) -> None:
    """A diamond with the number of lines on every section held by two players or more."""
    board = state.board
    holders: dict[int, int] = {}
    for owned in state.owned:
        s = 0
        while owned:
            if owned & 1:
                holders[s] = holders.get(s, 0) + 1
            owned >>= 1
            s += 1
    transfers, counts = [], Labels()
    for s, count in holders.items():
        if count >= 2:
            a, b = board.section_ends[s]
            (x1, y1), (x2, y2) = _xy(board, a), _xy(board, b)
            transfers.append(((x1 + x2) / 2, (y1 + y2) / 2))
            counts.add((x1 + x2) / 2, (y1 + y2) / 2, str(count), 10, ha="center", va="center", weight="bold")
    if transfers:
        ax.scatter(
            [x for x, _ in transfers],
            [y for _, y in transfers],
            s=15**2,
            marker="D",
            c="white",
            edgecolors="black",
            linewidths=2,
            zorder=12,
        )
        counts.emit(ax, zorder=13)


def status_line(state: GetOnBoardState) -> str:
    """The map's two-line title: round and ticket, then who does what (or the winners)."""
    t = state.tables
    head = WORDS("head", city=state.board.title, round=state.round, rounds=state.game.options.rounds)
    if state.ticket:
        ticket = t.tickets[state.ticket - 1]
        head += WORDS("ticket", number=state.ticket, colour=_word("colour", t.colours[ticket.colour]))
        fluid = state.fluid_colour()
        if fluid >= 0:
            head += WORDS("fluid", colour=_word("colour", SECTION_COLOURS[fluid]))
    if state.phase == P_OVER:
        winners = ", ".join(player_name(p) for p in state.winners()) or WORDS("nobody")
        return head + "\n" + WORDS("game_over", winners=winners)
    p = state.current_player
    if state.phase == P_LAY:
        shape = WORDS("five_box") if state.forced_straight else _word("shape", state.shape.name)
        lays = WORDS(
            "lays", player=player_name(p), shape=shape, stick=state.step + 1, sticks=state.shape.sticks
        )
        return head + "\n" + lays
    if state.phase == P_BONUS:
        return head + "\n" + WORDS("may_spend", player=player_name(p))
    return head + "\n" + WORDS(f"phase_{state.phase}")


def draw_state(
    state: GetOnBoardState,
    ax: Any = None,
    perspective: int | None = None,
    highlight: dict[int, float] | None = None,
) -> Figure:
    """The map, every line, the turn in progress, transfers and a legend with the scores.

    ``highlight`` maps intersections to values drawn as a heat overlay (see ``analysis.heat_map``).
    Everything is public, so ``perspective`` changes nothing.
    """
    if ax is None:
        # the map across a 9.5-inch figure (the Stepper shows it near its natural size), the
        # title above it and the legend as a band of columns under it
        board = state.board
        map_height = FIGURE_WIDTH * (board.height + 0.75) / (board.width + 0.8)
        key_height = KEY_ROWS * KEY_ROW + (state.num_players + 1) // 2 * KEY_ROW + 0.2
        height = TITLE_HEIGHT + map_height + key_height
        fig = Figure(figsize=(FIGURE_WIDTH, height))
        ax = fig.add_axes((0.0, (key_height) / height, 1.0, map_height / height))
        legend_ax = fig.add_axes((0.0, 0.0, 1.0, key_height / height))
        legend_ax.set_xlim(0, FIGURE_WIDTH)
        legend_ax.set_ylim(0, key_height)
    else:
        fig = ax.figure
        legend_ax = None
    board = state.board
    draw_map(board, ax)
    if highlight:
        top = max(highlight.values()) or 1.0
        values = Labels()
        for node, value in highlight.items():
            if value > 0:
                x, y = _xy(board, node)
                ax.add_patch(
                    Circle((x, y), 0.45, fc="#ff3300", alpha=0.12 + 0.5 * value / top, zorder=4, ec="none")
                )
                values.add(x, y + 0.36, f"{value:.1f}", 10, ha="center", va="bottom", weight="bold")
        values.emit(ax, zorder=8)
    draw_lines(state, ax)
    # an explicit y: the automatic one measures the axes' contents on every redraw
    ax.set_title(status_line(state), fontsize=14, loc="left", x=0.008, y=1.0)
    if legend_ax is not None:
        _legend(state, legend_ax)
    return fig


Marks = dict[tuple[str, float], list[tuple[float, float, str]]]
"""Legend markers: (marker, size in points) -> [(x, y, face colour)]."""
Strokes = list[tuple[list[tuple[float, float]], str, float, float]]
"""Legend line samples: (segment, colour, width in points, alpha)."""
FIGURE_WIDTH = 9.5
"""Inches: the Stepper (100 dpi) shows a 950 px PNG at 680-830 px, a mild shrink."""
TITLE_HEIGHT = 0.65
"""Inches above the map for its two-line title."""
KEY_ROW = 0.27
"""Inches per legend row (11 pt labels)."""
KEY_ROWS = 5
"""Rows of the map key: the features in two columns of five, the line styles in a third."""
KEY_COLUMNS = (0.25, 3.2, 6.2)
"""Inches from the left of the legend's columns (marker; label 0.3 inch to its right)."""


def _legend(state: GetOnBoardState, ax: Axes) -> None:
    """The map key (cached: it never changes) over the players, in a band under the map.

    Drawn by hand in inches (the legend axes' data units): a matplotlib legend measures each of
    its texts on every redraw.
    """
    ax.axis("off")
    rome = state.board.city == "rome"
    lang = language()
    key = functools.partial(_map_key, rome, lang)
    ax.add_artist(Backdrop(("map key", rome, lang), key, zorder=1))
    labels, marks, strokes = Labels(), Marks(), Strokes()
    top = ax.get_ylim()[1] - (KEY_ROWS + 0.5) * KEY_ROW - 0.1
    for p in range(state.num_players):
        x = KEY_COLUMNS[0] + 4.6 * (p % 2)
        y = top - KEY_ROW * (p // 2)
        status = WORDS("eliminated") if state.eliminated[p] else ""
        letters = state.personal_letters(p) if p < len(state.personal) else "?"
        label = WORDS(
            "player_line", player=player_name(p), score=state.score(p), status=status, letters=letters
        )
        strokes.append(([(x - 0.2, y), (x + 0.2, y)], PLAYER_COLOURS[p], 6.0, 1.0))
        marks.setdefault(("o", 11), []).append((x, y, PLAYER_COLOURS[p]))
        labels.add(
            x + 0.3, y, label, 11.5, va="center", weight="bold" if p == state.current_player else "normal"
        )
    _emit_key(ax, labels, marks, strokes)


def _map_key(rome: bool, lang: str, ax: Axes) -> None:
    """The legend of the map: every feature's badge, the river, the streets, the markings.

    Written in ``lang``, the language in force when the figure was made: the key is cached and
    may be rendered later, after the language switched.
    """
    with using_language(lang):
        _write_map_key(rome, ax)


def _write_map_key(rome: bool, ax: Axes) -> None:
    labels, marks, strokes = Labels(), Marks(), Strokes()
    top = ax.get_ylim()[1] - 0.5 * KEY_ROW - 0.05

    def place(index: int) -> tuple[float, float]:
        return KEY_COLUMNS[index // KEY_ROWS], top - KEY_ROW * (index % KEY_ROWS)

    letters = Labels()
    for f in range(len(FEATURES)):
        _, face, ink, marker, label = FEATURE_STYLE[f]
        x, y = place(f)
        marks.setdefault((marker, 15), []).append((x, y, face))
        text = badge(f)  # on the marker, as on the map
        letters.add(
            x, y, text, 8 if len(text) == 1 else 6.5, colour=ink, ha="center", va="center", weight="bold"
        )
        labels.add(x + 0.3, y, WORDS(label), 11, va="center")
    entries = [(RIVER, 8.0, 1.0, WORDS("river"))]
    if rome:
        streets = [
            (tint, WORDS("street", colour=_word("colour", name))) for name, tint in SECTION_TINTS.items()
        ]
        entries += [(tint, 6.0, 1.0, label) for tint, label in streets]
    entries.append(("black", 9.0, 0.5, WORDS("this_turn")))
    index = 2 * KEY_ROWS
    for colour, width, alpha, label in entries:
        x, y = place(index)
        strokes.append(([(x - 0.2, y), (x + 0.2, y)], colour, width, alpha))
        labels.add(x + 0.3, y, label, 11, va="center")
        index += 1
    x, y = place(index)
    marks.setdefault(("D", 11), []).append((x, y, "white"))
    labels.add(x + 0.3, y, WORDS("transfer"), 11, va="center")
    _emit_key(ax, labels, marks, strokes)
    letters.emit(ax, zorder=4)


def _emit_key(ax: Axes, labels: Labels, marks: Marks, strokes: Strokes) -> None:
    """Line samples first, markers over them, then the labels, as in a legend."""
    ax.add_collection(
        LineCollection(
            [segment for segment, _, _, _ in strokes],
            colors=[(*to_rgb(c), a) for _, c, _, a in strokes],
            linewidths=[w for _, _, w, _ in strokes],
        )
    )
    for (marker, size), points in marks.items():
        ax.scatter(
            [x for x, _, _ in points],
            [y for _, y, _ in points],
            s=size**2,
            marker=marker,
            c=[c for _, _, c in points],
            edgecolors="black",
            linewidths=1.0,
            zorder=3,
        )
    labels.emit(ax)


# --------------------------------------------------------------------------- the score sheet
SHEET_TEXT, SHEET_CAPTION, SHEET_HEADING = 13.0, 12.5, 14.0
"""Point sizes on the score sheet: box labels, captions, row headings.  The sheet is 14 inches wide,
so at 72 dpi (notebook 04) a point is a pixel: nothing under 12 px."""
TICKED = "#ffe08a"


def _boxes(
    ax: Axes, x: float, y: float, labels: list[str], ticked: int, colour: str = "#333333", crossed: int = 0
) -> float:
    """A row of boxes; the first ``ticked`` filled, the first ``crossed`` of those crossed out."""
    for i, label in enumerate(labels):
        fill = TICKED if i < ticked else "white"
        ax.add_patch(Rectangle((x + i, y), 0.9, 0.9, fc=fill, ec=colour, lw=1.5))
        ax.text(x + i + 0.45, y + 0.45, label, ha="center", va="center", fontsize=SHEET_TEXT)
        if i < ticked:
            ax.plot([x + i + 0.15, x + i + 0.75], [y + 0.15, y + 0.75], color="black", lw=2)
        if i < crossed:
            ax.plot([x + i + 0.15, x + i + 0.75], [y + 0.75, y + 0.15], color="black", lw=2)
    return x + len(labels)


def _heading(ax: Axes, y: float, key: str) -> None:
    """A row's name at the left margin of the sheet."""
    ax.text(0, y + 0.45, WORDS(key) if key else "", fontsize=SHEET_HEADING, va="center", weight="bold")


def _caption(ax: Axes, x: float, y: float, text: str, colour: str = "#333333") -> None:
    ax.text(x, y, text, fontsize=SHEET_CAPTION, va="center", color=colour)


def draw_sheet(state: GetOnBoardState, player: int, ax: Any = None) -> Figure:
    """``player``'s score sheet drawn like the paper one: ticket strip, tracks, rows, totals.

    Top to bottom as on paper; each part is one function below, given the height it starts at
    and returning where the next begins.
    """
    if ax is None:
        fig = Figure(figsize=(14, 9))
        ax = fig.add_axes((0.01, 0.01, 0.98, 0.9))
    else:
        fig = ax.figure
    ax.set_xlim(0, 30)
    ax.set_ylim(0, 20)
    ax.axis("off")
    breakdown = state.breakdown(player)
    sheet_no = state.sheet_of[player] + 1 if player < len(state.sheet_of) else 0
    status = WORDS("sheet_eliminated") if state.eliminated[player] else ""
    title = WORDS(
        "sheet_title", player=player_name(player), sheet=sheet_no, total=breakdown["total"], status=status
    )
    ax.set_title(title, fontsize=18, loc="left", color=PLAYER_COLOURS[player], weight="bold")
    _sheet_tickets(state, sheet_no, ax, 18.5)
    y = _sheet_tracks(state, player, ax, 16.3)
    y = _sheet_rows(state, player, ax, y)
    y = _sheet_boxes(state, player, ax, y)
    _sheet_objectives(state, player, ax, y)
    _sheet_totals(breakdown, ax)
    return fig


def _sheet_tickets(state: GetOnBoardState, sheet_no: int, ax: Axes, y: float) -> None:
    """The ticket strip, ticked when revealed, and the shape this sheet gives each colour."""
    t = state.tables
    _heading(ax, y, "tickets")
    for i, ticket in enumerate(t.tickets):
        revealed = ticket.number in state.tickets
        ax.add_patch(
            FancyBboxPatch(
                (4 + 2.1 * i, y),
                1.8,
                0.9,
                boxstyle="round,pad=0.05",
                fc=TICKET_TINTS[t.colours[ticket.colour]],
                ec="black",
                alpha=1.0 if revealed else 0.35,
            )
        )
        ax.text(
            4 + 2.1 * i + 0.9,
            y + 0.45,
            str(ticket.number),
            ha="center",
            va="center",
            fontsize=14,
            weight="bold",
        )
    if sheet_no:
        shapes = [
            WORDS(
                "shape_of",
                colour=_word("colour", t.colours[c]),
                shape=_word("shape", t.shapes[t.sheets[sheet_no - 1][c]].name),
            )
            for c in range(len(t.colours))
        ]
        # two lines of three: one line of six runs past the strip in French at this size
        for row in range(2):
            _caption(ax, 4, y - 0.45 - 0.55 * row, "   ".join(shapes[3 * row : 3 * row + 3]), "#444444")


def _sheet_tracks(state: GetOnBoardState, player: int, ax: Axes, y: float) -> float:
    """Grannies' track, then students × cinemas; returns the next row's height."""
    t, sheet = state.tables, state.sheets[player]
    y -= 0.6  # under the ticket shapes' two lines
    _heading(ax, y, "grannies")
    _boxes(ax, 4, y, [str(v) for v in t.granny_track], min(sheet.grannies, len(t.granny_track)))
    y -= 1.3
    _heading(ax, y, "students")
    end = _boxes(ax, 4, y, [badge(STUDENT)] * t.students_max, min(sheet.students, t.students_max))
    ax.text(end + 0.3, y + 0.45, "×", fontsize=16, va="center")
    _boxes(ax, end + 1, y, [badge(CINEMA)] * t.cinemas_max, min(sheet.cinemas, t.cinemas_max))
    return y - 1.3


def _open_note(closed: bool, value: int, started: bool) -> str:
    """What a row scores: "= 9" when closed, "open: 4" (half, rounded down) while open."""
    if closed:
        return f"= {value}"
    return WORDS("open", points=value // 2) if started else ""


def _sheet_rows(state: GetOnBoardState, player: int, ax: Axes, y: float) -> float:
    """The tourists' and the lovers' rows, each closed by a monument or a restaurant."""
    t, sheet = state.tables, state.sheets[player]
    for r in range(t.tourist_rows):
        _heading(ax, y, "tourists" if r == 0 else "")
        end = _boxes(ax, 4, y, [badge(TOURIST)] * t.tourist_row_size, sheet.tourist_rows[r])
        closed = r < sheet.tourists_closed
        value = t.tourist_row_values[min(sheet.tourist_rows[r], t.tourist_row_size)]
        _boxes(ax, end + 0.3, y, ["★"], 1 if closed else 0, colour="#c0392b")
        ax.text(
            end + 1.6,
            y + 0.45,
            _open_note(closed, value, sheet.tourist_rows[r] > 0),
            fontsize=SHEET_TEXT,
            va="center",
        )
        y -= 1.0
    y -= 0.3
    for r in range(t.lover_rows):
        _heading(ax, y, "lovers" if r == 0 else "")
        light, dark = sheet.light[r], sheet.dark[r]
        end = _boxes(ax, 4, y, ["♡"] * t.lovers_per_colour, light, colour="#d81b60")
        end = _boxes(ax, end, y, ["♥"] * t.lovers_per_colour, dark, colour="#6d1b3b")
        closed = r < sheet.lovers_closed
        _boxes(ax, end + 0.3, y, [badge(RESTAURANT)], 1 if closed else 0, colour="#1e8449")
        couples = min(light, dark)
        value = t.couple_points * couples + t.single_points * (light + dark - 2 * couples)
        ax.text(
            end + 1.6, y + 0.45, _open_note(closed, value, light + dark > 0), fontsize=SHEET_TEXT, va="center"
        )
        y -= 1.0
    return y - 0.3


TRACK_X = 5.25
"""Where the transfer track's first circle stands: clear of its heading ("correspondances")."""


def _sheet_boxes(state: GetOnBoardState, player: int, ax: Axes, y: float) -> float:
    """Metro entrances (kept or spent), turn modifications, the transfer track."""
    t, sheet = state.tables, state.sheets[player]
    _heading(ax, y, "entrances")
    _boxes(ax, 4, y, [badge(ENTRANCE)] * t.entrance_boxes, sheet.entrances, crossed=sheet.spent)
    _caption(ax, 4 + t.entrance_boxes + 0.3, y + 0.45, WORDS("kept_crossed"), "#444444")
    y -= 1.3
    _heading(ax, y, "turn_boxes")
    _boxes(ax, 4, y, [f"-{v}" for v in t.turn_penalties], sheet.modifications)
    y -= 1.3
    _heading(ax, y, "transfers")
    for i, v in enumerate(t.transfer_track):
        ticked = i < sheet.transfers
        ax.add_patch(
            Circle((TRACK_X + i * 0.95, y + 0.45), 0.42, fc=TICKED if ticked else "white", ec="black")
        )
        weight = "bold" if ticked else "normal"
        ax.text(TRACK_X + i * 0.95, y + 0.45, str(v), ha="center", va="center", fontsize=12, weight=weight)
    return y - 1.3


def _sheet_objectives(state: GetOnBoardState, player: int, ax: Axes, y: float) -> None:
    """The two common objectives (grey once flipped) and the personal letters (capitals reached)."""
    t, sheet = state.tables, state.sheets[player]
    _heading(ax, y, "objectives")
    x = 4.0
    for j, oid in enumerate(state.objectives):
        flipped = state.flipped[j] if j < len(state.flipped) else False
        face = "#bbbbbb" if flipped else "#ffe600"
        ax.add_patch(FancyBboxPatch((x, y), 4.6, 0.9, boxstyle="round,pad=0.05", fc=face, ec="black"))
        name = _word("objective", t.common[oid - 1][1])
        label = WORDS("objective_points", name=name, points=sheet.objective_points[j] or "—")
        ax.text(x + 2.3, y + 0.45, label, ha="center", va="center", fontsize=SHEET_TEXT)
        x += 5.0
    letters = state.personal_letters(player) if player < len(state.personal) else ""
    reached = "".join(
        c.upper() if state.visited[player] >> state.board.letters[c] & 1 else c for c in letters
    )
    _caption(ax, x + 0.2, y + 0.45, WORDS("personal_line", letters=reached))


def _sheet_totals(breakdown: dict[str, int], ax: Axes) -> None:
    """The points column at the right: one line per category, the total at the foot."""
    ax.add_patch(Rectangle((25.2, 1.0), 4.6, 16.3, fc="#f4f4f4", ec="black"))
    ax.text(27.5, 16.8, WORDS("points"), ha="center", fontsize=SHEET_HEADING, weight="bold")
    for i, cat in enumerate(CATEGORIES):
        ax.text(25.5, 15.8 - 1.45 * i, WORDS(cat), fontsize=SHEET_TEXT, va="center")
        ax.text(
            29.5, 15.8 - 1.45 * i, str(breakdown[cat]), fontsize=14, va="center", ha="right", weight="bold"
        )
    ax.plot([25.4, 29.6], [2.3, 2.3], color="black", lw=1.5)
    ax.text(25.5, 1.6, WORDS("total"), fontsize=15, va="center", weight="bold")
    ax.text(29.5, 1.6, str(breakdown["total"]), fontsize=16, va="center", ha="right", weight="bold")


def draw_heat(board: CityMap, values: dict[int, float], title: str = "", ax: Any = None) -> Figure:
    """The map with a value per intersection as a heat overlay (bigger, redder = more valuable)."""
    if ax is None:
        fig = Figure(figsize=(12, 10))
        ax = fig.add_axes((0.0, 0.0, 1.0, 0.94))
    else:
        fig = ax.figure
    draw_map(board, ax, badge_size=11.0)
    top = max(values.values(), default=1.0) or 1.0
    for node, value in values.items():
        if value <= 0:
            continue
        x, y = _xy(board, node)
        ax.add_patch(Circle((x, y), 0.47, fc="#ff3300", alpha=0.1 + 0.55 * value / top, ec="none", zorder=3))
        ax.text(x, y - 0.47, f"{value:.1f}", ha="center", va="top", fontsize=10, weight="bold", zorder=8)
    ax.set_title(title, fontsize=16, loc="left")
    return fig
