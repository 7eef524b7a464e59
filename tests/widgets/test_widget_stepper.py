"""The generic Stepper driven from Python: click buttons, type notation, pick history entries.

Most tests use the test-only "secret pile" game (tiny drawings, so the time goes to the stepper);
``test_widget_fugitive.py`` repeats the essentials on Fugitive.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pile_game import SecretPileGame, fingerprint, shown_buttons, truncated

import gamelib
from gamelib import CHANCE, TERMINAL
from gamelib.agents import FirstLegalAgent, RandomAgent
from gamelib.core.play import agent_label, unique_names
from gamelib_widgets import Stepper


def secret_dealt(game: SecretPileGame, value: int = 2, **kw: Any) -> Stepper:
    stepper = Stepper(game, seed=3, **kw)
    assert stepper.force_chance(f"secret {value}"), stepper.error
    return stepper


def classes(widget: Any) -> set[str]:
    return set(widget._dom_classes)


# ---------------------------------------------------------------- construction
def test_built_from_a_game_a_name_or_a_state(pile_game: SecretPileGame) -> None:
    assert Stepper(pile_game, seed=5).state == pile_game.new_game(seed=5)
    assert Stepper("fugitive", seed=5).state == gamelib.make("fugitive").new_game(seed=5)
    played = gamelib.play(pile_game, [FirstLegalAgent()] * 2, seed=8)
    stepper = Stepper(played)
    assert stepper.state == played and stepper.state is not played
    assert stepper.reset() and stepper.state == pile_game.new_game(seed=8), "a given state can be undone"
    with pytest.raises(TypeError, match="Game, State or game name"):
        Stepper(42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown player 'middle'"):
        Stepper(pile_game, perspective="middle")
    with pytest.raises(ValueError, match=r"0\.\.1"):
        Stepper(pile_game, perspective=2)
    with pytest.raises(TypeError, match="act"):
        Stepper(pile_game, agents={"broken": 3})


def test_every_control_carries_its_css_class_and_a_description(pile_game: SecretPileGame) -> None:
    stepper = secret_dealt(pile_game)
    expected = {
        "gamelib-apply": stepper.apply_button,
        "gamelib-undo": stepper.undo_button,
        "gamelib-redo": stepper.redo_button,
        "gamelib-reset": stepper.reset_button,
        "gamelib-step": stepper.step_button,
        "gamelib-play-to-end": stepper.play_button,
        "gamelib-history": stepper.history_select,
        "gamelib-board": stepper.board,
        "gamelib-error": stepper.error_html,
        "gamelib-notation": stepper.notation,
        "gamelib-save": stepper.save_button,
        "gamelib-load": stepper.load_button,
        "gamelib-record": stepper.record_text,
        "gamelib-perspective": stepper.perspective_dropdown,
        "gamelib-roll": stepper.roll_button,
        "gamelib-force": stepper.force_button,
        "gamelib-stepper": stepper.widget,
        "gamelib-autoplay": stepper.autoplay,
        "gamelib-speed": stepper.speed_slider,
        "gamelib-hot-seat": stepper.hot_seat_box,
        "gamelib-reveal": stepper.reveal_button,
        "gamelib-cover": stepper.cover,
    }
    for css, widget in expected.items():
        assert css in classes(widget), css
    for button in (
        stepper.apply_button,
        stepper.undo_button,
        stepper.play_button,
        stepper.save_button,
        stepper.autoplay,
        stepper.speed_slider,
        stepper.hot_seat_box,
    ):
        assert button.description and button.tooltip
    assert all("gamelib-action" in classes(b) for b in stepper.actions_box.children)
    bundle = stepper._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


# ---------------------------------------------------------------- playing
def test_clicking_action_buttons_plays_them(pile_game: SecretPileGame) -> None:
    stepper = secret_dealt(pile_game)
    assert set(shown_buttons(stepper)) == {"take 1", "take 2"}
    shown_buttons(stepper)["take 2"].click()
    shown_buttons(stepper)["take 1"].click()
    assert stepper.history == ["secret 2", "take 2", "take 1"]
    assert stepper.state.key() == (4, 2, 0, 2, 1)
    assert stepper.error == "" and "to move: left" in stepper.status.value
    assert stepper.history_select.value == 3


def test_typed_notation_applies_and_a_bad_one_names_the_rule_and_changes_nothing(
    pile_game: SecretPileGame,
) -> None:
    stepper = secret_dealt(pile_game)
    stepper.notation.value = "take 2"
    stepper.apply_button.click()
    assert stepper.history[-1] == "take 2" and stepper.notation.value == "", "box cleared on success"
    before = fingerprint(stepper.state)
    board = stepper.board_image.value
    for text, rule in [("take 3", "[max-take]"), ("grab 1", "[notation]"), ("secret 1", "[not-legal]")]:
        stepper.notation.value = text
        stepper.apply_button.click()
        assert stepper.error.startswith(rule), stepper.error
        assert rule in stepper.error_html.value
        assert fingerprint(stepper.state) == before
        assert stepper.notation.value == text, "the text stays so it can be corrected"
        assert stepper.board_image.value == board
    stepper.notation.value = "   "
    stepper.apply_button.click()
    assert "type an action" in stepper.error and fingerprint(stepper.state) == before
    assert stepper.apply("take 1") and stepper.error == "" and stepper.error_html.value == ""
    assert stepper.apply(stepper.state.legal_actions()[0]), "an Action object works too"


def test_an_illegal_action_leaves_the_state_object_itself_untouched(pile_game: SecretPileGame) -> None:
    stepper = secret_dealt(pile_game)
    live = stepper.state
    before = fingerprint(live)
    assert not stepper.apply("take 5")
    assert stepper.state is live and fingerprint(live) == before


def test_undo_redo_reset_are_exact(pile_game: SecretPileGame) -> None:
    stepper = Stepper(pile_game, seed=1)
    states = [stepper.state.clone()]
    stepper.roll_button.click()
    states.append(stepper.state.clone())
    while not stepper.state.is_terminal():
        next(iter(shown_buttons(stepper).values())).click()
        states.append(stepper.state.clone())
    assert stepper.state.is_terminal() and "game over" in stepper.status.value
    assert stepper.redo_button.disabled and stepper.play_button.disabled
    for expected in reversed(states[:-1]):
        stepper.undo_button.click()
        assert stepper.state == expected and stepper.state.key() == expected.key()
    assert stepper.undo_button.disabled
    assert not stepper.undo() and "nothing to undo" in stepper.error
    for expected in states[1:]:
        stepper.redo_button.click()
        assert stepper.state == expected
    assert not stepper.redo() and "nothing to redo" in stepper.error
    stepper.reset_button.click()
    assert stepper.state == pile_game.new_game(seed=1) and stepper.error == ""
    stepper.redo_button.click()
    assert stepper.state == states[1], "reset keeps the line so redo replays it"


def test_clicking_a_history_entry_rewinds_and_keeps_the_redo_line(pile_game: SecretPileGame) -> None:
    stepper = secret_dealt(pile_game)
    for text in ["take 1", "take 2", "take 1", "take 2"]:
        assert stepper.apply(text)
    full = stepper.state.clone()
    labels = [label for label, _ in stepper.history_select.options]
    assert labels[0] == "start" and labels[2].endswith("left: take 1") and labels[3].endswith("right: take 2")
    stepper.history_select.value = 2  # click on "2. left: take 1"
    assert stepper.history == ["secret 2", "take 1"]
    expected = pile_game.new_game(seed=3)
    for text in ["secret 2", "take 1"]:
        expected.apply(text)
    assert stepper.state == expected
    labels = [label for label, _ in stepper.history_select.options]
    assert all(label.endswith("(undone)") for label in labels[3:]) and "(undone)" not in labels[2]
    assert stepper.redo() and stepper.redo() and stepper.redo()
    assert stepper.state == full, "the redo line survived the rewind"
    stepper.history_select.value = 0
    assert stepper.state == pile_game.new_game(seed=3)
    stepper.history_select.value = 4  # forward along the line is allowed too
    assert stepper.history == ["secret 2", "take 1", "take 2", "take 1"]
    assert not stepper.rewind(9) and "cannot rewind" in stepper.error
    assert stepper.history == ["secret 2", "take 1", "take 2", "take 1"]


def test_a_new_move_after_a_rewind_cuts_the_line_but_the_same_move_follows_it(
    pile_game: SecretPileGame,
) -> None:
    stepper = secret_dealt(pile_game)
    for text in ["take 1", "take 2", "take 1"]:
        stepper.apply(text)
    stepper.rewind(1)
    stepper.apply("take 1")
    assert stepper.can_redo(), "playing the move the line holds keeps the line"
    stepper.apply("take 1")
    assert not stepper.can_redo() and stepper.history == ["secret 2", "take 1", "take 1"]
    assert not any("(undone)" in label for label, _ in stepper.history_select.options)


def test_changes_made_to_the_state_directly_are_adopted(pile_game: SecretPileGame) -> None:
    stepper = secret_dealt(pile_game)
    stepper.state.apply("take 2")
    stepper.state.apply("take 1")
    stepper.refresh()
    assert stepper.history_select.value == 3 and stepper.error == ""
    assert stepper.undo() and stepper.history == ["secret 2", "take 2"]


# ---------------------------------------------------------------- chance
def test_chance_outcomes_show_probabilities_and_can_be_forced_or_rolled(pile_game: SecretPileGame) -> None:
    stepper = Stepper(pile_game, seed=11)
    assert stepper.chance_box.layout.display is None
    assert [label for label, _ in stepper.force_dropdown.options] == [
        "secret 1  ·  50.0%",
        "secret 2  ·  25.0%",
        "secret 3  ·  25.0%",
    ]
    stepper.force_dropdown.value = 2
    stepper.force_button.click()
    assert stepper.history == ["secret 3"] and stepper.chance_box.layout.display == "none"
    before = fingerprint(stepper.state)
    assert not stepper.force_chance("secret 1") and stepper.error.startswith("[not-chance]")
    assert not stepper.roll() and fingerprint(stepper.state) == before
    stepper.undo()
    assert not stepper.force_chance("secret 7") and stepper.error.startswith("[not-an-outcome]")
    assert not stepper.force_chance("nonsense") and stepper.error.startswith("[notation]")
    assert fingerprint(stepper.state) == fingerprint(pile_game.new_game(seed=11))
    stepper.roll_button.click()
    assert stepper.history == [str(pile_game.new_game(seed=11).sample_chance())], "roll = sample_chance"


# ---------------------------------------------------------------- agents
def test_play_to_end_uses_the_seated_agents_and_can_be_undone_step_by_step(pile_game: SecretPileGame) -> None:
    stepper = Stepper(pile_game, seed=6, agents={"first": FirstLegalAgent(), "random": RandomAgent()})
    assert stepper.seats == ["first", "first"]
    stepper.play_button.click()
    assert stepper.state.is_terminal() and stepper.error == ""
    expected = gamelib.play(pile_game, [FirstLegalAgent()] * 2, seed=6)
    assert stepper.state == expected, "chance from state.sample_chance(), moves from the seated agents"
    assert "game over" in stepper.status.value and "wins" in stepper.status.value
    assert stepper.undo() and stepper.history == [str(a) for a in expected.history[:-1]]
    stepper.seat_dropdowns[1].value = "random"
    assert stepper.seats == ["first", "random"]
    stepper.set_agent("left", "random")
    assert stepper.seat_dropdowns[0].value == "random"
    with pytest.raises(ValueError, match="unknown agent"):
        stepper.set_agent(0, "minimax")


def test_step_plays_one_agent_move_and_replays_the_same_move_after_undo() -> None:
    game = SecretPileGame(options={"pile": 30, "max_take": 9})
    stepper = Stepper(game, seed=2)  # every seat: the random agent
    stepper.step_button.click()
    assert stepper.history == [str(game.new_game(seed=2).sample_chance())]
    stepper.step_button.click()
    first = stepper.history
    assert len(first) == 2
    stepper.undo()
    stepper.step_agent()
    assert stepper.history == first, "the agent's generator depends on (seed, player, move)"
    assert stepper.play_to_end() and stepper.step_button.disabled
    assert not stepper.step_agent() and "game is over" in stepper.error


def test_agents_may_be_given_per_seat_or_as_functions(pile_game: SecretPileGame) -> None:
    def greedy(state: gamelib.State, player: int, rng: random.Random) -> str:
        return str(state.legal_actions()[-1])

    stepper = Stepper(pile_game, seed=4, agents=[greedy, FirstLegalAgent()])
    assert stepper.seats == ["greedy", "first"] and "random" in stepper.agents
    stepper.play_to_end()
    # left always takes as many as allowed, right always one: 7 = 2 + 1 + 2 + 1 + 1
    assert stepper.history[1:] == ["take 2", "take 1", "take 2", "take 1", "take 1"]
    with pytest.raises(ValueError, match="seats 2 players"):
        Stepper(pile_game, agents=[greedy])


def test_agents_per_seat_are_named_as_tournaments_name_them(pile_game: SecretPileGame) -> None:
    """One label for an agent everywhere (gamelib.core.play.agent_label/unique_names): a second,
    different agent of the same name is ``first#2``; one agent given for both seats is one entry."""
    stepper = Stepper(pile_game, agents=[FirstLegalAgent(), FirstLegalAgent()])
    assert stepper.seats == ["first", "first#2"]
    assert agent_label(stepper.agents["first#2"]) == "first"
    assert unique_names(["first", "first"]) == stepper.seats
    same = FirstLegalAgent()
    stepper = Stepper(pile_game, agents=[same, same])
    assert stepper.seats == ["first", "first"] and stepper.agents["first"] is same
    with pytest.raises(TypeError, match="needs an act"):
        Stepper(pile_game, agents=[same, 42])


