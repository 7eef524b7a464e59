"""Drawing primitives shared by the games' ``draw.py``: fast labels and cached static layers.

A widget redraws the board at every step, and two things dominate a naive matplotlib redraw:

* **Text.**  One ``Text`` artist costs 1-2 ms to lay out and render, and a board has a hundred
  labels.  Labels are drawn instead as glyph outlines (:class:`~matplotlib.textpath.TextPath`,
  cached per character and per string) gathered in one :class:`LabelCollection` per layer.
  :class:`Labels` collects them with matplotlib's ``Text`` vocabulary (points, ``ha``, ``va``,
  rotation, several lines, a frame); :func:`glyph_ink` serves painters that place text in data
  units themselves.  The strings stay inspectable: :func:`label_strings` lists what a figure
  says, which is how tests check that a perspective shows no hidden information.
* **The static board.**  :class:`Backdrop` draws the parts that never change during a game once
  per resolution into an image and pastes it on later redraws.

This module knows matplotlib only, never a game: games do not import each other, they import
this.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.collections import PathCollection
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties, findfont, get_font
from matplotlib.ft2font import LoadFlags
from matplotlib.patches import BoxStyle
from matplotlib.path import Path
from matplotlib.text import Text
from matplotlib.textpath import TextPath
from matplotlib.transforms import Affine2D, Bbox, BboxBase

from gamelib.core.i18n import Wording

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from gamelib.core.game import State

__all__ = [
    "ASCENT",
    "DESCENT",
    "LINE_SPACING",
    "Backdrop",
    "FontStyle",
    "LabelCollection",
    "Labels",
    "cached_static_layers",
    "clear_static_layers",
    "glyph_ink",
    "glyph_line",
    "label_strings",
    "public_moves",
    "public_view_label",
    "text_boxes",
]

_WORDS = Wording("gamelib.core")

FontStyle = Literal["normal", "italic"]
ASCENT, DESCENT = 0.76, 0.24
"""DejaVu Sans ascent and descent in ems, as matplotlib aligns a line ("top", "bottom")."""
LINE_SPACING = 1.2


@functools.cache
def _font(weight: str, style: FontStyle) -> FontProperties:
    return FontProperties(family="DejaVu Sans", weight=weight, style=style)


@functools.cache
def _char(char: str, weight: str, style: FontStyle) -> tuple[Path, float]:
    """One character's outline at font size 1 (em = 1 unit) and its advance width."""
    prop = _font(weight, style)
    font = get_font(findfont(prop))
    font.set_size(100, 72)  # as TextPath does: 100 pt at 72 dpi, so points / 100 = em
    advance = font.load_char(ord(char), flags=LoadFlags.NO_HINTING).linearHoriAdvance / 65536 / 100
    if char.isspace():  # no outline (and TextPath fails on an empty one)
        return Path(np.empty((0, 2))), advance
    return TextPath((0, 0), char, size=1, prop=prop), advance


@functools.lru_cache(maxsize=4096)
def glyph_line(line: str, weight: str, style: FontStyle) -> tuple[Path, float]:
    """The outline of one line of text at font size 1, baseline at y = 0, and its advance width.

    Built from cached characters (a new ``TextPath`` costs ~3 ms); no kerning, which DejaVu Sans
    barely uses.
    """
    parts, x = [], 0.0
    for char in line:
        path, advance = _char(char, weight, style)
        vertices = np.asarray(path.vertices)
        if len(vertices):
            parts.append(Path(vertices + np.array([x, 0.0]), path.codes))
        x += advance
    if not parts:
        return Path(np.empty((0, 2))), x
    return Path.make_compound_path(*parts), x


@functools.lru_cache(maxsize=4096)
def glyph_ink(text: str, weight: str = "normal", style: FontStyle = "normal") -> tuple[Path, float, float]:
    """The outline of ``text`` at font size 1 with the left and right x of its ink.

    For painters that centre labels on their ink rather than on their advance width (Fugitive's
    card numbers).  The span is that of the control points: as good as the exact ink for
    alignment, and far cheaper.
    """
    path, _ = glyph_line(text, weight, style)
    vertices = np.asarray(path.vertices)
    if not len(vertices):
        return path, 0.0, 0.0
    xs = vertices[:, 0]
    return path, float(xs.min()), float(xs.max())


