"""Fugitive's networkx boards: the step graph 0..42 (0..last for a smaller deck), its helpers, and
the hideout path graph."""

from __future__ import annotations

import itertools
import math
import random

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamelib
from gamelib.agents.basic import RandomAgent
from gamelib.fugitive.analysis import hideout_graph
from gamelib.fugitive.board import (
    MAX_SPRINT,
    NUMBERS,
    check_last,
    max_sprint_for,
    min_hideouts_to,
    reachable,
    shortest_route,
    sprint_needed,
    step_graph,
)
from gamelib.fugitive.rules import (
    DETECTIVE,
    F_PLACE,
    F_SPRINT,
    FUGITIVE,
    LAST,
    FugitiveState,
    Hide,
    footprints,
    layout_for,
)

NORMAL_SUCCESSORS = tuple(tuple(sorted(step_graph(0).successors(n))) for n in NUMBERS)
"""``NORMAL_SUCCESSORS[a]``: the numbers a normal move (no sprint) can lay after ``a``."""
NORMAL_PREDECESSORS = tuple(tuple(sorted(step_graph(0).predecessors(n))) for n in NUMBERS)
"""``NORMAL_PREDECESSORS[b]``: the numbers ``b`` can follow by a normal move."""
MIN_HIDEOUTS_FROM_START = tuple(0 if n == 0 else min_hideouts_to(n) for n in NUMBERS)
"""Fewest hideouts laid to reach each number from card 0 without sprinting (42 needs 14)."""
MIN_HIDEOUTS_TO_ESCAPE = tuple(0 if n == LAST else min_hideouts_to(LAST, start=n) for n in NUMBERS)
"""Fewest hideouts (42 included) from each number to the escape card, without sprinting."""

SMALL = (7, 10, 12)
"""Escape cards of small decks (option ``escape_card``)."""


def setup(hand: tuple[int, ...] = (4, 5, 6, 15, 16)) -> FugitiveState:
    state = gamelib.make("fugitive").new_game(seed=1)
    for card in hand:
        state.apply(f"deal {card}")
    assert isinstance(state, FugitiveState)
    return state


def random_state(seed: int, actions: int, escape_card: int = LAST) -> FugitiveState:
    """A position reached by random play: ``actions`` steps into game ``seed`` (or its end)."""
    game = gamelib.make("fugitive", options={"escape_card": escape_card})
    state = gamelib.play(game, [RandomAgent(), RandomAgent()], seed=seed, max_actions=actions)
    assert isinstance(state, FugitiveState)
    return state


# ---------------------------------------------------------------------------- step graph
def test_step_graph_normal_moves_go_one_to_three_higher() -> None:
    graph = step_graph()
    assert sorted(graph.nodes) == list(range(43))
    assert sorted(graph.successors(0)) == [1, 2, 3]
    assert sorted(graph.successors(40)) == [41, 42]
    assert list(graph.successors(42)) == []
    assert not graph.has_edge(0, 4), "a jump of 4 needs a sprint card"
    assert not graph.has_edge(5, 5) and not graph.has_edge(6, 5), "hideouts strictly increase"
    assert all(d["sprint_needed"] == 0 and 1 <= d["step"] <= 3 for _, _, d in graph.edges(data=True))
    assert nx.is_directed_acyclic_graph(graph)


def test_step_graph_nodes_carry_deck_and_footprints() -> None:
    graph = step_graph()
    assert graph.nodes[4]["deck"] == 0 and graph.nodes[28]["deck"] == 1 and graph.nodes[41]["deck"] == 2
    assert graph.nodes[0]["deck"] == -1 and graph.nodes[42]["deck"] == -1
    assert graph.nodes[7]["footprints"] == 1 and graph.nodes[8]["footprints"] == 2


