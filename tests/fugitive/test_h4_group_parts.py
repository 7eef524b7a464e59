"""The final share sums (belief.marginals_shares.FinalShares): a group's completions at given counts
are computed once per walk (rows of neighbouring counts read the same ones), with the same share sums
as when each row computes its own."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any

import pytest

import gamelib
from gamelib.fugitive.belief import build, facts_from_state, marginals, marginals_shares
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
    klass = prog.facts.tables.class_of
    where = [shares.where(v, klass[v]) for v in cards_of(prog.facts.unknown) if klass[v] >= 0]
    return shares.total * shares.scale, shares.expect, tuple(where), tuple(shares.joint)


@pytest.mark.parametrize("row_id", ["random-54", "random-13"])
def test_a_group_s_completions_are_computed_once_per_counts(
    row_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    prog = programme(row_id)
    calls: list[tuple[int, tuple[int, ...], int]] = []
    real = marginals_shares.group_shares

    def recording(prog_: Any, g: int, counts: Any, limit: int, scale: int) -> Any:
        caller = sys._getframe(1).f_locals.get("self")
        if isinstance(caller, marginals_shares.FinalShares):
            calls.append((g, tuple(counts), limit))
        return real(prog_, g, counts, limit, scale)

    monkeypatch.setattr(marginals_shares, "group_shares", recording)
    new = marginals.class_shares(prog)
    assert len(calls) > 50
    assert len(set(calls)) == len(calls), "a group's completions computed again for another row"

    def unshared(self: Any, g: int, u: int, h: int, he: int, m: int, limit: int) -> list[tuple[int, int]]:
        parts = real(self.prog, g, (u, h, he, m), limit, self.scale)
        return [(w, marginals_shares.pack(g, sums, self.width)) for w, sums in parts]

    monkeypatch.setattr(marginals_shares.FinalShares, "_parts", unshared)
    old_prog = programme(row_id)
    assert reads(new, prog) == reads(marginals.class_shares(old_prog), old_prog)
