"""A process that only plays a game (a tournament worker) never imports networkx or matplotlib:
the boards' graphs and the drawings are built on first use, so a new worker's start-up is the
game's own tables (about 70 ms of CPU instead of 200-300 ms with networkx)."""

from __future__ import annotations

import subprocess
import sys

import pytest

import gamelib

PLAY = """
import random, sys
import gamelib
from gamelib.core.play import random_playout
game = gamelib.make({name!r})
for seed in range(3):
    random_playout(game.new_game(seed=seed), random.Random(seed))
print(sorted(m for m in ("networkx", "matplotlib") if m in sys.modules))
"""


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_playing_imports_neither_networkx_nor_matplotlib(name: str) -> None:
    out = subprocess.run(
        [sys.executable, "-c", PLAY.format(name=name)], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]", out
