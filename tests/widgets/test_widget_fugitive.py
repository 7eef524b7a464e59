"""The Stepper on Fugitive, and the detective's belief panel (``gamelib_widgets.fugitive``)."""

from __future__ import annotations

import random
import re

import pytest
from pile_game import SecretPileGame, fingerprint, shown_buttons, truncated

import gamelib
from gamelib.agents import RandomAgent
from gamelib_widgets import Stepper

FUGITIVE, DETECTIVE = 0, 1


def position_with_hideouts(hidden: int, seed: int = 0) -> gamelib.State:
    """A Fugitive position with at least ``hidden`` face-down hideouts, reached by random play."""
    game = gamelib.make("fugitive")
    for attempt in range(seed, seed + 200):
        state = game.new_game(seed=attempt)
        rng = random.Random(attempt)
        while not state.is_terminal() and len(state.hidden_positions()) < hidden:
            if state.is_chance_node():
                state.apply(state.sample_chance())
                continue
            actions = state.legal_actions()
            # no passing, and no guessing either: guesses might reveal what we want face down
            keep = [a for a in actions if str(a) != "pass" and not str(a).startswith(("guess", "add"))]
            state.apply(rng.choice(keep or actions))
        if len(state.hidden_positions()) >= hidden and not state.is_terminal():
            return state
    raise AssertionError(f"no position with {hidden} face-down hideouts found")


def fugitive_to_move(state: gamelib.State) -> gamelib.State:
    state = state.clone()
    rng = random.Random(1)
    while state.current_player != FUGITIVE:
        state.apply(state.sample_chance() if state.is_chance_node() else rng.choice(state.legal_actions()))
    return state


# ---------------------------------------------------------------- the stepper on Fugitive
def test_a_bad_fugitive_move_shows_the_rule_and_changes_nothing() -> None:
    stepper = Stepper("fugitive", seed=7)
    for card in ("deal 5", "deal 9", "deal 12", "deal 20", "deal 25"):
        assert stepper.force_chance(card), stepper.error
    before = fingerprint(stepper.state)
    board = stepper.board_image.value
    for text, rule in [
        ("hide 25", "[step-limit]"),  # 22 footprints of sprints needed, the hand has 10
        ("hide 7", "[card-in-hand]"),
        ("draw 1", "[turn-order]"),  # the first turn has no draw
        ("pass", "[first-turn]"),
        ("guess 3", "[turn-order]"),
        ("hide forty", "[notation]"),
    ]:
        stepper.notation.value = text
        stepper.apply_button.click()
        assert stepper.error.startswith(rule), (text, stepper.error)
        assert rule in stepper.error_html.value
        assert fingerprint(stepper.state) == before and stepper.board_image.value == board
    stepper.notation.value = "hide 3"
    stepper.apply_button.click()
    assert stepper.error == "" and stepper.history[-1] == "hide 3"
    assert set(shown_buttons(stepper)) >= {"done", "sprint 1", "sprint 2"}


def test_the_detective_view_hides_the_fugitive_cards() -> None:
    state = fugitive_to_move(position_with_hideouts(2))
    stepper = Stepper(state)
    omniscient = stepper.board_image.value
    labels = [label for label, _ in stepper.history_select.options]
    assert any(re.search(r"fugitive: hide \d+$", label) for label in labels)
    stepper.perspective = "detective"
    assert stepper.board_image.value != omniscient, "the detective's picture must hide the hideouts"
    labels = [label for label, _ in stepper.history_select.options]
    assert not any(re.search(r"fugitive: (hide|sprint) \d+$", label) for label in labels)
    assert any(label.endswith("fugitive: hide ?") for label in labels)
    assert any(label.endswith("chance: deal ?") for label in labels), "the fugitive's draws are secret"
    assert stepper.actions_box.children == () and stepper.action_list.layout.display == "none"
    assert "<b>Fugitive</b> is to move" in stepper.waiting.value and stepper.notation.disabled
    stepper.perspective = "fugitive"
    assert stepper.board_image.value != omniscient, "the fugitive does not see the detective's hand"
    assert shown_buttons(stepper) or stepper.action_select.options, "the fugitive sees her moves"
    stepper.perspective = None
    assert stepper.board_image.value == omniscient


def test_play_to_end_on_fugitive_then_rewind_to_any_move() -> None:
    stepper = Stepper("fugitive", seed=21)
    assert stepper.play_to_end() and stepper.state.is_terminal()
    assert "game over" in stepper.status.value and "wins" in stepper.status.value
    final = stepper.state.clone()
    assert gamelib.from_record(stepper.save_record()) == final
    stepper.history_select.value = 30
    assert stepper.state == gamelib.from_record(truncated(final, stepper.history))
    assert len(stepper.history) == 30 and stepper.can_redo()


