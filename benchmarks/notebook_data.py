"""The stored experiments of notebooks 00 and 05: compute them once, save them in notebooks/data/.

Each experiment is a function returning a DataFrame (usually one row per game and seat, see
``gamelib.analysis.stored.results_frame``); its keyword defaults are the stored size and seeds.
The notebooks load the CSV files with ``gamelib.analysis.stored.experiment(name, function,
recompute=RECOMPUTE)``; every file starts with the command below, its parameters and versions.

    python benchmarks/notebook_data.py --list            # names, sizes
    python benchmarks/notebook_data.py                   # recompute all of them (about 20 min on 2 cores)
    python benchmarks/notebook_data.py 05_roles 05_round_robin

``SLICES`` says, for each experiment, the smaller parameters that ``tests/test_notebook_data.py``
recomputes and compares exactly with the stored rows (same seeds, same games).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "notebooks" / "data"
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

import gamelib  # noqa: E402
from gamelib import analysis  # noqa: E402
from gamelib.analysis import compare_agents  # noqa: E402
from gamelib.analysis.stored import command_line, results_frame  # noqa: E402

# ---------------------------------------------------------------------------- 00_start_here


def lengths(games: int = 40, progress: bool = False) -> Any:
    """Game length (actions, chance included) of random players, seeds 0..games-1, every game."""
    import pandas as pd

    from gamelib.agents import RandomAgent

    rows = []
    for name in gamelib.registered_games():
        game = gamelib.make(name)
        for seed in range(games):
            final = gamelib.play(game, [RandomAgent()] * game.num_players, seed=seed)
            rows.append({"game_name": name, "seed": seed, "length": len(final.history)})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------- 05: roles
ROLE_FUGITIVES = ("random", "heuristic")
ROLE_DETECTIVES = ("random", "belief")


def roles(games: int = 150, seed: int = 1, progress: bool = True) -> Any:
    """Fugitive: each fugitive against each detective, seats fixed (rotate=False)."""
    results = {}
    for fugitive in ROLE_FUGITIVES:
        for detective in ROLE_DETECTIVES:
            agents = {f"{fugitive} fugitive": fugitive, f"{detective} detective": detective}
            results[f"{fugitive} fugitive vs {detective} detective"] = gamelib.tournament(
                "fugitive", agents, games=games, seed=seed, rotate=False, progress=progress
            )
    return results_frame(results, key="pairing")


# ---------------------------------------------------------------------------- 05: agents vs a random field
class LastLegal:
    """Plays the last legal action (the agent written in a cell of 05_strategy_lab)."""

    name = "last"

    def act(self, state: Any, player: int, rng: Any) -> Any:
        return state.legal_actions()[-1]


CONTENDERS: dict[str, list[Any]] = {
    "fugitive": ["first", LastLegal()],
    "passante": ["seeker", "coop_ismcts(iterations=16)"],
    "delanopolis": ["role", "mayor", "fraction", "value"],
    "getonboard": ["stick_greedy", "planner"],
}


def _compare(name: str, games: int, seed: int, progress: bool) -> Any:
    comparison = compare_agents(name, CONTENDERS[name], games=games, seed=seed, progress=progress)
    return results_frame(comparison.results, key="contender")


def compare_fugitive(games: int = 400, seed: int = 3, progress: bool = True) -> Any:
    return _compare("fugitive", games, seed, progress)


def compare_passante(games: int = 100, seed: int = 3, progress: bool = True) -> Any:
    return _compare("passante", games, seed, progress)


def compare_delanopolis(games: int = 400, seed: int = 3, progress: bool = True) -> Any:
    return _compare("delanopolis", games, seed, progress)


def compare_getonboard(games: int = 200, seed: int = 3, progress: bool = True) -> Any:
    return _compare("getonboard", games, seed, progress)


# ---------------------------------------------------------------------------- 05: round robin
def round_robin(games: int = 300, seed: int = 2, progress: bool = True) -> Any:
    """Get on Board at two players: planner, stick_greedy and random, every pair on the same seeds."""
    robin = analysis.round_robin(
        "getonboard",
        ["planner", "stick_greedy", "random"],
        players=2,
        games=games,
        seed=seed,
        progress=progress,
    )
    return results_frame({" vs ".join(pair): res for pair, res in robin.results.items()}, key="pair")


# ---------------------------------------------------------------------------- 05: sweeps
SWEEPS: dict[str, dict[str, Any]] = {
    "fugitive": dict(option="edition", values=[1, 2], agents=["random", "random"]),
    "passante": dict(option="open_hands", values=[False, True], agents=["seeker"] * 3),
    "delanopolis": dict(option="rounds", values=[4, 8, 12], agents=["role"] * 4),
    "getonboard": dict(option="rounds", values=[8, 12], agents=["planner", "random", "random"]),
}


def _sweep(name: str, games: int, seed: int, progress: bool) -> Any:
    plan = SWEEPS[name]
    swept = gamelib.sweep(name, games=games, seed=seed, progress=progress, **plan)
    return results_frame(dict(zip(swept.values, swept.results, strict=True)), key=plan["option"])


def sweep_fugitive(games: int = 1000, seed: int = 5, progress: bool = True) -> Any:
    return _sweep("fugitive", games, seed, progress)


def sweep_passante(games: int = 100, seed: int = 5, progress: bool = True) -> Any:
    return _sweep("passante", games, seed, progress)


def sweep_delanopolis(games: int = 200, seed: int = 5, progress: bool = True) -> Any:
    return _sweep("delanopolis", games, seed, progress)


def sweep_getonboard(games: int = 100, seed: int = 5, progress: bool = True) -> Any:
    return _sweep("getonboard", games, seed, progress)


# ---------------------------------------------------------------------------- 05: CFR on a small deck
@lru_cache(maxsize=4)
def solution(iterations: int = 32, checkpoints: int = 6) -> Any:
    """CFR+ on Fugitive's small configuration (cached: several experiments read it)."""
    from gamelib.interop.solve import solve

    return solve("fugitive", iterations=iterations, checkpoints=checkpoints)


