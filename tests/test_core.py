"""The core contract itself: make, options, apply by notation, chance sampling, play, errors."""

from __future__ import annotations

import random

import pytest

import gamelib
from gamelib.agents import FirstLegalAgent, RandomAgent
from gamelib.core.options import build_options, options_to_dict


def test_contract_names_exist() -> None:
    for name in (
        "make",
        "from_record",
        "play",
        "tournament",
        "CHANCE",
        "TERMINAL",
        "IllegalAction",
        "registered_games",
    ):
        assert hasattr(gamelib, name), name
    assert issubclass(gamelib.IllegalAction, ValueError)
    assert gamelib.CHANCE != gamelib.TERMINAL and gamelib.CHANCE < 0 and gamelib.TERMINAL < 0


def test_options_by_dict_and_keyword_and_conflict() -> None:
    assert gamelib.make("fugitive", options={"edition": 2}).options.edition == 2
    assert gamelib.make("fugitive", edition=2).options.edition == 2
    with pytest.raises(gamelib.OptionError, match="both"):
        gamelib.make("fugitive", options={"edition": 2}, edition=1)


def test_options_round_trip_through_dict() -> None:
    game = gamelib.make("fugitive", edition=2)
    assert build_options(type(game.options), options_to_dict(game.options), "fugitive") == game.options


def test_apply_accepts_action_or_notation_and_returns_the_action() -> None:
    state = gamelib.make("fugitive").new_game(seed=0)
    action = state.legal_actions()[0]
    assert state.apply(str(action)) == action
    with pytest.raises(gamelib.IllegalAction, match="notation"):
        state.apply(42)  # type: ignore[arg-type]
    with pytest.raises(gamelib.IllegalAction, match="empty"):
        state.apply("   ")


def test_legal_actions_returns_a_copy() -> None:
    state = gamelib.make("fugitive").new_game(seed=0)
    actions = state.legal_actions()
    actions.clear()
    assert state.legal_actions()


def test_sample_chance_depends_only_on_seed_and_step() -> None:
    a = gamelib.make("fugitive").new_game(seed=5)
    b = gamelib.make("fugitive").new_game(seed=5)
    assert a.sample_chance() == b.sample_chance()
    assert a.sample_chance(random.Random(1)) in [o for o, _ in a.chance_outcomes()]
    outcomes = {gamelib.make("fugitive").new_game(seed=s).sample_chance() for s in range(200)}
    assert len(outcomes) == 11  # every card of the first deck comes up


def test_sample_chance_outside_chance_node_is_an_error() -> None:
    state = gamelib.make("fugitive").new_game(seed=5)
    for _ in range(5):
        state.apply(state.sample_chance())
    assert state.current_player == 0
    with pytest.raises(gamelib.IllegalAction, match="not a chance node"):
        state.sample_chance()
    assert state.chance_outcomes() == []


def test_seed_is_checked_and_none_draws_a_recorded_seed() -> None:
    game = gamelib.make("fugitive")
    with pytest.raises(ValueError, match="seed"):
        game.new_game(seed=-3)
    with pytest.raises(ValueError, match="seed"):
        game.new_game(seed="x")  # type: ignore[arg-type]
    state = game.new_game()
    assert isinstance(state.seed, int) and state.to_record()["seed"] == state.seed


def test_play_checks_agent_count_and_accepts_functions() -> None:
    game = gamelib.make("fugitive")
    with pytest.raises(ValueError, match="agents"):
        gamelib.play(game, [RandomAgent()])
    first = gamelib.play(game, [FirstLegalAgent(), lambda s, p, r: s.legal_actions()[-1]], seed=2)
    assert first.is_terminal()


def test_play_is_independent_of_other_agents_randomness() -> None:
    """An agent's rng is its own: seat 0's choices do not shift seat 1's generator."""
    game = gamelib.make("fugitive")
    seen: list[float] = []

    def spy(state: gamelib.State, player: int, rng: random.Random) -> gamelib.Action:
        seen.append(rng.random())
        return state.legal_actions()[0]

    gamelib.play(game, [RandomAgent(), spy], seed=9, max_actions=60)
    first = list(seen)
    seen.clear()
    gamelib.play(game, [FirstLegalAgent(), spy], seed=9, max_actions=60)
    n = min(len(first), len(seen))
    assert n > 0 and first[:n] == seen[:n]


def test_state_repr_and_str() -> None:
    state = gamelib.make("fugitive").new_game(seed=0)
    assert "chance" in repr(state)
    assert "Fugitive" in str(state)


def test_png_repr_when_a_drawing_exists() -> None:
    state = gamelib.make("fugitive").new_game(seed=0)
    png = state._repr_png_()
    assert png is not None and png.startswith(b"\x89PNG")


def test_refusal_returns_the_error_of_an_illegal_move_and_insists_on_a_legal_one() -> None:
    from gamelib.core.checks import refusal

    state = gamelib.make("fugitive").new_game(seed=1)
    error = refusal(state, "hide 5")  # the setup deal comes first
    assert isinstance(error, gamelib.IllegalAction) and state.history == []
    legal = state.legal_actions()[0]
    with pytest.raises(AssertionError, match="it is legal here"):
        refusal(state, legal)
    assert state.history == [legal]


def test_default_player_names_count_from_one_in_both_languages() -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "agents"))
    from toygames import NimGame  # a game that keeps core's default names

    from gamelib.core.i18n import using_language

    game = NimGame(players=3)
    assert [game.player_name(p) for p in range(3)] == ["Player 1", "Player 2", "Player 3"]
    with using_language("fr"):
        assert game.player_name(0) == "Joueur 1"
    state = game.new_game(seed=0)
    assert "to move: Player 1" in repr(state)
    with pytest.raises(ValueError, match=r"0 \(Player 1\), 1 \(Player 2\), 2 \(Player 3\)"):
        state.observation(3)
    fugitive = gamelib.make("fugitive")  # a game with roles keeps its own names
    assert [fugitive.player_name(p) for p in range(2)] == ["fugitive", "detective"]


def test_the_contract_s_dotted_subpackages_work_after_a_plain_import() -> None:
    import subprocess
    import sys

    code = (
        "import gamelib, sys\n"
        "assert 'gamelib.room' not in sys.modules  # a plain import stays light\n"
        "room = gamelib.room.open_room('sqlite:///:memory:')\n"
        "assert room.join('fugitive', 'Ana').player == 0\n"
        "assert gamelib.agents.RandomAgent and gamelib.analysis.tournament\n"
        "try:\n    gamelib.nothing_here\nexcept AttributeError as e:\n    assert 'nothing_here' in str(e)\n"
        "else:\n    raise SystemExit('no AttributeError')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
