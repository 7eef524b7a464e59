"""Fugitive's solver options: smaller decks (``escape_card``) and ``canonical_order``.

The published game is ``escape_card=42``; smaller decks keep every mechanic (start hand, three
draw piles, setup deal, the +3 step, sprint cards, the manhunt threshold) scaled down.
"""

from __future__ import annotations

import json
import random

import pytest
from test_fugitive_rules import play, rule_of  # the rule-scenario helpers of the published deck

import gamelib
from gamelib.agents import RandomAgent
from gamelib.fugitive import rules
from gamelib.fugitive.board import PUBLISHED
from gamelib.fugitive.rules import (
    F_PLACE,
    F_SPRINT,
    HUNTING,
    OVER,
    SETUP,
    FugitiveState,
    layout_for,
)


def small(escape_card: int = 7, **options: object) -> FugitiveState:
    state = gamelib.make("fugitive", options={"escape_card": escape_card, **options}).new_game(seed=2)
    assert isinstance(state, FugitiveState)
    return state


# ------------------------------------------------------------------------ layouts
def test_published_layout_is_the_published_game() -> None:
    """The scaled layout of a 42-card deck is the printed game: decks 4-14, 15-28, 29-41, three
    setup cards from the first deck and two from the second, a manhunt up to 29."""
    assert PUBLISHED.last == 42 and PUBLISHED.deck_ranges == ((4, 14), (15, 28), (29, 41))
    assert PUBLISHED.setup_deals == (0, 0, 0, 1, 1) and PUBLISHED.manhunt_threshold == 29
    assert PUBLISHED.start_hand == (1, 2, 3, 42)
    assert gamelib.make("fugitive").layout is PUBLISHED


@pytest.mark.parametrize("escape_card", range(7, 43))
def test_every_layout_partitions_the_middle_cards(escape_card: int) -> None:
    layout = layout_for(escape_card)
    cards = [c for lo, hi in layout.deck_ranges for c in range(lo, hi + 1)]
    assert cards == list(range(4, escape_card)), "the three piles hold 4..escape_card-1 once each"
    assert all(lo <= hi for lo, hi in layout.deck_ranges), "no pile is empty"
    assert layout.manhunt_threshold == layout.deck_ranges[2][0]
    for deck in (0, 1):
        lo, hi = layout.deck_ranges[deck]
        assert layout.setup_deals.count(deck) <= hi - lo + 1
    assert layout.deck_of(escape_card) == -1 and layout.deck_of(3) == -1 and layout.deck_of(4) == 0


def test_small_layouts_scale_the_published_numbers() -> None:
    assert layout_for(7).deck_ranges == ((4, 4), (5, 5), (6, 6)) and layout_for(7).setup_deals == ()
    assert layout_for(12).deck_ranges == ((4, 5), (6, 8), (9, 11)) and layout_for(12).setup_deals == (0,)
    assert layout_for(12).manhunt_threshold == 9


@pytest.mark.parametrize("bad", [6, 43, 0, -1, True, "7", 7.0])
def test_escape_card_out_of_range_is_a_clear_error(bad: object) -> None:
    with pytest.raises(gamelib.OptionError, match="escape_card"):
        gamelib.make("fugitive", options={"escape_card": bad})


def test_canonical_order_must_be_a_bool() -> None:
    with pytest.raises(gamelib.OptionError, match="canonical_order"):
        gamelib.make("fugitive", options={"canonical_order": 1})


# ------------------------------------------------------------------------ small games
def test_small_deck_without_setup_deal_starts_with_the_fugitive() -> None:
    state = small(7)
    assert state.phase == F_PLACE and state.current_player == 0
    assert state.fugitive_hand == [1, 2, 3, 7] and state.deck_sizes == (1, 1, 1)


def test_small_deck_setup_deals_from_its_own_first_pile() -> None:
    state = small(12)
    assert state.phase == SETUP
    assert {str(a) for a in state.legal_actions()} == {"deal 4", "deal 5"}
    assert rule_of(state, "deal 6") == "deal-from-deck"
    state.apply("deal 5")
    assert state.phase == F_PLACE and state.fugitive_hand == [1, 2, 3, 5, 12]


