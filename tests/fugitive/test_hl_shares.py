"""The card locations' last layer compiled (belief._shares, used by belief.marginals_tail when the
kernel is on): the same integers as the pure loops on real positions, and its wide sums exact at
the digit and 128-bit boundaries, any sign."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamelib
from gamelib.fugitive.belief import build, facts_from_state, kernel, marginals, marginals_tail
from gamelib.fugitive.belief.programme import Programme

shares_c = marginals_tail._shares
pytestmark = pytest.mark.skipif(
    shares_c is None or not kernel.COMPILED, reason="_shares or the kernel not built"
)

ROOT = Path(__file__).resolve().parents[2]
RANDOM = ROOT / "benchmarks" / "data" / "fugitive_belief_random_v2.jsonl.gz"
SHARED = Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz"


def programme(path: Path, row_id: str) -> Programme:
    """The deals programme of a stored position, built afresh."""
    with gzip.open(path, "rt") as handle:
        for line in handle:
            row = json.loads(line)
            if row["id"] == row_id:
                return build(facts_from_state(gamelib.from_record(row["record"])), "deals")
    raise KeyError(row_id)


@pytest.fixture
def compiled_restored() -> Iterator[None]:
    """Whatever a test switches, the kernel ends as it started."""
    was = kernel.COMPILED
    try:
        yield
    finally:
        kernel.use_compiled(was)


def shares_both_ways(path: Path, row_id: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any, int, int]:
    """class_shares compiled, then pure (each on a programme of its own), and the compiled loop's
    calls (its vectors' calls must not fail over to the pure loop)."""
    calls = []
    real, real_dots, real_closed = shares_c.last_layer, shares_c.dots, shares_c.closed
    failed: list[BaseException] = []
    closings: list[bool] = []

    def closing(*args: Any) -> Any:
        split = real_closed(*args)
        closings.append(split is not NotImplemented)
        return split

    def counting(*args: Any) -> Any:
        calls.append(len(args[0]))
        return real(*args)

    def watched(*args: Any) -> Any:
        try:
            return real_dots(*args)
        except Exception as error:
            failed.append(error)
            raise

    monkeypatch.setattr(shares_c, "last_layer", counting)
    monkeypatch.setattr(shares_c, "dots", watched)
    monkeypatch.setattr(shares_c, "closed", closing)
    kernel.use_compiled(True)
    compiled = marginals.class_shares(programme(path, row_id))
    assert not failed, failed
    assert all(closings), "a closing pair layer's moves were refused"
    kernel.use_compiled(False)
    pure_calls, closed_calls = len(calls), len(closings)
    pure = marginals.class_shares(programme(path, row_id))
    assert len(calls) == pure_calls and len(closings) == closed_calls, "the pure switch still ran compiled"
    return compiled, pure, pure_calls, closed_calls


def ints(shares: Any) -> tuple[Any, ...]:
    return shares.total, shares.expect, tuple(shares.joint), shares.scale, shares.width


# random-6 and random-40: item sets without high moves and sources with hideouts in groups 0/1;
# random-36, random-101: low moves beside high ones; random-5: high moves only
@pytest.mark.parametrize("row_id", ["random-5", "random-6", "random-36", "random-40", "random-101"])
def test_compiled_last_layer_gives_the_pure_ints(
    row_id: str, monkeypatch: pytest.MonkeyPatch, compiled_restored: None
) -> None:
    compiled, pure, calls, _ = shares_both_ways(RANDOM, row_id, monkeypatch)
    assert calls == 1, "the last layer did not run compiled"
    assert ints(compiled) == ints(pure)


@pytest.mark.parametrize("row_id", ["agents-2", "random-54", "random-100"])
def test_compiled_small_layers_give_the_pure_ints(
    row_id: str, monkeypatch: pytest.MonkeyPatch, compiled_restored: None
) -> None:
    monkeypatch.setattr(marginals_tail, "FROM", 0)  # every last layer through the bilinear route
    compiled, pure, calls, _ = shares_both_ways(SHARED, row_id, monkeypatch)
    assert calls >= 1
    assert ints(compiled) == ints(pure)


# random-519, random-330: closing pair layers (their moves closed compiled, one pull per layer)
@pytest.mark.parametrize("row_id", ["random-519", "random-330"])
def test_compiled_closing_pairs_give_the_pure_ints(
    row_id: str, monkeypatch: pytest.MonkeyPatch, compiled_restored: None
) -> None:
    compiled, pure, _, closed = shares_both_ways(RANDOM, row_id, monkeypatch)
    assert closed > 100, "the closing pair layers did not run compiled"
    assert ints(compiled) == ints(pure)


def test_closed_splits_as_the_walk_does() -> None:
    """Moves closing into one destination summed (first-reached order), cancelled ones apart, the
    settled ones after their move at ``bits | flag`` (or in their own list without a flag)."""
    mask = 0b1111 << 4
    memo = {0b0001 << 4: (0b1000 << 4, 3, 1 << 900), 0b0010 << 4: (0b1000 << 4, -3, 5)}
    shut_keys: list[int] = []

    def shut(key: int) -> tuple[int, int, int]:
        shut_keys.append(key)
        memo[key] = (0, 0, 7) if key == 0b0100 << 4 else (key, 2, 0)
        return memo[key]

    hit = [(1 | 0b0001 << 4, 2), (1 | 0b0010 << 4, 2), (2 | 0b0100 << 4, 9), (3 | 0b0011 << 4, -1)]
    dst = 1 | 0b1000 << 4
    cancelled = [(dst, 2 * (1 << 900) + 10)]
    plain = ([(3 | 0b0011 << 4, -2)], [], cancelled)
    assert shares_c.closed(hit, 0, mask, memo, shut, 0) == plain
    assert shut_keys == [0b0100 << 4, 0b0011 << 4]
    hit2 = [(1 | 0b0001 << 4, 1), (5, 1)]
    memo[0] = (0, 4, 6)
    assert shares_c.closed(hit2, 0, mask, memo, shut, 0) == (
        [(dst, 3), (5, 4)],
        [(dst, 1 << 900), (5, 6)],
        [],
    )
    flagged = [(dst, 3), (dst | 1 << 100, 1 << 900), (5, 4), (5 | 1 << 100, 6)]
    assert shares_c.closed(hit2, 0, mask, memo, shut, 1 << 100) == (flagged, [], [])
    assert shares_c.closed(hit2, 0, mask, memo, shut, 3) is NotImplemented  # not a power of two
    assert shares_c.closed(hit2, 0, mask, memo, shut, 1 << 4) is NotImplemented  # a destination above it
    assert shares_c.closed([(1 << 128, 1)], 0, mask, memo, shut, 0) is NotImplemented


def test_a_source_beyond_128_bits_is_refused_untouched() -> None:
    out: dict[int, int] = {}
    seen: list[int] = []

    def miss(key: int) -> tuple[list[int], list[int]]:
        seen.append(key)
        return [1], [1]

    args = (
        {5: 1, 1 << 128: 1},
        (1 << 128) - 1,
        {5: (0, []), 1 << 128: (0, [])},
        3,
        4,
        0,
        {4: [(0, 1, 1)], 0: [(0, 1, 1)]},
        {},
        miss,
        lambda *a: 0,
        10,
        1,
        True,
        out,
    )
    assert shares_c.last_layer(*args) is NotImplemented
    assert out == {} and seen == []


EDGES = [0, 1, 29, 30, 31, 59, 60, 61, 62, 63, 64, 65, 127, 128, 129, 300, 930, 2000]


@st.composite
def wide(draw: Any) -> int:
    """An int at or near a power of two that matters (digits, 64 and 128 bits, the share sums)."""
    k = draw(st.sampled_from(EDGES))
    v = (
        (1 << k) + draw(st.integers(-3, 3))
        if draw(st.booleans())
        else draw(st.integers(0, (1 << k) - 1 if k else 0))
    )
    return -v if draw(st.booleans()) else v


def dot_pure(entries: list[tuple[int, int, int]], y: list[int], z: list[int], shift: int) -> int:
    high = low = 0
    for j, aw, as_ in entries:
        high += aw * y[j]
        low += as_ * z[j]
    return low + (high << shift)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(wide(), min_size=1, max_size=4).flatmap(
        lambda y: st.tuples(
            st.just(y),
            st.lists(wide(), min_size=len(y), max_size=len(y)),
            st.lists(st.tuples(st.integers(0, len(y) - 1), wide(), wide()), max_size=12),
        )
    ),
    st.sampled_from([0, 1, 29, 30, 31, 59, 60, 528, 1000]),
)
def test_dot_is_exact(yze: tuple[list[int], list[int], list[tuple[int, int, int]]], shift: int) -> None:
    y, z, entries = yze
    assert shares_c.dot(entries, y, z, shift) == dot_pure(entries, y, z, shift)


