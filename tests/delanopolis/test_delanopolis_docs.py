"""docs/rules/delanopolis.md is executable: its example replays, every option is on the page (every rule
name raised is checked for all games by tests/test_rule_names.py)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import gamelib
from gamelib.delanopolis.rules import DelanopolisOptions, DelanopolisState

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "rules" / "delanopolis.md").read_text()


def test_notation_example_replays() -> None:
    block = DOC.split("## Notation", 1)[1].split("```", 2)[1]
    moves = [m.strip() for line in block.splitlines() for m in line.split("#")[0].split(",") if m.strip()]
    state = gamelib.make("delanopolis", players=4).new_game(seed=1)
    assert isinstance(state, DelanopolisState)
    for move in moves[:2]:
        state.apply(move)
    snippet_state = state.clone()
    for move in moves[2:]:
        state.apply(move)
    bastille = 5
    assert state.owner[bastille] == 1 and state.aside[bastille] == 40
    assert state.coms[1] == 50 and state.coms[2] == 0
    assert state.vots[1] == 1200 - 40 + 20 + 10 + 10 and state.vots[2] == 1170 and state.vots[3] == 1190
    snippet = DOC.split("```python", 2)[2].split("```", 1)[0]
    with pytest.raises(gamelib.IllegalAction, match="bid-cap"):
        exec(snippet, {"state": snippet_state})


def test_every_option_is_documented_with_its_default() -> None:
    rows = {line.split("|")[1].strip(): line for line in DOC.splitlines() if line.startswith("| `")}
    for f in dataclasses.fields(DelanopolisOptions):
        assert f"`{f.name}`" in rows, f"option {f.name} has no row in the options table"
        default = f.default
        shown = f'`"{default}"`' if isinstance(default, str) else f"`{default}`"
        assert shown in rows[f"`{f.name}`"], f"option {f.name}: default {shown} not in its row"
