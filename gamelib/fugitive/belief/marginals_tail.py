"""The last layer of the class shares (:mod:`~.marginals`) as a bilinear form, per item set and half.

The last layer takes each source through the last position's hideout values into final states,
whose share sums (:class:`~.marginals_shares.FinalShares`) meet the last stack's two halves: with
``a`` of its ``n`` cards to groups {0, 1} (``e1`` evens) and ``b = n - a`` to groups {2, 3}
(``e2`` evens), a final state's sums for a ``need`` are

    T(low, high, need) = sum_b sum_{e1 + e2 >= need} A[b][e1] Hs[b][e2] + As[b][e1] Hw[b][e2]

(``A``/``As`` the low half's weights and share sums, ``C(n, a)`` in, ``Hw``/``Hs`` the high
half's).  A hideout of group 2 or 3 changes the high half only, so a source's sums through those
moves are ``<A, Y> + <As, Z>`` where ``Y``/``Z`` sum, over its moves, the move's weight times the
high half's suffix sums (``Hs``/``Hw`` summed from ``need - e1`` evens on): they depend only on the
source's *item set* (the moves its signature allows, interned: many signatures allow the same) and
on its high half's counts.  One dot product per source instead of one meet per final state.
High halves whose groups' rows are equal up to a factor share one convolution (the factor rides on
the moves' weights).

The values' tallies (the last position's hideout marginals of the shares) need only the digits of
the value's own class, of group 2 or 3: the ``A Hs`` part.  Sources' forward weights are summed
per (item set, high half, low half), dotted with the low half's weights, then with the suffix sums
once per (item set, high half, move class, need).  Moves of a hideout in groups 0 or 1 (rare late
in a game) are read per final state as before.  Exact: the same integers.

The dot products (one per source, ~850-bit share sums) and an item set's ``Y``/``Z`` (per item set
and high half) are most of the layer's time on the hardest positions, spent allocating big ints:
when the compiled kernel is on (:data:`~.kernel.COMPILED`, read per call) and ``_shares`` (an
optional C extension) is built, they are summed on 128-bit lanes over the ints' digits
(:func:`_dot` and :func:`_dots` below stay the reference; a call the extension refuses runs them).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from gamelib.fugitive.belief import kernel
from gamelib.fugitive.belief.bits import GROUP_BITS, HALVES, KEEP, LEFT, PREV, U_SH, VALUE_READS
from gamelib.fugitive.belief.marginals_shares import Entries
from gamelib.fugitive.belief.tables import COMB, GROUPS

ALL = (1 << 128) - 1
"""Masks read modulo 2**128 by the compiled loop (the states are below it)."""

try:
    from gamelib.fugitive.belief import _shares
except ImportError:  # no C compiler at install, or another interpreter: the pure loops serve
    _shares = None  # type: ignore[assignment]

FROM = 100
"""Sources of the last layer from which it is summed here (below, the meets per final state cost
less to set up).  From 1,000 down to 100: the layers of 100-1,000 sources were the slow part of
positions near the p99 (random-126, 445 sources: 105 -> 51 ms; random-834, 902: 106 -> 66 ms);
under 100 the two paths cost about the same (noisy: 0.6x-1.3x)."""

LOW, HIGH = HALVES[0], HALVES[2]
ID = PREV
"""Item-set ids sit above the counts in the keys of (item set, high half) (counts are below it)."""

Tail = tuple[int, int, int, list[tuple[int, int]]]
Sums = tuple[int, list[list[int]], list[list[int]], set[int]]
"""A high half's factor and divided suffix sums (weights, shares) by row, and its nonzero rows."""


