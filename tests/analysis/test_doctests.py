"""The examples in the docstrings of the agents and analysis modules run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "gamelib.agents.registry",
    "gamelib.agents.mcts",
    "gamelib.analysis.stats",
    "gamelib.analysis.tournament",
    "gamelib.analysis.sweep",
    "gamelib.analysis.compare",
    "gamelib.analysis.round_robin",
    "gamelib.analysis.tree",
    "gamelib.analysis.paired",
    "gamelib.agents.inputs",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no example"
    assert result.failed == 0
