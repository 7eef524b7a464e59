"""The game protocol every game implements: a small set of hooks, as in OpenSpiel's Python games.

A :class:`Game` is an immutable description (rules, options, player count); a :class:`State` is
one position in one play of it.  The base classes own everything that is the same for every game
(validation before mutation, history, chance sampling, records, Jupyter display) so that a game
file only says what is specific to it:

* ``State.fields`` (the attributes, declared once: core derives ``_clone()`` and ``key()``),
  ``current_player``, ``_legal_actions()``, ``_chance_outcomes()``, ``returns()``;
* each action class's transition and refusal, side by side (``@transition(Kind)`` and
  ``@refusal(Kind)``, :mod:`gamelib.core.rulebook`): ``_apply`` and ``_explain_illegal`` dispatch to
  them, ``_refuse_now(action)`` says what is refused whatever the class;
* ``Game.parse_action(text)`` (and ``str(action)``) for the notation, usually a declared
  :class:`~gamelib.core.notation.Notation`;
* ``_observation(player)``, ``_hidden_steps(player)`` and ``_determinize(player, rng)`` for hidden
  information.
"""

from __future__ import annotations

import io
import operator
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import TYPE_CHECKING, Any, ClassVar, Literal, SupportsIndex

from gamelib.core import rng as _rng
from gamelib.core.errors import IllegalAction, OptionError, shown
from gamelib.core.fields import StateFields
from gamelib.core.i18n import Wording
from gamelib.core.options import OptionSpec, build_options, option_specs, options_to_dict
from gamelib.core.resolve import resolve
from gamelib.core.rulebook import Refusal, Transition, collect
from gamelib.core.version import __version__

if TYPE_CHECKING:
    from matplotlib.figure import Figure

CHANCE = -1
"""``state.current_player`` when the next action is a chance outcome (a die, a draw, a deal)."""

TERMINAL = -4
"""``state.current_player`` when the game is over."""

PUBLIC: Literal["public"] = "public"
"""The drawing perspective of a projector: what every seat sees and no seat's secret (no hand,
no sealed bid, no face-down number).  ``state.draw(perspective=gamelib.PUBLIC)``."""

Perspective = int | Literal["public"] | None
"""Who a drawing is for: a seat (its own secrets shown), :data:`PUBLIC`, or ``None`` (omniscient)."""


class Action:
    """Base class of every game's actions.

    Game actions are frozen, hashable dataclasses; ``str(action)`` is the action's notation and
    ``game.parse_action(str(action)) == action`` always holds.
    """

    __slots__ = ()

    def __post_init__(self) -> None:
        # An action declared with gamelib.core.notation checks its fields when built, so a
        # hand-made Go(7) is refused before any use (the declaration's static ranges).
        spec = getattr(type(self), "_spec", None)
        if spec is not None:
            owner = type(self).__name__
            for arg in spec.args:
                arg.check(getattr(self, arg.field), owner)


@dataclass(frozen=True)
class GameInfo:
    """Metadata as data (OpenSpiel's ``GameType``): lets generic tests and tools treat every game alike."""

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    min_return: float
    max_return: float
    perfect_information: bool
    has_chance: bool
    utility: Literal["zero_sum", "constant_sum", "general_sum", "identical"]
    description: str = ""
    returns_during_play: bool = False
    """True when ``returns()`` moves before the end (a running score), False when it is 0 until then."""
    capabilities: frozenset[str] = frozenset()
    """Optional features this game provides, by name (see :data:`CAPABILITIES`): tools read them
    here instead of probing the state with ``hasattr``."""
    hidden_masks: tuple[str, ...] = ()
    """Every masked notation a seat may be shown instead of an action it cannot see (``"hide ?"``):
    the fixed vocabulary of :meth:`State.information_state_tensor`."""

    def has(self, capability: str) -> bool:
        """Whether this game provides ``capability`` (one of :data:`CAPABILITIES`)."""
        if capability not in CAPABILITIES:
            raise ValueError(f"unknown capability {shown(capability)}; known: {sorted(CAPABILITIES)}")
        return capability in self.capabilities


