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

from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch, Polygon

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
TOKEN_R = 0.4


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


def draw_state(state: PassanteState, ax: Axes | None = None, perspective: int | None = None) -> Figure:
    """Draw ``state`` as seen by ``perspective`` (None: every hand shown)."""
    obs = state.observation(perspective)  # validates perspective and hides what it may not see
    if ax is None:
        fig = Figure(figsize=(18, 7.6))
        ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    else:
        fig = ax.figure  # type: ignore[assignment]
    ax.set_xlim(-8.6, 20.8)
    ax.set_ylim(-2.3, 10.0)
    ax.set_aspect("equal")
    ax.axis("off")
    _draw_board(ax)
    _draw_pieces(ax, state)
    _draw_passante(ax, state)
    _draw_header(ax, state, perspective)
    _draw_panel(ax, state, obs.hands, perspective)
    return fig


def _draw_board(ax: Axes) -> None:
    for z in ZONES:
        a0, a1 = _angle(z, 1.0), _angle(z, 0.0)
        pts = [_polar(R_IN, a0), _polar(R_OUT, a0), _polar(R_OUT, a1), _polar(R_IN, a1)]
        ax.add_patch(Polygon(pts, closed=True, facecolor=ZONE_TINTS[z], edgecolor="#444", lw=2.5, zorder=1))
        x, y = _polar(R_OUT + 0.6, _angle(z, 0.5))
        ax.text(x, y, LOCATION_TITLES[z], ha="center", va="center", fontsize=21, weight="bold", color="#333")
    ax.add_patch(Circle((0, 0), R_IN - 0.25, facecolor="#efe7f5", edgecolor="#444", lw=2.5, zorder=1.2))
    ax.text(0, -1.5, "Place centrale", ha="center", va="center", fontsize=13, weight="bold", color="#5a3d6e")


def _draw_pieces(ax: Axes, state: PassanteState) -> None:
    filled = [0] * 5
    for c in CHARACTERS:
        loc = state.pos[c]
        x, y = _slot(loc, filled[loc])
        filled[loc] += 1
        colour = SOCLE_COLOURS[ZONE_SOCLE[START_ZONE[c]]]
        ax.add_patch(Circle((x, y), TOKEN_R, facecolor=colour, edgecolor="#222", lw=2, zorder=5))
        text_colour = "#222" if ZONE_SOCLE[START_ZONE[c]] in ("jaune", "gris") else "white"
        ax.text(
            x,
            y,
            SHORT[c],
            ha="center",
            va="center",
            fontsize=12.5,
            weight="bold",
            color=text_colour,
            zorder=6,
        )
        for k, p in enumerate(state.controllers(c)):
            hx, hy = x - 0.2 + 0.4 * k, y + 0.62
            ax.text(hx, hy, "♥", ha="center", va="center", fontsize=22, color=PLAYER_COLOURS[p], zorder=7)
            ax.text(
                hx,
                hy + 0.02,
                str(p + 1),
                ha="center",
                va="center",
                fontsize=9,
                color="white",
                weight="bold",
                zorder=8,
            )
    # the Omnibus: a coach at its location
    loc = state.bus
    if loc == PLACE:
        x, y = 0.55, -0.85
    else:
        x, y = _polar(_BUS_SLOT[0], _angle(loc, _BUS_SLOT[1]))
    ax.add_patch(
        FancyBboxPatch(
            (x - 0.62, y - 0.24),
            1.24,
            0.48,
            boxstyle="round,pad=0.02,rounding_size=0.15",
            facecolor="#6b4226",
            edgecolor="#222",
            lw=2,
            zorder=4,
        )
    )
    for dx in (-0.38, 0.38):
        ax.add_patch(Circle((x + dx, y - 0.26), 0.1, facecolor="#222", zorder=4.5))
    ax.text(
        x,
        y + 0.02,
        "Omnibus",
        ha="center",
        va="center",
        fontsize=10.5,
        color="#f5e6c8",
        weight="bold",
        zorder=5,
    )


