"""A Une Passante's board: eight pieces fit any zone, the Passante and the Place keep apart."""

from __future__ import annotations

import pytest
from matplotlib.path import Path

import gamelib
from gamelib.core.drawing import text_boxes
from gamelib.core.i18n import using_language
from gamelib.passante import draw
from gamelib.passante.board import PLACE, ZONES


def _wedge(zone: int) -> Path:
    a0, a1 = draw._angle(zone, 1.0), draw._angle(zone, 0.0)
    corners = [draw._polar(draw.R_IN, a0), draw._polar(draw.R_OUT, a0)]
    corners += [draw._polar(draw.R_OUT, a1), draw._polar(draw.R_IN, a1)]
    return Path(corners, closed=False)


@pytest.mark.parametrize("zone", ZONES)
def test_eight_tokens_and_their_hearts_stay_in_their_zone(zone: int) -> None:
    wedge = _wedge(zone)
    ux, uy = draw._outwards(zone)
    for index in range(8):
        x, y = draw._slot(zone, index)
        assert wedge.contains_point((x, y), radius=-2 * draw.TOKEN_R), (zone, index)  # token + margin
        heart = (x + (draw.HEART_LIFT + 0.16) * ux, y + (draw.HEART_LIFT + 0.16) * uy)
        assert wedge.contains_point(heart), (zone, index, "heart")
        for other in range(index):
            ox, oy = draw._slot(zone, other)
            assert (x - ox) ** 2 + (y - oy) ** 2 >= (2 * draw.TOKEN_R) ** 2, (zone, index, other)


def test_place_slots_do_not_overlap() -> None:
    slots = [draw._slot(PLACE, i) for i in range(8)] + [draw.PLACE_BUS]
    for i, (x, y) in enumerate(slots[:8]):
        assert x * x + y * y < (draw.R_IN - 0.25 - draw.TOKEN_R) ** 2 + 0.05
        for ox, oy in slots[:i]:
            assert (x - ox) ** 2 + (y - oy) ** 2 >= (2 * draw.TOKEN_R) ** 2


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_passante_on_the_place_and_a_full_zone_keep_their_labels_apart(lang: str) -> None:
    state = gamelib.make("passante").new_game(seed=5)
    while state.current_player == gamelib.CHANCE or state.phase == 0:
        state.apply(state.legal_actions()[0] if state.current_player >= 0 else state.sample_chance())
        if len(state.history) > 40:
            break
    for c in range(8):
        state.pos[c] = ZONES[0]
    state.bus, state.passante = ZONES[0], PLACE
    with using_language(lang):
        boxes = [t for t in text_boxes(draw.draw_state(state)) if t.named]
    by_name = {t.string: t.box for t in boxes}
    assert "Passante" in by_name and "Place centrale" in by_name
    a, b = by_name["Passante"], by_name["Place centrale"]
    assert a.x1 < b.x0 or b.x1 < a.x0 or a.y1 < b.y0 or b.y1 < a.y0


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_status_line_is_a_sentence_numbering_players_from_1(language: str) -> None:
    import random

    from gamelib.agents import RandomAgent
    from gamelib.passante.rules import PassanteState

    game = gamelib.make("passante", players=3, options={"final_round_event": True})
    seen: set[str] = set()
    with using_language(language):
        for seed in range(3):
            state = game.new_game(seed=seed)
            assert isinstance(state, PassanteState)
            rng = random.Random(seed)
            while True:
                line = draw.status_line(state)
                assert line[:1].isupper() and line[-1] in ".?", line
                assert "0" not in line.split() and "(chance)" not in line, line
                seen.add(line.split()[0] if state.current_player >= 0 else line)
                if state.is_terminal():
                    break
                who = state.current_player
                state.apply(state.sample_chance() if who < 0 else RandomAgent().act(state, who, rng))
    word = "Player" if language == "en" else "Joueur"
    assert word in seen and len(seen) >= 5
