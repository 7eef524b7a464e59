"""The early count's walk compiled whole (``_early.walk``, ``_Walk.walk_compiled``; issue 24 goal 1,
the easy positions' fixed cost): on real positions, both measures and any work limit, the same
total, tallies (values and order), work, part done and give-up as the Python walk with the
compiled loops, and the same memos filled in the same order (the walk's shares, group shares,
late rows, packed tables and pairs; the shared ENDS and SHARES); the same as the pure walk (the
reference) too.  Bad arguments raise, as the Python walk would."""

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
from gamelib.fugitive.belief import direct, direct_early, facts_from_state, kernel
from gamelib.fugitive.belief.bits import DONE
from gamelib.fugitive.belief.facts import Facts
from gamelib.fugitive.belief.tables import COMB, FALL
from gamelib.fugitive.rules import STEP_LIMIT, FugitiveState

_early = pytest.importorskip("gamelib.fugitive.belief._early")

BENCH = Path(__file__).parents[2] / "benchmarks" / "data"
SETS = (BENCH / "fugitive_belief_random_v2.jsonl.gz", BENCH / "fugitive_belief_agents_v2.jsonl.gz")


@pytest.fixture(autouse=True)
def compiled() -> Iterator[None]:
    """The compiled loops on (skipped where they cannot be), the switch restored after."""
    before = kernel.COMPILED
    if not kernel.use_compiled(True):
        pytest.skip("the kernel's switch cannot turn compiled loops on here")
    yield
    kernel.use_compiled(before)


def stacks_of(facts: Facts) -> list[int]:
    """The face-down sprint cards per position, as early_count hands them to _Walk."""
    stacks = [0] * (facts.size + 1)
    for i in range(1, facts.size + 1):
        stacks[i] = facts.sprint_counts[i] - len(facts.known_sprints[i])
    return stacks


def walk_candidates(every: int) -> list[Facts]:
    """Every ``every``-th row of both v2 sets that early_count walks (given up on or not)."""
    out = []
    for path in SETS:
        with gzip.open(path, "rt") as handle:
            rows = [json.loads(line) for line in handle][::every]
        for row in rows:
            state = gamelib.from_record(row["record"])
            assert isinstance(state, FugitiveState)
            facts = facts_from_state(state)
            if facts.pending or facts.size < 1 or direct.direct_count(facts, "deals") is not None:
                continue
            stacks = stacks_of(facts)
            if any(stacks[i] and facts.known[i] >= 0 for i in range(1, facts.size + 1)):
                continue
            if not any(stacks[: facts.size]) or not direct_early.takes(facts, stacks):
                continue
            if any(min(cap[:3]) < 0 for cap in facts.caps[1:]):
                continue
            out.append(facts)
    return out


POSITIONS = walk_candidates(4)


def state_of(walk: Any, ok: bool) -> tuple[Any, ...]:
    """What a walk leaves: its answer, total, tallies, work, part done, memos (items, in order)."""
    items = lambda d: list(d.items())  # noqa: E731
    return (
        ok,
        walk.total,
        [(i, list(t)) for i, t in walk.tallies.items()],
        walk.work,
        type(walk.work),
        walk.done,
        items(walk.shares),
        items(walk.group_shares),
        items(walk.late),
        items(walk.low_pairs),
        items(walk.high_pairs),
        [items(p) for p in walk.packed],
        walk.width,
        items(direct_early.ENDS),
        items(direct_early.SHARES),
    )


def both_walks(facts: Facts, measure: str, limit: int | None, warm: bool) -> tuple[Any, Any]:
    """The Python walk (compiled loops) and the compiled walk from the same shared memos: cleared,
    or (warm) as one early count of the position leaves them."""
    out: list[Any] = []
    for compiled_walk in (False, True):
        direct.clear_shared()
        if warm:
            direct_early.early_count(facts, "deals" if measure == "worlds" else "worlds")
        walk = direct_early._Walk(facts, measure, stacks_of(facts))
        if limit is not None:
            walk.limit = limit
        ok = walk.walk_compiled() if compiled_walk else walk.walk(1, 0, 0, {0: 1})
        out.append(state_of(walk, ok))
    return out[0], out[1]


