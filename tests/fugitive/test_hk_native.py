"""States kept native along a pass (``_kernel.States``) give exactly what the dicts give.

``kernel.native`` makes a pass's first states a compiled ``States``; ``push``, ``pull`` and
``pull_tally`` then read it without a dict and answer with another, so a pass makes no dict of
Python ints per layer.  The results must stay those of the pure functions on dicts: the same ints,
the same order, the same memo entries and ``miss`` calls, the same exceptions, whatever had to fall
back to the pure loop on the way (it then answers with a dict, which the next call reads).  The
belief's programme keeps its layers native (``build.Layers``) and makes a layer a dict when a
reader asks for it: forward and backward layers, marginals and totals equal the pure path's on
real positions, the three hardest of the random benchmark set included.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamelib
from gamelib.fugitive import belief as belief_module
from gamelib.fugitive.belief import kernel, tail_sums
from gamelib.fugitive.belief.build import Layers, _states, _tail_layer, _tail_total, backward, build
from gamelib.fugitive.belief.programme import Programme
from gamelib.fugitive.rules import FugitiveState

ROOT = Path(__file__).resolve().parents[2]
RANDOM_V2 = ROOT / "benchmarks" / "data" / "fugitive_belief_random_v2.jsonl.gz"
IDS = ("random-1", "random-5", "random-14", "random-17", "random-22")
"""Random-play positions with 13-17 face-down sprint cards (every layer kind, a few ms each)."""
HARDEST = ("random-225", "random-519", "random-330")
"""The slowest positions of the random benchmark set."""


@pytest.fixture
def compiled() -> Iterator[Any]:
    """The compiled module, turned on (skipped where it was not built); ``calls`` counts the pure
    functions it fell back to, ``switch(on)`` turns it on or off."""
    module = pytest.importorskip("gamelib.fugitive.belief._kernel")
    calls = {"push": 0, "pull": 0, "pull_tally": 0}

    def counted(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def pure(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return function(*args, **kwargs)

        return pure

    def switch(on: bool) -> None:
        module.configure(
            counted("push", kernel.push_pure),
            counted("pull", kernel.pull_pure),
            counted("pull_tally", kernel.pull_tally_pure),
            on,
        )
        kernel.COMPILED = on
        calls.update(push=0, pull=0, pull_tally=0)

    was = kernel.COMPILED
    switch(True)
    module.calls, module.switch = calls, switch
    yield module
    kernel.use_compiled(was)


NONE = {"push": 0, "pull": 0, "pull_tally": 0}

EDGES = (2**63, 2**64, 2**127, 2**128)


def near(edges: tuple[int, ...], signed: bool) -> st.SearchStrategy[int]:
    signs = (1, -1) if signed else (1,)
    return st.tuples(st.sampled_from(edges), st.sampled_from(signs), st.integers(-2, 2)).map(
        lambda t: t[0] * t[1] + t[2]
    )


KEYS = st.one_of(st.integers(0, 40), st.integers(0, 40), near(EDGES, False))
WEIGHTS = st.one_of(
    st.integers(-4, 4), st.integers(-9, 9), near(EDGES, True), st.sampled_from([2**300, -(2**300)])
)
DELTAS = st.one_of(st.integers(-8, 8), st.integers(-8, 8), near(EDGES, True))
MOVE = st.one_of(st.tuples(DELTAS, WEIGHTS, st.integers(0, 3)), st.tuples(DELTAS, WEIGHTS, st.none()))
MASKS = st.sampled_from([0, 7, ~7, -1, 0b110000, ~0b110000, 2**64 + 3, ~(2**64)])
POOLS = st.lists(st.lists(MOVE, max_size=4), min_size=1, max_size=4)


def items(states: Any) -> list[tuple[int, int]]:
    """A layer's items in order (a dict or a States)."""
    return list(kernel.as_dict(states).items())