def test_a_failing_or_cheating_agent_is_reported_and_changes_nothing(pile_game: SecretPileGame) -> None:
    def crashing(state: gamelib.State, player: int, rng: random.Random) -> str:
        raise RuntimeError("out of ideas")

    def cheating(state: gamelib.State, player: int, rng: random.Random) -> str:
        return "take 5"

    stepper = secret_dealt(pile_game, agents={"crash": crashing, "cheat": cheating})
    before = fingerprint(stepper.state)
    assert not stepper.step_agent()
    assert "the agent crash (left) failed: RuntimeError: out of ideas" in stepper.error
    assert "out of ideas" in stepper.error_html.value and fingerprint(stepper.state) == before
    stepper.set_agent(0, "cheat")
    assert not stepper.play_to_end()
    assert "the agent cheat (left) chose an illegal action: [max-take]" in stepper.error
    assert fingerprint(stepper.state) == before


def test_an_agent_cannot_corrupt_the_game_by_mutating_what_it_is_given(pile_game: SecretPileGame) -> None:
    def vandal(state: gamelib.State, player: int, rng: random.Random) -> gamelib.Action:
        choice = state.legal_actions()[0]
        state.apply(choice)  # mutates the state it was handed, then returns the move
        return choice

    stepper = secret_dealt(pile_game, agents={"vandal": vandal})
    assert stepper.step_agent() and stepper.error == ""
    assert stepper.history == ["secret 2", "take 1"] and stepper.state.key()[0] == 6


