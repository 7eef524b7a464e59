"""Agents, analysis probes and drawings of Get on Board."""

from __future__ import annotations

import random
import statistics
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.figure import Figure

import gamelib
import gamelib.core.drawing
from gamelib.agents import RandomAgent, make_agent
from gamelib.core.drawing import LabelCollection, cached_static_layers, clear_static_layers, label_strings
from gamelib.getonboard.agents import GreedyAgent, LookaheadAgent, PlannerAgent, ticket_mcts
from gamelib.getonboard.analysis import (
    best_route,
    hypothetical_turn,
    intersection_values,
    next_ticket_value,
    placements,
    score_breakdowns,
    visit_frequencies,
)
from gamelib.getonboard.draw import draw_heat, draw_sheet
from gamelib.getonboard.phases import P_LAY
from gamelib.getonboard.rules import GetOnBoardState
from gamelib.getonboard.scoring import CATEGORIES


def at_first_turn(players: int = 2, seed: int = 0) -> GetOnBoardState:
    state = gamelib.make("getonboard", players=players).new_game(seed=seed)
    rng = random.Random(seed)
    while state.phase != P_LAY:
        state.apply(state.sample_chance() if state.is_chance_node() else rng.choice(state.legal_actions()))
    assert isinstance(state, GetOnBoardState)
    return state


def test_placements_are_complete_legal_turns() -> None:
    state = at_first_turn()
    player = state.current_player
    options = placements(state)
    assert options, "a turn always has a placement"
    shape = state.shape
    for pl in options:
        replay = state.clone()
        for action in pl.actions:
            replay.apply(action)  # every placement replays legally
        assert replay.current_player != player or replay.is_terminal()
        sticks = sum(1 for a in pl.actions if str(a).startswith("go"))
        assert sticks == shape.sticks or replay.eliminated[player]
        assert pl.gain["total"] == replay.score(player) - state.score(player)
    assert len({pl.notation for pl in options}) == len(options)
    assert best_route(state) == options[0]
    assert [pl.value for pl in options] == sorted((pl.value for pl in options), reverse=True)


def test_intersection_values_follow_the_sheet() -> None:
    state = at_first_turn()
    p = state.current_player
    values = intersection_values(state, p)
    board = state.board
    # nothing aboard yet: a restaurant or monument alone is worth nothing, a granny 1
    for node, v in values.items():
        feats = board.features_of(node)
        if feats == ("restaurant",) and board.letter_at.get(node) is None:
            assert v == 0
        if feats == ("granny",) and board.letter_at.get(node) is None:
            assert v == 1
    assert state.end[p] not in values


def test_agents_beat_random() -> None:
    game = gamelib.make("getonboard", players=2)
    rows = score_breakdowns(game, [PlannerAgent(), RandomAgent()], games=6, seed=0)
    assert len(rows) == 12 and set(CATEGORIES) <= set(rows[0])
    planner = statistics.mean(r["total"] for r in rows if r["agent"] == "planner")
    rand = statistics.mean(r["total"] for r in rows if r["agent"] == "random")
    assert planner > rand + 10
    assert all(r["total"] == sum(r[c] for c in CATEGORIES) for r in rows)
    assert all(r["total"] == 0 for r in rows if r["eliminated"])


def test_greedy_and_mcts_play_legal_games() -> None:
    game = gamelib.make("getonboard", players=2, rounds=3)
    state = gamelib.play(game, [GreedyAgent(), ticket_mcts(iterations=20)], seed=2)
    assert state.is_terminal()
    assert isinstance(make_agent("planner", "getonboard"), PlannerAgent)
    assert isinstance(make_agent("stick_greedy", "getonboard"), GreedyAgent)
    assert make_agent("ticket_mcts(iterations=7)", "getonboard").iterations == 7
    # the generic agents keep their names here too (the game's own do not shadow them)
    assert make_agent("greedy(samples=4)", "getonboard").samples == 4
    assert make_agent("mcts(iterations=7)", "getonboard").evaluate is None