# ---------------------------------------------------------------- the belief panel
def test_the_belief_panel_shows_the_detectives_exact_belief() -> None:
    from gamelib.fugitive.analysis import belief
    from gamelib_widgets.fugitive import BeliefPanel

    state = position_with_hideouts(3, seed=4)
    stepper = Stepper(state, panels=[BeliefPanel])
    (panel,) = stepper.panels
    assert isinstance(panel, BeliefPanel) and "gamelib-belief" in panel.widget._dom_classes
    assert panel.error == "" and stepper.error == ""
    expected = belief(state)
    assert panel.belief.worlds == expected.worlds
    assert list(panel.belief.hideout_prob) == list(expected.hideout_prob)
    hidden = state.hidden_positions()
    assert sorted(panel.belief.position_probs) == hidden
    rows = re.findall(r"<tr>(.*?)</tr>", panel.table.value)
    assert len(rows) == 1 + len(hidden), "a header, then one row per face-down hideout"
    for position, row in zip(hidden, rows[1:], strict=True):
        probs = expected.position_probs[position]
        best = max(range(43), key=lambda v: (probs[v], -v))
        assert f"#{position}<" in row and f"<b>{best}</b> {probs[best]:.0%}" in row
        assert f">{sum(p > 0 for p in probs)}<" in row, "how many numbers remain"
        true_card = state.observation(FUGITIVE).hideouts[position][0]
        assert f"<b>{true_card}</b> ({probs[true_card]:.0%})" in row, "omniscient view: the true card"
        assert probs[true_card] > 0, "the true card is always a possibility"
    assert f"<b>{expected.worlds:,}".replace(",", "\u2009") in panel.summary.value
    assert panel.strip.value[:4] == b"\x89PNG" and panel.strip.layout.display is None


def test_the_belief_panel_never_shows_the_truth_in_the_detectives_view() -> None:
    from gamelib_widgets.fugitive import BeliefPanel

    stepper = Stepper(position_with_hideouts(2, seed=8), panels=[BeliefPanel])
    (panel,) = stepper.panels
    assert "actually" in panel.table.value
    stepper.perspective = DETECTIVE
    assert "actually" not in panel.table.value
    stepper.perspective = FUGITIVE
    assert panel.table.value == "" and panel.belief is None, "the count depends on the detective's hand"
    assert "not the fugitive's" in panel.summary.value
    stepper.perspective = None
    assert "actually" in panel.table.value


def test_the_belief_panel_follows_moves_undo_and_redo() -> None:
    from gamelib.fugitive.analysis import belief
    from gamelib_widgets.fugitive import BeliefPanel

    stepper = Stepper("fugitive", seed=5, panels=[BeliefPanel])
    (panel,) = stepper.panels
    assert "nothing to deduce" in panel.summary.value and panel.strip.layout.display == "none"
    seen = []
    for _ in range(14):
        assert stepper.step_agent(), stepper.error
        assert panel.error == "" and stepper.error == ""
        assert panel.belief.worlds == belief(stepper.state).worlds
        seen.append((panel.belief.worlds, panel.summary.value, panel.table.value))
    assert len({w for w, _, _ in seen}) > 1, "the belief moved as the game went on"
    for expected in reversed(seen[:-1]):
        stepper.undo()
        assert (panel.belief.worlds, panel.summary.value, panel.table.value) == expected
    stepper.redo()
    assert (panel.belief.worlds, panel.summary.value, panel.table.value) == seen[1]


def test_the_belief_panel_survives_whole_games() -> None:
    """Positions all along random games get a belief: the panel never reports an error.

    (Seeds whose games stay short: in some crowded positions counting worlds takes seconds.)
    """
    from gamelib.fugitive.analysis import belief
    from gamelib_widgets.fugitive import BeliefPanel

    game = gamelib.make("fugitive")
    for seed in (2, 5):
        final = gamelib.play(game, [RandomAgent()] * 2, seed=seed, max_actions=200)
        stepper = Stepper(final, panels=[BeliefPanel])
        (panel,) = stepper.panels
        assert panel.error == "", panel.error
        for ply in range(0, len(final.history), 11):
            position = gamelib.from_record(truncated(final, stepper.history[:ply]))
            panel.update(position)
            assert panel.error == "", (seed, ply, panel.error)
            assert panel.belief.worlds == belief(position).worlds


