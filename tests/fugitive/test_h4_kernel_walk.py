"""The class-share walk's edge loops through the belief kernel (belief.marginals, belief.kernel):
when the compiled kernel is on, the value layers go through ``kernel.pull_tally`` / ``kernel.pull``,
the plain and delta pair layers through ``kernel.pull``, and the closing pair layers through two
pulls (share sums, completions) with the destinations whose weights cancel read per source.  The
share sums must be the loops' own integers.  Here the route is forced on (``kernel.COMPILED``) over
whatever ``kernel.pull`` is (compiled or the pure reference): the routing (masks, misses, summed
moves, cancelled destinations) is what is tested; test_hk_kernel tests the kernel itself."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

import gamelib
from gamelib.fugitive.belief import build, facts_from_state, kernel, marginals
from gamelib.fugitive.belief.build import backward
from gamelib.fugitive.belief.programme import Programme

DATA = Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz"


def programme(row_id: str) -> Programme:
    """The deals programme of a stored shared position (built afresh: a walk converts kept moves)."""
    with gzip.open(DATA, "rt") as handle:
        for line in handle:
            row = json.loads(line)
            if row["id"] == row_id:
                return build(facts_from_state(gamelib.from_record(row["record"])), "deals")
    raise KeyError(row_id)


def sums(shares: marginals.ClassShares) -> tuple[Any, ...]:
    return shares.total, shares.expect, shares.joint, shares.scale, shares.width


# random-102 and random-55: closing pair layers with destinations the count dropped (their weights
# cancel, their shares do not: 11 and 5 such moves); random-219: a delta pair layer too
@pytest.mark.parametrize("row_id", ["random-102", "random-55", "random-219"])
def test_the_kernel_route_gives_the_loops_sums(row_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernel, "COMPILED", False)
    reference = marginals.class_shares(programme(row_id))
    prog = programme(row_id)
    backward(prog)  # the count's own backward pass (its pulls are not the walk's)
    calls: dict[str, int] = {}

    def spy(name: str) -> Any:
        real = getattr(kernel, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            calls[name] = calls.get(name, 0) + 1
            return real(*args, **kwargs)

        return counted

    for name in ("pull", "pull_tally"):
        monkeypatch.setattr(kernel, name, spy(name))
    missing: list[int] = []
    real_missing = marginals._Walk.missing

    def counted_missing(self: marginals._Walk, t: int, state: int) -> tuple[int, int]:
        missing.append(t)
        return real_missing(self, t, state)

    monkeypatch.setattr(marginals._Walk, "missing", counted_missing)
    monkeypatch.setattr(kernel, "COMPILED", True)
    routed = marginals.class_shares(prog)
    assert calls.get("pull", 0) >= 2 and calls.get("pull_tally", 0) >= 1, calls
    if row_id == "random-102":  # (random-55's cancelled destinations are reached by other sources)
        assert missing, "no cancelled destination walked: the case is not exercised"
    assert sums(routed) == sums(reference)


def test_closed_moves_are_summed_by_destination() -> None:
    """:meth:`_Walk._closed` sums the moves that close into one destination (fewer edges), and keeps
    a destination whose weights cancel when its share weights do not."""
    prog = programme("random-102")
    walk = marginals._Walk(prog, marginals.share_scale(prog), 64, prog.closing)
    seen = cancelled = 0
    prog.closing = False
    for t, closer in enumerate(walk.closers):
        if closer is None or closer.first < 0:
            continue
        i, _, g = prog.layers[t]
        for sig in {src & closer.mask | src & marginals.PAIR_READS[g] for src in prog.forward[t]}:
            reads = marginals.PAIR_READS[g] | marginals.HALVES[g]
            hit = prog._pair_hit(i, g, sig & reads, False)
            entries = walk._closed(closer, hit, 0)
            bits = [b for b, _, _, _ in entries]
            assert len(bits) == len(set(bits))
            seen += len(hit) > len(entries)
            cancelled += any(not wf and wfs for _, wf, wfs, _ in entries)
    assert seen and cancelled
