"""Get on Board's column letters at 72, 100 and 150 dpi, as Jupyter shows them (tight crop).

At 72 dpi the letters were drawn "Ε/Γ/II": Agg snapped the outlines of letters made of straight
strokes only, and a one-pixel bar whose edges rounded together vanished.  The check reads the
pixels: a vertical cut through each letter's right half crosses as many bars as the letter has.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from PIL import Image

import gamelib
from gamelib.core.drawing import text_boxes

BARS = {"E": 3, "F": 2, "H": 1}
"""Horizontal bars a vertical cut through the letter's right part crosses."""


def _runs(column: np.ndarray) -> int:
    """Dark runs along a column of grey levels (0 = black)."""
    dark = column < 245  # any ink: at 72 dpi a grey bar anti-aliases to light greys
    return int(np.count_nonzero(dark[1:] & ~dark[:-1]) + dark[0])


@pytest.mark.parametrize("dpi", [72, 100, 150])
@pytest.mark.parametrize("tight", [False, True])
def test_column_letters_keep_their_bars(dpi: int, tight: bool) -> None:
    state = gamelib.make("getonboard", players=3, city="rome").new_game(seed=7)
    figure = state.draw()
    figure.set_dpi(dpi)
    boxes = {t.string: t for t in text_boxes(figure) if t.string in "ABCDEFGHIJK" and len(t.string) == 1}
    assert set("ABCDEFGHIJK") <= set(boxes), "every column letter is drawn"
    for t in boxes.values():  # inside the figure
        assert figure.bbox.x0 <= t.box.x0 and t.box.x1 <= figure.bbox.x1
        assert figure.bbox.y0 <= t.box.y0 and t.box.y1 <= figure.bbox.y1
    buffer = io.BytesIO()
    FigureCanvasAgg(figure)
    figure.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight" if tight else None)
    image = np.asarray(Image.open(buffer).convert("L"), dtype=float)
    x_shift = y_top = 0.0
    if tight:  # where the crop put the figure's origin (pad 0.1 inch)
        renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
        crop = figure.get_tightbbox(renderer).padded(0.1)
        x_shift = crop.x0 * dpi
        y_top = crop.y1 * dpi
    else:
        y_top = figure.bbox.height
    for letter, bars in BARS.items():
        box = boxes[letter].box
        x = round(box.x0 + 0.75 * box.width - x_shift)
        rows = slice(int(y_top - box.y1) - 2, int(np.ceil(y_top - box.y0)) + 2)
        found = max(_runs(image[rows, x + dx]) for dx in (-1, 0, 1))
        assert found == bars, f"{letter} at {dpi} dpi (tight={tight}): {found} bars, expected {bars}"


def test_the_map_key_keeps_the_language_of_its_figure() -> None:
    """A figure made in French and shown after switching back to English must not leave an English
    key cached for later French drawings (nor the reverse)."""
    import io

    import gamelib
    from gamelib.core.drawing import text_boxes
    from gamelib.core.i18n import using_language

    state = gamelib.make("getonboard").new_game(seed=0)

    def texts(fig: object) -> set[str]:
        return {box.string for box in text_boxes(fig)}  # type: ignore[arg-type]

    with using_language("fr"):
        french = state.draw()
    french.savefig(io.BytesIO(), format="png", dpi=72)  # rendered while English is in force
    with using_language("fr"):
        again = state.draw()
        again.savefig(io.BytesIO(), format="png", dpi=72)
        french_texts = texts(again)
    english = state.draw()
    english.savefig(io.BytesIO(), format="png", dpi=72)
    assert french_texts != texts(english)
    assert any("fleuve" in t for t in french_texts), sorted(french_texts)
    assert not any("river" in t for t in french_texts)
