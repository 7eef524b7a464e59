"""A Une Passante: whole games under every option, agents, analysis probes and the drawing."""

from __future__ import annotations

import random
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.figure import Figure

import gamelib
from gamelib import CHANCE
from gamelib.agents import RandomAgent, make_agent
from gamelib.core.drawing import LabelCollection, label_strings
from gamelib.core.i18n import using_language
from gamelib.passante import board as B
from gamelib.passante.agents import WishSeekerAgent, cooperative_ismcts, evaluate, heuristic, wish_cost
from gamelib.passante.analysis import (
    communication_value,
    distance_table,
    fewest_moves,
    fewest_turns,
    plot_distributions,
    score_distribution,
)
from gamelib.passante.draw import draw_state
from gamelib.passante.rules import NUM_WISHES, WISHES, PassanteState

VARIANTS = [
    {"table_talk": True},
    {"open_hands": True},
    {"heart_leaves_with_card": True, "carried_counts_as_moved": True, "must_move_twice": True},
    {"nearest_by_row": True, "policier_uses_place": True, "comedienne_die": "swap"},
    {"institutrice_from_own_zone": True, "effects_respect_control": True, "garcon_moves_himself": True},
    {"mendiante_clears_all_hearts": True, "mendiante_discards_leave_game": True, "poete_min_discard": 0},
    {"round_event": False},
    {"round_event_chooser": "next"},
    {"final_round_event": True, "turn_order_follows_passante": False, "omnibus_carries_controlled": True},
    {
        "lay_wishes": "automatic",
        "draw_first": True,
        "play_while_boarding": False,
        "omnibus_must_leave": True,
        "policier_veto": False,
    },
]


@pytest.mark.parametrize("options", VARIANTS, ids=[",".join(v) for v in VARIANTS])
def test_seekers_play_every_variant(options: dict[str, object]) -> None:
    game = gamelib.make("passante", players=3, options=options)
    state = gamelib.play(game, [WishSeekerAgent()] * 3, seed=1)
    assert state.is_terminal() and gamelib.from_record(state.to_record()) == state


@pytest.mark.parametrize("options", VARIANTS, ids=[",".join(v) for v in VARIANTS])
def test_every_variant_plays_to_the_end(options: dict[str, object]) -> None:
    for players in (1, 2, 3, 4):
        game = gamelib.make("passante", players=players, options=options)
        universe = set(game.action_universe())
        for seed in range(6):
            rng = random.Random(seed)
            state = game.new_game(seed=seed)
            while not state.is_terminal():
                actions = state.legal_actions()
                assert actions and set(actions) <= universe
                if state.current_player == CHANCE:
                    state.apply(state.sample_chance(rng))
                else:
                    state.apply(rng.choice(actions))
            assert len(state.history) <= game.max_game_length
            assert isinstance(state, PassanteState)
            assert state.turns == game.total_turns
            # every wish is in exactly one place
            places = (
                [w for h in state.hands for w in h]
                + [w for d in state.discards for w in d]
                + [w for f in state.fulfilled for w in f]
                + [w for w in range(1, NUM_WISHES + 1) if state.wish_deck >> w & 1]
            )
            assert sorted(places) == list(range(1, NUM_WISHES + 1))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(1, 4), steps=st.integers(0, 150))
def test_invariants_under_random_play(seed: int, players: int, steps: int) -> None:
    """The Chat never reaches the place, hearts are one per player, the Omnibus holds no one."""
    game = gamelib.make("passante", players=players)
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply(state.sample_chance(rng) if state.current_player == CHANCE else rng.choice(actions))
        assert isinstance(state, PassanteState)
        assert state.pos[B.CHAT] != B.PLACE
        assert len(state.hearts) == players
        # no wish in a hand is visible once the draws are settled
        if state.auto_lay and not state.pending:
            assert not any(state.is_visible(w) for h in state.hands for w in h)
        # character cards: each in exactly one place
        held = [c for c in state.char_hand if c >= 0]
        deck = [c for c in range(8) if state.char_deck >> c & 1]
        out = [c for c in range(8) if state.char_out >> c & 1]
        assert sorted(held + deck + list(state.char_under) + out) == list(range(8))


def test_record_round_trip_with_options() -> None:
    game = gamelib.make("passante", players=3, options={"table_talk": True})
    state = gamelib.play(game, [WishSeekerAgent()] * 3, seed=5)
    replayed = gamelib.from_record(state.to_record())
    assert replayed == state and replayed.returns() == state.returns()


# ---------------------------------------------------------------------------- agents
def test_seeker_beats_random() -> None:
    game = gamelib.make("passante", players=3)
    seeker = [gamelib.play(game, [WishSeekerAgent()] * 3, seed=s).score() for s in range(8)]
    rand = [gamelib.play(game, [RandomAgent()] * 3, seed=s).score() for s in range(8)]
    assert statistics.mean(seeker) > statistics.mean(rand) + 8


