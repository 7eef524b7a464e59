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

A large layer has 2-4k (item set, high half) keys for 10k sources, so the per-key work counts:
the high half's suffix sums are made once per pair of group rows equal up to a factor (their gcd:
2,209 halves, 953 sums on heldout-A-602), each key's ``T`` is summed in packed integers (each
gathered suffix-sum vector packed once, one product and sum per step, :meth:`Tail.high_vectors`),
packed digits of 64 bits are read back by :mod:`struct`, and a source's dot product reads only
its low flat's nonzero entries (2-9 of 10-28).

When the belief's kernel is compiled (:data:`~.kernel.COMPILED`, read at each call) and the
``_tail`` extension is built, the per-source and per-key sums (a source's key and its weight times
its low flat summed per key, each key's ``T``, a source's dot product, each key's tallies) run in
one C call on 128-bit integers (``_tail.tail_bilinear``; weights <= 59 bits and sums <= 73 bits on
the stored positions): the Python parts (item sets, suffix sums, the low half's few sources) are
called back in this code's order, and a value that leaves 64 bits where one is read, or a sum that
leaves 128 bits, hands the layer to the pure sums below (the reference) from the start.

Exact: the same integers as the per-key sums (even counts are capped at the largest need, which
changes no suffix sum).  Used from :mod:`~.build` for layers of :data:`FROM_LAYER` sources or more
(:data:`FROM_TOTAL` for the total alone).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from operator import add, itemgetter, mul
from typing import Any

from gamelib.fugitive.belief import kernel
from gamelib.fugitive.belief.bits import GROUP_BITS, HALVES, LEFT, U_SH, VALUE_READS
from gamelib.fugitive.belief.programme import Programme
from gamelib.fugitive.belief.tables import COMB

try:
    from gamelib.fugitive.belief import _tail
except ImportError:  # installed without a C compiler: the pure sums serve
    _tail = None  # type: ignore[assignment]

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
GROUP_KEYS = [GROUP_BITS[g] | (31 << U_SH[g]) for g in range(4)]
"""Per group, the bits of a state :meth:`Tail._scaled` reads (its rows' key: the group's counts and
its unseen cards, disjoint bit fields)."""

Flat = tuple[int, ...]
"""A half's rows by (cards it takes, even cards capped at the largest need), one flat tuple."""
Items = tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...]
"""An item set: per (count increment, need), the moves' (weight, value), sorted."""
SS = tuple[int, int, Flat, int]
"""A half's suffix sums (:meth:`Tail.ss_of`): the need they serve up to, a factor, the sums over it
and their id (shared by the counts whose sums are equal up to a factor)."""


def pack(flat: Flat, width: int) -> int:
    """The entries of ``flat`` as digits of ``width`` bits (a weighted sum of packed flats is the
    packed weighted sum, while every digit stays within ``width - 1`` bits, sign aside)."""
    out = 0
    for x in reversed(flat):
        out = (out << width) + x
    return out


def unpack(x: int, width: int, size: int, bias: int | None = None) -> list[int]:
    """The ``size`` signed digits of ``width`` bits (a multiple of 8) of a packed sum (``bias``:
    :func:`bias_of` of the width and size, if the caller keeps it).  Digits of 64 bits are read
    by :mod:`struct` (3x faster: :func:`digit_width` rounds narrower ones up to 64)."""
    if bias is None:
        bias = bias_of(width, size)
    half = 1 << (width - 1)
    if width == 64:
        fmt = _FORMATS.get(size)
        if fmt is None:
            fmt = _FORMATS[size] = struct.Struct(f"<{size}Q")
        return [d - half for d in fmt.unpack((x + bias).to_bytes(8 * size, "little"))]
    x += bias
    mask = (1 << width) - 1
    out = []
    for _ in range(size):
        out.append((x & mask) - half)
        x >>= width
    return out


_FORMATS: dict[int, struct.Struct] = {}


def digit_width(bits: int) -> int:
    """The digit width :func:`pack` and :func:`unpack` use for signed digits of ``bits`` bits
    (sign included): 64 if they fit, else the next multiple of 8."""
    return 64 if bits <= 64 else (bits + 7) & ~7


def bias_of(width: int, size: int) -> int:
    """What :func:`unpack` adds first: ``2 ** (width - 1)`` in every digit (then each is >= 0)."""
    return int.from_bytes((1 << (width - 1)).to_bytes(width >> 3, "little") * size, "little")


class Tail:
    """One last layer's item sets, layout and memos (the halves' flats, their suffix sums)."""

    def __init__(self, prog: Programme, i: int, states: dict[int, int]) -> None:
        self.prog = prog
        n = self.n = prog.stack[prog.npos]
        extra = prog.hand_count if prog.facts.pending else 0  # the hand's marked evens, per group
        self.bound = n + 4 * extra  # even cards a completion can hold: a larger need weighs 0
        # one pass over the sources: their signatures and low halves (the keys' other parts)
        pairs = _tail.distinct(states, KEY_LOW) if _tail is not None and kernel.COMPILED else None
        if pairs is None:
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
        self.gidx = [
            [(n - y) * stride + (t - e2 if t > e2 else 0) for y in range(n + 1) for e2 in range(width[y])]
            for t in range(top + 1)
        ]
        self.gathers: list[Callable[[Flat], Any]] = [itemgetter(*idx) for idx in self.gidx]
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
        self.ss_memos: tuple[dict[int, SS], dict[int, SS]] = ({}, {})
        """Per half and counts: (the need summed for, factor, suffix sums divided by it)."""
        self.polys: dict[tuple[int, int, int], list[list[tuple[int, int]]]] = {}
        self.scaled: dict[tuple[int, int, int], tuple[int, int, list[list[tuple[int, int]]]]] = {}
        """Per group and counts: (gcd of its rows, their id, the rows divided by it)."""
        self.shapes: dict[tuple[tuple[tuple[int, int], ...], ...], int] = {}
        self.gathered: dict[int, Flat] = {}
        """Per (suffix-sum id, need): the entries ``gathers[need]`` reads (:meth:`resolved`)."""
        self.resolved_memo: dict[
            int, tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
        ] = {}
        """Per high key: its steps (:meth:`resolved`)."""
        self.ss_shared: dict[tuple[int, int, int], tuple[int, Flat, int]] = {}
        """Suffix sums by (first group, the two groups' row ids): counts whose rows are equal up
        to a factor (most of a large layer's: 2,209 high halves, 605 shapes) share them."""

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
        they take, even cards capped at top) (times ``C(n, a)`` for the low half).  Compiled when
        the kernel is (``_tail.flat_rows``: these loops on 128-bit ints, None past them)."""
        n, width, off = self.n, self.width, self.off
        p = self._poly(first, state)
        q = self._poly(first + 1, state)
        low = first == 0
        if _tail is not None and kernel.COMPILED:
            done = _tail.flat_rows(p, q, n, off, width, low, COMB)
            if done is not None:
                self.flats[first >> 1][state & HALVES[first]] = done
                return done
        out = [0] * self.size
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
            hit = _tail.nonzero_pairs(rows) if _tail is not None and kernel.COMPILED else None
            if hit is None:
                hit = [[(e, x) for e, x in enumerate(row) if x] for row in rows]
            self.polys[pkey] = hit
        return hit

    def _scaled(self, g: int, state: int) -> tuple[int, int, list[list[tuple[int, int]]]]:
        """Group ``g``'s rows (:meth:`_poly`) divided by the gcd of their weights: (gcd, an id
        shared by rows equal up to a factor, the divided rows); gcd 0 if they are all 0."""
        pkey = (g, (state >> U_SH[g]) & 31, state & GROUP_BITS[g])
        hit = self.scaled.get(pkey)
        if hit is None:
            rows = self._poly(g, state)
            done = _tail.scaled(rows) if _tail is not None and kernel.COMPILED else None
            if done is not None:  # (the same three, made in C)
                common, rows, shape = done
            else:
                common = math.gcd(*(x for row in rows for _, x in row))
                if common > 1:
                    rows = [[(e, x // common) for e, x in row] for row in rows]
                shape = tuple(tuple(row) for row in rows)
            sid = self.shapes.setdefault(shape, len(self.shapes))
            hit = self.scaled[pkey] = (common, sid, rows)
        return hit

    def ss_of(self, first: int, h: int, t: int) -> SS:
        """The suffix sums of each row of the half at counts ``h``: entry ``x * (top + 1) + s`` is
        ``sum_{e >= s}`` of its weights with ``x`` cards and ``e`` even ones, for every ``s <= t``
        at least (need 0 reads the rows' totals alone: the entries for ``s >= 1`` are then 0,
        never read); the low half's times ``C(n, x)``.  Returned as ``(t, factor, sums)``, the
        sums divided by the factor and shared by the counts whose two groups' rows are equal up
        to a factor (:meth:`_scaled`)."""
        fp, ip, p = self._scaled(first, h)
        fq, iq, q = self._scaled(first + 1, h)
        skey = (first, ip, iq)
        memo = self.ss_memos[first >> 1]
        hit = self.ss_shared.get(skey)
        if hit is None or hit[0] < t:
            sid = len(self.ss_shared) if hit is None else hit[2]
            hit = self.ss_shared[skey] = (*self._suffixes(first, p, q, t), sid)
        memo[h] = done = (hit[0], fp * fq, hit[1], hit[2])
        return done

    def _suffixes(
        self, first: int, p: list[list[tuple[int, int]]], q: list[list[tuple[int, int]]], t: int
    ) -> tuple[int, Flat]:
        """:meth:`ss_of` of the rows ``p`` and ``q`` (need ``t``: 0 or top): (the need, the sums).
        Compiled when the kernel is (``_tail.suffixes``: the same loops on 128-bit ints, None when
        a value leaves them: then these loops run)."""
        top, n = self.top, self.n
        if _tail is not None and kernel.COMPILED:
            hit = _tail.suffixes(p, q, n, top, t, first == 0, COMB)
            if hit is not None:
                return (top if t else 0), hit
        stride = top + 1
        out = [0] * ((n + 1) * stride)
        low = first == 0
        if not t:  # the rows' totals
            ps = [sum(x for _, x in row) for row in p]
            qs = [sum(y for _, y in row) for row in q]
            for k0, px in enumerate(ps):
                if not px:
                    continue
                for a, qy in enumerate(qs, k0):
                    if a > n:
                        break
                    if qy:
                        out[a * stride] += px * qy * (COMB[a][k0] * COMB[n][a] if low else COMB[a][k0])
            return 0, tuple(out)
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
        return top, tuple(out)

    def t_of(self, first: int, key: int) -> Flat:
        """The sum over the item set's (increment, need, weight) of ``weight * B_need(half +
        increment)``: dotted with the other half's flat, a source's completions."""
        half = key & HALVES[first]
        gathers, ss_of, memo = self.gathers, self.ss_of, self.ss_memos[first >> 1]
        acc: Any = None
        for inc, t, w, cap in self.steps[key >> ID]:
            h = half + inc
            hit = memo.get(h)
            if hit is None or hit[0] < t:
                hit = ss_of(first, h, cap)
            w *= hit[1]
            if not w:
                continue
            g = gathers[t](hit[2])
            if w != 1:
                g = map(w.__mul__, g)
            acc = g if acc is None else map(add, acc, g)
        return (0,) * self.size if acc is None else tuple(acc)

    def packed(self, states: dict[int, int]) -> tuple[dict[int, tuple[Flat, int]], int]:
        """Per distinct low half of the sources: its flat and the flat packed in digits wide enough
        for any weighted sum of them over the sources."""
        cache = self.flats[0]
        flats = {h: cache.get(h) or self.flat(0, h) for h in self.lows}
        biggest = max((max(map(abs, f)) for f in flats.values()), default=0)
        span = sum(map(abs, states.values()))  # a digit of a weighted sum is at most span * biggest
        width = digit_width(span.bit_length() + biggest.bit_length() + 1)
        return {h: (f, pack(f, width)) for h, f in flats.items()}, width

    @staticmethod
    def low_gets(lflats: dict[int, tuple[Flat, int]]) -> dict[int, tuple[Flat, Callable[[Flat], Any]]]:
        """Per low half: its flat's nonzero entries and a getter of the same entries of another
        flat (a source's dot product reads only those: a low flat has 2-9 nonzero entries of
        10-28).  A single entry is read twice against a 0 (the getter then still gives a tuple)."""
        out: dict[int, tuple[Flat, Callable[[Flat], Any]]] = {}
        for h, (f, _) in lflats.items():
            nz = [j for j, x in enumerate(f) if x]
            if len(nz) == 1:
                out[h] = ((f[nz[0]], 0), itemgetter(nz[0], nz[0]))
            elif nz:
                out[h] = (tuple(f[j] for j in nz), itemgetter(*nz))
        return out

    def resolved(self, key: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """The steps of a high key's item set whose half is not 0, as four tuples: their indices,
        the ids of their gathered suffix sums (:attr:`gathered`: the sums' id and the need), their
        factors, the factors times their summed weights."""
        hit = self.resolved_memo.get(key)
        if hit is not None:
            return hit
        half = key & HIGH
        memo, gathered, gathers = self.ss_memos[1], self.gathered, self.gathers
        stride = self.top + 1
        out: list[tuple[int, int, int, int]] = []
        for j, (inc, t, w, cap) in enumerate(self.steps[key >> ID]):
            h = half + inc
            ss = memo.get(h)
            if ss is None or ss[0] < t:
                ss = self.ss_of(2, h, cap)
            f = ss[1]
            if f:
                spt = ss[3] * stride + t
                if spt not in gathered:
                    gathered[spt] = gathers[t](ss[2])
                out.append((j, spt, f, f * w))
        js, spts, fs, fws = zip(*out, strict=True) if out else ((), (), (), ())
        hit = self.resolved_memo[key] = (js, spts, fs, fws)
        return hit

    def high_vectors(self, keys: Any) -> dict[int, Flat]:
        """Per high key: ``T`` (:meth:`t_of`), summed in packed integers: each gathered suffix sum
        packed once, a key's ``T`` one product and sum per step, then unpacked (the sums'
        entries and the steps' weights are small: 10-45 bits)."""
        resolved = [(key, self.resolved(key)) for key in keys]
        gathered = self.gathered
        bound = max((sum(map(abs, r[3])) for _, r in resolved), default=0)
        biggest = max((max(map(abs, g)) for g in gathered.values()), default=0)
        width = digit_width(bound.bit_length() + biggest.bit_length() + 1)
        size = self.size
        bias = bias_of(width, size)
        packs = {spt: pack(g, width) for spt, g in gathered.items()}
        out: dict[int, Flat] = {}
        zero = (0,) * size
        for key, (_, spts, _, fws) in resolved:
            if not spts:
                out[key] = zero
                continue
            acc = 0
            for spt, fw in zip(spts, fws, strict=True):
                acc += fw * packs[spt]
            out[key] = tuple(unpack(acc, width, size, bias))
        return out

    def high_sums(self, accs: dict[int, int], width: int) -> dict[int, list[int]]:
        """Per item set, per step: the sum over its high keys of ``<B_need(half + increment),
        acc>`` (``accs``: per high key, the sources' weights times their low flats, packed at
        ``width``): the values' tallies of the high half."""
        out: dict[int, list[int]] = {}
        gathered, size = self.gathered, self.size
        bias = bias_of(width, size)
        for key, packed in accs.items():
            if not packed:
                continue
            sid = key >> ID
            acc = out.get(sid)
            if acc is None:
                acc = out[sid] = [0] * len(self.items[sid])
            a = unpack(packed, width, size, bias)
            js, spts, fs, _ = self.resolved(key)
            for j, spt, f in zip(js, spts, fs, strict=True):
                d = sum(map(mul, gathered[spt], a))
                if d:
                    acc[j] += f * d
        return out

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
            if hit is None or hit[0] < t:
                hit = ss_of(first, h, cap)
            if hit[1]:
                out.append((hit[1] * sum(map(mul, gathers[t](hit[2]), acc)), wv))
        return out


def tail_total(
    prog: Programme, i: int, states: dict[int, int], least: int | None = None
) -> tuple[int, int] | None:
    """:func:`~.build._tail_total` (the total weight and the number of moves), or None when the
    layer is not taken (fewer than ``least`` sources, :data:`FROM_TOTAL` by default, or the last
    stack is not summed in closed form)."""
    if not prog.folded or len(states) < (FROM_TOTAL if least is None else least):
        return None
    if _tail is not None and kernel.COMPILED:
        tail = Tail(prog, i, states)
        hit = _bilinear(tail, states, False)
        if hit is not None:
            high, low, moves = hit
            return high + _low_total(tail, low), moves
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
        if not weight:
            continue
        if hi >= 0:
            k = hi | (src & HIGH)
            acc_high[k] = get_high(k, 0) + weight * lflats[src & LOW][1]
        if lo >= 0:
            add_low(acc_low, lo | (src & LOW), weight, src & HIGH)
    total = 0
    size = tail.size
    bias = bias_of(width, size)
    vectors = tail.high_vectors(acc_high)
    for k, a in acc_high.items():
        if a:
            total += sum(map(mul, vectors[k], unpack(a, width, size, bias)))
    return total + _low_total(tail, acc_low), count


def _low_total(tail: Tail, acc_low: dict[int, list[int]]) -> int:
    """The total's part through the sources' hideouts in the low half (``acc_low``: their high
    flats summed per low key, :meth:`Tail.add_low`)."""
    total = 0
    for k, acc in acc_low.items():
        for d, wv in tail.dots(0, k, acc):
            if d:
                total += d * sum(w for w, _ in wv)
    return total


def tail_layer(
    prog: Programme, i: int, states: dict[int, int], least: int | None = None
) -> tuple[dict[int, int], int, int] | None:
    """:func:`~.build._tail_layer` (each source's completions, the total weight, the number of
    moves; ``prog.tail_tally`` set), or None when the layer is not taken (fewer than ``least``
    sources, :data:`FROM_LAYER` by default, or the last stack is not summed in closed form)."""
    if not prog.folded or len(states) < (FROM_LAYER if least is None else least):
        return None
    if _tail is not None and kernel.COMPILED:
        tail = Tail(prog, i, states)
        hit = _bilinear(tail, states, True)
        if hit is not None:
            done, sums, low, moves = hit
            prog.tail_tally = _tally(tail, sums, low)
            return done, sum(prog.tail_tally), moves
    tail = Tail(prog, i, states)
    sig_ids, add_low = tail.sig_ids, tail.add_low
    lflats, width = tail.packed(states)
    members: dict[int, list[int]] = {}
    acc_high: dict[int, int] = {}
    lows: dict[int, Flat] = {}
    acc_low: dict[int, list[int]] = {}
    back: dict[int, int] = {}
    t_of = tail.t_of
    count = 0
    for src, weight in states.items():
        lo, hi, moves = sig_ids[src & VALUE_READS]
        count += moves
        if hi >= 0:
            k = hi | (src & HIGH)
            srcs = members.get(k)
            if srcs is None:
                srcs = members[k] = []
                acc_high[k] = 0
            srcs.append(src)
            if weight:
                acc_high[k] += weight * lflats[src & LOW][1]
        if lo >= 0:
            k = lo | (src & LOW)
            hf = add_low(acc_low, k, weight, src & HIGH)
            u = lows.get(k)
            if u is None:
                u = lows[k] = t_of(0, k)
            b = sum(map(mul, hf, u))
            if b:
                back[src] = b
    # each source's completions through its high hideouts: its low flat's nonzero entries dotted
    # with its key's T
    gets = tail.low_gets(lflats)
    vectors = tail.high_vectors(members)
    get_back = back.get
    for k, srcs in members.items():
        vector = vectors[k]
        for src in srcs:
            hit = gets.get(src & LOW)
            if hit is not None:
                b = sum(map(mul, hit[0], hit[1](vector)))
                if b:
                    back[src] = b + get_back(src, 0)
    tally = _tally(tail, tail.high_sums(acc_high, width), acc_low)
    prog.tail_tally = tally
    return back, sum(tally), count


def _tally(tail: Tail, sums: dict[int, list[int]], acc_low: dict[int, list[int]]) -> list[int]:
    """The values' tallies: the high half's per item set and step (``sums``, :meth:`Tail.high_sums`)
    and the low half's (``acc_low``: the sources' high flats summed per low key)."""
    tally = [0] * 43
    for sid, acc in sums.items():
        for (_, _, wv, _), x in zip(tail.items[sid], acc, strict=True):
            if x:
                for w, v in wv:
                    tally[v] += w * x
    for k, a in acc_low.items():
        for d, wv in tail.dots(0, k, a):
            if d:
                for w, v in wv:
                    tally[v] += w * d
    return tally


def _bilinear(tail: Tail, states: dict[int, int], layer: bool) -> Any:
    """The compiled call (``_tail.tail_bilinear``): the per-source and per-key sums of
    :func:`tail_layer` (``layer``: back, per item set and step the high half's sums, the low keys'
    sums ``acc_low``, moves) or of :func:`tail_total` (the high half's total, ``acc_low``, moves)
    on native integers (weights, flats and suffix sums within 64 bits, every sum within 128; else
    it returns None and the caller runs the pure sums).  The Python parts (a half's flat, a group's
    scaled rows, a pair of shapes' suffix sums, a low key's ``T``) are called back in the pure
    code's order (:meth:`Tail.ss_of`'s memos kept natively for the high half)."""
    assert _tail is not None
    cache = tail.flats[0]
    lflats = {h: cache.get(h) or tail.flat(0, h) for h in tail.lows}
    return _tail.tail_bilinear(
        states, tail.sig_ids, VALUE_READS, HIGH, LOW, lflats, tail.flat, tail.t_of, tail._scaled,
        tail._suffixes, GROUP_KEYS[2], GROUP_KEYS[3], tail.steps, tail.gidx, layer, ID, tail.size,
    )  # fmt: skip