# ---------------------------------------------------------------- many actions
def test_many_legal_actions_are_listed_in_a_select(big_pile_game: SecretPileGame) -> None:
    stepper = secret_dealt(big_pile_game)
    assert stepper.actions_box.children == () and stepper.action_list.layout.display is None
    assert [label for label, _ in stepper.action_select.options] == [f"take {n}" for n in range(1, 31)]
    stepper.play_selected_button.click()
    assert "pick an action" in stepper.error and len(stepper.history) == 1
    stepper.action_select.value = 16  # "take 17"
    stepper.play_selected_button.click()
    assert stepper.history == ["secret 2", "take 17"]
    # 23 tokens left: 23 actions, few enough for buttons again
    assert stepper.action_list.layout.display == "none" and stepper.action_select.options == ()
    assert list(shown_buttons(stepper)) == [f"take {n}" for n in range(1, 24)]
    stepper.undo()
    assert stepper.actions_box.children == () and len(stepper.action_select.options) == 30


# ---------------------------------------------------------------- perspective
def test_a_players_view_hides_the_others_secrets_and_moves(pile_game: SecretPileGame) -> None:
    stepper = secret_dealt(pile_game, value=3)
    omniscient = stepper.board_image.value
    stepper.perspective_dropdown.value = 2  # the right player's view
    assert stepper.perspective == 1
    assert stepper.board_image.value != omniscient, "the right player must not see the secret"
    assert stepper.history_select.options[1][0].endswith("chance: secret ?")
    assert stepper.actions_box.children == () and "<b>Left</b> is to move" in stepper.waiting.value
    assert stepper.notation.disabled and stepper.apply_button.disabled
    stepper.step_button.click()  # the left player's agent moves: now the right player is to move
    assert shown_buttons(stepper) and set(shown_buttons(stepper)) <= {"take 1", "take 2"}
    assert not stepper.notation.disabled and stepper.waiting.layout.display == "none"
    stepper.perspective = "left"
    assert stepper.perspective_dropdown.value == 1
    assert stepper.history_select.options[1][0].endswith("chance: secret 3")
    stepper.perspective = None
    stepper.undo()
    assert stepper.board_image.value == omniscient
    stepper.undo()
    stepper.perspective = 1
    assert "press Roll" in stepper.chance_html.value and stepper.force_button.layout.display == "none"
    stepper.perspective = None
    assert stepper.force_button.layout.display is None and len(stepper.force_dropdown.options) == 3


