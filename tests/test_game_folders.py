"""Every game folder has the same shape, and each file imports only what the template allows.

``docs/architecture.md`` writes the template down; this test holds the code to it.  A game is a
folder of the same few short files: its static content (``board``), its declarations
(``options``, ``actions``, optionally ``phases``), its rules (``rules``: the ``Game`` and the
``State``, which may be split along the rules' ideas into parts of any name, e.g. Get on Board's
``sticks`` and ``turns``), and above the rules ``encoding``, ``belief`` (Fugitive), ``analysis``,
``agents`` and ``draw``.  Imports are read from the source by ``tests/import_graph.py`` (lazy
imports inside functions count, ``TYPE_CHECKING`` ones do not).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from import_graph import ROOT, import_graph

import gamelib

GAMES = tuple(gamelib.registered_games())
"""Found by the registry: every folder of gamelib with a rules.py (a new game is checked at once)."""
FILES = ("__init__", "board", "options", "actions", "rules", "encoding", "analysis", "agents", "draw")
"""The files every game folder has."""
DECLARATIONS = ("options", "actions", "phases")
"""In this order, each may import the ones before it (and ``board``)."""
ABOVE_RULES = {
    "encoding": set(),
    "belief": set(),
    "analysis": {"belief", "encoding"},
    "agents": {"belief", "analysis", "encoding"},
    "draw": {"belief", "analysis"},
}
"""The files above the rules, with what each may import besides ``board`` and the rules layer."""

GRAPH = import_graph("gamelib", ROOT / "gamelib")


def folder_modules(game: str) -> set[str]:
    """The modules directly in ``gamelib/<game>`` (a package such as ``belief`` counts as one; a
    compiled extension, named by its ``.pyi`` stub such as A Une Passante's ``_fast``, is a part of
    the rules: it imports nothing from the folder, and the rules' Python beside it is its reference)."""
    folder = ROOT / "gamelib" / game
    modules = {p.stem for p in folder.glob("*.py")} | {p.stem for p in folder.glob("*.pyi")}
    return modules | {p.parent.name for p in folder.glob("*/__init__.py")}


def rule_parts(game: str) -> set[str]:
    """The modules the rules are split into: everything that is not board, declarations, above
    the rules, ``rules`` itself or ``__init__``."""
    named = {"__init__", "board", "rules", *DECLARATIONS, *ABOVE_RULES}
    return folder_modules(game) - named


def own_imports(game: str, module: str) -> set[str]:
    """The modules of ``gamelib.<game>`` that ``module`` (with its submodules) imports."""
    prefix = f"gamelib.{game}."
    found = set()
    for source, target in GRAPH.edges:
        if (source == prefix + module or source.startswith(f"{prefix}{module}.")) and target.startswith(
            prefix
        ):
            found.add(target[len(prefix) :].split(".")[0])
    return found - {module}


def allowed_imports(game: str, module: str) -> set[str]:
    """What the template lets ``module`` of ``game`` import from its own folder."""
    parts = rule_parts(game)
    if module == "board":
        return set()
    if module in DECLARATIONS:
        return {"board", *DECLARATIONS[: DECLARATIONS.index(module)]}
    rules_layer = {"rules", *DECLARATIONS, *parts}
    if module in parts:
        return {"board", *DECLARATIONS, *parts}  # the Game and State import the parts, not the reverse
    if module == "rules":
        return {"board", *DECLARATIONS, *parts}
    return {"board", *rules_layer, *ABOVE_RULES[module]}


@pytest.mark.parametrize("game", GAMES)
def test_every_game_folder_has_the_same_files(game: str) -> None:
    present = folder_modules(game)
    assert set(FILES) <= present, f"{game} lacks {sorted(set(FILES) - present)}"
    assert (ROOT / "gamelib" / game / "data" / "words.json").exists()


@pytest.mark.parametrize("game", GAMES)
def test_each_file_imports_only_what_the_template_allows(game: str) -> None:
    problems = []
    for module in sorted(folder_modules(game) - {"__init__"}):
        allowed = allowed_imports(game, module)
        extra = own_imports(game, module) - allowed
        if extra:
            problems.append(f"{module} imports {sorted(extra)} (allowed: {sorted(allowed) or 'core only'})")
    assert problems == []


def test_the_template_refuses_a_rules_file_that_imports_its_drawing() -> None:
    """The check can fail: the rules may not import what stands above them."""
    assert "draw" not in allowed_imports("fugitive", "rules")
    assert "rules" not in allowed_imports("fugitive", "actions")
    assert {"board", "options", "actions"} <= allowed_imports("fugitive", "rules")


def test_the_registry_finds_every_game_folder_without_importing_it() -> None:
    """A new game is a folder and nothing else: no list to edit, and ``import gamelib`` stays light."""
    code = (
        "import json, sys, gamelib\n"
        "names = gamelib.registered_games()\n"
        "loaded = [m for m in sys.modules if any(m.startswith(f'gamelib.{n}') for n in names)]\n"
        "print(json.dumps([names, loaded]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    names, loaded = json.loads(out.stdout)
    folders = sorted(p.parent.name for p in (ROOT / "gamelib").glob("*/rules.py"))
    assert names == folders and loaded == []
    for name in names:
        assert gamelib.make(name).info.name == name  # the folder's Game class, found by its info.name
