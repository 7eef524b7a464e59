"""Full-tree CFR through OpenSpiel on Fugitive's small configuration, brought back to gamelib.

OpenSpiel is optional: ``gamelib.interop.solve`` imports without it (checked in a subprocess that
hides it), its argument checks run everywhere, and the tests that solve skip when it is missing.
"""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys

import pytest

import gamelib
from gamelib.agents import FirstLegalAgent, RandomAgent
from gamelib.analysis import tree_size
from gamelib.interop.solve import (
    SMALL_CONFIGURATIONS,
    Solution,
    exploitability_of,
    small_configuration,
    solve,
)

needs_openspiel = pytest.mark.skipif(
    importlib.util.find_spec("pyspiel") is None,
    reason="OpenSpiel is optional: pip install gamelib[openspiel]",
)


def test_solve_imports_without_openspiel_and_says_how_to_get_it() -> None:
    code = (
        "import sys; sys.modules['pyspiel'] = None; sys.modules['open_spiel'] = None\n"
        "from gamelib.interop.solve import solve, small_configuration\n"
        "assert small_configuration('fugitive')['escape_card'] == 7\n"
        "try:\n    solve('fugitive', iterations=1)\n"
        "except ImportError as exc:\n    print(exc)\n"
        "assert 'pyspiel' not in [m for m in sys.modules if sys.modules[m] is not None]\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "solving needs OpenSpiel" in done.stdout and "pip install gamelib[openspiel]" in done.stdout


@pytest.fixture(scope="module")
def cfr_plus() -> Solution:
    return solve("fugitive", iterations=32, algorithm="cfr+", checkpoints=4)


@pytest.fixture(scope="module")
def vanilla() -> Solution:
    return solve("fugitive", iterations=16, algorithm="cfr", checkpoints=2)


@needs_openspiel
def test_openspiel_and_gamelib_see_the_same_tree() -> None:
    from open_spiel.python.algorithms import get_all_states

    from gamelib.interop.openspiel import load_game

    options = small_configuration("fugitive")
    spiel = load_game("fugitive", **options)
    states = get_all_states.get_all_states(spiel, include_terminals=True, include_chance_states=True)
    size = tree_size(gamelib.make("fugitive", options=options))
    assert len(states) == size.histories


@needs_openspiel
def test_cfr_plus_converges_to_an_equilibrium(cfr_plus: Solution) -> None:
    first, last = cfr_plus.nash_conv[0][1], cfr_plus.nash_conv[-1][1]
    assert cfr_plus.nash_conv[-1][0] == 32
    assert last < 0.08 < first, cfr_plus.nash_conv
    value = cfr_plus.value
    assert value[0] == pytest.approx(-value[1])
    assert -0.45 < value[0] < -0.2, "the detective is favoured when the fugitive has one turn to hide"
    assert "CFR+ x 32" in str(cfr_plus)


@needs_openspiel
def test_cfr_and_cfr_plus_agree_within_their_nash_conv(cfr_plus: Solution, vanilla: Solution) -> None:
    # |value(policy) - game value| <= NashConv(policy), so two policies' values differ by at most the sum
    gap = abs(cfr_plus.value[0] - vanilla.value[0])
    assert gap <= cfr_plus.nash_conv[-1][1] + vanilla.nash_conv[-1][1]
    assert vanilla.nash_conv[-1][1] > cfr_plus.nash_conv[-1][1], "CFR+ converges faster"


@needs_openspiel
def test_strategy_is_a_distribution_over_legal_gamelib_actions(cfr_plus: Solution) -> None:
    state = cfr_plus.game.new_game(seed=0)
    rng = random.Random(3)
    seen = 0
    while not state.is_terminal():
        if state.current_player == gamelib.CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        strategy = cfr_plus.strategy(state)
        assert set(strategy) <= set(state.legal_actions())
        assert sum(strategy.values()) == pytest.approx(1.0)
        seen += 1
        state.apply(rng.choice(list(strategy)))
    assert seen >= 2


@needs_openspiel
def test_strategy_of_an_unknown_state_is_a_clear_error(cfr_plus: Solution) -> None:
    with pytest.raises(KeyError, match="not in the solved configuration"):
        cfr_plus.strategy(gamelib.make("fugitive", options={"escape_card": 8}).new_game(seed=0))
    over = gamelib.play(cfr_plus.game, [cfr_plus.agent()] * 2, seed=1)
    with pytest.raises(KeyError, match="no player decides"):
        cfr_plus.strategy(over)


def _fugitive_returns(agents: list[object], options: dict[str, object], games: int) -> list[float]:
    """The fugitive's return in ``games`` games played with gamelib (every game counted: in the
    solver's configuration the round limit's draw is part of the game, valued 0 as the tree does)."""
    game = gamelib.make("fugitive", options=options)
    out = []
    for seed in range(games):
        final = gamelib.play(game, agents, seed=seed)  # type: ignore[arg-type]
        assert final.is_terminal() and gamelib.from_record(final.to_record()) == final
        out.append(final.returns()[0])
    return out


def _interval(values: list[float], z: float = 4.0) -> tuple[float, float]:
    mean = sum(values) / len(values)
    spread = (sum((v - mean) ** 2 for v in values) / (len(values) - 1)) ** 0.5
    half = z * spread / len(values) ** 0.5
    return mean - half, mean + half


@needs_openspiel
def test_policy_agent_plays_legal_games_in_gamelib(cfr_plus: Solution) -> None:
    returns = _fugitive_returns([cfr_plus.agent(), RandomAgent()], cfr_plus.options, games=60)
    # against a random detective the equilibrium fugitive does at least as well as the game value
    assert sum(returns) / len(returns) > cfr_plus.value[0] - 0.2


@needs_openspiel
def test_plot_draws_the_convergence(cfr_plus: Solution) -> None:
    fig = cfr_plus.plot()
    ax = fig.axes[0]
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert len(ax.lines[0].get_xdata()) == len(cfr_plus.nash_conv)


def test_bad_requests_are_clear_errors() -> None:
    with pytest.raises(gamelib.OptionError, match="no solver-sized configuration"):
        small_configuration("delanopolis")
    with pytest.raises(ValueError, match="two-player zero-sum"):
        solve("passante", iterations=1)
    with pytest.raises(ValueError, match="algorithm"):
        solve("fugitive", algorithm="dcfr")
    with pytest.raises(ValueError, match="iterations"):
        solve("fugitive", iterations=0)
    assert set(SMALL_CONFIGURATIONS) == {"fugitive"}


# ------------------------------------------------------------------------ exploitability of agents
@needs_openspiel
def test_exploitability_of_random_play_matches_played_games() -> None:
    exact = exploitability_of(["random", "random"])
    assert exact.value[0] == pytest.approx(-exact.value[1])
    played = _fugitive_returns([RandomAgent(), RandomAgent()], small_configuration("fugitive"), games=3000)
    low, high = _interval(played)
    assert low <= exact.value[0] <= high
    assert all(g >= -1e-9 for g in exact.gains), "a best response never does worse than the agent it replaces"


@needs_openspiel
def test_a_deterministic_fugitive_is_fully_exploitable() -> None:
    exact = exploitability_of([FirstLegalAgent(), RandomAgent()])
    assert exact.best_response[1] == pytest.approx(1.0), (
        "a detective who knows every move finds every hideout"
    )
    assert exact.guaranteed(0) == pytest.approx(-1.0)


@needs_openspiel
def test_the_cfr_agent_guarantees_about_the_game_value(cfr_plus: Solution) -> None:
    exact = exploitability_of([cfr_plus.agent(), cfr_plus.agent()])
    assert exact.value[0] == pytest.approx(cfr_plus.value[0])
    assert exact.nash_conv == pytest.approx(cfr_plus.nash_conv[-1][1])
    assert cfr_plus.value[0] - exact.nash_conv <= exact.guaranteed(0) <= cfr_plus.value[0] + 1e-9
    assert "NashConv" in str(exact)


def test_exploitability_bad_requests_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="samples"):
        exploitability_of(["random", "random"], samples=0)
    with pytest.raises(ValueError, match="one per seat"):
        exploitability_of(["random"])


@needs_openspiel
def test_information_states_have_perfect_recall_on_the_small_tree() -> None:
    """CFR assumes perfect recall: one information state, one sequence of the seat's own moves and
    of what it saw (issue 12: the observation alone used to be the information state)."""
    from open_spiel.python.algorithms import get_all_states

    from gamelib.interop.openspiel import load_game

    options = small_configuration("fugitive")
    spiel = load_game("fugitive", **options)
    states = get_all_states.get_all_states(spiel, include_terminals=False, include_chance_states=False)
    own_moves: dict[str, tuple[str, ...]] = {}
    strings_by_seat: list[set[str]] = [set(), set()]
    for spiel_state in states.values():
        state = spiel_state.gamelib_state
        player = state.current_player
        key = spiel_state.information_state_string(player)
        strings_by_seat[player].add(key)
        seen = state.public_history(player)
        assert own_moves.setdefault(key, seen) == seen
        assert spiel_state.observation_string(player) != key
    observations = {
        repr(s.gamelib_state.observation(s.gamelib_state.current_player)) for s in states.values()
    }
    assert sum(len(s) for s in strings_by_seat) >= len(observations)
