"""Delanopolis invariants over random games: conservation of points, sealed bids, the data file."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from importlib import resources

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamelib
from gamelib.agents import RandomAgent
from gamelib.delanopolis.board import (
    REFUGE_BASE,
    DataError,
    board,
    content,
    parse_content,
    refuge_slots,
)
from gamelib.delanopolis.rules import BIDDING, PRE_ROLL, DelanopolisOptions, DelanopolisState

CHOICES = {o.name: o.choices for o in gamelib.options("delanopolis") if o.choices is not None}
"""Every option with a list of values, as the public declarations give them."""

BOOLEANS = [f.name for f in dataclasses.fields(DelanopolisOptions) if isinstance(f.default, bool)]


@st.composite
def option_sets(draw: st.DrawFn) -> dict[str, object]:
    """Any valid combination of rule options."""
    opts: dict[str, object] = {name: draw(st.sampled_from(values)) for name, values in CHOICES.items()}
    opts.update({name: draw(st.booleans()) for name in BOOLEANS})
    opts["refuges"] = draw(st.integers(0, 4))
    opts["bid_step"] = draw(st.sampled_from([1, 5, 10, 20]))
    opts["bid_cap"] = draw(st.sampled_from([0, 60, 120])) if opts["bid_step"] != 1 else 60
    opts["rounds"] = draw(st.integers(1, 6))
    opts["start_vots"] = draw(st.sampled_from([0, 40, 300, 1200]))
    opts["president_more_than"] = draw(st.integers(0, 12))
    return opts


def _check_books(state: DelanopolisState) -> None:
    """Every point accounted for: in a purse or set aside; only refuges create points."""
    assert state.total_points() == state.initial_points() + state.created
    assert state.created == sum(e.amount for e in state.events if e.kind == "refuge")
    assert min(state.vots) >= 0 and min(state.coms) >= 0 and min(state.aside) >= 0
    for t, owner in enumerate(state.owner):
        if owner < 0:
            assert state.aside[t] == 0 and state.price[t] == 0


@settings(max_examples=60, deadline=None)
@given(options=option_sets(), players=st.integers(3, 6), seed=st.integers(0, 10**6))
def test_conservation_over_random_games(options: dict[str, object], players: int, seed: int) -> None:
    game = gamelib.make("delanopolis", players=players, options=options)
    state = game.new_game(seed=seed)
    assert isinstance(state, DelanopolisState)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        if state.current_player == gamelib.CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        if state.mayor >= 0:
            _check_books(state)
        steps += 1
        assert steps <= game.max_game_length
    assert state.outcome in (
        "president",
        "reelected",
        "new_mayor",
        "richest_mayor",
        "richest_tie",
        "mayor_stays",
    )
    assert sum(state.returns()) >= 1.0


def test_conservation_over_many_default_games() -> None:
    for players in (3, 4, 5, 6):
        game = gamelib.make("delanopolis", players=players)
        for seed in range(40):
            state = gamelib.play(game, [RandomAgent()] * players, seed=seed)
            assert isinstance(state, DelanopolisState)
            _check_books(state)


def test_a_broken_book_is_detected() -> None:
    """The conservation check can fail: a point slipped into a purse breaks it."""
    state = gamelib.play(gamelib.make("delanopolis"), [RandomAgent()] * 4, seed=1)
    assert isinstance(state, DelanopolisState)
    state.vots[0] += 1
    with pytest.raises(AssertionError):
        _check_books(state)


# ---------------------------------------------------------------------------- sealed bids
def _mid_auction(seed: int = 0) -> DelanopolisState:
    state = gamelib.make("delanopolis", players=5, options={"placement": "sum"}).new_game(seed=seed)
    assert isinstance(state, DelanopolisState)
    state.apply("mayor 4")
    state.apply("dice 3 4")
    for amount in (30, 50, 10):
        state.apply(f"bid {amount}")
    return state


def test_sealed_bids_are_hidden_from_the_others_until_the_reveal() -> None:
    state = _mid_auction()
    assert state.phase == BIDDING and state.current_player == 3
    for viewer in range(5):
        view = state.observation(viewer)
        shown = [b for q, b in enumerate(view.bids) if q in (0, 1, 2)]
        assert shown == [[30, 50, 10][q] if q == viewer else None for q in (0, 1, 2)]
        assert list(state.public_history(viewer)[-3:]) == [
            f"bid {[30, 50, 10][q]}" if q == viewer else "bid ?" for q in (0, 1, 2)
        ]
    with pytest.raises(ValueError, match="player"):
        state.observation(5)


def test_determinize_resamples_only_the_hidden_bids() -> None:
    state = _mid_auction()
    worlds = [state.determinize(3, random.Random(k)) for k in range(30)]
    for world in worlds:
        assert world.observation(3) == state.observation(3)
        assert all(
            0 <= world.bids[q] <= 60 and world.bids[q] % state.options.bid_step == 0 for q in (0, 1, 2)
        )
        assert world.bids[3:] == [-1, -1]
        assert [str(a) for a in world.history[:-3]] == [str(a) for a in state.history[:-3]]
    assert len({tuple(w.bids) for w in worlds}) > 5  # really sampled
    # player 1 keeps its own bid and resamples the other two
    for k in range(10):
        world = state.determinize(1, random.Random(k))
        assert world.bids[1] == 50 and world.observation(1) == state.observation(1)
    # after the reveal there is nothing left to sample
    finished = state.clone()
    finished.apply("bid 0")
    finished.apply("bid 0")
    assert finished.determinize(2, random.Random(0)).key() == finished.key()


def test_determinized_world_plays_on_consistently() -> None:
    state = _mid_auction(seed=3)
    world = state.determinize(3, random.Random(1))
    sampled = tuple(world.bids[:3])
    world.apply("bid 0")
    world.apply("bid 0")
    assert world.auctions[-1].bids == (*sampled, 0, 0)  # the reveal shows the sampled bids
    assert world.total_points() == world.initial_points() + world.created


# ---------------------------------------------------------------------------- options
INVALID = {
    "placement": "spiral",
    "snake_eyes_is_one": "yes",
    "refuges": 7,
    "refuge_on_double": 1,
    "refuge_bonus": "all",
    "refuge_skips_next_turn": "no",
    "start_vots": -5,
    "mayor_starts_with_vots": None,
    "bid_step": 0,
    "bid_cap": -60,
    "mayor_bid_cap": "double",
    "mayor_bid": "whispered",
    "challenger_pot": "burn",
    "mayor_price": "pot",
    "tie_break": "coin",
    "mayor_tie": "duel",
    "all_zero": "mayor",
    "rent_rounding": "nearest",
    "park_skips_turn": 0,
    "joker_when": "always",
    "boost_timing": "anytime",
    "boost_kept_if_no_auction": "maybe",
    "resale_payment": "barter",
    "broke_rule": "jail",
    "end_when": "never",
    "rounds": 0,
    "majority": "votes",
    "president_more_than": -1,
    "richest_among": "nobody",
    "mayor_rolls": "sometimes",
    "winner_rolls_next": 2,
    "chain_auctions": "on",
    "mayor_start_jokers": 13,
    "set_aside": "everything",
    "aside_counts": "yes",
    "resale_when": "never",
    "boost": "triple",
    "occupied": "by_nobody",
    "rent_currency": "euros",
    "resale_price": "market",
    "richest_by": "product",
    "ce_dernier": "le premier",
    "token_draw": "deck",
    "bankrupt": "jail",
    "resale_paid_to": "banker",
}


def test_every_option_has_an_invalid_value_case() -> None:
    assert set(INVALID) == {f.name for f in dataclasses.fields(DelanopolisOptions)}


@pytest.mark.parametrize(("name", "value"), sorted(INVALID.items()))
def test_invalid_option_values_are_refused(name: str, value: object) -> None:
    with pytest.raises(gamelib.OptionError, match=name):
        gamelib.make("delanopolis", options={name: value})
    gamelib.make("delanopolis", options={name: getattr(DelanopolisOptions(), name)})  # the default is fine


def test_options_are_recorded_and_replayed() -> None:
    game = gamelib.make("delanopolis", players=3, options={"placement": "twelve_faces", "bid_cap": 0})
    state = gamelib.play(game, [RandomAgent()] * 3, seed=4)
    record = json.loads(json.dumps(state.to_record()))
    assert record["options"]["placement"] == "twelve_faces"
    again = gamelib.from_record(record)
    assert again == state


def test_universe_covers_bids_without_a_cap() -> None:
    game = gamelib.make("delanopolis", players=3, options={"bid_cap": 0})
    assert game.max_bid_bound() >= 1200 * 5
    assert gamelib.make("delanopolis", players=3).max_bid_bound() == 120


@pytest.mark.parametrize("mayor_cap", ["per_challenger", "same"])
def test_universe_covers_a_boosted_mayors_doubled_cap(mayor_cap: str) -> None:
    """``boost="cap"``: a joker doubles the mayor's cap, and his largest bid is in the universe."""
    game = gamelib.make(
        "delanopolis",
        players=4,
        options={"boost": "cap", "mayor_bid_cap": mayor_cap, "mayor_start_jokers": 1},
    )
    state = game.new_game(seed=0)
    state.apply("mayor 1")  # roller 2 first, then 3, 0, 1: hand the roll to the mayor
    assert isinstance(state, DelanopolisState)
    state.phase, state.roller, state.turn = PRE_ROLL, 1, 3
    state.invalidate()
    state.apply("boost")
    state.apply("dice 3 4")  # terrain 7, free: the auction starts with the roller
    assert state.phase == BIDDING and state.current_player == 1
    top = state.legal_actions()[-1]
    assert top.amount == 2 * (60 * 3 if mayor_cap == "per_challenger" else 60)  # type: ignore[attr-defined]
    assert top in game.action_universe()
    assert all(a in game.action_universe() for a in state.legal_actions())


