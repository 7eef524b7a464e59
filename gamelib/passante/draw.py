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

from gamelib.core.drawing import Labels, public_view_label
from gamelib.core.game import CHANCE, PUBLIC, Perspective
from gamelib.core.i18n import Wording
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
from gamelib.passante.rules import (
    CARD_DRAW,
    DIE,
    EFFECT,
    EVENT,
    OVER,
    RATING_BANDS,
    SETUP,
    VETO_PHASE,
    WINDOW,
    WISHES,
)

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
WORDS = Wording(__package__)
"""What the drawing says, in English or French (``gamelib.set_language``)."""


def _angle(zone: int, frac: float) -> float:
    """Angle (degrees) inside ``zone``'s wedge: frac 0 = its left edge, 1 = its right edge."""
    return 180.0 - 45.0 * (zone + frac)


def _polar(radius: float, degrees: float) -> tuple[float, float]:
    a = math.radians(degrees)
    return radius * math.cos(a), radius * math.sin(a)


# Token slots in a wedge, drawn for the wedge standing upright (its middle ray along +y, its sides
# the rays at 67.5 and 112.5 degrees, its inner and outer edges the chords y = 2.12 and y = 5.73)
# then turned to each zone: four on an outer row, three on a middle row, one by the Place.  Each
# token keeps 0.5 from the wedge's sides and room above it (outwards) for its controllers' hearts.
_WEDGE_SLOTS = (
    (-1.5, 4.95),
    (-0.5, 4.95),
    (0.5, 4.95),
    (1.5, 4.95),
    (-0.95, 3.75),
    (0.0, 3.75),
    (0.95, 3.75),
    (0.0, 2.62),
)
BUS_SPOTS = {0: (-7.0, 0.8), 1: (-4.75, 6.05), 2: (4.75, 6.05), 3: (7.0, 0.8)}
"""Where the Omnibus parks by a zone: outside it, beside its name, on the side away from the
Passante's usual spot (a full zone has no room for the coach)."""
HEART_LIFT, HEART_SIZE = 0.55, 22
"""Hearts sit this far outwards from their token's centre, at this size in points."""
_PLACE_SLOTS = (
    (-0.97, 1.0),
    (0.0, 1.0),
    (0.97, 1.0),
    (-1.45, -0.15),
    (-0.48, -0.15),
    (0.48, -0.15),
    (1.45, -0.15),
    (-0.85, -1.25),
)
"""Token slots on the Place: three rows inside its circle, hearts clear of the row above."""
PLACE_BUS = (0.55, -1.25)
PLACE_TITLE = (1.9, -1.6)
""""Place centrale" is written outside the circle, at its lower right (the circle is full)."""


def _turn(loc: int, x: float, y: float) -> tuple[float, float]:
    """(x, y) of the upright wedge's frame turned onto zone ``loc``'s wedge."""
    a = math.radians(_angle(loc, 0.5) - 90.0)
    return x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)


def _slot(loc: int, index: int) -> tuple[float, float]:
    if loc == PLACE:
        return _PLACE_SLOTS[index % len(_PLACE_SLOTS)]
    return _turn(loc, *_WEDGE_SLOTS[index % len(_WEDGE_SLOTS)])


def _outwards(loc: int) -> tuple[float, float]:
    """The direction a token's hearts go: up on the Place, away from the centre in a zone."""
    return (0.0, 1.0) if loc == PLACE else _turn(loc, 0.0, 1.0)


def _panel_bottom(num_players: int) -> float:
    """The lowest y of the players' panel under the board: two columns of player blocks."""
    rows = (num_players + 1) // 2
    return PANEL_TOP - 0.75 - rows * PLAYER_BLOCK - LEGEND_ROOM


