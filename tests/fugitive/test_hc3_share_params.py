"""``_early.share_params`` (C) makes ``_Walk.share_params`` as the Python loop it replaced did: the
same dict, keys in the same order, the same tuples (bools as bools, any ints), on real walks and on
any counts."""

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
from gamelib.fugitive.belief.tables import GROUPS
from gamelib.fugitive.rules import FugitiveState

_early = pytest.importorskip("gamelib.fugitive.belief._early")

BENCH = Path(__file__).parents[2] / "benchmarks" / "data"
SETS = (BENCH / "fugitive_belief_random_v2.jsonl.gz", BENCH / "fugitive_belief_agents_v2.jsonl.gz")


@pytest.fixture
def compiled() -> Iterator[None]:
    """Leaves the kernel's switch as it found it."""
    before = kernel.COMPILED
    if not kernel.use_compiled(True):
        pytest.skip("the kernel's switch cannot turn compiled loops on here (no _kernel)")
    yield
    kernel.use_compiled(before)


def python_params(size: int, stacks: Any, capg: Any, drawn: Any, before: Any, avail: Any, deals: bool) -> Any:
    """The loop _Walk.__init__ ran before (9c8e65e), the reference."""
    out = {}
    for i in range(1, size):
        if stacks[i]:
            out[i] = tuple(
                (
                    capg[i][g],
                    stacks[i],
                    deals and g > 0,
                    drawn[i][g - 1] - before[i][g - 1] if g else 0,
                    avail[2 * g + 1],
                    avail[2 * g],
                )
                for g in range(GROUPS)
            )
    return out


def same(a: Any, b: Any) -> None:
    """Equal with keys in the same order and every field's type alike (True is not 1 here)."""
    assert list(a.items()) == list(b.items())
    for key in a:
        for row_a, row_b in zip(a[key], b[key], strict=True):
            assert [type(x) for x in row_a] == [type(x) for x in row_b]


def test_share_params_on_stored_positions(compiled: None) -> None:
    """Every 3rd early-route row of both v2 sets, both measures: the walk's params = the loop's."""
    seen = 0
    for path in SETS:
        with gzip.open(path, "rt") as handle:
            rows = [json.loads(line) for line in handle][::3]
        for row in rows:
            state = gamelib.from_record(row["record"])
            assert isinstance(state, FugitiveState)
            facts = facts_from_state(state)
            if direct.direct_count(facts, "deals") is not None or not direct_early.early_count(
                facts, "deals"
            ):
                continue
            stacks = [facts.sprint_counts[i] - len(facts.known_sprints[i]) for i in range(facts.size + 1)]
            stacks[0] = 0
            for measure in ("deals", "worlds"):
                walk = direct_early._Walk(facts, measure, stacks)
                assert walk.fast
                want = python_params(
                    walk.size, stacks, walk.capg, walk.drawn, walk.before, walk.avail, walk.deals
                )
                same(walk.share_params, want)
                seen += bool(want)
    assert seen > 50


INTS = st.one_of(st.integers(-3, 45), st.sampled_from([2**63 - 1, 2**63, -(2**63) - 1, 2**64, 2**100]))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 6), st.booleans(), st.data())
def test_share_params_any_counts(size: int, deals: bool, data: st.DataObject) -> None:
    """Any ints (beyond a C long too, zero and negative stacks): the same dict, order and types."""
    rows = st.lists(st.tuples(*(INTS for _ in range(4))), min_size=size + 1, max_size=size + 1)
    stacks = data.draw(st.lists(INTS, min_size=size + 1, max_size=size + 1))
    capg, drawn, before = data.draw(rows), data.draw(rows), data.draw(rows)
    avail = data.draw(st.lists(INTS, min_size=8, max_size=8))
    want = python_params(size, stacks, capg, drawn, before, avail, deals)
    same(_early.share_params(size, stacks, capg, drawn, before, avail, deals), want)
    with pytest.raises(IndexError):
        _early.share_params(size + 2, [*stacks, 1], capg, drawn, before, avail, deals)