def test_numbers_above_the_small_deck_are_notation_errors() -> None:
    state = small(7, refuse_known_numbers=True)
    with pytest.raises(gamelib.IllegalAction, match="card must be between 1 and 7"):
        state.apply("hide 8")
    play(state, "hide 3, done, pass, draw 1, deal 4, draw 2, deal 5")
    with pytest.raises(gamelib.IllegalAction, match="1 and 6"):
        state.apply("guess 7")
    assert rule_of(state, "guess 4") == "name-unknown-card"  # in the detective's own hand
    play(state, "guess 3")  # legal: 3 is a hidden hideout
    assert state.phase == OVER and state.returns() == [-1.0, 1.0]


def test_escape_card_of_a_small_deck_starts_a_manhunt_below_the_threshold() -> None:
    state = small(7)
    # 0 -> 3 -> 7 on the first turn: 7 is 4 above 3, one footprint of sprint (card 1)
    play(state, "hide 3, done, hide 7")
    assert state.phase == F_SPRINT
    assert rule_of(state, "done") == "step-limit"
    assert rule_of(state, "sprint 7") == "escape-card"
    play(state, "sprint 1, done")
    assert state.escape_pending and state.highest_revealed() == 0 <= state.layout.manhunt_threshold
    play(state, "draw 1, deal 4, draw 2, deal 5, manhunt")  # the text: the detective draws first
    assert state.phase == HUNTING
    play(state, "guess 3")
    assert state.phase == OVER and state.returns() == [-1.0, 1.0] and state.ended_by == "caught"
    immediate = small(7, manhunt="immediate")
    play(immediate, "hide 3, done, hide 7, sprint 1, done")
    assert immediate.phase == HUNTING
    play(immediate, "guess 3")
    assert immediate.phase == OVER and immediate.returns() == [-1.0, 1.0]


def test_escape_card_above_the_threshold_wins_at_once() -> None:
    state = small(10)  # piles 4-5, 6-7, 8-9; a manhunt only if the highest revealed is 8 or lower
    assert state.layout.manhunt_threshold == 8
    play(state, "hide 3, done, pass, draw 1, deal 4, draw 2, deal 6, guess 1")
    play(state, "draw 3, deal 9, hide 9, sprint 1, sprint 2, done")  # 6 above 3: 3 footprints
    play(state, "draw 1, deal 5, guess 9")
    assert state.highest_revealed() == 9
    play(state, "draw 2, deal 7, hide 10, done")
    assert state.phase == OVER and state.returns() == [1.0, -1.0]


def test_escape_card_at_or_below_the_threshold_starts_a_manhunt() -> None:
    state = small(10)
    play(state, "hide 3, done, pass, draw 1, deal 4, draw 2, deal 6, guess 1")
    play(state, "draw 3, deal 8, hide 8, sprint 1, sprint 2, done")
    play(state, "draw 1, deal 5, guess 8")
    play(state, "draw 2, deal 7, hide 10, done")
    assert state.escape_pending and state.deck_sizes == (0, 0, 1)
    play(state, "draw 3, deal 9, manhunt")
    assert state.phase == HUNTING
    assert rule_of(state, "add 3") == "manhunt"
    play(state, "guess 9")  # the detective's own card: a miss ends the manhunt, the fugitive escapes
    assert state.phase == OVER and state.returns() == [1.0, -1.0] and state.ended_by == "manhunt-miss"


# ------------------------------------------------------------------------ canonical order
def test_canonical_series_names_numbers_in_increasing_order() -> None:
    state = small(7, canonical_order=True, refuse_known_numbers=True)
    play(state, "hide 2, done, hide 3, done, draw 1, deal 4, draw 3, deal 6")
    assert state.current_player == 1
    assert rule_of(state, "add 5") == "canonical-order"  # the highest nameable number cannot open a series
    play(state, "add 2")
    assert rule_of(state, "add 1") == "canonical-order"
    play(state, "add 3, reveal")
    assert state.phase == OVER and state.returns() == [-1.0, 1.0]