def draw_state(state: PassanteState, ax: Axes | None = None, perspective: Perspective = None) -> Figure:
    """Draw ``state`` as seen by ``perspective`` (None: every hand shown; ``PUBLIC``: each hand as
    the next seat sees it, so only its size unless hands are open).

    The board sits on top and the players' panel under it, in two columns: a figure about
    9.5 inches wide, so that the Stepper's PNG is shown near its natural size in a notebook
    and its smallest labels (11 pt) stay readable on a projector.
    """
    if perspective == PUBLIC:
        n = state.game.num_players
        hands = tuple(state.observation((p + 1) % n).hands[p] for p in range(n))
    else:  # validates perspective and hides what it may not see
        hands = state.observation(perspective).hands
    bottom = _panel_bottom(state.game.num_players)
    if ax is None:
        fig = Figure(figsize=(FIGURE_WIDTH, FIGURE_WIDTH * (BOARD_TOP - bottom) / (X_MAX - X_MIN)))
        ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    else:
        root = ax.get_figure(root=True)
        assert root is not None  # an Axes always belongs to a figure
        fig = root
    ax.set_xlim(X_MIN, X_MAX)
    ax.set_ylim(bottom, BOARD_TOP)
    ax.set_aspect("equal")
    ax.axis("off")
    labels = Labels()  # everything written outside the tokens, in one artist
    _draw_board(ax, labels)
    _draw_pieces(ax, state)
    _draw_passante(ax, state, labels)
    _draw_header(labels, state, perspective)
    _draw_panel(labels, state, hands, perspective, bottom)
    labels.emit(ax, zorder=9, named=True)
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
    labels.add(*PLACE_TITLE, LOCATION_TITLES[PLACE], 13, colour="#5a3d6e", va="center", weight="bold")


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
        ux, uy = _outwards(loc)
        controllers = state.controllers(c)
        for k, p in enumerate(controllers):
            side = 0.34 * (k - (len(controllers) - 1) / 2)  # side by side, across the lift
            hx, hy = x + HEART_LIFT * ux + side * uy, y + HEART_LIFT * uy - side * ux
            hearts.add(hx, hy, "♥", HEART_SIZE, colour=PLAYER_COLOURS[p], ha="center", va="center")
            numbers.add(hx, hy + 0.03, str(p + 1), 9, colour="white", ha="center", va="center", weight="bold")
    # the Omnibus: a coach at its location (by a zone: parked outside it)
    x, y = PLACE_BUS if state.bus == PLACE else BUS_SPOTS[state.bus]
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
        # beside the Place, left of its circle, clear of "Place centrale"
        x, y = -3.7, -0.75
        back = WORDS("back_from_ecole" if direction == 1 else "back_from_cafe")
        labels.add(x, -2.0, back, 13, colour=PASSANTE_COLOUR, ha="center", va="center", weight="bold")
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


def _name(player: int) -> str:
    """A player's name in the language in force ("player 1", "joueur 1")."""
    return WORDS("player", n=player + 1)


def status_line(state: PassanteState) -> str:
    """Who acts now, as a sentence in the language in force ("Player 1 plays.", "La partie est
    terminée."); players numbered from 1."""
    if state.phase == OVER and not state.pending:
        return WORDS("over")
    who = state.current_player
    if who == CHANCE:
        if state.pending:
            return _sentence(WORDS("deal", player=_name(state.pending[0])))
        key = {CARD_DRAW: "card_draw", DIE: "die", EVENT: "event"}.get(state.phase, "chance")
        return _sentence(WORDS(key, player=_name(state.turn_player)))
    if state.phase == EFFECT:
        return _sentence(WORDS("effect", player=_name(who), piece=PIECE_TITLES[state.eff]))
    key = {SETUP: "setup", WINDOW: "window", VETO_PHASE: "veto"}.get(state.phase, "plays")
    return _sentence(WORDS(key, player=_name(who)))


def _sentence(text: str) -> str:
    """A status sentence starts with a capital ("Player 2 …", "On demande à joueur 2 …")."""
    return text[:1].upper() + text[1:]


def rating_text(score: int) -> str:
    """The seed's verdict for ``score`` wishes fulfilled, in the language in force."""
    for low, high, _ in RATING_BANDS:
        if low <= score <= high:
            return WORDS(f"rating_{low}")
    raise ValueError(f"score must be between 0 and {len(WISHES)}, got {score}")


