"""Fugitive rules, one test (legal and illegal case) per rule sentence of the seed and the facts.

Rule names in ``IllegalAction.rule`` are the anchors of docs/rules/fugitive.md.
"""

from __future__ import annotations

import pytest

import gamelib
from gamelib.core.checks import refusal
from gamelib.fugitive.rules import (
    DETECTIVE,
    F_DRAW,
    F_PLACE,
    F_SPRINT,
    FUGITIVE,
    HUNTING,
    OVER,
    FugitiveOptions,
    FugitiveState,
    footprints,
)


def game(**options: object) -> gamelib.Game:
    return gamelib.make("fugitive", options=options)


def setup(hand: tuple[int, int, int, int, int] = (4, 5, 6, 15, 16), **options: object) -> FugitiveState:
    """A game after the setup deal that gave the fugitive ``hand`` (3 from 4-14, 2 from 15-28)."""
    state = game(**options).new_game(seed=1)
    for card in hand:
        state.apply(f"deal {card}")
    assert isinstance(state, FugitiveState)
    return state


def play(state: gamelib.State, line: str) -> gamelib.State:
    for text in line.split(","):
        state.apply(text.strip())
    return state


def rule_of(state: gamelib.State, text: str) -> str:
    """The rule ``text`` breaks here (core's ``refusal`` checks the state did not move)."""
    return refusal(state, text).rule


# ------------------------------------------------------------------------ setup
def test_setup_card_zero_on_table_and_starting_hand() -> None:
    state = game().new_game(seed=3)
    assert state.hideouts == [0] and state.revealed == [True]
    assert state.fugitive_hand == [1, 2, 3, 42]
    assert state.current_player == gamelib.CHANCE
    assert state.deck_sizes == (11, 14, 13)


def test_setup_deals_three_from_first_deck_then_two_from_second() -> None:
    state = game().new_game(seed=3)
    for _ in range(3):
        outcomes = state.chance_outcomes()
        assert {a.card for a, _ in outcomes} <= set(range(4, 15))  # type: ignore[attr-defined]
        assert sum(p for _, p in outcomes) == pytest.approx(1)
        state.apply(outcomes[0][0])
    assert rule_of(state, "deal 4") == "deal-from-deck"  # 4 is no longer in the second deck
    assert rule_of(state, "deal 30") == "deal-from-deck"
    play(state, "deal 15, deal 16")
    assert len(state.fugitive_hand) == 9
    assert state.deck_sizes == (8, 12, 13)
    assert state.current_player == FUGITIVE


def test_a_dealt_card_must_come_from_the_deck() -> None:
    state = game().new_game(seed=3)
    assert rule_of(state, "deal 15") == "deal-from-deck"
    assert rule_of(state, "hide 1") == "chance-node"


# ------------------------------------------------------------------------ first turn
def test_first_turn_fugitive_draws_nothing_and_places_one_or_two() -> None:
    state = setup()
    assert state.phase == F_PLACE  # no draw on the first turn
    assert rule_of(state, "draw 1") == "turn-order"
    assert rule_of(state, "pass") == "first-turn"  # at least one hideout
    play(state, "hide 3, done")
    assert state.current_player == FUGITIVE  # may lay a second one
    play(state, "hide 5, done")
    assert state.current_player == DETECTIVE  # two at most: the turn is over
    assert state.hideouts == [0, 3, 5]


def test_first_turn_one_hideout_then_pass() -> None:
    state = play(setup(), "hide 2, done, pass")
    assert state.hideouts == [0, 2]
    assert state.current_player == DETECTIVE


def test_edition_two_first_turn_exactly_two_hideouts() -> None:
    state = play(setup(edition=2), "hide 2, done")
    assert rule_of(state, "pass") == "first-turn"
    play(state, "hide 4, done")
    assert state.current_player == DETECTIVE


def test_first_turn_detective_draws_two_cards() -> None:
    state = play(setup(), "hide 3, done, pass")
    play(state, "draw 1, deal 7")
    assert state.current_player == DETECTIVE
    assert rule_of(state, "guess 3") == "draw-first"
    play(state, "draw 3, deal 30")
    assert state.detective_hand == [7, 30]
    play(state, "guess 10")  # a miss
    assert state.current_player == FUGITIVE and state.phase == F_DRAW


