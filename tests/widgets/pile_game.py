"""A tiny test-only game for driving the Stepper, and helpers shared by the widget tests.

"Secret pile": a chance deal gives the left player a secret card (1, 2 or 3 with probabilities
1/2, 1/4, 1/4), then players alternately take 1..max_take tokens from a pile; whoever takes the
last token wins, unless the left player's secret equals the number of tokens she took in total,
in which case she wins whoever took last.  The secret is hidden from the right player: it is
masked in the observation, in the history as the right player saw it (``secret ?``) and in the
drawing; ``determinize`` deals the right player a world with a resampled secret.  Drawings are tiny,
so these tests spend their time in the stepper, not in matplotlib.  The game is never registered
(``gamelib.make`` does not know it), which keeps the generic tests to the real games.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from matplotlib.figure import Figure

from gamelib import CHANCE, TERMINAL, Action, Game, GameInfo, IllegalAction, State
from gamelib.core.fields import StateFields

LEFT, RIGHT = 0, 1


@dataclass(frozen=True, slots=True)
class Take(Action):
    n: int

    def __str__(self) -> str:
        return f"take {self.n}"


@dataclass(frozen=True, slots=True)
class Secret(Action):
    value: int

    def __str__(self) -> str:
        return f"secret {self.value}"


SECRET_ODDS = ((Secret(1), 0.5), (Secret(2), 0.25), (Secret(3), 0.25))


@dataclass(frozen=True)
class PileOptions:
    pile: int = 7
    max_take: int = 2

    def __post_init__(self) -> None:
        if self.pile < 1 or self.max_take < 1:
            raise ValueError("pile and max_take must be >= 1")


@dataclass(frozen=True)
class PileObservation:
    pile: int
    to_move: int
    secret: int | None


class SecretPileGame(Game):
    info: ClassVar[GameInfo] = GameInfo(
        name="secretpile",
        title="Secret pile",
        min_players=2,
        max_players=2,
        default_players=2,
        min_return=-1.0,
        max_return=1.0,
        perfect_information=False,
        has_chance=True,
        utility="zero_sum",
        hidden_masks=("secret ?",),
    )
    Options: ClassVar[type] = PileOptions
    options: PileOptions

    @property
    def max_game_length(self) -> int:
        return self.options.pile + 1

    def new_game(self, seed: int | None = None) -> SecretPileState:
        return SecretPileState(self, seed)

    def player_name(self, player: int) -> str:
        return ("left", "right")[player]

    def parse_action(self, text: str) -> Action:
        parts = text.split() if isinstance(text, str) else []
        if len(parts) != 2 or parts[0] not in ("take", "secret") or not parts[1].isdigit():
            raise IllegalAction("notation", f"expected 'take N' or 'secret N', got {text!r}")
        n = int(parts[1])
        return Take(n) if parts[0] == "take" else Secret(n)

    def draw(self, state: State, ax: Any = None, perspective: int | None = None) -> Figure:
        assert isinstance(state, SecretPileState)
        fig = Figure(figsize=(2.4, 1.2))
        axes = fig.add_subplot() if ax is None else ax
        axes.set_axis_off()
        secret = str(state.secret) if perspective in (None, LEFT) else "?"
        axes.text(0.5, 0.6, f"pile {state.pile}", ha="center", fontsize=18)
        axes.text(0.5, 0.1, f"secret {secret}", ha="center", fontsize=14)
        return fig


class SecretPileState(State):
    fields = StateFields(key="pile secret turn left_took last_taker", private="secret")

    game: SecretPileGame

    def __init__(self, game: SecretPileGame, seed: int | None) -> None:
        super().__init__(game, seed)
        self.pile = game.options.pile
        self.secret = 0
        self.turn = LEFT
        self.left_took = 0
        self.last_taker = -1

    @property
    def current_player(self) -> int:
        if self.secret == 0:
            return CHANCE
        if self.pile == 0:
            return TERMINAL
        return self.turn

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        return list(SECRET_ODDS) if self.secret == 0 else []

    def _legal_actions(self) -> list[Action]:
        if self.secret == 0:
            return [a for a, _ in SECRET_ODDS]
        return [Take(n) for n in range(1, min(self.game.options.max_take, self.pile) + 1)]

    def _explain_illegal(self, action: Action) -> IllegalAction:
        if isinstance(action, Take) and self.secret and action.n > self.pile:
            return IllegalAction("pile-size", f"only {self.pile} token(s) left", action)
        if isinstance(action, Take) and self.secret:
            return IllegalAction("max-take", f"take 1 to {self.game.options.max_take} tokens", action)
        return IllegalAction("not-legal", f"{action} is not legal now", action)

    def _apply(self, action: Action) -> None:
        if isinstance(action, Secret):
            self.secret = action.value
            return
        assert isinstance(action, Take)
        self.pile -= action.n
        if self.turn == LEFT:
            self.left_took += action.n
        self.last_taker = self.turn
        self.turn = 1 - self.turn

    def returns(self) -> list[float]:
        if self.pile:
            return [0.0, 0.0]
        left_wins = self.last_taker == LEFT or self.left_took == self.secret
        return [1.0, -1.0] if left_wins else [-1.0, 1.0]

    def __str__(self) -> str:
        return f"pile {self.pile}, secret {self.secret}"

    def _observation(self, player: int | None) -> PileObservation:
        sees = player in (None, LEFT)
        return PileObservation(
            pile=self.pile, to_move=self.current_player, secret=self.secret if sees else None
        )

    def _hidden_steps(self, player: int) -> Mapping[int, str]:
        if player == LEFT:
            return {}
        return {i: "secret ?" for i, a in enumerate(self.history) if isinstance(a, Secret)}

    def _determinize(self, player: int, rng: random.Random) -> SecretPileState:
        world = self.clone()
        if player == RIGHT and self.secret and self.pile:  # the end shows who won, hence the secret
            (value,) = rng.choices([1, 2, 3], weights=[2, 1, 1])
            world.secret = value
            world.history = [Secret(value) if isinstance(a, Secret) else a for a in self.history]
        return world


def shown_buttons(stepper: Any) -> dict[str, Any]:
    """The legal-action buttons the stepper currently shows, by their label."""
    return {b.description: b for b in stepper.actions_box.children}


def fingerprint(state: State) -> tuple[Any, list[str]]:
    return state.key(), [str(a) for a in state.history]


def truncated(final: State, actions: list[str]) -> dict[str, Any]:
    """``final``'s record cut to its first ``actions`` (without the result, which no longer holds)."""
    record = dict(final.to_record(), actions=list(actions))
    record.pop("result", None)
    return record
