"""gamelib and gamelib_widgets have no import cycle, lazy imports included (issue 23 item 9).

The module import graph is read from the source with :mod:`ast`: every ``import`` and
``from ... import`` of a module of the package, at module level or inside a function (a lazy
import closes a cycle as surely as an eager one, only later), relative imports resolved; imports
under ``if TYPE_CHECKING:`` are left out (they never run).  ``from package import submodule`` is
an edge to the submodule alone; ``from package import name`` (a name the ``__init__`` defines or
re-exports) is an edge to the package.  A path named as a string (``resolve("pkg.module:name")``,
how a game names its drawing) is no import: that is the documented way to name a later layer.

A failure names one cycle, each edge with the file and line of its import.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"gamelib": ROOT / "gamelib", "gamelib_widgets": ROOT / "widgets"}
"""Each package's import name and its folder (``widgets/`` installs as ``gamelib_widgets``)."""


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


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_no_import_cycle(package: str) -> None:
    graph = import_graph(package, PACKAGES[package])
    assert graph.number_of_edges() > 20, f"{package}: the import graph was not read"
    cycle = a_cycle(graph)
    assert cycle == "", f"{package} has an import cycle: {cycle}"


def test_the_reader_finds_a_cycle_closed_by_a_lazy_import(tmp_path: Path) -> None:
    """The check can fail: a toy package whose cycle is closed inside a function, through a
    relative import and ``from package import name``; a TYPE_CHECKING import is no edge."""
    folder = tmp_path / "toy"
    (folder / "sub").mkdir(parents=True)
    (folder / "__init__.py").write_text("from toy.a import A\n")
    (folder / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from toy.sub.c import C\nfrom .sub import b\nA = 1\n"
    )
    (folder / "sub" / "__init__.py").write_text("")
    (folder / "sub" / "b.py").write_text("def later():\n    from ..sub.c import C\n    return C\n")
    (folder / "sub" / "c.py").write_text("from toy import A\nC = A\n")
    graph = import_graph("toy", folder)
    assert set(graph.edges) == {
        ("toy", "toy.a"),
        ("toy.a", "toy.sub.b"),
        ("toy.sub.b", "toy.sub.c"),
        ("toy.sub.c", "toy"),
    }
    assert graph.edges["toy.sub.b", "toy.sub.c"]["lazy"]
    cycle = a_cycle(graph)
    assert "toy.sub.b -> toy.sub.c (" in cycle and "b.py:2, in a function)" in cycle
    (folder / "sub" / "c.py").write_text("C = 1\n")
    assert a_cycle(import_graph("toy", folder)) == ""