def test_the_belief_panel_can_be_paused_and_computed_on_demand() -> None:
    from gamelib_widgets.fugitive import BeliefPanel

    stepper = Stepper(position_with_hideouts(2, seed=3), panels=[BeliefPanel])
    (panel,) = stepper.panels
    live_table = panel.table.value
    assert panel.compute_button.layout.display == "none" and live_table
    panel.live.value = False
    assert panel.compute_button.layout.display is None
    assert "Paused" in panel.summary.value and panel.belief is None and panel.table.value == ""
    stepper.undo()
    stepper.redo()
    assert panel.belief is None, "paused: moves do not recompute"
    panel.compute_button.click()
    assert panel.table.value == live_table and panel.belief is not None
    panel.live.value = True
    assert panel.compute_button.layout.display == "none" and panel.table.value == live_table


def test_fugitive_stepper_has_the_panel_and_the_fugitive_agents() -> None:
    from gamelib_widgets.fugitive import BeliefPanel, fugitive_stepper

    stepper = fugitive_stepper(seed=3, perspective="detective")
    assert isinstance(stepper.panels[0], BeliefPanel) and stepper.perspective == DETECTIVE
    assert stepper.panels_box.children[0] is stepper.panels[0].widget
    assert "random" in stepper.agents
    from gamelib.fugitive import agents

    assert isinstance(stepper.agents[stepper.seats[FUGITIVE]], agents.FugitiveHeuristic)
    assert isinstance(stepper.agents[stepper.seats[DETECTIVE]], agents.BeliefDetective)
    custom = fugitive_stepper(seed=3, agents={"mine": RandomAgent()}, options={"edition": 2})
    assert "mine" in custom.agents and custom.game.options.edition == 2
    for _ in range(8):
        assert stepper.step_agent(), stepper.error


def test_the_belief_panel_is_for_fugitive_only(pile_game: SecretPileGame) -> None:
    from gamelib_widgets.fugitive import BeliefPanel

    with pytest.raises(ValueError, match="Fugitive detective"):
        Stepper(pile_game, panels=[BeliefPanel])


def test_live_belief_over_budget_offers_the_full_count(monkeypatch: pytest.MonkeyPatch) -> None:
    import gamelib_widgets.fugitive as panel_module
    from gamelib.fugitive.analysis import clear_caches
    from gamelib_widgets.fugitive import BeliefPanel

    clear_caches()
    monkeypatch.setattr(panel_module, "LIVE_EDGE_BUDGET", 1)
    stepper = Stepper(position_with_hideouts(2, seed=3), panels=[BeliefPanel])
    (panel,) = stepper.panels
    assert panel.belief is None and panel.error == ""
    assert "Too many possible worlds" in panel.summary.value
    assert panel.compute_button.layout.display is None  # offered
    panel.compute_button.click()  # counts without a budget
    assert panel.belief is not None and panel.belief.worlds > 0


# ---------------------------------------------------------------- a small deck (option escape_card)
@pytest.mark.parametrize("last", [7, 12])
def test_fugitive_stepper_plays_a_small_deck_to_the_end(last: int, monkeypatch: pytest.MonkeyPatch) -> None:
    import gamelib.fugitive.draw as fugitive_draw
    from gamelib.fugitive.analysis import belief
    from gamelib_widgets.fugitive import BeliefPanel, fugitive_stepper

    drawn_with: list[int | None] = []
    real = fugitive_draw.draw_belief

    def spy(b: object, ax: object = None, last: int | None = None) -> object:
        drawn_with.append(last)
        return real(b, ax=ax, last=last)  # type: ignore[arg-type]

    monkeypatch.setattr(fugitive_draw, "draw_belief", spy)
    stepper = fugitive_stepper(seed=4, options={"escape_card": last}, perspective="detective")
    (panel,) = stepper.panels
    assert isinstance(panel, BeliefPanel) and stepper.game.options.escape_card == last
    assert stepper.board_image.value[:4] == b"\x89PNG"
    steps = 0
    while stepper.step_agent():
        steps += 1
        assert stepper.error == "" and panel.error == "", (stepper.error, panel.error)
        assert panel.belief.worlds == belief(stepper.state).worlds
        for number in re.findall(r"<b>(\d+)</b>", panel.table.value):
            assert 1 <= int(number) < last, "the table names only numbers of this deck"
        assert steps < 500
    assert stepper.state.is_terminal() and "game over" in stepper.status.value
    assert drawn_with and set(drawn_with) == {last}, "the strip is drawn over 1..last-1"


def test_the_stepper_refuses_numbers_beyond_a_small_deck() -> None:
    stepper = Stepper(gamelib.make("fugitive", options={"escape_card": 7}), seed=1)
    stepper.notation.value = "hide 8"
    stepper.apply_button.click()
    assert stepper.error.startswith("[notation]") and stepper.history == []
    stepper.notation.value = "hide 3"
    stepper.apply_button.click()
    assert stepper.error == "" and stepper.history == ["hide 3"]