def cfr_convergence(iterations: int = 32, checkpoints: int = 6, progress: bool = True) -> Any:
    """NashConv (what two best responses gain; 0 = equilibrium) at each checkpoint."""
    import pandas as pd

    solved = solution(iterations, checkpoints)
    return pd.DataFrame([{"iteration": i, "nash_conv": v} for i, v in solved.nash_conv])


def cfr_opening(iterations: int = 32, checkpoints: int = 6, progress: bool = True) -> Any:
    """The equilibrium fugitive's first hideout (probability of each legal action), and the game value."""
    import pandas as pd

    solved = solution(iterations, checkpoints)
    state = solved.game.new_game(seed=0)
    while state.current_player == gamelib.CHANCE:
        state.apply(state.sample_chance())
    strategy = solved.strategy(state)
    return pd.DataFrame(
        [
            {"action": str(a), "probability": strategy.get(a, 0.0), "value_fugitive": solved.value[0]}
            for a in state.legal_actions()
        ]
    )


def cfr_vs_detectives(
    games: int = 1000, iterations: int = 32, checkpoints: int = 6, seed: int = 0, progress: bool = True
) -> Any:
    """The CFR fugitive against the random and belief detectives on the small deck."""
    from gamelib.interop.solve import small_configuration

    solved = solution(iterations, checkpoints)
    results = {
        detective: gamelib.tournament(
            "fugitive",
            {"CFR fugitive": solved.agent(), f"{detective} detective": detective},
            games=games,
            seed=seed,
            rotate=False,
            options=small_configuration("fugitive"),
            progress=progress,
        )
        for detective in ("random", "belief")
    }
    return results_frame(results, key="detective")


