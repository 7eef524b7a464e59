"""gamelib: four tabletop games as rules engines over networkx boards.

>>> import gamelib
>>> game = gamelib.make("fugitive")
>>> state = game.new_game(seed=7)
>>> state.current_player == gamelib.CHANCE      # the setup deal is a chance node
True
"""

import importlib
from types import ModuleType
from typing import Any

from gamelib.core import (
    CHANCE,
    PUBLIC,
    TERMINAL,
    Action,
    Game,
    GameInfo,
    IllegalAction,
    OptionError,
    RecordError,
    State,
    from_record,
    make,
    play,
    register,
    registered_games,
)
from gamelib.core.i18n import language, set_language
from gamelib.core.options import Between, OptionSpec
from gamelib.core.version import __version__

# The games are the folders of this package that hold a rules.py (gamelib.core.registry finds
# them without importing them); register() adds a game that lives elsewhere.


def options(game: str) -> tuple[OptionSpec, ...]:
    """Every rule option of ``game``: name, default, type, allowed values or range, doc line.

    >>> import gamelib
    >>> [o.name for o in gamelib.options("fugitive")][:2]
    ['edition', 'max_rounds']
    """
    from gamelib.core.registry import game_class

    return game_class(game).option_specs()


def tournament(*args: Any, **kwargs: Any) -> Any:
    """Play many games between agents: see :func:`gamelib.analysis.tournament.tournament`."""
    from gamelib.analysis.tournament import tournament as _tournament

    return _tournament(*args, **kwargs)


def sweep(*args: Any, **kwargs: Any) -> Any:
    """How a rule option moves outcomes: see :func:`gamelib.analysis.sweep.sweep`."""
    from gamelib.analysis.sweep import sweep as _sweep

    return _sweep(*args, **kwargs)


_SUBPACKAGES = frozenset({"agents", "analysis", "room"})
"""Imported on first use (``gamelib.room.open_room(...)`` after ``import gamelib``): a plain
``import gamelib`` stays light, and the public contract's dotted names still work."""


def __getattr__(name: str) -> ModuleType:
    if name in _SUBPACKAGES:
        return importlib.import_module(f"gamelib.{name}")
    raise AttributeError(f"module 'gamelib' has no attribute {name!r}")


__all__ = [
    "CHANCE",
    "PUBLIC",
    "TERMINAL",
    "Action",
    "Between",
    "Game",
    "GameInfo",
    "IllegalAction",
    "OptionError",
    "OptionSpec",
    "RecordError",
    "State",
    "__version__",
    "from_record",
    "language",
    "make",
    "options",
    "play",
    "register",
    "registered_games",
    "set_language",
    "sweep",
    "tournament",
]
