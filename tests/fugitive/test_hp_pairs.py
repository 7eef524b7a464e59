"""A pair layer's moves on a signature's first visit are the reference's, item by item and in order.

* ``Programme._closed_deltas`` memoises a closed list in its delta key's split, on the hideout,
  even hideout and mark counts of the groups its moves can fill: the lists equal the per-signature
  closing (the code before, written out below) on real positions, and signatures share them.
* With the compiled kernel on (``kernel.COMPILED``), ``_pair_deltas``, ``_split_closable``,
  ``_delta_key`` and the closing loop of ``_closed_deltas`` run natively (``belief._pairs``): the same tuples in the same order as the pure methods, on every
  call real counts make and on drawn signatures (weights of every size, pending stacks); a
  signature that does not fit runs the pure method; with the kernel off the module is not called.
"""

from __future__ import annotations

import functools
import gzip
import importlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamelib
from gamelib.fugitive.belief import facts_from_state, kernel, programme
from gamelib.fugitive.belief.bits import (
    HALVES,
    HE_SH,
    JM,
    LEFT,
    M_SH,
    NEED,
    PAIR,
    PAIR_HIDEOUTS,
    PAIR_READS,
    U_SH,
)
from gamelib.fugitive.belief.build import build
from gamelib.fugitive.belief.programme import Programme
from gamelib.fugitive.rules import FugitiveState

build_module = importlib.import_module("gamelib.fugitive.belief.build")  # the module, not the function
ROOT = Path(__file__).resolve().parents[2]
RANDOM = ROOT / "benchmarks" / "data" / "fugitive_belief_random_v2.jsonl.gz"
HARD = ("random-225", "random-519")
Moves = list[tuple[int, int]]


def rows(ids: tuple[str, ...] = (), every: int = 0) -> list[dict[str, Any]]:
    """Rows of the random v2 set: the named ones, or every ``every``-th."""
    with gzip.open(RANDOM, "rt") as handle:
        out = [json.loads(line) for line in handle]
    if ids:
        return [row for row in out if row["id"] in ids]
    return out[::every]


def programmes(chosen: list[dict[str, Any]], measure: str) -> Iterator[Programme]:
    for row in chosen:
        state = gamelib.from_record(row["record"])
        assert isinstance(state, FugitiveState)
        yield build(facts_from_state(state), measure)


def closed_one_by_one(prog: Programme, i: int, g: int, sig: int) -> Moves:
    """The closed moves of ``sig`` as the code before the memo made them: its key's unclosed moves
    split, the closable ones closed for this signature alone, equal destinations summed."""
    bare = sig & ~PAIR_HIDEOUTS[g]
    deltas = prog._pair_deltas(i, g, bare)
    plain, closable, _ = prog._split_closable(g, bare, deltas)
    acc: dict[int, int] = {}
    for d, w in closable:
        dst = sig + d
        part = dst & HALVES[g]
        new, factor = prog._close_part(part, g)
        if factor:
            d = ((dst ^ part) | new) - sig
            acc[d] = acc.get(d, 0) + w * factor
    return plain + [(d, w) for d, w in acc.items() if w]


@pytest.mark.parametrize("measure", ["deals", "worlds"])
def test_closed_lists_are_memoised_exactly(monkeypatch: pytest.MonkeyPatch, measure: str) -> None:
    monkeypatch.setattr(build_module, "SHARE_OPEN", 60)  # the large layers' path on smaller positions
    seen: list[tuple[Programme, int, int, int, Moves]] = []
    original = Programme._closed_deltas

    def recording(self: Programme, i: int, g: int, sig: int, bare_moves: dict[int, Moves]) -> Moves:
        out = original(self, i, g, sig, bare_moves)
        seen.append((self, i, g, sig, out))
        return out

    monkeypatch.setattr(Programme, "_closed_deltas", recording)
    for _ in programmes(rows(HARD) + rows(every=40), measure):
        pass
    monkeypatch.undo()
    first: dict[int, int] = {}  # a returned list's id -> the first signature it served
    shared = closed = 0
    for prog, i, g, sig, out in seen:
        reference = closed_one_by_one(prog, i, g, sig)
        assert out == reference
        if out and first.setdefault(id(out), sig) != sig:
            shared += len(out) != len(prog._split_closable(g, sig & ~PAIR_HIDEOUTS[g], out)[0])
        closed += 1
    assert closed >= 3000
    assert shared >= 300  # signatures served a closed list another signature made


def native() -> None:
    if programme._pairs is None or not kernel.COMPILED:
        pytest.skip("the compiled kernel (and belief._pairs) is not built or is turned off")


@pytest.mark.parametrize("measure", ["deals", "worlds"])
def test_native_pair_moves_are_the_pure_ones(monkeypatch: pytest.MonkeyPatch, measure: str) -> None:
    native()
    monkeypatch.setattr(build_module, "SHARE_OPEN", 60)
    seen: list[tuple[Programme, int, int, int, Moves]] = []
    original = Programme._pair_deltas

    def recording(self: Programme, i: int, g: int, sig: int) -> Moves:
        out = original(self, i, g, sig)
        seen.append((self, i, g, sig, out))
        return out

    monkeypatch.setattr(Programme, "_pair_deltas", recording)
    for _ in programmes(rows(HARD) + rows(every=50), measure):
        pass
    monkeypatch.undo()
    moves = 0
    for prog, i, g, sig, out in seen:
        split = prog._split_closable(g, sig, out)
        key = prog._delta_key(i, g, sig)
        with monkeypatch.context() as patch:
            patch.setattr(programme, "_pairs", None)
            assert out == prog._pair_deltas(i, g, sig)
            assert split == prog._split_closable(g, sig, out)
            assert key == prog._delta_key(i, g, sig)
        assert all(type(d) is int and type(w) is int for d, w in out)
        moves += len(out)
    assert len(seen) >= 3000 and moves >= 10000


