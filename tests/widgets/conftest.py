"""Fixtures of the widget tests: the test-only "secret pile" game (see ``pile_game.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from pile_game import SecretPileGame

# This directory is called ``widgets`` and has no __init__.py: with ``tests/`` on sys.path (pytest
# puts conftest directories there) and gamelib installed in editable mode through an import hook,
# ``import widgets`` would find this directory as a namespace package before the hook runs.  The
# project root on sys.path makes the real package win (a regular package beats a namespace).
_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:
    sys.path.append(_ROOT)
if getattr(sys.modules.get("widgets"), "__file__", "") is None:
    del sys.modules["widgets"]  # a namespace package imported before this conftest ran


@pytest.fixture
def pile_game() -> SecretPileGame:
    return SecretPileGame()


@pytest.fixture
def big_pile_game() -> SecretPileGame:
    """Enough legal actions (up to 30) that the stepper lists them instead of showing buttons."""
    return SecretPileGame(options={"pile": 40, "max_take": 30})
