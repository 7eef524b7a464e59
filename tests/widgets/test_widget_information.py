"""A seat's view in the Stepper shows only what that seat knows (issue 12).

For random mid-game positions S of every game and every seat p, ``D = S.determinize(p, rng)`` is
a world p cannot tell apart from S, so everything a Stepper shows from p's seat (board picture,
history list, status line, notation placeholder, buttons and their labels, chance box, the text
view, every panel the game offers) must be identical for S and D.  The check is shown to fail
on a view that leaks.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import ipywidgets as W
import pytest
from pile_game import LEFT, RIGHT, Secret, SecretPileGame, SecretPileState

import gamelib
from gamelib import State
from gamelib.agents import RandomAgent
from gamelib_widgets import Stepper
from gamelib_widgets.stepper import words


def shown(widget: Any) -> list[tuple[str, ...]]:
    """Everything a person sees of ``widget`` and its visible children, in order."""
    out: list[tuple[str, ...]] = []
    if getattr(widget.layout, "display", None) == "none":
        return out
    kind = type(widget).__name__
    if isinstance(widget, W.Image):
        out.append((kind, hashlib.sha1(widget.value).hexdigest()))
    for name in ("description", "tooltip", "placeholder", "disabled", "value", "options"):
        if isinstance(widget, W.Image) and name == "value":
            continue
        if widget.has_trait(name):
            out.append((kind, name, repr(getattr(widget, name))))
    for child in getattr(widget, "children", ()):
        out.extend(shown(child))
    return out


def seat_view(state: State, player: int, stepper_class: type[Stepper] = Stepper) -> list[tuple[str, ...]]:
    stepper = stepper_class(state, perspective=player, panels="auto")
    if stepper_class is not Stepper:  # a test double: its own placeholder in the controls
        stepper.controls._placeholder = stepper._placeholder  # type: ignore[attr-defined]
        stepper.refresh()
    seen = shown(stepper.widget)
    for drawn in (True, False):  # the text view too: what a game without a drawing shows
        if not drawn:
            stepper.board_text.value = stepper._text_view(stepper.state, player)
            seen.append(("text view", stepper.board_text.value))
    return seen


def differences(a: list[tuple[str, ...]], b: list[tuple[str, ...]]) -> list[str]:
    if len(a) != len(b):
        return [f"{len(a)} things shown vs {len(b)}"]
    return [f"{x} vs {y}" for x, y in zip(a, b, strict=True) if x != y]


def mid_game(name: str, seed: int) -> State:
    game = gamelib.make(name)
    final = gamelib.play(game, [RandomAgent()] * game.num_players, seed=seed)
    cut = random.Random(seed).randrange(1, len(final.history))
    state = game.new_game(seed=final.seed)
    for action in final.history[:cut]:
        state.apply(action)
    return state


CASES = [
    pytest.param(name, seat, id=f"{name}-seat{seat}")
    for name in gamelib.registered_games()
    for seat in range(gamelib.make(name).num_players)
]


@pytest.mark.parametrize(("name", "seat"), CASES)
def test_a_seat_is_shown_the_same_for_a_position_and_its_determinization(name: str, seat: int) -> None:
    rng = random.Random(seat)
    for seed in (1, 2, 3):
        state = mid_game(name, seed)
        world = state.determinize(seat, rng)
        problems = differences(seat_view(state, seat), seat_view(world, seat))
        assert not problems, f"{name}, seat {seat}, seed {seed}, {len(state.history)} actions: {problems[:3]}"


# ---------------------------------------------------------------- the check can fail
class LeakyPileState(SecretPileState):
    def _hidden_steps(self, player: int) -> dict[int, str]:
        return {}  # forgets to mask the secret deal


class LeakyPileGame(SecretPileGame):
    def new_game(self, seed: int | None = None) -> LeakyPileState:
        state = LeakyPileState.__new__(LeakyPileState)
        SecretPileState.__init__(state, self, seed)
        return state


def worlds_apart(game: SecretPileGame) -> tuple[State, State]:
    """A position after the deal and one move, and a world of the right seat's with another secret."""
    state = game.new_game(seed=1)
    state.apply("secret 2")
    state.apply("take 1")
    for seed in range(100):
        world = state.determinize(RIGHT, random.Random(seed))
        if world.key() != state.key():
            return state, world
    raise AssertionError("determinize never changed the secret")


