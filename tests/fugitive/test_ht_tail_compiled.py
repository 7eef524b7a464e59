"""The last layer's closed-form sums compiled (``belief._tail.tail_bilinear``, used by
:mod:`gamelib.fugitive.belief.tail_sums` when :data:`~gamelib.fugitive.belief.kernel.COMPILED`):
the same back dict (items in order), total, move count and value tallies as the pure sums on every
tail call of real positions, the pure path kept by the kernel's switch, and a value beyond the
native range (weights past 64 bits, sums past 128) handing the layer to the pure sums."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamelib
from gamelib.fugitive import belief as belief_module
from gamelib.fugitive.belief import kernel, tail_sums
from gamelib.fugitive.belief.bits import GROUP_BITS, U_SH
from gamelib.fugitive.rules import FugitiveState

ROOT = Path(__file__).resolve().parents[2]
RANDOM = ROOT / "benchmarks" / "data" / "fugitive_belief_random_v2.jsonl.gz"
SHARED = Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz"
HARD = ("random-225", "random-519", "random-330")
"""The random v2 positions with the largest last layers (3-10k sources)."""

compiled_only = pytest.mark.skipif(
    tail_sums._tail is None or not kernel.COMPILED, reason="belief._tail not built (or turned off)"
)

Call = tuple[str, Any, int, dict[int, int]]
TAIL_CALLS = {"layer": tail_sums.tail_layer, "total": tail_sums.tail_total}
"""The functions under test (the counts below call them through wrappers)."""


def rows(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rt") as handle:
        return [json.loads(line) for line in handle]


@contextmanager
def switch(on: bool) -> Iterator[None]:
    """The kernel's switch (which this module's compiled path reads at call time) for a block."""
    was = kernel.COMPILED
    kernel.use_compiled(on)
    try:
        yield
    finally:
        kernel.use_compiled(was)


def run(kind: str, prog: Any, i: int, states: dict[int, int], least: int | None = None) -> Any:
    """One tail call and what it left: (result, back items in order, tallies)."""
    prog.tail_tally = None
    out: Any = TAIL_CALLS[kind](prog, i, states, least)
    if out is None:
        return None
    items = list(out[0].items()) if kind == "layer" else None
    return out, items, prog.tail_tally


class Bilinear:
    """Counts the compiled calls and how many handed the layer back (None)."""

    def __init__(self) -> None:
        assert tail_sums._tail is not None
        self.inner = tail_sums._tail.tail_bilinear
        self.ok = self.none = 0

    def __call__(self, *args: Any) -> Any:
        out = self.inner(*args)
        if out is None:
            self.none += 1
        else:
            self.ok += 1
        return out


def real_calls(
    chosen: list[dict[str, Any]], check: Callable[[str, Any, int, dict[int, int], Any], None]
) -> int:
    """Counts every position of ``chosen`` (belief, then worlds); each tail call the count makes
    is run by ``check`` first.  Returns the number of tail calls taken."""
    taken = 0
    layer, total = tail_sums.tail_layer, tail_sums.tail_total

    def wrap(kind: str, fn: Any) -> Any:
        def inner(prog: Any, i: int, states: dict[int, int], least: int | None = None) -> Any:
            nonlocal taken
            out = fn(prog, i, states, least)
            if out is not None:
                taken += 1
                check(kind, prog, i, states, least)
            return out

        return inner

    patch = pytest.MonkeyPatch()
    patch.setattr(tail_sums, "tail_layer", wrap("layer", layer))
    patch.setattr(tail_sums, "tail_total", wrap("total", total))
    try:
        for row in chosen:
            belief_module.clear_caches()  # (a cached count makes no tail call)
            state = gamelib.from_record(row["record"])
            assert isinstance(state, FugitiveState)
            b = belief_module.belief(state)
            assert b.mass == row["deal_weighted_mass"]
            assert b.worlds == row.get("worlds", b.worlds)
    finally:
        patch.undo()
    return taken


def same_both_ways(kind: str, prog: Any, i: int, states: dict[int, int], least: Any) -> None:
    with switch(False):
        pure = run(kind, prog, i, states, least)
    with switch(True):
        compiled = run(kind, prog, i, states, least)
    assert compiled == pure


@compiled_only
def test_equal_on_real_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    counted = Bilinear()
    monkeypatch.setattr(tail_sums._tail, "tail_bilinear", counted)
    random_rows = rows(RANDOM)
    chosen = random_rows[:200] + [row for row in random_rows if row["id"] in HARD]
    chosen += [row for row in rows(SHARED) if row["id"] in ("random-183", "random-24", "random-255")]
    taken = real_calls(chosen, same_both_ways)
    assert taken >= 40
    assert counted.ok == 2 * taken and counted.none == 0  # every call summed compiled (count, check)


@compiled_only
def test_switch_selects_the_pure_sums(monkeypatch: pytest.MonkeyPatch) -> None:
    counted = Bilinear()
    monkeypatch.setattr(tail_sums._tail, "tail_bilinear", counted)
    hard = [row for row in rows(RANDOM) if row["id"] == "random-519"]
    with switch(False):
        assert real_calls(hard, lambda *_: None) > 0
    assert counted.ok + counted.none == 0
    assert real_calls(hard, lambda *_: None) > 0
    assert counted.ok > 0


def layers_of(ident: str) -> list[Call]:
    """The tail calls (kind, programme, layer, states) of one random v2 position's count."""
    calls: list[Call] = []

    def keep(kind: str, prog: Any, i: int, states: dict[int, int], least: Any) -> None:
        calls.append((kind, prog, i, dict(states)))

    real_calls([row for row in rows(RANDOM) if row["id"] == ident], keep)
    return calls