# ------------------------------------------------------------------------ drawing
def after_first_round(**options: object) -> FugitiveState:
    first = "hide 2, done, hide 3, done" if options.get("edition") == 2 else "hide 3, done, pass"
    state = play(setup(**options), first + ", draw 1, deal 7, draw 2, deal 20, guess 10")
    assert isinstance(state, FugitiveState)
    return state


def test_fugitive_draws_from_the_deck_of_choice_before_placing() -> None:
    state = after_first_round()
    assert rule_of(state, "hide 4") == "draw-first"
    play(state, "draw 3, deal 35")
    assert 35 in state.fugitive_hand
    assert state.draw_log[-1] == (FUGITIVE, 2, 1)


def test_cannot_draw_from_an_empty_deck() -> None:
    state = after_first_round()
    state.decks[2] = 0  # empty the third deck (test set-up)
    state.invalidate()
    assert rule_of(state, "draw 3") == "draw-empty-deck"
    play(state, "draw 1, deal 8")


def test_no_draw_when_every_deck_is_empty() -> None:
    state = after_first_round()
    state.decks = [0, 0, 0]
    state.phase = F_PLACE  # what _end_detective_turn does with empty decks
    state.invalidate()
    play(state, "hide 4, done")
    assert state.phase == 5  # straight to the detective's guess: nothing to draw


# ------------------------------------------------------------------------ normal moves
def test_normal_move_at_most_three_above_previous() -> None:
    state = play(after_first_round(), "draw 1, deal 8")
    assert rule_of(state, "hide 2") == "increasing-hideouts"  # lower than 3
    assert rule_of(state, "hide 3") == "card-in-hand"  # already on the table
    play(state, "hide 6, done")  # 6 = 3 + 3
    assert state.hideouts[-1] == 6


def test_more_than_three_needs_sprint_footprints() -> None:
    state = play(after_first_round(), "draw 1, deal 8")
    play(state, "hide 8")  # 5 above 3: needs 2 footprints
    assert state.phase == F_SPRINT
    assert rule_of(state, "done") == "step-limit"
    play(state, "sprint 5")  # odd: 1 footprint
    assert rule_of(state, "done") == "step-limit"
    play(state, "sprint 1, done")
    assert state.sprints[-1] == (5, 1)


def test_a_hideout_out_of_reach_even_with_every_sprint_is_refused() -> None:
    state = play(after_first_round(), "draw 3, deal 35")
    assert rule_of(state, "hide 35") == "step-limit"
    assert rule_of(state, "hide 41") == "card-in-hand"


def test_sprint_values_odd_one_even_two() -> None:
    assert [footprints(c) for c in (1, 2, 3, 4, 41)] == [1, 2, 1, 2, 1]
    state = play(after_first_round(), "draw 1, deal 8")
    play(state, "hide 8, sprint 4")  # even: 2 footprints suffice
    play(state, "done")
    assert state.current_player == DETECTIVE


def test_overpaying_sprints_is_a_legal_bluff() -> None:
    state = play(after_first_round(), "draw 1, deal 8")
    play(state, "hide 4, sprint 16, sprint 15, done")  # 4 needs none
    assert state.sprints[-1] == (16, 15)
    assert state.current_player == DETECTIVE


def test_sprint_cards_come_from_the_hand_and_never_42() -> None:
    state = play(after_first_round(), "draw 1, deal 8")
    play(state, "hide 4")
    assert rule_of(state, "sprint 42") == "escape-card"
    assert rule_of(state, "sprint 30") == "card-in-hand"
    assert rule_of(state, "sprint 4") == "card-in-hand"  # the hideout itself


def test_sprint_only_under_a_new_hideout() -> None:
    state = play(after_first_round(), "draw 1, deal 8")
    assert rule_of(state, "sprint 5") == "sprint-under-new-hideout"
    play(state, "hide 4")
    assert rule_of(state, "hide 5") == "finish-sprints"


def test_the_limit_counts_from_the_immediately_previous_hideout() -> None:
    # first turn: 3 then 6; then 9 is 3 above 6 (legal without sprints) though 6 above 3
    state = play(setup((4, 6, 9, 15, 16)), "hide 3, done, hide 6, done")
    play(state, "draw 1, deal 7, draw 1, deal 8, guess 20, draw 2, deal 17")
    play(state, "hide 9")
    assert state.deficit <= 0
    play(state, "done")
    fresh = play(setup((4, 6, 9, 15, 16)), "hide 3, done, hide 4, done")
    play(fresh, "draw 1, deal 7, draw 1, deal 8, guess 20, draw 2, deal 17, hide 9")
    assert fresh.deficit == 2  # 9 is 5 above 4: counted from 4, not from 0 or 3


