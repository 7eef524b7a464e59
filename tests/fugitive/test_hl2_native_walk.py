"""The card locations' walk reads the count's native layers as they are stored.

Since the count keeps its forward layers as compiled ``_kernel.States`` (``build.Layers``), the
walk (:func:`~gamelib.fugitive.belief.marginals.class_shares`) hands a layer it pulls through the
compiled kernel (value, pair and open-delta layers) straight to ``kernel.pull`` / ``pull_tally``
as their sources, instead of making it a dict first (~130 ns a state).  The share sums then come
back native too, and a layer that needs a dict (a closing layer: its completions are flagged into
the sums' dict) makes it one.  The sums must stay the pure path's, bit for bit.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import gamelib
from gamelib.fugitive import belief as belief_module
from gamelib.fugitive.belief import kernel
from gamelib.fugitive.belief.build import backward, build
from gamelib.fugitive.belief.locations import card_locations
from gamelib.fugitive.belief.marginals import class_shares
from gamelib.fugitive.rules import FugitiveState

ROOT = Path(__file__).resolve().parents[2]
RANDOM_V2 = ROOT / "benchmarks" / "data" / "fugitive_belief_random_v2.jsonl.gz"
IDS = ("random-1", "random-5", "random-14", "random-17", "random-22", "random-330")
"""Positions with value, pair, open-delta and closing pair layers (random-330: one of the hardest)."""


@pytest.fixture
def compiled() -> Iterator[None]:
    """The compiled kernel on (skipped where it was not built), on again afterwards."""
    pytest.importorskip("gamelib.fugitive.belief._kernel")
    assert kernel.use_compiled(True)
    try:
        yield
    finally:
        kernel.use_compiled(True)


def positions() -> list[belief_module.Facts]:
    with gzip.open(RANDOM_V2, "rt") as handle:
        rows = {row["id"]: row for row in map(json.loads, handle) if row["id"] in IDS}
    facts = []
    for ident in IDS:
        state = gamelib.from_record(rows[ident]["record"])
        assert isinstance(state, FugitiveState)
        facts.append(belief_module.facts_from_state(state))
    return facts


def stored(prog: Any) -> list[str]:
    """The kinds of the forward layers as stored (not made dicts by reading them)."""
    return [type(list.__getitem__(prog.forward, t)).__name__ for t in range(len(prog.forward))]


def shares_of(prog: Any) -> tuple[Any, ...]:
    shares = class_shares(prog)
    return shares.total, shares.expect, shares.joint, shares.scale, shares.width


def test_the_walk_pulls_native_layers_and_equals_the_pure_path(compiled: None) -> None:
    """Compiled, the walk leaves the layers it pulled native (the old walk made every forward
    layer a dict); its share sums and the card-location floats equal the pure path's."""
    for facts in positions():
        fast = build(facts, "deals")
        backward(fast)
        assert "States" in stored(fast)
        got = shares_of(fast)
        assert "States" in stored(fast)  # pulled as stored, not read as a dict
        hideout = tuple(1.0 / 43 for _ in range(43))
        floats = card_locations(fast, hideout)
        kernel.use_compiled(False)
        slow = build(facts, "deals")
        backward(slow)
        assert set(stored(slow)) == {"dict"}
        assert shares_of(slow) == got
        assert [[x.hex() for x in v] for v in card_locations(slow, hideout)] == [
            [x.hex() for x in v] for v in floats
        ]
        kernel.use_compiled(True)


def test_a_layer_read_as_a_dict_first_gives_the_same_sums(compiled: None) -> None:
    """A programme whose layers a reader already made dicts (sampling, an earlier walk) pulls
    dicts and answers dicts: the same sums as from native layers."""
    for facts in positions()[:5]:
        native = build(facts, "deals")
        backward(native)
        read = build(facts, "deals")
        backward(read)
        for t in range(len(read.forward)):
            assert isinstance(read.forward[t], dict)
        assert shares_of(read) == shares_of(native)