class LabelCollection(PathCollection):
    """Text drawn as glyph outlines in one artist; ``strings`` lists what it says, in order.

    Far faster to render than one ``Text`` per label, and the strings stay inspectable (the
    tests read them to check that a perspective shows no hidden information).
    """

    strings: tuple[str, ...] = ()
    bound: Literal["axes", "figure"] = "axes"
    """Where every label must lie: inside its axes, or only inside the figure (titles, margins)."""
    named: bool = False
    """Names (places, zones, titles): no two named labels of a figure may overlap."""

    def label_extents(self) -> list[Bbox]:
        """Each label's ink box in pixels (control points of its outline: a hair generous)."""
        if not self.get_paths():
            return []
        transform = self.get_transform()
        anchors = self.get_offset_transform().transform(self.get_offsets())
        if len(anchors) != len(self.get_paths()):  # offsets cycle, as matplotlib draws them
            anchors = np.resize(anchors, (len(self.get_paths()), 2))
        boxes = []
        for path, anchor in zip(self.get_paths(), anchors, strict=True):
            vertices = transform.transform(np.asarray(path.vertices)) + anchor
            boxes.append(Bbox([vertices.min(axis=0), vertices.max(axis=0)]))
        return boxes

    def get_window_extent(self, renderer: Any = None) -> Bbox:
        """The union of the labels' boxes: ``bbox_inches="tight"`` (Jupyter) then keeps them all.

        (A collection's own extent ignores offsets in axes or figure units, and the crop cut
        titles and bar labels away.)
        """
        boxes = self.label_extents()
        return Bbox.union(boxes) if boxes else Bbox.null()


@dataclass
class Labels:
    """Labels gathered in points around anchors in data (or axes) coordinates, emitted at once.

    ``add`` takes matplotlib's ``Text`` vocabulary (font size in points, ``ha``, ``va``,
    ``weight``, ``style``, ``rotation``, several lines), so the drawing reads as before.
    """

    paths: list[Path] = field(default_factory=list)
    anchors: list[tuple[float, float]] = field(default_factory=list)
    colours: list[str] = field(default_factory=list)
    strings: list[str] = field(default_factory=list)
    boxes: list[tuple[Path, tuple[float, float], str, str, float]] = field(default_factory=list)

    def add(
        self,
        x: float,
        y: float,
        text: str,
        size: float,
        colour: str = "#222222",
        ha: str = "left",
        va: str = "baseline",
        weight: str = "normal",
        style: FontStyle = "normal",
        rotation: float = 0.0,
        offset: tuple[float, float] = (0.0, 0.0),
        box: tuple[str, str, float] | None = None,
        box_style: str = "round",
    ) -> None:
        """``text`` of ``size`` points anchored at (x, y), shifted by ``offset`` points.

        ``box`` = (face, edge, pad in ems) frames it, as a ``Text`` bbox does.
        """
        lines = text.split("\n")
        step = LINE_SPACING
        first = {
            "baseline": 0.0,
            "top": -ASCENT,
            "bottom": DESCENT + (len(lines) - 1) * step,
            "center": ((len(lines) - 1) * step + DESCENT - ASCENT) / 2,
        }[va]
        parts, left, right = [], 0.0, 0.0
        for i, line in enumerate(lines):
            path, width = glyph_line(line, weight, style)
            shift = {"left": 0.0, "center": -width / 2, "right": -width}[ha]
            left, right = min(left, shift), max(right, shift + width)
            vertices = np.asarray(path.vertices)
            if len(vertices):
                parts.append(Path(vertices + np.array([shift, first - i * step]), path.codes))
        placed = Affine2D().scale(size).rotate_deg(rotation).translate(*offset)
        if box is not None:
            face, edge, pad = box
            bottom = first - (len(lines) - 1) * step - DESCENT
            frame: Any = BoxStyle(box_style, pad=pad)  # a BoxStyle subclass instance, callable
            outline = frame(left, bottom, right - left, first + ASCENT - bottom, 1.0)
            self.boxes.append((placed.transform_path(outline), (x, y), face, edge, size))
        if parts:
            self.paths.append(placed.transform_path(Path.make_compound_path(*parts)))
            self.anchors.append((x, y))
            self.colours.append(colour)
            self.strings.append(text)

    def emit(
        self,
        ax: Axes,
        zorder: float = 5,
        coordinates: Literal["data", "axes", "figure"] = "data",
        bound: Literal["axes", "figure"] | None = None,
        named: bool = False,
    ) -> LabelCollection:
        """Add the labels (and their boxes just under them) to ``ax`` as two artists.

        ``bound`` says where they must stay (default: the axes, or the figure for labels placed
        in figure coordinates); ``named`` marks names that must not overlap one another.  Both
        are promises the tests check (:func:`text_boxes`), not layout.
        """
        points = Affine2D().scale(1 / 72) + ax.figure.dpi_scale_trans  # path units are points
        anchor = {"data": ax.transData, "axes": ax.transAxes, "figure": ax.figure.transFigure}[coordinates]
        if self.boxes:
            frames = PathCollection(
                [b[0] for b in self.boxes],
                offsets=[b[1] for b in self.boxes],
                offset_transform=anchor,
                facecolors=[b[2] for b in self.boxes],
                edgecolors=[b[3] for b in self.boxes],
                linewidths=1.0,
                zorder=zorder - 0.01,
            )
            frames.set_transform(points)
            frames.set_clip_on(False)  # as a Text's bbox
            frames.set_snap(False)
            ax.add_collection(frames, autolim=False)
        labels = LabelCollection(
            self.paths,
            offsets=self.anchors or None,
            offset_transform=anchor,
            facecolors=self.colours,
            edgecolors="none",
            linewidths=0,
            zorder=zorder,
        )
        labels.set_transform(points)
        labels.set_clip_on(False)  # as a Text
        # Never snap glyphs to the pixel grid: Agg snaps paths made of straight horizontal and
        # vertical strokes only (E, F, H, L, T...), and at 72 dpi a bar one pixel thick whose two
        # edges round to the same pixel vanishes ("F" drawn as "Γ", "H" as "II").
        labels.set_snap(False)
        labels.strings = tuple(self.strings)
        labels.bound = bound or ("figure" if coordinates == "figure" else "axes")
        labels.named = named
        ax.add_collection(labels, autolim=False)
        return labels