def test_step_graph_with_sprints_labels_the_footprints_needed() -> None:
    graph = step_graph(max_sprint=4)
    assert graph.edges[10, 13]["sprint_needed"] == 0
    assert graph.edges[10, 15]["sprint_needed"] == 2
    assert graph.edges[10, 17]["sprint_needed"] == 4
    assert not graph.has_edge(10, 18), "beyond the bound"
    assert step_graph(MAX_SPRINT).has_edge(0, 42), "the largest bound allows every increasing jump"
    assert step_graph(MAX_SPRINT).number_of_edges() == 43 * 42 // 2


def test_step_graph_is_built_once_and_frozen() -> None:
    assert step_graph(2) is step_graph(2)
    with pytest.raises(nx.NetworkXError):
        step_graph(2).add_edge(0, 10)


@pytest.mark.parametrize("bad", [-1, MAX_SPRINT + 1, 1.5, True, "2"])
def test_step_graph_rejects_a_bad_bound(bad: object) -> None:
    with pytest.raises(ValueError, match="max_sprint"):
        step_graph(bad)  # type: ignore[arg-type]


def test_precomputed_tuples_agree_with_the_graph() -> None:
    graph = step_graph()
    for n in range(43):
        assert NORMAL_SUCCESSORS[n] == tuple(sorted(graph.successors(n)))
        assert NORMAL_PREDECESSORS[n] == tuple(sorted(graph.predecessors(n)))
        assert MIN_HIDEOUTS_FROM_START[n] == math.ceil(n / 3)
        assert MIN_HIDEOUTS_TO_ESCAPE[n] == math.ceil((LAST - n) / 3)
    assert NORMAL_PREDECESSORS[0] == () and NORMAL_PREDECESSORS[2] == (0, 1)


# ---------------------------------------------------------------------------- small decks
@pytest.mark.parametrize("last", SMALL)
@pytest.mark.parametrize("max_sprint", [0, 2])
def test_step_graph_of_a_small_deck_has_its_numbers_and_the_step_rule(last: int, max_sprint: int) -> None:
    graph = step_graph(max_sprint, last=last)
    assert sorted(graph.nodes) == list(range(last + 1)) and graph.graph["last"] == last
    for a, b in itertools.permutations(range(last + 1), 2):
        allowed = 0 < b - a <= 3 + max_sprint
        assert graph.has_edge(a, b) == allowed, (a, b)
        if allowed:
            assert graph.edges[a, b] == {"step": b - a, "sprint_needed": max(0, b - a - 3)}
    layout = layout_for(last)
    for n in graph.nodes:
        assert graph.nodes[n]["deck"] == layout.deck_of(n)
    assert graph.nodes[last]["deck"] == -1 and graph.nodes[4]["deck"] == 0
    assert graph.nodes[last - 1]["deck"] == 2, "the card below the escape card is in the last deck"
    assert list(graph.successors(last)) == [], "nothing follows the escape card"


def test_a_small_step_graph_is_its_own_and_bounded_by_its_deck() -> None:
    assert step_graph(last=LAST) is step_graph(), "the default is the published deck"
    assert step_graph(last=7) is step_graph(0, 7) and step_graph(last=7) is not step_graph()
    assert max_sprint_for(7) == 4 and max_sprint_for() == MAX_SPRINT
    assert step_graph(max_sprint_for(7), last=7).number_of_edges() == 8 * 7 // 2, "every increasing jump"
    with pytest.raises(ValueError, match="max_sprint must be between 0 and 4, got 5"):
        step_graph(5, last=7)
    assert step_graph(5, last=8).has_edge(0, 8)


@pytest.mark.parametrize("bad", [6, 43, 0, True, "7", 7.0])
def test_a_bad_deck_size_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="last"):
        check_last(bad)
    with pytest.raises(ValueError, match="last"):
        step_graph(0, last=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="last"):
        reachable(1, last=bad)  # type: ignore[arg-type]