class _Suffixes:
    """Per high half's counts: a factor and its rows' suffix sums by need, weights and shares (dense,
    0..n), for the rows ``bs`` the low halves read (the high half takes ``b`` of the stack's cards):
    the sums are the factor times those of the two groups' rows divided by their gcd (halves whose
    rows are equal up to a factor share one convolution: 13-45% fewer on the largest last layers).
    The shares are groups 2 and 3's digits only: kept shifted down by ``shift`` (the bits of groups
    0 and 1's digits, all 0 there), so the products the last layer makes of them are half as wide."""

    def __init__(self, finals: Any, n: int, bs: list[int], shift: int) -> None:
        self.finals, self.n, self.bs, self.shift = finals, n, bs, shift
        self.memo: dict[int, Sums] = {}
        self.polys: dict[int, tuple[int, int, list[Entries]]] = {}  # by the group and its counts
        self.canon: dict[tuple[object, ...], int] = {}  # an id per distinct divided rows
        self.met: dict[tuple[int, int], tuple[list[list[int]], list[list[int]], set[int]]] = {}

    def poly(self, g: int, state: int) -> tuple[int, int, list[Entries]]:
        """Group ``g``'s rows (:meth:`~.marginals_shares.FinalShares._poly`), shares shifted down,
        divided by the gcd of all their entries: (that gcd, the divided rows' id, the rows)."""
        key = (state >> U_SH[g]) & 31 | (state & GROUP_BITS[g]) | g << 72  # its counts (below bit 68)
        hit = self.polys.get(key)
        if hit is None:
            shift = self.shift  # exact: group 2 and 3's shares have no lower digit
            rows = [[(e, w, x >> shift) for e, w, x in row] for row in self.finals._poly(g, state, 0)]
            factor = 0
            for row in rows:
                for _, w, x in row:
                    factor = math.gcd(factor, w, x)
            factor = factor or 1
            if factor != 1:
                rows = [[(e, w // factor, x // factor) for e, w, x in row] for row in rows]
            ident = self.canon.setdefault(tuple(tuple(row) for row in rows), len(self.canon))
            hit = self.polys[key] = (factor, ident, rows)
        return hit

    def __call__(self, state: int) -> Sums:
        key = state & HIGH
        hit = self.memo.get(key)
        if hit is None:
            fp, ip, p = self.poly(2, state)
            fq, iq, q = self.poly(3, state)
            met = self.met.get((ip, iq))
            if met is None:
                met = self.met[ip, iq] = self._meet(p, q)
            hit = self.memo[key] = (fp * fq, *met)
        return hit

    def _meet(self, p: list[Entries], q: list[Entries]) -> tuple[list[list[int]], list[list[int]], set[int]]:
        """The rows ``bs`` of groups 2 and 3 met, summed from each even count on."""
        n = self.n
        top = min(len(p) + len(q) - 2, self.finals.room_of)
        weights: list[list[int]] = [[]] * (n + 1)
        shares: list[list[int]] = [[]] * (n + 1)
        live: set[int] = set()
        lp, lq = len(p), len(q)
        fast = _shares if _shares is not None and kernel.COMPILED else None
        for b in self.bs:
            if b > top:
                continue
            if fast is not None:  # the loop below, summed on lanes (marginals_shares._convolve)
                entries = fast.convolve(p, q, b, COMB[b])
                if not entries:
                    continue
                sw, ss = [0] * (n + 2), [0] * (n + 2)
                for t, xw, xs in entries:
                    sw[t], ss[t] = xw, xs
                live.add(b)
                for e in range(n, -1, -1):
                    sw[e] += sw[e + 1]
                    ss[e] += ss[e + 1]
                weights[b], shares[b] = sw, ss
                continue
            # row b of the two groups met (:func:`~.marginals_shares._convolve`), dense: evens
            # of a row are at most its cards (b <= n)
            sw, ss = [0] * (n + 2), [0] * (n + 2)
            comb = COMB[b]
            for k0 in range(max(0, b - lq + 1), min(b, lp - 1) + 1):
                first, second = p[k0], q[b - k0]
                if not first or not second:
                    continue
                c = comb[k0]
                for t1, xw, xs in first:
                    xw, xs = c * xw, c * xs
                    for t2, yw, ys in second:
                        sw[t1 + t2] += xw * yw
                        ss[t1 + t2] += xw * ys + yw * xs
            if not any(sw) and not any(ss):
                continue
            live.add(b)
            for e in range(n, -1, -1):
                sw[e] += sw[e + 1]
                ss[e] += ss[e + 1]
            weights[b], shares[b] = sw, ss
        return weights, shares, live


def tail_shares(
    walk: Any, t: int, tail_of: Callable[[Any, int, int], list[Tail]], tally: list[int] | None
) -> bool:
    """The last layer ``t`` of ``walk`` (:class:`~.marginals._Walk`) summed here; False (nothing
    done) when it is not one this module takes: not folded, pending, or small."""
    prog = walk.prog
    sources = prog.forward[t]
    if not prog.folded or prog.facts.pending or len(sources) < FROM:
        return False
    i = prog.layers[t][0]
    n = prog.stack[prog.npos]
    finals = walk.finals
    stride = n + 1
    sets: dict[tuple[Any, ...], int] = {}
    per_sig: dict[int, tuple[int, list[Tail]]] = {}
    set_moves: list[list[tuple[int, int, list[tuple[int, int]]]]] = []
    for sig in {src & VALUE_READS for src in sources}:
        groups = tail_of(prog, i, sig)
        if any((inc >> LEFT) & 63 != n for inc, _, _, _ in groups):
            return False  # a final state with another stack to share: not this layout
        set_id, high, low = _split(groups, sets, set_moves)
        per_sig[sig] = (set_id << ID if high else -1, low)  # the id above a high half's counts
    left = n << LEFT
    lows = {key: _low_entries(finals, key, n, stride) for key in {src & LOW | left for src in sources}}
    used = {j for entries in lows.values() for j, _, _ in entries}  # the (b, e1) slots read: Y, Z only there
    slots = [(j // stride, j % stride, j) for j in sorted(used)]
    shift = 2 * GROUPS * finals.width  # groups 2 and 3's share digits start there
    suffixes = _Suffixes(finals, n, sorted({b for b, _, _ in slots}), shift)
    set_needs = [_needs(moves) for moves in set_moves]
    by_b = [(b, [(e1, j) for b2, e1, j in slots if b2 == b]) for b in sorted({b for b, _, _ in slots})]
    dots: dict[int, tuple[list[int], list[int]]] = {}
    out, tables, by_need = walk.sums[t], finals.tables, finals.by_need
    fast = _shares if _shares is not None and kernel.COMPILED else None
    scaled: dict[int, list[tuple[int, list[list[int]]]]] = {}  # by key: its moves' w * factor, suffix sums
    if fast is not None:  # the loop below, compiled (it returns the tallies' x by slot per key)
        xs = fast.last_layer(
            sources, VALUE_READS & ALL, per_sig, HIGH, LOW, left, lows, dots,
            lambda h_key: _dots(
                h_key & HIGH, set_needs[h_key >> ID], suffixes, n, by_b, fast, scaled.setdefault(h_key, [])
            ),
            lambda src, fw, low: _low_moves(src & KEEP, fw, low, tables, by_need, tally),
            shift, stride * stride, tally is not None, out,
        )  # fmt: skip
        if xs is not NotImplemented:  # (refused, nothing done: a source beyond 128 bits)
            if tally is not None:
                live = {h_key: [(b, e1, x[j]) for b, e1, j in slots if x[j]] for h_key, x in xs.items()}
                _tally(tally, live, set_moves, suffixes, shift, fast, scaled)
            return True
    packed_lows, width = _packed_lows(lows, slots, sources) if tally is not None else ({}, 0)
    packed_q: dict[int, int] = {}
    for src, fw in sources.items():
        set_key, low = per_sig[src & VALUE_READS]
        s = 0
        if set_key >= 0:
            h_key = set_key | src & HIGH
            yz = dots.get(h_key)
            if yz is None:
                yz = dots[h_key] = _dots(src & HIGH, set_needs[set_key >> ID], suffixes, n, by_b)
            y, z = yz
            l_key = src & LOW | left
            high_sum = 0  # groups 2 and 3's digits (Y shifted down), then groups 0 and 1's
            for j, aw, as_ in lows[l_key]:
                high_sum += aw * y[j]
                s += as_ * z[j]
            s += high_sum << shift
            if tally is not None and fw:
                packed_q[h_key] = packed_q.get(h_key, 0) + fw * packed_lows[l_key]
        if low:
            s += _low_moves(src & KEEP, fw, low, tables, by_need, tally)
        if s:
            out[src] = s
    if tally is not None:
        _tally(
            tally, {key: _unpack(q, width, slots) for key, q in packed_q.items()}, set_moves, suffixes, shift
        )
    return True


def _low_moves(
    base: int,
    fw: int,
    low: list[Tail],
    tables: dict[int, list[int]],
    by_need: Callable[[int, int], list[int]],
    tally: list[int] | None,
) -> int:
    """A source's share sums through its moves of a hideout in group 0 or 1 (rare late in a game),
    read per final state as before (the values' tallies too)."""
    s = 0
    for inc, top, w, items in low:
        key = base + inc
        table = tables.get(key)
        if table is None or len(table) <= top:
            table = by_need(key, top)
        acc = 0
        for need, v in items:
            x = table[need]
            if x:
                acc += x
                if tally is not None and fw:
                    tally[v] += fw * w * x
        s += w * acc
    return s


def _split(
    groups: list[Tail], sets: dict[tuple[Any, ...], int], set_moves: list[Any]
) -> tuple[int, list[tuple[int, int, list[tuple[int, int]]]], list[Tail]]:
    """A signature's moves: its high item set's id and moves (count increment, weight, [(need,
    value)]), and its moves of a hideout in groups 0 or 1."""
    high = [(inc, w, items) for inc, _, w, items in groups if not inc & HALVES[0]]
    low = [group for group in groups if group[0] & HALVES[0]]
    value = tuple((inc, w, tuple(items)) for inc, w, items in high)
    set_id = sets.get(value)
    if set_id is None:
        set_id = sets[value] = len(set_moves)
        set_moves.append(high)
    return set_id, high, low


def _needs(
    high: list[tuple[int, int, list[tuple[int, int]]]],
) -> list[tuple[int, int, list[tuple[int, int]]]]:
    """An item set's moves as (count increment, weight, [(need, how many of its values need it)])."""
    out = []
    for inc, w, items in high:
        needs: dict[int, int] = {}
        for need, _ in items:
            needs[need] = needs.get(need, 0) + 1
        out.append((inc, w, sorted(needs.items())))
    return out


def _dots(
    high: int,
    needs: list[tuple[int, int, list[tuple[int, int]]]],
    suffixes: _Suffixes,
    n: int,
    by_b: list[tuple[int, list[tuple[int, int]]]],
    fast: Any = None,
    scaled: list[tuple[int, list[list[int]]]] | None = None,
) -> tuple[list[int], list[int]]:
    """``Y`` (shares) and ``Z`` (weights) of one item set (its moves by need, :func:`_needs`) and
    high half (its counts ``high``) at the slots the low halves read (``by_b``: per row ``b``, its ``(e1, b * (n + 1) +
    e1)``): the moves' weights times the high half's suffix sums from ``need - e1`` evens on.
    ``fast``: the compiled module, which sums them (each need's weight times its count) on lanes;
    then each move's weight times its factor and its suffix sums of shares are added to ``scaled``
    (what :func:`_tally` reads of the same key)."""
    stride = n + 1
    if fast is not None:
        moves = []
        memo = suffixes.memo  # (its hits read inline: one call less per move)
        for inc, w, by_need in needs:
            factor, weights, shares, _ = memo.get((high + inc) & HIGH) or suffixes(high + inc)
            w *= factor
            if scaled is not None:
                scaled.append((w, shares))
            moves.append(
                (weights, shares, [(need, w if count == 1 else w * count) for need, count in by_need])
            )
        try:
            return fast.dots(moves, by_b, stride * stride)  # type: ignore[no-any-return]
        except (TypeError, IndexError):  # refused (never on the layer's lists): the loop below
            pass
    y, z = [0] * (stride * stride), [0] * (stride * stride)
    for inc, w, by_need in needs:
        factor, weights, shares, live = suffixes(high + inc)
        w *= factor
        for b, cells in by_b:
            if b not in live:
                continue
            rw, rs = weights[b], shares[b]
            for e1, j in cells:
                acc_w = acc_s = 0
                for need, count in by_need:
                    m = need - e1 if need > e1 else 0
                    if count == 1:
                        acc_w += rw[m]
                        acc_s += rs[m]
                    else:
                        acc_w += count * rw[m]
                        acc_s += count * rs[m]
                y[j] += w * acc_s
                z[j] += w * acc_w
    return y, z


def _low_entries(finals: Any, state: int, n: int, stride: int) -> list[tuple[int, int, int]]:
    """The low half's entries of a final state (``C(n, a)`` in): (``b * (n + 1) + e1``, weight,
    shares)."""
    _, groups, _ = finals._low_rows(state, n, 0)
    out = [(b * stride + t1, aw, as_) for b, entries in groups for t1, aw, as_ in entries]
    assert all(t1 <= n - b for b, entries in groups for t1, _, _ in entries), "evens beyond the cards"
    return out


def _packed_lows(
    lows: dict[int, list[tuple[int, int, int]]], slots: list[tuple[int, int, int]], sources: dict[int, int]
) -> tuple[dict[int, int], int]:
    """Each low half's weights at the ``slots``, packed into one int (slot ``c`` at bit ``c *
    width``, signed digits), and the width: wide enough for the forward weights' sums of their
    products (:func:`_tally` unpacks them), so a source adds its weight times its low half's in one
    multiplication instead of one per slot."""
    index = {j: c for c, (_, _, j) in enumerate(slots)}
    most_low = max((abs(aw).bit_length() for entries in lows.values() for _, aw, _ in entries), default=0)
    most_fw = max((abs(fw).bit_length() for fw in sources.values()), default=0)
    width = most_low + most_fw + len(sources).bit_length() + 2
    packed = {key: sum(aw << (width * index[j]) for j, aw, _ in entries) for key, entries in lows.items()}
    return packed, width


def _unpack(packed: int, width: int, slots: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """A key's packed sums (:func:`_packed_lows`) read back: per slot ``(b, e1, x)``, its signed
    digit ``x`` (the sources' forward weights times their low halves' weights), the nonzero ones."""
    digit, half, carry = (1 << width) - 1, 1 << (width - 1), 1 << width
    live_q = []
    for b, e1, _ in slots:  # the signed digits, lowest first
        x = packed & digit
        packed >>= width
        if x >= half:
            x -= carry
            packed += 1
        if x:
            live_q.append((b, e1, x))
    return live_q


def _tally(
    tally: list[int],
    live: dict[int, list[tuple[int, int, int]]],
    set_moves: list[list[tuple[int, int, list[tuple[int, int]]]]],
    suffixes: _Suffixes,
    shift: int,
    fast: Any = None,
    scaled: dict[int, list[tuple[int, list[list[int]]]]] | None = None,
) -> None:
    """The last position's values' tallies from the high moves (their class's digits: ``A Hs``):
    per item set and high half (``live``'s keys: the set's id above the half's counts), the
    sources' forward weights times their low halves' weights by slot (:func:`_unpack`, or summed
    compiled), dotted with each move's suffix sums per need (shifted down by ``shift``: shifted
    back up here).  ``fast``: the compiled module, which sums each need's dot on lanes (its errors
    are not caught: it would have added part of the tallies), reading a key's moves' scaled weights
    and suffix sums from ``scaled`` (:func:`_dots` made them)."""
    for h_key, live_q in live.items():
        high_bits = h_key & HIGH
        if fast is not None:
            assert scaled is not None
            moves = [
                (w, shares, items)
                for (w, shares), (_, _, items) in zip(scaled[h_key], set_moves[h_key >> ID], strict=True)
            ]
            fast.tally(live_q, moves, shift, tally)
            continue
        for inc, w, items in set_moves[h_key >> ID]:
            factor, _, shares, _ = suffixes(high_bits + inc)
            w *= factor
            done: dict[int, int] = {}
            for need, v in items:
                r = done.get(need)
                if r is None:
                    r = 0
                    for b, e1, x in live_q:
                        row = shares[b]
                        if row:
                            r += x * row[need - e1 if need > e1 else 0]
                    r = done[need] = (w * r) << shift
                if r:
                    tally[v] += r
