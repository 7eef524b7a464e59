"""The documentation's examples are executable: notation blocks replay, rule names exist."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

import gamelib

ROOT = Path(__file__).resolve().parent.parent


def test_fugitive_notation_example_replays() -> None:
    text = (ROOT / "docs" / "notation.md").read_text()
    section = text.split("## Fugitive", 1)[1]
    block = section.split("```", 2)[1]
    moves = [m.strip() for line in block.splitlines() for m in line.split("#")[0].split(",") if m.strip()]
    state = gamelib.make("fugitive").new_game(seed=1)
    for move in moves:
        state.apply(move)
    assert state.hideouts == [0, 3, 4, 12]
    assert state.revealed == [True, False, True, False]  # the single guess found 4
    snippet = section.split("```python", 1)[1].split("```", 1)[0]
    with pytest.raises(gamelib.IllegalAction, match="turn-order"):
        exec(snippet, {"gamelib": gamelib})  # the documented error


def test_every_fugitive_rule_name_raised_is_documented() -> None:
    source = (ROOT / "gamelib" / "fugitive" / "rules.py").read_text()
    doc = (ROOT / "docs" / "rules" / "fugitive.md").read_text()
    raised = set(re.findall(r'IllegalAction\(\s*"([a-z0-9-]+)"', source))
    generic = {"notation", "not-legal", "chance-node", "not-chance"}
    missing = sorted(r for r in raised - generic if f"`{r}`" not in doc)
    assert missing == [], f"rules raised but not documented in docs/rules/fugitive.md: {missing}"


def test_every_game_has_a_rules_page() -> None:
    for name in gamelib.registered_games():
        assert (ROOT / "docs" / "rules" / f"{name}.md").exists(), name


DOCUMENTED_VERBS = {
    "fugitive": ("docs/notation.md", "## Fugitive"),
    "passante": ("docs/notation.md", "## A Une Passante"),
    "delanopolis": ("docs/rules/delanopolis.md", "## Notation"),
    "getonboard": ("docs/rules/getonboard.md", "## Notation"),
}


@pytest.mark.parametrize("name", sorted(DOCUMENTED_VERBS))
def test_the_notation_tables_list_exactly_the_declared_verbs(name: str) -> None:
    """The docs' notation table and the game's declarations (``NOTATION``) name the same verbs."""
    path, start = DOCUMENTED_VERBS[name]
    section = (ROOT / path).read_text().split(start, 1)[1]
    table: list[str] = []  # the section's first table
    for line in section.splitlines()[1:]:
        if line.startswith("|"):
            table.append(line)
        elif table:
            break
    documented = {
        code.split()[0] for line in table for code in re.findall(r"`([a-z]+(?: [^`]*)?)`", line.split("|")[1])
    }
    declared = set(importlib.import_module(f"gamelib.{name}.rules").NOTATION.verbs)
    assert documented == declared