def test_a_game_without_a_drawing_is_shown_as_text(pile_game: SecretPileGame, monkeypatch) -> None:
    def no_drawing(self: Any, state: Any, ax: Any = None, perspective: Any = None) -> Any:
        raise NotImplementedError("secretpile has no drawing")

    monkeypatch.setattr(SecretPileGame, "draw", no_drawing)
    stepper = secret_dealt(pile_game, value=3)
    assert stepper.board.children == (stepper.board_text,)
    assert "no drawing" in stepper.board_text.value and "pile 7, secret 3" in stepper.board_text.value
    stepper.perspective = "right"
    assert "secret: None" in stepper.board_text.value, "text view = the observation, a field a line"
    assert "Observation(" not in stepper.board_text.value, "no bare repr"


# ---------------------------------------------------------------- panels
class CountingPanel:
    """A panel that records every state it is shown."""

    def __init__(self, stepper: Stepper) -> None:
        import ipywidgets

        self.stepper = stepper
        self.widget = ipywidgets.HTML()
        self.seen: list[list[str]] = []

    def update(self, state: gamelib.State) -> None:
        self.seen.append([str(a) for a in state.history])
        self.widget.value = f"{len(state.history)} actions"


def test_panels_are_refreshed_after_every_change(pile_game: SecretPileGame) -> None:
    stepper = Stepper(pile_game, seed=3, panels=[CountingPanel])
    (panel,) = stepper.panels
    assert isinstance(panel, CountingPanel) and stepper.panels_box.children == (panel.widget,)
    assert panel.seen == [[]]
    stepper.roll()
    stepper.apply("take 1")
    stepper.undo()
    stepper.redo()
    stepper.perspective = 1
    stepper.play_to_end()
    dealt = panel.seen[1][0]
    assert panel.seen[1:6] == [[dealt], [dealt, "take 1"], [dealt], [dealt, "take 1"], [dealt, "take 1"]]
    assert panel.seen[-1] == stepper.history and panel.widget.value == f"{len(stepper.history)} actions"
    count = len(panel.seen)
    assert not stepper.apply("take 9")
    assert len(panel.seen) == count, "a refused action changes nothing, so no panel refresh"


