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
from gamelib.fugitive.belief.bits import PAIR, U_SH, VALUE, VALUE_READS
from gamelib.fugitive.belief.build import ByReads
from gamelib.fugitive.belief.tables import FALL
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


def test_a_closing_value_layer_in_another_form_is_not_walked_as_an_open_one() -> None:
    """A value layer that closes its position weighs its closing in (not 1 under ``worlds``): kept in
    another form than by source (say by signature, as the open ones), the walk gives no total (the
    belief then counts the worlds again) rather than a wrong one."""
    for row in rows(RANDOM_V2, HARD_V2):
        prog = counted(row)
        saved = getattr(prog, both.KEPT)
        closing = [
            t
            for t, ((_, kind, _), kept) in enumerate(zip(prog.layers[:-1], saved, strict=False))
            if kind == VALUE and isinstance(kept, dict)  # not the last layer: its completions
        ]
        if closing:
            break
    else:
        raise AssertionError("no closing value layer")
    saved[closing[0]] = ByReads(VALUE_READS, {})
    assert both.world_total(prog) is None


def test_equal_delta_lists_at_equal_counts_are_converted_once() -> None:
    """A large pair layer's lists are shared by signatures with the same card counts, but distinct
    lists often hold the same moves: those are converted once (the same list object, which the
    compiled kernel also converts once), with the same worlds weights as one by one."""
    sh0, sh1 = U_SH[2], U_SH[3]
    moves = [(1 << sh0, 60), ((2 << sh0) + (1 << sh1), 960), (0, 5)]  # deals weights: divisible
    sig_a, sig_b, sig_c = (1 << sh0) | (2 << 40), (1 << sh0) | (3 << 40), 2 << sh0
    deltas = {sig_a: moves, sig_b: list(moves), sig_c: list(moves)}
    memo = both._convert_deltas(deltas, 6, 4, sh0, sh1)
    assert memo[sig_a] is memo[sig_b]  # equal moves, equal counts
    assert memo[sig_c] is not memo[sig_a]  # other counts: other factors
    for sig, converted in memo.items():
        u0, u1 = (sig >> sh0) & 31, (sig >> sh1) & 31
        factors = [FALL[6 - u0][(d >> sh0) & 31] * FALL[4 - u1][(d >> sh1) & 31] for d, _ in moves]
        assert all(w % f == 0 for (_, w), f in zip(moves, factors, strict=True))
        assert converted == [(d, w // f) for (d, w), f in zip(moves, factors, strict=True)]
