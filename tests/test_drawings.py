"""Every registered game's drawing, at the dpis a notebook or a projector uses: texts stay inside
the figure or axes they belong to, named labels do not overlap, and the words follow the language.
"""

from __future__ import annotations

import random

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
