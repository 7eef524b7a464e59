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

import itertools
import textwrap
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Ellipse, FancyBboxPatch, Patch

from gamelib.delanopolis.board import REFUGE_BASE, START, TERRAINS, content
from gamelib.delanopolis.rules import (
    BIDDING,
    OUTCOME_TEXT,
    OVER,
    PHASE_NAMES,
    AuctionResult,
    DelanopolisObservation,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

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


def player_colour(player: int) -> str:
    return PLAYER_COLOURS[player % len(PLAYER_COLOURS)]


def _role(view: DelanopolisObservation, player: int) -> str:
    return "mayor" if player == view.mayor else "challenger"


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


def draw_map(state: DelanopolisState, ax: Axes, perspective: int | None = None) -> None:
    """The map of Paris with terrains, owners, prices, refuges and pawns, into ``ax``."""
    view = state.observation(perspective)
    o = state.options
    data = content()
    ax.set_aspect("equal")
    ax.set_xlim(-1.18, 1.18)
    ax.set_ylim(-0.86, 0.82)
    ax.axis("off")
    ax.add_patch(Ellipse((0, -0.02), 2.16, 1.56, facecolor=PARIS_COLOUR, edgecolor="#9a8f7a", lw=6, zorder=0))
    seine = _smooth(SEINE)
    ax.plot(seine[:, 0], seine[:, 1], color=SEINE_COLOUR, lw=14, solid_capstyle="round", zorder=1)
    ax.text(0.86, -0.50, "la Seine", color="#2f6ea5", fontsize=13, style="italic", rotation=12, zorder=2)

    ring = state.game.ring
    on_ring = o.placement == "ring"
    if on_ring:
        pts = np.array([_place_xy(c) for c in (*ring, ring[0])])
        ax.plot(pts[:, 0], pts[:, 1], color="#8a8478", lw=1.6, ls=(0, (4, 3)), zorder=2)
        for a, b in itertools.pairwise(pts):  # walking direction
            mid = (a + b) / 2
            ax.annotate(
                "",
                xy=mid + (b - a) * 0.06,
                xytext=mid - (b - a) * 0.06,
                arrowprops={"arrowstyle": "-|>", "color": "#8a8478", "lw": 1.4},
                zorder=2,
            )
    refuges = [c for c in ring if c >= REFUGE_BASE] if on_ring else []
    if o.refuge_on_double:
        refuges = [REFUGE_BASE + j for j in range(4)]
    for code in refuges:
        r = data.refuges[code - REFUGE_BASE]
        ax.add_patch(
            FancyBboxPatch(
                (r.x - 0.06, r.y - 0.05),
                0.12,
                0.10,
                boxstyle="round,pad=0.01",
                facecolor=REFUGE_COLOUR,
                edgecolor="#3d6b32",
                lw=2,
                zorder=3,
            )
        )
        ax.text(
            r.x,
            r.y,
            f"R{r.number}",
            ha="center",
            va="center",
            fontsize=14,
            weight="bold",
            color="white",
            zorder=4,
        )
        ax.text(r.x, r.y - 0.085, r.name, ha="center", va="top", fontsize=10, color="#2e5a25", zorder=4)

    reachable = set(state.game.reachable)
    for t in range(TERRAINS):
        place = data.terrains[t]
        owner = view.owner[t]
        face = player_colour(owner) if owner >= 0 else FREE_COLOUR
        edge = "#222222" if t in reachable else "#aaaaaa"
        if view.landed == t:
            ax.add_patch(
                Circle((place.x, place.y), TERRAIN_RADIUS * 1.45, facecolor=HIGHLIGHT, alpha=0.8, zorder=3)
            )
        ax.add_patch(
            Circle((place.x, place.y), TERRAIN_RADIUS, facecolor=face, edgecolor=edge, lw=2.5, zorder=4)
        )
        ax.text(
            place.x,
            place.y,
            str(place.number),
            ha="center",
            va="center",
            fontsize=18,
            weight="bold",
            color="white" if owner >= 0 else "#222222",
            zorder=5,
        )
        label = place.name if t in reachable else f"{place.name}\n(never rolled)"
        ax.text(
            place.x, place.y - TERRAIN_RADIUS - 0.012, label, ha="center", va="top", fontsize=11, zorder=5
        )
        if owner >= 0:
            ax.text(
                place.x + TERRAIN_RADIUS * 0.85,
                place.y + TERRAIN_RADIUS * 0.85,
                f"{view.price[t]}",
                ha="left",
                va="bottom",
                fontsize=12,
                weight="bold",
                color=player_colour(owner),
                bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": player_colour(owner)},
                zorder=6,
            )

    # pawns: a ring of small discs around the square each one stands on
    for p, code in enumerate(view.where):
        if code == START:
            x, y = -1.02, 0.62
            angle = 2 * np.pi * p / len(view.where)
            ax.plot(
                x + 0.07 * np.cos(angle),
                y + 0.07 * np.sin(angle),
                "o",
                ms=13,
                mfc=player_colour(p),
                mec="k",
                zorder=7,
            )
            continue
        x, y = _place_xy(code)
        # on an arc above the square, clear of the name written underneath
        angle = np.pi * (0.92 - 0.84 * p / max(1, len(view.where) - 1))
        px, py = x + 0.12 * np.cos(angle), y + 0.12 * np.sin(angle)
        marker = "*" if p == view.mayor else "o"
        ax.plot(
            px, py, marker, ms=20 if marker == "*" else 14, mfc=player_colour(p), mec="k", mew=1.5, zorder=7
        )
    if any(c == START for c in view.where):
        ax.text(-1.02, 0.72, "start", ha="center", fontsize=11, color="#555555")


def _draw_players(state: DelanopolisState, ax: Axes, view: DelanopolisObservation) -> None:
    ax.axis("off")
    ax.set_xlim(0, 1)
    n = len(view.vots)
    ax.set_ylim(-0.2, n + 1.3)
    headers = ("player", "VOT'S", "COM'S", "atouts/jokers", "terrains")
    xs = (0.02, 0.40, 0.56, 0.72, 0.93)
    for x, h in zip(xs, headers, strict=True):
        ax.text(x, n + 0.6, h, fontsize=13, weight="bold", ha="left" if x < 0.3 else "center", va="center")
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
            ms=22 if p == view.mayor else 16,
            mfc=player_colour(p),
            mec="k",
        )
        ax.text(
            0.09,
            y,
            f"{p} {_role(view, p)}",
            fontsize=14,
            va="center",
            weight="bold" if p == view.mayor else "normal",
        )
        ax.text(xs[1], y, str(view.vots[p]), fontsize=14, va="center", ha="center")
        ax.text(xs[2], y, str(view.coms[p]), fontsize=14, va="center", ha="center")
        tok = view.tokens[p]
        word = "joker" if p == view.mayor else "atout"
        extra = " (played)" if view.boosted[p] else ""
        ax.text(
            xs[3],
            y,
            (f"{tok} {word}{'s' if tok > 1 else ''}" if tok else "—") + extra,
            fontsize=13,
            va="center",
            ha="center",
        )
        ax.text(xs[4], y, str(view.owner.count(p)), fontsize=14, va="center", ha="center", weight="bold")
        flags = []
        if view.skip_next[p]:
            flags.append("skips next turn")
        if state.bankrupt[p]:
            flags.append("bankrupt")
        if flags:
            ax.text(0.09, y - 0.32, ", ".join(flags), fontsize=10, color="#a33", va="center")