def test_dot_cancelling_sums() -> None:
    for k in range(0, 1500, 13):
        y, z = [1 << k, -(1 << k)], [(1 << k) - 1, 1 - (1 << k)]
        assert shares_c.dot([(0, 1, 1), (1, 1, 1)], y, z, 31) == 0
        assert shares_c.dot([(1, 1, 1)], y, z, 30) == -(1 << (k + 30)) + 1 - (1 << k)


def dots_pure(moves: list[Any], by_b: list[Any], size: int) -> tuple[list[int], list[int]]:
    y, z = [0] * size, [0] * size
    for weights, shares, needs in moves:
        for b, cells in by_b:
            rw, rs = weights[b], shares[b]
            if not rw and not rs:
                continue
            for e1, j in cells:
                for need, w in needs:
                    m = need - e1 if need > e1 else 0
                    y[j] += w * rs[m]
                    z[j] += w * rw[m]
    return y, z


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 4).flatmap(lambda n: st.tuples(st.just(n), st.data())))
def test_dots_is_exact(nd: tuple[int, Any]) -> None:
    n, data = nd
    rows = st.one_of(st.just([]), st.lists(wide(), min_size=n + 2, max_size=n + 2))
    moves = []
    for _ in range(data.draw(st.integers(0, 3))):
        weights = data.draw(st.lists(rows, min_size=n + 1, max_size=n + 1))
        shares = [row and data.draw(st.lists(wide(), min_size=n + 2, max_size=n + 2)) for row in weights]
        needs = data.draw(st.lists(st.tuples(st.integers(0, n + 1), wide()), max_size=3))
        moves.append((weights, shares, needs))
    by_b = [(b, [(e1, b * (n + 1) + e1) for e1 in range(n + 1 - b)]) for b in range(n + 1)]
    size = (n + 1) * (n + 1)
    assert shares_c.dots(moves, by_b, size) == dots_pure(moves, by_b, size)


