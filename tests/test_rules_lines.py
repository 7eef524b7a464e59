"""benchmarks/rules_lines.py sorts a rules module's lines into the columns it documents."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_SPEC = importlib.util.spec_from_file_location("rules_lines", ROOT / "benchmarks" / "rules_lines.py")
assert _SPEC is not None and _SPEC.loader is not None
rules_lines = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(rules_lines)

TOY = '''"""A toy rules module."""

from gamelib.core import Action, State, StateFields, action_class

PHASE_NAMES = ("play", "over")


@action_class("up")
class Up(Action):
    pass


class Down(Up):
    pass


NOTATION = Notation(Up, Down)
_DISPATCH = {Up: ToyState._up}


class ToyState(State):
    fields = StateFields(key="rung")

    def __init__(self, game, seed):
        self.rung = 0

    def _apply(self, action):
        if isinstance(action, Up):
            self.rung += 1  # a rule
        elif isinstance(action, Down) and self.rung:
            self.rung -= 1

    def __str__(self):
        return str(self.rung)
'''


def test_each_line_goes_to_its_column() -> None:
    actions = rules_lines.action_classes([ast.parse(TOY)])
    assert actions == {"Up", "Down"}
    counts = rules_lines.classify(TOY, actions)
    assert sum(counts.values()) == len(TOY.splitlines())
    assert counts == {
        "notation": 6,  # two action classes (decorator included), NOTATION
        "declarations": 4,  # PHASE_NAMES, fields, __init__
        "bookkeeping": 4,  # the dispatch table, the pure isinstance test, __str__
        "imports": 1,
        "rules": 5,  # the class line, _apply's def, the two updates, the combined test
        "docs": 1,  # the module docstring
        "other": 13,  # blank lines
    }


def test_the_table_compares_two_revisions_of_the_same_game() -> None:
    before = rules_lines.measure("7919c38", "fugitive")
    assert list(before) == ["gamelib/fugitive/rules.py"]
    counts = before["gamelib/fugitive/rules.py"]
    assert sum(counts.values()) == 926 and counts["rules"] > counts["bookkeeping"] > 0