def _auction_rows(
    view: DelanopolisObservation, auction: AuctionResult | None
) -> tuple[str, list[tuple[int, int | None, bool]], int]:
    """(title, [(player, bid or None if hidden, boosted)], winner) for the panel."""
    names = content().terrains
    if view.phase == BIDDING:
        rows = []
        for p in view.bid_order:
            b = view.bids[p]
            if b is not None and b < 0:
                continue  # not yet bid
            rows.append((p, b, view.boosted[p]))
        return f"Sealed bids for {view.landed + 1}. {names[view.landed].name}", rows, -1
    if auction is None:
        return "No auction yet", [], -1
    rows = [(p, auction.bids[p], auction.boosted[p]) for p in range(len(auction.bids))]
    return f"Last auction: {auction.terrain + 1}. {names[auction.terrain].name}", rows, auction.winner


def draw_auction_into(ax: Axes, view: DelanopolisObservation, auction: AuctionResult | None = None) -> None:
    """Bars of the bids (as they count: atouts and jokers double them) against the mayor's COM'S."""
    if auction is None and view.auctions and view.phase != BIDDING:
        auction = view.auctions[-1]
    title, rows, winner = _auction_rows(view, auction)
    ax.set_title(title, fontsize=15, loc="left", weight="bold")
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    if not rows:
        ax.set_xticks([])
        ax.set_yticks([])
        ax.text(0.5, 0.5, "—", transform=ax.transAxes, ha="center", fontsize=20)
        return
    mayor = view.mayor
    labels, heights, colours, texts, hatches = [], [], [], [], []
    challengers_total = 0
    hidden_total = False
    hidden_height = HIDDEN_BAR
    for p, b, boosted in rows:
        if p == mayor:
            continue
        labels.append(f"{p}")
        value = None if b is None else b * (2 if boosted else 1)
        hidden_total |= value is None
        challengers_total += value or 0
        heights.append(value if value is not None else hidden_height)
        colours.append(player_colour(p) if value is not None else "#dddddd")
        texts.append("?" if value is None else (f"{b}×2" if boosted else f"{b}"))
        hatches.append("//" if boosted or value is None else "")
    xs = list(range(len(labels)))
    bars = ax.bar(xs, heights, color=colours, edgecolor="k", lw=1.5)
    for bar, h in zip(bars, hatches, strict=True):
        bar.set_hatch(h)
    top = max([*heights, 1])
    mayor_row = next(((b, x) for p, b, x in rows if p == mayor), None)
    total_x = len(xs) + 0.3
    ax.bar(
        [total_x],
        [hidden_height if hidden_total else challengers_total],
        color="#dddddd" if hidden_total else "#bbbbbb",
        hatch="//" if hidden_total else "",
        edgecolor="k",
        lw=1.5,
        width=0.8,
    )
    total_text = "?" if hidden_total else str(challengers_total)
    texts_all = [*texts, total_text]
    xs_all = [*xs, total_x]
    heights_all = [*heights, hidden_height if hidden_total else challengers_total]
    labels_all = [*labels, "challengers\ntotal"]
    if mayor_row is not None:
        b, boosted = mayor_row
        value = None if b is None else b * (2 if boosted else 1)
        mx = total_x + 1.2
        height = hidden_height if value is None else value
        colour = "#dddddd" if value is None else player_colour(mayor)
        bar = ax.bar([mx], [height], color=colour, edgecolor="k", lw=2.5)[0]
        if boosted or value is None:
            bar.set_hatch("//")
        xs_all.append(mx)
        heights_all.append(height)
        texts_all.append("?" if value is None else (f"{b}×2" if boosted else f"{b}"))
        labels_all.append(f"{mayor} mayor\nCOM'S")
        top = max(top, height)
    top = max(top, challengers_total)
    if view.phase == BIDDING:
        waiting = [str(p) for p in view.bid_order if view.bids[p] is not None and view.bids[p] == -1]
        if waiting:
            ax.text(
                0.01,
                0.97,
                "still to bid: " + ", ".join(waiting),
                transform=ax.transAxes,
                va="top",
                fontsize=12,
            )
    for bar_x, bar_h, bar_text in zip(xs_all, heights_all, texts_all, strict=True):
        ax.text(bar_x, bar_h + top * 0.03, bar_text, ha="center", va="bottom", fontsize=14, weight="bold")
    ax.set_xticks(xs_all, labels_all, fontsize=12)
    ax.set_ylim(0, top * 1.3)
    ax.tick_params(axis="y", labelsize=11)
    ax.set_ylabel("points, as they count", fontsize=12)
    if winner >= 0:
        ax.text(
            0.99,
            0.97,
            f"taken by {winner} ({_role(view, winner)})",
            transform=ax.transAxes,
            ha="right",
            va="top",
            fontsize=13,
            color=player_colour(winner),
            weight="bold",
        )
    elif view.phase != BIDDING:
        ax.text(0.99, 0.97, "no sale", transform=ax.transAxes, ha="right", va="top", fontsize=13)


