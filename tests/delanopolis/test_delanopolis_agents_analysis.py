"""Delanopolis analysis (exact landing odds, rents, outcome rates), agents and drawings."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from delanopolis_scenes import start
from matplotlib.figure import Figure

import gamelib
import gamelib.core.drawing
from gamelib.agents import RandomAgent
from gamelib.core.drawing import LabelCollection, label_strings
from gamelib.delanopolis import analysis as A
from gamelib.delanopolis.agents import (
    FractionBidder,
    MayorStrategy,
    RoleAgent,
    ValueBidder,
    majority_needed,
)
from gamelib.delanopolis.board import REFUGE_BASE, board
from gamelib.delanopolis.rules import ROLL_DICE, DelanopolisState, Dice

RING = {"placement": "ring"}
"""Rules versions 1-3's placement, now an option: the pawns walk a drawn loop with four parks."""
PLACEMENTS = [
    {"placement": "ring"},
    {"placement": "ring", "refuges": 0},
    {"placement": "ring", "refuge_on_double": True},
    {"placement": "sum"},
    {"placement": "sum", "snake_eyes_is_one": True},
    {"placement": "twelve_faces"},
    {"placement": "twelve_faces", "refuge_on_double": True},
]


# ---------------------------------------------------------------------------- exact odds
@pytest.mark.parametrize("options", PLACEMENTS)
def test_landing_odds_are_a_distribution(options: dict) -> None:
    for rolls in (None, 1, 8):
        odds = A.landing_odds(options, rolls)
        assert sum(odds.values()) == 1 and all(isinstance(p, Fraction) for p in odds.values())


def test_sum_placement_is_two_dice() -> None:
    odds = A.landing_odds({})  # the default: the number obtained names the terrain
    assert odds[6] == Fraction(6, 36) and odds[1] == Fraction(1, 36) and 0 not in odds
    snake = A.landing_odds({"placement": "sum", "snake_eyes_is_one": True})
    assert snake[0] == Fraction(1, 36) and 1 not in snake


def test_twelve_faces_is_uniform() -> None:
    assert A.landing_odds({"placement": "twelve_faces"}) == {t: Fraction(1, 12) for t in range(12)}


def test_ring_long_run_is_uniform_but_a_game_is_not() -> None:
    long_run = A.landing_odds(RING, None)
    assert set(long_run.values()) == {Fraction(1, 16)}
    game = A.landing_odds(RING, 8)
    assert max(game.values()) - min(game.values()) > Fraction(1, 100)
    first = A.per_roll_landings(RING, 1)[0]  # from the start, one roll of s reaches ring[s - 1]
    ring = board(4).ring
    assert first == {ring[s - 1]: p for s, p in A.TWO_DICE.items()}


def test_ring_odds_match_the_engine() -> None:
    """Empirical landings of random games agree with the exact chain (no skipped turns)."""
    options = {"placement": "ring", "park_skips_turn": False, "rounds": 8}
    game = gamelib.make("delanopolis", players=3, options=options)
    counts: Counter[int] = Counter()
    rng = random.Random(0)
    rolls = 0
    for seed in range(300):
        state = game.new_game(seed=seed)
        assert isinstance(state, DelanopolisState)
        while not state.is_terminal():
            if state.current_player == gamelib.CHANCE:
                roller, dice = state.roller, state.phase == ROLL_DICE
                action = state.apply(state.sample_chance(rng))
                if dice and isinstance(action, Dice):
                    counts[state.where[roller]] += 1
                    rolls += 1
            else:
                state.apply(rng.choice(state.legal_actions()))
    assert rolls == 300 * 3 * 8
    exact = A.landing_odds(options, 8)
    for code, p in exact.items():
        assert abs(counts[code] / rolls - float(p)) < 0.012, (code, counts[code] / rolls, float(p))