@pytest.mark.parametrize("loops", ["allowed", "forced-only"])
@pytest.mark.parametrize("shape_fit", ["whole-shape", "per-stick"])
def test_agents_avoid_eliminating_themselves_under_every_option(loops: str, shape_fit: str) -> None:
    game = gamelib.make("getonboard", players=2, options={"loops": loops, "shape_fit": shape_fit})
    rng = random.Random(1)
    for agent in (GreedyAgent(), PlannerAgent()):
        for seed in range(2):
            state = game.new_game(seed=seed)
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply(state.sample_chance())
                    continue
                assert isinstance(state, GetOnBoardState)
                actions = state.legal_actions()
                chosen = agent.act(state, state.current_player, rng)
                if any(not state.fatal(a) for a in actions):
                    assert not state.fatal(chosen), (agent, seed, str(chosen))
                state.apply(chosen)
    final = gamelib.play(game, [PlannerAgent(), PlannerAgent()], seed=0)
    assert not any(final.eliminated)


def test_agents_are_deterministic_given_the_seed() -> None:
    game = gamelib.make("getonboard", players=3, rounds=4)
    a = gamelib.play(game, [PlannerAgent(), GreedyAgent(), RandomAgent()], seed=5)
    b = gamelib.play(game, [PlannerAgent(), GreedyAgent(), RandomAgent()], seed=5)
    assert [str(x) for x in a.history] == [str(x) for x in b.history]


def test_visit_frequencies_are_shares() -> None:
    game = gamelib.make("getonboard", players=2, rounds=2)
    freq = visit_frequencies(game, [RandomAgent(), RandomAgent()], games=4)
    assert all(0.0 <= f <= 1.0 for f in freq.values())
    assert max(freq.values()) > 0


def test_drawings() -> None:
    state = at_first_turn(players=3)
    state.apply(state.legal_actions()[0])
    fig = state.draw()
    assert isinstance(fig, Figure)
    assert isinstance(draw_sheet(state, 0), Figure)
    assert isinstance(draw_heat(state.board, intersection_values(state, 0), "values"), Figure)
    assert state._repr_png_()[:4] == b"\x89PNG"
    over = gamelib.play(gamelib.make("getonboard", players=1, rounds=2), [RandomAgent()], seed=1)
    assert isinstance(over.draw(), Figure)


def test_drawing_labels_are_glyph_outlines_one_per_string() -> None:
    """Labels are a few fast collections or a cached map; their strings still say what it shows."""
    state = at_first_turn(players=3)
    fig = state.draw()
    collections = [c for ax in fig.axes for c in ax.collections if isinstance(c, LabelCollection)]
    assert all(len(c.get_paths()) == len(c.strings) for c in collections)
    strings = set(label_strings(fig))
    board = state.board
    assert set(board.letter_at.values()) <= strings  # personal-objective letters
    assert {str(n) for n in board.start_at.values()} <= strings  # start numbers
    assert {"A", "K", "1", "M", "metro entrance", "transfer section"} <= strings  # the letter on its marker
    assert any(s.startswith(f"{state.player_name(2)}: 0 pts") for s in strings)
    assert sum(len(ax.texts) for ax in fig.axes) == 0  # the title aside, no Text artist
    assert fig.axes[0].get_title(loc="left").startswith(board.title)


def test_cached_map_layer_is_reused_pixel_for_pixel() -> None:
    """A redraw pastes the cached static layers: same pixels as the cold drawing, at any dpi."""
    import io

    import numpy as np
    from PIL import Image

    state = at_first_turn(players=2)
    for dpi in (60, 100):
        clear_static_layers()
        pictures = []
        for _ in range(2):  # cold (the layers are drawn, then cached), then warm (pasted)
            buffer = io.BytesIO()
            state.draw().savefig(buffer, format="png", dpi=dpi)
            pictures.append(np.asarray(Image.open(buffer)))
            assert cached_static_layers() == 3  # ground, badges, map key
        width, height = state.draw().get_size_inches()
        assert width == 9.5  # shown near its natural size by the Stepper (100 dpi)
        assert pictures[0].shape == (int(height * dpi), int(width * dpi), 4)
        assert np.array_equal(pictures[0], pictures[1])
    svg = io.StringIO()
    state.draw().savefig(svg, format="svg")  # vector output draws the map's artists themselves
    assert "<image" not in svg.getvalue()


