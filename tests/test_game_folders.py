"""Every game folder has the same shape, and each file imports only what the template allows.

``docs/architecture.md`` writes the template down; this test holds the code to it.  Imports are
read from the source (lazy imports inside functions count too: a lazy import is still a cycle).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import gamelib

ROOT = Path(__file__).resolve().parent.parent
GAMES = tuple(gamelib.registered_games())
"""Found by the registry: every folder of gamelib with a rules.py (a new game is checked at once)."""
FILES = ("__init__", "board", "rules", "agents", "analysis", "draw", "encoding")
"""The files every game folder has (Fugitive adds ``belief``, its exact belief)."""
EXTRA = {"fugitive": {"belief"}, "passante": {"actions", "options", "effects", "refusals"}}
MAY_IMPORT = {
    "board": set(),
    "rules": {"board", "actions", "options", "effects", "refusals"},
    "actions": {"board"},
    "options": {"board"},
    "effects": {"board", "actions", "options"},
    "refusals": {"board", "actions", "options", "effects"},
    "encoding": {"board", "rules"},
    "belief": {"board", "rules"},
    "analysis": {"board", "rules", "belief", "encoding"},
    "agents": {"board", "rules", "belief", "analysis", "encoding"},
    "draw": {"board", "rules", "belief", "analysis"},
}
"""What each file may import from its own game folder (``gamelib.core`` and the data are always
allowed; ``__init__`` gathers the public names)."""


def sources(game: str, module: str) -> list[Path]:
    """The files of ``module`` in ``gamelib/<game>``: ``module.py``, or every file of the package
    ``module/`` (Fugitive's belief grew into one); [] when the game has no such module."""
    folder = ROOT / "gamelib" / game
    if (folder / f"{module}.py").exists():
        return [folder / f"{module}.py"]
    if (folder / module / "__init__.py").exists():
        return sorted((folder / module).glob("*.py"))
    return []


def own_imports(game: str, module: str) -> set[str]:
    """The modules of ``gamelib.<game>`` that ``module`` imports, anywhere in its file(s)."""
    prefix = f"gamelib.{game}."
    found = set()
    for path in sources(game, module):
        found |= _imports(path, game, prefix)
    return found - {module}


def _imports(path: Path, game: str, prefix: str) -> set[str]:
    tree = ast.parse(path.read_text())
    package = path.parent.name if path.parent.name != game else None
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or node.level):
            name = node.module or ""
            if node.level:  # relative: from .rules import X / from . import rules / from ..board
                base = f"gamelib.{game}" + (f".{package}" if package and node.level == 1 else "")
                name = f"{base}.{name}" if name else base
            if name.startswith(prefix):
                found.add(name[len(prefix) :].split(".")[0])
            elif name == f"gamelib.{game}":
                found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(prefix):
                    found.add(alias.name[len(prefix) :].split(".")[0])
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_game_folder_has_the_same_files(game: str) -> None:
    folder = ROOT / "gamelib" / game
    present = {p.stem for p in folder.glob("*.py")} | {p.parent.name for p in folder.glob("*/__init__.py")}
    assert present == set(FILES) | EXTRA.get(game, set())
    assert (ROOT / "gamelib" / game / "data" / "words.json").exists()


@pytest.mark.parametrize("game", GAMES)
def test_each_file_imports_only_what_the_template_allows(game: str) -> None:
    problems = []
    for module, allowed in MAY_IMPORT.items():
        if not sources(game, module):
            continue
        extra = own_imports(game, module) - allowed
        if extra:
            problems.append(
                f"{module}.py imports {sorted(extra)} (allowed: {sorted(allowed) or 'core only'})"
            )
    assert problems == []


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
