"""gamelib: four tabletop games as rules engines over networkx boards.

>>> import gamelib
>>> game = gamelib.make("fugitive")
>>> state = game.new_game(seed=7)
>>> state.current_player == gamelib.CHANCE      # the setup deal is a chance node
True
"""

from typing import Any

from gamelib.core import (
    CHANCE,
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

__version__ = "0.1.0"

# The games are the folders of this package that hold a rules.py (gamelib.core.registry finds
# them without importing them); register() adds a game that lives elsewhere.


def tournament(*args: Any, **kwargs: Any) -> Any:
    """Play many games between agents: see :func:`gamelib.analysis.tournament.tournament`."""
    from gamelib.analysis.tournament import tournament as _tournament

    return _tournament(*args, **kwargs)


def sweep(*args: Any, **kwargs: Any) -> Any:
    """How a rule option moves outcomes: see :func:`gamelib.analysis.sweep.sweep`."""
    from gamelib.analysis.sweep import sweep as _sweep

    return _sweep(*args, **kwargs)


__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "Game",
    "GameInfo",
    "IllegalAction",
    "OptionError",
    "RecordError",
    "State",
    "__version__",
    "from_record",
    "language",
    "make",
    "play",
    "register",
    "registered_games",
    "set_language",
    "sweep",
    "tournament",
]
