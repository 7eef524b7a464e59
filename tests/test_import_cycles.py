"""gamelib and gamelib_widgets have no import cycle, lazy imports included (issue 23 item 9).

The graph is read from the source (``tests/import_graph.py``: lazy imports count, ``TYPE_CHECKING``
ones do not).  A failure names one cycle, each edge with the file and line of its import.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from import_graph import ROOT, a_cycle, import_graph

PACKAGES = {"gamelib": ROOT / "gamelib", "gamelib_widgets": ROOT / "widgets"}
"""Each package's import name and its folder (``widgets/`` installs as ``gamelib_widgets``)."""


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


def test_a_compiled_module_with_a_stub_is_a_module_not_its_package(tmp_path: Path) -> None:
    """``from toy import _ext`` where ``_ext`` is a C extension (a ``.pyi`` stub beside its source,
    no ``.py``) imports that module: the package importing a module that imports ``_ext`` is no cycle."""
    folder = tmp_path / "toy"
    folder.mkdir()
    (folder / "__init__.py").write_text("from toy.loops import run\n")
    (folder / "loops.py").write_text("from toy import _ext\nrun = _ext.run\n")
    (folder / "_ext.pyi").write_text("def run() -> None: ...\n")
    graph = import_graph("toy", folder)
    assert set(graph.edges) == {("toy", "toy.loops"), ("toy.loops", "toy._ext")}
    assert a_cycle(graph) == ""