# ------------------------------------------------------------------ the static layer, cached
_BACKDROPS: OrderedDict[tuple[Hashable, ...], np.ndarray] = OrderedDict()
_BACKDROPS_KEPT = 32
"""Images kept (least recently used dropped): a few layers x resolutions x open games."""


class Backdrop(Artist):
    """The static part of a board, drawn once per resolution into an image then pasted.

    ``build(ax)`` adds the static artists to a blank axes with the same place and limits as the
    real one.  Raster output (the Stepper's PNG) reuses the image cached under ``key`` and the
    exact pixel geometry, so a redraw pays for the moving pieces only; vector output (PDF, SVG)
    draws the built artists themselves, so it stays sharp.
    """

    def __init__(self, key: Hashable, build: Callable[[Axes], None], zorder: float) -> None:
        super().__init__()
        self._key = key
        self._build = build
        self.set_zorder(zorder)

    def _scratch(
        self, width: float, height: float, dpi: float, place: tuple[float, float, float, float] | None = None
    ) -> Axes:
        """A transparent figure of the same size holding the static artists where ``axes`` is.

        ``place`` is the axes' box in fractions of that figure (default: its position).  At draw
        time it comes from the axes' pixels, which is where the axes really are when the figure is
        saved with ``bbox_inches="tight"`` (as Jupyter shows figures): the canvas is then cropped
        and the axes shifted, while ``get_position`` still speaks of the uncropped figure.
        """
        axes = self.axes
        assert axes is not None
        scratch = Figure(figsize=(width / dpi, height / dpi), dpi=dpi, facecolor="none")
        ax = scratch.add_axes(place if place is not None else axes.get_position().bounds)
        ax.set_xlim(axes.get_xlim())
        ax.set_ylim(axes.get_ylim())
        ax.set_axis_off()
        self._build(ax)
        return ax

    def get_window_extent(self, renderer: Any = None) -> Bbox:
        """The axes' box: what a tight crop must keep of a static layer."""
        return Bbox(self.axes.bbox.get_points()) if self.axes is not None else Bbox.null()

    def strings(self) -> tuple[str, ...]:
        """What the static labels say (the tests read it: the image itself is not searchable)."""
        figure = self.get_figure(root=True)
        assert figure is not None
        ax = self._scratch(figure.bbox.width, figure.bbox.height, figure.dpi)
        return tuple(s for c in ax.collections if isinstance(c, LabelCollection) for s in c.strings)

    def draw(self, renderer: Any) -> None:
        axes = self.axes
        if not self.get_visible() or axes is None:
            return
        width, height, dpi = renderer.width, renderer.height, renderer.dpi
        x0, y0, w, h = axes.bbox.bounds  # pixels, as drawn now (cropped or not)
        place = (x0 / width, y0 / height, w / width, h / height)
        if not isinstance(renderer, RendererAgg):  # vector output: the artists themselves
            self._scratch(width, height, dpi, place).draw(renderer)
            return
        key = (
            self._key,
            width,
            height,
            dpi,
            tuple(round(v, 3) for v in axes.bbox.bounds),
            axes.get_xlim(),
            axes.get_ylim(),
        )
        image = _BACKDROPS.get(key)
        if image is None:
            scratch = self._scratch(width, height, dpi, place).get_figure(root=True)
            assert isinstance(scratch, Figure)
            canvas = FigureCanvasAgg(scratch)
            canvas.draw()
            # Agg's buffer runs top to bottom; draw_image wants the rows bottom to top
            image = np.ascontiguousarray(np.asarray(canvas.buffer_rgba())[::-1])
            _BACKDROPS[key] = image
            while len(_BACKDROPS) > _BACKDROPS_KEPT:
                _BACKDROPS.popitem(last=False)
        else:
            _BACKDROPS.move_to_end(key)
        gc = renderer.new_gc()
        renderer.draw_image(gc, 0, 0, image)
        gc.restore()
        self.stale = False


