"""Random-play throughput: games/s and actions/s per registered game, beside OpenSpiel's Python games.

The same loop drives every engine: at a chance node sample an outcome by its probability, otherwise pick
a uniformly random legal action, until the game ends.  Run: ``python benchmarks/throughput.py [seconds]``.

Engines are measured in interleaved rounds (every engine gets a slice of each round) and by the
process's CPU time, so a machine shared with other work slows every engine alike and the ratios to
OpenSpiel's ``python_tic_tac_toe`` hold; wall-clock figures are printed beside them.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

import gamelib
from gamelib.core.rng import pick


class Tally:
    """Games, actions, CPU seconds and wall seconds of one engine, summed over rounds."""

    def __init__(self, play_one: Callable[[random.Random], int]) -> None:
        self.play_one = play_one
        self.rng = random.Random(0)
        self.games = self.actions = 0
        self.cpu = self.wall = 0.0

    def run(self, seconds: float) -> None:
        """Play games for about ``seconds`` of CPU time."""
        cpu0, wall0 = time.process_time(), time.perf_counter()
        while time.process_time() - cpu0 < seconds:
            self.actions += self.play_one(self.rng)
            self.games += 1
        self.cpu += time.process_time() - cpu0
        self.wall += time.perf_counter() - wall0


def gamelib_player(name: str, players: int | None = None) -> Callable[[random.Random], int]:
    game = gamelib.make(name, players=players)
    seeds = iter(range(10**9))

    def play_one(rng: random.Random) -> int:
        state = game.new_game(seed=next(seeds))
        n = 0
        while not state.is_terminal():
            if state.current_player == gamelib.CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                actions = state.legal_actions()
                state.apply(actions[int(rng.random() * len(actions))])
            n += 1
        return n

    return play_one


def openspiel_player(name: str) -> Callable[[random.Random], int]:
    import pyspiel

    game = pyspiel.load_game(name)

    def play_one(rng: random.Random) -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(pick(state.chance_outcomes(), rng.random()))
            else:
                actions = state.legal_actions()
                state.apply_action(actions[int(rng.random() * len(actions))])
            n += 1
        return n

    return play_one


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    rounds = 6
    engines: dict[str, Tally] = {}
    for name in gamelib.registered_games():
        info = gamelib.core.game_class(name).info
        for players in sorted({info.min_players, info.max_players}):
            engines[f"gamelib {name} ({players}p)"] = Tally(gamelib_player(name, players))
    try:
        import open_spiel.python.games  # noqa: F401  (registers the python_* games)

        for name in ("python_tic_tac_toe", "python_kuhn_poker"):
            engines[f"OpenSpiel {name}"] = Tally(openspiel_player(name))
    except ImportError:
        print("(open_spiel not installed: pip install open_spiel to compare)")
    for _ in range(rounds):
        for tally in engines.values():
            tally.run(seconds / rounds)
    reference = engines.get("OpenSpiel python_tic_tac_toe")
    ref_rate = reference.actions / reference.cpu if reference else None
    width = max(len(label) for label in engines)
    print(
        f"{'engine / game':<{width}}  {'games/s':>9}  {'actions/s':>10}  {'(wall)':>9}  "
        f"{'vs python_tic_tac_toe':>22}"
    )
    for label, t in engines.items():
        rate = t.actions / t.cpu
        ratio = f"{rate / ref_rate:.2f}x" if ref_rate else "-"
        print(
            f"{label:<{width}}  {t.games / t.cpu:>9.1f}  {rate:>10.0f}  {t.actions / t.wall:>9.0f}  {ratio:>22}"
        )
    print(f"(per CPU second of this process, {rounds} interleaved rounds of {seconds / rounds:.2f} s each)")


if __name__ == "__main__":
    main()
