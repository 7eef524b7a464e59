"""The world count (measure ``worlds``) from the deals count's own moves: no second build.

The two measures' programmes have the same states in every layer and the same moves; only the
moves' weights differ, by the deal factors alone: a move of position ``i`` that lays ``k`` more
cards of deck group ``g`` (``u`` laid before) weighs ``FALL[s - u][k]`` more under ``deals``,
``s`` the group's free draws at ``i`` (``Programme.slots``), and a face-up position's value move
``FALL[s - u][c]`` for its ``c`` face-up cards of the deck.  Everything else (binomials, marks,
the signed footprint identity, a closing group's final weight, whose hand is empty when it is not
0) is the same.  The deal factor of a kept move is read from the bits of its source and
destination (the card counts), so the worlds weight is the deals weight divided by it, exactly.

Why the states are the same: a group's room at a position (its cap, at most the cards drawn
before it) never exceeds its free draws, so no deal factor is 0 and the deals programme prunes no
move the worlds programme makes (checked on every position of the stored and held-out sets).

:func:`keep_moves` holds the count's kept moves (the backward pass lets them go) and
:func:`world_total` walks them forward with the worlds weights (converted once per kept list:
``(part, weight)`` by signature, or a large pair layer's ``(delta, weight)`` lists; the layers
walked by :func:`~.kernel.push` when it runs compiled, 1.6x on the hardest positions), then sums the
last layer: from the deals count's own completions of its sources when the fugitive drew nothing
after the last position (:func:`_settled_tail`: the deal factors of the last position telescope),
else with the worlds final weights (:func:`~.build._tail_total` on a view of the programme under
measure ``worlds``: the same positions, fresh final-weight memos).  The cost is one pass over the
edges without making a move, against a build that makes every move again.
"""

from __future__ import annotations

import copy
import math
from typing import Any

from gamelib.fugitive.belief import kernel
from gamelib.fugitive.belief.bits import KEEP, PAIR, U_SH, VALUE, VALUE_READS
from gamelib.fugitive.belief.build import ByReads, _tail_total
from gamelib.fugitive.belief.programme import Programme
from gamelib.fugitive.belief.tables import FALL, GROUPS, falling

KEPT = "worlds_moves"
"""The programme attribute that holds the count's kept moves for :func:`world_total`."""

U_BITS = sum(31 << sh for sh in U_SH)
"""The groups' card counts in a state."""

ONES = (1,) * 64
"""The deal factors of a group without free draws (``slots`` -1): none."""

_MEMOS = (
    "weights_memo",
    "mark_vectors",
    "halves",
    "even_vectors",
    "even_halves",
    "rows_seen",
    "rows_scaled",
    "met",
    "suffixes",
    "even_polys",
    "polys",
    "halves0",
    "polys0",
    "closed_memo",
    "part_memo",
)
"""The final-weight memos a view under another measure must not share."""


def keep_moves(prog: Programme) -> None:
    """Hold the kept moves of a deals count (before its backward pass lets them go) so that
    :func:`world_total` can walk them later."""
    if prog.measure == "deals" and prog.saved is not None and not prog.count_only:
        setattr(prog, KEPT, prog.saved)


def worlds_view(prog: Programme) -> Programme:
    """``prog`` under measure ``worlds``: the same positions and moves, its own final weights."""
    view = copy.copy(prog)
    view.measure = "worlds"
    for name in _MEMOS:
        setattr(view, name, {})
    view.poly_contexts = []
    view.slots = [(-1, -1, -1, -1) for _ in prog.slots]
    view.back = view.saved = view.marginals = None
    return view


def world_total(prog: Programme) -> int | None:
    """The worlds measure's total of the deals count ``prog`` (ordered stacks: divide by
    ``prog.stacks``), or None when its moves were not kept (:func:`keep_moves`) or were already
    walked (they are let go here: the caller keeps the total)."""
    saved: list[Any] | None = getattr(prog, KEPT, None)
    if saved is None:
        return None
    setattr(prog, KEPT, None)  # served once: the belief keeps the count it gives
    view = worlds_view(prog)
    states: Any = kernel.native({0: 1} if prog.forward and prog.forward[0] else {})  # native when compiled
    layers = prog.layers
    last = len(layers) - 1
    for t, (i, kind, g) in enumerate(layers):
        if prog.tail and t == last:
            settled = _settled_tail(prog, saved[t], states)
            return settled if settled is not None else _tail_total(view, i, states)[0]
        kept = saved[t]
        if kind == PAIR and isinstance(kept, ByReads):
            states = _pair_pass(prog, i, g, kept, states)
        elif kind != VALUE:  # group layers (a full programme): not a count
            return None
        elif prog.closing and i != prog.npos and not prog.stack[i]:  # the value move closes (build)
            if not isinstance(kept, dict):
                return None  # kept in a form this walk does not read: the caller counts again
            states = kernel.native(_closing_pass(prog, i, kept, states))
        elif isinstance(kept, ByReads):
            states = _value_pass(kept, states)
        else:
            return None
    total = 0
    for key, weight in states.items():
        if weight:
            total += weight * view.final_weight(key)
    return total


