"""A Une Passante drawn with matplotlib: the half-octagon as one player (or a spectator) sees it.

The board is the seed's "plateau en demi-octogone": four wedges left to right (école, parc,
théâtre, café) around the central place, drawn as a half-disc at the foot of the board ("à
l'extérieur du plateau").  Characters are discs in their socle colour (the colour of their start
zone) with a short name; a player's heart is a ♥ in the player's colour beside the character it
controls.  The Omnibus is a coach-shaped box; the Passante is the mauve figure on the rim with an
arrow showing her direction.  A side panel holds the score and its rating, each player's
character card, hand (only what the perspective may see: other hands are reduced to their size
through ``state.observation``) and fulfilled wishes.

Fonts are sized for a projector (16 x 9 inch figure, 12-22 pt text).
"""

from __future__ import annotations

import math
import textwrap
from typing import TYPE_CHECKING

from matplotlib.collections import PatchCollection
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch, Patch, Polygon

from gamelib.core.drawing import (
    Labels,
)
from gamelib.passante.board import (
    CHARACTERS,
    LOCATION_TITLES,
    PASSANTE_COLOUR,
    PIECE_TITLES,
    PLACE,
    SOCLE_COLOURS,
    START_ZONE,
    ZONE_SOCLE,
    ZONES,
)
from gamelib.passante.rules import EFFECT, OVER, SETUP, WISHES, rating

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from gamelib.passante.rules import PassanteState

R_IN, R_OUT = 2.3, 6.2
"""Inner and outer radius of the half-octagon's wedges (data units)."""
ZONE_TINTS = ("#e4e6ea", "#dcefe2", "#f4dcda", "#f8edc6")
"""Pale backgrounds of école, parc, théâtre, café (their socle colours, lightened)."""
PLAYER_COLOURS = ("#d62728", "#1f5fbf", "#e67e00", "#138d75")
"""Heart colours of players 1-4."""
SHORT = ("Pol", "Ins", "Men", "Gar", "Chat", "Com", "Poè", "Garç")
TOKEN_R = 0.42
X_MIN, X_MAX = -8.4, 8.6
"""Data units across the figure: the half-octagon, its zone names and the Passante beside Café."""
BOARD_TOP = 9.4
PANEL_TOP = -2.7
"""Where the players' panel starts, under the Place centrale."""
PLAYER_BLOCK = 3.0
"""Data units one player's block takes in the panel (name, card, three wishes, fulfilled)."""
LEGEND_ROOM = 0.9
FIGURE_WIDTH = 9.5
"""Inches: the Stepper (100 dpi) shows a 950 px PNG at 680-830 px, a mild shrink."""
LINE = 0.42
"""Data units between two lines of 11 pt text in the panel."""


def _angle(zone: int, frac: float) -> float:
    """Angle (degrees) inside ``zone``'s wedge: frac 0 = its left edge, 1 = its right edge."""
    return 180.0 - 45.0 * (zone + frac)


def _polar(radius: float, degrees: float) -> tuple[float, float]:
    a = math.radians(degrees)
    return radius * math.cos(a), radius * math.sin(a)


# Token slots per zone: four on an outer arc, three on an inner arc, one more near the rim.
_ZONE_SLOTS = [(4.95, 0.14), (4.95, 0.38), (4.95, 0.62), (4.95, 0.86), (3.9, 0.2), (3.9, 0.5), (3.9, 0.8)]
_ZONE_SLOTS.append((3.0, 0.16))
_BUS_SLOT = (3.0, 0.62)
_PLACE_SLOTS = [
    (-0.95, 1.15),
    (0.0, 1.45),
    (0.95, 1.15),
    (-1.45, 0.25),
    (-0.5, 0.45),
    (0.5, 0.45),
    (1.45, 0.25),
]
_PLACE_SLOTS.append((-1.05, -0.7))


def _slot(loc: int, index: int) -> tuple[float, float]:
    if loc == PLACE:
        return _PLACE_SLOTS[index % len(_PLACE_SLOTS)]
    radius, frac = _ZONE_SLOTS[index % len(_ZONE_SLOTS)]
    return _polar(radius, _angle(loc, frac))


def _panel_bottom(num_players: int) -> float:
    """The lowest y of the players' panel under the board: two columns of player blocks."""
    rows = (num_players + 1) // 2
    return PANEL_TOP - 0.75 - rows * PLAYER_BLOCK - LEGEND_ROOM


