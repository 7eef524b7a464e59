"""The class-share walk's value layer that closes its position (belief.marginals): its moves are
read once per signature (the memoised (delta, weight, value) lists, as the plain value layers read
them), not made into a list per source and closed per source.  The card locations' equality with the
brute-force listing is tested in test_belief_locations and the h4 tail-shares tests."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import gamelib
from gamelib.fugitive.belief import build, facts_from_state, marginals
from gamelib.fugitive.belief.bits import VALUE, VALUE_READS
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


def test_a_closing_value_layer_reads_its_moves_once_per_signature() -> None:
    prog = programme("random-54")
    closing = [
        t
        for t, (i, kind, _) in enumerate(prog.layers)
        if kind == VALUE and not prog.stack[i] and i != prog.npos and i != prog.pending_pos
    ]
    assert closing, "no value layer closes its position here"
    sizes = {
        prog.layers[t][0]: (len(prog.forward[t]), len({s & VALUE_READS for s in prog.forward[t]}))
        for t in closing
    }
    assert any(sources > 2 * signatures for sources, signatures in sizes.values())
    calls: dict[int, int] = {}
    real = prog._memo_value_moves

    def counting(i: int, src: int, memo: dict[int, Any], closes: bool) -> Any:
        calls[i] = calls.get(i, 0) + 1
        return real(i, src, memo, closes)

    prog._memo_value_moves = counting  # type: ignore[method-assign]
    marginals.class_shares(prog)
    for i, (sources, signatures) in sizes.items():
        assert calls.get(i, 0) <= signatures < sources, (i, calls.get(i, 0), signatures, sources)