def test_shapes_it_cannot_take_raise() -> None:
    with pytest.raises(TypeError):
        shares_c.dot([(0, 1.5, 1)], [1], [1], 0)
    with pytest.raises(IndexError):
        shares_c.dot([(3, 1, 1)], [1], [1], 0)
    with pytest.raises(TypeError):
        shares_c.dots([([[1, 1]], [[1, 1]], [(0, "w")])], [(0, [(0, 0)])], 1)


def tally_pure(live: list[tuple[int, int, int]], moves: list[Any], shift: int, out: list[int]) -> None:
    for w, shares, items in moves:
        done: dict[int, int] = {}
        for need, v in items:
            r = done.get(need)
            if r is None:
                r = 0
                for b, e1, x in live:
                    row = shares[b]
                    if row:
                        r += x * row[need - e1 if need > e1 else 0]
                r = done[need] = (w * r) << shift
            if r:
                out[v] += r


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 4).flatmap(lambda n: st.tuples(st.just(n), st.data())), st.sampled_from([0, 29, 30, 528])
)
def test_tally_is_exact(nd: tuple[int, Any], shift: int) -> None:
    n, data = nd
    rows = st.one_of(st.just([]), st.lists(wide(), min_size=n + 2, max_size=n + 2))
    cells = [(b, e1) for b in range(n + 1) for e1 in range(n + 1 - b)]
    live = [(b, e1, data.draw(wide())) for b, e1 in cells if data.draw(st.booleans())]
    items = st.lists(st.tuples(st.integers(0, n + 1), st.integers(0, 5)), max_size=4)
    moves = [
        (data.draw(wide()), data.draw(st.lists(rows, min_size=n + 1, max_size=n + 1)), data.draw(items))
        for _ in range(data.draw(st.integers(0, 3)))
    ]
    start = data.draw(st.lists(wide(), min_size=6, max_size=6))
    compiled, pure = list(start), list(start)
    shares_c.tally(live, moves, shift, compiled)
    tally_pure(live, moves, shift, pure)
    assert compiled == pure


def pure_convolve(p: list[Any], q: list[Any], k: int) -> list[Any]:
    """marginals_shares._convolve with the kernel off (its loop, the reference)."""
    from gamelib.fugitive.belief import marginals_shares

    was = kernel.COMPILED
    kernel.use_compiled(False)
    try:
        return marginals_shares._convolve(p, q, k)
    finally:
        kernel.use_compiled(was)


@st.composite
def group_rows(draw: Any) -> list[list[tuple[int, int, int]]]:
    """A group's rows by cards taken, each the nonzero (evens, weight, shares) in order of evens."""
    out = []
    for _ in range(draw(st.integers(1, 4))):
        evens = sorted(draw(st.sets(st.integers(0, 4), max_size=3)))
        out.append([(e, draw(wide()), draw(wide())) for e in evens])
    return out


@settings(max_examples=200, deadline=None)
@given(group_rows(), group_rows(), st.integers(0, 6))
def test_convolve_is_exact(p: list[Any], q: list[Any], k: int) -> None:
    from gamelib.fugitive.belief.tables import COMB

    assert shares_c.convolve(p, q, k, COMB[k]) == pure_convolve(p, q, k)


def test_rows_out_of_order_raise() -> None:
    from gamelib.fugitive.belief.tables import COMB

    with pytest.raises(IndexError):
        shares_c.convolve([[(3, 1, 1), (0, 1, 1)]], [[(2, 1, 1), (0, 1, 1)]], 0, COMB[0])


def test_flag_into_adds_the_completions_above_the_flag() -> None:
    nxt = {5: 1 << 900}
    shares_c.flag_into(nxt, {5: 7, 1 << 99: -3}, 1 << 100)
    assert nxt == {5: 1 << 900, 5 | 1 << 100: 7, 1 << 99 | 1 << 100: -3}
    assert shares_c.flag_into(nxt, {1 << 100: 1}, 1 << 100) is NotImplemented  # not below the flag
    assert shares_c.flag_into(nxt, {1: 1}, 6) is NotImplemented  # not a power of two
    assert shares_c.flag_into(nxt, {1: 1}, 1 << 128) is NotImplemented  # beyond 128 bits
    assert len(nxt) == 3
