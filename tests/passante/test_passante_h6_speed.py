"""A Une Passante's fast paths give what the plain ones give: the chance draw without building the
outcomes, and (below) the legal moves and transitions against the rules as stated."""

from __future__ import annotations

import random

import pytest

import gamelib
from gamelib.core import rng as core_rng
from gamelib.core.game import CHANCE, Action
from gamelib.passante.actions import (
    _CUMULATIVE,
    ALL_WISHES,
    ANY_MOMENT,
    BOARDS,
    DRAW,
    END,
    MOVE_TABLE,
    NUM_WISHES,
    PASS,
    PLAYS,
    WISH_CARDS,
    _free_signals,
    _uniform_pick,
    _wish_outcomes,
    _wish_pick,
)
from gamelib.passante.board import CHARACTERS, OMNIBUS
from gamelib.passante.options import CARD_DRAW, EVENT, MAIN, WINDOW
from gamelib.passante.rules import _ANSWERED, _MAY_SHOW, _PROPOSAL, _PROPOSALS, _ROLES, _SHOWS, PassanteState

OPTIONS = [
    {},
    {"lay_wishes": "automatic", "draw_first": True, "omnibus_must_leave": True, "policier_veto": False},
    {"lay_wishes": "choice", "privileges": "hint", "comedienne_die": "swap"},
    {"window_asks": "holders", "final_round_event": True, "mendiante_discards_leave_game": True},
]


def test_wish_pick_is_pick_over_the_outcomes_at_every_boundary() -> None:
    rng = random.Random(0)
    decks = [ALL_WISHES, 1 << 5, (1 << 5) | (1 << 38)]
    decks += [rng.getrandbits(NUM_WISHES + 1) & ALL_WISHES for _ in range(300)]
    for deck in decks:
        outcomes = _wish_outcomes(deck)
        if not outcomes:
            assert _wish_pick(deck, 0.5) is None
            continue
        cuts = _CUMULATIVE[len(outcomes)]
        us = [0.0, 1.0 - 2**-53, *(rng.random() for _ in range(20))]
        us += [c for c in cuts] + [c - 2**-53 for c in cuts] + [c + 2**-53 for c in cuts]
        for u in us:
            if 0.0 <= u < 1.0:
                assert _wish_pick(deck, u) is core_rng.pick(outcomes, u)
    assert _wish_pick(0, 0.3) is None


@pytest.mark.parametrize("options", OPTIONS, ids=[",".join(o) or "defaults" for o in OPTIONS])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_sample_chance_draws_what_pick_over_chance_outcomes_draws(
    options: dict[str, object], players: int
) -> None:
    game = gamelib.make("passante", players=players, options=options)
    kinds = set()
    for seed in range(4):
        state, rng = game.new_game(seed=seed), random.Random(seed)
        while not state.is_terminal():
            if state.current_player == CHANCE:
                kinds.add(bool(state.pending))
                outcomes = state.chance_outcomes()
                probe = random.Random(len(state.history))
                u = random.Random(len(state.history)).random()
                assert state.sample_chance(probe) is core_rng.pick(outcomes, u)
                seeded = core_rng.uniform(state.seed, len(state.history))
                assert state.sample_chance() is core_rng.pick(outcomes, seeded)
                assert state.sample_chance(rng) in state.legal_actions()
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
    assert kinds == {True, False}  # wish deals and card, die or round draws both met


def main_actions_from_the_rules(state: PassanteState) -> list[Action]:
    """The turn's legal moves composed from the methods that state each rule (as the refusals ask
    them), in the order of ``_main_actions``."""
    p = state.turn_player
    opts = state.game.options
    acts = state._lays(p)
    card = state.char_hand[p]
    if card < 0:
        if state._why_no_draw() is None:
            acts.append(DRAW)
    elif not state._card_stopped():
        acts.append(PLAYS[card])
    moves_left = state._moves_left()
    before = len(acts)
    if moves_left:
        others = state._others_hearts(p)
        blocked = state._stopped() | others
        for c in CHARACTERS:
            if not blocked >> c & 1:
                acts += MOVE_TABLE[c][state.pos[c]]
        if not blocked >> OMNIBUS & 1:
            if state.bus in state.pos:
                acts += [
                    BOARDS[c]
                    for c in CHARACTERS
                    if state._waiting_at_omnibus() >> c & 1 and not state._never_boards(others) >> c & 1
                ]
            acts += state._drives()
    no_moves = len(acts) == before
    char = state.hearts[p]
    if char >= 0 and opts.privileges != "none" and state._signal_left(p):
        if opts.privileges != "cards":
            acts += state._hints(p)
        else:
            acts += state._signals(p)
    if not opts.must_move_twice or not moves_left or no_moves:
        acts.append(END)
    return acts


def window_actions_from_the_rules(state: PassanteState) -> list[Action]:
    q = state.asking[0]
    acts = state._lays(q)
    if state.hearts[q] in ANY_MOMENT and state._signal_left(q) and state.game.options.privileges == "cards":
        acts += _free_signals(state.hearts[q], q, state.game.num_players)
    return [*acts, PASS]


