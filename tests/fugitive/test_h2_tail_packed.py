"""The last layer's bilinear form (:mod:`gamelib.fugitive.belief.tail_sums`) on large layers: the
high half's suffix sums shared by halves whose group rows are equal up to a factor, each key's
``T`` summed in packed integers, the sources' dot products on their low flats' nonzero entries,
and the packed digits read back (64-bit digits by :mod:`struct`, others by shifts).  The same
integers as the per-key sums of :mod:`~gamelib.fugitive.belief.build`."""

from __future__ import annotations

import gzip
import importlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

import gamelib
from gamelib.fugitive import belief as belief_module
from gamelib.fugitive.belief import tail_sums
from gamelib.fugitive.belief.bits import HALVES, VALUE_READS
from gamelib.fugitive.belief.tables import COMB

build_module = importlib.import_module("gamelib.fugitive.belief.build")
DATA = Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz"
LARGE = ("random-183", "random-24", "random-255")
"""Shared positions whose last layer has 1,900-4,500 sources (summed here at the default sizes)."""


def large_rows() -> list[dict[str, Any]]:
    with gzip.open(DATA, "rt") as handle:
        rows = [json.loads(line) for line in handle]
    return [row for row in rows if row["id"] in LARGE]


def programme(row: dict[str, Any], measure: str) -> Any:
    state = gamelib.from_record(row["record"])
    return build_module.build(belief_module.facts_from_state(state), measure)


@pytest.mark.parametrize("width", [64, 72, 96, 136])
def test_packed_digits_read_back(width: int) -> None:
    rng = random.Random(width)
    size = 23
    bits = width - 1  # signed digits of width - 1 bits: the widest digit_width allows
    flats = [tuple(rng.randrange(-(1 << 20), 1 << 20) for _ in range(size)) for _ in range(5)]
    weights = [rng.randrange(-(1 << (bits - 24)), 1 << (bits - 24)) for _ in range(5)]
    total = sum(w * tail_sums.pack(f, width) for w, f in zip(weights, flats, strict=True))
    expected = [sum(w * f[j] for w, f in zip(weights, flats, strict=True)) for j in range(size)]
    assert max(map(abs, expected)) < 1 << bits
    assert tail_sums.unpack(total, width, size) == expected
    bias = tail_sums.bias_of(width, size)
    assert tail_sums.unpack(total, width, size, bias) == expected
    extreme = [-(1 << bits), (1 << bits) - 1, 0, -1, 1] + [0] * (size - 5)
    assert tail_sums.unpack(tail_sums.pack(tuple(extreme), width), width, size) == extreme


def test_digit_width() -> None:
    assert tail_sums.digit_width(1) == 64
    assert tail_sums.digit_width(64) == 64
    assert tail_sums.digit_width(65) == 72
    assert tail_sums.digit_width(72) == 72
    assert tail_sums.digit_width(73) == 80


def naive_suffixes(tail: tail_sums.Tail, first: int, h: int) -> tuple[int, ...]:
    """The half's suffix sums at counts ``h`` from the programme's rows, no sharing, no factor."""
    n, top = tail.n, tail.top
    stride = top + 1
    out = [0] * ((n + 1) * stride)
    p, q = tail._poly(first, h), tail._poly(first + 1, h)
    for k0, x in enumerate(p):
        for k1, y in enumerate(q):
            a = k0 + k1
            if a > n:
                continue
            comb = COMB[a][k0] * (COMB[n][a] if first == 0 else 1)
            for e, xv in x:
                for f, yv in y:
                    out[a * stride + min(e + f, top)] += comb * xv * yv
    for base in range(0, len(out), stride):
        for j in range(base + top - 1, base - 1, -1):
            out[j] += out[j + 1]
    return tuple(out)


@pytest.mark.parametrize("measure", ["deals", "worlds"])
def test_large_layers_share_suffix_sums_and_equal_per_key_sums(
    measure: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = large_rows()
    assert len(rows) == len(LARGE)
    shared = 0
    for row in rows:
        prog = programme(row, measure)
        assert prog.tail and prog.folded, row["id"]
        i, states = prog.npos, prog.forward[-2]
        assert len(states) >= tail_sums.FROM_TOTAL, row["id"]
        tail = tail_sums.Tail(prog, i, states)
        highs = sorted({(src & HALVES[2]) for src in states if tail.sig_ids[src & VALUE_READS][1] >= 0})
        for h in highs[:300]:
            t, factor, sums, _ = tail.ss_of(2, h, tail.top)
            assert t == tail.top
            assert tuple(factor * x for x in sums) == naive_suffixes(tail, 2, h), (row["id"], h)
        shared += len(tail.ss_shared) < len(tail.ss_memos[1])
        got = tail_sums.tail_layer(prog, i, states, least=0)
        tally = list(prog.tail_tally)
        total = tail_sums.tail_total(prog, i, states, least=0)
        with monkeypatch.context() as patch:
            patch.setattr(tail_sums, "FROM_LAYER", 1 << 60)
            patch.setattr(tail_sums, "FROM_TOTAL", 1 << 60)
            assert got == build_module._tail_layer(prog, i, states), row["id"]
            assert tally == prog.tail_tally, row["id"]
            assert total == build_module._tail_total(prog, i, states), row["id"]
    # halves whose rows are equal up to a factor met one suffix-sum vector
    assert shared == len(rows)


def test_sources_read_their_low_flats_nonzero_entries() -> None:
    flats = {5: ((0, 3, 0, 7), 0), 6: ((0, 0, 2, 0), 0), 7: ((0, 0, 0, 0), 0)}
    gets = tail_sums.Tail.low_gets(flats)
    assert 7 not in gets  # a flat of zeros: no completion through the high half
    vector = (11, 13, 17, 19)
    for h in (5, 6):
        vals, get = gets[h]
        assert sum(v * x for v, x in zip(vals, get(vector), strict=True)) == sum(
            a * b for a, b in zip(flats[h][0], vector, strict=True)
        )
