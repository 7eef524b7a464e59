"""Card-location probabilities (hideout / sprint / hand / deck of every unseen card), timed.

The three position sets of ``benchmarks/fugitive_belief.py`` (the 640 shared v1 positions, 1,000
random-play and 1,000 agents positions under rules v2 defaults) are computed one after another in
ONE process WITHOUT clearing caches, as a live panel or an agent does.  Per position two CPU times
(``time.process_time``; the machine is shared):

* ``count``: :func:`belief` (the world total and the hideout probabilities, measure ``deals``);
* ``where``: then ``sprint_prob`` (the card locations), what a panel pays on top of the count.

Printed per set: median / p99 / max of ``count``, ``where`` and their sum, the positions whose
``where`` or sum exceeds 350 ms, then the peak resident memory and the load average.

``--against DIR`` runs the same positions through a second interpreter whose ``PYTHONPATH`` is
``DIR`` (e.g. ``/tmp/base``, an older checkout): two worker processes, each keeping its caches
over the three sets, are driven position by position in alternation, so both see the same load.

    .venv/bin/python benchmarks/fugitive_locations.py
    .venv/bin/python benchmarks/fugitive_locations.py --against /tmp/base
    .venv/bin/python benchmarks/fugitive_locations.py --only random:random-225 --sets random
    .venv/bin/python benchmarks/fugitive_locations.py --sets "" --extra hA=/work/team/sets/heldout-A.jsonl.gz \\
        --extra hB=/work/team/sets/heldout-B.jsonl.gz --against /tmp/base   # held-out sets, old vs new
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SETS = {
    "shared": ROOT / "tests" / "fugitive" / "data" / "fugitive_belief_positions.jsonl.gz",
    "random": ROOT / "benchmarks" / "data" / "fugitive_belief_random_v2.jsonl.gz",
    "agents": ROOT / "benchmarks" / "data" / "fugitive_belief_agents_v2.jsonl.gz",
}
LIMIT_MS = 350.0


def rows_of(name: str, only: list[str]) -> list[dict[str, Any]]:
    """The set's positions in file order (or just the ``only`` ones, in that order)."""
    with gzip.open(SETS[name], "rt") as handle:
        rows = [json.loads(line) for line in handle]
    wanted = [w.split(":")[-1] for w in only if ":" not in w or w.split(":")[0] == name]
    if only:
        rows = sorted((r for r in rows if r["id"] in wanted), key=lambda r: wanted.index(r["id"]))
    return rows


def time_one(record: dict[str, Any]) -> tuple[float, float, int]:
    """(count ms, card-location ms, deal-weighted mass) of one position, CPU time."""
    import gamelib
    from gamelib.fugitive import belief as package

    state = gamelib.from_record(record)
    start = time.process_time()
    b = package.belief(state)  # type: ignore[arg-type]
    middle = time.process_time()
    b.sprint_prob  # noqa: B018 - the card locations, computed on first use
    end = time.process_time()
    return (middle - start) * 1e3, (end - middle) * 1e3, b.mass


def worker() -> None:
    """Answer ``set<TAB>index`` lines with the position's times (one JSON line each)."""
    if "FUGITIVE_LOCATIONS_EXTRA" in os.environ:
        SETS.update({k: Path(v) for k, v in json.loads(os.environ["FUGITIVE_LOCATIONS_EXTRA"]).items()})
    cache: dict[str, list[dict[str, Any]]] = {}
    for line in sys.stdin:
        name, index = line.split()
        if name not in cache:
            cache[name] = rows_of(name, [])
        row = cache[name][int(index)]
        count, where, mass = time_one(row["record"])
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps([count, where, mass == row["deal_weighted_mass"], peak]), flush=True)


def quantiles(values: list[float]) -> str:
    ordered = sorted(values)
    p50 = ordered[len(ordered) // 2]
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return f"median {p50:8.2f}  p99 {p99:8.1f}  max {ordered[-1]:8.1f} ms"


def report(label: str, ids: list[str], times: list[tuple[float, float]], wrong: int, worst: int) -> None:
    counts = [c for c, _ in times]
    wheres = [w for _, w in times]
    sums = [c + w for c, w in times]
    print(f"  {label}: {len(times)} positions, {wrong} wrong counts")
    print(f"    count                  {quantiles(counts)}")
    print(f"    card locations         {quantiles(wheres)}")
    print(f"    count + locations      {quantiles(sums)}")
    slow = [(w, s, i) for i, (_, w), s in zip(ids, times, sums, strict=True) if s > LIMIT_MS or w > LIMIT_MS]
    print(f"    over {LIMIT_MS:.0f} ms (locations or sum): {len(slow)}")
    for w, s, i in sorted(slow, reverse=True)[:10]:
        print(f"      {i}: locations {w:.0f} ms, with the count {s:.0f} ms")
    if worst:
        ranked = sorted(zip(wheres, ids, strict=True), reverse=True)[:worst]
        print("    slowest card locations: " + ", ".join(f"{i} {w:.0f}" for w, i in ranked))


def spawn(path: str | None) -> subprocess.Popen[str]:
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = path
    return subprocess.Popen(
        [sys.executable, __file__, "--worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd="/tmp",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", help="a checkout to time side by side (its PYTHONPATH)")
    parser.add_argument("--sets", default="shared,random,agents", help="comma-separated set names")
    parser.add_argument("--only", default="", help="set:id,... time just those positions")
    parser.add_argument(
        "--extra",
        action="append",
        default=[],
        metavar="[NAME=]PATH",
        help="another set, a file of the same format, run after --sets (repeatable; NAME default 'extra')",
    )
    parser.add_argument("--worst", type=int, default=0, help="also list the N slowest card locations per set")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    names = [n for n in args.sets.split(",") if n]
    extra = {}
    for item in args.extra:
        name, _, path = item.rpartition("=")
        extra[name or "extra"] = str(Path(path).resolve())
    if extra:
        SETS.update({k: Path(v) for k, v in extra.items()})
        os.environ["FUGITIVE_LOCATIONS_EXTRA"] = json.dumps(extra)  # the workers read it too
        names += [n for n in extra if n not in names]
    only = [w for w in args.only.split(",") if w]
    print("Fugitive card locations, measure 'deals', sets in one process each side, caches kept (CPU ms)")
    print(f"  load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    sides = {"ours": spawn(None)}  # spawned after --extra is in the environment
    if args.against:
        sides[f"against {args.against}"] = spawn(args.against)
    peaks = dict.fromkeys(sides, 0.0)
    for name in names:
        every = rows_of(name, [])
        index = {r["id"]: n for n, r in enumerate(every)}
        rows = rows_of(name, only) if only else every
        times: dict[str, list[tuple[float, float]]] = {side: [] for side in sides}
        wrong = dict.fromkeys(sides, 0)
        for row in rows:
            for side, proc in sides.items():  # alternate: both sides see the same load
                assert proc.stdin is not None and proc.stdout is not None
                proc.stdin.write(f"{name}\t{index[row['id']]}\n")
                proc.stdin.flush()
                count, where, right, peak = json.loads(proc.stdout.readline())
                times[side].append((count, where))
                wrong[side] += not right
                peaks[side] = max(peaks[side], peak)
        for side in sides:
            report(f"{name} ({side})", [r["id"] for r in rows], times[side], wrong[side], args.worst)
    for side, proc in sides.items():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
        print(f"  peak resident memory ({side}): {peaks[side]:.0f} MiB")
    print(f"  load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