OBSERVATION_TENSOR = "observation_tensor"
"""The game encodes an observation as a fixed-length vector (``State._observation_tensor``)."""
BELIEF = "belief"
"""The game has an exact belief over the hidden state (a seat's probabilities, for a panel)."""
BOARD_CLICKS = "board_clicks"
"""The game's drawing maps clicks on the board to actions (a clickable board panel)."""
CAPABILITIES = frozenset({OBSERVATION_TENSOR, BELIEF, BOARD_CLICKS})


@dataclass(frozen=True)
class NoOptions:
    """Rule options of a game that has none."""


class Game(ABC):
    """A game with its player count and rule options fixed.  Immutable and cheap to share."""

    info: ClassVar[GameInfo]
    Options: ClassVar[type] = NoOptions
    version: ClassVar[str] = "1"
    """Version of this game's rules and notation; bumped when old records would no longer replay."""
    drawing: ClassVar[str] = ""
    """Where the drawing lives, ``"package.module:function"`` (``function(state, ax=, perspective=)``).

    Named, not imported, so ``rules.py`` never imports its ``draw.py`` (which imports the rules):
    core imports it on first use.  Likewise :attr:`encoder` and :attr:`determinizer`."""
    encoder: ClassVar[str] = ""
    """Where ``observation_tensor(state, player)`` lives (games with that capability)."""
    determinizer: ClassVar[str] = ""
    """Where ``determinize(state, player, rng)`` lives, when it is more than the rules (an exact
    belief); empty: the state's own ``_determinize`` hook."""
    rating: ClassVar[str] = ""
    """Where ``rating(score) -> str`` lives, for a cooperative game whose rule text grades the final
    score (A Une Passante's « Vous maîtrisez l'art des rencontres »): tools show it with the result."""
    legacy_defaults: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    """Older rules versions this game still reads: ``{version: {option: the default it had then}}``.

    Records are the compatibility contract: when a default changes (say, to follow the rule
    text), ``version`` is bumped and the old version maps each changed option to its old default,
    so a record written before the change, whose options predate the new names, replays as played.
    """

    def __init__(
        self, players: SupportsIndex | None = None, options: Mapping[str, Any] | None = None
    ) -> None:
        info = self.info
        if players is None:
            players = info.default_players
        count = _integral(players)
        if count is None:
            raise OptionError(f"{info.name}: players must be an int, got {shown(players)}")
        if not info.min_players <= count <= info.max_players:
            raise OptionError(
                f"{info.name}: players must be between {info.min_players} and "
                f"{info.max_players}, got {shown(count)}"
            )
        self.num_players = count
        if options is None:
            options = {}
        self.options = build_options(self.Options, options, info.name)
        self._setup()

    @classmethod
    def option_specs(cls) -> tuple[OptionSpec, ...]:
        """Every rule option of this game as declared: name, default, type, allowed values
        (``Literal``) or range (``Annotated[int, Between(lo, hi)]``) and its doc line."""
        return option_specs(cls.Options)

    def _setup(self) -> None:
        """Hook, the one place a game prepares its configuration: reject option/player
        combinations the rules do not allow (``OptionError``), then build what every state of
        this configuration shares (the board for these options, lookup tables)."""

    @property
    def name(self) -> str:
        return self.info.name

    @property
    @abstractmethod
    def max_game_length(self) -> int:
        """An upper bound on the number of actions (chance outcomes included) in one game."""

    @abstractmethod
    def new_game(self, seed: int | None = None) -> State:
        """The initial state.  The same seed gives the same game on every machine."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """The action whose notation is ``text``; :class:`IllegalAction` (rule ``notation``) if none."""

    def action_universe(self) -> Sequence[Action]:
        """Every action (player moves and chance outcomes) this configuration can ever produce.

        The order is fixed, so an action's index is a stable integer id: the encoding used by
        the OpenSpiel and PettingZoo adapters and by anything that needs an action space.
        """
        raise NotImplementedError(f"{self.name} does not list its action universe")

    def action_from_id(self, action_id: int) -> Action:
        """The action whose integer id is ``action_id`` (see :meth:`action_universe`)."""
        universe = self.__dict__.get("_universe")
        if universe is None:
            universe = tuple(self.action_universe())
            self.__dict__["_universe"] = universe
        if not 0 <= action_id < len(universe):
            raise ValueError(f"action id must be in [0, {len(universe)}), got {shown(action_id)}")
        action: Action = universe[action_id]
        return action

    def action_id(self, action: Action) -> int:
        """The integer id of ``action`` in :meth:`action_universe`."""
        index = self.__dict__.get("_action_ids")
        if index is None:
            index = {a: i for i, a in enumerate(self.action_universe())}
            self.__dict__["_action_ids"] = index
        try:
            return int(index[action])
        except KeyError:
            raise ValueError(f"{action!r} is not in {self.name}'s action universe") from None

    def _history_code(self) -> tuple[dict[Action, int], dict[str, int], int, int]:
        """(action ids, mask ids, bits per step, steps) of the information-state tensor's history."""
        code = self.__dict__.get("_history_code_cache")
        if code is None:
            universe = tuple(self.action_universe())
            ids = {a: i for i, a in enumerate(universe)}
            masks = {m: i for i, m in enumerate(self.info.hidden_masks)}
            tokens = 1 + len(ids) + len(masks)
            code = (ids, masks, max(1, (tokens - 1).bit_length()), self.max_game_length)
            self.__dict__["_history_code_cache"] = code
        return code

    def information_state_tensor_size(self) -> int:
        """Length of :meth:`State.information_state_tensor`: the observation tensor's, plus the history."""
        _, _, bits, length = self._history_code()
        return len(self.new_game(seed=0).observation_tensor(0)) + bits * length

    def player_name(self, player: int) -> str:
        """How a player is called in text and drawings, numbered from 1 as a student counts
        ("Player 1" for seat 0, "Joueur 1" in French); games override ("fugitive", "mayor"...)."""
        return _WORDS("player", n=player + 1)

    def draw(self, state: State, ax: Any = None, perspective: Perspective = None) -> Figure:
        """Draw ``state`` with matplotlib (:attr:`drawing`) as ``perspective`` sees it.

        ``perspective``: ``None`` is omniscient (a teacher: every secret shown); a seat (0-based)
        shows what that seat sees, its own secrets included; :data:`PUBLIC` (``"public"``) shows
        only what every seat sees, as a seat that owns no secret would (a projector, the class-play
        dashboard): for a game of perfect information it is the omniscient drawing.
        """
        if not self.drawing:
            raise NotImplementedError(f"{self.name} has no drawing")
        if isinstance(perspective, str):
            if perspective != PUBLIC:
                raise ValueError(f"perspective must be a seat, None or {PUBLIC!r}, got {perspective!r}")
            if self.info.perfect_information:
                perspective = None
        figure: Figure = resolve(self.drawing)(state, ax=ax, perspective=perspective)
        return figure

    def option_dict(self) -> dict[str, Any]:
        return options_to_dict(self.options)

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.option_dict().items())
        return f"gamelib.make({self.name!r}, players={self.num_players}" + (
            f", options={{{opts}}})" if opts else ")"
        )

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Game)
            and other.name == self.name
            and other.num_players == self.num_players
            and other.options == self.options
        )

    def __hash__(self) -> int:
        return hash((self.name, self.num_players, self.options))

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self  # immutable: states share their game

    def __copy__(self) -> Game:
        return self