def test_the_check_passes_on_an_airtight_toy_game() -> None:
    state, world = worlds_apart(SecretPileGame())
    assert not differences(seat_view(state, RIGHT), seat_view(world, RIGHT))
    assert differences(seat_view(state, LEFT), seat_view(world, LEFT)), "left knows her secret"


def test_the_check_fails_on_a_game_whose_history_leaks() -> None:
    state, world = worlds_apart(LeakyPileGame())
    problems = differences(seat_view(state, RIGHT), seat_view(world, RIGHT))
    assert any("secret 2" in p for p in problems), problems


class LeakyStepper(Stepper):
    """The old placeholder: an example from the legal actions of whoever is to move."""

    def _placeholder(self, state: State, actions: list[gamelib.Action]) -> str:
        legal = state.legal_actions()
        return words("notation_example", example=legal[0]) if legal else ""


def test_the_check_fails_on_a_stepper_whose_placeholder_leaks() -> None:
    game = gamelib.make("fugitive")
    state = game.new_game(seed=3)
    rng = random.Random(0)
    while state.current_player != 0 or len(state.history) < 8:
        state.apply(state.sample_chance() if state.is_chance_node() else rng.choice(state.legal_actions()))
    for seed in range(50):
        world = state.determinize(1, random.Random(seed))
        if world.legal_actions()[0] != state.legal_actions()[0]:
            break
    else:
        raise AssertionError("no world with another first move")
    assert not differences(seat_view(state, 1), seat_view(world, 1)), "the real Stepper is airtight"
    problems = differences(seat_view(state, 1, LeakyStepper), seat_view(world, 1, LeakyStepper))
    assert any("placeholder" in p for p in problems), problems


# ---------------------------------------------------------------- what a seat is shown
def test_from_a_seat_chance_shows_its_count_and_roll_only(pile_game: SecretPileGame) -> None:
    stepper = Stepper(pile_game, seed=3, perspective=RIGHT)
    assert "<b>Chance</b> (3 outcomes)" in stepper.chance_html.value
    assert stepper.force_button.layout.display == "none" and stepper.force_dropdown.options == ()
    assert stepper.roll_button.layout.display != "none"
    assert stepper.notation.placeholder == "" and "seed" not in stepper.status.value
    stepper.perspective = None
    assert len(stepper.force_dropdown.options) == 3 and stepper.notation.placeholder.startswith("an outcome")
    assert "seed 3" in stepper.status.value


def test_the_placeholder_comes_from_the_viewers_own_moves() -> None:
    state = gamelib.make("fugitive").new_game(seed=3)
    while state.current_player != 0:
        state.apply(state.sample_chance())
    stepper = Stepper(state, perspective="detective")
    assert stepper.notation.placeholder == "", "no example from the fugitive's hand"
    stepper.perspective = "fugitive"
    assert stepper.notation.placeholder == f"an action, e.g. {state.legal_actions()[0]}"


def test_the_history_list_is_the_seats_public_history(pile_game: SecretPileGame) -> None:
    stepper = Stepper(pile_game, seed=3, perspective=RIGHT)
    stepper.perspective = None
    assert stepper.force_chance("secret 3") and stepper.apply("take 1")
    stepper.perspective = RIGHT
    labels = [label for label, _ in stepper.history_select.options]
    assert labels[1:] == ["  1. chance: secret ?", "  2. left: take 1"]
    assert stepper.state.public_history(RIGHT) == ("secret ?", "take 1")
    assert isinstance(stepper.state.history[0], Secret)
