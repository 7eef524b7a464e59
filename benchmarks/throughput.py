"""Random-play throughput: games/s and actions/s per registered game, beside OpenSpiel's Python games.

The same loop drives every engine: at a chance node sample an outcome by its probability, otherwise pick
a uniformly random legal action, until the game ends.  Run: ``python benchmarks/throughput.py [seconds]``.

``python benchmarks/throughput.py --compare /tmp/base [seconds]`` measures another checkout of gamelib
(a folder holding its ``gamelib`` package, e.g. the session's base) against this one in the same run:
two worker processes, one importing each, play their rounds in turn (the order alternating), so both
see the same load; each reports its own CPU time.

Engines are measured in interleaved rounds (every engine gets a slice of each round) and by the
process's CPU time, so a machine shared with other work slows every engine alike and the ratios to
OpenSpiel's ``python_tic_tac_toe`` hold; wall-clock figures are printed beside them.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
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


def gamelib_engines() -> dict[str, Tally]:
    """Every registered game at its fewest and most players."""
    engines: dict[str, Tally] = {}
    for name in gamelib.registered_games():
        info = gamelib.core.game_class(name).info
        for players in sorted({info.min_players, info.max_players}):
            engines[f"gamelib {name} ({players}p)"] = Tally(gamelib_player(name, players))
    return engines


def worker(seconds: float) -> None:
    """One side of ``--compare``: a round of every engine per ``run`` line read, the totals on ``report``."""
    engines = gamelib_engines()
    for line in sys.stdin:
        if line.strip() == "run":
            for tally in engines.values():
                tally.run(seconds)
            print("ok", flush=True)
        elif line.strip() == "report":
            report = {k: [t.games, t.actions, t.cpu, t.wall] for k, t in engines.items()}
            print(json.dumps({"gamelib": os.path.dirname(gamelib.__file__), "engines": report}), flush=True)
            return


def compare(other: str, seconds: float, rounds: int = 6) -> None:
    """Random play of the gamelib found in folder ``other`` against this one, interleaved."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sides = {}
    for side, path in (("before", os.path.abspath(other)), ("now", here)):
        env = dict(os.environ, PYTHONPATH=path)
        command = [sys.executable, os.path.abspath(__file__), "--worker", str(seconds / rounds)]
        sides[side] = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd="/"
        )
    order = list(sides.values())
    for round_ in range(rounds):
        for process in order if round_ % 2 == 0 else order[::-1]:
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write("run\n")
            process.stdin.flush()
            assert process.stdout.readline().strip() == "ok"
    totals = {}
    for side, process in sides.items():
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write("report\n")
        process.stdin.flush()
        reply = json.loads(process.stdout.readline())
        print(f"{side}: {reply['gamelib']}")
        totals[side] = reply["engines"]
        process.wait()
    width = max(len(label) for label in totals["now"])
    print(f"{'game':<{width}}  {'before actions/s':>16}  {'now actions/s':>14}  {'now/before':>10}")
    for label, (_, actions, cpu, _) in totals["now"].items():
        if label not in totals["before"]:
            print(f"{label:<{width}}  {'-':>16}  {actions / cpu:>14.0f}")
            continue
        _, old_actions, old_cpu, _ = totals["before"][label]
        old, new = old_actions / old_cpu, actions / cpu
        print(f"{label:<{width}}  {old:>16.0f}  {new:>14.0f}  {new / old:>9.2f}x")
    print(
        f"(per CPU second of each worker, {rounds} rounds of {seconds / rounds:.2f} s, alternating; {other})"
    )


def main() -> None:
    if sys.argv[1:2] == ["--worker"]:
        worker(float(sys.argv[2]))
        return
    if sys.argv[1:2] == ["--compare"]:
        compare(sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 3.0)
        return
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    rounds = 6
    engines = gamelib_engines()
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
