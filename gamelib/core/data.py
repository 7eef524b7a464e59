"""Reading a game's data files (``<package>/data/*.json``), validated, with errors that say where.

Every game keeps its content as JSON (cards, terrains, maps, words) and checks it on load, so a
hand-edited file fails at once with a message naming the file, the entry and the field instead of
a ``KeyError`` deep in a turn.  The reading and the field checks are the same for every game and
live here; each game says what its files must contain.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


class DataError(ValueError):
    """A data file breaks its format: the message names the file, the entry and the field.

    Games subclass it to say which content broke (``MapError``, ``WishDataError``...), so a
    caller may catch one game's errors or all of them.
    """


def load_json(package: str, name: str, error: type[DataError] = DataError) -> Any:
    """The JSON document ``<package>/data/<name>``; ``error`` naming the file if it is missing or
    is not JSON."""
    try:
        text = resources.files(package).joinpath("data", name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"data file {name} is missing from {package}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{name}: not valid JSON: {exc}") from None


def require(condition: bool, where: str, message: str, error: type[DataError] = DataError) -> None:
    """Raise ``error("<where>: <message>")`` unless ``condition`` holds."""
    if not condition:
        raise error(f"{where}: {message}")


def entries(
    raw: Any, where: str, count: int | None = None, error: type[DataError] = DataError
) -> list[tuple[str, dict[str, Any]]]:
    """The objects of a JSON list, each with the name of its place (``"cards[3]"``); ``error`` if
    ``raw`` is not a list (of ``count`` entries, when given) of objects."""
    if not isinstance(raw, list) or not raw or (count is not None and len(raw) != count):
        expected = f"a list of {count} entries" if count is not None else "a non-empty list"
        found = f"{len(raw)} entries" if isinstance(raw, list) else type(raw).__name__
        raise error(f"{where}: expected {expected}, got {found}")
    out = []
    for i, entry in enumerate(raw):
        place = f"{where}[{i}]"
        if not isinstance(entry, dict):
            raise error(f"{place}: expected an object")
        out.append((place, entry))
    return out


def field(
    entry: dict[str, Any],
    name: str,
    kind: type | tuple[type, ...],
    where: str,
    error: type[DataError] = DataError,
) -> Any:
    """``entry[name]``, checked: present, of type ``kind`` (a bool is never a number), and a
    string not blank."""
    if name not in entry:
        raise error(f"{where}: missing field {name!r}")
    value = entry[name]
    if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
        expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise error(f"{where}: field {name!r} must be {expected}, got {value!r}")
    if isinstance(value, str) and not value.strip():
        raise error(f"{where}: field {name!r} is empty")
    return value


__all__ = ["DataError", "entries", "field", "load_json", "require"]