def test_a_panel_can_refuse_an_input_in_the_error_line(pile_game: SecretPileGame) -> None:
    stepper = secret_dealt(pile_game)
    before = fingerprint(stepper.state)
    assert stepper.show_error("no token there") is False
    assert stepper.error == "no token there" and "no token there" in stepper.error_html.value
    assert fingerprint(stepper.state) == before
    assert stepper.apply("take 1") and stepper.error == "" and stepper.error_html.value == ""


def test_a_broken_panel_is_reported_without_breaking_the_stepper(pile_game: SecretPileGame) -> None:
    class Broken(CountingPanel):
        def update(self, state: gamelib.State) -> None:
            if state.history:
                raise KeyError("no such hideout")

    stepper = Stepper(pile_game, seed=3, panels=[Broken])
    assert stepper.roll() and len(stepper.history) == 1
    assert "panel Broken failed: KeyError" in stepper.error


# ---------------------------------------------------------------- records
def test_save_and_load_round_trip_with_the_buttons() -> None:
    source = Stepper("fugitive", seed=12)
    assert source.play_to_end()
    source.rewind(40)
    source.save_button.click()
    record = json.loads(source.record_text.value)
    assert record["game"] == "fugitive" and len(record["actions"]) == 40
    assert source.save_record() == source.record_text.value
    target = Stepper("fugitive", seed=99)
    target.record_text.value = source.record_text.value
    target.load_button.click()
    assert target.error == "" and target.state == source.state
    assert target.undo()
    source.undo()
    assert target.state == source.state
    target.reset()
    assert target.state == gamelib.make("fugitive").new_game(seed=12), "a loaded game undoes to its start"
    assert target.load_record(record) and target.state == gamelib.from_record(record), "a dict works too"


def test_a_bad_record_names_the_field_or_step_and_changes_nothing(pile_game: SecretPileGame) -> None:
    source = Stepper("fugitive", seed=12)
    for _ in range(20):
        assert source.step_agent()
    good = json.loads(source.save_record())
    target = Stepper("fugitive", seed=1)
    target.roll()
    before = fingerprint(target.state)
    tampered = dict(good, actions=[*good["actions"][:7], "guess 41", *good["actions"][8:]])
    cases = [
        (json.dumps(tampered), "step 7"),
        ("{not json", "not valid JSON"),
        (json.dumps(dict(good, seed=-3)), "field 'seed'"),
        (json.dumps({k: v for k, v in good.items() if k != "actions"}), "missing field"),
        (json.dumps(dict(good, game="chess")), "field 'game'"),
        (json.dumps(dict(good, players=3)), "players"),
        ("   ", "record box is empty"),
    ]
    for text, message in cases:
        target.record_text.value = text
        target.load_button.click()
        assert message in target.error, (message, target.error)
        assert fingerprint(target.state) == before
    other = Stepper(pile_game)
    assert not other.load_record(good)
    assert "this stepper plays 'secretpile'" in other.error


