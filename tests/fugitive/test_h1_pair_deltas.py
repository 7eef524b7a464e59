"""A pair layer's moves composed in one pass (``Programme._pair_deltas``) are exactly the moves of
its first group's layer followed by its second's (``Programme._group_moves`` twice).

Every signature a count meets is checked, on the shared positions with the most face-down sprint
cards and on random-play positions mid-turn (a pending stack: the hand may still pay, the last
group clears nothing) and with small decks, in both measures; the programme composed group by
group then counts the same states and weights.
"""

from __future__ import annotations

import gzip
import importlib
import json
from pathlib import Path

import pytest

import gamelib
from gamelib.fugitive import belief as belief_module
from gamelib.fugitive.belief.build import backward, build
from gamelib.fugitive.belief.programme import Programme
from gamelib.fugitive.rules import FugitiveState
from tests.fugitive.fugitive_positions import random_position

build_module = importlib.import_module("gamelib.fugitive.belief.build")  # the module, not the function
DATA = Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz"


def group_by_group(prog: Programme, i: int, g: int, sig: int) -> dict[int, int]:
    """The pair's moves as the two group layers make them: (delta, weight), equal ones summed."""
    acc: dict[int, int] = {}
    for mid, w1, _ in prog._group_moves(i, g, sig, False):
        for dst, w2, _ in prog._group_moves(i, g + 1, mid, False):
            if w1 * w2:
                acc[dst - sig] = acc.get(dst - sig, 0) + w1 * w2
    return {d: w for d, w in acc.items() if w}


def composed_deltas(self: Programme, i: int, g: int, sig: int) -> list[tuple[int, int]]:
    return list(group_by_group(self, i, g, sig).items())


def facts_list() -> list[belief_module.Facts]:
    """Shared positions with many face-down sprint cards, then random-play positions (mid-turn
    ones among them: the detective's view of a state whose fugitive is laying a stack) under the
    default rules and with small decks."""
    with gzip.open(DATA, "rt") as handle:
        rows = [json.loads(line) for line in handle]
    rows.sort(key=lambda row: -row.get("hidden_sprint_cards", 0))
    out = []
    for row in rows[:12]:
        state = gamelib.from_record(row["record"])
        assert isinstance(state, FugitiveState)
        out.append(belief_module.facts_from_state(state))
    for seed in range(60):
        options = {"escape_card": 28} if seed % 3 == 0 else {}
        state = random_position(seed, 30 + 7 * (seed % 11), **options)
        facts = belief_module.facts_from_state(state)
        if facts.size >= 2:
            out.append(facts)
    return out


@pytest.mark.parametrize("measure", ["deals", "worlds"])
def test_pair_deltas_are_the_two_group_layers(monkeypatch: pytest.MonkeyPatch, measure: str) -> None:
    monkeypatch.setattr(build_module, "SHARE_OPEN", 20)  # the large layers' path on small positions
    seen: list[tuple[Programme, int, int, int, list[tuple[int, int]]]] = []
    original = Programme._pair_deltas

    def recording(self: Programme, i: int, g: int, sig: int) -> list[tuple[int, int]]:
        out = original(self, i, g, sig)
        seen.append((self, i, g, sig, out))
        return out

    pending = checked = 0
    for facts in facts_list():
        seen.clear()
        with monkeypatch.context() as patch:
            patch.setattr(Programme, "_pair_deltas", recording)
            fast = build(facts, measure)
        for prog, i, g, sig, out in seen:
            got = dict(out)
            assert len(got) == len(out)  # distinct takes, distinct destinations
            assert got == group_by_group(prog, i, g, sig)
            checked += 1
            if checked % 4 == 0:
                # as if the stack were pending (a count folds the last stack, so its pairs never
                # are): no mark bound, the last group neither weighs its marks nor clears
                was, prog.pending_pos = prog.pending_pos, i
                moves = prog._pair_deltas(i, g, sig)
                assert dict(moves) == group_by_group(prog, i, g, sig)
                pending += bool(moves)
                prog.pending_pos = was
        with monkeypatch.context() as patch:
            patch.setattr(Programme, "_pair_deltas", composed_deltas)
            plain = build(facts, measure)
        assert fast.total == plain.total
        assert fast.forward == plain.forward
        assert backward(fast) == backward(plain)
    assert checked >= 2000
    assert pending >= 100
