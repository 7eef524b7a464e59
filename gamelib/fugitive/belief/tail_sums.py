"""The last layer of a counting programme summed as a bilinear form, per item set and half.

The last layer (:func:`~.build._tail_layer`) takes each source state through the last position's
hideout values and weighs each move by its final weight: the last stack's completions with at
least ``need`` even cards.  That weight splits by halves (groups {0, 1} and {2, 3},
:meth:`~.weights.FinalWeights._half`): with ``n`` cards to share, ``a`` of them going to the low
half with ``e1`` evens and the rest to the high half with ``e2``,

    F(low, high, need) = sum_a C(n, a) sum_{e1 + e2 >= need} low[a][e1] high[n - a][e2],

a bilinear form of the two halves' rows.  A hideout changes one half only (its group's counts), so
a source's completions are ``<L(c01), T(set, c23)>`` for its hideouts in the high half (and
``<U(set, c01), H(c23)>`` for those in the low half), where ``T`` sums the moves' weights times
the high half's suffix sums (:meth:`Tail.t_of`) and depends only on the source's *item set* (the
moves its signature allows, interned: sources with different previous hideouts often allow the
same) and its high half's counts.  One dot product per source instead of one convolution per final
key and one product per move; the values' tallies (the last position's marginals) come from the
sources' weights summed per (item set, half) in packed integers (:func:`pack`), one dot product
per item set, half and need.  The world total alone (``count_only``) needs no per-source dot.

Exact: the same integers as the per-key sums (even counts are capped at the largest need, which
changes no suffix sum).  Used from :mod:`~.build` for layers of :data:`FROM_LAYER` sources or more
(:data:`FROM_TOTAL` for the total alone).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import add, itemgetter, mul
from typing import Any

from gamelib.fugitive.belief.bits import GROUP_BITS, HALVES, LEFT, U_SH, VALUE_READS
from gamelib.fugitive.belief.programme import Programme
from gamelib.fugitive.belief.tables import COMB

FROM_LAYER = 1024
"""Sources from which the last layer is summed here (below, the per-key sums cost less to set up:
on the stored random positions' layers the two cost the same around 500-1,000 sources)."""
FROM_TOTAL = 200
"""The same for the total alone (``count_only``: no per-source dot product, level at 100-250)."""

LOW, HIGH = HALVES[0], HALVES[2]
KEY_LOW = VALUE_READS | LOW
ID = 68
"""Item-set ids sit above the counts in the keys (:data:`~.bits.PREV` and up: the keys hold counts only)."""
INC = ~(63 << LEFT)
"""What a move adds to the counts, without the stack's size."""

Flat = tuple[int, ...]
"""A half's rows by (cards it takes, even cards capped at the largest need), one flat tuple."""
Items = tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...]
"""An item set: per (count increment, need), the moves' (weight, value), sorted."""


def pack(flat: Flat, width: int) -> int:
    """The entries of ``flat`` as digits of ``width`` bits (a weighted sum of packed flats is the
    packed weighted sum, while every digit stays within ``width - 1`` bits, sign aside)."""
    out = 0
    for x in reversed(flat):
        out = (out << width) + x
    return out


def unpack(x: int, width: int, size: int) -> list[int]:
    """The ``size`` signed digits of ``width`` bits (a multiple of 8) of a packed sum."""
    nb = width >> 3
    half = 1 << (width - 1)
    bias = int.from_bytes(half.to_bytes(nb, "little") * size, "little")
    raw = (x + bias).to_bytes(nb * size, "little")
    return [int.from_bytes(raw[j : j + nb], "little") - half for j in range(0, nb * size, nb)]


