"""The detective's exact belief on three position sets, beside the C++ reference's times.

Sets (gzipped JSON lines, one detective decision a line: ``id``, ``from``, ``record`` a gamelib
record cut at the decision, ``worlds`` and ``deal_weighted_mass`` the exact counts in both
measures, ``hidden_sprint_cards``, and ``reference_ms`` where the C++ reference was timed):

* ``shared``: the 640 reference positions of shared/bench/ (rules v1, edition 1; a copy lives in
  tests/fugitive/data/), counts and times of smsxgz/fugitive ``belief.cc``;
* ``random`` and ``agents``: 1,000 positions each under rules v2 DEFAULTS (any number may be
  named, the manhunt a choice), from random play and from the library's agents (heuristic
  fugitive, belief detective), in ``benchmarks/data/`` (``--generate`` writes them again).

Every position is computed one after another in ONE process WITHOUT clearing caches, as a live
panel or an agent does; each time is CPU time (``time.process_time``: the machine is shared).
Printed per set: median / p99 / max and positions over 350 ms of the count (``belief``: world
total and hideout probabilities, measure ``deals``), of the world count (``Belief.worlds``,
measure ``worlds``), of both, of the C++ reference on the same positions (the shared set's own
``reference_ms``; for the v2 sets ``benchmarks/data/fugitive_reference_v2.json``, written by
``benchmarks/fugitive_reference.py``), of the card locations (``sprint_prob``: where each unseen
card can be); wrong counts (either measure); the easy positions' cost (those the reference does in
under 0.1 ms); the caches' sizes and the resident memory after each set (and its growth during
the set: a high-water mark, the allocator keeps what the hardest counts used), the caches' memory
after each set (deep size of the belief modules' containers, live memory), the peak resident
memory, the determinize time per call at a few positions, the caches' memory at the end and after
``clear_caches()`` (with the resident memory it gives back) and the load average.  ``--set NAME=PATH`` adds a set (e.g. a held-out one); the C++
reference's times of it are read from ``<stem>.ref.json`` beside it if there
(``benchmarks/fugitive_reference.py --run``).

    .venv/bin/python benchmarks/fugitive_belief.py             # the benchmark
    .venv/bin/python benchmarks/fugitive_belief.py --generate  # rebuild the v2 sets (slow)
    .venv/bin/python benchmarks/fugitive_belief.py --only random:random-225,random:random-330  # a few
    .venv/bin/python benchmarks/fugitive_belief.py --generate-to /tmp/h.jsonl.gz --kind random \\
        --first-seed 500001 --count 1000                      # a held-out set (ids h-0, h-1, ...)
    .venv/bin/python benchmarks/fugitive_belief.py --set hA=PATH --peak-memory hA:h-955,random:random-225
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import os
import random
import resource
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

import gamelib
from gamelib.fugitive import belief as belief_module
from gamelib.fugitive.agents import BeliefDetective, FugitiveHeuristic
from gamelib.fugitive.rules import D_GUESS, DETECTIVE, FugitiveState

ROOT = Path(__file__).resolve().parents[1]
SETS = {
    "shared": ROOT / "tests" / "fugitive" / "data" / "fugitive_belief_positions.jsonl.gz",
    "random": ROOT / "benchmarks" / "data" / "fugitive_belief_random_v2.jsonl.gz",
    "agents": ROOT / "benchmarks" / "data" / "fugitive_belief_agents_v2.jsonl.gz",
}
REFERENCE = ROOT / "benchmarks" / "data" / "fugitive_reference_v2.json"
"""The C++ reference's times on the v2 sets (position id -> best CPU ms of 3), see its ``command``."""
EASY_MS = 0.1
"""A position the reference counts in under this is *easy* (the fixed cost shows there)."""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def load(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rt") as handle:
        return [json.loads(line) for line in handle]


# ---------------------------------------------------------------------------- generating the v2 sets
def decisions(kind: str, seed: int) -> list[FugitiveState]:
    """Every detective decision (about to name a number) of one game under rules v2 defaults."""
    game = gamelib.make("fugitive")
    state = game.new_game(seed=seed)
    assert isinstance(state, FugitiveState)
    rng = random.Random(seed)
    seats: list[Any] = [FugitiveHeuristic(), BeliefDetective()] if kind == "agents" else []
    out = []
    while not state.is_terminal() and state.round < 60:
        if state.phase == D_GUESS and not state.is_terminal():
            out.append(state.clone())
        if state.current_player < 0:
            action = state.sample_chance(rng)
        elif seats:
            action = seats[state.current_player].act(state, state.current_player, rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply(action)
    return [s for s in out if isinstance(s, FugitiveState)]


def generate_rows(
    kind: str, count: int, first_seed: int = 1, rng_seed: int | None = None, prefix: str | None = None
) -> Any:
    """Yield one position per game (seeds ``first_seed``, ``first_seed + 1``, ...), at a random
    detective decision, with both measures' exact counts; ``count`` positions in all.

    Each row also carries ``count_ms``, the CPU time of both counts at generation (caches
    cleared before each position).  A position whose count raises yields ``{"id", "error",
    "record"}`` instead (it does not count towards ``count``)."""
    rng = random.Random((2026 if kind == "random" else 4202) if rng_seed is None else rng_seed)
    prefix = kind if prefix is None else prefix
    seed, made = first_seed - 1, 0
    while made < count:
        seed += 1
        found = decisions(kind, seed)
        if not found:
            continue
        state = rng.choice(found)
        ident = f"{prefix}-{made}"
        start = time.process_time()
        try:
            facts = belief_module.facts_from_state(state)
            worlds = belief_module.build(facts, "worlds").mass
            deals = belief_module.build(facts, "deals").mass
        except Exception as error:  # data: the set's maker wants to know, not to stop
            belief_module.clear_caches()
            yield {"id": f"{ident}-error", "seed": seed, "error": repr(error), "record": state.to_record()}
            continue
        hidden = sum(len(state.sprints[i]) for i in state.hidden_positions())
        yield {
            "id": ident,
            "from": kind,
            "record": state.to_record(),
            "worlds": worlds,
            "deal_weighted_mass": deals,
            "hidden_sprint_cards": hidden,
            "count_ms": round((time.process_time() - start) * 1e3, 3),
        }
        made += 1
        belief_module.clear_caches()


def write_rows(path: Path, rows: Any, slow_ms: float = 1000.0) -> None:
    """Write ``rows`` (gzipped JSON lines) to ``path`` atomically; errors go to ``<path>.errors.jsonl``;
    progress, errors and positions slower than ``slow_ms`` are reported on stderr."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    errors: list[dict[str, Any]] = []
    slow: list[str] = []
    written = 0
    with gzip.open(partial, "wt") as handle:
        for row in rows:
            if "error" in row:
                errors.append(row)
                print(f"  {row['id']} (seed {row['seed']}): {row['error']}", file=sys.stderr, flush=True)
                continue
            handle.write(json.dumps(row, separators=(",", ":")) + "\n")
            written += 1
            if row.get("count_ms", 0) > slow_ms:
                slow.append(f"{row['id']} {row['count_ms']:.0f} ms")
                print(f"  slow: {slow[-1]}", file=sys.stderr, flush=True)
            if written % 100 == 0:
                print(f"  {written} positions", file=sys.stderr, flush=True)
    partial.replace(path)
    if errors:
        with open(path.with_name(path.name + ".errors.jsonl"), "w") as handle:
            for row in errors:
                handle.write(json.dumps(row, separators=(",", ":")) + "\n")
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    print(f"wrote {written} positions to {where}; {len(errors)} errors; slow (> {slow_ms:.0f} ms): {slow}")


def generate(kind: str, count: int) -> None:
    """The committed v2 sets: seeds 1, 2, ..., ids ``<kind>-<n>``."""
    write_rows(
        SETS[kind], ({k: v for k, v in row.items() if k != "count_ms"} for row in generate_rows(kind, count))
    )


# ---------------------------------------------------------------------------- the benchmark
def timed(call: Any) -> tuple[Any, float]:
    start = time.process_time()
    result = call()
    return result, (time.process_time() - start) * 1e3


def ref_path(path: Path) -> Path:
    """Where the C++ reference's times of the set at ``path`` are kept: ``<stem>.ref.json`` beside it."""
    return path.with_name(path.name.split(".")[0] + ".ref.json")


def reference_times(path: Path = REFERENCE) -> dict[str, float]:
    """The C++ reference's CPU ms per position (``benchmarks/fugitive_reference.py`` wrote them,
    with the command that recomputes them), or {} if the file is not there."""
    if not path.exists():
        return {}
    positions = json.loads(path.read_text())["positions"]
    return {key: float(value["ms"]) for key, value in positions.items()}


def run_set(
    name: str, rows: list[dict[str, Any]], locations: bool, reference: dict[str, float], worst: int = 0
) -> None:
    """Count every position of one set in order (caches kept): the belief (measure ``deals``),
    then its world count (measure ``worlds``), then its card locations; print them beside the
    C++ reference's times of the same positions (the shared set carries them, the v2 sets read
    them from :data:`REFERENCE`)."""
    deals_ms, worlds_ms, where_ms, ref, easy, wrong = [], [], [], [], [], 0
    rss_before = rss_mib()
    checked: list[bool] = []
    for row in rows:
        state = gamelib.from_record(row["record"])
        assert isinstance(state, FugitiveState)
        b, ms = timed(lambda state=state: belief_module.belief(state))
        worlds, w_ms = timed(lambda b=b: b.worlds)
        bad = b.mass != row["deal_weighted_mass"] or worlds != row.get("worlds", worlds)
        wrong += bad
        checked.append(bad)
        deals_ms.append(ms)
        worlds_ms.append(w_ms)
        ref_ms = row.get("reference_ms", reference.get(row["id"]))
        if ref_ms is not None:
            ref.append(ref_ms)
            if ref_ms < EASY_MS:
                easy.append(ms)
        if locations:
            _, ms = timed(lambda b=b: b.sprint_prob)
            where_ms.append(ms)
    print(f"  {name}: {len(rows)} positions, {wrong} wrong counts (either measure)")
    wrong_ids = [r["id"] for r, b in zip(rows, checked, strict=True) if b]
    if wrong_ids:
        print(f"    wrong: {wrong_ids[:20]}")
    line = "    {:34} median {:8.3f}  p99 {:8.2f}  max {:8.1f} ms   over 350 ms: {}"
    print(line.format("count 'deals' + marginals, ours", *quantiles(deals_ms), over(deals_ms)))
    print(line.format("count 'worlds', ours", *quantiles(worlds_ms), over(worlds_ms)))
    both = [a + b for a, b in zip(deals_ms, worlds_ms, strict=True)]
    print(line.format("both measures, ours", *quantiles(both), over(both)))
    if ref:
        print(line.format(f"C++ reference ({len(ref)} timed)", *quantiles(ref), over(ref)))
        if easy:
            print(
                f"    easy positions (reference < {EASY_MS} ms): {len(easy)}, ours median"
                f" {percentile(easy, 0.5):.3f} p90 {percentile(easy, 0.9):.3f} ms"
            )
    else:
        print("    C++ reference: no times for this set")
    if where_ms:
        print(line.format("card locations, ours", *quantiles(where_ms), over(where_ms)))
    paired = [
        (r["id"], ms, r.get("reference_ms", reference.get(r["id"])))
        for r, ms in zip(rows, deals_ms, strict=True)
        if r.get("reference_ms", reference.get(r["id"])) is not None
    ]
    if paired:
        behind = [(k, ms, rm) for k, ms, rm in paired if ms > 350 and ms > rm]
        hard = [(k, ms, rm) for k, ms, rm in paired if rm >= 1.0]
        print(
            f"    'deals' count behind the reference: {sum(ms > rm for _, ms, rm in hard)} of {len(hard)}"
            f" positions where the reference takes >= 1 ms; over 350 ms and slower than it: {len(behind)}"
            + (
                " (" + ", ".join(f"{k} {ms:.0f}/{rm:.0f}" for k, ms, rm in behind[:10]) + ")"
                if behind
                else ""
            )
        )
    if worst:
        both_of = {r["id"]: t for r, t in zip(rows, both, strict=True)}
        ref_of = {r["id"]: r.get("reference_ms", reference.get(r["id"])) for r in rows}
        slowest = sorted(both_of, key=lambda k: -both_of[k])[:worst]
        print(
            "    slowest (both measures, ours / reference ms): "
            + ", ".join(
                f"{k} {both_of[k]:.1f}/{ref_of[k] if ref_of[k] is None else round(ref_of[k], 1)}"
                for k in slowest
            )
        )
    print(f"    caches now: {belief_module.cache_sizes()}, {caches_mib():.1f} MiB (deep size)")
    print(f"    resident memory now {rss_mib():.1f} MiB ({rss_mib() - rss_before:+.1f} during the set)")


def rss_mib() -> float:
    """The process's resident memory now (not the peak), MiB: Linux /proc, else the peak."""
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def caches_mib() -> float:
    """Deep size (MiB, ``sys.getsizeof`` over everything reachable) of the containers the belief
    modules keep at module level (its caches, and a few constant tables: compare with the start).
    Live Python memory, unlike the resident memory, which keeps the high-water mark of the hardest
    counts (the allocator does not give it back). About 0.1-1 s."""
    roots = [
        value
        for name, module in list(sys.modules.items())
        if name.startswith(belief_module.__name__)
        for value in vars(module).values()
        if isinstance(value, dict | list | set | tuple) and not isinstance(value, type)
    ]
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType)
    seen: set[int] = set()
    total, todo = 0, list(roots)
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        todo.extend(gc.get_referents(obj))
    return total / 2**20


def caches_memory() -> tuple[float, float]:
    """Resident memory before and after ``clear_caches()`` (and a garbage collection): the caches'
    memory, as far as the allocator gives it back (a lower bound). Clears the caches."""
    gc.collect()
    before = rss_mib()
    belief_module.clear_caches()
    gc.collect()
    return before, rss_mib()


def over(values: list[float], limit: float = 350.0) -> int:
    return sum(ms > limit for ms in values)


def quantiles(values: list[float]) -> tuple[float, float, float]:
    return percentile(values, 0.5), percentile(values, 0.99), max(values)


def determinize_times(rows: list[dict[str, Any]], calls: int = 200) -> None:
    """Determinize at the hardest positions: the first call (the sampler is built) and the next ones."""
    hardest = sorted(rows, key=lambda r: -r.get("hidden_sprint_cards", 0))[:5]
    rng = random.Random(0)
    for row in hardest:
        state = gamelib.from_record(row["record"])
        _, first = timed(lambda state=state: state.determinize(DETECTIVE, rng))
        _, rest = timed(lambda state=state: [state.determinize(DETECTIVE, rng) for _ in range(calls)])
        print(f"    {row['id']}: first call {first:8.1f} ms, then {rest / calls:6.3f} ms a call")


def peak_one(path: Path, ident: str) -> None:
    """In this (fresh) process: the resident memory one position's belief, world count and card
    locations add at their peak, and their CPU time; one line."""
    with gzip.open(path, "rt") as handle:  # line by line: loading the whole set would raise the peak
        row = next(r for line in handle if f'"{ident}"' in line and (r := json.loads(line))["id"] == ident)
    state = gamelib.from_record(row["record"])
    assert isinstance(state, FugitiveState)
    gc.collect()
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start = time.process_time()
    b = belief_module.belief(state)
    _ = b.worlds, b.sprint_prob
    ms = (time.process_time() - start) * 1e3
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - base
    print(
        f"    {ident}: peak +{peak:.1f} MiB resident, {ms:.0f} ms (belief + worlds + card locations)",
        flush=True,
    )


def peak_memory(sets: dict[str, Path], wanted: str) -> None:
    """:func:`peak_one` for each ``set:id`` of ``wanted``, each in its own process."""
    print("  peak resident memory added by one position, each in a fresh process:")
    for item in wanted.split(","):
        name, _, ident = item.rpartition(":")
        path = sets[name] if name else next(p for p in sets.values() if ident in {r["id"] for r in load(p)})
        subprocess.run([sys.executable, __file__, "--peak-one", str(path), ident], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generate", action="store_true", help="rebuild the random and agents v2 sets")
    parser.add_argument("--count", type=int, default=1000, help="positions per generated set")
    parser.add_argument("--no-locations", action="store_true", help="skip the card-location timings")
    parser.add_argument(
        "--only",
        default="",
        help="comma-separated positions, set:id or id (e.g. random:random-225): time just those, in that order",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=PATH",
        help="another set after the three (same format; 'worlds' optional), e.g. a held-out one",
    )
    parser.add_argument(
        "--generate-to",
        type=Path,
        metavar="PATH",
        help="write one set (e.g. a held-out one) to PATH: --kind, --first-seed, --count; ids <stem>-<n>",
    )
    parser.add_argument(
        "--kind", choices=("random", "agents"), default="random", help="how the games are played"
    )
    parser.add_argument("--first-seed", type=int, default=1, help="the first game seed of --generate-to")
    parser.add_argument("--worst", type=int, default=0, help="also list the N slowest positions per set")
    parser.add_argument(
        "--sets",
        default="",
        help="comma-separated names of the sets to run, in their order (default: all, the --set ones last)",
    )
    parser.add_argument(
        "--peak-memory",
        metavar="SET:ID,...",
        help="the peak resident memory each position adds, one fresh process each (then stop)",
    )
    parser.add_argument("--peak-one", nargs=2, metavar=("PATH", "ID"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peak_one:
        peak_one(Path(args.peak_one[0]), args.peak_one[1])
        return
    if args.generate_to:
        stem = args.generate_to.name.split(".")[0]
        rows = generate_rows(args.kind, args.count, args.first_seed, rng_seed=args.first_seed, prefix=stem)
        write_rows(args.generate_to, rows)
        return
    if args.generate:
        for kind in ("random", "agents"):
            generate(kind, args.count)
        return
    print("Fugitive exact belief, measure 'deals', sets one after another, caches kept (CPU ms)")
    print(f"  load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    every: list[dict[str, Any]] = []
    start_rss, start_caches = rss_mib(), caches_mib()
    reference = reference_times()
    sets = dict(SETS)
    references = {name: reference for name in sets}
    for extra in args.set:
        name, _, path = extra.partition("=")
        sets[name] = Path(path)
        references[name] = reference_times(ref_path(Path(path)))  # {} if not timed yet
    if args.peak_memory:
        peak_memory(sets, args.peak_memory)
        return
    if args.sets:
        unknown = [n for n in args.sets.split(",") if n not in sets]
        if unknown:
            parser.error(f"unknown sets {unknown}; known: {sorted(sets)}")
        sets = {n: sets[n] for n in sets if n in args.sets.split(",")}
    for name, path in sets.items():
        if not path.exists():
            print(f"  {name}: {path} missing (run --generate)")
            continue
        gc.unfreeze()
        rows = load(path)
        # the set's rows (1,000 records of history lists, 80-240k references) are the benchmark's,
        # not the library's: frozen, the collector's full passes walk only what the library keeps
        gc.freeze()
        if args.only:  # "set:id" or "id" (ids repeat across sets: the shared set has random-* ids)
            wanted = [
                w.split(":")[-1] for w in args.only.split(",") if ":" not in w or w.split(":")[0] == name
            ]
            rows = sorted((r for r in rows if r["id"] in wanted), key=lambda r: wanted.index(r["id"]))
            if not rows:
                continue
        every += rows
        run_set(name, rows, not args.no_locations, references[name], args.worst)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  peak resident memory of the process: {peak:.0f} MiB")
    print("  determinize (detective's seat) at the five positions with most face-down sprint cards:")
    determinize_times(every)
    if every:
        kept = caches_mib()
        before, after = caches_memory()
        print(
            f"  the caches' memory after the sets and determinize: {kept:.1f} MiB deep size"
            f" ({start_caches:.1f} at start, {caches_mib():.1f} after clear_caches());"
            f" resident {before:.1f} -> {after:.1f} MiB by clear_caches() (at start {start_rss:.1f} MiB)"
        )
    print(f"  load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