def draw_state(state: PassanteState, ax: Axes | None = None, perspective: int | None = None) -> Figure:
    """Draw ``state`` as seen by ``perspective`` (None: every hand shown).

    The board sits on top and the players' panel under it, in two columns: a figure about
    9.5 inches wide, so that the Stepper's PNG is shown near its natural size in a notebook
    and its smallest labels (11 pt) stay readable on a projector.
    """
    obs = state.observation(perspective)  # validates perspective and hides what it may not see
    bottom = _panel_bottom(state.game.num_players)
    if ax is None:
        fig = Figure(figsize=(FIGURE_WIDTH, FIGURE_WIDTH * (BOARD_TOP - bottom) / (X_MAX - X_MIN)))
        ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    else:
        fig = ax.figure  # type: ignore[assignment]
    ax.set_xlim(X_MIN, X_MAX)
    ax.set_ylim(bottom, BOARD_TOP)
    ax.set_aspect("equal")
    ax.axis("off")
    labels = Labels()  # everything written outside the tokens, in one artist
    _draw_board(ax, labels)
    _draw_pieces(ax, state)
    _draw_passante(ax, state, labels)
    _draw_header(labels, state, perspective)
    _draw_panel(labels, state, obs.hands, perspective, bottom)
    labels.emit(ax, zorder=9)
    return fig


def _draw_board(ax: Axes, labels: Labels) -> None:
    wedges: list[Patch] = []
    for z in ZONES:
        a0, a1 = _angle(z, 1.0), _angle(z, 0.0)
        pts = [_polar(R_IN, a0), _polar(R_OUT, a0), _polar(R_OUT, a1), _polar(R_IN, a1)]
        wedges.append(Polygon(pts, closed=True, facecolor=ZONE_TINTS[z], edgecolor="#444", lw=2.5))
        x, y = _polar(R_OUT + 0.6, _angle(z, 0.5))
        labels.add(x, y, LOCATION_TITLES[z], 21, colour="#333", ha="center", va="center", weight="bold")
    wedges.append(Circle((0, 0), R_IN - 0.25, facecolor="#efe7f5", edgecolor="#444", lw=2.5))
    ax.add_collection(PatchCollection(wedges, match_original=True, zorder=1), autolim=False)
    labels.add(0, -1.5, "Place centrale", 13, colour="#5a3d6e", ha="center", va="center", weight="bold")


def _draw_pieces(ax: Axes, state: PassanteState) -> None:
    names, hearts, numbers = Labels(), Labels(), Labels()
    tokens: list[Patch] = []
    filled = [0] * 5
    for c in CHARACTERS:
        loc = state.pos[c]
        x, y = _slot(loc, filled[loc])
        filled[loc] += 1
        colour = SOCLE_COLOURS[ZONE_SOCLE[START_ZONE[c]]]
        tokens.append(Circle((x, y), TOKEN_R, facecolor=colour, edgecolor="#222", lw=2))
        text_colour = "#222" if ZONE_SOCLE[START_ZONE[c]] in ("jaune", "gris") else "white"
        names.add(x, y, SHORT[c], 12.5, colour=text_colour, ha="center", va="center", weight="bold")
        for k, p in enumerate(state.controllers(c)):
            hx, hy = x - 0.25 + 0.5 * k, y + 0.66
            hearts.add(hx, hy, "♥", 27, colour=PLAYER_COLOURS[p], ha="center", va="center")
            numbers.add(
                hx, hy + 0.04, str(p + 1), 10.5, colour="white", ha="center", va="center", weight="bold"
            )
    # the Omnibus: a coach at its location
    loc = state.bus
    if loc == PLACE:
        x, y = 0.55, -0.85
    else:
        x, y = _polar(_BUS_SLOT[0], _angle(loc, _BUS_SLOT[1]))
    coach: list[Patch] = [
        FancyBboxPatch(
            (x - 0.75, y - 0.24),
            1.5,
            0.48,
            boxstyle="round,pad=0.02,rounding_size=0.15",
            facecolor="#6b4226",
            edgecolor="#222",
            lw=2,
        )
    ]
    coach += [Circle((x + dx, y - 0.26), 0.1, facecolor="#222") for dx in (-0.45, 0.45)]
    ax.add_collection(PatchCollection(coach, match_original=True, zorder=4), autolim=False)
    names.add(x, y + 0.02, "Omnibus", 11, colour="#f5e6c8", ha="center", va="center", weight="bold")
    ax.add_collection(PatchCollection(tokens, match_original=True, zorder=5), autolim=False)
    names.emit(ax, zorder=6)
    hearts.emit(ax, zorder=7)
    numbers.emit(ax, zorder=8)


def _draw_passante(ax: Axes, state: PassanteState, labels: Labels) -> None:
    loc, direction = state.passante, state.pdir
    radius = R_OUT + 1.55
    if loc == PLACE:
        x, y = -2.2, -0.85
        back = "revient → par l'école" if direction == 1 else "revient ← par le café"
        labels.add(-2.2, -2.05, back, 13, colour=PASSANTE_COLOUR, ha="center", va="center", weight="bold")
    else:
        # beside her zone's name, towards the middle of the board; the arrow points where she goes
        angle = _angle(loc, 0.78 if loc in (0, 1) else 0.22)
        x, y = _polar(radius, angle)
        step = -1 if direction == 1 else 1  # clockwise = decreasing angle
        ax.add_artist(
            FancyArrowPatch(
                _polar(radius, angle + 5 * step),
                _polar(radius, angle + 17 * step),
                connectionstyle=f"arc3,rad={0.12 * step}",
                arrowstyle="-|>,head_length=12,head_width=8",
                lw=3.5,
                color=PASSANTE_COLOUR,
                zorder=6,
            )
        )
    # a slender mauve figure: a long dress and a head
    figure: list[Patch] = [
        Polygon([(x - 0.3, y - 0.45), (x + 0.3, y - 0.45), (x, y + 0.3)], color=PASSANTE_COLOUR),
        Circle((x, y + 0.42), 0.15, color=PASSANTE_COLOUR),
    ]
    ax.add_collection(PatchCollection(figure, match_original=True, zorder=7), autolim=False)
    labels.add(x, y - 0.7, "Passante", 14, colour=PASSANTE_COLOUR, ha="center", va="center", weight="bold")


