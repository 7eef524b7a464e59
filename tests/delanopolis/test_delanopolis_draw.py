"""Delanopolis pictures: the auction chart says what it shows, the map's names stay off the circles."""

from __future__ import annotations

import io

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.transforms import Bbox

import gamelib
from gamelib.core.drawing import text_boxes
from gamelib.core.i18n import using_language
from gamelib.delanopolis import draw
from gamelib.delanopolis.board import TERRAINS, content


def _bidding() -> gamelib.State:  # type: ignore[name-defined]
    state = gamelib.make("delanopolis", players=4).new_game(seed=7)
    state.apply("mayor 0")
    state.apply("dice 3 4")
    return state


@pytest.mark.parametrize("dpi", [72, 100, 150])
def test_the_auction_chart_has_a_title_axis_labels_and_names_kept_by_a_tight_crop(dpi: int) -> None:
    state = _bidding()
    state.apply("bid 40")
    state.apply("bid 20")
    for figure in (draw.draw_auction(state, perspective=3), draw.draw_auction(state)):
        figure.set_dpi(dpi)
        strings = [t.string for t in text_boxes(figure)]
        assert any(s.startswith("Sealed bids for 7.") for s in strings)
        assert "points bid" in strings and any("each bid as it counts" in s for s in strings)
        assert {"2", "3", "4"} <= set(strings) and "chall.\ntotal" in strings  # seats 1-3
        FigureCanvasAgg(figure)
        crop = figure.get_tightbbox(figure.canvas.get_renderer()).padded(0.1)  # type: ignore[attr-defined]
        crop = Bbox(crop.get_points() * dpi)
        for t in text_boxes(figure):  # what Jupyter keeps of the figure holds every text
            assert crop.x0 - 1 <= t.box.x0 and t.box.x1 <= crop.x1 + 1, t.string
            assert crop.y0 - 1 <= t.box.y0 and t.box.y1 <= crop.y1 + 1, t.string
        figure.savefig(io.BytesIO(), format="png", bbox_inches="tight")


def test_before_the_first_bid_every_bidder_has_a_place() -> None:
    strings = [t.string for t in text_boxes(draw.draw_auction(_bidding()))]
    assert "—" not in strings
    assert strings.count("…") == 4  # three challengers and the mayor, none has bid
    assert any(s.startswith("still to bid: 2, 3, 4, 1") for s in strings)  # seats 1, 2, 3, 0


def test_the_board_has_a_status_title_in_both_languages() -> None:
    state = _bidding()
    with using_language("en"):
        assert any(t.string.startswith("Delanopolis, round 1/") for t in text_boxes(state.draw()))
    with using_language("fr"):
        assert any(t.string.startswith("Delanopolis, manche 1/") for t in text_boxes(state.draw()))


def test_terrain_and_refuge_names_stay_off_the_terrain_circles() -> None:
    figure = _bidding().draw()
    ax = figure.axes[0]
    data = content().terrains
    circles = []
    for t in range(TERRAINS):
        (x0, y0), (x1, y1) = ax.transData.transform(
            [
                (data[t].x - draw.TERRAIN_RADIUS, data[t].y - draw.TERRAIN_RADIUS),
                (data[t].x + draw.TERRAIN_RADIUS, data[t].y + draw.TERRAIN_RADIUS),
            ]
        )
        circles.append((data[t].name, Bbox([[x0, y0], [x1, y1]]).shrunk(0.8, 0.8)))
    names = [t for t in text_boxes(figure) if t.named and t.string.split("\n")[0] != ""]
    for text in names:
        for name, circle in circles:
            if text.string.replace("\n", "").replace("-", "").startswith(name.replace("-", "")):
                continue  # its own circle (the name hangs from it)
            assert not text.box.overlaps(circle), (text.string, name)


def test_every_outcome_has_words_in_both_languages() -> None:
    from gamelib.core.i18n import Wording
    from gamelib.delanopolis.rules import OUTCOME_TEXT

    words = Wording("gamelib.delanopolis")
    for outcome in OUTCOME_TEXT:
        for lang in ("en", "fr"):
            assert f"outcome_{outcome}" in words.table[lang], (outcome, lang)


def test_every_phase_has_words_and_reads_as_declared() -> None:
    """The drawing's phase line: one word key a declared phase, its English the phase's name."""
    from gamelib.core.i18n import Wording
    from gamelib.delanopolis.draw import PHASE_WORDS
    from gamelib.delanopolis.rules import OUTCOME_TEXT, PHASES

    words = Wording("gamelib.delanopolis")
    assert sorted(PHASE_WORDS) == list(PHASES.numbers)
    for phase in PHASES.numbers:
        assert words.table["en"][PHASE_WORDS[phase]] == PHASES.names[phase]
        assert PHASE_WORDS[phase] in words.table["fr"]
    for outcome, text in OUTCOME_TEXT.items():
        assert words.table["en"][f"outcome_{outcome}"] == text