class State(ABC):
    """One position of one game.  Mutable: ``apply`` changes it in place; ``clone`` copies it."""

    game: Game
    seed: int
    history: list[Action]
    fields: ClassVar[StateFields | None] = None
    """The state's attributes, declared once (:class:`~gamelib.core.fields.StateFields`): core
    derives ``_clone()``, ``key()`` and ``invalidate()`` from it, and the generic tests check that
    every attribute is declared."""
    _transitions: ClassVar[dict[type, Transition]] = {}
    """Each action class's transition (``@transition``, :mod:`gamelib.core.rulebook`)."""
    _refusals: ClassVar[dict[type, Refusal]] = {}
    """Each action class's refusal (``@refusal``), next to its transition in the game's code."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._transitions, cls._refusals = collect(cls)

    def __init__(self, game: Game, seed: int | None) -> None:
        self.game = game
        self.seed = _rng.fresh_seed() if seed is None else _check_seed(seed)
        self.history = []
        self._legal_cache: list[Action] | None = None

    # ----------------------------------------------------------------- hooks
    @property
    @abstractmethod
    def current_player(self) -> int:
        """The player to act, or :data:`CHANCE`, or :data:`TERMINAL`."""

    @abstractmethod
    def _legal_actions(self) -> list[Action]:
        """The legal actions of the player to act (chance outcomes at a chance node)."""

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        """(outcome, probability) pairs at a chance node."""
        return []

    def _apply(self, action: Action) -> None:
        """Apply an action already known to be legal: by default its class's ``@transition``.

        A game whose every move shares a prologue or an epilogue (a veto that may stop it, a
        window that opens after it) overrides this and calls ``self._transitions[type(action)]``
        in between.
        """
        try:
            step = self._transitions[type(action)]
        except KeyError:
            raise NotImplementedError(
                f"{type(self).__name__} has no @transition for {type(action).__name__}"
            ) from None
        step(self, action)

    @abstractmethod
    def returns(self) -> list[float]:
        """One float per player: the outcome so far (zeros until the end in most games)."""

    def _clone(self) -> State:
        """A deep enough copy: mutating the copy never changes ``self``.

        Derived from :attr:`fields` (attributes shared, declared lists copied); a game without a
        declaration writes its own.
        """
        fields = type(self).fields
        if fields is None:
            raise NotImplementedError(f"{type(self).__name__} declares no fields and has no _clone")
        copy: State = fields.clone(self)
        return copy

    def key(self) -> tuple[Any, ...]:
        """Everything that defines the position, as a hashable tuple (used by ``==`` and tests).

        Derived from :attr:`fields`: the key fields in declared order, lists as tuples.
        """
        fields = type(self).fields
        if fields is None:
            raise NotImplementedError(f"{type(self).__name__} declares no fields and has no key")
        return fields.key_of(self)

    def _derive(self) -> None:
        """Hook: recompute the ``derived`` fields from the key fields (default: there are none)."""

    def invalidate(self) -> None:
        """Drop everything computed from the fields, after editing a state by hand.

        For analysis and teaching ("what if the detective held 17?"): set key fields, call
        ``invalidate()``, and the state recomputes its derived fields, drops its caches and its
        legal actions, so the next query sees the fields as they are.
        """
        self._legal_cache = None
        fields = type(self).fields
        if fields is not None:
            for name in fields.caches:
                setattr(self, name, None)
        self._derive()

    def _explain_illegal(self, action: Action) -> IllegalAction:
        """The error for an action that is not legal here, naming the rule it breaks.

        First the reasons that do not depend on the action's class (:meth:`_refuse_now`), then
        the class's own ``@refusal``; "not legal now" when neither names a rule.  Called before
        any change, so a refused action leaves the state exactly as it was.
        """
        error = self._refuse_now(action)
        if error is None:
            refuse = self._refusals.get(type(action))
            if refuse is not None:
                error = refuse(self, action)
        if error is None:
            error = IllegalAction("not-legal", f"{action} is not a legal action now", action)
        return error

    def _refuse_now(self, action: Action) -> IllegalAction | None:
        """Hook: a refusal that holds whatever the action's class (a chance outcome is due, the
        game stands in a phase where this kind of action has no place); ``None`` to ask the
        action class's own ``@refusal``."""
        return None

    def _observation(self, player: int | None) -> Any:
        """Hook: what ``player`` sees now (``None``: everything).

        Default, from :attr:`fields`: the key without its ``private`` fields for a seat, the whole
        key for ``None``.  A game whose secrets belong to one seat (a hand) writes its own.
        """
        fields = type(self).fields
        if player is None or fields is None:
            return self.key()
        return fields.public_key(self)

    def _hidden_steps(self, player: int) -> Mapping[int, str]:
        """Hook: the history steps ``player`` cannot see, as ``{index: masked notation}``.

        The one place a game says what each seat sees of an action: a step absent from the
        mapping is seen as its notation; a hidden one as its mask (one of
        ``GameInfo.hidden_masks``, e.g. ``"hide ?"``).  Perfect information: nothing is hidden.
        """
        return {}

    def _determinize(self, player: int, rng: random.Random) -> State:
        """Hook: a full state ``player`` cannot tell apart from this one (default: the game's
        :attr:`Game.determinizer`, else a clone).

        Games with secrets resample them and rewrite the history to match, so the result is a
        real game: it replays to itself from its record.
        """
        if self.game.determinizer:
            world: State = resolve(self.game.determinizer)(self, player, rng)
            return world
        return self.clone()

    def _observation_tensor(self, player: int) -> list[float]:
        """Hook: ``observation(player)`` as a fixed-length vector (games with that capability);
        default: the game's :attr:`Game.encoder`."""
        if not self.game.encoder:
            raise NotImplementedError(f"{self.game.name} has no observation tensor")
        tensor: list[float] = resolve(self.game.encoder)(self, player)
        return tensor

    # ------------------------------------------------------- information
    def check_player(self, player: object, *, allow_none: bool = False) -> int | None:
        """``player`` if it is a seat of this game (or ``None`` when allowed); ValueError otherwise."""
        if player is None and allow_none:
            return None
        n = self.game.num_players
        seat = _integral(player)
        if seat is None or not 0 <= seat < n:
            names = ", ".join(f"{p} ({self.game.player_name(p)})" for p in range(n))
            extra = " or None (omniscient)" if allow_none else ""
            raise ValueError(f"player must be a seat of this game: {names}{extra}; got {shown(player)}")
        return seat

    def observation(self, player: SupportsIndex | None) -> Any:
        """Only what ``player`` may see now (``None``: the omniscient view, for a teacher)."""
        return self._observation(self.check_player(player, allow_none=True))

    def public_history(self, player: int | None) -> tuple[str, ...]:
        """The history as ``player`` saw it: notations, with the steps it could not see masked.

        ``None`` gives the full notation.  Built from the game's one hook, :meth:`_hidden_steps`.
        """
        seat = self.check_player(player, allow_none=True)
        if seat is None:
            return tuple(str(a) for a in self.history)
        hidden = self._hidden_steps(seat)
        if not hidden:
            return tuple(str(a) for a in self.history)
        return tuple(hidden[i] if i in hidden else str(a) for i, a in enumerate(self.history))

    def information_state(self, player: int) -> InformationState:
        """What ``player`` knows: its observation now and the history as it saw it (perfect recall)."""
        seat = self.check_player(player)
        assert seat is not None
        return InformationState(seat, self._observation(seat), self.public_history(seat))

    def information_state_string(self, player: int) -> str:
        """:meth:`information_state` as text: equal strings exactly when the information is equal."""
        return str(self.information_state(player))

    def observation_tensor(self, player: int) -> list[float]:
        """``observation(player)`` as a fixed-length list of floats (``GameInfo`` capability
        ``"observation_tensor"``); NotImplementedError for games without it."""
        seat = self.check_player(player)
        assert seat is not None
        if OBSERVATION_TENSOR not in self.game.info.capabilities:
            raise NotImplementedError(f"{self.game.name} has no observation tensor")
        return self._observation_tensor(seat)

    def information_state_tensor(self, player: int) -> list[float]:
        """The observation tensor followed by the seat's history, perfect recall, fixed length.

        Each history step (up to ``max_game_length``) is written as the binary code of a token:
        0 for no step yet, 1 + the action's id when the seat saw the action, and one token per
        masked notation of ``GameInfo.hidden_masks`` after those.  See
        :meth:`Game.information_state_tensor_size`.
        """
        observed = self.observation_tensor(player)
        game = self.game
        ids, masks, bits, length = game._history_code()
        out = [0.0] * (length * bits)
        seen = self.public_history(player)
        if len(seen) > length:
            raise ValueError(f"history longer than max_game_length {length}")
        for step, (action, text) in enumerate(zip(self.history, seen, strict=True)):
            if text == str(action):
                token = 1 + ids[action]
            else:
                try:
                    token = 1 + len(ids) + masks[text]
                except KeyError:
                    raise ValueError(
                        f"{game.name}: masked notation {text!r} is not declared in GameInfo.hidden_masks"
                    ) from None
            base = step * bits
            for b in range(bits):
                if token >> b & 1:
                    out[base + b] = 1.0
        return observed + out

    def determinize(self, player: SupportsIndex, rng: random.Random) -> State:
        """A full state consistent with everything ``player`` has seen (``information_state``),
        with the secrets resampled and the history rewritten to match: it replays to itself.

        A world's chance is its own: its seed is drawn from ``rng``, never the real game's, so
        neither ``world.sample_chance()`` nor ``new_game(seed=world.seed)`` tells the real deal
        or the real next card.  ``rng`` is required (a ``random.Random``): a TypeError otherwise.
        """
        seat = self.check_player(player)
        assert seat is not None
        if not isinstance(rng, random.Random):
            raise TypeError(
                f"determinize needs a random.Random to sample the world with, got {shown(rng)} "
                "(e.g. state.determinize(player, random.Random(0)))"
            )
        world = self._determinize(seat, rng)
        world.seed = rng.getrandbits(63)
        return world

    # ------------------------------------------------------------ contract
    def legal_actions(self) -> list[Action]:
        """The legal actions now, in a fixed order (a list the caller may keep: it is a copy)."""
        if self.current_player == TERMINAL:
            return []
        if self._legal_cache is None:
            self._legal_cache = self._legal_actions()
        return list(self._legal_cache)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """[(outcome, probability)] when ``current_player == CHANCE``; [] otherwise."""
        if self.current_player != CHANCE:
            return []
        return self._chance_outcomes()

    def is_chance_node(self) -> bool:
        return self.current_player == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    def surely_continues(self, action: Action, through_chance: bool = False) -> bool:
        """Whether playing ``action`` (legal here) certainly leaves a player to move (neither a
        chance node nor the end), known without playing it; with ``through_chance``, chance may
        come first, provided every outcome of it (and of any chance after) leaves a player to move.

        It reads only what the player to move sees, so it answers alike in every world that player
        cannot tell from this one, and an agent may ask it of the real position.  Search agents use
        it to skip playing moves whose value they already know (a greedy that scores only finished
        games); ``False`` means "cannot tell cheaply" (the default), never "the game ends"."""
        return False

    def apply(self, action: Action | str) -> Action:
        """Apply an action or its notation; returns the action applied.

        An illegal action raises :class:`IllegalAction` naming the rule and leaves the state
        exactly as it was.
        """
        if isinstance(action, str):
            action = self.game.parse_action(action)
        elif not isinstance(action, Action):
            raise IllegalAction(
                "notation", f"expected an Action or its notation, got {type(action).__name__}"
            )
        if self.current_player == TERMINAL:
            raise IllegalAction("game-over", f"the game is over; {action} cannot be played", action)
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = self._legal_actions()
        # Games intern their actions, so the one played is usually one of these very objects: an
        # identity scan (in C) finds it without calling each dataclass's __eq__ on the way.
        if not any(map(operator.is_, legal, repeat(action))):
            try:  # an equal action built elsewhere: play the rules' own object
                action = legal[legal.index(action)]
            except ValueError:
                raise self._explain_illegal(action) from None
        self._legal_cache = None
        self._apply(action)
        self.history.append(action)
        return action

    def apply_legal(self, action: Action) -> None:
        """Apply an action taken from this very position's :meth:`legal_actions` (or drawn by
        :meth:`sample_chance` here), without checking it again.

        The fast path of search rollouts, which play thousands of moves they have just picked
        from the legal ones: :meth:`apply` would look each up in the list it came from.  Anything
        else (a user's move, a notation, an action kept from another position) goes through
        :meth:`apply`, which refuses what is not legal and leaves the state as it was.
        """
        self._legal_cache = None
        self._apply(action)
        self.history.append(action)

    def sample_chance(self, rng: random.Random | None = None) -> Action:
        """A chance outcome drawn with its probability.

        Without ``rng`` the draw is a pure function of ``(seed, len(history))``: the same seed
        gives the same game everywhere, whatever the agents do with their own generators.
        """
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise IllegalAction("not-chance", "this is not a chance node")
        u = rng.random() if rng is not None else _rng.uniform(self.seed, len(self.history))
        return _rng.pick(outcomes, u)

    def clone(self) -> State:
        copy = self._clone()
        copy.game = self.game
        copy.seed = self.seed
        copy.history = list(self.history)
        copy._legal_cache = self._legal_cache
        return copy

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self.clone()

    def to_record(self) -> dict[str, Any]:
        """A JSON-safe record: game, version, players, options, seed, the actions in notation and
        the result they give (returns, and whether the game is over), which replay checks."""
        game = self.game
        return {
            "game": game.name,
            "version": f"{__version__}+{game.name}.{game.version}",
            "players": game.num_players,
            "options": game.option_dict(),
            "seed": self.seed,
            "actions": [str(a) for a in self.history],
            "result": {"terminal": self.is_terminal(), "returns": [float(r) for r in self.returns()]},
        }

    def player_name(self, player: int) -> str:
        return self.game.player_name(player)

    # ------------------------------------------------------------- display
    def draw(self, ax: Any = None, perspective: Perspective = None) -> Figure:
        """A matplotlib figure of this state, from ``perspective`` (None: omniscient; a seat;
        :data:`PUBLIC`: only what every seat sees; see :meth:`Game.draw`)."""
        return self.game.draw(self, ax=ax, perspective=perspective)

    def _repr_png_(self) -> bytes | None:
        try:
            fig = self.draw()
        except NotImplementedError:
            return None
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=80, bbox_inches="tight")
        return buf.getvalue()

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State)
            and other.game == self.game
            and other.key() == self.key()
            and [str(a) for a in other.history] == [str(a) for a in self.history]
        )

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        who = self.current_player
        turn = "over" if who == TERMINAL else "chance" if who == CHANCE else self.player_name(who)
        return f"<{self.game.name} state: {len(self.history)} actions, to move: {turn}>"


