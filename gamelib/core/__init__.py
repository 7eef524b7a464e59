"""The game protocol, errors, records, registry and deterministic randomness shared by all games,
and the declarations a game is written with (its state's fields, its actions' notation)."""

from gamelib.core.errors import IllegalAction, OptionError, RecordError
from gamelib.core.fields import StateFields
from gamelib.core.game import CHANCE, PUBLIC, TERMINAL, Action, Game, GameInfo, NoOptions, State
from gamelib.core.notation import Choice, Int, Notation, action_class
from gamelib.core.options import Between, OptionSpec
from gamelib.core.phases import Phase, Phases
from gamelib.core.play import Agent, play
from gamelib.core.records import from_record
from gamelib.core.registry import game_class, make, register, registered_games
from gamelib.core.resolve import resolve
from gamelib.core.rulebook import refusal, transition

__all__ = [
    "CHANCE",
    "PUBLIC",
    "TERMINAL",
    "Action",
    "Agent",
    "Between",
    "Choice",
    "Game",
    "GameInfo",
    "IllegalAction",
    "Int",
    "NoOptions",
    "Notation",
    "OptionError",
    "OptionSpec",
    "Phase",
    "Phases",
    "RecordError",
    "State",
    "StateFields",
    "action_class",
    "from_record",
    "game_class",
    "make",
    "play",
    "refusal",
    "register",
    "registered_games",
    "resolve",
    "transition",
]