def chain(
    push: Callable[..., Any],
    pull: Callable[..., Any],
    tally_pull: Callable[..., Any],
    first: Any,
    masks: list[tuple[int, int]],
    pools: list[list[list[tuple[Any, ...]]]],
) -> Any:
    """Two layers forward from ``first``, then back (one pull, one pull_tally), each layer's moves
    made by a ``miss`` from its pool: every layer's items, the edges, the memos, the misses, the
    tally; or the exception raised."""
    log: list[int] = []
    memos: list[dict[int, Any]] = [{}, {}]

    def miss_of(pool: list[list[tuple[Any, ...]]]) -> Callable[[int], Any]:
        def miss(sig: int) -> Any:
            log.append(sig)
            return pool[sig % len(pool)]

        return miss

    try:
        layers, edges = [first], []
        for t in range(2):
            out, count = push(layers[-1], *masks[t], memos[t], miss_of(pools[t]))
            layers.append(out)
            edges.append(count)
        tally = [0] * 4
        back1 = pull(layers[1], *masks[1], memos[1], layers[2])
        back0 = tally_pull(layers[0], *masks[0], memos[0], back1, tally)
    except Exception as exc:
        return (type(exc).__name__, log)
    return [items(layer) for layer in layers], edges, items(back1), items(back0), tally, memos, log


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    states=st.dictionaries(KEYS, WEIGHTS, max_size=10),
    masks=st.lists(st.tuples(MASKS, MASKS), min_size=2, max_size=2),
    pools=st.lists(POOLS, min_size=2, max_size=2),
)
def test_a_native_pass_equals_the_pure_one(
    compiled: Any,
    states: dict[int, int],
    masks: list[tuple[int, int]],
    pools: list[list[list[tuple[Any, ...]]]],
) -> None:
    """Keys and weights near 2**63..2**128 and beyond (wide weights), zero and negative weights,
    labels that are not ints (pull_tally falls back to the pure loop when it reads one): a pass
    from ``native(states)`` equals the pure functions' pass on dicts."""
    first = compiled.native(states)
    fast = chain(compiled.push, compiled.pull, compiled.pull_tally, first, masks, pools)
    assert fast == chain(kernel.push_pure, kernel.pull_pure, kernel.pull_tally_pure, states, masks, pools)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    states=st.dictionaries(KEYS, WEIGHTS, max_size=10),
    nxt=st.dictionaries(KEYS, WEIGHTS, max_size=10),
    masks=st.tuples(MASKS, MASKS),
    pool=POOLS,
)
def test_mixed_dicts_and_states_equal_the_pure_loops(
    compiled: Any,
    states: dict[int, int],
    nxt: dict[int, int],
    masks: tuple[int, int],
    pool: list[list[tuple[Any, ...]]],
) -> None:
    """Sources as a dict, a list or a States, nxt as a dict or a States, in every combination: the
    same sums and tallies as the pure loops (a States in gives a States out, else a dict)."""
    memo = {sig: pool[sig % len(pool)] for sig in {src & masks[0] for src in states}}

    def run(fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return ("ok", items(fn(*args)))
        except Exception as exc:
            return (type(exc).__name__, exc.args)

    for sources in (states, list(states), compiled.native(states)):
        for after in (nxt, compiled.native(nxt)):
            expect = run(kernel.pull_pure, list(states), *masks, memo, nxt)
            assert run(compiled.pull, sources, *masks, memo, after) == expect
            if isinstance(sources, list):
                continue
            tally, expected_tally = [0] * 4, [0] * 4
            expect = run(kernel.pull_tally_pure, states, *masks, memo, nxt, expected_tally)
            assert run(compiled.pull_tally, sources, *masks, memo, after, tally) == expect
            assert tally == expected_tally


def test_native_keeps_what_it_cannot_hold_as_a_dict(compiled: Any) -> None:
    """A key beyond 128 bits, a weight that is not an int, a turned-off kernel: ``native`` gives
    the dict itself (the pass runs on dicts).  Wide weights are held."""
    for states in ({2**128: 1}, {1: 1.5}, {-1: 1}):
        assert compiled.native(states) is states
    wide = compiled.native({1: 2**300, 2: -(2**127), 3: 0})
    assert isinstance(wide, compiled.States)
    assert list(wide.to_dict().items()) == [(1, 2**300), (2, -(2**127)), (3, 0)]
    compiled.switch(False)
    states = {1: 1}
    assert compiled.native(states) is states
    assert kernel.native(states) is states


def test_states_read_as_their_dict(compiled: Any) -> None:
    """Tests and benchmarks read a layer as a mapping: iteration, [], get, in, keys, items,
    values, len, ==, dict(); to_dict() is a new dict each time (a caller may change it)."""
    expect = {5: 2**200, 1: -3, 9: 0, 2**127: 7}
    states = compiled.native(expect)
    assert list(states) == list(expect) and len(states) == 4 and states[1] == -3
    assert states.get(9) == 0 and states.get(8, "none") == "none" and 2**127 in states and 8 not in states
    assert list(states.items()) == list(expect.items()) and list(states.keys()) == list(expect)
    assert list(states.values()) == list(expect.values()) and dict(states) == expect
    assert states == expect and states == compiled.native(expect) and states != {5: 1}
    made = states.to_dict()
    made[3] = 3
    assert states.to_dict() == expect
    with pytest.raises(KeyError):
        states[8]
    with pytest.raises(TypeError):
        hash(states)


def test_zero_weights_are_skipped_as_the_pure_loop_skips_them(compiled: Any) -> None:
    """A native layer keeps the states whose weights cancel (their weight 0, as the dict does);
    a pull reading one adds nothing, and does not read the move's label (the pure loop does not:
    a label that is not an int there must not make it fall back)."""
    memo = {0: [(1, 1, 0), (2, 1, 1)], 8: [(1, -1, 0), (3, 1, 1)]}
    first = compiled.native({0: 1, 8: 1})
    out, count = compiled.push(first, 8, 0, memo)
    assert items(out) == [(1, 0), (2, 1), (3, 1)] and count == 4
    labelled = {0: [(1, 5, None), (2, 1, 1)], 8: [(1, 7, "x"), (3, 1, 1)]}
    tally = [0, 0]
    back = compiled.pull_tally(first, 8, 0, labelled, out, tally)
    assert isinstance(back, compiled.States) and items(back) == [(0, 1), (8, 1)] and tally == [0, 2]
    assert compiled.calls == NONE


def test_a_fallback_answers_a_dict_that_the_next_call_reads(compiled: Any) -> None:
    """A destination beyond 128 bits makes push run the pure loop: it answers with a dict, which
    the next call takes (and answers with a dict again)."""
    first = compiled.native({1: 3})
    out, _ = compiled.push(first, 0, -1, {0: [(2**128, 1), (1, 2)]})
    assert type(out) is dict and out == {2**128 + 1: 3, 2: 6} and compiled.calls["push"] == 1
    again, _ = compiled.push(first, 0, -1, {0: [(1, 2)]})
    assert isinstance(again, compiled.States) and items(again) == [(2, 6)]
    assert compiled.pull(first, 0, -1, {0: [(1, 2)]}, again) == {1: 12}


# ---------------------------------------------------------------------------- the programme's layers
def positions(ids: tuple[str, ...]) -> list[belief_module.Facts]:
    with gzip.open(RANDOM_V2, "rt") as handle:
        rows = {row["id"]: row for row in map(json.loads, handle) if row["id"] in ids}
    facts = []
    for ident in ids:
        state = gamelib.from_record(rows[ident]["record"])
        assert isinstance(state, FugitiveState)
        facts.append(belief_module.facts_from_state(state))
    return facts


def everything(prog: Programme) -> Any:
    """A programme's layers forward and backward, in order, and its marginals and totals."""
    back = backward(prog) if not prog.count_only else []
    return (
        prog.total,
        prog.edges,
        [list(layer.items()) for layer in prog.forward],
        [list(layer.items()) for layer in back],
        prog.marginals,
    )


def stored(layers: list[Any]) -> set[str]:
    """The kinds of the items a layer list holds as stored."""
    return {type(list.__getitem__(layers, t)).__name__ for t in range(len(layers))}


@pytest.mark.parametrize(
    ("ids", "full", "measures"),
    [(IDS, False, ("deals", "worlds")), (IDS, True, ("worlds",)), (HARDEST, False, ("deals",))],
)
def test_native_layers_equal_the_pure_path(
    compiled: Any, ids: tuple[str, ...], full: bool, measures: tuple[str, ...]
) -> None:
    """Counting and full programmes: every forward and backward layer (items in order), the
    marginals, the total and the edges equal the pure functions' on dicts; compiled, the layers
    are kept native (until read) and no pure loop ran."""
    for facts in positions(ids):
        for measure in measures:
            compiled.switch(True)
            prog = build(facts, measure, full=full)
            assert "States" in stored(prog.forward)
            backward(prog)
            assert prog.back is not None and "States" in stored(prog.back)
            fast = everything(prog)
            assert compiled.calls == NONE
            assert stored(prog.forward) == {"dict"}  # read: kept as dicts from now on
            compiled.switch(False)
            slow = build(facts, measure, full=full)
            assert stored(slow.forward) == {"dict"}
            assert everything(slow) == fast


def test_count_only_keeps_no_layer(compiled: Any) -> None:
    """The world total alone: the same total, natively."""
    for facts in positions(IDS[:3]):
        fast = build(facts, "worlds", count_only=True)
        compiled.switch(False)
        assert build(facts, "worlds", count_only=True).total == fast.total
        compiled.switch(True)


def test_layers_make_a_dict_when_read() -> None:
    """Layers: a stored item that is not a dict is made one when read (index, negative index,
    slice, iteration, reversed, ==), and the dict kept in its place."""

    class Fake:
        made = 0

        def __init__(self, value: dict[int, int]) -> None:
            self.value = value

        def to_dict(self) -> dict[int, int]:
            Fake.made += 1
            return dict(self.value)

    layers = Layers([{0: 1}, Fake({1: 2}), Fake({3: 4}), Fake({5: 6})])  # type: ignore[list-item]
    assert layers[1] == {1: 2} and layers[1] is layers[1] and Fake.made == 1
    assert layers[-1] == {5: 6} and Fake.made == 2
    assert layers[1:3] == [{1: 2}, {3: 4}] and Fake.made == 3
    assert list(reversed(layers)) == [{5: 6}, {3: 4}, {1: 2}, {0: 1}]
    assert layers == [{0: 1}, {1: 2}, {3: 4}, {5: 6}] and Fake.made == 3
    assert stored(layers) == {"dict"}
    assert _states(layers, 1) is layers[1]


def test_the_tail_sums_read_a_dict(compiled: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A caller's native states (the world count's own pass) reach the last layer's sums as a
    dict, the form their compiled loop reads; the totals equal the dict's."""
    progs = [build(facts, "deals") for facts in positions(("random-225", "random-5"))]
    seen: list[str] = []
    for name in ("tail_total", "tail_layer"):
        real = getattr(tail_sums, name)

        def spy(prog: Programme, i: int, states: Any, *rest: Any, real: Any = real) -> Any:
            seen.append(type(states).__name__)
            return real(prog, i, states, *rest)

        monkeypatch.setattr(tail_sums, name, spy)
    for prog in progs:
        t = len(prog.layers) - 1
        states, i = prog.forward[t], prog.layers[t][0]
        assert _tail_total(prog, i, compiled.native(states)) == _tail_total(prog, i, states)
        fast, slow = _tail_layer(prog, i, compiled.native(states)), _tail_layer(prog, i, states)
        assert (list(fast[0].items()), fast[1:]) == (list(slow[0].items()), slow[1:])
    assert set(seen) == {"dict"} and len(seen) == 8
