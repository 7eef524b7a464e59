"""The greedy agent carries its sampled worlds over the actions it saw (its own moves, a card
dealt to it) instead of drawing them again, and never keeps a world the real game contradicts."""

from __future__ import annotations

import pickle
import random
import statistics
from typing import Any

import pytest

import gamelib
from gamelib.agents import GreedyAgent
from gamelib.core.play import play
from gamelib.fugitive.agents import FugitiveHeuristic
from gamelib.fugitive.belief import belief
from gamelib.fugitive.rules import D_DRAW, D_GUESS, D_SERIES, DETECTIVE, Add, Draw, FugitiveState


class Counting(GreedyAgent):
    """A greedy detective that records, per decision, the phase, the fresh worlds drawn for its
    screen and the worlds it screened the moves on."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[tuple[int, int, list[gamelib.State], FugitiveState]] = []

    def worlds(self, state, player, rng, count=None):  # type: ignore[no-untyped-def]
        drawn = [0]
        original = FugitiveState.determinize

        def counted(self_, seat, generator):  # type: ignore[no-untyped-def]
            if self_ is state:
                drawn[0] += 1
            return original(self_, seat, generator)

        FugitiveState.determinize = counted  # type: ignore[method-assign]
        try:
            worlds = super().worlds(state, player, rng, count)
        finally:
            FugitiveState.determinize = original  # type: ignore[method-assign]
        if count is not None:  # the screen's worlds (a decision whose moves differ asks for more)
            self.log.append((state.phase, drawn[0], [w.clone() for w in worlds], state.clone()))
        return worlds


def adds_and_draws(self: FugitiveState, action: gamelib.Action, through_chance: bool = False) -> bool:
    """Promises as in d796d77: series numbers, and through chance the detective's draws."""
    kind = type(action)
    return kind is Add or (through_chance and kind is Draw and self.phase == D_DRAW)


def adds_only(self: FugitiveState, action: gamelib.Action, through_chance: bool = False) -> bool:
    """Series numbers only: the greedy draws worlds at its draws and carries them over the card."""
    return type(action) is Add


def play_four(promise: Any = None) -> list[tuple[int, int, list[gamelib.State], FugitiveState]]:
    """The decisions of 4 games, with the game's own promises (``surely_continues``) or ``promise``."""
    agent = Counting()
    original = FugitiveState.surely_continues
    if promise is not None:
        FugitiveState.surely_continues = promise  # type: ignore[method-assign]
    try:
        for seed in range(4):
            play(gamelib.make("fugitive"), [FugitiveHeuristic(), agent], seed=seed)
    finally:
        FugitiveState.surely_continues = original  # type: ignore[method-assign]
    return agent.log


@pytest.fixture(scope="module")
def decisions() -> list[tuple[int, int, list[gamelib.State], FugitiveState]]:
    return play_four(adds_and_draws)


def test_worlds_follow_the_detectives_own_series_without_new_draws(decisions) -> None:  # type: ignore[no-untyped-def]
    series = [d for d in decisions if d[0] == D_SERIES]
    assert len(series) > 20
    assert all(drawn == 0 for _, drawn, _, _ in series)  # every world carried over an own "add"


def test_after_a_dealt_card_most_worlds_are_carried_over() -> None:
    guesses = [d for d in play_four(adds_only) if d[0] == D_GUESS]
    assert len(guesses) > 10
    fresh = sum(drawn for _, drawn, _, _ in guesses)
    assert fresh < 8 * len(guesses) / 2


def test_no_world_at_a_draw_then_the_screen_drawn_once_after_the_card(decisions) -> None:  # type: ignore[no-untyped-def]
    assert not [d for d in decisions if d[0] == D_DRAW]  # never asked for worlds
    guesses = [drawn for phase, drawn, _, _ in decisions if phase == D_GUESS]
    assert len(guesses) > 10 and all(drawn <= 4 for drawn in guesses)


def test_worlds_are_drawn_only_where_a_move_can_end_the_game() -> None:
    """With the game's own promises (a guess or a series that cannot catch, before the last turn)
    the greedy asks for worlds only at decisions where some move is not promised."""
    logged = play_four()
    assert logged
    for _, _, worlds, state in logged:
        assert not all(state.surely_continues(a, through_chance=True) for a in state.legal_actions())
        seen = state.observation(DETECTIVE)
        assert all(world.observation(DETECTIVE) == seen for world in worlds)


def test_every_world_used_shows_the_detective_what_the_real_game_shows(decisions) -> None:  # type: ignore[no-untyped-def]
    for _, _, worlds, state in decisions:
        assert len(worlds) >= 4  # the screen's worlds, or more carried over
        seen = state.observation(DETECTIVE)
        legal = state.legal_actions()
        for world in worlds:
            assert world.observation(DETECTIVE) == seen
            assert world.legal_actions() == legal
            assert len(world.history) == len(state.history)


def test_carried_worlds_are_distributed_as_fresh_ones() -> None:
    """After a card is dealt to the detective, the hideout values of carried worlds match those
    of fresh draws at the new position (same distribution: rejection sampling is exact here)."""
    game = gamelib.make("fugitive")
    state = game.new_game(seed=5)
    rng = random.Random(5)
    while not (state.current_player == DETECTIVE and len(state.hideouts) >= 3):
        if state.current_player == gamelib.CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(FugitiveHeuristic().act(state, state.current_player, rng))
    before = state.clone()
    while state.current_player != gamelib.CHANCE:  # the detective draws: a chance deal follows
        state.apply(next(a for a in state.legal_actions() if str(a).startswith("draw")))
    state.apply(state.sample_chance(rng))
    agent = GreedyAgent(samples=1200)
    agent.worlds(before, DETECTIVE, random.Random(1))
    carried = agent.worlds(state, DETECTIVE, random.Random(2))
    fresh = [state.determinize(DETECTIVE, random.Random(3 + i)) for i in range(1200)]

    # The exact mean of the hideouts' sum, from the belief's marginals; each sample's mean must
    # lie within 4 standard errors of it (two samples against each other within 2% were only
    # ~1.1 standard errors apart at 1,200 worlds).
    probs = belief(state).position_probs
    exact = sum(
        sum(v * p for v, p in enumerate(probs[i])) if i in probs else h
        for i, h in enumerate(state.hideouts)  # type: ignore[attr-defined]
    )
    for worlds in (carried, fresh):
        sums = [sum(w.hideouts) for w in worlds]  # type: ignore[attr-defined]
        error = statistics.stdev(sums) / len(sums) ** 0.5
        assert abs(statistics.mean(sums) - exact) < 4 * error, (statistics.mean(sums), exact, error)


def test_the_same_seed_gives_the_same_game_and_agents_travel_without_their_worlds() -> None:
    results = gamelib.tournament(
        "fugitive", ["heuristic", "greedy"], games=2, seed=4, rotate=False, progress=False
    )
    for i in range(2):
        results.state(i)  # replays game i with the same agents: RuntimeError if it differs
    agent = GreedyAgent()
    play(gamelib.make("fugitive"), [FugitiveHeuristic(), agent], seed=1)
    assert agent._kept
    assert pickle.loads(pickle.dumps(agent))._kept == {}
