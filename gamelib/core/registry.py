"""The registry of games: ``gamelib.make(name, ...)`` looks names up here."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from gamelib.core.errors import OptionError
from gamelib.core.game import Game

# name -> "module:Class".  Games register lazily so ``import gamelib`` stays fast and a game's
# import cost is paid only when it is used.
_GAMES: dict[str, str] = {}


def register(name: str, target: str) -> None:
    """Register a game class by import path (``"package.module:Class"``)."""
    _GAMES[name] = target


def registered_games() -> list[str]:
    """Names of every registered game, in registration order."""
    return list(_GAMES)


def game_class(name: str) -> type[Game]:
    if not isinstance(name, str) or name not in _GAMES:
        raise OptionError(f"unknown game {name!r}; registered games: {', '.join(_GAMES)}")
    module_name, _, class_name = _GAMES[name].partition(":")
    cls: type[Game] = getattr(importlib.import_module(module_name), class_name)
    return cls


def make(
    name: str,
    players: int | None = None,
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
            f"{name}: options are a mapping of option name to value (e.g. {{'edition': 2}}), "
            f"got {type(options).__name__}"
        )
    merged = dict(options or {})
    clash = set(merged) & set(option_kwargs)
    if clash:
        raise OptionError(f"option(s) {sorted(clash)} given both in options= and as keywords")
    merged.update(option_kwargs)
    return game_class(name)(players=players, options=merged)
