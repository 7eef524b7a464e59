"""The belief's edge loops per edge, pure Python against compiled, on real layers.

Every call the belief makes to ``kernel.push``, ``kernel.pull`` and ``kernel.pull_tally`` on a few
hard positions, computed as benchmarks/fugitive_belief.py does (the belief with its hideout
probabilities, then the world count), is captured with its memo as it stood after the call (so no
``miss`` runs when it is replayed); each captured call is
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
from gamelib.fugitive.rules import FugitiveState

ROOT = Path(__file__).resolve().parents[1]
RANDOM_V2 = ROOT / "benchmarks" / "data" / "fugitive_belief_random_v2.jsonl.gz"


def state_of(ident: str) -> FugitiveState:
    with gzip.open(RANDOM_V2, "rt") as handle:
        for line in handle:
            row = json.loads(line)
            if row["id"] == ident:
                state = gamelib.from_record(row["record"])
                assert isinstance(state, FugitiveState)
                return state
    raise SystemExit(f"no position {ident} in {RANDOM_V2}")


Calls = dict[str, list[tuple[Any, ...]]]
"""Per function, its captured calls: (edges, *arguments)."""


def capture(state: FugitiveState) -> Calls:
    """The kernel calls of one position as the belief benchmark computes it (the belief with its
    hideout probabilities, then the world count), each with its edges and its memo as it stood
    after the call (a tally as a tuple: each replay gets a fresh list)."""
    calls: Calls = {"push": [], "pull": [], "pull_tally": []}
    push, pull, pull_tally = kernel.push, kernel.pull, kernel.pull_tally

    def edges(sources: Any, reads: int, memo: Any, miss: Any) -> int:
        for src in sources:  # the misses the call would make, made first (in the same order)
            if src & reads not in memo and miss is not None:
                memo[src & reads] = miss(src & reads)
        return sum(len(memo[src & reads]) for src in sources)

    def push_spy(states: Any, reads: int, keep: int, memo: Any, miss: Any = None) -> Any:
        out, count = push(states, reads, keep, memo, miss)
        calls["push"].append((count, dict(states), reads, keep, dict(memo)))
        return out, count

    def pull_spy(sources: Any, reads: int, keep: int, memo: Any, nxt: Any, miss: Any = None) -> Any:
        sources = list(sources)
        count = edges(sources, reads, memo, miss)
        calls["pull"].append((count, sources, reads, keep, dict(memo), nxt))
        return pull(sources, reads, keep, memo, nxt, miss)

    def tally_spy(
        states: Any, reads: int, keep: int, memo: Any, nxt: Any, tally: Any, miss: Any = None
    ) -> Any:
        count = edges(states, reads, memo, miss)
        calls["pull_tally"].append((count, states, reads, keep, dict(memo), nxt, tuple(tally)))
        return pull_tally(states, reads, keep, memo, nxt, tally, miss)

    kernel.push, kernel.pull, kernel.pull_tally = push_spy, pull_spy, tally_spy  # type: ignore[assignment]
    try:
        found = belief_module.belief(state)
        assert found.worlds >= 0
    finally:
        kernel.push, kernel.pull, kernel.pull_tally = push, pull, pull_tally  # type: ignore[assignment]
    return calls


def replay(fn: Any, calls: list[tuple[Any, ...]]) -> tuple[list[float], list[Any]]:
    """Each call's CPU seconds and result (with the tally it filled, if any)."""
    times, results = [], []
    for _, *args in calls:
        args = [list(a) if isinstance(a, tuple) else a for a in args]
        start = time.process_time_ns()
        result = fn(*args)
        times.append((time.process_time_ns() - start) / 1e9)
        results.append((result, args[5]) if len(args) > 5 else result)
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


def counted(fallbacks: dict[str, int]) -> None:
    """Has the compiled module count the calls it hands to the pure functions (what did not fit)."""

    def wrap(name: str, fn: Any) -> Any:
        def pure(*args: Any, **kwargs: Any) -> Any:
            fallbacks[name] = fallbacks.get(name, 0) + 1
            return fn(*args, **kwargs)

        return pure

    kernel._compiled.configure(
        wrap("push", kernel.push_pure),
        wrap("pull", kernel.pull_pure),
        wrap("pull_tally", kernel.pull_tally_pure),
        True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="random-225,random-519", help="position ids of random v2")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    compiled = getattr(kernel, "_compiled", None)
    if compiled is None or not kernel.COMPILED:
        print("the compiled kernel is not there (or GAMELIB_PURE_PYTHON=1): nothing to compare")
        return
    fallbacks: dict[str, int] = {}
    counted(fallbacks)
    for ident in args.only.split(","):
        calls = capture(state_of(ident))
        print(ident)
        for name in calls:
            measure(name, calls[name], getattr(kernel, f"{name}_pure"), getattr(compiled, name), args.repeat)
    print(f"calls the compiled loops handed to the pure ones (did not fit): {fallbacks or 'none'}")
    kernel.use_compiled(True)


if __name__ == "__main__":
    main()
