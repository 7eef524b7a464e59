"""The game protocol, errors, records, registry and deterministic randomness shared by all games."""

from gamelib.core.errors import IllegalAction, OptionError, RecordError
from gamelib.core.game import CHANCE, TERMINAL, Action, Game, GameInfo, NoOptions, State
from gamelib.core.play import Agent, play
from gamelib.core.records import from_record
from gamelib.core.registry import game_class, make, register, registered_games

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "Agent",
    "Game",
    "GameInfo",
    "IllegalAction",
    "NoOptions",
    "OptionError",
    "RecordError",
    "State",
    "from_record",
    "game_class",
    "make",
    "play",
    "register",
    "registered_games",
]
