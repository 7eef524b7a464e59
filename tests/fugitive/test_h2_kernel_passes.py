"""The world count's passes over the deals count's kept moves run on the belief's edge loops
(:func:`gamelib.fugitive.belief.kernel.push`): each pass converts a signature's moves to worlds
weights once and hands the layer to the kernel, with the same totals as the stored counts."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

import gamelib
from gamelib.fugitive.belief import Programme, backward, both, build, facts_from_state, kernel
from gamelib.fugitive.belief.bits import PAIR, VALUE
from gamelib.fugitive.belief.build import ByReads
from gamelib.fugitive.rules import FugitiveState

DATA = Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz"
RANDOM_V2 = Path(__file__).parents[2] / "benchmarks" / "data" / "fugitive_belief_random_v2.jsonl.gz"
HARD_V2 = ("random-415", "random-64", "random-273", "random-886", "random-612")
"""Random v2 positions with large programmes (11k-55k edges): pair layers kept as parts and as
deltas, value layers that close their position and that do not."""


def rows(path: Path, ids: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
    with gzip.open(path, "rt") as handle:
        out = [json.loads(line) for line in handle]
    return out if ids is None else [row for row in out if row["id"] in ids]


def counted(row: dict[str, Any]) -> Programme:
    """The deals count as the belief makes it: built, its moves kept, walked backward."""
    state = gamelib.from_record(row["record"])
    assert isinstance(state, FugitiveState)
    prog = build(facts_from_state(state), "deals")
    both.keep_moves(prog)
    backward(prog)
    return prog


@pytest.mark.parametrize("compiled", [True, False])
def test_the_world_count_s_passes_run_on_the_kernel(monkeypatch: pytest.MonkeyPatch, compiled: bool) -> None:
    """One :func:`~gamelib.fugitive.belief.kernel.push` per pair layer and per value layer that
    does not close (the closing ones and the last layer are summed in :mod:`~.both`) when the
    kernel runs compiled (here its pure reference stands in), none on the pure path (the same
    loops without the pure push's bookkeeping); the stored world count either way."""
    calls: list[int] = []

    def counting(states: dict[int, int], reads: int, *args: Any) -> tuple[dict[int, int], int]:
        calls.append(reads)
        return kernel.push_pure(states, reads, *args)

    kinds: set[tuple[int, str]] = set()
    for row in rows(RANDOM_V2, HARD_V2):
        prog = counted(row)
        saved = getattr(prog, both.KEPT)
        walked = [
            kept.reads
            for t, ((_, kind, _), kept) in enumerate(zip(prog.layers, saved, strict=True))
            if kind in (PAIR, VALUE) and isinstance(kept, ByReads) and not (prog.tail and t == len(saved) - 1)
        ]
        kinds |= {
            (kind, "deltas" if kept.deltas is not None else "memo")
            if isinstance(kept, ByReads)
            else (kind, "")
            for (_, kind, _), kept in zip(prog.layers[:-1], saved, strict=False)
        }
        calls.clear()
        with monkeypatch.context() as patch:
            patch.setattr(kernel, "COMPILED", compiled)
            patch.setattr(kernel, "push", counting)
            assert both.world_total(prog) == row["worlds"] * prog.stacks, row["id"]
        assert calls == (walked if compiled else []), row["id"]
    assert {(PAIR, "memo"), (PAIR, "deltas"), (VALUE, "memo"), (VALUE, "")} <= kinds


def test_a_pair_layer_s_parts_have_no_bit_outside_what_it_reads() -> None:
    """What lets a pair pass hand ``rest | part`` to the kernel as ``(src & ~reads) + part``."""
    checked = 0
    for row in [*rows(RANDOM_V2, HARD_V2), *rows(DATA)[::20]]:
        prog = counted(row)
        for (_, kind, _), kept in zip(prog.layers, getattr(prog, both.KEPT), strict=True):
            if kind == PAIR and isinstance(kept, ByReads) and kept.deltas is None:
                for moves in kept.memo.values():
                    assert all(part & ~kept.reads == 0 for part, _ in moves), row["id"]
                    checked += len(moves)
    assert checked > 1000
