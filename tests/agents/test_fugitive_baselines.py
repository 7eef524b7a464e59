"""Fugitive's random baselines: games that end by the rules, no certain misses, labels in two languages."""

from __future__ import annotations

import random

import pytest

import gamelib
from gamelib.agents import agent_title, make_agent, registered_agents
from gamelib.core.play import random_playout
from gamelib.fugitive.agents import RandomSingleGuess, RandomUnseen
from gamelib.fugitive.rules import Add, Guess


class Watched:
    """Wraps a detective and records every number it names with what it had seen then."""

    def __init__(self, agent: object) -> None:
        self.agent = agent
        self.named: list[tuple[int, int]] = []

    def act(self, state, player, rng):  # type: ignore[no-untyped-def]
        action = self.agent.act(state, player, rng)  # type: ignore[attr-defined]
        if isinstance(action, (Guess, Add)):
            self.named.append((action.number, state.face_up | state.dhand))
        return action


@pytest.mark.parametrize("cls", [RandomUnseen, RandomSingleGuess])
def test_the_detective_never_names_a_number_it_has_seen(cls: type) -> None:
    game = gamelib.make("fugitive")
    for seed in range(5):
        detective = Watched(cls())
        gamelib.play(game, [cls(), detective], seed=seed)
        assert detective.named and all(not seen >> n & 1 for n, seen in detective.named)


def test_single_guess_games_end_by_the_rules_where_uniform_random_ones_do_not() -> None:
    baseline = gamelib.tournament("fugitive", ["random_single_guess"] * 2, games=30, progress=False)
    assert baseline.unfinished == 0
    uniform = gamelib.tournament("fugitive", ["random", "random"], games=30, progress=False)
    assert uniform.unfinished > 10  # what the baseline is for: most uniform games hit max_rounds


def test_single_guess_names_one_number_a_turn_and_reveals_a_series_it_inherits() -> None:
    game = gamelib.make("fugitive")
    state = gamelib.play(game, [RandomSingleGuess(), RandomSingleGuess()], seed=3)
    assert not any(isinstance(a, Add) for a in state.history)
    # a series someone else began: the baseline checks it at once
    state = game.new_game(seed=1)
    rng = random.Random(0)
    while state.current_player != 1 or not any(isinstance(a, Add) for a in state.legal_actions()):
        random_playout(state, rng, max_actions=1)
    first, second = [a for a in state.legal_actions() if isinstance(a, Add)][:2]
    state.apply(first)
    state.apply(second)
    assert str(RandomSingleGuess().act(state, 1, rng)) == "reveal"


def test_baselines_are_registered_with_english_and_french_labels() -> None:
    names = registered_agents("fugitive")
    assert {"random_unseen", "random_single_guess"} <= set(names)
    assert isinstance(make_agent("random_single_guess", "fugitive"), RandomSingleGuess)
    for name in names:
        english, french = agent_title(name, "fugitive"), agent_title(name, "fugitive", lang="fr")
        assert english and french and english != french, name
    assert agent_title("random_single_guess", "fugitive") == "random, one unseen number per turn"
    assert (
        agent_title("mcts(iterations=5)", "fugitive", lang="fr")
        == "MCTS (recherche arborescente) (iterations=5)"
    )
    assert agent_title("my_own_agent") == "my_own_agent"


def test_every_registered_agent_of_every_game_has_a_label_in_both_languages() -> None:
    from gamelib.core.i18n import Wording

    words = Wording("gamelib.agents")
    assert not words.missing("fr")
    known = words.keys()
    for game in ("fugitive", "passante", "delanopolis", "getonboard"):
        for name in registered_agents(game):
            assert f"{game}.{name}" in known or name in known, (game, name)


def test_the_one_role_agents_say_their_seat() -> None:
    assert make_agent("heuristic", "fugitive").seats == (0,)
    assert make_agent("belief", "fugitive").seats == (1,)
    assert not hasattr(RandomUnseen(), "seats")
