"""The belief's edge loops, the one place their inner work is done.

Every layer of the belief's programme walks its sources the same way: a source's moves are a list
memoised on the bits of the source they read (its *signature*, ``src & reads``), and a move
``(d, w, ...)`` leads to ``(src & keep) + d`` with weight ``w``.  Forward, a layer pushes each
source's weight along its moves (:func:`push`); backward, a source pulls the completions of its
destinations (:func:`pull`).  These loops are where the hardest positions spend most of their time
(a fraction of a microsecond of dictionary and integer work per edge), so they are named once here:
the pure-Python functions below are the reference, and a compiled implementation of the same
functions, when one is importable, replaces them with identical results (same integers, same
dictionary order).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Moves = list[tuple[Any, ...]]
"""A signature's moves: tuples whose first two items are the delta ``d`` and the weight ``w``
(a label may follow)."""


def push(
    states: dict[int, int],
    reads: int,
    keep: int,
    memo: dict[int, Moves],
    miss: Callable[[int], Moves] | None = None,
) -> tuple[dict[int, int], int]:
    """One layer forward: ``out[(src & keep) + d] += weight * w`` for every source ``(src,
    weight)`` of ``states`` and every move ``(d, w, ...)`` of ``memo[src & reads]``.

    A signature missing from ``memo`` is filled with ``miss(sig)`` (``memo`` keeps it, as the
    loops it replaces did); without ``miss`` it is a ``KeyError``.  Returns the next states, in the
    order their first edge reached them, and the number of edges walked."""
    out: dict[int, int] = {}
    get = out.get
    count = 0
    for src, weight in states.items():
        sig = src & reads
        hit = memo.get(sig)
        if hit is None:
            if miss is None:
                raise KeyError(sig)
            hit = memo[sig] = miss(sig)
        base = src & keep
        count += len(hit)
        for move in hit:
            dst = base + move[0]
            out[dst] = get(dst, 0) + weight * move[1]
    return out, count


def pull(
    sources: Iterable[int], reads: int, keep: int, memo: dict[int, Moves], nxt: dict[int, int]
) -> dict[int, int]:
    """One layer backward: for every source, ``b = sum(w * nxt[(src & keep) + d])`` over the
    moves ``(d, w, ...)`` of ``memo[src & reads]`` whose destination ``nxt`` holds; returns the
    sources with ``b != 0``, in the order of ``sources``."""
    cur: dict[int, int] = {}
    get = nxt.get
    for src in sources:
        base = src & keep
        b = 0
        for move in memo[src & reads]:
            x = get(base + move[0])
            if x:
                b += x * move[1]
        if b:
            cur[src] = b
    return cur
