"""One rule, one place (issue 23): each action class's transition and refusal side by side.

Unit tests of :mod:`gamelib.core.rulebook` and :mod:`gamelib.core.phases` on a toy game, and the
generic test that every action a registered game can produce has both a ``@transition`` and a
``@refusal`` in its state class.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

import gamelib
from gamelib.core import CHANCE, TERMINAL, Action, Phase, Phases, refusal, transition
from gamelib.core.errors import IllegalAction
from gamelib.core.game import Game, GameInfo, State
from gamelib.core.rulebook import collect, gaps


@dataclass(frozen=True)
class Up(Action):
    def __str__(self) -> str:
        return "up"


@dataclass(frozen=True)
class Down(Action):
    def __str__(self) -> str:
        return "down"


@dataclass(frozen=True)
class Stop(Action):
    def __str__(self) -> str:
        return "stop"


PHASES = Phases(
    Phase("climbing", "climber", tags={"moving"}),
    Phase("over", "nobody"),
    actors={"climber": lambda state: 0},
)
CLIMBING, OVER = PHASES.numbers


class LadderState(State):
    """A one-player toy: climb a ladder of 3 rungs, or stop."""

    fields: ClassVar[Any] = None

    def __init__(self, game: Game, seed: int | None) -> None:
        super().__init__(game, seed)
        self.rung = 0
        self.phase = CLIMBING

    @property
    def current_player(self) -> int:
        return PHASES.who(self, self.phase)

    def _legal_actions(self) -> list[Action]:
        moves: list[Action] = [Stop()]
        if self.rung < 3:
            moves.append(Up())
        if self.rung > 0:
            moves.append(Down())
        return moves

    def returns(self) -> list[float]:
        return [float(self.rung)]

    def _clone(self) -> State:
        copy = LadderState(self.game, self.seed)
        copy.rung, copy.phase, copy.history = self.rung, self.phase, list(self.history)
        return copy

    def key(self) -> tuple[Any, ...]:
        return (self.rung, self.phase)

    def _refuse_now(self, action: Action) -> IllegalAction | None:
        if self.phase == OVER:  # pragma: no cover - core refuses moves after the end first
            return IllegalAction("ladder-over", "the climb is over", action)
        return None

    @transition(Up)
    def _up(self, action: Up) -> None:
        self.rung += 1

    @refusal(Up)
    def _why_not_up(self, action: Up) -> IllegalAction:
        return IllegalAction("ladder-top", "the ladder has 3 rungs", action)

    @transition(Down)
    def _down(self, action: Down) -> None:
        self.rung -= 1

    @refusal(Down)
    def _why_not_down(self, action: Down) -> IllegalAction:
        return IllegalAction("ladder-bottom", "already on the ground", action)

    @transition(Stop)
    def _stop(self, action: Stop) -> None:
        self.phase = OVER

    @refusal(Stop)
    def _why_not_stop(self, action: Stop) -> None:
        return None  # always legal while climbing: nothing more specific to say


class Ladder(Game):
    info = GameInfo(
        name="ladder-toy",
        title="Ladder",
        min_players=1,
        max_players=1,
        default_players=1,
        min_return=0.0,
        max_return=3.0,
        perfect_information=True,
        has_chance=False,
        utility="general_sum",
    )

    @property
    def max_game_length(self) -> int:
        return 10

    def new_game(self, seed: int | None = None) -> LadderState:
        return LadderState(self, 0 if seed is None else seed)

    def parse_action(self, text: str) -> Action:
        return {"up": Up(), "down": Down(), "stop": Stop()}[text]


def test_transitions_dispatch_on_the_action_class() -> None:
    state = Ladder().new_game(0)
    state.apply(Up())
    state.apply("up")
    assert state.rung == 2
    state.apply(Down())
    assert state.rung == 1
    state.apply(Stop())
    assert state.current_player == TERMINAL


def test_refusals_name_the_rule_and_change_nothing() -> None:
    state = Ladder().new_game(0)
    with pytest.raises(IllegalAction) as error:
        state.apply(Down())
    assert error.value.rule == "ladder-bottom"
    assert state.key() == (0, CLIMBING) and state.history == []
    for _ in range(3):
        state.apply(Up())
    with pytest.raises(IllegalAction) as error:
        state.apply(Up())
    assert error.value.rule == "ladder-top"
    assert state.rung == 3


def test_a_refusal_with_nothing_specific_falls_back_to_not_legal() -> None:
    state = Ladder().new_game(0)
    assert state._explain_illegal(Stop()).rule == "not-legal"


def test_collect_reads_the_marks_after_inheritance() -> None:
    class Higher(LadderState):
        @transition(Up)
        def _up(self, action: Up) -> None:  # same name: replaces the parent's
            self.rung += 2

    transitions, refusals = collect(Higher)
    assert transitions[Up] is Higher._up
    assert refusals[Up] is LadderState._why_not_up
    assert Higher._transitions[Up] is Higher._up


def test_two_methods_for_one_action_class_is_an_error() -> None:
    with pytest.raises(TypeError, match="Up has two transitions"):

        class Twice(LadderState):
            @transition(Up)
            def _up_again(self, action: Up) -> None:
                self.rung += 1


def test_decorators_refuse_what_is_not_an_action_class() -> None:
    with pytest.raises(TypeError, match="at least one action class"):
        transition()
    with pytest.raises(TypeError, match="takes action classes"):
        refusal("up")  # type: ignore[arg-type]


def test_a_missing_transition_is_named() -> None:
    class NoStop(LadderState):
        pass

    del_transitions = dict(NoStop._transitions)
    del del_transitions[Stop]
    NoStop._transitions = del_transitions
    assert gaps(NoStop, [Up, Down, Stop]) == {"transition": ["Stop"], "refusal": []}
    state = Ladder().new_game(0)
    state.__class__ = NoStop
    with pytest.raises(NotImplementedError, match="no @transition for Stop"):
        state.apply(Stop())


def test_phases_derive_names_actors_chance_and_tags() -> None:
    phases = Phases(
        Phase("deal", "chance"),
        Phase("play", "turn", tags={"turn"}),
        Phase("end", "nobody"),
        actors={"turn": lambda state: state},
    )
    assert phases.names == ("deal", "play", "end")
    assert tuple(phases.numbers) == (0, 1, 2)
    assert phases.chance == {0} and phases.over == {2} and phases.tagged("turn") == {1}
    assert phases.who(None, 0) == CHANCE and phases.who(3, 1) == 3 and phases.who(None, 2) == TERMINAL
    assert phases.number("play") == 1 and phases[1].acts == "turn" and len(phases) == 3


def test_phases_refuse_an_unknown_actor_or_a_repeated_name() -> None:
    with pytest.raises(ValueError, match="actors with no function: ghost"):
        Phases(Phase("haunt", "ghost"))
    with pytest.raises(ValueError, match="share a name"):
        Phases(Phase("a", "chance"), Phase("a", "nobody"))
    with pytest.raises(KeyError, match="no phase 'z'"):
        PHASES.number("z")


def action_classes(name: str) -> set[type]:
    """Every action class ``name`` can produce: its universe under the default options, under each
    other choice of each option (a choice may bring its own actions: A Une Passante's signals),
    and with the fewest and the most players."""
    info = gamelib.core.game_class(name).info
    configs: list[tuple[int | None, dict[str, object]]] = [(info.min_players, {}), (info.max_players, {})]
    for spec in gamelib.options(name):
        values = (
            spec.choices if spec.choices is not None else ([not spec.default] if spec.type is bool else [])
        )
        configs += [(None, {spec.name: value}) for value in values if value != spec.default]
    kinds: set[type] = set()
    for players, options in configs:
        try:
            game = gamelib.make(name, players=players, options=options)
        except gamelib.OptionError:  # a choice that needs another option or player count
            continue
        kinds |= {type(action) for action in game.action_universe()}
    return kinds


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_every_action_has_a_transition_and_a_refusal(name: str) -> None:
    """Issue 23: every game declares each action class's rules with ``@transition`` and
    ``@refusal``, so a new game (or a new action) without them fails here."""
    state_class = type(gamelib.make(name).new_game(0))
    kinds = action_classes(name)
    assert kinds, f"{name} lists no action"
    missing = gaps(state_class, kinds)
    assert missing == {"transition": [], "refusal": []}, f"{name}: {missing}"