def test_helpers_on_a_small_deck_stop_at_its_escape_card() -> None:
    assert min_hideouts_to(7, last=7) == 3 and min_hideouts_to(12, last=12) == 4
    assert min_hideouts_to(7, max_sprint=4, last=7) == 1
    assert shortest_route(7, last=7)[-1] == 7 and len(shortest_route(7, last=7)) == 4
    assert reachable(5, 3, last=7) == (6, 7), "capped at the escape card 7"
    assert reachable(7, last=7) == ()
    assert sprint_needed(0, 7, last=7) == 4
    # the published deck still allows what a small one refuses
    assert reachable(8) == (9, 10, 11) and sprint_needed(0, 8) == 5


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: reachable(8, last=7), "from_card must be between 0 and 7, got 8"),
        (lambda: reachable(1, 15, last=7), "footprints must be between 0 and 14, got 15"),
        (lambda: sprint_needed(0, 8, last=7), "to_card must be between 0 and 7, got 8"),
        (lambda: min_hideouts_to(13, last=12), "target must be between 0 and 12, got 13"),
        (lambda: min_hideouts_to(12, max_sprint=10, last=12), "max_sprint must be between 0 and 9"),
        (lambda: shortest_route(11, start=13, last=12), "start must be between 0 and 12"),
    ],
)
def test_small_deck_errors_name_the_small_range(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]


@pytest.mark.parametrize("last", SMALL)
def test_reachable_matches_the_engine_on_small_decks(last: int) -> None:
    game = gamelib.make("fugitive", options={"escape_card": last})
    agent = RandomAgent()
    checked = 0
    for seed in range(6):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            assert isinstance(state, FugitiveState)
            if state.phase == F_PLACE:
                hand = state.fugitive_hand
                expected = {
                    card
                    for card in hand
                    if card
                    in reachable(
                        state.previous_hideout,
                        sum(footprints(c) for c in hand if c not in (card, last)),
                        last=last,
                    )
                }
                assert {a.card for a in state.legal_actions() if isinstance(a, Hide)} == expected
                checked += 1
            state.apply(state.sample_chance() if state.is_chance_node() else agent.act(state, 0, rng))
    assert checked > 0


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), actions=st.integers(3, 80), last=st.sampled_from(SMALL))
def test_hideout_graph_of_a_small_deck_bounds_numbers_by_its_escape_card(
    seed: int, actions: int, last: int
) -> None:
    state = random_state(seed, actions, escape_card=last)
    for perspective in (None, FUGITIVE, DETECTIVE):
        graph = hideout_graph(state, perspective)
        assert graph.graph["last"] == last
        for i in graph.nodes:
            node = graph.nodes[i]
            true = state.hideouts[i]
            assert 0 <= node["low"] <= true <= node["high"] <= last
            if node["card"] is None:
                assert node["high"] <= last - 1, "a face-down card is below the escape card"
            if node["max_reach"] is not None:
                assert node["max_reach"] <= last


def test_a_pending_hideout_in_a_small_deck_reaches_at_most_below_its_escape_card() -> None:
    state = gamelib.make("fugitive", options={"escape_card": 12}).new_game(seed=1)
    state.apply("deal 4")  # the setup deal of the 12-card deck: one card of deck 1
    assert isinstance(state, FugitiveState)
    state.apply("hide 4")
    assert state.phase == F_SPRINT
    node = hideout_graph(state, DETECTIVE).nodes[1]
    assert node["pending"] and (node["low"], node["high"]) == (1, 11)


# ---------------------------------------------------------------------------- helpers
def test_fewest_hideouts_from_0_to_42_is_14_without_sprints() -> None:
    assert min_hideouts_to(42) == 14
    assert MIN_HIDEOUTS_FROM_START[42] == 14
    assert min_hideouts_to(3) == 1 and min_hideouts_to(4) == 2
    assert min_hideouts_to(42, start=39) == 1 and min_hideouts_to(42, start=38) == 2