def test_compiled_walk_equals_python_walk_on_stored_positions() -> None:
    """Every 4th early-route row of both v2 sets, both measures, cold memos: identical."""
    assert len(POSITIONS) > 150
    gave_up = walked = 0
    for facts in POSITIONS:
        for measure in ("deals", "worlds"):
            python, compiled = both_walks(facts, measure, None, False)
            assert compiled == python
            gave_up += not compiled[0]
            walked += compiled[0]
    assert gave_up > 20 and walked > 100  # both outcomes seen


def test_compiled_walk_equals_pure_walk() -> None:
    """The pure walk (the reference, use_compiled(False)) gives the same answer, total, tallies,
    work and part done as the compiled walk."""
    for facts in POSITIONS[::3]:
        for measure in ("deals", "worlds"):
            got = []
            for on in (False, True):
                kernel.use_compiled(on)
                direct.clear_shared()
                walk = direct_early._Walk(facts, measure, stacks_of(facts))
                assert walk.fast == on
                ok = walk.walk_compiled() if on else walk.walk(1, 0, 0, {0: 1})
                got.append(
                    (ok, walk.total, [(i, list(t)) for i, t in walk.tallies.items()], walk.work, walk.done)
                )
            assert got[1] == got[0]
            kernel.use_compiled(False)
            direct.clear_shared()  # the work (and so the give-up) depends on the memos found
            pure = direct_early.early_count(facts, measure)
            kernel.use_compiled(True)
            direct.clear_shared()
            assert direct_early.early_count(facts, measure) == pure


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, len(POSITIONS) - 1),
    st.sampled_from(["deals", "worlds"]),
    st.one_of(st.none(), st.integers(0, 3), st.integers(4, 400), st.integers(401, 30_000)),
    st.booleans(),
)
def test_any_limit_gives_up_alike(at: int, measure: str, limit: int | None, warm: bool) -> None:
    """Any work limit (0, small: a give-up at any point of the walk, or large) and warm or cold
    shared memos: the same give-up, work, part done, total, tallies and memos."""
    python, compiled = both_walks(POSITIONS[at], measure, limit, warm)
    assert compiled == python


def test_bad_arguments_raise() -> None:
    """Wrong arguments raise (never crash): counts, types, DONE's encoding, a walker without
    the walk's tables; a series whose numbers are empty raises IndexError as advance() does."""
    facts = next(f for f in POSITIONS if any(direct_early._Walk(f, "deals", stacks_of(f)).active))
    args = (
        direct_early.ENDS,
        direct_early.SHARES,
        4_000,
        FALL,
        COMB,
        direct_early.END_MASKS,
        4,
        STEP_LIMIT,
        DONE,
    )
    walk = direct_early._Walk(facts, "deals", stacks_of(facts))
    with pytest.raises(TypeError):
        _early.walk(walk, *args[:-1])
    with pytest.raises(TypeError):
        _early.walk(walk, [], *args[1:])
    with pytest.raises(ValueError):
        _early.walk(walk, *args[:-1], 62)
    with pytest.raises(AttributeError):
        _early.walk(object(), *args)
    emptied = direct_early._Walk(facts, "deals", stacks_of(facts))
    emptied.active = [[(j, (), deadline) for j, _, deadline in acts] for acts in emptied.active]
    with pytest.raises(IndexError):
        emptied.walk(1, 0, 0, {0: 1})
    emptied = direct_early._Walk(facts, "deals", stacks_of(facts))
    emptied.active = [[(j, (), deadline) for j, _, deadline in acts] for acts in emptied.active]
    with pytest.raises(IndexError):
        emptied.walk_compiled()
    broken = direct_early._Walk(facts, "deals", stacks_of(facts))
    broken.capg = [(0, 0, 0)] * len(broken.capg)  # caps of 3, not 4
    with pytest.raises(TypeError):
        broken.walk_compiled()


def test_values_made_on_first_use() -> None:
    """The compiled walk picks values from ``reach`` itself: ``_Walk.values`` is made only when a
    Python walk (or _Gather) reads it, and equals the per-position bits it was made from before."""
    for facts in POSITIONS[::5]:
        walk = direct_early._Walk(facts, "deals", stacks_of(facts))
        assert "values" not in vars(walk)
        walk.walk_compiled()
        assert "values" not in vars(walk)
        size, known, reach = walk.size, walk.known, walk.reach
        want: list[list[int]] = [[]] + [
            direct._bits(reach[i]) if known[i] < 0 or i == size else [] for i in range(1, size + 1)
        ]
        assert walk.values == want
        assert walk.values is walk.values  # made once