# ---------------------------------------------------------------------------- data and board
def test_content_has_twelve_original_terrains_with_chapters() -> None:
    data = content()
    assert [t.number for t in data.terrains] == list(range(1, 13))
    assert len({t.name for t in data.terrains}) == 12
    assert all(len(t.chapter) > 80 for t in data.terrains)
    assert len(data.refuges) == 4 and data.atouts and data.jokers
    assert {"Jeux Olymputschs", "Nuit Flanche", "Paris Plonge"} <= {j.name for j in data.jokers}


def _raw() -> dict:
    text = resources.files("gamelib.delanopolis").joinpath("data/terrains.json").read_text("utf-8")
    return json.loads(text)


@pytest.mark.parametrize(
    ("breakage", "message"),
    [
        (lambda d: d["terrains"].pop(), "terrains: expected a list of 12"),
        (lambda d: d["terrains"][3].pop("chapter"), r"terrains\[3\]: missing field 'chapter'"),
        (lambda d: d["terrains"][0].update(number=2), r"terrains\[0\]: numbers must run"),
        (lambda d: d["terrains"][5].update(x=7.0), "off the map"),
        (lambda d: d["terrains"][1].update(name=d["terrains"][0]["name"]), "names must be distinct"),
        (lambda d: d["refuges"][0].update(name="  "), "is empty"),
        (lambda d: d.update(jokers=[]), "jokers: expected a non-empty list"),
        (lambda d: d["atouts"][0].update(chapter=3), "must be"),
    ],
)
def test_broken_data_is_refused_by_name(breakage, message: str) -> None:  # type: ignore[no-untyped-def]
    data = copy.deepcopy(_raw())
    parse_content(data)  # the shipped file is valid
    breakage(data)
    with pytest.raises(DataError, match=message):
        parse_content(data)


def test_ring_board_graph() -> None:
    b = board(4)
    assert len(b.ring) == 16 and b.ring[0] == 0 and b.ring[-1] == REFUGE_BASE + 3
    assert refuge_slots(4) == (3, 6, 9, 12) and refuge_slots(3) == (4, 8, 12) and refuge_slots(0) == ()
    g = b.graph
    assert isinstance(g, nx.DiGraph) and g.number_of_nodes() == 16
    assert nx.is_strongly_connected(g) and all(g.out_degree(n) == 1 for n in g)
    assert g.nodes[REFUGE_BASE]["kind"] == "refuge" and g.nodes[0]["name"] == "Les Halles"
    assert len(board(0).ring) == 12
    with pytest.raises(ValueError, match="refuges"):
        board(5)