# ---------------------------------------------------------------- every registered game
@pytest.mark.parametrize("name", gamelib.registered_games())
def test_every_registered_game_plays_to_the_end_and_rewinds_exactly(name: str) -> None:
    game = gamelib.make(name)
    stepper = Stepper(game, seed=5)
    assert stepper.play_to_end(), stepper.error
    final = stepper.state.clone()
    assert stepper.state.is_terminal() and "game over" in stepper.status.value
    middle = len(stepper.history) // 2
    stepper.history_select.value = middle
    assert stepper.state == gamelib.from_record(truncated(final, stepper.history))
    assert [str(a) for a in stepper.state.history] == [str(a) for a in final.history[:middle]]
    stepper.history_select.value = len(final.history)
    assert stepper.state == final


# ---------------------------------------------------------------- fuzzing the whole widget
@settings(max_examples=25, deadline=None)
@given(ops=st.lists(st.tuples(st.sampled_from("aaaubrsRwn"), st.integers(0, 99)), max_size=30))
def test_any_click_sequence_matches_replaying_the_line(ops: list[tuple[str, int]]) -> None:
    """After any sequence of clicks the state is exactly the replay of the history it shows."""
    game = SecretPileGame(options={"pile": 12, "max_take": 3})
    stepper = Stepper(game, seed=7)
    for op, n in ops:
        state = stepper.state
        if op == "a" and not state.is_terminal():
            if state.current_player == CHANCE:
                stepper.force_dropdown.value = n % len(stepper.force_dropdown.options)
                stepper.force_button.click()
            else:
                buttons = list(stepper.actions_box.children)
                buttons[n % len(buttons)].click()
        elif op == "u":
            stepper.undo_button.click()
        elif op == "b":
            stepper.redo_button.click()
        elif op == "s":
            stepper.step_button.click()
        elif op == "R":
            stepper.reset_button.click()
        elif op == "w":
            values = [v for _, v in stepper.history_select.options]
            stepper.history_select.value = values[n % len(values)]
        else:
            stepper.notation.value = f"take {n % 5}"
            stepper.apply_button.click()
        replayed = game.new_game(seed=7)
        for text in stepper.history:
            replayed.apply(text)
        assert stepper.state == replayed
        assert stepper.history_select.value == len(stepper.history)
        assert stepper.undo_button.disabled == (not stepper.history)
        if stepper.state.current_player == TERMINAL:
            assert "game over" in stepper.status.value


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_every_registered_game_is_drawn_from_every_seat(name: str) -> None:
    """Each perspective gets a real picture (not the text fallback a failing drawing leaves)."""
    game = gamelib.make(name)
    state = gamelib.play(game, [RandomAgent()] * game.num_players, seed=3, max_actions=25)
    stepper = Stepper(state)
    for view in [None, *range(game.num_players)]:
        stepper.perspective = view
        assert stepper.board.children == (stepper.board_image,), stepper.board_text.value[-300:]
        assert stepper.board_image.value[:4] == b"\x89PNG"
        labels = [label for label, _ in stepper.history_select.options]
        assert len(labels) == len(state.history) + 1


def test_a_cooperative_game_shows_the_rating_it_declares() -> None:
    """``Game.rating`` names the grading function by path (core's resolver): the generic Stepper
    shows it with the final score and names no game; without it, the score alone."""
    import dataclasses

    class CooperativePile(SecretPileGame):
        info = dataclasses.replace(SecretPileGame.info, utility="identical")

    class GradedPile(CooperativePile):
        rating = "builtins:hex"  # any "module:function" of the score

    for game, graded in ((GradedPile(), True), (CooperativePile(), False)):
        stepper = Stepper(game, seed=1, agents=[FirstLegalAgent(), FirstLegalAgent()])
        assert stepper.play_to_end(), stepper.error
        score = round(stepper.state.returns()[0])
        assert (f": {hex(score)}" in stepper.status.value) is graded, stepper.status.value
