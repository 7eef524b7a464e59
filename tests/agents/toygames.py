"""Tiny games with known answers, to test agents and tournaments independently of the real games.

* :class:`NimGame`: take 1-3 from a pile, whoever takes the last one wins (2-4 players).
* :class:`GambleGame`: one player, ``safe`` pays 0.3; ``gamble`` pays 1 with probability 0.4,
  else 0 through three equally likely losing outcomes (uniform sampling of the outcomes would
  rate the gamble at 0.25, below ``safe``: only sampling by probability finds the right move).
* :class:`HiddenCardGame`: chance deals card 0, 1 or 2 (probabilities 0.6, 0.2, 0.2) face down;
  the player guesses it.  Reading the card wins always; an honest player guesses 0 (0.6).

They are registered only inside the tests that need them (``toy_games`` fixture), so the
generic tests over ``gamelib.registered_games()`` never see them.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any, ClassVar

from gamelib.core.fields import StateFields
from gamelib.core.game import CHANCE, TERMINAL, Action, Game, GameInfo, State
from gamelib.core.notation import Int, Notation, action_class


@action_class("take", Int("count", 1, 3))
class Take(Action):
    count: int


NIM = Notation(Take)


@dataclass(frozen=True, slots=True)
class Word(Action):
    word: str

    def __str__(self) -> str:
        return self.word


@dataclass(frozen=True)
class NimOptions:
    pile: int = 10

    def __post_init__(self) -> None:
        if self.pile < 1:
            raise ValueError(f"option 'pile' must be >= 1, got {self.pile}")


class NimGame(Game):
    info: ClassVar[GameInfo] = GameInfo(
        name="toy-nim",
        title="Nim",
        min_players=2,
        max_players=4,
        default_players=2,
        min_return=0.0,
        max_return=1.0,
        perfect_information=True,
        has_chance=False,
        utility="constant_sum",
    )
    Options: ClassVar[type] = NimOptions

    @property
    def max_game_length(self) -> int:
        return self.options.pile

    def new_game(self, seed: int | None = None) -> NimState:
        return NimState(self, seed)

    def parse_action(self, text: str) -> Action:
        return NIM.parse(text, self)

    def action_universe(self) -> tuple[Action, ...]:
        return NIM.universe(self)


class NimState(State):
    fields = StateFields(key="pile to_move winner")

    def __init__(self, game: NimGame, seed: int | None) -> None:
        super().__init__(game, seed)
        self.pile = game.options.pile
        self.to_move = 0
        self.winner = -1

    @property
    def current_player(self) -> int:
        return TERMINAL if self.winner >= 0 else self.to_move

    def _legal_actions(self) -> list[Action]:
        return [NIM.make(Take, k) for k in (1, 2, 3) if k <= self.pile]

    def _apply(self, action: Action) -> None:
        assert isinstance(action, Take)
        self.pile -= action.count
        if self.pile == 0:
            self.winner = self.to_move
        self.to_move = (self.to_move + 1) % self.game.num_players

    def returns(self) -> list[float]:
        return [1.0 if p == self.winner else 0.0 for p in range(self.game.num_players)]


class GambleGame(Game):
    info: ClassVar[GameInfo] = GameInfo(
        name="toy-gamble",
        title="Gamble",
        min_players=1,
        max_players=1,
        default_players=1,
        min_return=0.0,
        max_return=1.0,
        perfect_information=True,
        has_chance=True,
        utility="general_sum",
    )

    @property
    def max_game_length(self) -> int:
        return 2

    def new_game(self, seed: int | None = None) -> GambleState:
        return GambleState(self, seed)

    def parse_action(self, text: str) -> Action:
        return Word(text)


OUTCOMES = ((Word("win"), 0.4), (Word("lose-a"), 0.2), (Word("lose-b"), 0.2), (Word("lose-c"), 0.2))


class GambleState(State):
    fields = StateFields(key="choice result")

    def __init__(self, game: GambleGame, seed: int | None) -> None:
        super().__init__(game, seed)
        self.choice = ""
        self.result = ""

    @property
    def current_player(self) -> int:
        if not self.choice:
            return 0
        if self.choice == "gamble" and not self.result:
            return CHANCE
        return TERMINAL

    def _legal_actions(self) -> list[Action]:
        if self.current_player == CHANCE:
            return [o for o, _ in OUTCOMES]
        return [Word("safe"), Word("gamble")]

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        return list(OUTCOMES)

    def _apply(self, action: Action) -> None:
        assert isinstance(action, Word)
        if self.choice:
            self.result = action.word
        else:
            self.choice = action.word

    def returns(self) -> list[float]:
        if self.choice == "safe":
            return [0.3]
        return [1.0 if self.result == "win" else 0.0]


CARDS = ((Word("card 0"), 0.6), (Word("card 1"), 0.2), (Word("card 2"), 0.2))


class HiddenCardGame(Game):
    info: ClassVar[GameInfo] = GameInfo(
        name="toy-hidden",
        title="Hidden card",
        min_players=1,
        max_players=1,
        default_players=1,
        min_return=0.0,
        max_return=1.0,
        perfect_information=False,
        has_chance=True,
        utility="general_sum",
        hidden_masks=("card ?",),
    )

    @property
    def max_game_length(self) -> int:
        return 2

    def new_game(self, seed: int | None = None) -> HiddenCardState:
        return HiddenCardState(self, seed)

    def parse_action(self, text: str) -> Action:
        return Word(text)


class HiddenCardState(State):
    fields = StateFields(key="card guess", private="card")

    def __init__(self, game: HiddenCardGame, seed: int | None) -> None:
        super().__init__(game, seed)
        self.card = -1
        self.guess = -1

    @property
    def current_player(self) -> int:
        if self.card < 0:
            return CHANCE
        return 0 if self.guess < 0 else TERMINAL

    def _legal_actions(self) -> list[Action]:
        if self.card < 0:
            return [c for c, _ in CARDS]
        return [Word(f"guess {n}") for n in range(3)]

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        return list(CARDS)

    def _apply(self, action: Action) -> None:
        assert isinstance(action, Word)
        if self.card < 0:
            self.card = int(action.word.split()[1])
        else:
            self.guess = int(action.word.split()[1])

    def returns(self) -> list[float]:
        return [1.0 if self.guess >= 0 and self.guess == self.card else 0.0]

    def _observation(self, player: int | None) -> Any:
        return (self.card >= 0, self.guess)

    def _hidden_steps(self, player: int) -> dict[int, str]:
        return {0: "card ?"} if self.history else {}

    def _determinize(self, player: int, rng: random.Random) -> HiddenCardState:
        world = self.clone()
        if self.card >= 0:
            u, acc = rng.random(), 0.0
            for outcome, p in CARDS:
                acc += p
                if u < acc:
                    world.card = int(outcome.word.split()[1])
                    break
            else:
                world.card = 2
            world.history[0] = CARDS[world.card][0]
        return world


class LeakyHiddenCardGame(HiddenCardGame):
    """The hidden-card game with the classic bugs: the dealt card is shown to everyone's history,
    and determinize resamples the card but keeps the true history (the world does not replay)."""

    info: ClassVar[GameInfo] = dataclasses.replace(HiddenCardGame.info, name="toy-hidden-leaky")

    def new_game(self, seed: int | None = None) -> HiddenCardState:
        return LeakyHiddenCardState(self, seed)


class LeakyHiddenCardState(HiddenCardState):
    def _hidden_steps(self, player: int) -> dict[int, str]:
        return {}

    def _determinize(self, player: int, rng: random.Random) -> HiddenCardState:
        world = super()._determinize(player, rng)
        world.history = list(self.history)
        return world


TOY_GAMES = {
    "toy-nim": "toygames:NimGame",
    "toy-gamble": "toygames:GambleGame",
    "toy-hidden": "toygames:HiddenCardGame",
    "toy-hidden-leaky": "toygames:LeakyHiddenCardGame",
}