# ------------------------------------------------------------------------ passing
def test_after_the_first_turn_the_fugitive_may_pass() -> None:
    state = play(after_first_round(), "draw 1, deal 8, pass")
    assert state.current_player == DETECTIVE
    assert state.hideouts == [0, 3]


def test_edition_two_pass_draws_from_lowest_non_empty_deck() -> None:
    state = play(after_first_round(edition=2), "draw 1, deal 8, pass")
    assert state.current_player == gamelib.CHANCE
    assert {a.card for a, _ in state.chance_outcomes()} <= set(range(4, 15))  # type: ignore[attr-defined]
    play(state, "deal 9")
    assert 9 in state.fugitive_hand and state.current_player == DETECTIVE
    state2 = play(after_first_round(edition=2), "draw 1, deal 8")
    state2.decks[0] = 0
    state2.invalidate()
    play(state2, "pass")
    assert {a.card for a, _ in state2.chance_outcomes()} <= set(range(15, 29))  # type: ignore[attr-defined]


def test_only_one_hideout_per_turn_after_the_first() -> None:
    state = play(after_first_round(), "draw 1, deal 8, hide 4, done")
    assert state.current_player == DETECTIVE
    assert rule_of(state, "hide 5") == "turn-order"


# ------------------------------------------------------------------------ detective
def test_single_guess_reveals_the_hideout_and_its_sprints() -> None:
    state = play(setup(), "hide 3, done, pass, draw 1, deal 7, draw 2, deal 20, guess 10")
    play(state, "draw 1, deal 8, hide 8, sprint 5, sprint 1, done, draw 1, deal 9")
    play(state, "guess 8")
    pos = state.hideouts.index(8)
    assert state.revealed[pos] and state.observation(DETECTIVE).hideouts[pos] == (8, 2, (5, 1))


def test_guess_numbers_between_1_and_41() -> None:
    state = play(setup(), "hide 3, done, pass, draw 1, deal 7, draw 2, deal 20")
    for bad in ("guess 0", "guess 42", "guess x"):
        assert rule_of(state, bad) == "notation"
    refusing = play(setup(refuse_known_numbers=True), "hide 3, done, pass, draw 1, deal 7, draw 2, deal 20")
    assert rule_of(refusing, "guess 7") == "name-unknown-card"  # the detective holds 7
    play(state, "guess 7")  # the text: any number 1-41, here a certain miss
    assert state.current_player == FUGITIVE


def test_a_miss_changes_nothing_but_the_turn() -> None:
    state = play(setup(), "hide 3, done, hide 5, done, draw 1, deal 7, draw 2, deal 20")
    revealed, hand = list(state.revealed), state.fhand
    play(state, "guess 11")
    assert state.revealed == revealed and state.fhand == hand
    assert state.current_player == FUGITIVE


def test_series_all_or_nothing() -> None:
    base = play(setup(), "hide 3, done, hide 5, done, draw 1, deal 7, draw 2, deal 20")
    miss = base.clone()
    play(miss, "add 3, add 6, reveal")
    assert miss.revealed == [True, False, False]  # one wrong number: nothing happens
    assert miss.current_player == FUGITIVE
    hit = base.clone()
    play(hit, "add 5, add 3, reveal")
    assert hit.is_terminal() and hit.returns() == [-1.0, 1.0]  # every hideout found


def test_series_needs_two_distinct_numbers() -> None:
    state = play(setup(), "hide 3, done, hide 5, done, draw 1, deal 7, draw 2, deal 20")
    assert rule_of(state, "reveal") == "series-size"
    play(state, "add 3")
    assert rule_of(state, "reveal") == "series-size"
    assert rule_of(state, "add 3") == "series-distinct"
    assert rule_of(state, "guess 5") == "series-pending"


def test_detective_wins_by_finding_every_hideout() -> None:
    state = play(setup(), "hide 3, done, pass, draw 1, deal 7, draw 2, deal 20, guess 3")
    assert state.is_terminal() and state.winner == DETECTIVE
    assert state.returns() == [-1.0, 1.0]
    assert rule_of(state, "draw 1") == "game-over"


