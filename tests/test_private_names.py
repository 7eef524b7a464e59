"""Private names stay private (issue 23 item 6): no package of gamelib imports another one's
underscore names, and the widgets import none of gamelib's (they use only its public API).

Inside one package (a game folder, core) a module may share its private helpers with its siblings;
across packages, a name worth importing is worth a public name and a docstring.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def private_imports(folder: Path, package: str) -> list[str]:
    """``from gamelib.<other>... import _name`` in the modules of ``folder`` (named ``package``),
    where ``<other>`` is not the importing module's own package of gamelib."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        parts = [package, *path.relative_to(folder).with_suffix("").parts]
        own = parts[1] if package == "gamelib" and len(parts) > 2 else None
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("gamelib")):
                continue
            if node.module.split(".")[0] != "gamelib":
                continue  # gamelib_widgets' own modules
            target = node.module.split(".")[1] if "." in node.module else None
            for alias in node.names:
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                if private and (package != "gamelib" or target != own):
                    found.append(
                        f"{path.relative_to(folder.parent)}:{node.lineno} {node.module}.{alias.name}"
                    )
    return found


def test_no_package_imports_another_ones_private_names() -> None:
    assert private_imports(ROOT / "gamelib", "gamelib") == []


def test_the_widgets_import_no_private_name_of_gamelib() -> None:
    assert private_imports(ROOT / "widgets", "gamelib_widgets") == []


def test_the_check_can_fail(tmp_path: Path) -> None:
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "x.py").write_text("from gamelib.core.y import _own\n")
    (tmp_path / "game.py").write_text("from gamelib.core.options import _literal_choices\n")
    found = private_imports(tmp_path, "gamelib")
    assert len(found) == 1 and found[0].endswith("gamelib.core.options._literal_choices")