EXPLOITED = {
    "fugitive": ("first", "random", "heuristic", "CFR"),
    "detective": ("first", "random", "belief", "CFR"),
}


def exploitability(
    agents: tuple[str, ...] = ("first", "random", "heuristic", "belief", "CFR"),
    iterations: int = 32,
    checkpoints: int = 6,
    progress: bool = True,
) -> Any:
    """What each agent guarantees against a best response, exactly, on the small deck."""
    import pandas as pd

    from gamelib.interop.solve import exploitability_of

    def make(name: str) -> Any:
        return solution(iterations, checkpoints).agent() if name == "CFR" else name

    rows = []
    for seat, role in enumerate(("fugitive", "detective")):
        for name in EXPLOITED[role]:
            if name not in agents:
                continue
            seated = [make(name), "random"] if seat == 0 else ["random", make(name)]
            rows.append(
                {
                    "seat": role,
                    "agent": name,
                    "guaranteed": exploitability_of(seated, "fugitive").guaranteed(seat),
                }
            )
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------- 05: what is thinking worth
def thinking(
    games: int = 32, budgets: tuple[int, ...] = (1, 4, 16, 64), seed: int = 11, progress: bool = True
) -> Any:
    """A Une Passante: one cooperative IS-MCTS player (budget = iterations per move) among random partners."""
    comparison = compare_agents(
        "passante",
        {f"{b} iterations": f"coop_ismcts(iterations={b})" for b in budgets},
        games=games,
        seed=seed,
        executor="processes",
        workers=2,
        progress=progress,
    )
    return results_frame(comparison.results, key="contender")


# ---------------------------------------------------------------------------- the registry
EXPERIMENTS: dict[str, Callable[..., Any]] = {
    "00_lengths": lengths,
    "05_roles": roles,
    "05_compare_fugitive": compare_fugitive,
    "05_compare_passante": compare_passante,
    "05_compare_delanopolis": compare_delanopolis,
    "05_compare_getonboard": compare_getonboard,
    "05_round_robin": round_robin,
    "05_sweep_fugitive": sweep_fugitive,
    "05_sweep_passante": sweep_passante,
    "05_sweep_delanopolis": sweep_delanopolis,
    "05_sweep_getonboard": sweep_getonboard,
    "05_cfr_convergence": cfr_convergence,
    "05_cfr_opening": cfr_opening,
    "05_cfr_vs_detectives": cfr_vs_detectives,
    "05_exploitability": exploitability,
    "05_thinking": thinking,
}

SLICES: dict[str, dict[str, Any]] = {
    "00_lengths": {"games": 3},
    "05_roles": {"games": 3},
    "05_compare_fugitive": {"games": 4},
    "05_compare_passante": {"games": 2},
    "05_compare_delanopolis": {"games": 4},
    "05_compare_getonboard": {"games": 2},
    "05_round_robin": {"games": 2},
    "05_sweep_fugitive": {"games": 4},
    "05_sweep_passante": {"games": 2},
    "05_sweep_delanopolis": {"games": 4},
    "05_sweep_getonboard": {"games": 2},
    "05_cfr_convergence": {"iterations": 4, "checkpoints": 3},
    "05_cfr_opening": {},
    "05_cfr_vs_detectives": {"games": 4},
    "05_exploitability": {"agents": ["random", "first"]},
    "05_thinking": {"games": 2, "budgets": [1, 4]},
}
"""Smaller parameters for the exact-recomputation test (a prefix of the stored games)."""


def command(name: str) -> str:
    return f"python benchmarks/notebook_data.py {name}"


def main(argv: list[str] | None = None) -> int:
    # the compute functions' defaults are the stored sizes: recompute from them, not from the file
    return command_line(EXPERIMENTS, DATA, command, description=__doc__, argv=argv)


if __name__ == "__main__":
    raise SystemExit(main())
