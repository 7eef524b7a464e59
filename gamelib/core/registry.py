"""The registry of games: ``gamelib.make(name, ...)`` looks names up here."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from importlib import resources
from typing import Any, SupportsIndex

from gamelib.core.errors import OptionError, shown
from gamelib.core.game import Game
from gamelib.core.resolve import resolve

# name -> "module:Class" (or "module" alone: the Game class it defines for that name).  Games
# register lazily so ``import gamelib`` stays fast and a game's import cost is paid only when it
# is used.
_GAMES: dict[str, str] = {}
_DISCOVERED: list[str] | None = None


def register(name: str, target: str) -> None:
    """Register a game class by import path (``"package.module:Class"``): a game that lives
    outside ``gamelib`` (a game folder inside it is found on its own)."""
    _GAMES[name] = target


def _discover() -> list[str]:
    """The game folders of ``gamelib``: every subpackage with a ``rules.py``, by name.

    A new game is a folder and nothing else: no list to edit.  The files are looked at, not
    imported, so ``import gamelib`` and ``registered_games()`` import no game.
    """
    global _DISCOVERED
    if _DISCOVERED is None:
        root = resources.files("gamelib")
        _DISCOVERED = sorted(
            entry.name
            for entry in root.iterdir()
            if entry.is_dir()
            and entry.joinpath("rules.py").is_file()
            and entry.joinpath("__init__.py").is_file()
        )
    return _DISCOVERED


def registered_games() -> list[str]:
    """Names of every game: gamelib's own folders (alphabetical), then any registered."""
    own = _discover()
    return own + [name for name in _GAMES if name not in own]


def game_class(name: str) -> type[Game]:
    known = registered_games()
    if not isinstance(name, str) or name not in known:
        raise OptionError(f"unknown game {shown(name)}; registered games: {', '.join(known)}")
    target = _GAMES.get(name, f"gamelib.{name}.rules")
    if ":" in target:
        cls: type[Game] = resolve(target)
        return cls
    module_name = target
    module = importlib.import_module(module_name)
    found = [
        value
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, Game)
        and value.__module__ == module_name
        and getattr(value, "info", None) is not None
        and value.info.name == name
    ]
    if len(found) != 1:
        raise OptionError(f"{module_name} must define one Game class whose info.name is {name!r}")
    return found[0]


def make(
    name: str,
    players: SupportsIndex | None = None,
    options: Mapping[str, Any] | None = None,
    **option_kwargs: Any,
) -> Game:
    """A game by name, with a player count and rule options (a dict, keywords, or both).

    >>> import gamelib
    >>> gamelib.make("fugitive", options={"edition": 2}).options.edition
    2
    """
    if options is not None and not isinstance(options, Mapping):
        raise OptionError(
            f"{shown(name)}: options are a mapping of option name to value (e.g. {{'edition': 2}}), "
            f"got {type(options).__name__}"
        )
    merged = dict(options or {})
    clash = set(merged) & set(option_kwargs)
    if clash:
        raise OptionError(
            f"option(s) {[shown(c) for c in sorted(clash)]} given both in options= and as keywords"
        )
    merged.update(option_kwargs)
    return game_class(name)(players=players, options=merged)
