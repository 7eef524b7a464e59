"""``resolve("package.module:name")``: the one way gamelib turns a path into an object.

Games name their drawing, encoder and determinizer by path (so ``rules.py`` never imports the
files that import it), and the registry names game classes the same way; both come here.  The
modules a game offers by convention next to its rules (its ``encoding``, ``agents``, ``analysis``)
are found by :func:`companion_module`.
"""

from __future__ import annotations

import importlib
from typing import Any

from gamelib.core.errors import shown

_RESOLVED: dict[str, Any] = {}


def resolve(path: str) -> Any:
    """The object named ``"package.module:name"`` (imported once, then cached).

    ``name`` may be dotted (``"module:Class.method"``).  ValueError for a malformed path or a
    missing name, naming the path; an ImportError of the module itself goes through.
    """
    found = _RESOLVED.get(path)
    if found is None:
        if not isinstance(path, str):
            raise ValueError(f"expected 'package.module:name', got {shown(path)}")
        module_name, _, name = path.partition(":")
        if not module_name or not name:
            raise ValueError(f"expected 'package.module:name', got {shown(path)}")
        found = importlib.import_module(module_name)
        for part in name.split("."):
            try:
                found = getattr(found, part)
            except AttributeError:
                raise ValueError(f"{shown(path)}: {module_name} has no {name!r}") from None
        _RESOLVED[path] = found
    return found


def companion_module(game_type: type, kind: str) -> Any:
    """The module ``kind`` (``"encoding"``, ``"agents"``, ``"analysis"``) next to a game's rules,
    or None if the game ships none: how tools find what a game offers by convention.  An import
    error inside that module is raised, never mistaken for its absence."""
    package = game_type.__module__.rpartition(".")[0]
    if not package:  # a game defined in a top-level module has no companions beside it
        return None
    try:
        return importlib.import_module(f"{package}.{kind}")
    except ModuleNotFoundError as exc:
        if exc.name is not None and exc.name.startswith(f"{package}.{kind}"):
            return None
        raise


__all__ = ["companion_module", "resolve"]