def _draw_header(labels: Labels, state: PassanteState, perspective: Perspective) -> None:
    game = state.game
    turn = min(state.turns + 1, game.total_turns)
    if perspective == PUBLIC or perspective is None:
        view = public_view_label() if perspective == PUBLIC else WORDS("omniscient")
    else:
        view = WORDS("seen_by", player=_name(perspective))
    title = WORDS("title", turn=turn, total=game.total_turns, status=status_line(state))
    labels.add(X_MIN + 0.3, 9.0, title, 20, colour="#222", va="center", weight="bold")
    labels.add(X_MIN + 0.3, 8.4, view, 14, colour="#666", va="center", style="italic")


def _draw_panel(
    labels: Labels,
    state: PassanteState,
    hands: tuple[tuple[int, ...] | None, ...],
    perspective: Perspective,
    bottom: float,
) -> None:
    """Score, then each player's block (two per row), then the tokens' abbreviations."""
    score = state.score()
    y = PANEL_TOP
    if state.phase == OVER:
        verdict = WORDS("rating", text=textwrap.shorten(rating_text(score), 62, placeholder="…"))
    else:
        left = state.game.total_turns - state.turns
        verdict = WORDS("turns_left", left=left, arrivals=state.arrivals, players=state.game.num_players)
    labels.add(
        X_MIN + 0.3,
        y,
        WORDS("wishes_fulfilled", score=score),
        18,
        colour=PASSANTE_COLOUR,
        va="center",
        weight="bold",
    )
    labels.add(X_MAX - 0.3, y, verdict, 11, colour="#555", ha="right", va="center", style="italic")
    top = y - 0.75
    half = (X_MAX - X_MIN) / 2
    for p in range(state.game.num_players):
        x = X_MIN + 0.3 + half * (p % 2)
        y = top - PLAYER_BLOCK * (p // 2)
        colour = PLAYER_COLOURS[p]
        card = state.char_hand[p]
        heart = state.hearts[p]
        held = PIECE_TITLES[card] if card >= 0 else WORDS("no_card")
        pinned = WORDS("heart_on", token=SHORT[heart]) if heart >= 0 else ""
        mine = WORDS("you") if perspective == p else ""
        labels.add(x, y, f"♥ {_name(p)}{mine}", 15, colour=colour, va="center", weight="bold")
        y -= LINE + 0.05
        labels.add(x + 0.2, y, WORDS("card", card=held, pinned=pinned), 11.5, colour="#333", va="center")
        y -= LINE
        hand = hands[p]
        if hand is None:
            hidden = WORDS("hidden_wishes", n=len(state.hands[p]))
            labels.add(x + 0.2, y, hidden, 11.5, colour="#777", va="center")
            y -= LINE
        else:
            for w in hand:
                labels.add(x + 0.2, y, _wish_line(w), 11, colour="#222", va="center")
                y -= LINE
        done = state.fulfilled[p]
        if done:
            titles = ", ".join(f"#{w}" for w in done)
            labels.add(
                x + 0.2,
                y,
                textwrap.shorten(WORDS("fulfilled", wishes=titles), 40),
                11.5,
                colour="#2f7d45",
                va="center",
            )
    legend = textwrap.fill(legend_text(), 84)
    labels.add(X_MIN + 0.3, bottom + 0.15, legend, 11, colour="#555", va="bottom")


def _wish_line(wish: int) -> str:
    w = WISHES[wish]
    who = ", ".join(SHORT[c] for c in w.characters)
    title = textwrap.shorten(w.title, 22, placeholder="…")
    return f"#{wish} {title} · {LOCATION_TITLES[w.zone]} : {who}"


def legend_text() -> str:
    """The abbreviations used on the tokens, for a caption."""
    return " · ".join(f"{s} = {PIECE_TITLES[c]}" for c, s in enumerate(SHORT))
