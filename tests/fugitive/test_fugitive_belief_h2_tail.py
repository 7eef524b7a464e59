"""The last layer summed as a bilinear form (:mod:`gamelib.fugitive.belief.tail_sums`) gives the
very integers of the per-key sums (:func:`~gamelib.fugitive.belief.build._tail_layer` and
``_tail_total`` with the bilinear form turned off): each source's completions, the total, the
number of moves and the last position's value tallies, under both measures, on layers of any size
(small ones included: ``least=0``), with the hand paying mid-stack, hideouts in either half, needs
of 0 only and the packed sums' signed digits."""

from __future__ import annotations

import gzip
import importlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from fugitive_positions import random_position

import gamelib
from gamelib.fugitive import belief as belief_module
from gamelib.fugitive.belief import tail_sums
from gamelib.fugitive.rules import FugitiveState

build_module = importlib.import_module("gamelib.fugitive.belief.build")  # the package exports build()
DATA = Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz"


def rows() -> list[dict[str, Any]]:
    with gzip.open(DATA, "rt") as handle:
        return [json.loads(line) for line in handle]


def facts_of(row: dict[str, Any]) -> belief_module.Facts:
    state = gamelib.from_record(row["record"])
    assert isinstance(state, FugitiveState)
    return belief_module.facts_from_state(state)


def mid_turn() -> list[tuple[str, belief_module.Facts]]:
    """Random positions where the fugitive is laying a sprint stack (the hand may pay the pending
    hideout's footprints: the halves' rows then count the hand's even cards too)."""
    out = []
    for seed in range(300):
        state = random_position(seed, random.Random(seed).randrange(30, 150))
        if state.phase == 3 and state.sprints[-1]:  # F_SPRINT, a card already laid
            out.append((f"seed-{seed}", belief_module.facts_from_state(state)))
    return out


def per_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turn the bilinear form off: build's own per-key sums (the reference)."""
    monkeypatch.setattr(tail_sums, "FROM_LAYER", 1 << 60)
    monkeypatch.setattr(tail_sums, "FROM_TOTAL", 1 << 60)


def test_pack_and_unpack_signed_digits() -> None:
    flats = [(3, 0, 7, 1 << 40), (0, 5, 2, 9), (1, 1, 1, 1)]
    weights = [-(1 << 44) + 3, 17, -5]
    width = 96
    total = sum(w * tail_sums.pack(f, width) for w, f in zip(weights, flats, strict=True))
    expected = [sum(w * f[j] for w, f in zip(weights, flats, strict=True)) for j in range(4)]
    assert tail_sums.unpack(total, width, 4) == expected


@pytest.mark.parametrize("measure", ["deals", "worlds"])
def test_bilinear_tail_equals_per_key_sums(measure: str, monkeypatch: pytest.MonkeyPatch) -> None:
    per_key(monkeypatch)
    seen = {"layers": 0, "pending": 0, "low": 0, "top0": 0, "negative": 0, "big": 0}
    for name, facts in [(row["id"], facts_of(row)) for row in rows()[::5]] + mid_turn():
        prog = build_module.build(facts, measure)
        if not prog.tail or not prog.folded:
            continue
        i, states = prog.npos, prog.forward[-2]
        want = build_module._tail_layer(prog, i, states)
        want_tally = list(prog.tail_tally)
        got = tail_sums.tail_layer(prog, i, states, least=0)
        assert got is not None
        assert got == want, name
        assert prog.tail_tally == want_tally, name
        assert tail_sums.tail_total(prog, i, states, least=0) == build_module._tail_total(prog, i, states)
        tail = tail_sums.Tail(prog, i, states)
        seen["layers"] += 1
        seen["pending"] += facts.pending
        seen["low"] += any(lo >= 0 for lo, _, _ in tail.sig_ids.values())
        seen["top0"] += tail.top == 0
        seen["negative"] += any(w < 0 for w in states.values())
        seen["big"] += len(states) >= 1000
    # the cases the layer must handle were all met
    assert seen["layers"] > 60 and min(seen.values()) > 0, seen


def test_small_or_unfolded_layers_are_left_to_build() -> None:
    row = rows()[0]
    prog = build_module.build(facts_of(row), "deals")
    states = {0: 1}
    assert tail_sums.tail_layer(prog, prog.npos, states) is None  # fewer than FROM_LAYER sources
    assert tail_sums.tail_total(prog, prog.npos, states) is None
    prog.folded = False
    assert tail_sums.tail_total(prog, prog.npos, states, least=0) is None


@pytest.mark.parametrize("measure", ["deals", "worlds"])
def test_counts_through_the_bilinear_tail(measure: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole counts with every last layer summed here equal the stored counts, and the hideout
    marginals (the backward pass over the completions) those of the per-key sums."""
    positions = sorted(rows(), key=lambda row: -row.get("hidden_sprint_cards", 0))[:8]
    per_key(monkeypatch)
    reference = {}
    for row in positions:
        prog = build_module.build(facts_of(row), measure)
        build_module.backward(prog)
        reference[row["id"]] = prog.marginals
    monkeypatch.setattr(tail_sums, "FROM_LAYER", 0)
    monkeypatch.setattr(tail_sums, "FROM_TOTAL", 0)
    taken = []
    layer, total = build_module._tail_layer, build_module._tail_total

    def hooked_layer(prog: Any, i: int, states: dict[int, int]) -> Any:
        hit = tail_sums.tail_layer(prog, i, states)
        taken.append(hit is not None)
        return hit if hit is not None else layer(prog, i, states)

    def hooked_total(prog: Any, i: int, states: dict[int, int]) -> Any:
        hit = tail_sums.tail_total(prog, i, states)
        taken.append(hit is not None)
        return hit if hit is not None else total(prog, i, states)

    monkeypatch.setattr(build_module, "_tail_layer", hooked_layer)
    monkeypatch.setattr(build_module, "_tail_total", hooked_total)
    for row in positions:
        facts = facts_of(row)
        expected = row["deal_weighted_mass"] if measure == "deals" else row["worlds"]
        prog = build_module.build(facts, measure)
        assert prog.mass == expected, row["id"]
        build_module.backward(prog)
        assert prog.marginals == reference[row["id"]], row["id"]
        assert build_module.build(facts, measure, count_only=True).mass == expected, row["id"]
    assert sum(taken) >= 8