def test_cached_map_layer_matches_drawing_it_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pasted map images equal the map's artists drawn directly (the vector-output path)."""
    import io

    import numpy as np
    from PIL import Image

    state = at_first_turn(players=3)

    def picture() -> np.ndarray:
        buffer = io.BytesIO()
        state.draw().savefig(buffer, format="png", dpi=60)
        return np.asarray(Image.open(buffer)).astype(int)

    cached = picture()
    monkeypatch.setattr(gamelib.core.drawing, "RendererAgg", type("NotAgg", (), {}))  # as for PDF or SVG
    direct = picture()
    assert cached.shape == direct.shape
    assert np.abs(cached - direct).max() <= 2  # rounding of the alpha blend only


def test_random_games_keep_the_invariants() -> None:
    """Over random games: 32 sticks suffice, a line is a path unless it eliminated its player."""
    for players in range(1, 6):
        game = gamelib.make("getonboard", players=players)  # loops="allowed", the text
        for seed in range(15):
            final = gamelib.play(game, [RandomAgent()] * players, seed=seed)
            assert isinstance(final, GetOnBoardState)
            for p in range(players):
                route = final.routes[p]
                sticks = len(route) - 1
                assert sticks <= 32
                assert final.owned[p].bit_count() == sticks  # never two own sticks on a section
                repeats = len(route) - len(set(route))
                assert repeats == (1 if final.eliminated[p] else 0)
                assert final.eliminated[p] == (route[-1] in route[:-1])
                sheet = final.sheets[p]
                assert (
                    sheet.transfers <= 19 and sheet.modifications <= 5 and sheet.spent <= sheet.entrances <= 6
                )
            if not all(final.eliminated):
                assert final.round == 12


OPTION_CHOICES = {
    "rome_fluid": ["round", "first-ticket"],
    "fluid_bonus": ["with-transfer", "always"],
    "loops": ["forced-only", "allowed"],
    "shape_fit": ["whole-shape", "per-stick"],
    "tourist_overflow": ["lost", "next-row"],
    "empty_destination": ["ignore", "close"],
    "start_features": [False, True],
}
"""Every rule option with a choice, and its values: hypothesis draws one combination per example."""


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(1, 5),
    options=st.fixed_dictionaries({name: st.sampled_from(values) for name, values in OPTION_CHOICES.items()}),
    seed=st.integers(0, 10_000),
)
def test_every_option_combination_plays_and_replays(players: int, options: dict[str, Any], seed: int) -> None:
    city = "rome" if players <= 3 else "paris"
    game = gamelib.make("getonboard", players=players, city=city, free_city=True, options=options)
    final = gamelib.play(game, [GreedyAgent()] * players, seed=seed)
    assert final.is_terminal()
    assert gamelib.from_record(final.to_record()) == final


def test_hypothetical_turn_and_lookahead() -> None:
    state = at_first_turn(players=2, seed=4)
    p = state.current_player
    for ticket in range(1, 13):
        what_if = hypothetical_turn(state, p, ticket)
        assert what_if.current_player == p and what_if.phase == P_LAY
        assert what_if.shape == state.tables.shape_for(state.sheet_of[p], ticket)
        assert what_if.end[p] == state.end[p]
    assert state.phase == P_LAY and state.ticket != 0  # the original is untouched
    value = next_ticket_value(placements(state)[0].state, p)
    assert value > float("-inf")
    agent = LookaheadAgent(top=3)
    game = gamelib.make("getonboard", players=2, rounds=4)
    final = gamelib.play(game, [agent, PlannerAgent()], seed=9)
    assert final.is_terminal()
    assert isinstance(make_agent("lookahead(top=2)", "getonboard"), LookaheadAgent)
