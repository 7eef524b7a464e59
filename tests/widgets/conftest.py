"""Fixtures of the widget tests: the test-only "secret pile" game (see ``pile_game.py``)."""

from __future__ import annotations

import pytest
from pile_game import SecretPileGame

# The widgets are imported by their installed name, ``gamelib_widgets`` (the folder widgets/ is
# mapped to it in pyproject.toml), so this directory, also called ``widgets``, cannot shadow them.


@pytest.fixture
def pile_game() -> SecretPileGame:
    return SecretPileGame()


@pytest.fixture
def big_pile_game() -> SecretPileGame:
    """Enough legal actions (up to 30) that the stepper lists them instead of showing buttons."""
    return SecretPileGame(options={"pile": 40, "max_take": 30})