def test_sprints_shorten_the_route() -> None:
    assert min_hideouts_to(42, max_sprint=3) == 7  # steps of 6
    assert min_hideouts_to(42, max_sprint=MAX_SPRINT) == 1


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ((0,), "target must be above"),
        ((5, 5), "target must be above"),
        ((43,), "target"),
        ((-1,), "target"),
        ((10, -2), "start"),
        ((10, 0, -1), "max_sprint"),
        (("42",), "target"),
    ],
)
def test_min_hideouts_to_rejects_bad_input(args: tuple[object, ...], field: str) -> None:
    with pytest.raises(ValueError, match=field):
        min_hideouts_to(*args)  # type: ignore[arg-type]


def test_shortest_route_is_a_legal_sequence_of_normal_moves() -> None:
    route = shortest_route(42)
    assert route[0] == 0 and route[-1] == 42 and len(route) == 15
    assert all(1 <= b - a <= 3 for a, b in itertools.pairwise(route))
    sprinting = shortest_route(30, start=2, max_sprint=5)
    assert len(sprinting) - 1 == min_hideouts_to(30, start=2, max_sprint=5)
    assert all(1 <= b - a <= 8 for a, b in itertools.pairwise(sprinting))
    with pytest.raises(ValueError, match="target must be above"):
        shortest_route(1, start=2)


def test_reachable_is_three_higher_plus_the_footprints() -> None:
    assert reachable(5) == (6, 7, 8)
    assert reachable(5, 3) == (6, 7, 8, 9, 10, 11)
    assert reachable(40, 5) == (41, 42), "capped at 42"
    assert reachable(42) == (), "nothing follows the escape card"
    assert reachable(0, 0) == NORMAL_SUCCESSORS[0]


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ((-1,), "from_card"),
        ((43,), "from_card"),
        ((5, -1), "footprints"),
        ((5.0,), "from_card"),
        ((5, None), "footprints"),
    ],
)
def test_reachable_rejects_bad_input(args: tuple[object, ...], field: str) -> None:
    with pytest.raises(ValueError, match=field):
        reachable(*args)  # type: ignore[arg-type]


def test_sprint_needed_counts_the_excess_over_three() -> None:
    assert sprint_needed(0, 3) == 0
    assert sprint_needed(0, 5) == 2
    assert sprint_needed(30, 42) == 9
    with pytest.raises(ValueError, match="hideouts increase"):
        sprint_needed(5, 5)
    with pytest.raises(ValueError, match="to_card"):
        sprint_needed(5, 50)


@pytest.mark.parametrize("seed", range(12))
def test_reachable_matches_the_engines_legal_hideouts(seed: int) -> None:
    """The board's arithmetic and the rules engine agree on every placement of a random game."""
    game = gamelib.make("fugitive")
    state = game.new_game(seed=seed)
    agent = RandomAgent()
    rng = random.Random(seed)
    checked = 0
    while not state.is_terminal():
        assert isinstance(state, FugitiveState)
        if state.phase == F_PLACE:
            prev = state.previous_hideout
            hand = state.fugitive_hand
            expected = set()
            for card in hand:
                spare = sum(footprints(c) for c in hand if c not in (card, LAST))
                if card in reachable(prev, spare):
                    expected.add(card)
            legal = {a.card for a in state.legal_actions() if isinstance(a, Hide)}
            assert legal == expected
            checked += 1
        if state.is_chance_node():
            state.apply(state.sample_chance())
        else:
            state.apply(agent.act(state, state.current_player, rng))
    assert checked > 0


# ---------------------------------------------------------------------------- hideout graph
def test_hideout_graph_of_a_fresh_table_is_the_start_card() -> None:
    graph = hideout_graph(setup())
    assert list(graph.nodes) == [0] and graph.number_of_edges() == 0
    node = graph.nodes[0]
    assert node["card"] == 0 and node["revealed"] and node["sprint_count"] == 0
    assert node["low"] == node["high"] == 0 and node["max_reach"] is None


