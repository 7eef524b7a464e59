"""docs/rules/passante.md stays true (every rule name raised is documented: tests/test_rule_names.py): every option is
quoted, and the notation example is the game it claims to be."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import gamelib
from gamelib.passante.agents import WishSeekerAgent
from gamelib.passante.rules import PassanteOptions

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "rules" / "passante.md").read_text(encoding="utf-8")


def test_every_option_is_documented() -> None:
    missing = [f.name for f in dataclasses.fields(PassanteOptions) if f"`{f.name}`" not in DOC]
    assert missing == []


def test_notation_example_is_the_documented_game() -> None:
    block = DOC.split("Example, the opening", 1)[1].split("```", 2)[1]
    moves = [m.strip() for m in block.replace("\n", " ").split("|") if m.strip() and m.strip() != "..."]
    state = gamelib.play(gamelib.make("passante", players=2), [WishSeekerAgent()] * 2, seed=3)
    assert [str(a) for a in state.history[: len(moves)]] == moves


NOTATION = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")


def test_the_notation_page_example_replays() -> None:
    section = NOTATION.split("## A Une Passante", 1)[1].split("\n## ", 1)[0]
    block = section.split("```", 2)[1]
    moves = [m.strip() for line in block.splitlines() for m in line.split("#")[0].split(",") if m.strip()]
    state = gamelib.make("passante", players=2).new_game(seed=0)
    for move in moves:
        state.apply(move)
    assert state.fulfilled == [(1,), ()] and state.signals == ((0, "purr"), (1, "name 9"))
    seen = state.public_history(0)
    assert seen[:8] == ("wish 1", "wish 16", "wish 22", "wish 25", "wish ?", "wish ?", "wish ?", "wish ?")
    assert "discard ?" in seen and "discard 19" in state.public_history(1)
    snippet = section.split("```python", 1)[1].split("```", 1)[0]
    with pytest.raises(gamelib.IllegalAction, match="privilege"):
        exec(snippet, {"gamelib": gamelib})


@pytest.mark.parametrize(
    ("text", "players", "rule"),
    [
        ("start parc", 2, "notation"),
        ("move omnibus cafe", 2, "notation"),
        ("wish 0", 2, "notation"),
        ("wish 39", 2, "notation"),
        ("wish 07", 2, "notation"),
        ("glare 3", 2, "notation"),
    ],
)
def test_the_notation_page_errors(text: str, players: int, rule: str) -> None:
    with pytest.raises(gamelib.IllegalAction) as err:
        gamelib.make("passante", players=players).parse_action(text)
    assert err.value.rule == rule


def test_every_verb_is_in_the_notation_page() -> None:
    game = gamelib.make("passante", players=4, options={"privileges": "cards"})
    verbs = {str(a).split()[0] for a in game.action_universe()} | {"hint"}
    section = NOTATION.split("## A Une Passante", 1)[1].split("\n## ", 1)[0]
    assert sorted(v for v in verbs if f"`{v}" not in section) == []
