"""Exact solving: tree sizes of Fugitive configurations and CFR / CFR+ speed on the small one.

For each deck size (``escape_card``) and round limit, the number of histories and information
states (``gamelib.analysis.tree_size``, stopped at a budget); then OpenSpiel's Python CFR and CFR+
on ``SMALL_CONFIGURATIONS["fugitive"]``: seconds per iteration and NashConv after N iterations,
with OpenSpiel's own Kuhn poker (C++ game, Python CFR) in the same run as the anchor.

Run: ``python benchmarks/cfr.py [iterations]`` (default 32).  Needs the ``openspiel`` extra.
"""

from __future__ import annotations

import sys
import time

import pyspiel
from open_spiel.python.algorithms import cfr, exploitability

import gamelib
from gamelib.analysis import TreeTooLarge, tree_size
from gamelib.interop.solve import small_configuration, solve

BUDGET = 300_000


def sizes() -> None:
    print(f"Fugitive tree sizes (canonical order; '>' = stopped at {BUDGET:,} histories)")
    print(f"{'escape_card':>11} {'max_rounds':>10} {'histories':>11} {'info states':>12} {'seconds':>8}")
    for escape_card, rounds in [(7, 1), (7, 2), (8, 1), (10, 1), (12, 1), (42, 1)]:
        game = gamelib.make(
            "fugitive", options={"escape_card": escape_card, "max_rounds": rounds, "canonical_order": True}
        )
        start = time.perf_counter()
        try:
            size = tree_size(game, max_histories=BUDGET)
            histories, infos = f"{size.histories:,}", f"{sum(size.information_states):,}"
        except TreeTooLarge:
            histories, infos = f">{BUDGET:,}", "-"
        print(
            f"{escape_card:>11} {rounds:>10} {histories:>11} {infos:>12} {time.perf_counter() - start:>8.1f}"
        )


def kuhn(iterations: int) -> None:
    game = pyspiel.load_game("kuhn_poker")
    solver = cfr.CFRPlusSolver(game)
    start = time.perf_counter()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    per = (time.perf_counter() - start) / iterations
    conv = exploitability.nash_conv(game, solver.average_policy())
    print(f"  kuhn_poker (58 histories)   CFR+: {per * 1000:8.1f} ms/iteration, NashConv {conv:.4f}")


def main() -> None:
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 32
    sizes()
    print(f"\nCFR on fugitive {small_configuration('fugitive')}, {iterations} iterations")
    kuhn(iterations)
    for algorithm in ("cfr", "cfr+"):
        solution = solve("fugitive", iterations=iterations, algorithm=algorithm, checkpoints=1)
        per = solution.seconds / iterations
        print(
            f"  fugitive (4,148 histories)  {algorithm.upper():<4}: {per * 1000:8.1f} ms/iteration with setup and one NashConv, "
            f"NashConv {solution.nash_conv[-1][1]:.4f}, fugitive's value {solution.value[0]:+.4f}"
        )


if __name__ == "__main__":
    main()
