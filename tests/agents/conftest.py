"""The ``toy_games`` fixture: registers the toy games of ``toygames.py`` for one test only."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from toygames import TOY_GAMES

from gamelib.core import registry


@pytest.fixture
def toy_games(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, target in TOY_GAMES.items():
        monkeypatch.setitem(registry._GAMES, name, target)
