"""The greedy agent screens the moves on ``screen`` worlds first and scores them on ``samples``
worlds only when they do not all tie there: Fugitive's last face-down hideout (a win in every
world) is decided on 8 worlds; a draw, and a guess while two hideouts are face down (moves the game
promises leave a player to move), on none."""

from __future__ import annotations

import random

import gamelib
from gamelib.agents import GreedyAgent
from gamelib.core.play import play
from gamelib.fugitive.agents import FugitiveHeuristic
from gamelib.fugitive.rules import D_DRAW, D_GUESS, FugitiveState


class Recording(GreedyAgent):
    """Records, per decision, the phase, the face-down hideouts and the worlds the moves were scored on."""

    def __init__(self, **options: int) -> None:
        super().__init__(**options)
        self.log: list[tuple[int, int, int]] = []
        self._scored = 0

    def _score(self, worlds, legal, values, player):  # type: ignore[no-untyped-def]
        self._scored += len(worlds)
        super()._score(worlds, legal, values, player)

    def scores(self, state, player, rng):  # type: ignore[no-untyped-def]
        self._scored = 0
        values = super().scores(state, player, rng)
        face_down = sum(not r for r in state.revealed[1:])
        self.log.append((state.phase, face_down, self._scored))
        return values


def decisions(**options: int) -> list[tuple[int, int, int]]:
    agent = Recording(**options)
    for seed in range(3):
        play(gamelib.make("fugitive"), [FugitiveHeuristic(), agent], seed=seed)
    return agent.log


def test_moves_that_tie_on_the_screen_are_not_scored_again() -> None:
    log = decisions()
    draws = [scored for phase, _, scored in log if phase == D_DRAW]
    assert draws and all(scored == 0 for scored in draws)  # a draw never ends the game: no world
    guesses = [scored for phase, down, scored in log if phase == D_GUESS and down > 1]
    # no guess can catch while two hideouts are face down: promised, no world (but on the last turn)
    assert guesses and guesses.count(0) > 0.8 * len(guesses)
    last = [scored for phase, down, scored in log if phase == D_GUESS and down == 1]
    assert last and all(scored == 8 for scored in last)  # the last hideout: a win in every world
    assert {scored for _, _, scored in log} <= {0, 4, 8}


def test_a_screen_as_wide_as_the_samples_scores_every_decision_on_them() -> None:
    # (0: a decision whose every move the game promises leaves a player to move draws no world)
    assert {scored for _, _, scored in decisions(screen=8)} == {0, 8}
    assert {scored for _, _, scored in decisions(samples=3, screen=5)} == {0, 3}


def test_the_screen_is_shown_when_it_is_not_the_default() -> None:
    assert repr(GreedyAgent()) == "GreedyAgent()"
    assert repr(GreedyAgent(screen=8)) == "GreedyAgent(screen=8)"
    assert repr(GreedyAgent(screen=2)) == "GreedyAgent(screen=2)"
    assert repr(GreedyAgent(samples=1)) == "GreedyAgent(samples=1)"


def test_screened_worlds_agree_with_the_real_observation_and_the_game_replays() -> None:
    game = gamelib.make("fugitive")
    a = play(game, [FugitiveHeuristic(), GreedyAgent()], seed=11)
    b = play(game, [FugitiveHeuristic(), GreedyAgent()], seed=11)
    assert [str(x) for x in a.history] == [str(x) for x in b.history]
    state = game.new_game(seed=3)
    rng = random.Random(3)
    agent = GreedyAgent()
    checked = 0
    while not state.is_terminal():
        if state.current_player == gamelib.CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        if state.current_player == 1:
            assert isinstance(state, FugitiveState)
            seen = state.observation(1)
            agent.scores(state, 1, rng)
            kept = agent._kept.get(1)
            if kept is not None and kept.length == len(state.history):  # worlds drawn for this decision
                checked += 1
                for world in kept.worlds:
                    assert world.observation(1) == seen
        actor = agent if state.current_player == 1 else FugitiveHeuristic()
        state.apply(actor.act(state, state.current_player, rng))
    assert checked > 5