class Tail:
    """One last layer's item sets, layout and memos (the halves' flats, their suffix sums)."""

    def __init__(self, prog: Programme, i: int, states: dict[int, int]) -> None:
        self.prog = prog
        n = self.n = prog.stack[prog.npos]
        extra = prog.hand_count if prog.facts.pending else 0  # the hand's marked evens, per group
        self.bound = n + 4 * extra  # even cards a completion can hold: a larger need weighs 0
        # one pass over the sources: their signatures and low halves (the keys' other parts)
        pairs = set(map(KEY_LOW.__and__, states))
        self.lows = {pair & LOW for pair in pairs}
        moves = {sig: prog._tail_moves(i, sig) for sig in {pair & VALUE_READS for pair in pairs}}
        top = self.top = max(
            (
                need
                for groups in moves.values()
                for _, _, items in groups
                for need, _, _ in items
                if need <= self.bound
            ),
            default=0,
        )
        # a half's row for a cards: even counts 0..a + 2 * extra, the last one from top on
        width = self.width = [min(a + 2 * extra, top) + 1 for a in range(n + 1)]
        self.off = [sum(width[:a]) for a in range(n + 2)]
        self.size = self.off[n + 1]
        stride = top + 1
        # per need t, the entries (y, e2) of B_t(h) = sum_{e >= t - e2} flat(h)[(n - y, e)] in ss_of(h)
        self.gathers: list[Callable[[Flat], Any]] = [
            itemgetter(*[(n - y) * stride + max(t - e2, 0) for y in range(n + 1) for e2 in range(width[y])])
            for t in range(top + 1)
        ]
        self.sig_ids: dict[int, tuple[int, int, int]] = {}
        """Per signature: its item set in the low half and in the high half (id << ID, -1: none),
        and its number of moves."""
        self.items: list[tuple[tuple[int, int, tuple[tuple[int, int], ...], int], ...]] = []
        """Per item set: (count increment, need, the moves' (weight, value), the need the half at the
        increment is summed for: 0 if no item set needs more there, else top)."""
        self.steps: list[tuple[tuple[int, int, int, int], ...]] = []
        """The same with the moves' weights summed."""
        self._item_sets(moves)
        self.flats: tuple[dict[int, Flat], dict[int, Flat]] = ({}, {})
        self.ss_memos: tuple[dict[int, tuple[int, Flat]], dict[int, tuple[int, Flat]]] = ({}, {})
        self.polys: dict[tuple[int, int, int], list[list[tuple[int, int]]]] = {}

    def _item_sets(self, moves: dict[int, list[tuple[int, int, list[tuple[int, int, int]]]]]) -> None:
        """Intern each signature's moves by half: (increment, need) -> [(weight, value)]."""
        sets: dict[Items, int] = {}
        bound = self.bound
        for sig, groups in moves.items():
            parts: tuple[dict[tuple[int, int], list[tuple[int, int]]], ...] = ({}, {})
            count = 0
            for inc, _, items in groups:
                count += len(items)
                part = parts[1 if inc & HIGH else 0]
                inc &= INC
                for need, w, v in items:
                    if need <= bound and w:
                        part.setdefault((inc, need), []).append((w, v))
            ids = []
            for part in parts:
                if not part:
                    ids.append(-1)
                    continue
                key = tuple(sorted((inc, need, tuple(sorted(wv))) for (inc, need), wv in part.items()))
                sid = sets.get(key)
                if sid is None:
                    sid = sets[key] = len(sets)
                ids.append(sid << ID)
            self.sig_ids[sig] = (ids[0], ids[1], count)
        # the halves an increment reaches are summed once, for the largest need read there
        needs: dict[int, int] = {}
        for key in sets:
            for inc, need, _ in key:
                if needs.get(inc, 0) < need:
                    needs[inc] = need
        caps = {inc: self.top if need else 0 for inc, need in needs.items()}
        for key in sets:  # in id order
            self.items.append(tuple((inc, need, wv, caps.get(inc, 0)) for inc, need, wv in key))
            self.steps.append(
                tuple((inc, need, sum(w for w, _ in wv), caps.get(inc, 0)) for inc, need, wv in key)
            )

    def flat(self, first: int, state: int) -> Flat:
        """Groups ``first`` and ``first + 1`` of the last stack at ``state``'s counts, by (cards
        they take, even cards capped at top) (times ``C(n, a)`` for the low half)."""
        n, width, off = self.n, self.width, self.off
        out = [0] * self.size
        p = self._poly(first, state)
        q = self._poly(first + 1, state)
        low = first == 0
        for k0, x in enumerate(p):
            if not x:
                continue
            for a, y in enumerate(q, k0):
                if a > n:
                    break
                if not y:
                    continue
                comb = COMB[a][k0] * COMB[n][a] if low else COMB[a][k0]
                base = off[a]
                last = width[a] - 1
                for e, xv in x:
                    xv *= comb
                    for f, yv in y:
                        f += e
                        out[base + (f if f < last else last)] += xv * yv
        hit = self.flats[first >> 1][state & HALVES[first]] = tuple(out)
        return hit

    def _poly(self, g: int, state: int) -> list[list[tuple[int, int]]]:
        """Group ``g``'s last-stack rows by even cards (the programme's memo), each row as its
        nonzero (even cards, weight) pairs."""
        pkey = (g, (state >> U_SH[g]) & 31, state & GROUP_BITS[g])
        hit = self.polys.get(pkey)
        if hit is None:
            prog = self.prog
            rows = prog.even_polys.get(pkey)
            if rows is None:
                rows = prog.even_polys[pkey] = prog._even_poly(g, state)
            hit = self.polys[pkey] = [[(e, x) for e, x in enumerate(row) if x] for row in rows]
        return hit

    def ss_of(self, first: int, h: int, t: int) -> Flat:
        """The suffix sums of each row of the half at counts ``h``: entry ``x * (top + 1) + s`` is
        ``sum_{e >= s}`` of its weights with ``x`` cards and ``e`` even ones, for every ``s <= t``
        at least (need 0 reads the rows' totals alone: the entries for ``s >= 1`` are then 0,
        never read); the low half's times ``C(n, x)``."""
        memo = self.ss_memos[first >> 1]
        hit = memo.get(h)
        if hit is not None and hit[0] >= t:
            return hit[1]
        top, n = self.top, self.n
        stride = top + 1
        out = [0] * ((n + 1) * stride)
        low = first == 0
        if not t:  # the rows' totals: the unmarked sums (:meth:`~.weights.FinalWeights._half0`)
            prog = self.prog
            totals = prog.halves0.get(h | first << LEFT) or prog._half0(first, h)
            for a, total in enumerate(totals[: n + 1]):
                out[a * stride] = total * COMB[n][a] if low else total
            memo[h] = (0, tuple(out))
            return memo[h][1]
        p = self._poly(first, h)
        q = self._poly(first + 1, h)
        for k0, x in enumerate(p):
            if not x:
                continue
            for a, y in enumerate(q, k0):
                if a > n:
                    break
                if not y:
                    continue
                comb = COMB[a][k0] * COMB[n][a] if low else COMB[a][k0]
                base = a * stride
                for e, xv in x:
                    xv *= comb
                    for f, yv in y:
                        f += e
                        out[base + (f if f < top else top)] += xv * yv
        for base in range(0, len(out), stride):
            run = 0
            for j in range(base + top, base - 1, -1):
                run += out[j]
                out[j] = run
        memo[h] = (top, tuple(out))
        return memo[h][1]

    def t_of(self, first: int, key: int) -> Flat:
        """The sum over the item set's (increment, need, weight) of ``weight * B_need(half +
        increment)``: dotted with the other half's flat, a source's completions."""
        half = key & HALVES[first]
        gathers, ss_of, memo = self.gathers, self.ss_of, self.ss_memos[first >> 1]
        acc: Any = None
        for inc, t, w, cap in self.steps[key >> ID]:
            h = half + inc
            hit = memo.get(h)
            g = gathers[t](hit[1] if hit is not None and hit[0] >= t else ss_of(first, h, cap))
            if w != 1:
                g = map(w.__mul__, g)
            acc = g if acc is None else map(add, acc, g)
        return tuple(acc)

    def packed(self, states: dict[int, int]) -> tuple[dict[int, tuple[Flat, int]], int]:
        """Per distinct low half of the sources: its flat and the flat packed in digits wide enough
        for any weighted sum of them over the sources."""
        cache = self.flats[0]
        flats = {h: cache.get(h) or self.flat(0, h) for h in self.lows}
        biggest = max((max(f) for f in flats.values()), default=0)
        weights = states.values()
        span = max(max(weights), -min(weights)) * len(states)  # bounds the sum of |weights|
        width = (span.bit_length() + biggest.bit_length() + 9) & ~7
        return {h: (f, pack(f, width)) for h, f in flats.items()}, width

    def add_low(self, accs: dict[int, Any], key: int, weight: int, c23: int) -> Flat:
        """``accs[key] += weight * flat(c23)`` (the high half of a source with hideouts in the low
        half: few sources, summed as lists), and that flat."""
        hf = self.flats[1].get(c23) or self.flat(2, c23)
        acc = accs.get(key)
        scaled = map(weight.__mul__, hf)
        accs[key] = list(scaled) if acc is None else list(map(add, acc, scaled))
        return hf

    def dots(self, first: int, key: int, acc: list[int]) -> list[tuple[int, tuple[tuple[int, int], ...]]]:
        """Per (increment, need) of the item set: ``<B_need(half + increment), acc>`` and the
        moves' (weight, value)."""
        half = key & HALVES[first]
        gathers, ss_of, memo = self.gathers, self.ss_of, self.ss_memos[first >> 1]
        out = []
        for inc, t, wv, cap in self.items[key >> ID]:
            h = half + inc
            hit = memo.get(h)
            rs = hit[1] if hit is not None and hit[0] >= t else ss_of(first, h, cap)
            out.append((sum(map(mul, gathers[t](rs), acc)), wv))
        return out