def layers_of(prog: Programme) -> list[tuple[int, int]]:
    return [(i, g) for i, kind, g in prog.layers if kind == PAIR]


@functools.cache
def hard_programme() -> Programme:
    """random-225's deals programme (its forward states kept: the drawn signatures start there)."""
    return next(programmes(rows(("random-225",)), "deals"))


FIELDS = [(LEFT, 63), (NEED, 127), (JM, 63)] + [
    (sh[x], 31 if sh is U_SH else 15) for sh in (U_SH, HE_SH, M_SH) for x in range(4)
]
"""A pair signature's fields (shift, mask) that the draws move."""


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    layer=st.integers(0, 10**6),
    state=st.integers(0, 10**9),
    changes=st.lists(st.tuples(st.integers(0, len(FIELDS) - 1), st.integers(-3, 3)), max_size=4),
    pending=st.booleans(),
)
def test_drawn_signatures(layer: int, state: int, changes: list[tuple[int, int]], pending: bool) -> None:
    """A real programme's pair-layer signatures with up to four fields moved (counts, scratch, even
    hideouts and marks, each within its field; the stack pending or not): native and pure moves,
    splits and keys equal."""
    native()
    prog = hard_programme()
    pairs = [(t, i, g) for t, (i, kind, g) in enumerate(prog.layers) if kind == PAIR and prog.forward[t]]
    t, i, g = pairs[layer % len(pairs)]
    states = list(prog.forward[t])
    sig = states[state % len(states)] & PAIR_READS[g]
    for field, step in changes:
        sh, mask = FIELDS[field]
        value = min(mask, max(0, ((sig >> sh) & mask) + step))
        sig = (sig & ~(mask << sh)) | value << sh
    was = prog.pending_pos
    try:
        prog.pending_pos = i if pending else was
        out = prog._pair_deltas(i, g, sig)
        split = prog._split_closable(g, sig, out)
        key = prog._delta_key(i, g, sig)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(programme, "_pairs", None)  # the pure methods
            assert out == prog._pair_deltas(i, g, sig)
            assert split == prog._split_closable(g, sig, out)
            assert key == prog._delta_key(i, g, sig)
    finally:
        prog.pending_pos = was


def test_what_does_not_fit_runs_pure(monkeypatch: pytest.MonkeyPatch) -> None:
    native()
    pairs: Any = programme._pairs  # (called with arguments that do not fit, on purpose)
    prog = hard_programme()
    i, g = layers_of(prog)[-1]
    caps = prog.ahead_caps[i][0]
    args = (
        caps[0],
        caps[1],
        prog.avail,
        prog.slots[i],
        False,
        programme.COMB,
        programme.FALL,
        programme.COEFS,
    )
    sig = 3 << LEFT
    assert pairs.pair_deltas(sig, g, *args) is not None
    for bad in (-1, 1 << 100, 1 << 130):
        assert pairs.pair_deltas(bad, g, *args) is None
        assert pairs.split_closable(bad, g, 1, 1, []) is None
    assert pairs.pair_deltas(sig, g, caps[0], caps[1], prog.avail, prog.slots[i], False, (), [], []) is None
    assert pairs.pair_deltas(sig, g, (1, 2), caps[1], prog.avail, prog.slots[i], False, [], [], []) is None
    assert pairs.split_closable(sig, g, 1, 1, [(1 << 130, 1)]) is None
    memo: dict[int, tuple[int, int]] = {}
    assert pairs.close_moves(sig, g, [], [(1 << 130, 1)], memo, prog._close_part) is None
    assert pairs.close_moves(sig, g, [], [(0, 1, 2)], memo, prog._close_part) is None
    assert pairs.close_moves(1 << 100, g, [], [], memo, prog._close_part) is None
    assert pairs.close_moves(sig, g, [], [(0, 1)], memo, lambda part, g: [part, 1]) is None  # not a tuple
    assert list(memo.values()) == [[sig & HALVES[g], 1]]  # (kept, as the loop keeps what it made)
    assert pairs.delta_key(1 << 100, i, g, prog.avail) is None
    assert pairs.delta_key(sig, 1 << 40, g, prog.avail) is None
    assert pairs.delta_key(sig, i, g, (1, 2)) is None
    assert pairs.split_closable(sig, g, 1, 1, [(1, 1, 1)]) is None
    with monkeypatch.context() as patch:
        patch.setattr(programme, "_pairs", None)
        pure = prog._pair_deltas(i, g, sig | 1 << 100)
    assert prog._pair_deltas(i, g, sig | 1 << 100) == pure

    class Refusing:
        def __getattr__(self, name: str) -> Any:
            raise AssertionError(f"_pairs.{name} called with the kernel off")

    monkeypatch.setattr(programme, "_pairs", Refusing())
    monkeypatch.setattr(kernel, "COMPILED", False)
    prog._pair_deltas(i, g, sig)
    prog._split_closable(g, sig, [])
    prog._delta_key(i, g, sig)
    bare_moves: dict[int, Moves] = {}
    prog.split_memo = {}
    prog._closed_deltas(i, g, sig, bare_moves)
    prog.split_memo = {}