# ------------------------------------------------------------------------ card 42 and the manhunt
def run_to_42(highest_revealed: int, **options: object) -> FugitiveState:
    """A forced game where the fugitive reaches 42 (hideouts laid by hand, test set-up)."""
    state = after_first_round(**options)
    state.phase = F_PLACE
    state.hideouts = [0, 3, 27, 30, 39]
    state.revealed = [True, False, highest_revealed == 27, highest_revealed == 30, False]
    state.sprints = [(), (), (), (), ()]
    state.fhand = 1 << 42 | 1 << 40
    state.decks = [0, 0, 0]
    state.invalidate()
    return state


def test_42_with_highest_revealed_above_29_the_fugitive_wins_at_once() -> None:
    state = run_to_42(highest_revealed=30)
    play(state, "hide 42, done")
    assert state.is_terminal() and state.winner == FUGITIVE


def test_42_with_highest_revealed_29_or_lower_starts_a_manhunt() -> None:
    state = run_to_42(highest_revealed=27, manhunt="immediate")
    play(state, "hide 42, done")
    assert state.phase == HUNTING and state.current_player == DETECTIVE
    assert rule_of(state, "add 3") == "manhunt"
    assert rule_of(state, "draw 1") == "turn-order"
    play(state, "guess 3")  # a hit: go on
    assert state.phase == HUNTING
    play(state, "guess 30")
    play(state, "guess 39")
    assert state.is_terminal() and state.winner == DETECTIVE


@pytest.mark.parametrize("manhunt", ["choice", "immediate"])
def test_a_miss_in_the_manhunt_lets_the_fugitive_escape(manhunt: str) -> None:
    state = run_to_42(highest_revealed=27, manhunt=manhunt)
    play(state, "hide 42, done" + (", manhunt" if manhunt == "choice" else "") + ", guess 3, guess 31")
    assert state.is_terminal() and state.winner == FUGITIVE
    assert state.returns() == [1.0, -1.0]


def test_42_obeys_the_step_limit() -> None:
    state = run_to_42(highest_revealed=27)
    state.hideouts[-1] = 36
    state.invalidate()
    assert rule_of(state, "hide 42") == "step-limit"  # 6 above 36, only 40 (2 footprints) to sprint
    state.fhand |= 1 << 41
    state.invalidate()
    play(state, "hide 42, sprint 40, sprint 41, done")
    assert state.escape_pending and "manhunt" in [str(a) for a in state.legal_actions()]


# ------------------------------------------------------------------------ observation & options
def test_detective_observation_hides_face_down_cards_and_the_fugitive_hand() -> None:
    state = play(setup(), "hide 3, done, hide 5, sprint 6, done, draw 1, deal 7")
    obs = state.observation(DETECTIVE)
    assert obs.hideouts[1] == (None, 0, None) and obs.hideouts[2] == (None, 1, None)
    assert obs.fugitive_hand is None and obs.fugitive_hand_size == 6
    assert obs.detective_hand == (7,)
    seen = state.public_history(DETECTIVE)
    assert "hide ?" in seen and "sprint ?" in seen and "deal 7" in seen
    assert "deal 4" not in seen  # the fugitive's setup cards stay secret
    assert seen[:5] == ("deal ?",) * 5
    fobs = state.observation(FUGITIVE)
    assert fobs.detective_hand is None and fobs.detective_hand_size == 1
    assert state.public_history(FUGITIVE)[-1] == "deal ?"
    assert state.public_history(FUGITIVE)[:5] == ("deal 4", "deal 5", "deal 6", "deal 15", "deal 16")
    assert state.public_history(None) == tuple(str(a) for a in state.history)
    assert not hasattr(obs, "history")  # the history is core's public_history / information_state
    info = state.information_state(DETECTIVE)
    assert info.observation == obs and info.history == seen
    masks = set(state.game.info.hidden_masks)
    for seat in (FUGITIVE, DETECTIVE):
        assert {t for t in state.public_history(seat) if t.endswith("?")} <= masks


def test_capabilities_are_declared_and_tensors_have_fixed_length() -> None:
    g = game()
    assert g.info.has("observation_tensor") and g.info.has("belief")
    assert set(g.info.hidden_masks) == {"deal ?", "hide ?", "sprint ?"}
    state = play(setup(), "hide 3, done, hide 5, sprint 6, done, draw 1, deal 7")
    size = len(state.observation_tensor(DETECTIVE))
    assert len(state.observation_tensor(FUGITIVE)) == size
    assert len(state.information_state_tensor(DETECTIVE)) == g.information_state_tensor_size()