def _draw_header(labels: Labels, state: PassanteState, perspective: int | None) -> None:
    game = state.game
    turn = min(state.turns + 1, game.total_turns)
    if state.phase == OVER:
        status = "partie terminée"
    else:
        who = state.current_player
        if who < 0:
            status = "pioche et dé (hasard)"
        elif state.phase == EFFECT:
            status = f"{game.player_name(who)} : effet {PIECE_TITLES[state.eff]}"
        elif state.phase == SETUP:
            status = f"{game.player_name(who)} place la Passante"
        else:
            status = f"{game.player_name(who)} joue"
    view = "vue omnisciente" if perspective is None else f"vu par {game.player_name(perspective)}"
    title = f"A Une Passante — tour {turn}/{game.total_turns} · {status}"
    labels.add(X_MIN + 0.3, 9.0, title, 20, colour="#222", va="center", weight="bold")
    labels.add(X_MIN + 0.3, 8.4, view, 14, colour="#666", va="center", style="italic")


def _draw_panel(
    labels: Labels,
    state: PassanteState,
    hands: tuple[tuple[int, ...] | None, ...],
    perspective: int | None,
    bottom: float,
) -> None:
    """Score, then each player's block (two per row), then the tokens' abbreviations."""
    score = state.score()
    y = PANEL_TOP
    if state.phase == OVER:
        verdict = "Barème : " + textwrap.shorten(rating(score), 70, placeholder="…")
    else:
        left = state.game.total_turns - state.turns
        verdict = f"encore {left} tour(s) · Passante sortie {state.arrivals}/{state.game.num_players}"
    labels.add(
        X_MIN + 0.3, y, f"Souhaits exaucés : {score}", 18, colour=PASSANTE_COLOUR, va="center", weight="bold"
    )
    labels.add(X_MAX - 0.3, y, verdict, 12, colour="#555", ha="right", va="center", style="italic")
    top = y - 0.75
    half = (X_MAX - X_MIN) / 2
    for p in range(state.game.num_players):
        x = X_MIN + 0.3 + half * (p % 2)
        y = top - PLAYER_BLOCK * (p // 2)
        colour = PLAYER_COLOURS[p]
        card = state.char_hand[p]
        heart = state.hearts[p]
        held = PIECE_TITLES[card] if card >= 0 else "aucune"
        pinned = f" · ♥ sur {SHORT[heart]}" if heart >= 0 else ""
        mine = " (vous)" if perspective == p else ""
        labels.add(
            x, y, f"♥ {state.game.player_name(p)}{mine}", 15, colour=colour, va="center", weight="bold"
        )
        y -= LINE + 0.05
        labels.add(x + 0.2, y, f"carte : {held}{pinned}", 11.5, colour="#333", va="center")
        y -= LINE
        hand = hands[p]
        if hand is None:
            labels.add(
                x + 0.2, y, f"{len(state.hands[p])} souhait(s) caché(s)", 11.5, colour="#777", va="center"
            )
            y -= LINE
        else:
            for w in hand:
                labels.add(x + 0.2, y, _wish_line(w), 11, colour="#222", va="center")
                y -= LINE
        done = state.fulfilled[p]
        if done:
            titles = ", ".join(f"#{w + 1}" for w in done)
            labels.add(
                x + 0.2, y, textwrap.shorten(f"✓ exaucés : {titles}", 40), 11.5, colour="#2f7d45", va="center"
            )
    legend = textwrap.fill(legend_text(), 84)
    labels.add(X_MIN + 0.3, bottom + 0.15, legend, 11, colour="#555", va="bottom")


def _wish_line(wish: int) -> str:
    w = WISHES[wish]
    who = ", ".join(SHORT[c] for c in w.characters)
    title = textwrap.shorten(w.title, 22, placeholder="…")
    return f"#{wish + 1} {title} · {LOCATION_TITLES[w.zone]} : {who}"


def legend_text() -> str:
    """The abbreviations used on the tokens, for a caption."""
    return " · ".join(f"{s} = {PIECE_TITLES[c]}" for c, s in enumerate(SHORT))


def save_png(state: PassanteState, path: str, perspective: int | None = None, dpi: int = 80) -> None:
    """Draw and save (handy in scripts and tests)."""
    fig = draw_state(state, perspective=perspective)
    fig.savefig(path, dpi=dpi)
