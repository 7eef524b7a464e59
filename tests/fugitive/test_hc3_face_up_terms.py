"""A face-up position's free-draw terms are made once a walk (``_Walk.up_terms``) rather than on
every ``face_up`` call: the kept terms equal the ones made afresh, and the walks' counts, tallies
and face-up clouds equal those made with the terms rebuilt on every call (compiled and pure)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import gamelib
from gamelib.fugitive.belief import clear_caches, direct, direct_early, facts_from_state, kernel
from gamelib.fugitive.belief.facts import Facts
from gamelib.fugitive.belief.tables import FALL
from gamelib.fugitive.rules import FugitiveState

BENCH = Path(__file__).parents[2] / "benchmarks" / "data"
SETS = (BENCH / "fugitive_belief_random_v2.jsonl.gz", BENCH / "fugitive_belief_agents_v2.jsonl.gz")


@pytest.fixture(params=[True, False], ids=["compiled", "pure"])
def switch(request: pytest.FixtureRequest) -> Iterator[bool]:
    """Each test under both loops (compiled where it can be turned on), the switch restored after."""
    before = kernel.COMPILED
    if kernel.use_compiled(request.param) != request.param:
        pytest.skip("the compiled loops cannot be turned on here")
    yield request.param
    kernel.use_compiled(before)


def early_walks(every: int) -> list[tuple[Facts, list[int]]]:
    """Every ``every``-th row of both v2 sets that the early count takes, with its stacks."""
    out = []
    for path in SETS:
        with gzip.open(path, "rt") as handle:
            rows = [json.loads(line) for line in handle][::every]
        for row in rows:
            state = gamelib.from_record(row["record"])
            assert isinstance(state, FugitiveState)
            facts = facts_from_state(state)
            if direct.direct_count(facts, "deals") is None and direct_early.early_count(facts, "deals"):
                stacks = [0] * (facts.size + 1)
                for i in range(1, facts.size + 1):
                    stacks[i] = facts.sprint_counts[i] - len(facts.known_sprints[i])
                out.append((facts, stacks))
    return out


def fresh_terms(walk: Any, i: int) -> tuple[tuple[int, int, int], ...]:
    """Position ``i``'s terms as face_up made them on every call before they were kept (no _up_terms)."""
    if not walk.deals:
        return ()
    at, dr, bf = walk.known_at[i], walk.drawn[i], walk.before[i]
    return tuple((direct_early.U_BITS * (d + 1), at[d], dr[d] - bf[d]) for d in range(3) if at[d])


class _Forget(list[Any]):
    """A walk's up_terms that keep nothing: every pass makes its terms afresh (the code before)."""

    def __getitem__(self, i: Any) -> Any:
        return None

    def __setitem__(self, i: Any, value: Any) -> None:
        pass


class _Fresh(direct_early._Walk):
    """The walk with its terms made afresh on every face-up pass (the code before they were kept)."""

    def __init__(self, facts: Facts, measure: str, stacks: list[int]) -> None:
        super().__init__(facts, measure, stacks)
        self.up_terms = _Forget()


def test_kept_terms_equal_fresh_on_stored_positions(switch: bool) -> None:
    """Real walks, both measures: every kept term tuple equals the fresh one, the counts, tallies
    and work equal those of a walk that rebuilds them, and face_up on each walk's face-up
    positions gives the same cloud as the inline weight (:meth:`face_up_weight`) with the caps."""
    walks = early_walks(3)
    assert walks
    kept_seen = 0
    for facts, stacks in walks:
        for measure in ("deals", "worlds"):
            clear_caches()  # the same shared memos for both walks: same work, same answer
            walk = direct_early._Walk(facts, measure, stacks)
            assert walk.up_terms == [None] * (facts.size + 1)
            ok = walk.walk(1, 0, 0, {0: 1})
            clear_caches()
            fresh = _Fresh(facts, measure, stacks)
            assert fresh.walk(1, 0, 0, {0: 1}) == ok
            assert (walk.total, walk.tallies, walk.work, walk.done) == (
                fresh.total,
                fresh.tallies,
                fresh.work,
                fresh.done,
            )
            for i, terms in enumerate(walk.up_terms):
                if terms is not None:
                    kept_seen += 1
                    assert facts.known[i] >= 0
                    assert terms == fresh_terms(walk, i)
                    cloud = {0: 1, 1 << direct_early.U_BITS: 3, 2 << (2 * direct_early.U_BITS): 5, 31: 7}
                    want = {}
                    for key, w in cloud.items():
                        if walk.closes(key, i):
                            w *= walk.face_up_weight(i, key) if walk.deals else 1
                            if w:
                                want[key] = w
                    assert walk.face_up(i, cloud) == want
                    assert walk.up_terms[i] is terms  # kept, not remade
    assert kept_seen
    assert FALL  # the falling factorials the terms index


def test_terms_made_once_a_position(switch: bool) -> None:
    """_up_terms runs at most once per face-up position of a walk (it ran on every call before),
    and face_up made without kept terms makes the same ones."""
    calls: list[int] = []
    made = direct_early._up_terms

    def counting(deals: bool, at: Any, dr: Any, bf: Any) -> tuple[tuple[int, int, int], ...]:
        calls.append(id(at))
        return made(deals, at, dr, bf)

    direct_early._up_terms = counting
    try:
        for facts, stacks in early_walks(5):
            for measure in ("deals", "worlds"):
                calls.clear()
                walk = direct_early._Walk(facts, measure, stacks)
                walk.walk(1, 0, 0, {0: 1})
                kept = [i for i, terms in enumerate(walk.up_terms) if terms is not None]
                assert len(calls) == len(kept)
    finally:
        direct_early._up_terms = made