def _settled_tail(prog: Programme, completions: Any, states: dict[int, int]) -> int | None:
    """The last layer's worlds total from the deals count's own completions of its sources, when
    the fugitive drew no card after laying the last (face-down) position: None otherwise.

    Then every deck group's free draws there are all of its cards (``slots == fug``), and a
    completion's deal factors, ``s - u`` for the hideout, ``FALL[s - u'][k]`` for the stack's
    cards and ``(fug - u' - k)!`` for the hand, multiply to ``(s - u)!`` whatever the hideout and
    the stack's share: the deals completion of a source is its worlds completion times
    ``prod_g (s_g - u_g)!`` (``u`` its cards of the group), a division per source."""
    n = prog.npos
    slots = prog.slots[n]
    if not (prog.hidden[n] and isinstance(completions, dict)):
        return None
    if any(slots[g] != prog.fug[g] for g in range(1, GROUPS)):
        return None
    s1, s2, s3 = slots[1], slots[2], slots[3]
    factorial = [math.factorial(x) for x in range(max(s1, s2, s3) + 1)]
    scale: dict[int, int] = {}
    get = completions.get
    total = 0
    for src, weight in states.items():
        b = get(src)
        if b and weight:
            ukey = src & U_BITS
            r = scale.get(ukey)
            if r is None:
                r = scale[ukey] = (
                    factorial[s1 - ((src >> U_SH[1]) & 31)]
                    * factorial[s2 - ((src >> U_SH[2]) & 31)]
                    * factorial[s3 - ((src >> U_SH[3]) & 31)]
                )
            total += weight * (b // r)
    return total


def _value_pass(kept: ByReads, states: dict[int, int]) -> dict[int, int]:
    """A value layer that does not close its position: every worlds weight is 1 (a hidden
    value's deals weight is its group's free draws, a face-up position's the ways to have drawn
    its cards; the worlds measure has neither)."""
    memo = kept.memo
    if kernel.COMPILED:  # each signature's moves as (delta, 1)
        units = {sig: [(delta, 1) for delta, _, _ in moves] for sig, moves in memo.items()}
        return kernel.push(states, VALUE_READS, KEEP, units)[0]
    out: dict[int, int] = {}
    get = out.get
    for src, weight in states.items():
        if not weight:
            continue
        base = src & KEEP
        for delta, _, _ in memo[src & VALUE_READS]:
            dst = base + delta
            out[dst] = get(dst, 0) + weight
    return out


def _value_factors(prog: Programme, i: int, src: int) -> tuple[int, ...]:
    """Per group, the deal factor of a value move of position ``i`` from ``src`` taking a hidden
    hideout of that group (index 4: of the position's face-up cards, if it is face up)."""
    slots = prog.slots[i]
    us = [(src >> U_SH[g]) & 31 for g in range(GROUPS)]
    if prog.hidden[i]:
        return (*(slots[g] - us[g] if slots[g] >= 0 else 1 for g in range(GROUPS)), 1)
    face = 1
    for d in range(3):
        c = prog.known_at[i][d]
        if c and slots[d + 1] >= 0:
            face *= falling(slots[d + 1] - us[d + 1], c)
    return (1, 1, 1, 1, face)


def _closing_pass(prog: Programme, i: int, kept: dict[int, Any], states: dict[int, int]) -> dict[int, int]:
    """A value layer that closes its position (moves kept by source): the deals weight divided by
    the value move's deal factor (closing folds in no deal factor: a closed group's hand is empty)."""
    out: dict[int, int] = {}
    get = out.get
    group = prog.group_tab
    hidden = prog.hidden[i]
    factors: dict[int, tuple[int, ...]] = {}
    for src, weight in states.items():
        if not weight:
            continue
        ukey = src & U_BITS
        f = factors.get(ukey)
        if f is None:
            f = factors[ukey] = _value_factors(prog, i, src)
        _, moves = kept[src]
        if hidden:
            for dst, w, v in moves:
                out[dst] = get(dst, 0) + weight * (w // f[group[v]])
        else:
            face = f[4]
            for dst, w, _ in moves:
                out[dst] = get(dst, 0) + weight * (w // face)
    return out


def _pair_pass(prog: Programme, i: int, g: int, kept: ByReads, states: dict[int, int]) -> dict[int, int]:
    """A pair of group layers: each signature's moves converted once to worlds weights (the deals
    weight divided by the two groups' deal factors, read from the card counts they add)."""
    slots = prog.slots[i]
    s0, s1 = slots[g], slots[g + 1]
    sh0, sh1 = U_SH[g], U_SH[g + 1]
    reads = kept.reads
    if kept.deltas is not None:
        return _push(states, reads, -1, _convert_deltas(kept.deltas, s0, s1, sh0, sh1))
    memo = {sig: _convert(moves, sig, s0, s1, sh0, sh1) for sig, moves in kept.memo.items()}
    # a part has no bit outside ``reads`` (test_h2_kernel_passes), so the destination ``rest |
    # part`` (``rest`` the source's other bits) is ``(src & ~reads) + part``
    return _push(states, reads, ~reads, memo)


def _push(
    states: dict[int, int], reads: int, keep: int, memo: dict[int, list[tuple[int, int]]]
) -> dict[int, int]:
    """``out[(src & keep) + d] += weight * w`` over every source and its moves ``memo[src &
    reads]``: :func:`~.kernel.push` when it runs compiled, else this loop (the pure push's
    per-source bookkeeping, an edge count and a memo miss test, costs ~9% on these passes; the
    sources whose weight cancelled to 0 are skipped here, the destinations they alone reach are
    then absent, which changes no total)."""
    if kernel.COMPILED:
        return kernel.push(states, reads, keep, memo)[0]
    out: dict[int, int] = {}
    get = out.get
    for src, weight in states.items():
        if not weight:
            continue
        base = src & keep
        for d, w in memo[src & reads]:
            dst = base + d
            out[dst] = get(dst, 0) + weight * w
    return out


def _convert_deltas(
    deltas: dict[int, list[tuple[int, int]]], s0: int, s1: int, sh0: int, sh1: int
) -> dict[int, list[tuple[int, int]]]:
    """:func:`_convert` for a layer kept as ``(delta, weight)`` lists (destination ``source +
    delta``, ``build._delta_layer``): a list is shared by signatures with the same card counts, so
    it is converted once (by identity), and equal lists at the same counts once (by content: the
    30 slowest positions' layers hold 57.9k lists but 21.0k contents, 70k moves of 170k); a
    delta's card counts are the cards the move lays (the counts are the state's lowest fields: no
    borrow reaches them)."""
    if s0 < 0 and s1 < 0:  # no deal factor: the deals weights are the worlds'
        return deltas
    memo: dict[int, list[tuple[int, int]]] = {}
    by_list: dict[int, list[tuple[int, int]]] = {}
    by_content: dict[tuple[Any, ...], list[tuple[int, int]]] = {}
    for sig, moves in deltas.items():
        hit = by_list.get(id(moves))
        if hit is None:
            u0, u1 = (sig >> sh0) & 31, (sig >> sh1) & 31
            ckey = (u0, u1, *moves)
            hit = by_content.get(ckey)
            if hit is None:
                f0 = FALL[s0 - u0] if s0 >= 0 else ONES
                f1 = FALL[s1 - u1] if s1 >= 0 else ONES
                hit = by_content[ckey] = [
                    (d, w // (f0[(d >> sh0) & 31] * f1[(d >> sh1) & 31])) for d, w in moves
                ]
            by_list[id(moves)] = hit
        memo[sig] = hit
    return memo


def _convert(
    moves: list[tuple[int, int]], sig: int, s0: int, s1: int, sh0: int, sh1: int
) -> list[tuple[int, int]]:
    """A pair signature's moves with their deals weights divided by the deal factors."""
    u0, u1 = (sig >> sh0) & 31, (sig >> sh1) & 31
    out = []
    for part, w in moves:
        f = 1
        if s0 >= 0:
            f = FALL[s0 - u0][((part >> sh0) & 31) - u0]
        if s1 >= 0:
            f *= FALL[s1 - u1][((part >> sh1) & 31) - u1]
        out.append((part, w // f if f != 1 else w))
    return out
