"""The detective's exact belief on the reference positions, beside the C++ reference's times.

Reads ``tests/fugitive/data/fugitive_belief_positions.jsonl.gz``, a copy of shared/bench/ (or ``--file``): 640 positions
(agent and random play) with the exact world count, the deal-weighted mass and the C++
reference's time.  For each subset prints our median / p90 / p99 / max (caches cleared before
each position, default measure ``deals``) beside the reference's and the ratio, checks the
counts, and the peak memory (tracemalloc) of the slowest position.  Each position's time is the
best of ``--repeat`` runs (the reference's figures are best times too), wall clock, with the
process's CPU time beside it; the machine's load average is printed with the figures, since other
work on the cores inflates the wall-clock times.  It prints
figures; it is not a test.

    .venv/bin/python benchmarks/fugitive_belief.py
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import time
import tracemalloc
from pathlib import Path

import gamelib
from gamelib.fugitive import belief as belief_module

DEFAULT = str(
    Path(__file__).resolve().parents[1] / "tests" / "fugitive" / "data" / "fugitive_belief_positions.jsonl.gz"
)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", default=DEFAULT)
    parser.add_argument("--measure", choices=belief_module.MEASURES, default="deals")
    parser.add_argument("--repeat", type=int, default=3, help="runs per position; the best counts")
    args = parser.parse_args()
    with gzip.open(args.file, "rt") as handle:
        rows = [json.loads(line) for line in handle]
    slowest: tuple[float, dict] | None = None
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(f"Fugitive exact belief, measure={args.measure!r} (times in ms; ours / reference C++)")
    print(f"  load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    for subset in ("agents", "random"):
        ours, cpu, ref, wrong = [], [], [], 0
        for row in rows:
            if row["from"] != subset:
                continue
            state = gamelib.from_record(row["record"])
            elapsed = cpu_time = float("inf")
            for _ in range(max(1, args.repeat)):
                belief_module.clear_caches()
                start, cpu_start = time.perf_counter(), time.process_time()
                b = belief_module.belief(state, measure=args.measure)
                elapsed = min(elapsed, time.perf_counter() - start)
                cpu_time = min(cpu_time, time.process_time() - cpu_start)
            cpu.append(cpu_time * 1e3)
            ours.append(elapsed * 1e3)
            ref.append(row["reference_ms"])
            expected = row["deal_weighted_mass"] if args.measure == "deals" else row["worlds"]
            wrong += b.mass != expected
            if slowest is None or elapsed > slowest[0]:
                slowest = (elapsed, row)
        print(f"  {subset} ({len(ours)} positions, {wrong} wrong counts)")
        for name, q in (("median", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0)):
            a, c, r = percentile(ours, q), percentile(cpu, q), percentile(ref, q)
            print(f"    {name:6} ours {a:9.2f} (cpu {c:9.2f})   reference {r:8.3f}   ratio {a / r:8.1f}x")
    assert slowest is not None
    state = gamelib.from_record(slowest[1]["record"])
    belief_module.clear_caches()
    tracemalloc.start()
    belief_module.belief(state, measure=args.measure)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"  slowest position {slowest[1]['id']}: {slowest[0] * 1e3:.0f} ms, peak memory {peak / 2**20:.1f} MiB"
    )
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(f"  load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