def test_hideout_graph_with_a_sprint_from_each_perspective() -> None:
    state = setup()
    # 5 is two over the limit 0 + 3: an even sprint card (2 footprints) pays for it
    for text in ("hide 5", "sprint 4", "done", "pass"):
        state.apply(text)
    omniscient = hideout_graph(state)
    assert [omniscient.nodes[i]["card"] for i in omniscient] == [0, 5]
    node = omniscient.nodes[1]
    assert node["sprint_cards"] == (4,) and node["footprints"] == 2 and node["max_reach"] == 5
    assert omniscient.edges[0, 1] == {"step": 5, "sprint_needed": 2}
    assert hideout_graph(state, FUGITIVE).nodes[1]["card"] == 5

    detective = hideout_graph(state, DETECTIVE)
    node = detective.nodes[1]
    assert node["card"] is None and node["sprint_cards"] is None and node["footprints"] is None
    assert node["sprint_count"] == 1 and node["footprints_range"] == (1, 2)
    assert (node["low"], node["high"]) == (1, 5), "one sprint card is worth at most 2: 0 + 3 + 2"
    assert node["max_reach"] is None
    assert detective.edges[0, 1] == {"step": None, "sprint_needed": None}


def test_hideout_graph_bounds_from_a_found_card_on_the_right() -> None:
    state = setup((4, 5, 6, 15, 16))
    for text in ("hide 2", "done", "hide 5", "done", "draw 1", "deal 7", "draw 1", "deal 8", "guess 5"):
        state.apply(text)
    detective = hideout_graph(state, DETECTIVE)
    assert detective.nodes[2]["card"] == 5 and detective.nodes[2]["revealed"]
    assert detective.nodes[1]["card"] is None
    assert (detective.nodes[1]["low"], detective.nodes[1]["high"]) == (2, 3), (
        "5 - 3 <= x <= 4, and x <= 0 + 3"
    )


def test_hideout_graph_marks_the_hideout_being_laid() -> None:
    state = setup()
    state.apply("hide 5")
    assert state.phase == F_SPRINT
    graph = hideout_graph(state, DETECTIVE)
    assert graph.nodes[1]["pending"] and not graph.nodes[0]["pending"]
    assert graph.nodes[1]["high"] == LAST - 1, "no step limit while sprint cards are still coming"
    state.apply("sprint 4")
    state.apply("done")
    assert not hideout_graph(state).nodes[1]["pending"]


@pytest.mark.parametrize("bad", [2, -1, "detective", True, 1.0])
def test_hideout_graph_rejects_a_bad_perspective(bad: object) -> None:
    with pytest.raises(ValueError, match="perspective"):
        hideout_graph(setup(), bad)  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), actions=st.integers(5, 160))
def test_hideout_graph_agrees_with_observation_and_bounds_hold(seed: int, actions: int) -> None:
    state = random_state(seed, actions)
    for perspective in (None, FUGITIVE, DETECTIVE):
        graph = hideout_graph(state, perspective)
        seen = state.observation(perspective).hideouts  # (value, sprint count, sprint cards)
        assert list(graph.nodes) == list(range(len(seen)))
        assert list(graph.edges) == [(i, i + 1) for i in range(len(seen) - 1)]
        for i, (value, count, cards) in enumerate(seen):
            node = graph.nodes[i]
            assert (node["card"], node["sprint_count"], node["sprint_cards"]) == (value, count, cards)
            true = state.hideouts[i]
            assert node["low"] <= true <= node["high"], f"position {i}: {true} outside the deduced bounds"
            if value is not None:
                assert node["low"] == node["high"] == value
            if node["max_reach"] is not None and not node["pending"]:
                assert true <= node["max_reach"], "a laid hideout respects its step limit"
            lo, hi = node["footprints_range"]
            assert lo <= sum(footprints(c) for c in state.sprints[i]) <= hi
