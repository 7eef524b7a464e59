"""docs/rules/passante.md stays true: every rule name raised is documented, every option is
quoted, and the notation example is the game it claims to be."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import gamelib
from gamelib.passante.agents import WishSeekerAgent
from gamelib.passante.rules import PassanteOptions

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "rules" / "passante.md").read_text(encoding="utf-8")
SOURCE = (ROOT / "gamelib" / "passante" / "rules.py").read_text(encoding="utf-8")


def test_every_rule_name_raised_is_documented() -> None:
    raised = set(re.findall(r'IllegalAction\(\s*"([a-z0-9-]+)"', SOURCE))
    raised |= {"garcon", "chat", "comedienne", "institutrice"}  # named through a table
    generic = {"notation", "not-legal", "chance-node", "not-chance", "chance-outcome"}
    missing = sorted(r for r in raised - generic if f"`{r}`" not in DOC)
    assert missing == [], f"rule names raised but not in docs/rules/passante.md: {missing}"


def test_every_option_is_documented() -> None:
    missing = [f.name for f in dataclasses.fields(PassanteOptions) if f"`{f.name}`" not in DOC]
    assert missing == []


def test_notation_example_is_the_documented_game() -> None:
    block = DOC.split("Example, the opening", 1)[1].split("```", 2)[1]
    moves = [m.strip() for m in block.replace("\n", " ").split("|") if m.strip() and m.strip() != "..."]
    state = gamelib.play(gamelib.make("passante", players=2), [WishSeekerAgent()] * 2, seed=3)
    assert [str(a) for a in state.history[: len(moves)]] == moves