def test_expected_landings_and_rent() -> None:
    landings = A.expected_landings({"placement": "sum"}, rollers=4, rolls=8)
    assert landings[6] == Fraction(6, 36) * 32
    rent = A.expected_rent({"placement": "sum"}, players=4, price=60)
    assert rent[6] == pytest.approx(6 / 36 * 8 * 3 * 15)  # 3 other pawns, 8 rolls, rent 15
    assert rent[0] == 0.0  # terrain 1 is never rolled
    late = A.expected_rent({"placement": "sum"}, players=4, price=60, from_round=6)
    assert late[6] == pytest.approx(rent[6] / 4)
    assert A.expected_rent({"placement": "sum"}, players=4, price=60, from_round=8)[6] == 0
    rows = A.terrain_odds_table([{"placement": "sum"}, RING], rolls=8)
    assert rows[0]["T7"] == pytest.approx(1 / 6) and rows[1]["refuge"] > 0.2
    with pytest.raises(ValueError, match="rolls"):
        A.landing_odds(RING, 0)


def test_outcome_rates_are_deterministic_and_complete() -> None:
    a = A.outcome_rates(3, {"rounds": 3}, games=10, seed=5)
    b = A.outcome_rates(3, {"rounds": 3}, games=10, seed=5)
    assert a == b
    assert a.president + a.reelected + a.new_mayor + a.richest_mayor == pytest.approx(1.0)
    assert a.mayor_wins == pytest.approx(a.president + a.reelected + a.richest_mayor)
    sweep = A.option_sweep("bid_cap", [0, 60], players=(3,), base={"rounds": 2}, games=4)
    assert [r.options["bid_cap"] for r in sweep] == [0, 60]
    assert set(sweep[0].as_row()) >= {"players", "bid_cap", "president", "reelected", "new_mayor"}


# ---------------------------------------------------------------------------- agents
def test_fraction_bidder() -> None:
    state = start()
    state.apply("dice 3 4")
    assert str(FractionBidder(0.5).act(state, 1, random.Random(0))) == "bid 30"
    assert str(FractionBidder(1.0).act(state, 1, random.Random(0))) == "bid 60"
    assert str(FractionBidder(0.0).act(state, 1, random.Random(0))) == "bid 0"
    with pytest.raises(ValueError, match="fraction"):
        FractionBidder(1.5)


def test_value_bidder_pays_more_where_pawns_land_more() -> None:
    agent = ValueBidder(aggression=0.6)
    state = start(rounds=8)
    likely = state.clone()
    likely.apply("dice 3 4")  # terrain 7: 1/6 per roll
    rare = state.clone()
    rare.apply("dice 6 6")  # terrain 12: 1/36
    rng = random.Random(0)
    assert agent.act(likely, 1, rng).amount > agent.act(rare, 1, rng).amount  # type: ignore[attr-defined]


def test_value_bidder_resells_at_the_end_only_when_safe() -> None:
    state = start(rounds=1)
    state.apply("dice 3 4")
    for amount in (40, 0, 0, 0):
        state.apply(f"bid {amount}")
    agent = ValueBidder()
    assert state.round == 0 and agent.choose_sale(state, 1, random.Random(0)) == 6
    for t in range(6):  # the mayor holds six: one more would re-elect him
        state.owner[t] = 0
    assert agent.choose_sale(state, 1, random.Random(0)) is None
    assert majority_needed(state) == 7


def test_mayor_strategy_bids_legally_and_more_near_the_majority() -> None:
    agent = MayorStrategy()
    state = start(placement="sum")
    state.apply("dice 3 4")
    for _ in range(3):
        state.apply("bid 60")
    calm = agent.act(state, 0, random.Random(0))
    assert calm in state.legal_actions()
    tense = state.clone()
    for t in range(6):
        tense.owner[t] = 0
    assert agent.act(tense, 0, random.Random(0)).amount >= calm.amount  # type: ignore[attr-defined]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_agents_finish_games_legally(players: int) -> None:
    game = gamelib.make("delanopolis", players=players, options={"boost_timing": "any_roll"})
    seats = [RoleAgent(), RoleAgent(FractionBidder(0.3), FractionBidder(0.7)), ValueBidder(), MayorStrategy()]
    seats += [RandomAgent()] * (players - len(seats))
    for seed in range(5):
        state = gamelib.play(game, seats[:players], seed=seed)
        assert state.is_terminal()


