"""Click → new board (issue 20 goal): the Stepper's pictures and the work it does ahead.

* :func:`~gamelib_widgets.pictures.figure_png` gives the same picture as matplotlib's ``savefig``
  (same size, colours within the palette's rounding) in a third of the bytes;
* one :class:`~gamelib_widgets.pictures.PngCache`, keyed by language too;
* while the kernel is idle after a change, the Stepper computes the next Step's position and
  picture: the Step that follows is the very move a Step without it makes (same state, same
  picture, the agent asked once), and nothing is computed for a human seat, behind the cover,
  at the end of the game or for a slow agent.
"""

from __future__ import annotations

import asyncio
import io
import random
from typing import Any

import numpy as np
import pytest
from kernel_loop import run_on_a_loop_of_its_own
from PIL import Image
from pile_game import LEFT, RIGHT, SecretPileGame

import gamelib
from gamelib.core.i18n import using_language
from gamelib_widgets import HUMAN, Stepper
from gamelib_widgets.controller import PREFETCH_AGENT_LIMIT
from gamelib_widgets.pictures import PngCache, figure_png


def test_the_palette_png_is_the_savefig_picture_in_fewer_bytes() -> None:
    state = gamelib.make("passante").new_game(seed=2)
    for _ in range(12):
        state.apply(state.sample_chance() if state.is_chance_node() else state.legal_actions()[0])
    figure = state.draw()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=72)
    reference = np.asarray(Image.open(io.BytesIO(buffer.getvalue())).convert("RGB"), dtype=int)
    png = figure_png(figure, 72)
    picture = Image.open(io.BytesIO(png))
    assert picture.mode == "P" and picture.size == (reference.shape[1], reference.shape[0])
    difference = np.abs(np.asarray(picture.convert("RGBA").convert("RGB"), dtype=int) - reference)
    assert np.percentile(difference, 99) <= 24, "the palette keeps every colour close"
    assert len(png) < len(buffer.getvalue()) / 2


def test_the_cache_keeps_the_last_pictures_per_language() -> None:
    cache: PngCache[str] = PngCache(size=2)
    made: list[str] = []

    def make(text: str) -> Any:
        return lambda: made.append(text) or text

    assert cache.get("a", make("a")) == "a" and cache.get("a", make("again")) == "a"
    with using_language("fr"):
        assert cache.get("a", make("a-fr")) == "a-fr", "another language, another picture"
    cache.get("b", make("b"))
    assert len(cache) == 2 and cache.get("a", make("a2")) == "a2", "the oldest went first"
    owner = object()
    assert (
        cache.get("o", make("o"), owner=owner) == "o" and cache.get("o", make("o2"), owner=object()) == "o2"
    )
    assert made == ["a", "a-fr", "b", "a2", "o", "o2"]


class Counting:
    """A random agent that counts how often it is asked."""

    def __init__(self) -> None:
        self.calls = 0

    def act(self, state: gamelib.State, player: int, rng: random.Random) -> gamelib.Action:
        self.calls += 1
        return rng.choice(state.legal_actions())


@pytest.mark.parametrize("name", ["fugitive", "getonboard"])
def test_a_step_computed_ahead_is_the_step(name: str) -> None:
    agent = Counting()
    ahead = Stepper(name, seed=5, agents={"counting": agent})
    cold = Stepper(name, seed=5, agents={"counting": Counting()})
    for _ in range(6):
        ahead.prefetch_now()
        calls = agent.calls
        assert ahead.step_agent() and cold.step_agent()
        assert agent.calls == calls, "the agent was asked once, ahead of the click"
        assert ahead.state == cold.state and ahead.history == cold.history
        assert ahead.board_image.value == cold.board_image.value


def test_work_ahead_runs_when_the_kernel_is_idle() -> None:
    async def page() -> tuple[bool, bool]:
        stepper = Stepper("passante", seed=1)
        await asyncio.sleep(0.1)
        opened = stepper._prefetched is not None  # nothing while the page is built
        stepper.step_agent()
        await asyncio.sleep(0.1)  # the kernel is idle: the next Step is computed
        return opened, stepper._prefetched is not None

    assert run_on_a_loop_of_its_own(page) == (False, True)


def test_nothing_is_computed_ahead_for_a_person_a_cover_the_end_or_a_slow_agent() -> None:
    stepper = Stepper(SecretPileGame(), seed=1)
    stepper.roll()
    stepper.set_agent(LEFT, HUMAN)
    assert stepper.state.current_player == LEFT and stepper.prefetch_step() is None
    stepper.set_agent(LEFT, "random")
    assert stepper.prefetch_step() is not None
    stepper.set_hot_seat(True)
    assert stepper.covered and stepper.prefetch_step() is None
    stepper.set_hot_seat(False)
    stepper.set_agent(LEFT, "random")
    stepper.set_agent(RIGHT, "random")
    stepper._agent_cost["random"] = PREFETCH_AGENT_LIMIT * 2
    stepper._prefetched = None
    assert stepper.prefetch_step() is None, "a slow agent would keep the kernel busy"
    stepper._agent_cost.clear()
    assert stepper.play_to_end() and stepper.prefetch_step() is None