MORE_OPTIONS = [
    *OPTIONS,
    {"must_move_twice": True, "omnibus_carries_controlled": True, "draw_first": True},
    {"privileges": "none", "policier_veto": False, "heart_leaves_with_card": True},
]


@pytest.mark.parametrize("options", MORE_OPTIONS, ids=[",".join(o) or "defaults" for o in MORE_OPTIONS])
def test_the_turns_legal_moves_are_those_the_rules_state(options: dict[str, object]) -> None:
    """``_main_actions`` and ``_window_actions`` read the one-line rules inline (the rollouts' hot
    path): the same lists as the rules' methods give, at every position of random games."""
    seen = {MAIN: 0, WINDOW: 0}
    for players in (1, 2, 3, 4):
        game = gamelib.make("passante", players=players, options=options)
        for seed in range(3):
            state, rng = game.new_game(seed=seed), random.Random(seed)
            while not state.is_terminal():
                if state.current_player >= 0 and state.phase == MAIN:
                    assert state.legal_actions() == main_actions_from_the_rules(state)
                    seen[MAIN] += 1
                elif state.current_player >= 0 and state.phase == WINDOW:
                    assert state.legal_actions() == window_actions_from_the_rules(state)
                    seen[WINDOW] += 1
                if state.current_player == CHANCE:
                    state.apply(state.sample_chance(rng))
                else:
                    state.apply(rng.choice(state.legal_actions()))
    assert seen[MAIN] > 100
    assert seen[WINDOW] > 0 or options.get("lay_wishes", "anytime") != "anytime"


def test_apply_reads_each_action_class_role_from_the_sets_it_is_made_of() -> None:
    for kind in PassanteState._transitions:
        role = _ROLES[kind]
        assert bool(role & _PROPOSAL) == (kind in _PROPOSALS)
        assert bool(role & _SHOWS) == (kind in _MAY_SHOW)
        assert bool(role & _ANSWERED) == (kind in _PROPOSALS or kind.__name__ in ("Allow", "Veto"))


def test_the_boards_tables_are_the_graphs() -> None:
    """The tables the rules read are made without networkx; they are the graph's (``board.GRAPH``)."""
    import networkx as nx

    from gamelib.passante import board

    graph = board.build_graph()
    assert board.GRAPH.edges == graph.edges
    locations = board.LOCATIONS
    assert tuple(tuple(sorted(graph.neighbors(a))) for a in locations) == board.NEIGHBOURS
    row = graph.edge_subgraph([(a, b) for a, b, kind in graph.edges(data="kind") if kind == "row"])
    assert (
        tuple(tuple(sorted(row.neighbors(a))) if a in row else () for a in locations) == board.ROW_NEIGHBOURS
    )
    assert (
        tuple(tuple(nx.shortest_path_length(graph, a, b) for b in locations) for a in locations)
        == board.GRAPH_DISTANCE
    )
    assert (
        tuple(
            tuple(
                0 if a == b else 1 if board.PLACE in (a, b) else nx.shortest_path_length(row, a, b)
                for b in locations
            )
            for a in locations
        )
        == board.ROW_DISTANCE
    )


def test_playing_never_imports_networkx() -> None:
    import subprocess
    import sys

    code = (
        "import random, sys, gamelib; from gamelib.core.play import random_playout; "
        "random_playout(gamelib.make('passante').new_game(seed=1), random.Random(1)); "
        "print('networkx' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_uniform_pick_is_pick_over_equally_likely_outcomes() -> None:
    rng = random.Random(1)
    for n in range(1, NUM_WISHES + 1):
        draws = tuple(WISH_CARDS[w] for w in range(1, n + 1))
        outcomes = [(a, 1.0 / n) for a in draws]
        cuts = _CUMULATIVE[n]
        us = [0.0, 1.0 - 2**-53, *(rng.random() for _ in range(30)), *cuts]
        us += [c - 2**-53 for c in cuts] + [c + 2**-53 for c in cuts]
        for u in us:
            if 0.0 <= u < 1.0:
                assert _uniform_pick(draws, u) is core_rng.pick(outcomes, u)


@pytest.mark.parametrize("options", OPTIONS, ids=[",".join(o) or "defaults" for o in OPTIONS])
def test_every_card_die_or_round_draw_is_one_of_n_equally_likely(options: dict[str, object]) -> None:
    game = gamelib.make("passante", players=3, options={**options, "comedienne_die": "swap"})
    phases = set()
    for seed in range(6):
        state, rng = game.new_game(seed=seed), random.Random(seed)
        while not state.is_terminal():
            if state.current_player == CHANCE and not state.pending:
                outcomes = state.chance_outcomes()
                assert [a for a, _ in outcomes] == list(state._card_draws()) == state.legal_actions()
                assert all(p == 1.0 / len(outcomes) for _, p in outcomes)
                phases.add(state.phase)
            state.apply(
                state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
            )
    assert {CARD_DRAW, EVENT} <= phases