def test_agents_are_found_by_name() -> None:
    from gamelib.agents.registry import make_agent

    agent = make_agent("fraction(fraction=0.25)", game="delanopolis")
    assert isinstance(agent, FractionBidder) and agent.fraction == 0.25
    assert isinstance(make_agent("value", game="delanopolis"), ValueBidder)


# ---------------------------------------------------------------------------- drawings
def _texts(fig: Figure) -> list[str]:
    """Every string the figure shows (Text artists, glyph labels, the cached city layer)."""
    return label_strings(fig)


def test_draw_hides_pending_bids_from_a_perspective() -> None:
    state = start(players=4)
    state.apply("dice 3 4")
    state.apply("bid 40")
    state.apply("bid 50")
    seen_by_3 = _texts(state.draw(perspective=3))
    assert "?" in seen_by_3 and "40" not in seen_by_3 and "50" not in seen_by_3
    seen_by_1 = _texts(state.draw(perspective=1))
    assert "40" in seen_by_1 and "?" in seen_by_1
    omniscient = _texts(state.draw())
    assert "40" in omniscient and "50" in omniscient and "?" not in omniscient


def test_draw_a_finished_game_and_its_parts() -> None:
    from gamelib.delanopolis.draw import draw_auction, draw_landing_odds

    game = gamelib.make("delanopolis", players=5, options=RING)
    state = gamelib.play(game, [RoleAgent()] * 5, seed=2)
    fig = state.draw()
    texts = _texts(fig)
    assert isinstance(fig, Figure) and "Les Halles" in texts and "R1" in texts
    assert any(str(state.price[t]) in texts for t in range(12) if state.owner[t] >= 0)
    assert any(text.startswith("Game over") for text in texts)
    assert isinstance(draw_auction(state), Figure)
    assert state._repr_png_()[:4] == b"\x89PNG"
    odds = {"sum": A.landing_odds({"placement": "sum"}), "ring": A.landing_odds(RING, 8)}
    assert len(draw_landing_odds(odds).axes[0].patches) == 24
    fresh = gamelib.make("delanopolis", options={"placement": "sum"}).new_game(seed=0)
    texts = _texts(fresh.draw())
    assert "start" in texts and "R1" not in texts  # no refuge squares off the ring
    assert REFUGE_BASE not in fresh.where


def test_draw_labels_are_glyph_outlines_one_per_string() -> None:
    """The board's labels are a few collections (fast to redraw), each string with its outline."""
    state = start(players=4)
    state.apply("dice 3 4")
    fig = state.draw(perspective=2)
    collections = [c for ax in fig.axes for c in ax.collections if isinstance(c, LabelCollection)]
    assert all(len(c.get_paths()) == len(c.strings) for c in collections)
    assert sum(len(ax.texts) for ax in fig.axes) == 0 and not fig.get_suptitle()
    assert "as Player 3 sees it" in _texts(fig)  # seat 2, numbered from 1
    texts = _texts(fig)
    assert {"1 mayor", "2 challenger", "free terrain", "VOT'S", "la Seine"} <= set(texts)


def test_cached_city_layer_matches_drawing_it_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pasted city image equals the city's artists drawn directly (the vector-output path)."""
    import io

    import numpy as np
    from PIL import Image

    state = gamelib.make("delanopolis", players=4).new_game(seed=0)

    def picture() -> np.ndarray:
        buffer = io.BytesIO()
        state.draw(perspective=1).savefig(buffer, format="png", dpi=60)
        return np.asarray(Image.open(buffer)).astype(int)

    cached = picture()
    monkeypatch.setattr(gamelib.core.drawing, "RendererAgg", type("NotAgg", (), {}))  # as for PDF or SVG
    direct = picture()
    assert cached.shape == direct.shape == (678, 570, 4)  # 9.5 x 11.31 in at 60 dpi
    assert np.abs(cached - direct).max() <= 2  # rounding of the alpha blend only
