"""The last layer of the class shares as a bilinear form (belief.marginals_tail): the same share
sums as the meets per final state, on every last layer (its size threshold turned off), and the
card locations still equal to the brute-force listing under every option."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from test_belief_brute_force import OPTIONS, positions
from test_belief_locations import assert_locations_equal_the_listing

import gamelib
from gamelib.fugitive.belief import belief, build, facts_from_state, marginals, marginals_tail
from gamelib.fugitive.belief.marginals import ClassShares
from gamelib.fugitive.rules import cards_of

DATA = Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz"


def reads(shares: ClassShares, facts) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]
    klass = facts.tables.class_of
    return [shares.where(v, klass[v]) for v in cards_of(facts.unknown) if klass[v] >= 0]


def both_ways(facts, measure: str, monkeypatch: pytest.MonkeyPatch) -> tuple[ClassShares, ClassShares, bool]:  # type: ignore[no-untyped-def]
    prog = build(facts, measure)
    taken = []
    real = marginals_tail.tail_shares

    def recording(*args, **kwargs):  # type: ignore[no-untyped-def]
        done = real(*args, **kwargs)
        taken.append(done)
        return done

    monkeypatch.setattr(marginals, "tail_shares", recording)
    monkeypatch.setattr(marginals_tail, "FROM", 0)
    new = marginals.class_shares(prog)
    monkeypatch.setattr(marginals_tail, "FROM", 10**12)
    old = marginals.class_shares(prog)
    return new, old, any(taken)


def test_bilinear_last_layer_equals_the_meets_on_stored_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    with gzip.open(DATA, "rt") as handle:
        rows = [json.loads(line) for line in handle]
    taken = 0
    for row in rows[::8]:
        facts = facts_from_state(gamelib.from_record(row["record"]))
        for measure in ("deals", "worlds"):
            if len(cards_of(facts.unknown)) < 20:
                continue
            new, old, done = both_ways(facts, measure, monkeypatch)
            assert (new.total, new.expect, new.scale, new.width) == (
                old.total,
                old.expect,
                old.scale,
                old.width,
            )
            assert reads(new, facts) == reads(old, facts), (row["id"], measure)
            taken += done
    assert taken >= 40


@pytest.mark.parametrize("measure", ["deals", "worlds"])
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_card_locations_through_it_equal_the_enumeration(
    options: dict, measure: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(marginals_tail, "FROM", 0)
    monkeypatch.setattr("gamelib.fugitive.belief.probabilities.DIRECT_COUNT", False)
    checked = 0
    for state in positions(options, seed=900 + len(str(options)), count=8):
        if not belief(state).exact:
            continue
        assert_locations_equal_the_listing(state, measure)
        checked += 1
    assert checked >= 2