def test_seeker_does_not_peek_at_hidden_hands() -> None:
    """Its choice depends on its observation only: swapping the other hands changes nothing."""
    game = gamelib.make("passante", players=3)
    state = gamelib.play(game, [WishSeekerAgent()] * 3, seed=2, max_actions=40)
    while state.current_player == CHANCE:
        state.apply(state.sample_chance())
    player = state.current_player
    assert isinstance(state, PassanteState)
    for i in range(5):
        world = state.determinize(player, random.Random(i))
        assert isinstance(world, PassanteState)
        a = WishSeekerAgent().act(state, player, random.Random(0))
        b = WishSeekerAgent().act(world, player, random.Random(0))
        assert a == b
        assert heuristic(world, player) == heuristic(state, player)


def test_seeker_completes_a_wish_in_one_move() -> None:
    game = gamelib.make("passante", players=2)
    state = game.new_game(seed=0)
    while state.current_player == CHANCE:
        state.apply(state.sample_chance())
    state.apply("start ecole")
    assert isinstance(state, PassanteState)
    for p in range(2):
        for w in state.hands[p]:
            state.wish_deck |= 1 << w
        state.hands[p] = ()
    state.wish_deck &= ~(1 << 1)
    state.hands[0] = (1,)  # « Leçon de choses »: the Chat at the école, one move away
    state.invalidate()
    state.apply("draw")
    state.apply(state.sample_chance())
    action = WishSeekerAgent().act(state, 0, random.Random(0))
    assert str(action) == "move chat ecole"


def test_ismcts_plays_legal_moves_and_is_registered() -> None:
    game = gamelib.make("passante", players=2)
    agent = cooperative_ismcts(iterations=20)
    state = gamelib.play(game, [agent, agent], seed=1, max_actions=30)
    assert len(state.history) == 30
    assert isinstance(make_agent("seeker", game="passante"), WishSeekerAgent)
    assert make_agent("coop_ismcts", game="passante").name == "coop_ismcts"
    assert type(make_agent("ismcts", game="passante")) is type(make_agent("ismcts"))  # the generic one
    assert type(make_agent("random", game="passante")) is type(make_agent("random"))


def test_evaluate_is_within_the_score_range() -> None:
    state = gamelib.play(gamelib.make("passante", players=4), [WishSeekerAgent()] * 4, seed=3, max_actions=80)
    values = evaluate(state)
    assert len(values) == 4 and 0 <= values[0] <= NUM_WISHES
    assert values[0] >= state.score()


# ---------------------------------------------------------------------------- analysis
def test_fewest_moves_known_cases() -> None:
    state = gamelib.make("passante", players=2).new_game(seed=0)
    assert isinstance(state, PassanteState)
    plan = fewest_moves(state, 1)  # the Chat to the école: one jump of two zones
    assert plan.moves == 1 and plan.steps == ("move chat ecole",) and plan.turns == 1
    # « Muse en terrasse »: Gardien, Comédienne, Poète at the café.  The Poète is there; the
    # Comédienne is one step away, the Gardien two (parc -> théâtre -> café, or via the place)
    plan = fewest_moves(state, 38)
    assert plan.moves == 3 and plan.turns == 2
    # with the Omnibus on the parc the Gardien rides it: two moves, one turn
    state.bus = B.PARC
    assert fewest_moves(state, 38).moves == 2 and fewest_turns(state, 38) == 1


def test_fewest_moves_is_zero_when_visible_and_matches_the_cost_bound() -> None:
    state = gamelib.make("passante", players=2).new_game(seed=0)
    assert isinstance(state, PassanteState)
    state.pos = [B.PARC] * 8
    assert fewest_moves(state, 13).moves == 0  # « Ode à un moineau » is visible on the parc
    for w in range(1, NUM_WISHES + 1):
        plan = fewest_moves(state, w)
        assert plan.moves <= wish_cost(state.pos, w)
        assert plan.turns <= plan.moves or plan.moves == 0
    with pytest.raises(ValueError):
        fewest_moves(state, NUM_WISHES + 1)
    with pytest.raises(ValueError):
        fewest_moves(state, 0)
    rows = distance_table(state)
    assert len(rows) == NUM_WISHES and rows[0][1] == WISHES[1].title


