"""Pictures for the widgets: one PNG encoder tuned for a click, and one cache of encoded pictures.

A click in a notebook waits for the board's PNG: matplotlib's Agg drawing, the PNG encoding, then
the bytes travelling to the browser (base64 in a websocket message) and being decoded there.  The
drawings are line art in a few dozen colours, so :func:`figure_png` encodes them as a 256-colour
palette PNG with light compression: about a third of the bytes of matplotlib's RGBA ``savefig``
for the same kernel time, hence less to send and to decode on every click.

:class:`PngCache` keeps encoded pictures by key (the stepper's board, the game panels), so undo,
redo and a change of view back and forth redraw nothing.  The language in force is part of every
key, so a picture in English is never shown after ``gamelib.set_language("fr")``.
"""

from __future__ import annotations

import io
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from gamelib.core.i18n import language

PNG_SPEED: dict[str, Any] = {"compress_level": 1}
"""PNG encoding for the live pictures: light compression (files about as small, encoded up to
twice as fast as the default level 6, which is most of a click on a busy machine)."""

Value = TypeVar("Value")


def figure_png(figure: Figure, dpi: float, tight: bool = False) -> bytes:
    """``figure`` as PNG bytes at ``dpi``, drawn on an Agg canvas and encoded with a palette.

    ``tight`` crops to the content (matplotlib's ``bbox_inches="tight"``), which costs a second
    layout pass: the widgets leave it off.
    """
    buffer = io.BytesIO()
    if tight:
        figure.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight", pil_kwargs=PNG_SPEED)
        return buffer.getvalue()
    figure.set_dpi(dpi)
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    width, height = canvas.get_width_height(physical=True)
    rgba = Image.frombuffer("RGBA", (width, height), canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
    # Line art antialiased on a light background: 256 colours without dithering look the same
    # and shrink the file about three times (fewer bytes to send and decode on every click).
    palette = rgba.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    palette.save(buffer, format="png", **PNG_SPEED)
    return buffer.getvalue()


class PngCache(Generic[Value]):
    """Encoded pictures by key, the least recently used dropped past ``size`` entries.

    ``get(key, make)`` returns the stored value for ``key`` in the language in force, or calls
    ``make()`` and stores its result.  ``owner``, when given, must be the very object the value
    was made for (a State: positions are keyed by ``id`` and ids are reused once freed).
    """

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._entries: OrderedDict[Hashable, tuple[object, Value]] = OrderedDict()

    def get(self, key: Hashable, make: Callable[[], Value], owner: object = None) -> Value:
        full = (language(), key)
        hit = self._entries.get(full)
        if hit is not None and hit[0] is owner:
            self._entries.move_to_end(full)
            return hit[1]
        value = make()
        self._entries[full] = (owner, value)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
