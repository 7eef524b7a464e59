"""The compiled edge loops (``_kernel.c``) give exactly what the pure-Python ones give.

``kernel.push`` and ``kernel.pull`` run on native 128-bit integers when the compiled module is
there; whatever does not fit (keys beyond 128 bits, weights whose products or sums overflow, a
move that is not a tuple of ints) must make them run the pure functions, so that the results
(the same ints, the same dict order, the same memo entries made by the same ``miss`` calls, the
same exceptions) never depend on which ran.  Fuzzed around the 2**63, 2**64, 2**127 and 2**128
edges, then on real belief layers (the benchmark's random positions, compiled against pure).
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamelib
from gamelib.fugitive import belief as belief_module
from gamelib.fugitive.belief import kernel
from gamelib.fugitive.belief.build import backward, build
from gamelib.fugitive.belief.programme import Programme
from gamelib.fugitive.rules import FugitiveState

ROOT = Path(__file__).resolve().parents[2]
RANDOM_V2 = ROOT / "benchmarks" / "data" / "fugitive_belief_random_v2.jsonl.gz"
IDS = ("random-1", "random-5", "random-14", "random-17", "random-22")
"""Random-play positions with 13-17 face-down sprint cards (every layer kind, a few ms each)."""


@pytest.fixture
def compiled() -> Iterator[Any]:
    """The compiled module, turned on (the test is skipped where it was not built); the pure
    functions it falls back to are counted (``calls``)."""
    module = pytest.importorskip("gamelib.fugitive.belief._kernel")
    calls = {"push": 0, "pull": 0, "pull_tally": 0}

    def push_pure(*args: Any, **kwargs: Any) -> Any:
        calls["push"] += 1
        return kernel.push_pure(*args, **kwargs)

    def pull_pure(*args: Any, **kwargs: Any) -> Any:
        calls["pull"] += 1
        return kernel.pull_pure(*args, **kwargs)

    def pull_tally_pure(*args: Any, **kwargs: Any) -> Any:
        calls["pull_tally"] += 1
        return kernel.pull_tally_pure(*args, **kwargs)

    def switch(on: bool) -> None:
        module.configure(push_pure, pull_pure, pull_tally_pure, on)
        calls.update(push=0, pull=0, pull_tally=0)

    was = kernel.COMPILED
    switch(True)
    module.calls, module.switch = calls, switch
    yield module
    kernel.use_compiled(was)


NONE = {"push": 0, "pull": 0, "pull_tally": 0}
"""No pure loop ran."""

# ---------------------------------------------------------------------------- values near the edges
EDGES = (2**62, 2**63, 2**64, 2**103, 2**126, 2**127, 2**128)
WIDE = (2**120, 2**150, 2**300, 2**900, 2**930)
"""Wide values (the card locations' packed sums) near digit boundaries (CPython's digits are 30 bits)."""


def near(edges: tuple[int, ...], signed: bool) -> st.SearchStrategy[int]:
    signs = (1, -1) if signed else (1,)
    return st.tuples(st.sampled_from(edges), st.sampled_from(signs), st.integers(-3, 3)).map(
        lambda t: t[0] * t[1] + t[2]
    )


KEYS = st.one_of(st.integers(0, 40), st.integers(0, 40), near(EDGES, False), st.integers(-3, -1))
WEIGHTS = st.one_of(st.integers(-9, 9), st.integers(-9, 9), near(EDGES, True))
DELTAS = st.one_of(st.integers(-8, 8), st.integers(-8, 8), near(EDGES, True))
LABELS = st.one_of(st.integers(0, 42), st.text(max_size=2), st.none())
MOVE = st.one_of(
    st.tuples(DELTAS, WEIGHTS),
    st.tuples(DELTAS, WEIGHTS, LABELS),
    st.tuples(DELTAS, WEIGHTS, LABELS, LABELS),
)
MASKS = st.one_of(
    st.sampled_from([0, 7, 0b110000, ~7, -1, ~0b110000, 2**64 + 3, ~(2**64), 2**127 | 5, 2**129 | 6]),
    st.integers(-(2**130), 2**130),
)
POOLS = st.lists(st.lists(MOVE, max_size=5), min_size=1, max_size=5)


class Miss:
    """A ``miss`` that logs its signatures and answers one of a pool of move lists (the same
    list object for signatures equal modulo the pool's size, as shared memo lists are), raising
    at call ``raise_at`` (never if negative)."""

    def __init__(self, pool: list[list[tuple[Any, ...]]], raise_at: int = -1) -> None:
        self.pool, self.raise_at = pool, raise_at
        self.log: list[int] = []

    def __call__(self, sig: int) -> list[tuple[Any, ...]]:
        self.log.append(sig)
        if len(self.log) - 1 == self.raise_at:
            raise ArithmeticError(f"miss {sig}")
        return self.pool[sig % len(self.pool)]


def outcome(fn: Callable[[], Any]) -> tuple[str, Any]:
    """What a call gives: ("ok", its result with every dict as its list of items) or the
    exception raised (type and arguments)."""
    try:
        result = fn()
    except Exception as exc:
        return (type(exc).__name__, exc.args)
    found = result[0] if isinstance(result, tuple) else result
    assert all(found[key] is value for key, value in found.items())  # stored under the keys' own hashes
    if isinstance(result, tuple):
        return ("ok", (list(result[0].items()), result[1]))
    return ("ok", list(result.items()))


def run_push(push: Callable[..., Any], states: dict[int, int], reads: int, keep: int, memo: dict, miss: Miss):
    memo = dict(memo)
    miss = Miss(miss.pool, miss.raise_at)
    got = outcome(lambda: push(states, reads, keep, memo, miss))
    return got, list(memo.items()), miss.log


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    states=st.dictionaries(KEYS, WEIGHTS, max_size=12),
    reads=MASKS,
    keep=st.one_of(st.none(), MASKS),
    pool=POOLS,
    prefill=st.lists(st.integers(0, 40), max_size=3),
    raise_at=st.integers(-3, 4),
)
def test_push_fuzzed_equals_the_pure_loop(
    compiled: Any,
    states: dict[int, int],
    reads: int,
    keep: int | None,
    pool: list[list[tuple[Any, ...]]],
    prefill: list[int],
    raise_at: int,
) -> None:
    keep = ~reads if keep is None else keep
    memo = {sig: pool[(sig + 1) % len(pool)] for sig in prefill}
    miss = Miss(pool, raise_at)
    assert run_push(compiled.push, states, reads, keep, memo, miss) == run_push(
        kernel.push_pure, states, reads, keep, memo, miss
    )


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    keys=st.lists(KEYS, max_size=12, unique=True),
    reads=MASKS,
    keep=st.one_of(st.none(), MASKS),
    pool=POOLS,
    nxt_keys=st.lists(st.one_of(KEYS, st.integers(2**128, 2**129)), max_size=8),
    nxt_values=st.lists(
        st.one_of(WEIGHTS, near(WIDE, True), st.integers(-(2**300), 2**300)), min_size=8, max_size=8
    ),
    hits=st.integers(0, 10),
    kind=st.sampled_from(["dict", "list", "iter"]),
    drop=st.booleans(),
    raise_at=st.one_of(st.none(), st.integers(-1, 2)),
)
def test_pull_fuzzed_equals_the_pure_loop(
    compiled: Any,
    keys: list[int],
    reads: int,
    keep: int | None,
    pool: list[list[tuple[Any, ...]]],
    nxt_keys: list[int],
    nxt_values: list[int],
    hits: int,
    kind: str,
    drop: bool,
    raise_at: int | None,
) -> None:
    keep = ~reads if keep is None else keep
    memo = {key & reads: pool[(key & reads) % len(pool)] for key in keys}
    if drop and memo:
        memo.pop(next(iter(memo)))  # a KeyError from both, or a miss (raise_at not None)
    # destinations the moves reach, so that sums have terms (some 0: they add nothing)
    reached = [(key & keep) + move[0] for key in keys for move in memo.get(key & reads, [])]
    nxt = dict(zip(nxt_keys + reached[:hits], nxt_values * 3, strict=False))

    def sources() -> Any:
        return {"dict": dict.fromkeys(keys, 1), "list": list(keys), "iter": iter(keys)}[kind]

    results = []
    for fn in (compiled.pull, kernel.pull_pure):
        filled, miss = dict(memo), None if raise_at is None else Miss(pool, raise_at)
        got = outcome(partial(fn, sources(), reads, keep, filled, nxt, miss))
        results.append((got, list(filled.items()), miss and miss.log))
    assert results[0] == results[1]


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    states=st.dictionaries(KEYS, WEIGHTS, max_size=10),
    reads=MASKS,
    pool=st.lists(
        st.lists(st.tuples(DELTAS, WEIGHTS, st.integers(-4, 4)), max_size=4), min_size=1, max_size=4
    ),
    nxt_values=st.lists(
        st.one_of(WEIGHTS, near(WIDE, True), st.integers(-(2**300), 2**300)), min_size=1, max_size=12
    ),
    tally=st.lists(st.one_of(st.integers(-5, 5), near(EDGES, True)), min_size=3, max_size=3),
    raise_at=st.integers(-2, 3),
    bad=st.sampled_from([None, (0, 1), (0, 1, "x"), (0, 1, 1, 1)]),
)
def test_pull_tally_fuzzed_equals_the_pure_loop(
    compiled: Any,
    states: dict[int, int],
    reads: int,
    pool: list[list[tuple[Any, ...]]],
    nxt_values: list[int],
    tally: list[int],
    raise_at: int,
    bad: tuple[Any, ...] | None,
) -> None:
    """Labels -4..4 (out of range for a tally of 3: an IndexError from both), moves of the wrong
    shape (a ValueError or TypeError from both), misses that raise: the tally is the same after."""
    if bad is not None:
        pool[-1] = [*pool[-1], bad]
    keep = ~reads
    reached = [(key & keep) + move[0] for key in states for move in pool[(key & reads) % len(pool)]]
    nxt = dict(zip(reached, nxt_values * 8, strict=False))
    results = []
    for fn in (compiled.pull_tally, kernel.pull_tally_pure):
        memo: dict[int, Any] = {}
        miss, sums = Miss(pool, raise_at), list(tally)
        results.append(
            (outcome(partial(fn, states, reads, keep, memo, nxt, sums, miss)), sums, list(memo), miss.log)
        )
    assert results[0] == results[1]


# ---------------------------------------------------------------------------- native or pure, as it must
def test_states_that_fit_run_natively(compiled: Any) -> None:
    """Keys of 103 bits, weights of 90, moves with labels: no pure loop runs, both directions."""
    states = {(5 << 100) + k: (k + 1) << 90 for k in range(64)}
    memo: dict[int, list[tuple[Any, ...]]] = {}
    out, count = compiled.push(states, 7, ~7, memo, lambda sig: [(sig, 3, "a"), (sig + 9, -2, 0)])
    assert count == 128
    assert list(out.items()) == list(kernel.push_pure(states, 7, ~7, memo)[0].items())
    back = compiled.pull(states, 7, ~7, memo, out)
    assert list(back.items()) == list(kernel.pull_pure(states, 7, ~7, memo, out).items())
    assert compiled.calls == NONE


@pytest.mark.parametrize(
    "values",
    [
        (2**900, -(2**900), 5),  # cancels to 0 but for the last: the source keeps 5 * 1
        (2**900, -(2**900), 0),  # cancels to 0: the source is left out
        (-(2**930), 0, 0),  # -2**(30 * 31): one digit more than its lanes
        (-(2**930) + 1, 2**60, -(2**61)),
        (2**128, -1, 2**64),
    ],
)
def test_wide_sums_settle_exactly(compiled: Any, values: tuple[int, int, int]) -> None:
    memo = {0: [(1, 1, 0), (2, 1, 1), (3, 1, 2)], 8: [(1, -3, 2), (2, 2**70, 0), (3, -1, 1)]}
    nxt = {1 + k: v for k, v in enumerate(values) if v}
    for sources in ([0], [8], [0, 8]):
        states = dict.fromkeys(sources, 2**65 + 3)
        assert list(compiled.pull(sources, 8, 0, memo, nxt).items()) == list(
            kernel.pull_pure(sources, 8, 0, memo, nxt).items()
        )
        tally, expected = [0, -(2**200), 7], [0, -(2**200), 7]
        fast = compiled.pull_tally(states, 8, 0, memo, nxt, tally)
        assert list(fast.items()) == list(kernel.pull_tally_pure(states, 8, 0, memo, nxt, expected).items())
        assert tally == expected
    assert compiled.calls == NONE


@pytest.mark.parametrize(
    ("states", "moves", "pure"),
    [
        ({1: 2**126, 2: 2**126}, [(0, 1)], 0),  # the sum overflows: added on Python ints, in C
        ({1: 2**64}, [(0, 2**64)], 0),  # the product overflows: likewise
        ({1: 2**900, 2: -(2**900)}, [(0, 3), (1, 2**300)], 0),  # wide weights: likewise
        ({2**128: 1}, [(0, 1)], 1),  # a key beyond 128 bits: the pure loop
        ({1: 1}, [(-2, 1)], 1),  # a negative destination
        ({1: 1}, [[0, 1]], 1),  # a move that is not a tuple
        ({1: 1.5}, [(0, 1)], 1),  # a weight that is not an int
    ],
)
def test_what_does_not_fit_is_exact(
    compiled: Any, states: dict[int, int], moves: list[Any], pure: int
) -> None:
    memo = {0: moves}
    got = compiled.push(states, 0, 0, memo)
    assert (list(got[0].items()), got[1]) == outcome(lambda: kernel.push_pure(states, 0, 0, memo))[1]
    assert compiled.calls["push"] == pure


def test_wide_values_are_pulled_without_the_pure_loop(compiled: Any) -> None:
    """The card locations pull packed sums of ~1,500 bits: summed on Python ints in C."""
    keys = [(3 << 100) + k for k in range(20)]
    memo = {sig: [(d, (d + 1) * (1 - 2 * (d % 2)), d % 3) for d in range(-2, 4)] for sig in range(4)}
    nxt = {(3 << 100) + k: (k - 7) << (1500 - k) for k in range(24)}
    nxt[(3 << 100) + 5] = 7
    states = dict.fromkeys(keys, 2**70 + 1)
    assert list(compiled.pull(keys, 3, ~3, memo, nxt).items()) == list(
        kernel.pull_pure(keys, 3, ~3, memo, nxt).items()
    )
    tally, expected = [1] * 3, [1] * 3
    fast = compiled.pull_tally(states, 3, ~3, memo, nxt, tally)
    assert list(fast.items()) == list(kernel.pull_tally_pure(states, 3, ~3, memo, nxt, expected).items())
    assert tally == expected
    assert compiled.calls == NONE


def test_a_raising_miss_propagates_and_keeps_the_memo_it_made(compiled: Any) -> None:
    def miss(sig: int) -> list[tuple[int, int]]:
        if sig == 3:
            raise LookupError("no moves")
        return [(1, sig)]

    memo: dict[int, list[tuple[int, int]]] = {}
    with pytest.raises(LookupError, match="no moves"):
        compiled.push({1: 1, 2: 1, 3: 1, 4: 1}, 7, 0, memo, miss)
    assert list(memo) == [1, 2]
    with pytest.raises(KeyError):
        compiled.push({1: 1}, 7, 0, {})
    with pytest.raises(KeyError):
        compiled.pull([9], 7, 0, {}, {})


@pytest.mark.parametrize(("env", "expected"), [("1", "False"), ("0", "True"), ("", "True")])
def test_gamelib_pure_python_selects_the_pure_loops(compiled: Any, env: str, expected: str) -> None:
    code = (
        "from gamelib.fugitive.belief import kernel; print(kernel.COMPILED, kernel.push is kernel.push_pure)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "GAMELIB_PURE_PYTHON": env},
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert out.stdout.split() == [expected, "False"]  # the compiled functions stay bound, turned off


def test_turned_off_it_runs_the_pure_loop(compiled: Any) -> None:
    assert kernel.use_compiled(False) is False
    assert kernel.push({1: 1}, 0, -1, {0: [(0, 1)]}) == ({1: 1}, 1)
    assert kernel.use_compiled(True) is True
    assert kernel.push is compiled.push and kernel.pull is compiled.pull


# ---------------------------------------------------------------------------- real belief layers
def positions(ids: tuple[str, ...]) -> list[belief_module.Facts]:
    with gzip.open(RANDOM_V2, "rt") as handle:
        rows = [row for row in map(json.loads, handle) if row["id"] in ids]
    facts = []
    for row in rows:
        state = gamelib.from_record(row["record"])
        assert isinstance(state, FugitiveState)
        facts.append(belief_module.facts_from_state(state))
    return facts


def everything(prog: Programme) -> Any:
    """A programme's layers forward and backward, in order, and its marginals."""
    back = backward(prog) if not prog.count_only else []
    return (
        prog.total,
        prog.edges,
        [list(layer.items()) for layer in prog.forward],
        [list(layer.items()) for layer in back],
        prog.marginals,
    )


@pytest.mark.parametrize("full", [False, True])
def test_real_layers_equal_the_pure_loops(compiled: Any, full: bool) -> None:
    """A few random-play positions of the benchmark, both measures: every layer (order
    included), the completions and the marginals equal; the compiled loops ran (no pure one)."""
    for facts in positions(IDS):
        for measure in ("deals", "worlds"):
            compiled.switch(True)
            fast = everything(build(facts, measure, full=full))
            assert compiled.calls == NONE
            compiled.switch(False)
            assert everything(build(facts, measure, full=full)) == fast


def test_arguments_by_keyword(compiled: Any) -> None:
    memo = {0: [(1, 2, 7)]}
    assert compiled.push(states={1: 1}, reads=0, keep=-1, memo=memo, miss=None) == ({2: 2}, 1)
    assert compiled.pull([1], 0, -1, memo=memo, nxt={2: 3}) == {1: 6}
    tally = [0] * 8
    assert compiled.pull_tally({1: 5}, 0, -1, memo, {2: 3}, tally=tally) == {1: 6}
    assert tally[7] == 30
    with pytest.raises(TypeError):
        compiled.push({1: 1}, 0, -1)
    with pytest.raises(TypeError):
        compiled.pull([1], 0, -1, memo, {}, None, None)
    with pytest.raises(TypeError):
        compiled.push({1: 1}, 0, -1, memo, states={})
