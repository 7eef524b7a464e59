"""The last layer of the class shares (belief.marginals_tail): a layer of a few hundred sources is
summed as a bilinear form (``FROM``: the meets per final state cost more there), with the share sums
of the per-final-state path."""

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


def test_a_last_layer_of_a_few_hundred_sources_is_summed_as_a_bilinear_form(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    prog = programme("random-13")
    sources = len(prog.forward[len(prog.layers) - 1])
    assert 100 <= sources < 1000 and prog.folded and not prog.facts.pending
    taken: list[bool] = []
    real = marginals_tail.tail_shares

    def recording(*args: Any, **kwargs: Any) -> bool:
        done = real(*args, **kwargs)
        taken.append(done)
        return done

    monkeypatch.setattr(marginals, "tail_shares", recording)
    new = marginals.class_shares(prog)
    assert taken == [True], "the last layer was summed per final state"
    monkeypatch.setattr(marginals_tail, "FROM", 10**12)
    old_prog = programme("random-13")
    old = marginals.class_shares(old_prog)
    assert reads(new, prog) == reads(old, old_prog)
