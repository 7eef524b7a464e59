"""The public perspective of the drawings (``state.draw(perspective=gamelib.PUBLIC)``): what a
projector or the class-play dashboard may show.

A public drawing must be a function of what every seat sees: for random positions of every game,
the public drawing of the real state says exactly what the public drawing of any world a seat
cannot tell apart from it says (``state.determinize(seat, rng)``, the secrets resampled).  And it
is not the omniscient drawing wherever a secret exists.  The texts a drawing shows are compared
as multisets (:func:`label_strings`): cheaper than pixels, and every secret of these games (a
number, a hand, a bid) is drawn as text.
"""

from __future__ import annotations

import io
import random
from collections import Counter

import matplotlib.pyplot as plt
import pytest

import gamelib
from gamelib.agents import RandomAgent
from gamelib.core.drawing import label_strings

HIDDEN = ("fugitive", "passante", "delanopolis")
"""The games of hidden information (secret hands, face-down numbers, sealed bids)."""
SEEDS = (1, 2, 3)
PER_GAME = 5
"""Positions drawn per random game: those holding a secret first."""


def _texts(state: gamelib.State, perspective: gamelib.core.game.Perspective) -> Counter[str]:
    figure = state.draw(perspective=perspective)
    texts = Counter(label_strings(figure))
    plt.close(figure)
    return texts


def _has_secret(state: gamelib.State) -> bool:
    """Some seat sees less than the omniscient observation."""
    everything = state.observation(None)
    return any(state.observation(p) != everything for p in range(state.game.num_players))


def _positions(name: str, seed: int) -> list[gamelib.State]:
    """Up to PER_GAME positions of one random game (chance nodes and the end included)."""
    state = gamelib.make(name).new_game(seed=seed)
    rng, agent = random.Random(seed), RandomAgent()
    seen: list[gamelib.State] = []
    while not state.is_terminal() and len(state.history) < 400:
        seen.append(state.clone())
        who = state.current_player
        state.apply(state.sample_chance(rng) if who == gamelib.CHANCE else agent.act(state, who, rng))
    seen.append(state)
    secret = [s for s in seen if _has_secret(s)]
    chosen = rng.sample(secret, min(PER_GAME - 1, len(secret)))
    return [*chosen, rng.choice(seen)]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", HIDDEN)
def test_public_drawing_shows_no_secret(name: str, seed: int) -> None:
    rng = random.Random(seed)
    secrets = 0
    for state in _positions(name, seed):
        public = _texts(state, gamelib.PUBLIC)
        assert public == _texts(state, "public"), "PUBLIC is the string 'public'"
        if state.current_player == gamelib.CHANCE or state.is_terminal():
            continue  # determinize needs a seat to move or not; worlds are drawn at decision nodes
        for seat in range(state.game.num_players):
            world = state.determinize(seat, rng)
            assert _texts(world, gamelib.PUBLIC) == public, (
                f"{name} seed {seed} ply {len(state.history)}: the public drawing tells "
                f"a world of seat {seat} from the real state"
            )
        if _has_secret(state):
            secrets += 1
            assert public != _texts(state, None), f"{name}: public = omniscient with a secret"
    assert secrets, f"{name} seed {seed}: no position with a secret was drawn"


def _png(state: gamelib.State) -> bytes:
    figure = state.draw(perspective=gamelib.PUBLIC)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=40)
    plt.close(figure)
    return buffer.getvalue()


@pytest.mark.parametrize("name", HIDDEN)
def test_public_drawing_is_the_same_picture_in_every_world(name: str) -> None:
    """Pixels too (bar heights, card backs): one secret position per game, every seat's worlds."""
    rng = random.Random(7)
    state = next(
        s
        for s in _positions(name, 7)
        if _has_secret(s) and s.current_player not in (gamelib.CHANCE, gamelib.TERMINAL)
    )
    picture = _png(state)
    for seat in range(state.game.num_players):
        assert _png(state.determinize(seat, rng)) == picture, f"{name}: seat {seat}'s world drawn otherwise"


def test_public_drawing_of_a_perfect_information_game_is_omniscient() -> None:
    state = gamelib.make("getonboard").new_game(seed=4)
    rng, agent = random.Random(4), RandomAgent()
    for _ in range(12):
        who = state.current_player
        state.apply(state.sample_chance(rng) if who == gamelib.CHANCE else agent.act(state, who, rng))
    assert _texts(state, gamelib.PUBLIC) == _texts(state, None)


def test_a_public_drawing_names_its_view_and_refuses_other_strings() -> None:
    state = gamelib.make("passante").new_game(seed=2)
    assert any("public" in text for text in _texts(state, gamelib.PUBLIC))
    with pytest.raises(ValueError, match="perspective"):
        state.draw(perspective="everyone")  # type: ignore[arg-type]


def test_a_public_fugitive_drawing_shows_no_belief() -> None:
    state = gamelib.make("fugitive").new_game(seed=2)
    with pytest.raises(ValueError, match="belief"):
        gamelib.fugitive.draw.draw_state(state, perspective=gamelib.PUBLIC, belief=object())
