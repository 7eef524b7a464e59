"""The detective's belief panel counts the worlds once per position (issue 24): that one count
gives the world total it shows, the probabilities it draws and, asked afterwards, the card
locations; the drawing is cached on the belief's numbers."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import gamelib
from gamelib.fugitive.belief import probabilities
from gamelib.fugitive.rules import FugitiveState
from gamelib_widgets import Stepper


def position_with_face_down_sprints(seed: int = 0) -> FugitiveState:
    """A detective decision with a face-down sprint stack under a face-down hideout."""
    game = gamelib.make("fugitive")
    for attempt in range(seed, seed + 300):
        state = game.new_game(seed=attempt)
        assert isinstance(state, FugitiveState)
        rng = random.Random(attempt)
        for _ in range(rng.randrange(30, 90)):
            if state.is_terminal():
                break
            state.apply(
                state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
            )
        if (
            not state.is_terminal()
            and state.current_player == 1
            and any(state.sprints[i] for i in state.hidden_positions())
        ):
            return state
    raise AssertionError("no position with a face-down sprint stack found")


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many programmes the belief builds, by kind (the count, or a full one)."""
    calls: Counter[str] = Counter()
    real = probabilities.build

    def counted(*args: object, **kwargs: object) -> object:
        calls["full" if kwargs.get("full") else "count"] += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(probabilities, "build", counted)
    probabilities.clear_caches()
    yield calls
    probabilities.clear_caches()


def test_the_panel_counts_once_for_total_probabilities_and_card_locations(builds: Counter[str]) -> None:
    from gamelib_widgets.fugitive import BeliefPanel

    state = position_with_face_down_sprints(3)
    stepper = Stepper(state, panels=[BeliefPanel])
    (panel,) = stepper.panels
    assert panel.error == "" and panel.belief is not None
    assert builds == Counter(count=1), builds
    shown = f"<b>{panel.belief.worlds:,}".replace(",", "\u2009")
    assert shown in panel.summary.value, "the total shown is the count's own"
    assert panel.belief.worlds == panel.belief.mass, "each world counted once: no second count for the total"
    where = (panel.belief.sprint_prob, panel.belief.hand_prob, panel.belief.deck_prob)
    assert builds == Counter(count=1), "the card locations walk the same count"
    face_down = sum(len(s) for i, s in enumerate(state.sprints) if not state.sprints_shown(i))
    assert sum(where[0]) == pytest.approx(face_down)
    assert sum(where[1]) == pytest.approx(state.fhand.bit_count())


def test_the_panel_redraws_nothing_when_it_comes_back(builds: Counter[str]) -> None:
    from gamelib_widgets.fugitive import BeliefPanel

    stepper = Stepper("fugitive", seed=5, panels=[BeliefPanel])
    (panel,) = stepper.panels
    for _ in range(12):
        assert stepper.step_agent(), stepper.error
    png = panel.strip.value
    counted = sum(builds.values())
    drawn = []
    real = panel._draw_strip
    panel._draw_strip = lambda *args: drawn.append(args) or real(*args)  # type: ignore[method-assign]
    stepper.undo()
    stepper.redo()
    assert panel.strip.value == png
    assert len(drawn) <= 1, "the position before was drawn at most once, the one we came back to not at all"
    assert sum(builds.values()) == counted, "beliefs met before are remembered, not counted again"
