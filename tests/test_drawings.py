"""Every registered game's drawing, at the dpis a notebook or a projector uses: texts stay inside
the figure or axes they belong to, named labels do not overlap, and the words follow the language.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from matplotlib.figure import Figure

import gamelib
from gamelib.agents import RandomAgent
from gamelib.core.drawing import TextBox, label_strings, text_boxes
from gamelib.core.i18n import Wording, using_language
from gamelib.core.registry import registered_games

DPIS = (72, 100, 150)
STEPS = (0, 25, 10**6)
"""Mid-game states: the start, a few turns in, the end."""
SLACK = 1.0
"""Pixels a text may touch its bound by (anti-aliasing of the outline's control points)."""
WORDED = ("passante", "delanopolis", "getonboard")
"""Games whose drawings take their words from data/words.json (this suite's owners)."""


def _state(name: str, steps: int, seed: int = 3) -> gamelib.State:  # type: ignore[name-defined]
    game = gamelib.make(name)
    state = game.new_game(seed=seed)
    rng, agent = random.Random(seed), RandomAgent()
    for _ in range(steps):
        if state.is_terminal():
            break
        who = state.current_player
        state.apply(state.sample_chance(rng) if who == gamelib.CHANCE else agent.act(state, who, rng))
    return state


def _figure(name: str, steps: int, dpi: int) -> Figure:
    figure = _state(name, steps).draw()
    figure.set_dpi(dpi)
    return figure


def _outside(text: TextBox) -> bool:
    box, bound = text.box, text.bound
    return (
        box.x0 < bound.x0 - SLACK
        or box.y0 < bound.y0 - SLACK
        or box.x1 > bound.x1 + SLACK
        or box.y1 > bound.y1 + SLACK
    )


def _overlap(a: TextBox, b: TextBox) -> bool:
    return (
        min(a.box.x1, b.box.x1) - max(a.box.x0, b.box.x0) > SLACK
        and min(a.box.y1, b.box.y1) - max(a.box.y0, b.box.y0) > SLACK
    )


def _cases() -> list[object]:
    return [
        pytest.param(name, steps, dpi, id=f"{name}-{steps}-{dpi}dpi")
        for name in registered_games()
        for steps in STEPS
        for dpi in DPIS
    ]


@pytest.mark.parametrize(("name", "steps", "dpi"), _cases())
def test_texts_stay_inside_and_names_do_not_overlap(name: str, steps: int, dpi: int) -> None:
    boxes = text_boxes(_figure(name, steps, dpi))
    assert boxes, "a drawing says something"
    outside = [f"{t.string!r} {t.box.bounds} not in {t.bound.bounds}" for t in boxes if _outside(t)]
    assert not outside, outside
    named = [t for t in boxes if t.named and t.string.strip()]
    clashes = [(a.string, b.string) for i, a in enumerate(named) for b in named[i + 1 :] if _overlap(a, b)]
    assert not clashes, clashes


@pytest.mark.parametrize("name", WORDED)
def test_french_and_english_are_complete(name: str) -> None:
    words = Wording(f"gamelib.{name}")
    assert words.keys(), "the drawing has words"
    assert not words.missing("fr")
    assert not set(words.table["fr"]) - words.keys(), "French keys English lacks"
    for lang in ("en", "fr"):  # every text formats (no typo in a field name breaks a drawing late)
        for key, text in words.table[lang].items():
            assert text.strip(), (lang, key)


@pytest.mark.parametrize("name", WORDED)
def test_a_drawing_speaks_the_language_in_force(name: str) -> None:
    state = _state(name, 25)
    with using_language("en"):
        english = {t.string for t in text_boxes(state.draw())} | set(label_strings(state.draw()))
    with using_language("fr"):
        french = {t.string for t in text_boxes(state.draw())} | set(label_strings(state.draw()))
    assert english != french
    assert gamelib.language() == "en"
    sample = {
        "passante": ("A Une Passante — turn", "A Une Passante — tour"),
        "delanopolis": ("Delanopolis, round", "Delanopolis, manche"),
        "getonboard": ("— round", "— manche"),
    }[name]
    assert any(sample[0] in s for s in english) and not any(sample[0] in s for s in french)
    assert any(sample[1] in s for s in french)


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_player_names_follow_the_language(name: str) -> None:
    from gamelib.core.i18n import using_language

    game = gamelib.make(name)
    english = [game.player_name(p) for p in range(game.num_players)]
    with using_language("fr"):
        french = [game.player_name(p) for p in range(game.num_players)]
    assert english != french
    assert all(n.isascii() for n in english)


# ---------------------------------------------------------------- readable by a class (issue 20)
MIN_INK_PX = 7.0
"""The least ink height, in pixels at 72 dpi, of a one-line word with a capital, a digit or a tall
letter: about the cap height of a 10-point font (0.73 em).  Notebook 04 shows figures at 72 dpi."""
TALL = set("ABCDEFGHIJKLMNOPQRSTUVWXYZÉÀ0123456789bdfhklt")


def _words(figure: Figure) -> list[TextBox]:
    """Texts that are words (three letters or more on one line), not badges or symbols."""
    return [
        t
        for t in text_boxes(figure)
        if "\n" not in t.string and sum(c.isalpha() for c in t.string) >= 3 and TALL & set(t.string)
    ]


def _boards() -> list[tuple[str, Figure]]:
    """The figures a class sees of Delanopolis and Get on Board: mid-game boards (the ring with its
    parks too), a finished one seen by a seat, Get on Board's score sheet."""
    from gamelib.getonboard.draw import draw_sheet

    figures = []
    for name, options in (("delanopolis", {}), ("delanopolis", {"placement": "ring"}), ("getonboard", {})):
        game = gamelib.make(name, options=options)
        final = gamelib.play(game, [RandomAgent()] * game.num_players, seed=4)
        middle = game.new_game(seed=4)
        for action in final.history[: len(final.history) // 2]:
            middle.apply(action)
        figures += [
            (f"{name} {options} middle", middle.draw()),
            (f"{name} {options} end", final.draw(perspective=1)),
        ]
        if name == "getonboard":
            figures.append(("getonboard sheet", draw_sheet(final, 1)))
    return figures


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_words_are_readable_at_72_dpi_and_stay_apart(lang: str) -> None:
    with using_language(lang):
        for name, figure in _boards():
            for dpi in DPIS:
                figure.set_dpi(dpi)
                boxes = text_boxes(figure)
                outside = [t.string for t in boxes if _outside(t)]
                assert not outside, (name, dpi, outside)
                named = [t for t in boxes if t.named and t.string.strip()]
                clashes = [
                    (a.string, b.string)
                    for i, a in enumerate(named)
                    for b in named[i + 1 :]
                    if _overlap(a, b)
                ]
                assert not clashes, (name, dpi, clashes)
            figure.set_dpi(72)
            small = [(t.string, round(t.box.height, 1)) for t in _words(figure) if t.box.height < MIN_INK_PX]
            assert not small, (name, small)


def _pawn_boxes(figure: Figure) -> list[tuple[float, float, float, float]]:
    """Pixel boxes of the Delanopolis pawns (the map's scatter markers)."""
    from matplotlib.collections import PathCollection

    from gamelib.core.drawing import LabelCollection

    ax = figure.axes[0]
    boxes = []
    for artist in ax.collections:
        if type(artist) is not PathCollection or isinstance(artist, LabelCollection):
            continue
        sizes = artist.get_sizes()
        for (x, y), size in zip(
            artist.get_offsets(), np.resize(sizes, len(artist.get_offsets())), strict=True
        ):
            px, py = ax.transData.transform((x, y))
            half = (size**0.5) * figure.dpi / 72 / 2
            boxes.append((px - half, py - half, px + half, py + half))
    return boxes


@pytest.mark.parametrize("placement", ["sum", "ring"])
def test_delanopolis_pawns_cover_no_name_and_no_price(placement: str) -> None:
    """Every pawn on one terrain, every terrain owned at a two-digit price: no pawn lies on a name,
    a number or a price tag (La Villette's price, 'Bastille' under Bercy's pawns)."""
    from gamelib.delanopolis.rules import DelanopolisState

    game = gamelib.make("delanopolis", players=6, options={"placement": placement})
    for terrain in range(12):
        state = game.new_game(seed=0)
        state.apply("mayor 2")
        assert isinstance(state, DelanopolisState)
        for t in range(12):
            state.owner[t], state.price[t] = t % 6, 60
        state.where = [terrain] * 6
        state.invalidate()
        figure = state.draw()
        figure.set_dpi(100)
        texts = [t for t in text_boxes(figure) if t.string.strip() and t.bound == figure.axes[0].bbox]
        for box in _pawn_boxes(figure):
            for t in texts:
                overlap_x = min(box[2], t.box.x1) - max(box[0], t.box.x0)
                overlap_y = min(box[3], t.box.y1) - max(box[1], t.box.y0)
                assert not (overlap_x > SLACK and overlap_y > SLACK), (terrain, t.string)


def test_delanopolis_and_get_on_board_number_players_from_1() -> None:
    from gamelib.delanopolis.draw import outcome_sentence

    for name in ("delanopolis", "getonboard"):
        game = gamelib.make(name)
        assert game.player_name(0).startswith("Player 1")
        with using_language("fr"):
            assert game.player_name(0).startswith("Joueur 1")
    state = gamelib.play(gamelib.make("delanopolis", players=4), [RandomAgent()] * 4, seed=1)
    sentence = outcome_sentence(state)  # a sentence, never the tuple of its fields
    assert "Player" in sentence and "(" not in sentence.split(".")[0] and "'" not in sentence
    assert "Player 0" not in sentence