def tail_total(
    prog: Programme, i: int, states: dict[int, int], least: int | None = None
) -> tuple[int, int] | None:
    """:func:`~.build._tail_total` (the total weight and the number of moves), or None when the
    layer is not taken (fewer than ``least`` sources, :data:`FROM_TOTAL` by default, or the last
    stack is not summed in closed form)."""
    if not prog.folded or len(states) < (FROM_TOTAL if least is None else least):
        return None
    tail = Tail(prog, i, states)
    sig_ids, add_low = tail.sig_ids, tail.add_low
    lflats, width = tail.packed(states)
    acc_low: dict[int, list[int]] = {}
    acc_high: dict[int, int] = {}
    get_high = acc_high.get
    count = 0
    for src, weight in states.items():
        lo, hi, moves = sig_ids[src & VALUE_READS]
        count += moves
        if hi >= 0:
            k = hi | (src & HIGH)
            acc_high[k] = get_high(k, 0) + weight * lflats[src & LOW][1]
        if lo >= 0:
            add_low(acc_low, lo | (src & LOW), weight, src & HIGH)
    total = 0
    size = tail.size
    accs = [(0, k, a) for k, a in acc_low.items()]
    accs += [(2, k, unpack(a, width, size)) for k, a in acc_high.items() if a]
    for first, k, acc in accs:
        for d, wv in tail.dots(first, k, acc):
            if d:
                total += d * sum(w for w, _ in wv)
    return total, count