LAYERS: list[Call] = []


def small_layers() -> list[Call]:
    """random-519's tail calls (a layer and a total), cut to their first 300 sources (the bounds
    below scale them)."""
    if not LAYERS:
        LAYERS.extend((k, p, i, dict(list(s.items())[:300])) for k, p, i, s in layers_of("random-519"))
        assert {k for k, _, _, _ in LAYERS} == {"layer", "total"}
    return LAYERS


@compiled_only
@pytest.mark.parametrize("shift", [0, 1, 4, 5, 30, 58, 59, 60, 62, 63, 64, 65, 100, 127, 128, 140])
def test_weights_at_the_bounds(shift: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Weights scaled by 2**shift (and some negated, some 0): the same as the pure sums, the
    compiled call taking them while they fit 64 bits and the sums 128, else handing them back."""
    layers = small_layers()
    counted = Bilinear()
    monkeypatch.setattr(tail_sums._tail, "tail_bilinear", counted)
    wide = 0
    for kind, prog, i, states in layers:
        scaled = {src: (w << shift) * (-1 if n % 3 == 1 else 0 if n % 7 == 2 else 1)
                  for n, (src, w) in enumerate(states.items())}  # fmt: skip
        wide += max(abs(w) for w in scaled.values()).bit_length() > 63
        with switch(False):
            pure = run(kind, prog, i, scaled, 1)
        with switch(True):
            assert run(kind, prog, i, scaled, 1) == pure
    assert counted.ok + counted.none == len(layers)
    assert counted.none >= wide  # a weight beyond 64 bits: the pure sums serve
    if shift <= 4:
        assert counted.none == 0


@compiled_only
@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.integers(-(1 << 63), (1 << 63) - 1),
            st.integers(-(1 << 130), 1 << 130),
            st.sampled_from([0, 1, -1, (1 << 63) - 1, -(1 << 63), 1 << 63, -(1 << 63) - 1, (1 << 127) - 1]),
        ),
        min_size=1,
        max_size=40,
    ),
    st.integers(0, 1),
)
def test_weights_anywhere(weights: list[int], which: int) -> None:
    """Any weights (up to 2**130, either sign, 0) on a real layer's first sources: the same as
    the pure sums (the compiled call takes them or hands them back)."""
    layers = small_layers()
    kind, prog, i, states = layers[which % len(layers)]
    chosen = {src: weights[n % len(weights)] for n, src in enumerate(list(states)[:60])}
    with switch(False):
        pure = run(kind, prog, i, chosen, 1)
    with switch(True):
        assert run(kind, prog, i, chosen, 1) == pure


@compiled_only
def test_values_outside_the_native_range_hand_back() -> None:
    """The compiled call itself returns None (nothing summed) for a source key it cannot hold, a
    suffix sum beyond 64 bits or a weight beyond them; on the real values it returns the sums."""
    assert tail_sums._tail is not None
    _, prog, i, states = small_layers()[0]
    tail = tail_sums.Tail(prog, i, states)
    lflats = {h: tail.flats[0].get(h) or tail.flat(0, h) for h in tail.lows}

    def call(states: dict[int, int], scaled: Any = tail._scaled, suffixes: Any = tail._suffixes) -> Any:
        return tail_sums._tail.tail_bilinear(  # type: ignore[union-attr]
            states, tail.sig_ids, tail_sums.VALUE_READS, tail_sums.HIGH, tail_sums.LOW, lflats,
            tail.flat, tail.t_of, scaled, suffixes, tail_sums.GROUP_KEYS[2], tail_sums.GROUP_KEYS[3],
            tail.steps, tail.gidx, True, tail_sums.ID, tail.size,
        )  # fmt: skip

    assert call(states) is not None
    src = next(iter(states))
    assert call({**states, src: 1 << 63}) is None
    assert call({-1: 1, **states}) is None
    assert call({(1 << 128) + src: 1, **states}) is None

    def wide(first: int, p: Any, q: Any, t: int) -> tuple[int, tuple[int, ...]]:
        need, sums = tail._suffixes(first, p, q, t)
        return need, tuple(x + (1 << 63) for x in sums)

    def big_factor(g: int, h: int) -> tuple[int, int, Any]:
        _, sid, rows = tail._scaled(g, h)
        return 1 << 64, sid, rows

    assert call(states, suffixes=wide) is None
    assert call(states, scaled=big_factor) is None


ROWS = st.lists(
    st.lists(
        st.tuples(
            st.integers(0, 12),
            st.one_of(st.integers(-(1 << 40), 1 << 40), st.integers(-(1 << 70), 1 << 70), st.just(0)),
        ),
        max_size=4,
    ),
    max_size=7,
)


@compiled_only
@settings(max_examples=60, deadline=None)
@given(ROWS, ROWS, st.sampled_from([0, 1]), st.sampled_from([0, 2]))
def test_suffixes_equal_the_loops(
    p: list[list[tuple[int, int]]], q: list[list[tuple[int, int]]], cap: int, first: int
) -> None:
    """A half's suffix sums (``Tail._suffixes``) compiled equal the pure loops for rows with
    weights up to 2**70 of either sign (the compiled call hands back what leaves 128 bits)."""
    _, prog, i, states = small_layers()[0]
    tail = tail_sums.Tail(prog, i, states)
    t = cap * tail.top
    with switch(False):
        pure = tail._suffixes(first, p, q, t)
    with switch(True):
        assert tail._suffixes(first, p, q, t) == pure
    native = tail_sums._tail.suffixes(p, q, tail.n, tail.top, t, first == 0, tail_sums.COMB)  # type: ignore[union-attr]
    assert native is None or native == pure[1]
    small = all(abs(x) < 1 << 40 for rows in (p, q) for row in rows for _, x in row)
    if small:
        assert native == pure[1]  # (products within 2**80 * C(n, a) * C(a, k): no hand-back)


@compiled_only
@settings(max_examples=60, deadline=None)
@given(ROWS, ROWS, st.sampled_from([0, 2]))
def test_flats_equal_the_loops(
    p: list[list[tuple[int, int]]], q: list[list[tuple[int, int]]], first: int
) -> None:
    """A half's flat (``Tail.flat``) compiled equals the pure loops for rows with weights up to
    2**70 of either sign (the compiled call hands back what leaves 128 bits)."""
    _, prog, i, states = small_layers()[0]
    tail = tail_sums.Tail(prog, i, states)
    state = next(iter(states))
    tail.polys[(first, (state >> U_SH[first]) & 31, state & GROUP_BITS[first])] = p
    tail.polys[(first + 1, (state >> U_SH[first + 1]) & 31, state & GROUP_BITS[first + 1])] = q
    with switch(False):
        pure = tail.flat(first, state)
    with switch(True):
        assert tail.flat(first, state) == pure
    native = tail_sums._tail.flat_rows(p, q, tail.n, tail.off, tail.width, first == 0, tail_sums.COMB)  # type: ignore[union-attr]
    assert native is None or native == pure
    if all(abs(x) < 1 << 40 for rows in (p, q) for row in rows for _, x in row):
        assert native == pure


@compiled_only
def test_distinct_pairs_in_the_same_order() -> None:
    """``_tail.distinct`` gives the set ``Tail`` makes of the sources' (signature, low half)
    pairs, iterated in the same order (its item sets are numbered in that order), and None for a
    key outside [0, 2**128)."""
    assert tail_sums._tail is not None
    for _, _, _, states in small_layers():
        for mask in (tail_sums.KEY_LOW, tail_sums.LOW, tail_sums.VALUE_READS, (1 << 130) - 1):
            native = tail_sums._tail.distinct(states, mask)
            assert native is not None
            assert list(native) == list(set(map(mask.__and__, states)))
    assert tail_sums._tail.distinct({5: 1, -1: 1}, tail_sums.KEY_LOW) is None
    assert tail_sums._tail.distinct({1 << 128: 1}, tail_sums.KEY_LOW) is None


@compiled_only
@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.lists(
            st.tuples(
                st.integers(0, 12),
                st.one_of(
                    st.integers(-(1 << 62), 1 << 62).map(lambda x: x * 6),
                    st.integers(-(1 << 64), 1 << 64),
                    st.sampled_from([1, -1, 0, -(1 << 63), (1 << 63) - 1]),
                ),
            ),
            max_size=4,
        ),
        max_size=6,
    )
)
def test_scaled_rows_equal_the_loops(rows: list[list[tuple[int, int]]]) -> None:
    """A group's rows divided by their gcd (``Tail._scaled``): compiled, the same gcd, rows and
    shape id as the pure loops (weights past 64 bits hand back to them)."""
    _, prog, i, states = small_layers()[0]
    state = next(iter(states))
    got = []
    for on in (False, True):
        tail = tail_sums.Tail(prog, i, states)
        tail.polys[(2, (state >> U_SH[2]) & 31, state & GROUP_BITS[2])] = rows
        with switch(on):
            got.append((tail._scaled(2, state), list(tail.shapes)))
    assert got[0] == got[1]
    native = tail_sums._tail.scaled(rows)  # type: ignore[union-attr]
    if all(-(1 << 63) < x < 1 << 63 for row in rows for _, x in row):
        assert native is not None and native[0] == got[0][0][0] and native[1] == got[0][0][2]
    else:
        assert native is None


@compiled_only
@given(st.lists(st.lists(st.one_of(st.just(0), st.integers(-(1 << 130), 1 << 130)), max_size=8), max_size=6))
def test_nonzero_pairs_equal_the_listcomp(rows: list[list[int]]) -> None:
    """A group's rows as their nonzero (even cards, weight) pairs (``Tail._poly``), compiled: the
    same lists as the list comprehension, for any ints, rows given as lists or tuples."""
    assert tail_sums._tail is not None
    expected = [[(e, x) for e, x in enumerate(row) if x] for row in rows]
    assert tail_sums._tail.nonzero_pairs(rows) == expected
    assert tail_sums._tail.nonzero_pairs(tuple(map(tuple, rows))) == expected
    assert tail_sums._tail.nonzero_pairs({0: 1}) is None  # type: ignore[arg-type]