def clear_static_layers() -> None:
    """Forget every cached static-layer image (tests start cold with it)."""
    _BACKDROPS.clear()


def cached_static_layers() -> int:
    """How many static-layer images are cached now."""
    return len(_BACKDROPS)


def label_strings(figure: Figure) -> list[str]:
    """Every string ``figure`` shows: its Text artists, glyph labels and cached static layers.

    The labels are outlines and the static layers images, so this is how tests (and anyone
    checking what a perspective reveals) read a drawing.
    """
    strings: list[str] = []
    for ax in figure.axes:
        strings += [t.get_text() for t in ax.texts]
        for artist in ax.get_children():
            if isinstance(artist, LabelCollection):
                strings += artist.strings
            elif isinstance(artist, Backdrop):
                strings += artist.strings()
    return strings


@dataclass(frozen=True)
class TextBox:
    """Where one text of a figure is drawn, in pixels, and the box it must stay inside."""

    string: str
    box: BboxBase
    bound: BboxBase
    named: bool


def _collection_boxes(collection: LabelCollection, bound: BboxBase) -> list[TextBox]:
    extents = collection.label_extents()
    strings = collection.strings
    if len(strings) != len(extents):  # a painter that names its outlines otherwise (Fugitive's cards)
        strings = ("",) * len(extents)
    return [
        TextBox(string, box, bound, collection.named) for string, box in zip(strings, extents, strict=True)
    ]


def text_boxes(figure: Figure) -> list[TextBox]:
    """Every text ``figure`` shows with its ink box in pixels (the figure drawn at its dpi).

    Glyph labels (live and in static layers), ``Text`` artists, titles, tick and axis labels.
    A label's bound is its axes' box, or the figure's for titles, ticks and labels emitted with
    ``bound="figure"``: tests check that no text leaves its bound and that names do not overlap.
    """
    canvas = figure.canvas
    if not isinstance(canvas, FigureCanvasAgg):
        canvas = FigureCanvasAgg(figure)
    canvas.draw()
    renderer = canvas.get_renderer()
    whole = figure.bbox
    found: list[TextBox] = []
    for ax in figure.axes:
        inside = ax.bbox
        texts: list[tuple[Text, BboxBase]] = [(t, inside) for t in ax.texts]
        titles = (ax.title, getattr(ax, "_left_title", None), getattr(ax, "_right_title", None))
        texts += [(t, whole) for t in titles if t is not None]
        if ax.axison:
            for axis in (ax.xaxis, ax.yaxis):
                texts += [(t, whole) for t in axis.get_ticklabels() if t.get_visible()]
                texts.append((axis.label, whole))
        for text, bound in texts:
            if text.get_visible() and text.get_text():
                box = text.get_window_extent(renderer)
                found.append(TextBox(text.get_text(), box, bound, False))
        for artist in ax.get_children():
            if isinstance(artist, LabelCollection):
                found += _collection_boxes(artist, inside if artist.bound == "axes" else whole)
            elif isinstance(artist, Backdrop):
                scratch = artist._scratch(whole.width, whole.height, figure.dpi, _place(ax, whole))
                for c in scratch.collections:
                    if isinstance(c, LabelCollection):
                        found += _collection_boxes(c, inside if c.bound == "axes" else whole)
    return found


def _place(ax: Axes, whole: BboxBase) -> tuple[float, float, float, float]:
    x0, y0, w, h = ax.bbox.bounds
    return (x0 / whole.width, y0 / whole.height, w / whole.width, h / whole.height)


# ---------------------------------------------------------------------------- the public perspective
def public_view_label() -> str:
    """How a public drawing (``perspective=gamelib.PUBLIC``) names its viewer, in the language in force."""
    return _WORDS("public_view")


def public_moves(state: State) -> tuple[str, ...]:
    """The history as every seat saw it: a step is masked (``"bid ?"``, ``"draw ?"``...) when any
    seat could not see it, with the mask that seat saw.  What a public drawing may quote."""
    moves = list(state.public_history(None))
    full = tuple(moves)
    for seat in range(state.game.num_players):
        for i, seen in enumerate(state.public_history(seat)):
            if seen != full[i]:
                moves[i] = seen
    return tuple(moves)
