"""Every rule name the engine raises is documented: one generic test over every registered game.

An :class:`~gamelib.IllegalAction` names the rule it enforces (``error.rule``, a kebab-case word a
widget or a student can look up).  A name nobody documented is a dead end, so:

* the names core raises (``notation``, ``not-legal``, ``game-over``, ``not-chance``) are in
  ``docs/notation.md``;
* the names a game raises, in any module of its folder (games split their rules over several
  files), are in ``docs/rules/<game>.md`` or ``docs/notation.md``, written as code (`` `name` ``).

The names are read from the source (every ``IllegalAction(...)`` call: a literal, or a local
table of literals such as ``rule = {GARCON: "garcon", ...}[effect]``), and a short random play
that offers illegal actions checks that the reading misses nothing the engine really raises.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

import gamelib

ROOT = Path(__file__).resolve().parent.parent
NOTATION = ROOT / "docs" / "notation.md"
KEBAB = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


def _literals(node: ast.AST) -> set[str]:
    """The string literals an expression can evaluate to (a literal, ``a if c else b``, a
    subscript of a literal table); empty when it is built some other way (an f-string, a call)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        body, orelse = _literals(node.body), _literals(node.orelse)
        return body | orelse if body and orelse else set()
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict):
        values = [_literals(value) for value in node.value.values]
        return set().union(*values) if values and all(values) else set()
    return set()


def _rule_argument(call: ast.Call) -> ast.expr | None:
    if call.args:
        return call.args[0]
    return next((k.value for k in call.keywords if k.arg == "rule"), None)


def _calls_in(tree: ast.AST) -> list[tuple[ast.Call, ast.AST]]:
    """Every ``IllegalAction(...)`` call with the function (or module) it stands in."""
    found: list[tuple[ast.Call, ast.AST]] = []

    def visit(node: ast.AST, scope: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else scope
            if isinstance(child, ast.Call):
                func = child.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if name == "IllegalAction":
                    found.append((child, scope))
            visit(child, inner)

    visit(tree, tree)
    return found


def raised_rule_names(folder: Path) -> tuple[dict[str, str], list[str]]:
    """``({rule name: first place raised}, [places whose rule name cannot be read])`` over every
    module below ``folder``."""
    names: dict[str, str] = {}
    unread: list[str] = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for call, scope in _calls_in(tree):
            where = f"{path.relative_to(ROOT)}:{call.lineno}"
            argument = _rule_argument(call)
            found = _literals(argument) if argument is not None else set()
            if not found and isinstance(argument, ast.Name):  # a local name: its assignments
                for node in ast.walk(scope):
                    if isinstance(node, ast.Assign) and any(
                        isinstance(t, ast.Name) and t.id == argument.id for t in node.targets
                    ):
                        found |= _literals(node.value)
            if not found:
                unread.append(where)
            for name in found:
                names.setdefault(name, where)
    return names, unread


CORE_NAMES, CORE_UNREAD = raised_rule_names(ROOT / "gamelib" / "core")


def test_core_rule_names_are_read_and_documented_in_notation_md() -> None:
    assert CORE_UNREAD == []
    assert {"notation", "not-legal", "game-over", "not-chance"} <= set(CORE_NAMES)
    doc = NOTATION.read_text(encoding="utf-8")
    missing = sorted(f"{name} ({where})" for name, where in CORE_NAMES.items() if f"`{name}`" not in doc)
    assert missing == [], f"rule names core raises but docs/notation.md does not document: {missing}"


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_every_rule_name_raised_is_documented(name: str) -> None:
    raised, unread = raised_rule_names(ROOT / "gamelib" / name)
    assert unread == [], (
        f"{name}: IllegalAction rule names that are not a literal or a local table of literals "
        f"(write the name where it is raised): {unread}"
    )
    odd = sorted(rule for rule in raised if not KEBAB.fullmatch(rule))
    assert odd == [], f"{name}: rule names are kebab-case words (IllegalAction's contract): {odd}"
    docs = (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")
    docs += NOTATION.read_text(encoding="utf-8")
    missing = sorted(
        f"{rule} ({where})" for rule, where in {**CORE_NAMES, **raised}.items() if f"`{rule}`" not in docs
    )
    assert missing == [], f"rule names raised but not in docs/rules/{name}.md or docs/notation.md: {missing}"


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_the_source_reading_misses_no_rule_the_engine_raises(name: str) -> None:
    """Random play offering illegal actions of the universe: every refusal's rule was read above."""
    raised, _ = raised_rule_names(ROOT / "gamelib" / name)
    known = set(raised) | set(CORE_NAMES)
    game = gamelib.make(name)
    universe = list(game.action_universe())
    seen: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_game(seed=seed)
        while not state.is_terminal() and len(state.history) < 400:
            legal = set(state.legal_actions())
            for action in rng.sample(universe, min(12, len(universe))):
                if action not in legal:
                    with pytest.raises(gamelib.IllegalAction) as error:
                        state.apply(action)
                    seen.add(error.value.rule)
            state.apply(
                state.sample_chance(rng) if state.is_chance_node() else rng.choice(sorted(legal, key=str))
            )
    assert seen, f"{name}: no illegal action was offered"
    assert sorted(seen - known) == [], f"{name}: rules raised at play but not found in the source"