@pytest.mark.parametrize("seat", [2, -1, 5, True, "1", 1.0])
def test_seats_out_of_range_raise_value_error(seat: object) -> None:
    state = play(setup(), "hide 3, done")
    for method in (
        state.observation,
        state.public_history,
        state.observation_tensor,
        state.information_state,
    ):
        with pytest.raises(ValueError, match="seat"):
            method(seat)  # type: ignore[operator]
    assert state.observation(None).fugitive_hand is not None  # None: the omniscient view


def test_draw_with_every_deck_empty_says_the_decks_are_empty() -> None:
    state = play(setup(), "hide 3, done, pass, draw 1, deal 7, draw 2, deal 20, guess 10")
    state.decks = [0, 0, 0]
    state.invalidate()
    state.phase = F_PLACE  # the draw is skipped when the decks are empty
    with pytest.raises(gamelib.IllegalAction, match="decks are empty") as err:
        state.apply("draw 1")
    assert err.value.rule == "draw-empty-deck"
    play(state, "pass")  # the detective's turn: no draw either
    with pytest.raises(gamelib.IllegalAction, match="decks are empty"):
        state.apply("draw 2")
    play(state, "guess 11")


def test_options_are_validated() -> None:
    with pytest.raises(gamelib.OptionError, match="edition"):
        gamelib.make("fugitive", edition=3)
    with pytest.raises(gamelib.OptionError, match=r"'edition' must be one of \[1, 2\], got '2'"):
        gamelib.make("fugitive", edition="2")
    with pytest.raises(gamelib.OptionError, match="players"):
        gamelib.make("fugitive", players=3)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"max_rounds": 0}, "'max_rounds' must be an int between 1 and 100000, got 0"),
        ({"max_rounds": 10**18}, "'max_rounds' must be an int between 1 and 100000"),
        ({"max_rounds": 2.0}, "'max_rounds' must be an int"),
        ({"escape_card": 6}, "'escape_card' must be an int between 7 and 42, got 6"),
        ({"escape_card": 43}, "'escape_card' must be an int between 7 and 42, got 43"),
        ({"manhunt": "later"}, "'manhunt' must be one of ['choice', 'immediate'], got 'later'"),
        ({"escape_sprints": "SHOWN"}, "'escape_sprints' must be one of ['shown', 'hidden']"),
        ({"canonical_order": 1}, "'canonical_order' must be a bool, got 1"),
    ],
)
def test_declared_option_ranges_are_refused_by_name(options: dict[str, object], message: str) -> None:
    with pytest.raises(gamelib.OptionError) as caught:
        gamelib.make("fugitive", **options)
    assert message in str(caught.value)
    with pytest.raises(ValueError, match=next(iter(options))):  # built by hand: the same declarations
        FugitiveOptions(**options)  # type: ignore[arg-type]


def test_declared_option_bounds_are_legal() -> None:
    import numpy as np

    for options in ({"max_rounds": 1}, {"max_rounds": 100_000}, {"escape_card": 7}, {"edition": np.int64(2)}):
        game = gamelib.make("fugitive", players=np.int64(2), **options)
        value = next(iter(options.values()))
        assert game.option_dict()[next(iter(options))] == value
        assert type(game.option_dict()[next(iter(options))]) is int  # stored as a plain int (JSON)


def test_round_limit_is_a_draw() -> None:
    state = play(setup(max_rounds=1), "hide 3, done, pass, draw 1, deal 7, draw 2, deal 20, guess 10")
    assert state.is_terminal() and state.winner == -1 and state.returns() == [0.0, 0.0]
    assert state.phase == OVER


def test_former_phase_names_still_read() -> None:
    # the phase constants were renamed (Manhunt/MANHUNT_CALL are the action, Deal/DEALS the chance
    # outcome); code written against the former names (notebooks) still reads the same numbers
    from gamelib.fugitive import rules

    assert rules.MANHUNT == rules.HUNTING == rules.PHASES.number("manhunt")
    assert rules.DEAL == rules.DEALING == rules.PHASES.number("card dealt")
    with pytest.raises(AttributeError, match="MANHUNTS"):
        _ = rules.MANHUNTS
