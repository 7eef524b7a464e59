"""gamelib.core has no import cycle, lazy (function-level) imports included, and never reaches up
into the ``gamelib`` package or into a game."""

from __future__ import annotations

import ast
from pathlib import Path

import gamelib.core

CORE = Path(gamelib.core.__file__).parent


def _imports(path: Path) -> set[str]:
    """Every ``gamelib...`` module ``path`` imports, at any depth, outside ``if TYPE_CHECKING``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only.update(id(child) for stmt in node.body for child in ast.walk(stmt))
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("gamelib")}


def _graph() -> dict[str, set[str]]:
    modules = {f"gamelib.core.{p.stem}": p for p in CORE.glob("*.py") if p.stem != "__init__"}
    return {name: {m for m in _imports(path) if m in modules and m != name} for name, path in modules.items()}


def test_core_has_no_import_cycle() -> None:
    graph = _graph()
    assert len(graph) >= 10 and graph["gamelib.core.records"]  # the graph was read
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            assert state.get(nxt) != 1, "import cycle: " + " -> ".join([*path[path.index(nxt) :], nxt])
            if nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)


def test_core_imports_neither_the_package_above_nor_a_game() -> None:
    for path in CORE.glob("*.py"):
        for name in _imports(path):
            assert name.startswith("gamelib.core"), f"{path.name} imports {name}"


def test_the_old_cycle_is_gone() -> None:
    graph = _graph()
    assert "gamelib.core.records" not in graph["gamelib.core.game"]
    assert "gamelib.core.game" in graph["gamelib.core.records"]  # records is above the protocol
