"""Fugitive read as the seed text is written (issue 13): each reading has a legal and an illegal test
at its default and at every value of its option, and records of rules version 1 still replay.

* ``manhunt``: « Lors de son tour, le détective pioche une carte … Il a ensuite le choix entre … ou
  lancer une chasse à l'homme »: ``"choice"`` (default) or ``"immediate"`` (version 1);
* ``refuse_known_numbers``: « il annonce un chiffre entre 1 et 41 »: False (default) or True;
* ``escape_sprints``: the sprint cards under the escape card, ``"shown"`` (default) or ``"hidden"``;
* a manhunt with nothing face down is the detective's at once, and the first miss ends any manhunt;
* ``max_rounds`` is a draw no rule has, said by ``state.ended_by``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_fugitive_rules import after_first_round, play, rule_of

import gamelib
from gamelib.fugitive.rules import (
    D_DRAW,
    D_GUESS,
    DETECTIVE,
    ENDINGS,
    F_PLACE,
    FUGITIVE,
    HUNTING,
    MANHUNT_CALL,
    OVER,
    FugitiveGame,
    FugitiveState,
)

DATA = Path(__file__).parent / "data"


def at_42(highest_revealed: int = 27, decks_empty: bool = False, **options: object) -> FugitiveState:
    """The fugitive about to lay 42 with 40 and 38 as sprint fodder (hideouts set by hand).

    Table: 0, 3, 27, 30, 39; face down: 3, 39 and whichever of 27/30 is not ``highest_revealed``.
    """
    state = after_first_round(**options)
    state.phase = F_PLACE
    state.hideouts = [0, 3, 27, 30, 39]
    state.revealed = [True, False, highest_revealed == 27, highest_revealed == 30, False]
    state.sprints = [(), (), (), (), ()]
    state.fhand = 1 << 42 | 1 << 40 | 1 << 38
    state.dhand = 1 << 7 | 1 << 20
    state.decks = [0, 0, 0] if decks_empty else [1 << 8, 0, 1 << 33]
    state.invalidate()
    return state


def legal(state: gamelib.State) -> set[str]:
    return {str(a) for a in state.legal_actions()}


# ------------------------------------------------------------------------ manhunt = "choice" (the text)
def test_after_42_the_detective_draws_first_and_the_manhunt_is_his_choice() -> None:
    state = at_42()
    assert rule_of(state, "manhunt") == "turn-order"  # the fugitive's turn
    play(state, "hide 42, sprint 40, done")
    assert state.phase == D_DRAW and state.escape_pending and state.current_player == DETECTIVE
    assert rule_of(state, "manhunt") == "draw-first"
    assert rule_of(state, "guess 3") == "draw-first"
    play(state, "draw 3, deal 33")
    assert state.phase == D_GUESS
    assert {"manhunt", "guess 3", "add 3"} <= legal(state)
    play(state, "manhunt")
    assert state.phase == HUNTING
    assert rule_of(state, "manhunt") == "manhunt"
    assert rule_of(state, "add 3") == "manhunt"
    play(state, "guess 3, guess 30, guess 39")
    assert state.is_terminal() and state.winner == DETECTIVE and state.ended_by == "caught"


def test_no_manhunt_call_before_the_escape_card() -> None:
    state = play(after_first_round(), "draw 1, deal 8, hide 5, done, draw 1, deal 9")
    assert state.phase == D_GUESS and "manhunt" not in legal(state)
    assert rule_of(state, "manhunt") == "manhunt"


def test_declining_the_manhunt_lets_the_fugitive_escape_when_the_turn_ends() -> None:
    hit = play(at_42(decks_empty=True), "hide 42, done")
    assert hit.phase == D_GUESS  # every deck empty: no draw
    play(hit, "guess 3")  # a hit, but 39 is still face down: the turn ends, the fugitive is gone
    assert hit.is_terminal() and hit.winner == FUGITIVE and hit.ended_by == "escape"
    series = play(at_42(decks_empty=True), "hide 42, done, add 3, add 30, add 39, reveal")
    assert series.is_terminal() and series.winner == DETECTIVE and series.ended_by == "caught"


def test_the_first_miss_ends_the_manhunt_for_the_fugitive() -> None:
    state = play(at_42(decks_empty=True), "hide 42, done, manhunt, guess 3, guess 31")
    assert state.is_terminal() and state.winner == FUGITIVE and state.ended_by == "manhunt-miss"
    assert state.returns() == [1.0, -1.0]


# ------------------------------------------------------------------------ manhunt = "immediate"
def test_immediate_manhunt_starts_without_a_draw() -> None:
    state = play(at_42(manhunt="immediate"), "hide 42, sprint 40, done")
    assert state.phase == HUNTING and not state.escape_pending
    assert rule_of(state, "draw 3") == "turn-order"
    assert rule_of(state, "manhunt") == "manhunt"
    play(state, "guess 3, guess 30, guess 39")
    assert state.winner == DETECTIVE and state.ended_by == "caught"


def test_above_the_threshold_the_fugitive_escapes_at_once_under_both_readings() -> None:
    for manhunt in ("choice", "immediate"):
        state = play(at_42(highest_revealed=30, manhunt=manhunt), "hide 42, done")
        assert state.is_terminal() and state.winner == FUGITIVE and state.ended_by == "escape"


# ------------------------------------------------------------------------ nothing face down (small decks)
@pytest.mark.parametrize("manhunt", ["choice", "immediate"])
def test_escape_with_nothing_face_down_is_the_detectives_at_once(manhunt: str) -> None:
    """The solver configuration's bug: ``hide 7, sprint 1, sprint 2, sprint 3, done`` used to start a
    manhunt with nothing to find, and a miss then returned a detective win."""
    state = gamelib.make("fugitive", escape_card=7, manhunt=manhunt).new_game(seed=0)
    play(state, "hide 7, sprint 1, sprint 2, sprint 3, done")
    assert state.is_terminal() and state.winner == DETECTIVE and state.ended_by == "caught"
    assert rule_of(state, "guess 4") == "game-over"


@pytest.mark.parametrize("manhunt", ["choice", "immediate"])
def test_small_deck_manhunt_miss_is_the_fugitives(manhunt: str) -> None:
    state = gamelib.make("fugitive", escape_card=7, manhunt=manhunt).new_game(seed=0)
    play(state, "hide 3, done, hide 7, sprint 1, done")
    if manhunt == "choice":
        play(state, "draw 1, deal 4, draw 3, deal 6, manhunt")
    play(state, "guess 5")
    assert state.winner == FUGITIVE and state.ended_by == "manhunt-miss"


# ------------------------------------------------------------------------ refuse_known_numbers
def test_known_numbers_may_be_named_by_default() -> None:
    state = play(at_42(decks_empty=True), "hide 42, sprint 40, done")
    # 7 is in the detective's hand, 27 lies face up: legal, and certain misses
    assert {"guess 7", "guess 27", "add 7"} <= legal(state)
    series = state.clone()
    play(series, "add 3, add 27, reveal")  # one number is no face-down hideout: nothing happens
    assert series.revealed[1] is False and series.winner == FUGITIVE
    play(state, "manhunt, guess 27")
    assert state.winner == FUGITIVE and state.ended_by == "manhunt-miss"


def test_refuse_known_numbers_refuses_held_and_face_up_numbers() -> None:
    state = play(at_42(decks_empty=True, refuse_known_numbers=True), "hide 42, sprint 40, done")
    assert rule_of(state, "guess 7") == "name-unknown-card"
    assert rule_of(state, "guess 27") == "name-unknown-card"
    assert rule_of(state, "add 27") == "name-unknown-card"
    play(state, "manhunt")
    assert rule_of(state, "guess 7") == "name-unknown-card"
    play(state, "guess 3")  # legal: a face-down hideout
    assert state.phase == HUNTING


# ------------------------------------------------------------------------ escape_sprints
def test_escape_sprints_hidden_keeps_the_cards_under_42_face_down() -> None:
    state = play(at_42(decks_empty=True, escape_sprints="hidden"), "hide 42, sprint 40, sprint 38, done")
    assert state.observation(DETECTIVE).hideouts[-1] == (42, 2, None)  # 42 and the count are shown
    assert state.observation(FUGITIVE).hideouts[-1] == (42, 2, (40, 38))
    assert not state.face_up >> 40 & 1 and state.sprints_shown(len(state.hideouts) - 1) is False
    play(state, "manhunt, guess 40")  # naming a sprint card under 42: no hideout, a miss
    assert state.winner == FUGITIVE and state.observation(DETECTIVE).hideouts[-1] == (42, 2, None)


def test_by_default_the_sprints_under_42_are_face_up_with_it() -> None:
    state = play(at_42(decks_empty=True, refuse_known_numbers=True), "hide 42, sprint 40, sprint 38, done")
    assert state.observation(DETECTIVE).hideouts[-1] == (42, 2, (40, 38))
    assert state.face_up >> 40 & 1
    assert rule_of(state, "guess 40") == "name-unknown-card"  # face up, with refusal on


def test_option_values_are_validated() -> None:
    with pytest.raises(gamelib.OptionError, match="manhunt"):
        gamelib.make("fugitive", manhunt="later")
    with pytest.raises(gamelib.OptionError, match="escape_sprints"):
        gamelib.make("fugitive", escape_sprints="face-up")
    with pytest.raises(gamelib.OptionError, match="refuse_known_numbers"):
        gamelib.make("fugitive", refuse_known_numbers="yes")


# ------------------------------------------------------------------------ max_rounds and ended_by
def test_max_rounds_stops_the_game_unfinished_said_by_ended_by() -> None:
    state = gamelib.make("fugitive", max_rounds=1).new_game(seed=1)
    play(state, "deal 4, deal 5, deal 6, deal 15, deal 16, hide 3, done, pass")
    assert state.ended_by is None
    play(state, "draw 1, deal 7, draw 2, deal 20, guess 10")
    assert state.phase == OVER and state.returns() == [0.0, 0.0]
    assert state.ended_by == "max_rounds" and ENDINGS["max_rounds"].startswith("unfinished")
    assert set(ENDINGS) == {"escape", "manhunt-miss", "caught", "max_rounds"}


def test_the_manhunt_call_has_notation_and_an_id() -> None:
    game = gamelib.make("fugitive")
    assert game.parse_action("manhunt") is MANHUNT_CALL and str(MANHUNT_CALL) == "manhunt"
    assert game.action_universe()[-1] is MANHUNT_CALL  # last: older ids keep their meaning
    with pytest.raises(gamelib.IllegalAction, match="no argument"):
        game.parse_action("manhunt 3")


# ------------------------------------------------------------------------ records
def test_a_version_1_record_replays_with_the_version_1_readings() -> None:
    record = json.loads((DATA / "v1_manhunt_record.json").read_text())
    assert record["version"].endswith("+fugitive.1") and "manhunt" not in record["options"]
    state = gamelib.from_record(record)
    assert isinstance(state, FugitiveState)
    options = state.game.options
    assert (options.manhunt, options.refuse_known_numbers) == ("immediate", True)
    assert state.is_terminal() and state.winner == FUGITIVE and state.ended_by == "manhunt-miss"
    # the same actions under version 2 break: after 42 the detective must draw first
    record2 = dict(record, version=record["version"].replace("fugitive.1", "fugitive.2"))
    with pytest.raises(gamelib.RecordError):
        gamelib.from_record(record2)
    # a new record of that game stores every option and replays as itself
    assert gamelib.from_record(state.to_record()) == state


def test_a_hand_written_version_1_small_deck_record_replays() -> None:
    record = {
        "game": "fugitive",
        "version": f"{gamelib.__version__}+fugitive.1",
        "players": 2,
        "options": {"edition": 1, "max_rounds": 100, "escape_card": 7, "canonical_order": False},
        "seed": 0,
        "actions": ["hide 3", "done", "hide 7", "sprint 1", "done", "guess 3"],
    }
    state = gamelib.from_record(record)
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]


def test_a_version_2_game_with_a_manhunt_round_trips() -> None:
    from gamelib.fugitive.agents import BeliefDetective, FugitiveHeuristic

    assert FugitiveGame.version == "2"
    for seed in range(40):
        state = gamelib.play(gamelib.make("fugitive"), [FugitiveHeuristic(), BeliefDetective()], seed=seed)
        if "manhunt" in [str(a) for a in state.history]:
            break
    else:
        raise AssertionError("no manhunt in 40 games")
    record = state.to_record()
    assert record["version"].endswith("+fugitive.2") and record["options"]["manhunt"] == "choice"
    assert gamelib.from_record(json.loads(json.dumps(record))) == state
