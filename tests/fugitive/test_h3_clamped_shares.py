"""An early stack's group shares (gamelib.fugitive.belief.direct_early.SHARES) are kept by their
context with the free cards of each parity clamped to the stack's room: free cards beyond it change
no share, so contexts that differ only there (other positions, other games) share one entry."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import gamelib
from gamelib.fugitive.belief import direct, direct_early, facts_from_state
from gamelib.fugitive.belief.tables import COMB, FALL
from gamelib.fugitive.rules import FugitiveState

RANDOM = Path(__file__).parents[2] / "benchmarks" / "data" / "fugitive_belief_random_v2.jsonl.gz"


def shares(
    g: int, room: int, free: int, free_e: int, free_o: int, seg: int, seo: int
) -> tuple[tuple[int, ...], ...]:
    """The shares as the walk made them before (no clamping): (cards, even cards, weight, step)."""
    shift = direct_early.U_BITS * g
    out = []
    for k in range(room + 1):
        wk = FALL[free][k] if free >= 0 else 1
        for e in range(max(k - free_o, 0), min(k, free_e) + 1):
            x = wk * COMB[seg + e][e] * COMB[seo + k - e][k - e]
            if x:
                out.append((k, e, x, (k << shift) + (e << (direct_early.SE + shift))))
    return tuple(out)


def test_the_shares_are_kept_with_the_free_cards_clamped_to_the_room() -> None:
    with gzip.open(RANDOM, "rt") as handle:
        rows = [json.loads(line) for line in handle][::4]
    direct.clear_shared()
    counted = 0
    for row in rows:
        state = gamelib.from_record(row["record"])
        assert isinstance(state, FugitiveState)
        counted += direct_early.early_count(facts_from_state(state), "deals") is not None
    assert counted > 50
    kept = dict(direct_early.SHARES)
    assert len(kept) > 100
    for (g, room, free, free_e, free_o, seg, seo), made in kept.items():
        assert free_e <= max(room, 0) or room < 0
        assert free_o <= max(room, 0) or room < 0
        # any number of free cards past the room gives the same shares
        for more in (0, 1, 5):
            assert (
                shares(
                    g,
                    room,
                    free,
                    free_e + more * (free_e == room),
                    free_o + more * (free_o == room),
                    seg,
                    seo,
                )
                == made
            )