def _draw_passante(ax: Axes, state: PassanteState) -> None:
    loc, direction = state.passante, state.pdir
    radius = R_OUT + 1.55
    if loc == PLACE:
        x, y = -2.2, -0.85
        back = "revient → par l'école" if direction == 1 else "revient ← par le café"
        ax.text(
            -2.2, -2.05, back, ha="center", va="center", fontsize=13, color=PASSANTE_COLOUR, weight="bold"
        )
    else:
        # beside her zone's name, towards the middle of the board; the arrow points where she goes
        angle = _angle(loc, 0.78 if loc in (0, 1) else 0.22)
        x, y = _polar(radius, angle)
        step = -1 if direction == 1 else 1  # clockwise = decreasing angle
        ax.add_patch(
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
    ax.add_patch(
        Polygon([(x - 0.3, y - 0.45), (x + 0.3, y - 0.45), (x, y + 0.3)], color=PASSANTE_COLOUR, zorder=7)
    )
    ax.add_patch(Circle((x, y + 0.42), 0.15, color=PASSANTE_COLOUR, zorder=7))
    ax.text(
        x, y - 0.7, "Passante", ha="center", va="center", fontsize=14, color=PASSANTE_COLOUR, weight="bold"
    )


def _draw_header(ax: Axes, state: PassanteState, perspective: int | None) -> None:
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
    ax.text(
        -8.0,
        9.5,
        f"A Une Passante — tour {turn}/{game.total_turns} · {status}",
        fontsize=20,
        weight="bold",
        va="center",
        color="#222",
    )
    ax.text(-8.0, 8.9, view, fontsize=14, va="center", color="#666", style="italic")


def _draw_panel(
    ax: Axes, state: PassanteState, hands: tuple[tuple[int, ...] | None, ...], perspective: int | None
) -> None:
    x0 = 9.4
    score = state.score()
    ax.text(
        x0, 9.3, f"Souhaits exaucés : {score}", fontsize=24, weight="bold", color=PASSANTE_COLOUR, va="center"
    )
    if state.phase == OVER:
        verdict = "Barème : " + textwrap.fill(rating(score), 60)
    else:
        left = state.game.total_turns - state.turns
        verdict = (
            f"encore {left} tour(s) · la Passante a quitté la rue "
            f"{state.arrivals} fois sur {state.game.num_players}"
        )
    ax.text(
        x0,
        8.7,
        verdict,
        fontsize=13,
        style="italic",
        color="#555",
        va="top",
    )
    y = 7.5
    for p in range(state.game.num_players):
        colour = PLAYER_COLOURS[p]
        card = state.char_hand[p]
        heart = state.hearts[p]
        held = PIECE_TITLES[card] if card >= 0 else "aucune"
        pinned = f" · ♥ sur {PIECE_TITLES[heart]}" if heart >= 0 else ""
        mine = " (vous)" if perspective == p else ""
        ax.text(
            x0,
            y,
            f"♥ {state.game.player_name(p)}{mine}",
            fontsize=18,
            weight="bold",
            color=colour,
            va="center",
        )
        ax.text(x0 + 4.3, y, f"carte : {held}{pinned}", fontsize=14, color="#333", va="center")
        y -= 0.58
        hand = hands[p]
        if hand is None:
            ax.text(
                x0 + 0.3,
                y,
                f"{len(state.hands[p])} souhait(s) caché(s)",
                fontsize=14,
                color="#777",
                va="center",
            )
            y -= 0.5
        else:
            for w in hand:
                ax.text(x0 + 0.3, y, _wish_line(w), fontsize=13.5, color="#222", va="center")
                y -= 0.5
        done = state.fulfilled[p]
        if done:
            titles = ", ".join(f"#{w + 1}" for w in done)
            ax.text(
                x0 + 0.3,
                y,
                textwrap.shorten(f"✓ exaucés : {titles}", 62),
                fontsize=13.5,
                color="#2f7d45",
                va="center",
            )
            y -= 0.5
        y -= 0.18

    ax.text(x0, -1.75, textwrap.fill(legend_text(), 95), fontsize=11, color="#555", va="center")


def _wish_line(wish: int) -> str:
    w = WISHES[wish]
    who = ", ".join(SHORT[c] for c in w.characters)
    title = textwrap.shorten(w.title, 34, placeholder="…")
    return f"#{wish + 1} {title} — {LOCATION_TITLES[w.zone]} : {who}"


def legend_text() -> str:
    """The abbreviations used on the tokens, for a caption."""
    return " · ".join(f"{s} = {PIECE_TITLES[c]}" for c, s in enumerate(SHORT))


def save_png(state: PassanteState, path: str, perspective: int | None = None, dpi: int = 80) -> None:
    """Draw and save (handy in scripts and tests)."""
    fig = draw_state(state, perspective=perspective)
    fig.savefig(path, dpi=dpi)