def test_canonical_order_names_the_order_for_a_number_the_detective_holds() -> None:
    # any number may be named (refuse_known_numbers off): a held number out of order breaks the
    # order, not the naming rule
    state = small(7, canonical_order=True)
    play(state, "hide 2, done, hide 3, done, draw 1, deal 4, draw 3, deal 6")
    play(state, "add 5")
    assert rule_of(state, "add 4") == "canonical-order"  # held by the detective, below 5
    assert "add 6" in {str(a) for a in state.legal_actions()}  # held, above 5: legal


def test_a_series_needs_two_nameable_numbers() -> None:
    state = small(7, refuse_known_numbers=True)
    play(state, "hide 2, done, hide 3, done, draw 1, deal 4, draw 3, deal 6")
    assert "add 1" in {str(a) for a in state.legal_actions()}  # 1, 2, 3, 5 may be named
    state.dhand |= 0b101110  # the detective holds 1, 2, 3 and 5 too: only 4 is left to name
    state.dhand &= ~(1 << 4)
    state.invalidate()
    assert [str(a) for a in state.legal_actions()] == ["guess 4"]
    assert rule_of(state, "add 4") == "series-size"


def test_without_canonical_order_a_series_may_go_down() -> None:
    state = small(7)
    play(state, "hide 2, done, hide 3, done, draw 1, deal 4, draw 3, deal 6, add 3, add 2, reveal")
    assert state.phase == OVER and state.returns() == [-1.0, 1.0]


def test_canonical_sprints_go_up_and_never_strand_the_fugitive() -> None:
    state = small(7, canonical_order=True)
    play(state, "hide 7")  # 7 above 0 needs 4 footprints: 1 + 2 + 1, all three cards
    assert [str(a) for a in state.legal_actions()] == ["sprint 1"]
    assert rule_of(state, "sprint 2") == "canonical-order"  # card 3 alone could not pay the 2 left
    assert rule_of(state, "sprint 3") == "canonical-order"
    play(state, "sprint 1, sprint 2")
    assert rule_of(state, "sprint 1") == "card-in-hand"
    play(state, "sprint 3, done")
    assert state.sprints[-1] == (1, 2, 3)


def test_without_canonical_order_sprints_come_in_any_order() -> None:
    state = small(7)
    play(state, "hide 7, sprint 3, sprint 2, sprint 1, done")
    assert state.sprints[-1] == (3, 2, 1)


# ------------------------------------------------------------------------ generic checks
CONFIGS = [
    {"escape_card": e, "canonical_order": c, "edition": ed}
    for e in (7, 8, 10, 12, 20)
    for c in (False, True)
    for ed in (1, 2)
]


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_random_play_on_small_decks_is_legal_and_replays(options: dict[str, object]) -> None:
    game = gamelib.make("fugitive", options=options)
    rng = random.Random(7)
    for seed in range(40):
        state = gamelib.play(game, [RandomAgent()] * 2, seed=seed)
        assert state.is_terminal() and len(state.history) <= game.max_game_length
        cards = set(state.hideouts) | {c for s in state.sprints for c in s}
        assert max(cards) <= game.layout.last
        assert set(state.fugitive_hand) | set(state.detective_hand) | cards <= set(
            range(game.layout.last + 1)
        )
        # the record replays to the same state, through JSON
        record = json.loads(json.dumps(state.to_record()))
        assert gamelib.from_record(record).key() == state.key()
        # an illegal action mid-game leaves the state untouched
        probe = game.new_game(seed=seed)
        for action in state.history[: rng.randrange(len(state.history))]:
            probe.apply(action)
        if not probe.is_terminal():
            before = probe.key()
            illegal = next(a for a in game.action_universe() if a not in probe.legal_actions())
            with pytest.raises(gamelib.IllegalAction):
                probe.apply(illegal)
            assert probe.key() == before


def test_small_deck_legal_actions_never_mention_cards_above_the_deck() -> None:
    game = gamelib.make("fugitive", options={"escape_card": 10})
    for seed in range(30):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            for action in state.legal_actions():
                number = getattr(action, "card", getattr(action, "number", 0))
                assert number <= 10, f"{action} in a deck that ends at 10"
            state.apply(
                rng.choice(state.legal_actions()) if state.current_player >= 0 else state.sample_chance(rng)
            )


def test_module_constants_are_untouched_by_small_games() -> None:
    small(7)
    assert rules.LAST == 42 and gamelib.make("fugitive").new_game(seed=0).last == 42
