"""The belief's edge loops per edge, pure Python against compiled, on real layers.

Every call the belief makes to ``kernel.push`` and ``kernel.pull`` while counting a few hard
positions (``deals`` with the hideout marginals, the backward pass included) is captured with its
memo as it stood after the call (so no ``miss`` runs when it is replayed); each captured call is
then replayed with the pure functions and with the compiled ones, alternately, ``--repeat``
times, and the per-call minima are summed.  Printed: calls, edges, ns per edge of each and the
ratio, per direction and position (CPU time: the machine is shared), and a check that both give
the same dicts, in the same order.

    .venv/bin/python benchmarks/kernel.py                          # random-225 and random-519
    .venv/bin/python benchmarks/kernel.py --only random-420 --repeat 7
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from pathlib import Path
from typing import Any

import gamelib
from gamelib.fugitive import belief as belief_module
from gamelib.fugitive.belief import kernel
from gamelib.fugitive.belief.build import backward, build
from gamelib.fugitive.rules import FugitiveState

ROOT = Path(__file__).resolve().parents[1]
RANDOM_V2 = ROOT / "benchmarks" / "data" / "fugitive_belief_random_v2.jsonl.gz"


def facts_of(ident: str) -> belief_module.Facts:
    with gzip.open(RANDOM_V2, "rt") as handle:
        for line in handle:
            row = json.loads(line)
            if row["id"] == ident:
                state = gamelib.from_record(row["record"])
                assert isinstance(state, FugitiveState)
                return belief_module.facts_from_state(state)
    raise SystemExit(f"no position {ident} in {RANDOM_V2}")


def capture(facts: belief_module.Facts) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The push and pull calls of one count (deals, the backward pass), with their edges."""
    pushes: list[tuple[Any, ...]] = []
    pulls: list[tuple[Any, ...]] = []
    push, pull = kernel.push, kernel.pull

    def push_spy(states: Any, reads: int, keep: int, memo: Any, miss: Any = None) -> Any:
        out, count = push(states, reads, keep, memo, miss)
        pushes.append((count, dict(states), reads, keep, dict(memo)))
        return out, count

    def pull_spy(sources: Any, reads: int, keep: int, memo: Any, nxt: Any) -> Any:
        sources = list(sources)
        edges = sum(len(memo[src & reads]) for src in sources)
        pulls.append((edges, sources, reads, keep, memo, nxt))
        return pull(sources, reads, keep, memo, nxt)

    kernel.push, kernel.pull = push_spy, pull_spy  # type: ignore[assignment]
    try:
        backward(build(facts, "deals"))
    finally:
        kernel.push, kernel.pull = push, pull  # type: ignore[assignment]
    return pushes, pulls


def replay(fn: Any, calls: list[tuple[Any, ...]]) -> tuple[list[float], list[Any]]:
    """Each call's CPU seconds and result."""
    times, results = [], []
    for _, *args in calls:
        start = time.process_time_ns()
        results.append(fn(*args))
        times.append((time.process_time_ns() - start) / 1e9)
    return times, results


def measure(name: str, calls: list[tuple[Any, ...]], pure: Any, fast: Any, repeat: int) -> None:
    if not calls:
        print(f"  {name}: no call")
        return
    best_pure = [float("inf")] * len(calls)
    best_fast = [float("inf")] * len(calls)
    same = True
    for _ in range(repeat):
        times, expected = replay(pure, calls)
        best_pure = [min(a, b) for a, b in zip(best_pure, times, strict=True)]
        times, got = replay(fast, calls)
        best_fast = [min(a, b) for a, b in zip(best_fast, times, strict=True)]
        same = same and all(_items(a) == _items(b) for a, b in zip(expected, got, strict=True))
    edges = sum(call[0] for call in calls)
    p, f = sum(best_pure) * 1e9 / edges, sum(best_fast) * 1e9 / edges
    print(
        f"  {name}: {len(calls)} calls, {edges:,} edges: pure {p:.0f} ns/edge, compiled {f:.0f} ns/edge, "
        f"{p / f:.1f}x, same results: {same}"
    )


def _items(result: Any) -> Any:
    if isinstance(result, tuple):
        return list(result[0].items()), result[1]
    return list(result.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="random-225,random-519", help="position ids of random v2")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    compiled = getattr(kernel, "_compiled", None)
    if compiled is None or not kernel.COMPILED:
        print("the compiled kernel is not there (or GAMELIB_PURE_PYTHON=1): nothing to compare")
        return
    for ident in args.only.split(","):
        pushes, pulls = capture(facts_of(ident))
        print(ident)
        measure("push", pushes, kernel.push_pure, compiled.push, args.repeat)
        measure("pull", pulls, kernel.pull_pure, compiled.pull, args.repeat)


if __name__ == "__main__":
    main()
