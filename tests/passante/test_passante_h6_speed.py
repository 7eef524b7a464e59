"""A Une Passante's fast paths give what the plain ones give: the chance draw without building the
outcomes, and (below) the legal moves and transitions against the rules as stated."""

from __future__ import annotations

import random

import pytest

import gamelib
from gamelib.core import rng as core_rng
from gamelib.core.game import CHANCE
from gamelib.passante.actions import _CUMULATIVE, ALL_WISHES, NUM_WISHES, _wish_outcomes, _wish_pick

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
