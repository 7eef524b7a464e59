"""Fugitive's drawing at classroom sizes (issue 14): every label from data/words.json, English by
default and French complete; at 72, 100 and 150 dpi every text lies inside the figure and no two
labels overlap; the legend explains the "+3" step markers."""

from __future__ import annotations

import random

import pytest

import gamelib
from gamelib.core.drawing import label_strings, text_boxes
from gamelib.core.i18n import using_language
from gamelib.fugitive.agents import BeliefDetective, FugitiveHeuristic
from gamelib.fugitive.analysis import belief
from gamelib.fugitive.draw import WORDS, draw_belief, draw_state
from gamelib.fugitive.rules import DETECTIVE, FUGITIVE, FugitiveState


def played(seed: int, moves: int, **options: object) -> FugitiveState:
    state = gamelib.make("fugitive", options=options).new_game(seed=seed)
    assert isinstance(state, FugitiveState)
    rng = random.Random(seed)
    agents = [FugitiveHeuristic(), BeliefDetective()]
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply(state.sample_chance())
        else:
            state.apply(agents[state.current_player].act(state, state.current_player, rng))
    return state


def positions() -> list[tuple[str, FugitiveState]]:
    middle = played(3, 60)
    over = played(5, 400)
    assert over.is_terminal()
    small = played(1, 12, escape_card=12)
    return [("middle", middle), ("over", over), ("small", small)]


POSITIONS = positions()


def overlapping(boxes: list, pad: float = 0.5) -> list[tuple[str, str]]:
    """Pairs of labels whose ink boxes overlap by more than ``pad`` pixels each way."""
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            w = min(a.box.x1, b.box.x1) - max(a.box.x0, b.box.x0)
            h = min(a.box.y1, b.box.y1) - max(a.box.y0, b.box.y0)
            if w > pad and h > pad:
                found.append((a.string, b.string))
    return found


@pytest.mark.parametrize("dpi", [72, 100, 150])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("name", "state"), POSITIONS, ids=[n for n, _ in POSITIONS])
def test_labels_stay_inside_and_apart_at_every_dpi(
    name: str, state: FugitiveState, lang: str, dpi: int
) -> None:
    with using_language(lang):
        for perspective in (None, FUGITIVE, DETECTIVE):
            shown = belief(state) if perspective == DETECTIVE and not state.is_terminal() else None
            fig = draw_state(state, perspective=perspective, belief=shown)
            fig.set_dpi(dpi)
            boxes = [b for b in text_boxes(fig) if b.box.width > 0]
            assert boxes
            for b in boxes:
                assert b.bound.x0 - 1 <= b.box.x0 and b.box.x1 <= b.bound.x1 + 1, (b.string, b.box, b.bound)
                assert b.bound.y0 - 1 <= b.box.y0 and b.box.y1 <= b.bound.y1 + 1, (b.string, b.box, b.bound)
            clashes = overlapping(boxes)
            assert not clashes, f"{name} {lang} {dpi} dpi view {perspective}: {clashes[:5]}"


def test_the_belief_heat_map_keeps_its_labels_inside_at_every_dpi() -> None:
    state = POSITIONS[0][1]
    for lang in ("en", "fr"):
        with using_language(lang):
            for dpi in (72, 100, 150):
                fig = draw_belief(belief(state))
                fig.set_dpi(dpi)
                for b in text_boxes(fig):
                    if b.box.width > 0:
                        assert b.bound.x0 - 1 <= b.box.x0 and b.box.x1 <= b.bound.x1 + 1, b.string


def test_the_legend_explains_the_step_markers() -> None:
    shown = label_strings(draw_state(POSITIONS[0][1]))
    assert "+3" in shown and WORDS("legend_step", lang="en") in shown
    assert "+5" in shown and WORDS("legend_sprinted", lang="en") in shown


def test_french_is_complete_and_one_switch_away() -> None:
    assert WORDS.missing("fr") == set()
    state = POSITIONS[0][1]
    english = label_strings(draw_state(state, perspective=DETECTIVE))
    gamelib.set_language("fr")
    try:
        french = label_strings(draw_state(state, perspective=DETECTIVE))
    finally:
        gamelib.set_language("en")
    assert "Paquets" in french and "Decks" in english and "Decks" not in french
    assert any(s.startswith("Fugitive · tour") for s in french)
    assert label_strings(draw_state(state, perspective=DETECTIVE)) == english  # back to English


def test_every_drawing_word_comes_from_the_words_file() -> None:
    """No English word is left in a French drawing (numbers, notation and proper nouns aside)."""
    state = POSITIONS[1][1]
    keys = sorted(WORDS.table["en"])
    english_only = {WORDS(k, lang="en") for k in keys} - {WORDS(k, lang="fr") for k in keys}
    with using_language("fr"):
        for perspective in (None, FUGITIVE, DETECTIVE):
            shown = set(label_strings(draw_state(state, perspective=perspective)))
            assert not shown & english_only