def _last_chapter(view: DelanopolisObservation) -> str:
    for event in reversed(view.events):
        text = event.chapter()
        if text:
            return text
    return ""


def _status(state: DelanopolisState, view: DelanopolisObservation) -> str:
    o = state.options
    if view.phase == OVER:
        winners = ", ".join(str(w) for w in view.winners)
        return f"Game over: {OUTCOME_TEXT[view.outcome]} (winner: {winners})"
    rnd = min(state.round + 1, o.rounds)
    who = view.current_player
    actor = f"{who} ({_role(view, who)}) to act" if who >= 0 else "the dice" if view.mayor >= 0 else "the lot"
    roller = f", roller {view.roller}" if view.roller >= 0 else ""
    return f"Delanopolis, round {rnd}/{o.rounds}{roller}: {PHASE_NAMES[view.phase]}, {actor}"


def draw_state(state: DelanopolisState, ax: Any = None, perspective: int | None = None) -> Figure:
    """The whole table.  With ``ax`` only the map is drawn into it (for dashboards)."""
    if ax is not None:
        draw_map(state, ax, perspective)
        return ax.figure  # type: ignore[no-any-return]
    view = state.observation(perspective)
    fig = Figure(figsize=(19, 10.5), layout="constrained")
    grid = fig.add_gridspec(3, 2, width_ratios=(1.55, 1), height_ratios=(1.05, 1, 0.3))
    ax_map = fig.add_subplot(grid[0:2, 0])
    draw_map(state, ax_map, perspective)
    ax_players = fig.add_subplot(grid[0, 1])
    _draw_players(state, ax_players, view)
    ax_auction = fig.add_subplot(grid[1, 1])
    draw_auction_into(ax_auction, view)
    ax_text = fig.add_subplot(grid[2, :])
    ax_text.axis("off")
    chapter = _last_chapter(view)
    if chapter:
        ax_text.text(
            0.01,
            0.95,
            "\n".join(textwrap.wrap(chapter, 150)),
            va="top",
            ha="left",
            fontsize=13,
            style="italic",
            bbox={"boxstyle": "round,pad=0.5", "facecolor": "#fbf7ee", "edgecolor": "#c9b98f"},
        )
    fig.suptitle(_status(state, view), fontsize=17, weight="bold")
    handles = [
        Patch(facecolor=player_colour(p), edgecolor="k", label=f"{p} {_role(view, p)}")
        for p in range(len(view.vots))
    ]
    handles.append(Patch(facecolor=FREE_COLOUR, edgecolor="k", label="free terrain"))
    ax_map.legend(handles=handles, loc="lower left", fontsize=12, ncols=2, framealpha=0.9)
    if perspective is not None:
        ax_map.set_title(f"as player {perspective} sees it", fontsize=14, loc="right")
    return fig


def draw_auction(
    state: DelanopolisState, perspective: int | None = None, auction: AuctionResult | None = None
) -> Figure:
    """One auction on its own: the one being bid (hidden bids as "?") or ``auction``/the last one."""
    view = state.observation(perspective)
    fig = Figure(figsize=(9, 5.5), layout="constrained")
    draw_auction_into(fig.add_subplot(), view, auction)
    return fig


def draw_landing_odds(odds: dict[str, dict[int, Any]], title: str = "Landing odds per terrain") -> Figure:
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
    ax.set_ylabel("probability per roll", fontsize=13)
    ax.set_title(title, fontsize=16, weight="bold")
    ax.legend(fontsize=12)
    return fig
