"""The import graph of a package, read from its source with :mod:`ast` (for the tests of import
cycles and of the game-folder template).

Every ``import`` and ``from ... import`` of a module of the package counts, at module level or
inside a function (a lazy import closes a cycle as surely as an eager one, only later), relative
imports resolved; imports under ``if TYPE_CHECKING:`` are left out (they never run).  ``from
package import submodule`` is an edge to the submodule alone; ``from package import name`` (a name
the ``__init__`` defines or re-exports) is an edge to the package.  A path named as a string
(``resolve("pkg.module:name")``, how a game names its drawing) is no import.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent


class Edge(NamedTuple):
    target: str
    where: str
    lazy: bool


def module_names(package: str, folder: Path) -> dict[str, Path]:
    """Every module of ``package`` by dotted name (a package by its own name)."""
    names = {}
    for path in sorted(folder.rglob("*.py")):
        parts = [package, *path.relative_to(folder).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    # a compiled extension (``belief/_kernel.c``) is a module too: its stub names it and says what it
    # imports, so ``from package import _kernel`` is an edge to it, not to the package
    for path in sorted(folder.rglob("*.pyi")):
        if not path.with_suffix(".py").exists():
            names[".".join([package, *path.relative_to(folder).with_suffix("").parts])] = path
    return names


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(name: str, path: Path, modules: dict[str, Path], root: Path = ROOT) -> list[Edge]:
    """The imports of module ``name`` (file ``path``, shown relative to ``root``) that land on
    one of ``modules``."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: list[Edge] = []

    def add(target: str, node: ast.stmt, lazy: bool) -> None:
        if target in modules and target != name:
            found.append(Edge(target, f"{path.relative_to(root)}:{node.lineno}", lazy))

    def visit(node: ast.AST, lazy: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                for other in child.orelse:
                    visit(other, lazy)
                continue
            inner = lazy or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            if isinstance(child, ast.Import):
                for alias in child.names:
                    add(alias.name, child, lazy)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package[: len(package) - (child.level - 1)]
                    base = ".".join([*up, *([child.module] if child.module else [])])
                submodules = [
                    f"{base}.{alias.name}" for alias in child.names if f"{base}.{alias.name}" in modules
                ]
                if len(submodules) < len(child.names):
                    add(base, child, lazy)
                for submodule in submodules:
                    add(submodule, child, lazy)
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def import_graph(package: str, folder: Path) -> nx.DiGraph:
    """The modules of ``package`` and their imports of each other (edge data: ``where``, ``lazy``)."""
    modules = module_names(package, folder)
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        for edge in imports_of(name, path, modules, folder.parent):
            if not graph.has_edge(name, edge.target):
                graph.add_edge(name, edge.target, where=edge.where, lazy=edge.lazy)
    return graph


def a_cycle(graph: nx.DiGraph) -> str:
    """One cycle of ``graph`` written edge by edge with where each import stands ('' if none)."""
    try:
        cycle = nx.find_cycle(graph)
    except nx.NetworkXNoCycle:
        return ""
    steps = []
    for source, target in cycle:
        data = graph.edges[source, target]
        steps.append(f"{source} -> {target} ({data['where']}{', in a function' if data['lazy'] else ''})")
    return "; ".join(steps)
