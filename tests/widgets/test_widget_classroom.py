"""The Stepper for a class (issue 14): autoplay, hot seat, a cooperative game's score, French.

Autoplay's timer is the ``Play`` widget, which ticks in the browser; here its beats are simulated
by moving ``autoplay.value`` as the browser does, or by calling :meth:`Stepper.autoplay_tick`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from pile_game import LEFT, RIGHT, SecretPileGame, shown_buttons
from test_widget_information import differences, mid_game, shown

import gamelib
from gamelib.agents import FirstLegalAgent
from gamelib_widgets import Stepper
from gamelib_widgets.stepper import HUMAN, words


@pytest.fixture
def french() -> Iterator[None]:
    with gamelib.core.i18n.using_language("fr"):
        yield


def beat(stepper: Stepper) -> None:
    """What the browser does at each beat of the Play widget."""
    stepper.autoplay.value += 1


# ---------------------------------------------------------------- autoplay
def test_autoplay_moves_one_step_per_beat_and_stops_at_the_end(pile_game: SecretPileGame) -> None:
    stepper = Stepper(pile_game, seed=6, agents={"first": FirstLegalAgent()})
    expected = gamelib.play(pile_game, [FirstLegalAgent()] * 2, seed=6)
    beat(stepper)
    assert stepper.history == [], "no move while paused"
    stepper.play()
    for n in range(1, len(expected.history) + 1):
        assert stepper.autoplay.playing
        beat(stepper)
        assert stepper.history == [str(a) for a in expected.history[:n]], "one move per beat"
    assert stepper.state == expected and not stepper.autoplay.playing, "paused at the end"
    assert stepper.autoplay.disabled and "game over" in stepper.status.value
    assert not stepper.autoplay_tick()
    for n in reversed(range(len(expected.history))):  # every autoplayed move undoes one by one
        assert stepper.undo() and stepper.history == [str(a) for a in expected.history[:n]]
    assert stepper.redo() and len(stepper.history) == 1


def test_pressing_a_button_pauses_autoplay(pile_game: SecretPileGame) -> None:
    stepper = Stepper(pile_game, seed=6)
    stepper.play()
    beat(stepper)
    beat(stepper)
    assert len(stepper.history) == 2 and stepper.autoplay.playing
    stepper.undo_button.click()
    assert not stepper.autoplay.playing and len(stepper.history) == 1
    beat(stepper)  # a beat already on its way from the browser
    assert len(stepper.history) == 1


def test_the_speed_slider_sets_the_beat(pile_game: SecretPileGame) -> None:
    stepper = Stepper(pile_game, speed=4)
    assert stepper.autoplay.interval == 250
    stepper.speed_slider.value = 10
    assert stepper.autoplay.interval == 100 and stepper.speed == 10
    stepper.speed = 0.5
    assert stepper.autoplay.interval == 2000


def test_autoplay_waits_for_a_human_seat(pile_game: SecretPileGame) -> None:
    stepper = Stepper(pile_game, seed=6, agents={"first": FirstLegalAgent()})
    stepper.set_agent(RIGHT, HUMAN)
    stepper.play()
    beat(stepper)  # the deal
    beat(stepper)  # left
    assert stepper.state.current_player == RIGHT and len(stepper.history) == 2
    assert not stepper.autoplay.playing, "paused: the right player plays at the keyboard"
    assert not stepper.step_agent() and "plays at the keyboard" in stepper.error
    assert not stepper.play_to_end() and len(stepper.history) == 2
    assert shown_buttons(stepper), "the human's moves are buttons"
    shown_buttons(stepper)["take 1"].click()
    stepper.play()
    beat(stepper)
    assert len(stepper.history) == 4


# ---------------------------------------------------------------- hot seat
def test_hot_seat_covers_the_board_between_seats() -> None:
    stepper = Stepper("fugitive", seed=4, hot_seat=True)
    assert stepper.seats == [HUMAN, HUMAN] and stepper.covered
    assert "Fugitive, it is your turn" in stepper.cover_html.value
    assert stepper.widget.children[-1] is stepper.cover
    assert not any(kind == "Image" for kind, *_ in shown(stepper.widget)), "no board behind the cover"
    assert not stepper.roll() and "Fugitive presses Reveal" in stepper.error
    stepper.reveal_button.click()
    assert not stepper.covered and stepper.perspective == 0
    assert stepper.perspective_dropdown.layout.display == "none", "no way round the cover"
    assert stepper.hot_seat_box.layout.display == "none" and stepper._record_box.layout.display == "none"
    while stepper.state.current_player != 1:  # the fugitive plays her first turn
        state = stepper.state
        assert not stepper.covered
        assert stepper.roll() if state.is_chance_node() else stepper.apply(state.legal_actions()[0])
    assert stepper.covered and "Detective, it is your turn" in stepper.cover_html.value
    assert stepper.history_select.options == () and stepper.board_image.value == b""
    assert stepper.actions_box.children == () and stepper.notation.placeholder == ""
    moves = len(stepper.history)
    for refused in (stepper.undo, stepper.redo, stepper.reset, stepper.step_agent):
        assert not refused() and stepper.covered, "behind the cover only Reveal is accepted"
    assert len(stepper.history) == moves
    stepper.reveal()
    assert stepper.perspective == 1 and not stepper.covered
    labels = [label for label, _ in stepper.history_select.options]
    assert any(label.endswith("fugitive: hide ?") for label in labels), "the detective's history"
    assert not stepper.rewind(moves - 1) and "own turns" in stepper.error, "the fugitive's turn stays hers"
    assert stepper.perspective == 1 and not stepper.covered and len(stepper.history) == moves
    assert stepper.undo(), "back over the fugitive's turn to the draw before it"
    assert stepper.perspective == 1 and not stepper.covered and stepper.state.is_chance_node()
    assert stepper.state.current_player != 0 and len(stepper.history) < moves
    assert stepper.reset(), "the start is chance's: nobody's secret"
    assert stepper.perspective == 1 and not stepper.covered and stepper.state.is_chance_node()
    assert not stepper.undo() and "nothing to undo" in stepper.error
    stepper.set_hot_seat(False)
    assert not stepper.covered and stepper.perspective is None
    assert stepper.hot_seat_box.layout.display is None and stepper.perspective_dropdown.layout.display is None


def test_the_cover_shows_nothing_of_the_seat_that_just_played() -> None:
    """Behind the cover, two worlds that differ in every secret look exactly the same."""
    for seed in (1, 2):
        state = mid_game("delanopolis", seed)
        while state.current_player < 0:
            state.apply(state.sample_chance())
        mover = state.current_player
        other = (mover + 1) % state.game.num_players
        world = state.determinize(other, random.Random(seed))
        views = []
        for position in (state, world):
            stepper = Stepper(position, hot_seat=True)
            stepper.reveal()  # the seat to move is asked for first
            assert stepper.perspective == mover
            stepper.perspective = other  # as if the other seat had been shown: the mover is covered
            assert stepper.covered
            views.append(shown(stepper.widget))
        assert not differences(*views)


def test_hot_seat_with_an_agent_seat_autoplays_the_agent() -> None:
    stepper = Stepper(SecretPileGame(), seed=6, agents={"first": FirstLegalAgent()})
    stepper.set_hot_seat(True, humans=[LEFT])
    assert stepper.seats == [HUMAN, "first"] and "Left, it is your turn" in stepper.cover_html.value
    stepper.reveal()
    stepper.play()
    beat(stepper)  # the deal, under the left player's view
    assert stepper.state.current_player == LEFT and not stepper.autoplay.playing
    shown_buttons(stepper)["take 1"].click()
    assert not stepper.covered, "the agent's turn needs no hand-over"
    stepper.play()
    beat(stepper)
    assert stepper.state.current_player == LEFT and len(stepper.history) == 3


# ---------------------------------------------------------------- the end of a cooperative game
def test_a_finished_passante_game_says_its_score_and_rating() -> None:
    from gamelib.passante.draw import rating_text

    stepper = Stepper("passante", seed=3)
    assert stepper.play_to_end(), stepper.error
    score = round(stepper.state.returns()[0])
    status = stepper.status.value
    assert f"score {score}: {rating_text(score)}" in status and "draw" not in status
    with gamelib.core.i18n.using_language("fr"):
        stepper.refresh()
        assert f"score {score} : {rating_text(score)}" in stepper.status.value
        assert "partie terminée" in stepper.status.value and "égalité" not in stepper.status.value


def test_every_word_the_widgets_ask_for_is_in_words_json() -> None:
    import re
    from pathlib import Path

    import gamelib_widgets

    keys = set()
    for source in Path(gamelib_widgets.__file__).parent.glob("*.py"):
        keys |= set(re.findall(r"""words\(\s*["']([a-z_0-9]+)["']""", source.read_text()))
    assert len(keys) > 60
    assert keys <= words.keys(), sorted(keys - words.keys())


# ---------------------------------------------------------------- French
def test_french_is_complete() -> None:
    assert words.missing("fr") == set()


def test_labels_and_status_follow_the_language(pile_game: SecretPileGame) -> None:
    stepper = Stepper(pile_game, seed=6, agents={"first": FirstLegalAgent()})
    assert stepper.undo_button.description == "Undo" and "move 0" in stepper.status.value
    with gamelib.core.i18n.using_language("fr"):
        stepper.refresh()
        assert stepper.undo_button.description == "Annuler"
        assert stepper.autoplay.description == "Lecture auto" and "coup 0" in stepper.status.value
        assert stepper.perspective_dropdown.options[0][0] == "omnisciente"
        assert stepper.play_to_end() and "partie terminée" in stepper.status.value
        assert not stepper.redo() and stepper.error == "rien à rétablir"
        assert stepper.undo() and stepper.redo()
    stepper.refresh()
    assert stepper.undo_button.description == "Undo" and "game over" in stepper.status.value


def test_a_stepper_built_in_french_speaks_french(french: None) -> None:
    stepper = Stepper("fugitive", seed=2, hot_seat=True)
    assert "Fugitif, c'est à vous" in stepper.cover_html.value
    assert stepper.reveal_button.description == "Montrer"
