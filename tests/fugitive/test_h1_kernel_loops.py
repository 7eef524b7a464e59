"""The belief's edge loops run through ``belief.kernel`` (``push`` forward, ``pull`` backward) and
give exactly what walking each source's moves one by one gives.

``kernel.push`` and ``kernel.pull`` make a destination ``(src & keep) + delta``: a pair layer's
``rest | part`` (``rest`` the source's bits outside ``reads``) is that sum only if no part has a bit
outside ``reads``, checked here on every kept memo; a group layer's moves are memoised on the bits
they read (``GROUP_READS``) as deltas, which holds only if every source's moves add what its
signature's add, checked here against ``Programme._group_moves`` source by source.  Positions: the
shared ones with the most face-down sprint cards, random-play ones mid-turn and with small decks
(as test_h1_pair_deltas), in both measures, counting and full, with the large layers' path
(``SHARE_OPEN``) forced on small positions and not.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

import pytest

from gamelib.fugitive.belief import Facts, kernel
from gamelib.fugitive.belief.bits import GROUP, PAIR, VALUE
from gamelib.fugitive.belief.build import ByReads, backward, build
from gamelib.fugitive.belief.programme import Programme
from tests.fugitive.test_h1_pair_deltas import facts_list

build_module = importlib.import_module("gamelib.fugitive.belief.build")  # the module, not the function

CONFIGS = [("deals", False), ("worlds", False), ("deals", True), ("worlds", True)]


@functools.cache
def positions() -> list[Facts]:
    """test_h1_pair_deltas' positions but its four largest (full programmes of 36k-174k edges)."""
    return [facts for k, facts in enumerate(facts_list()) if k not in (3, 5, 6, 8)]


def moves_of(prog: Programme, t: int, src: int) -> list[tuple[int, int, int]]:
    """A source's moves through layer ``t`` one by one (no memo), the weightless ones left out."""
    return [move for move in prog.moves(t, src) if move[1]]


def forward_one_by_one(prog: Programme, t: int) -> dict[int, int]:
    out: dict[int, int] = {}
    for src, weight in prog.forward[t].items():
        for dst, w, _ in moves_of(prog, t, src):
            out[dst] = out.get(dst, 0) + weight * w
    return out


def backward_one_by_one(prog: Programme, t: int, tally: list[int] | None) -> dict[int, int]:
    nxt = prog.back[t + 1] if prog.back is not None else {}
    cur: dict[int, int] = {}
    for src, weight in prog.forward[t].items():
        b = 0
        for dst, w, label in moves_of(prog, t, src):
            x = nxt.get(dst, 0) * w
            b += x
            if tally is not None:
                tally[label] += weight * x
        if b:
            cur[src] = b
    return cur


def check_parts(prog: Programme) -> int:
    """Every kept memo of parts (pair layers): no part has a bit outside the bits it was memoised
    on, so ``rest | part == (src & ~reads) + part``.  Returns the parts checked."""
    checked = 0
    for (_, kind, _), kept in zip(prog.layers, prog.saved or [], strict=False):
        if kind == PAIR and isinstance(kept, ByReads) and kept.deltas is None:
            for moves in kept.memo.values():
                for part, _ in moves:
                    assert part >= 0
                    assert not part & ~kept.reads
                    checked += 1
    return checked


@pytest.mark.parametrize(
    ("measure", "full", "share_open"),
    [
        (measure, full, share_open)
        for measure, full in CONFIGS
        for share_open in ([1000] if full else [20, 1000])
    ],
)  # (a full programme has group layers, no pair layer: SHARE_OPEN does not matter there)
def test_layers_equal_their_moves_one_by_one(
    monkeypatch: pytest.MonkeyPatch, share_open: int, measure: str, full: bool
) -> None:
    monkeypatch.setattr(build_module, "SHARE_OPEN", share_open)
    layers = parts = 0
    for facts in positions():
        prog = build(facts, measure, full=full)
        parts += check_parts(prog)
        last = len(prog.layers) - 1
        walked = [t for t in range(len(prog.layers)) if not (prog.tail and t == last)]
        for t in walked:
            assert prog.forward[t + 1] == forward_one_by_one(prog, t)
        back = backward(prog)
        assert prog.marginals is not None
        for t in walked:
            i, kind, _ = prog.layers[t]
            tally = [0] * 43 if kind == VALUE and prog.hidden[i] else None
            assert back[t] == backward_one_by_one(prog, t, tally)
            if tally is not None and not (prog.tail and i == prog.npos):  # (the tail's own tally)
                assert prog.marginals[i] == tally
            layers += 1
    assert layers > 100
    assert parts > 100 or full


def test_the_loops_run_through_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Value, pair, large pair and group layers forward, and their backward pass, call
    ``kernel.push`` / ``kernel.pull`` (where a compiled kernel takes over), with the same counts."""
    calls: dict[str, int] = {"push": 0, "pull": 0}
    push, pull = kernel.push, kernel.pull

    def counting(name: str, function: Any) -> Any:
        def wrapped(*args: Any) -> Any:
            calls[name] += 1
            return function(*args)

        return wrapped

    facts = positions()[:8]
    plain = [(build(f, "deals").total, build(f, "worlds", full=True).total) for f in facts]
    monkeypatch.setattr(kernel, "push", counting("push", push))
    monkeypatch.setattr(kernel, "pull", counting("pull", pull))
    monkeypatch.setattr(build_module, "SHARE_OPEN", 20)
    kinds: set[int] = set()
    for f, (deals, worlds) in zip(facts, plain, strict=True):
        prog = build(f, "deals")
        full = build(f, "worlds", full=True)
        assert (prog.total, full.total) == (deals, worlds)
        backward(prog)
        backward(full)
        kinds.update(kind for _, kind, _ in full.layers)
    assert GROUP in kinds
    assert calls["push"] > 50
    assert calls["pull"] > 50
