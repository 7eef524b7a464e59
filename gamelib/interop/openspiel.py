"""Every gamelib game as an OpenSpiel Python game (``pyspiel``), so OpenSpiel's algorithms run on it.

>>> from gamelib.interop.openspiel import load_game
>>> game = load_game("fugitive")                 # pyspiel.load_game("gamelib_fugitive") works too
>>> import pyspiel
>>> pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)

Integer actions are indices in ``Game.action_universe()``; chance outcomes share that encoding.
Observation strings and tensors come from ``state.observation(player)`` and
``state.observation_tensor(player)`` (what the seat sees now); information-state strings and
tensors from ``state.information_state_string(player)`` and ``state.information_state_tensor(player)``
(the observation plus the history as that seat saw it: perfect recall, as CFR assumes).  Tensors
exist for the games whose ``GameInfo`` declares the ``"observation_tensor"`` capability.

Every game has terminal rewards (OpenSpiel's ``RewardModel.TERMINAL``, which its ``MCTSBot``
requires): ``rewards()`` and ``returns()`` are zero until the end.  :func:`load_game` checks the
options with gamelib first, so both libraries take the same values and refuse the others by name.

``pyspiel`` is an optional dependency (``pip install gamelib[openspiel]``); gamelib's core never
imports this module.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

import gamelib
from gamelib.core.game import Game, State

PREFIX = "gamelib_"

_UTILITY = {
    "zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
    "constant_sum": pyspiel.GameType.Utility.CONSTANT_SUM,
    "general_sum": pyspiel.GameType.Utility.GENERAL_SUM,
    "identical": pyspiel.GameType.Utility.IDENTICAL,
}
_registered: dict[str, type] = {}


def _parameters(name: str) -> dict[str, Any]:
    """The pyspiel parameter specification: ``players`` plus every rule option with its default."""
    cls = gamelib.core.game_class(name)
    defaults = gamelib.make(name).option_dict()
    spec: dict[str, Any] = {"players": cls.info.default_players}
    for key, value in defaults.items():
        if isinstance(value, (bool, int, float, str)):
            spec[key] = value
    return spec


def _game_type(name: str) -> pyspiel.GameType:
    info = gamelib.core.game_class(name).info
    has_tensor = info.has("observation_tensor")
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"gamelib {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if info.has_chance
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.PERFECT_INFORMATION
            if info.perfect_information
            else pyspiel.GameType.Information.IMPERFECT_INFORMATION
        ),
        utility=_UTILITY[info.utility],
        # Every game rewards at the end (OpenSpiel's MCTSBot requires it): rewards() and returns()
        # are zero until the terminal state, which gets the whole returns.  A running score (A Une
        # Passante counts wishes as they come true) is read mid-game from the gamelib state.
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=has_tensor,
        provides_observation_string=True,
        provides_observation_tensor=has_tensor,
        parameter_specification=_parameters(name),
    )


class SpielGame(pyspiel.Game):
    """A pyspiel.Game wrapping one gamelib game configuration."""

    gamelib_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.pop("players", 0)) or None
        defaults = gamelib.make(self.gamelib_name).option_dict()
        options = {k: v for k, v in params.items() if k in defaults and v != defaults[k]}
        game = gamelib.make(self.gamelib_name, players=players, options=options)
        universe = tuple(game.action_universe())
        info = game.info
        game_info = pyspiel.GameInfo(
            num_distinct_actions=len(universe),
            max_chance_outcomes=len(universe) if info.has_chance else 0,
            num_players=game.num_players,
            min_utility=float(info.min_return),
            max_utility=float(info.max_return),
            utility_sum=0.0 if info.utility == "zero_sum" else None,
            max_game_length=game.max_game_length,
        )
        super().__init__(_game_type(self.gamelib_name), game_info, {"players": game.num_players, **params})
        self.gamelib_game: Game = game
        self.universe = universe

    def new_initial_state(self, seed: int = 0) -> SpielState:
        return SpielState(self, self.gamelib_game.new_game(seed=seed))

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> Observer:
        return Observer(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class SpielState(pyspiel.State):
    """A pyspiel.State delegating every rule to the wrapped gamelib state."""

    def __init__(self, game: pyspiel.Game, state: State) -> None:
        super().__init__(game)
        # Only the gamelib state is kept: pybind11 may hand later calls a fresh wrapper of the C++
        # game without its Python attributes, and pyspiel deep-copies this object's __dict__.
        self.gamelib_state = state

    def current_player(self) -> int:
        player = self.gamelib_state.current_player
        if player == gamelib.TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if player == gamelib.CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return int(player)

    def _legal_actions(self, player: int) -> list[int]:
        ids = self.gamelib_state.game.action_id
        return sorted(ids(a) for a in self.gamelib_state.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        ids = self.gamelib_state.game.action_id
        return sorted((ids(a), p) for a, p in self.gamelib_state.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        state = self.gamelib_state
        state.apply(state.game.action_from_id(action))

    def rewards(self) -> list[float]:
        """Terminal rewards (the game type's reward model): zeros until the end, then the returns."""
        state = self.gamelib_state
        if state.is_terminal():
            return [float(r) for r in state.returns()]
        return [0.0] * state.game.num_players

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.gamelib_state.game.action_from_id(action))

    def is_terminal(self) -> bool:
        return self.gamelib_state.is_terminal()

    def returns(self) -> list[float]:
        """The returns at the end, zeros before (terminal rewards: the sum of the rewards so far)."""
        state = self.gamelib_state
        if not state.is_terminal():
            return [0.0] * state.game.num_players
        return [float(r) for r in state.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpielState:
        """A world consistent with ``player_id``'s information (IS-MCTS), via ``determinize``."""
        seed = int(probability_sampler() * 2**31)
        world = self.gamelib_state.determinize(player_id, random.Random(seed))
        return SpielState(self.get_game(), world)

    def clone(self) -> SpielState:
        return SpielState(self.get_game(), self.gamelib_state.clone())

    def __deepcopy__(self, memo: dict[int, Any]) -> SpielState:
        return self.clone()

    def __str__(self) -> str:
        return str(self.gamelib_state)


class Observer:
    """OpenSpiel's PyObserver protocol: ``tensor``, ``dict``, ``set_from``, ``string_from``.

    With ``perfect_recall`` it observes information states (observation + the seat's history),
    otherwise the seat's current observation.
    """

    def __init__(self, game: SpielGame, iig_obs_type: pyspiel.IIGObservationType, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self._perfect_recall = bool(iig_obs_type.perfect_recall)
        gamelib_game = game.gamelib_game
        if gamelib_game.info.has("observation_tensor"):
            if self._perfect_recall:
                size = gamelib_game.information_state_tensor_size()
            else:
                size = len(gamelib_game.new_game(seed=0).observation_tensor(0))
            self.tensor: np.ndarray | None = np.zeros(size, np.float32)
            self.dict = {"information_state" if self._perfect_recall else "observation": self.tensor}
        else:
            self.tensor = None
            self.dict = {}

    def set_from(self, state: SpielState, player: int) -> None:
        if self.tensor is None:
            return
        gamelib_state = state.gamelib_state
        if self._perfect_recall:
            self.tensor[:] = gamelib_state.information_state_tensor(player)
        else:
            self.tensor[:] = gamelib_state.observation_tensor(player)

    def string_from(self, state: SpielState, player: int) -> str:
        if self._perfect_recall:
            return state.gamelib_state.information_state_string(player)
        return repr(state.gamelib_state.observation(player))


def register(name: str) -> str:
    """Register ``name`` with pyspiel (once) and return its OpenSpiel short name."""
    if name not in _registered:
        cls = type(f"Spiel_{name}", (SpielGame,), {"gamelib_name": name})
        pyspiel.register_game(_game_type(name), cls)
        _registered[name] = cls
    return PREFIX + name


def register_all() -> list[str]:
    """Register every gamelib game; returns their OpenSpiel short names."""
    return [register(name) for name in gamelib.registered_games()]


INT_LIMIT = 2**31 - 1
"""OpenSpiel's game parameters are C++ ints: a larger option cannot cross to it."""


def load_game(name: str, **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game`` for a gamelib game (registering it first); params are players/options.

    The parameters are checked by gamelib first, so both libraries take the same values and a
    bad one is refused by name (an :class:`~gamelib.OptionError`), never by a C++ cast error.
    """
    options = dict(params)
    players = options.pop("players", None)
    game = gamelib.make(name, players=players, options=options)  # gamelib's bounds, by name
    for key, value in {"players": game.num_players, **game.option_dict()}.items():
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > INT_LIMIT:
            raise gamelib.OptionError(f"{name}: option {key!r} must fit OpenSpiel's 32-bit int, got {value}")
    checked = {key: game.option_dict()[key] for key in options}
    if players is not None:
        checked["players"] = game.num_players
    return pyspiel.load_game(register(name), checked)
