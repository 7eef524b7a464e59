"""The pair layers' shortcuts are exact: a pair that cannot fill a group does not close, and a large
layer's pair moves are shared between signatures that split a group's even hideouts and marks
differently (``Programme._open_deltas``).

Both only skip work: the programme's states, weights and completions are those of the programme
that closes every pair and composes every signature's moves itself.
"""

from __future__ import annotations

import gzip
import importlib
import json
from pathlib import Path

import pytest

import gamelib
from gamelib.fugitive import belief as belief_module
from gamelib.fugitive.belief.bits import PAIR
from gamelib.fugitive.belief.build import backward, build
from gamelib.fugitive.belief.programme import Programme
from gamelib.fugitive.rules import FugitiveState

build_module = importlib.import_module("gamelib.fugitive.belief.build")  # the module, not the function
DATA = Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz"


def largest(count: int) -> list[dict]:
    """The shared positions with the most face-down sprint cards."""
    with gzip.open(DATA, "rt") as handle:
        rows = [json.loads(line) for line in handle]
    rows.sort(key=lambda row: -row.get("hidden_sprint_cards", 0))
    return rows[:count]


def facts_of(row: dict) -> belief_module.Facts:
    state = gamelib.from_record(row["record"])
    assert isinstance(state, FugitiveState)
    return belief_module.facts_from_state(state)


def always_closing(self: Programme, i: int, g: int | None = None) -> bool:
    return self.closing and i != self.pending_pos


def composed(self: Programme, i: int, g: int, sig: int) -> list[tuple[int, int]]:
    return [(dst - sig, w) for dst, w in self._pair_hit(i, g, sig, False)]


@pytest.mark.parametrize("measure", ["deals", "worlds"])
def test_pair_shortcuts_keep_every_state_and_weight(monkeypatch: pytest.MonkeyPatch, measure: str) -> None:
    monkeypatch.setattr(build_module, "SHARE_OPEN", 40)  # the large layers' paths on small positions
    shared = calls = open_pairs = 0
    original = Programme._open_deltas

    def counting(self: Programme, i: int, g: int, sig: int) -> list[tuple[int, int]]:
        nonlocal calls, shared
        calls += 1
        memo = self.delta_memo
        before = len(memo) if memo is not None else -1
        hit = original(self, i, g, sig)
        shared += memo is not None and len(memo) == before  # another signature's moves served
        return hit

    for row in largest(24):
        facts = facts_of(row)
        with monkeypatch.context() as patch:
            patch.setattr(Programme, "_pair_closes", always_closing)
            patch.setattr(Programme, "_open_deltas", composed)
            plain = build(facts, measure)
        with monkeypatch.context() as patch:
            patch.setattr(Programme, "_open_deltas", counting)
            fast = build(facts, measure)
        open_pairs += sum(
            kind == PAIR and not fast._pair_closes(i, g) and i != fast.pending_pos
            for i, kind, g in fast.layers
        )
        assert fast.total == plain.total, row["id"]
        expected = row["deal_weighted_mass"] if measure == "deals" else row["worlds"]
        assert fast.mass == expected, row["id"]
        assert fast.forward == plain.forward, row["id"]
        assert backward(fast) == backward(plain), row["id"]
        assert fast.marginals == plain.marginals, row["id"]
        only = build(facts, measure, count_only=True)
        assert only.total == plain.total, row["id"]
    assert open_pairs >= 10  # pairs that could fill no group, so did not close
    assert calls >= 100 and shared >= 10  # moves shared between signatures