def tail_layer(
    prog: Programme, i: int, states: dict[int, int], least: int | None = None
) -> tuple[dict[int, int], int, int] | None:
    """:func:`~.build._tail_layer` (each source's completions, the total weight, the number of
    moves; ``prog.tail_tally`` set), or None when the layer is not taken (fewer than ``least``
    sources, :data:`FROM_LAYER` by default, or the last stack is not summed in closed form)."""
    if not prog.folded or len(states) < (FROM_LAYER if least is None else least):
        return None
    tail = Tail(prog, i, states)
    sig_ids, add_low = tail.sig_ids, tail.add_low
    lflats, width = tail.packed(states)
    highs: dict[int, list[Any]] = {}
    lows: dict[int, Flat] = {}
    acc_low: dict[int, list[int]] = {}
    back: dict[int, int] = {}
    t_of = tail.t_of
    count = 0
    for src, weight in states.items():
        lo, hi, moves = sig_ids[src & VALUE_READS]
        count += moves
        if hi >= 0:
            lf, lp = lflats[src & LOW]
            k = hi | (src & HIGH)
            entry = highs.get(k)
            if entry is None:
                entry = highs[k] = [t_of(2, k), 0]
            entry[1] += weight * lp
            b = sum(map(mul, lf, entry[0]))
        else:
            b = 0
        if lo >= 0:
            k = lo | (src & LOW)
            hf = add_low(acc_low, k, weight, src & HIGH)
            u = lows.get(k)
            if u is None:
                u = lows[k] = t_of(0, k)
            b += sum(map(mul, hf, u))
        if b:
            back[src] = b
    tally = [0] * 43
    size = tail.size
    accs = [(0, k, a) for k, a in acc_low.items()]
    accs += [(2, k, unpack(a, width, size)) for k, (_, a) in highs.items() if a]
    for first, k, acc in accs:
        for d, wv in tail.dots(first, k, acc):
            if d:
                for w, v in wv:
                    tally[v] += w * d
    prog.tail_tally = tally
    return back, sum(tally), count
