"""The compiled pull's wide sums (``_kernel.c``'s lanes) read the shorter operand two digits at a
time and still give exactly the pure loops' ints.

The card locations' closing pair layers pull ~900-bit share sums through move weights of up to
~900 bits: each such term is summed on 128-bit lanes over the ints' 30-bit digits.  Pairing the
shorter operand's digits (a 60-bit chunk times a 30-bit digit, one 64x64->128 multiply) halves
the products of a wide term; ``lane_products`` counts them, so the pairing is seen to run, and the
fuzz below (2**128..2**2000, both signs, sums that cancel) holds the results to the pure loops'.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelib.fugitive.belief import kernel


@pytest.fixture
def compiled() -> Iterator[Any]:
    """The compiled module with its loops on (skipped where it was not built or has no digit
    access: the lanes then are Python ints); the pure functions configured as fallbacks."""
    module = pytest.importorskip("gamelib.fugitive.belief._kernel")
    was = kernel.use_compiled(True)
    if not kernel.COMPILED:
        pytest.skip("compiled loops off")
    yield module
    kernel.use_compiled(was)


def digits(v: int) -> int:
    """An int's 30-bit digits (CPython's)."""
    return -(-abs(v).bit_length() // 30)


def products_of(compiled: Any, x: int, w: int) -> int:
    """The lane products one pull of a single source through one move (weight ``w``) onto a
    destination worth ``x`` takes."""
    before = compiled.lane_products()
    out = compiled.pull([5], 0, -1, {0: [(1, w)]}, {6: x})
    assert kernel.as_dict(out) == kernel.pull_pure([5], 0, -1, {0: [(1, w)]}, {6: x}) == {5: x * w}
    return int(compiled.lane_products() - before)


def test_shorter_operand_read_in_digit_pairs(compiled: Any) -> None:
    """A 12-digit weight times a 31-digit sum is 31 * 6 products (not 31 * 12); a wide weight
    times a one-digit value 31 * 1; odd counts round up (a last single digit is one chunk)."""
    if compiled.lane_products() == 0 and products_of(compiled, 3**600, 3**200) == 0:
        pytest.skip("no digit access: wide sums on Python ints")
    x, w = 3**580 + 1, 2**355 + 12345  # 31 and 12 digits
    assert (digits(x), digits(w)) == (31, 12)
    assert products_of(compiled, x, w) == 31 * 6
    assert products_of(compiled, -x, w) == 31 * 6
    assert products_of(compiled, 7, -x) == 31 * 1
    assert products_of(compiled, x, 2**61 + 1) == 31 * 2  # 3 digits: a pair and a single
    assert products_of(compiled, 2**200, 2**200) == 7 * 4


BIG = st.tuples(st.integers(128, 2000), st.sampled_from([1, -1]), st.integers(-3, 3)).map(
    lambda t: t[1] * (2 ** t[0]) + t[2]
)
ANY = st.one_of(BIG, BIG, st.integers(-(2**70), 2**70), st.integers(-5, 5))
NXT = st.dictionaries(st.integers(0, 12), ANY, min_size=1, max_size=10)
MOVES = st.lists(st.tuples(st.integers(0, 6), ANY, st.integers(0, 2)), min_size=1, max_size=6)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    nxt=NXT, pools=st.lists(MOVES, min_size=1, max_size=3), sources=st.lists(st.integers(0, 6), max_size=8)
)
def test_wide_sums_equal_pure(
    compiled: Any, nxt: dict[int, int], pools: list[Any], sources: list[int]
) -> None:
    """pull and pull_tally on 2**128..2**2000 weights and values of both signs (and sums that
    cancel: x and -x both reachable) give the pure loops' ints, dict order and tally."""
    nxt = {**nxt, **{k + 20: -v for k, v in nxt.items()}}
    pools = [p + [(d + 20, w, lab) for d, w, lab in p] for p in pools]
    srcs = dict.fromkeys(sources)
    memo = {s & 3: [m[:2] for m in pools[(s & 3) % len(pools)]] for s in srcs}
    got = kernel.as_dict(compiled.pull(list(srcs), 3, ~3, dict(memo), dict(nxt)))
    ref = kernel.pull_pure(list(srcs), 3, ~3, dict(memo), dict(nxt))
    assert list(got.items()) == list(ref.items())
    weights = {s: ANY_WEIGHTS[s % len(ANY_WEIGHTS)] for s in srcs}
    tmemo = {s & 3: pools[(s & 3) % len(pools)] for s in srcs}
    tally, tally_ref = [1, 2**300, -7], [1, 2**300, -7]
    got = kernel.as_dict(compiled.pull_tally(dict(weights), 3, ~3, dict(tmemo), dict(nxt), tally))
    ref = kernel.pull_tally_pure(dict(weights), 3, ~3, dict(tmemo), dict(nxt), tally_ref)
    assert list(got.items()) == list(ref.items())
    assert tally == tally_ref


ANY_WEIGHTS = (1, -3, 2**64 + 1, -(2**127), 2**700 - 1, -(3**900))
"""The sources' own weights in pull_tally (the tally adds weight * move weight * value)."""


@pytest.mark.parametrize("moves", [1, 63, 64, 65, 200])
def test_many_moves_a_source(compiled: Any, moves: int) -> None:
    """A source with many moves, wide and native weights on wide and native values of both signs,
    hits and misses: one source's lanes take every term, and give the pure loop's sums."""
    nxt = {k: (-1) ** k * (3**700 + k if k % 3 else k + 1) for k in range(0, 300, 2)}
    pool = [(d, (-1) ** d * (d + 1) * (2**200 if d % 5 == 0 else 1)) for d in range(moves)]
    sources = [0, 1, 4, 2**127 - 3]
    memo = {s & 1: pool for s in sources}
    got = kernel.as_dict(compiled.pull(sources, 1, -1, dict(memo), dict(nxt)))
    ref = kernel.pull_pure(sources, 1, -1, dict(memo), dict(nxt))
    assert list(got.items()) == list(ref.items())