@dataclass(frozen=True)
class InformationState:
    """What one seat knows: its observation now and the history as it saw it (perfect recall).

    Two positions a seat cannot tell apart have equal information states (and equal ``str``):
    the key of CFR-family algorithms and of the OpenSpiel adapter's information-state strings.
    """

    player: int
    observation: Any
    history: tuple[str, ...]

    def __str__(self) -> str:
        return f"player {self.player}\n{self.observation!r}\n" + " | ".join(self.history)


_WORDS = Wording("gamelib.core")


def _integral(value: object) -> int | None:
    """``value`` as an int if it is an integral number (numpy's too, never a bool), else None."""
    if isinstance(value, bool) or (type(value).__module__ == "numpy" and "bool" in type(value).__name__):
        return None
    if isinstance(value, int):
        return int(value)
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def _check_seed(seed: object) -> int:
    value = _integral(seed)
    if value is None:
        raise ValueError(f"seed must be an int, got {shown(seed)}")
    if value < 0:
        raise ValueError(f"seed must be >= 0, got {shown(value)}")
    return value


def parse_int(text: str, what: str, low: int, high: int) -> int:
    """Parse an int in [low, high] from notation, with an IllegalAction naming the field.

    Strict, as notation must be: plain ASCII digits only (no sign, underscore, space or other
    scripts' digits), so every number has exactly one spelling.
    """
    if not (isinstance(text, str) and text.isascii() and text.isdigit()):
        raise IllegalAction(
            "notation", f"{what} must be a number written with the digits 0-9, got {shown(text)}"
        )
    if len(text) > 1 and text[0] == "0":
        raise IllegalAction("notation", f"{what} is written without leading zeros, got {shown(text)}")
    if len(text) > len(str(high)) or not low <= int(text) <= high:
        raise IllegalAction("notation", f"{what} must be between {low} and {high}, got {shown(text)}")
    return int(text)
