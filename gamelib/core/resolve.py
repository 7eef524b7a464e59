"""``resolve("package.module:name")``: the one way gamelib turns a path into an object.

Games name their drawing, encoder and determinizer by path (so ``rules.py`` never imports the
files that import it), and the registry names game classes the same way; both come here.
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


__all__ = ["resolve"]
