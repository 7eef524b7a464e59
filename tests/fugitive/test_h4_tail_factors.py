"""The last layer of the class shares as a bilinear form (belief.marginals_tail): high halves whose
groups' rows are equal up to a factor share one convolution of their suffix sums (the factor rides on
the moves' weights), with the share sums of the per-final-state path."""

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


def test_high_halves_equal_up_to_a_factor_share_one_convolution(monkeypatch: pytest.MonkeyPatch) -> None:
    prog = programme("random-54")
    made: list[Any] = []
    real = marginals_tail._Suffixes.__init__

    def recording(self: Any, *args: Any) -> None:
        real(self, *args)
        made.append(self)

    monkeypatch.setattr(marginals_tail._Suffixes, "__init__", recording)
    monkeypatch.setattr(marginals_tail, "FROM", 0)
    new = marginals.class_shares(prog)
    assert len(made) == 1
    assert len(made[0].met) * 2 < len(made[0].memo), "each high half convolved on its own"
    monkeypatch.setattr(marginals_tail, "FROM", 10**12)
    old_prog = programme("random-54")
    old = marginals.class_shares(old_prog)
    assert reads(new, prog) == reads(old, old_prog)
