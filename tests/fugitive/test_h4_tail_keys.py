"""The last layer of the class shares as a bilinear form (belief.marginals_tail): a key's ``Y`` and
``Z`` are made from the high half's counts alone (keys of one int: the item set's id above those
counts), and sources with hideouts in groups 0 or 1 too keep the share sums of the per-final-state
path."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

import gamelib
from gamelib.fugitive.belief import build, facts_from_state, marginals, marginals_tail
from gamelib.fugitive.belief.marginals import ClassShares
from gamelib.fugitive.belief.programme import Programme
from gamelib.fugitive.rules import cards_of

DATA = Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz"


def programme(row_id: str) -> Programme:
    """The deals programme of a stored shared position (built afresh: a walk converts kept moves)."""
    with gzip.open(DATA, "rt") as handle:
        for line in handle:
            row = json.loads(line)
            if row["id"] == row_id:
                return build(facts_from_state(gamelib.from_record(row["record"])), "deals")
    raise KeyError(row_id)


def reads(shares: ClassShares, prog: Programme) -> tuple[Any, ...]:
    """What the card locations read (a value's joint sums hold other classes' partial digits: the
    two paths need not agree on those)."""
    klass = prog.facts.tables.class_of
    where = [shares.where(v, klass[v]) for v in cards_of(prog.facts.unknown) if klass[v] >= 0]
    return shares.total * shares.scale, shares.expect, tuple(where)


@pytest.mark.parametrize("row_id", ["agents-2", "random-54"])
def test_a_key_s_sums_read_its_high_half_alone(row_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    prog = programme(row_id)
    highs: list[int] = []
    lows: list[int] = []
    real_dots, real_low = marginals_tail._dots, marginals_tail._low_moves

    def recording_dots(high: int, *args: Any) -> Any:
        highs.append(high)
        return real_dots(high, *args)

    def recording_low(*args: Any) -> Any:
        lows.append(args[0])
        return real_low(*args)

    monkeypatch.setattr(marginals_tail, "_dots", recording_dots)
    monkeypatch.setattr(marginals_tail, "_low_moves", recording_low)
    monkeypatch.setattr(marginals_tail, "FROM", 0)
    new = marginals.class_shares(prog)
    assert highs, "no key summed"
    assert all(high & ~marginals_tail.HIGH == 0 for high in highs), "a key's sums read the low half"
    assert bool(lows) == (row_id == "agents-2")
    monkeypatch.setattr(marginals_tail, "FROM", 10**12)
    old_prog = programme(row_id)
    old = marginals.class_shares(old_prog)
    assert reads(new, prog) == reads(old, old_prog)