def test_score_distribution_and_communication() -> None:
    results = score_distribution(players=(2,), games=3)
    assert set(results) == {(2, "random"), (2, "seeker")}
    assert all(len(v) == 3 and all(0 <= x <= NUM_WISHES for x in v) for v in results.values())
    comm = communication_value(players=(3,), games=3, options={"lay_wishes": "automatic"})
    assert set(comm) == {(3, "secret hands"), (3, "table talk"), (3, "open hands")}
    assert statistics.mean(comm[(3, "open hands")]) >= statistics.mean(comm[(3, "secret hands")])
    fig = plot_distributions(comm)
    assert isinstance(fig, Figure)
    with pytest.raises(ValueError):
        score_distribution(games=0)


# ---------------------------------------------------------------------------- drawing
def _labels(fig: Figure) -> list[LabelCollection]:
    return [c for ax in fig.axes for c in ax.collections if isinstance(c, LabelCollection)]


def _texts(fig: Figure) -> str:
    """Every string the figure shows: Text artists and the glyph-outline label collections."""
    return "\n".join(label_strings(fig))


def test_drawing_labels_are_glyph_outlines_one_per_string() -> None:
    """A few label collections instead of a Text each; every heart on the board is drawn."""
    game = gamelib.make("passante", players=3)
    state = gamelib.play(game, [WishSeekerAgent()] * 3, seed=6, max_actions=50)
    assert isinstance(state, PassanteState)
    fig = draw_state(state, perspective=1)
    assert all(len(c.get_paths()) == len(c.strings) for c in _labels(fig))
    assert sum(len(ax.texts) for ax in fig.axes) == 0
    hearts = [s for c in _labels(fig) for s in c.strings if s == "♥"]
    assert len(hearts) == sum(len(state.controllers(c)) for c in B.CHARACTERS)


def test_drawing_shows_only_the_perspective_hand() -> None:
    game = gamelib.make("passante", players=3)
    state = gamelib.play(game, [WishSeekerAgent()] * 3, seed=6, max_actions=50)
    assert isinstance(state, PassanteState)
    with using_language("fr"):
        omniscient = _texts(draw_state(state))
        mine = _texts(draw_state(state, perspective=0))
    for p in range(3):
        for w in state.hands[p]:
            assert f"#{w} " in omniscient
            assert (f"#{w} " in mine) == (p == 0)
    assert "Passante" in mine and "Omnibus" in mine and "Souhaits exaucés" in mine
    with pytest.raises(ValueError):
        draw_state(state, perspective=5)


def test_state_png_repr() -> None:
    state = gamelib.make("passante", players=2).new_game(seed=0)
    png = state._repr_png_()
    assert png is not None and png[:4] == b"\x89PNG"


def test_fewest_moves_plans_replay_as_legal_actions() -> None:
    """Each plan, split into turns of two moves, is playable by the rules as written."""
    game = gamelib.make("passante", players=1, options={"round_event": False})
    for seed in range(8):
        base = game.new_game(seed=seed)
        while base.current_player == CHANCE:
            base.apply(base.sample_chance())
        base.apply("start ecole")
        assert isinstance(base, PassanteState)
        for w in range(1, NUM_WISHES + 1):
            state = base.clone()
            assert isinstance(state, PassanteState)
            plan = fewest_moves(state, w)
            for step in plan.steps:
                piece = B.OMNIBUS if "drive" in step else B.PIECE_NAMES.index(step.split()[1])
                while state.current_player == CHANCE:
                    state.apply(state.sample_chance())
                if state.moves == 2 or state.moved >> piece & 1:
                    state.apply("end")
                for text in step.split("; "):
                    while state.current_player == CHANCE:
                        state.apply(state.sample_chance())
                    state.apply(text)
            assert state.is_visible(w) or w in state.fulfilled[0]


def test_partner_prior_is_what_the_player_cannot_see() -> None:
    from gamelib.passante.agents import partner_prior

    state = gamelib.play(gamelib.make("passante", players=3), [WishSeekerAgent()] * 3, seed=8, max_actions=60)
    assert isinstance(state, PassanteState)
    unseen, share = partner_prior(state, 0)
    assert not set(unseen) & set(state.hands[0])
    assert all(w in unseen for w in state.hands[1] + state.hands[2])
    assert share == pytest.approx((len(state.hands[1]) + len(state.hands[2])) / len(unseen))
    # the prior comes from the observation: the same in every determinized world
    world = state.determinize(0, random.Random(1))
    assert isinstance(world, PassanteState)
    assert partner_prior(world, 0) == (unseen, share)
    agent = WishSeekerAgent(partner_weight=1.0)
    while state.current_player == CHANCE:
        state.apply(state.sample_chance())
    player = state.current_player
    world = state.determinize(player, random.Random(2))
    assert agent.act(state, player, random.Random(0)) == agent.act(world, player, random.Random(0))
    with pytest.raises(ValueError):
        WishSeekerAgent(partner_weight=-1)
