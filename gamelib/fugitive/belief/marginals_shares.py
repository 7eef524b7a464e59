"""Class shares at the places a group's cards are settled: where a group closes, and at the end.

A world's cards of one *class* (a group and a parity) that are not hideouts are exchangeable, so a
card's chance to lie under a sprint stack is the class's *share* there: the class's sprint cards
over its non-hideout cards (the hand likewise).  The counting programme settles each group once
per world — on the edge where all of its cards are laid (it *closes*: its final weight is folded
in), or in the final weight — so the share of a class rides on that one factor.  This module
gives those factors with their shares: ``(w, s)`` where ``w`` is the group's weight (the same
number the programme folds in) and ``s`` the share-weighted sums, one per *digit*
``4 * group + q`` (``q``: 0 sprint odd, 1 sprint even, 2 hand odd, 3 hand even).

The shares are exact integers: each is multiplied by ``scale`` (a common multiple of every
possible count of non-hideout cards in a class) before the division by that count.  A vector of
digits is *packed* into one int, digit ``x`` at bit ``x * width``: the passes then add and scale
the 16 sums with one integer operation, and a digit is read back once the sums are whole
(every digit of a complete sum is a true count of worlds, so it fits in ``width`` bits; each world
is counted once per order of its face-down stacks, so :func:`~.marginals.class_shares` packs at
the width of the sums divided by those orders and divides the complete sums before reading).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import accumulate

from gamelib.fugitive.belief import bits, kernel
from gamelib.fugitive.belief.bits import GROUP_BITS, HALVES, JM, LEFT, LOWER, NEED, U_SH
from gamelib.fugitive.belief.programme import Programme
from gamelib.fugitive.belief.tables import COEFS, COMB, FALL, GROUPS, falling

try:
    from gamelib.fugitive.belief import _shares
except ImportError:  # no C compiler at install, or another interpreter: the pure loops serve
    _shares = None  # type: ignore[assignment]

DIGITS = 4 * GROUPS
"""Share sums carried per state: sprint and hand, odd and even, per group."""

SHARED_MEETS = 2000
"""Sources of the last layer from which the meets are memoised on the halves' values."""

TABLE_KEY = LOWER[GROUPS - 1] | 63 << LEFT
"""A final state's bits its share sums by need read: the groups' counts and the last stack's cards."""


def share_scale(prog: Programme) -> int:
    """A common multiple of every class's possible count of non-hideout cards: shares times it are
    whole numbers."""
    return math.lcm(*range(1, max(prog.avail) + 1)) if max(prog.avail) else 1


def group_shares(
    prog: Programme, g: int, counts: tuple[int, int, int, int], hand_marks: int, scale: int
) -> list[tuple[int, tuple[int, int, int, int]]]:
    """Group ``g``'s completions from its counts ``(u, H, He, M)``, by marked even cards in the
    hand: (weight, share sums: sprint odd, sprint even, hand odd, hand even, times ``scale``).

    The weight is the programme's own (:meth:`Programme._group_weights_of`).  Of the group's
    ``f`` unmarked sprint cards and its unmarked hand cards, every unmarked card of the pool is
    equally likely to be any: a given pool card is a sprint card in ``f * falling(pool - 1, f - 1)
    * C(pool - f, rest)`` of the completions and in the hand in ``falling(pool - 1, f) *
    C(pool - f - 1, rest - 1)``; marked even cards are sprint (or hand) cards in all of them.
    """
    u, h, he, m = counts
    weights = prog._group_weights_of(g, u, h, he, m, hand_marks)
    zero = (0, 0, 0, 0)
    if h == bits.CLOSED:
        return [(w, zero) for w in weights]
    a = prog.gavail[g]
    odds, evens = prog.avail[2 * g] - (h - he), prog.avail[2 * g + 1] - he
    f = u - h - m
    hand = a - u if g == 0 else prog.fug[g] - u
    odd_unit = scale if odds else 0  # odd sums are spr * odds, divided by the odds
    even_unit = scale // evens if evens > 0 else 0
    out = []
    for jp, w in enumerate(weights):
        if not w:
            out.append((0, zero))
            continue
        base = falling(evens, m) * (math.factorial(hand) if prog.measure == "deals" and g else 1)
        pool, rest = a - h - m - jp, hand - jp
        core = base * math.comb(evens - m, jp)
        spr = core * f * falling(pool - 1, f - 1) * math.comb(pool - f, rest) if f else 0
        hnd = core * falling(pool - 1, f) * math.comb(pool - f - 1, rest - 1) if rest else 0
        free_evens = evens - m - jp
        sums = (
            spr * odd_unit,
            (m * w + spr * free_evens) * even_unit,
            hnd * odd_unit,
            (jp * w + hnd * free_evens) * even_unit,
        )
        out.append((w, sums))
    return out


def counts_of(state: int, g: int) -> tuple[int, int, int, int]:
    """Group ``g``'s (u, H, He, M) in a programme state."""
    return (
        (state >> U_SH[g]) & 31,
        (state >> bits.H_SH[g]) & 15,
        (state >> bits.HE_SH[g]) & 15,
        (state >> bits.M_SH[g]) & 15,
    )


class ClosingShares:
    """What closing the full groups among ``groups`` folds in, by their counts before closing
    (``key``: the state's bits of those groups): the weight, as the programme folds it in, and
    each closing group's share sums times the other closing groups' weights, packed.  Each
    group's part is memoised on its own counts."""

    def __init__(self, prog: Programme, scale: int, width: int, groups: tuple[int, ...]) -> None:
        self.prog, self.scale, self.width, self.groups = prog, scale, width, groups
        self.parts: dict[tuple[int, int], tuple[int, int]] = {}

    def __call__(self, key: int) -> tuple[int, int]:
        prog, parts = self.prog, self.parts
        closing = []
        for g in self.groups:
            if (key >> U_SH[g]) & 31 == prog.full_u[g] and (key >> bits.H_SH[g]) & 15 != bits.CLOSED:
                part_key = (g, key & (GROUP_BITS[g] | 31 << U_SH[g]))
                part = parts.get(part_key)
                if part is None:
                    w, sums = group_shares(prog, g, counts_of(key, g), 0, self.scale)[0]
                    part = parts[part_key] = (w, pack(g, sums, self.width))
                closing.append(part)
        factor = 1
        for w, _ in closing:
            factor *= w
        shares = 0
        for n, (_, s) in enumerate(closing):
            if s:
                for m, (w, _) in enumerate(closing):
                    if m != n:
                        s *= w
                shares += s
        return factor, shares


def pack(g: int, sums: tuple[int, ...], width: int) -> int:
    """Group ``g``'s four share sums as digits ``4g .. 4g + 3`` of one int."""
    shift = 4 * g * width
    total = 0
    for q, x in enumerate(sums):
        if x:
            total += x << (shift + q * width)
    return total


def digit(packed: int, x: int, width: int) -> int:
    """Digit ``x`` of a packed sum whose digits are all whole counts below ``2 ** width``."""
    return (packed >> (x * width)) & ((1 << width) - 1)


Entries = list[tuple[int, int, int]]
"""The nonzero (even cards, weight, packed share sums) of a completion's sums, in order of evens."""


def by_evens(marked: list[int]) -> list[int]:
    """Sums by marked even cards turned into sums by even cards (binomial inversion:
    ``V[t] = sum_e C(e, t) N[e]``).  Convolutions keep the change (Vandermonde), and the
    footprint identity's weight of a need is then a plain suffix sum: the completions with at
    least that many even cards."""
    size = len(marked)
    out = [0] * size
    for e in range(size):
        total = 0
        for t in range(e, size):
            x = marked[t]
            if x:
                total += -COMB[t][e] * x if (t - e) & 1 else COMB[t][e] * x
        out[e] = total
    return out


def by_marks(evens: list[int]) -> list[int]:
    """:func:`by_evens` undone: ``V[t] = sum_e C(e, t) N[e]``."""
    return [sum(COMB[e][t] * x for e, x in enumerate(evens) if x and e >= t) for t in range(len(evens))]


class FinalShares:
    """The share sums (packed) of a final state's completions, memoised like the programme's own
    final weights: per group, the cards it takes of the last stack (none when the last stack was
    laid in layers) by even cards (:func:`by_evens`); groups {0, 1} and {2, 3} convolved and memoised on their
    counts (rows up to the last stack's size), then met; the last layer reads a final count's
    sums for every need at once (:meth:`by_need`), and where final states are many, meets are
    shared by halves of equal value (:data:`SHARED_MEETS`).  Their weights are
    :meth:`Programme.final_weight`'s."""

    def __init__(self, prog: Programme, scale: int, width: int) -> None:
        self.prog, self.scale, self.width = prog, scale, width
        self.room_of = prog.stack[prog.npos] if prog.folded else 0
        self.pending = prog.facts.pending
        self.polys: dict[tuple[int, int], list[Entries]] = {}
        self.halves: dict[int, list[Entries]] = {}
        self.vectors: dict[int, list[int]] = {}
        self.unmarked: dict[int, int] = {}
        self.polys0: dict[tuple[int, int], list[tuple[int, int]]] = {}
        self.halves0: dict[int, list[tuple[int, int]]] = {}
        self.tables: dict[int, list[int]] = {}
        self.lows: dict[int, tuple[int, list[tuple[int, Entries]], int]] = {}
        self.high_halves: dict[int, tuple[list[Entries], int]] = {}
        self.row_ids: dict[tuple[object, ...], int] = {}
        self.met: dict[int, list[int]] = {}
        self.parts: dict[tuple[int, int, int, int, int, int], list[tuple[int, int]]] = {}
        # halves' values are compared (and meets shared) only where final states are many: on an
        # easy position hashing the rows costs more than the few meets it could spare
        self.share_meets = bool(prog.layers) and len(prog.forward[len(prog.layers) - 1]) >= SHARED_MEETS

    def __call__(self, state: int) -> int:
        prog = self.prog
        left = (state >> LEFT) & 63 if prog.folded else 0  # the last stack's cards
        need, marks = (state >> NEED) & 127, (state >> JM) & 63
        key = (state & LOWER[GROUPS - 1]) | left << LEFT
        if not need:  # only the completions without a marked even card count
            if marks:
                return 0
            hit = self.unmarked.get(key)
            if hit is None:
                hit = self.unmarked[key] = self._meet0(state, left)
            return hit
        limit = prog.hand_count if self.pending else 0
        key |= limit << 110
        vector = self.vectors.get(key)
        if vector is None:
            vector = self.vectors[key] = self._meet(state, left, limit)
        if marks:  # back to marked even cards, weighed by the footprint identity's coefficients
            coefs = COEFS[need]
            return sum(coefs[marks + t] * x for t, x in enumerate(by_marks(vector)) if x)
        return sum(vector[need:])

    def by_need(self, state: int, top: int) -> list[int]:
        """The share sums of ``state`` (a final state without its need) for every need 0..``top``:
        what the last layer reads for all the hideouts of one class at once (memoised per counts;
        a longer table serves a smaller ``top``)."""
        prog = self.prog
        if not prog.folded:
            return [self(state | need << NEED) for need in range(top + 1)]
        key = state & TABLE_KEY
        table = self.tables.get(key)
        if table is not None and len(table) > top:
            return table
        left = (state >> LEFT) & 63
        if not top:
            hit = self.unmarked.get(key)
            if hit is None:
                hit = self.unmarked[key] = self._meet0(state, left)
            table = self.tables[key] = [hit]
            return table
        limit = prog.hand_count if self.pending else 0
        vector = self.vectors.get(key | limit << 110)
        if vector is None:
            vector = self.vectors[key | limit << 110] = self._meet(state, left, limit)
        table = list(accumulate(reversed(vector)))  # a need's sums: those with at least that many evens
        table.reverse()
        if top >= len(table):
            table += [0] * (top + 1 - len(table))
        self.tables[key] = table
        return table

    def _meet0(self, state: int, left: int) -> int:
        """Entry 0 of :meth:`_meet` alone (no marked even card: a hideout that needed none),
        from entry 0 of each half (:meth:`_half0`)."""
        low, high = self._half0(0, state), self._half0(2, state)
        comb = COMB[left]
        total = 0
        for a in range(min(left, len(low) - 1) + 1):
            b = left - a
            if b < len(high):
                (lw, ls), (hw, hs) = low[a], high[b]
                if lw or ls:
                    x = lw * hs + hw * ls
                    if x:
                        total += comb[a] * x
        return total

    def _half0(self, first: int, state: int) -> list[tuple[int, int]]:
        """Entry 0 (no marked even card) of :meth:`_half`: (weight, shares) by cards taken."""
        key = (state & HALVES[first]) | first << LEFT
        hit = self.halves0.get(key)
        if hit is not None:
            return hit
        p, q = self._poly0(first, state), self._poly0(first + 1, state)
        top = min(len(p) + len(q) - 2, self.room_of)  # no entry beyond the last stack's cards
        out = [(0, 0)] * (top + 1)
        for k0, (xw, xs) in enumerate(p[: top + 1]):
            if not xw and not xs:
                continue
            for k1, (yw, ys) in enumerate(q[: top + 1 - k0]):
                if yw or ys:
                    c = COMB[k0 + k1][k0]
                    w, s = out[k0 + k1]
                    out[k0 + k1] = (w + c * xw * yw, s + c * (xw * ys + yw * xs))
        self.halves0[key] = out
        return out

    def _parts(self, g: int, u: int, h: int, he: int, m: int, limit: int) -> list[tuple[int, int]]:
        """:func:`group_shares` of group ``g`` at counts ``(u, h, he, m)``, the sums packed, memoised:
        the rows of neighbouring counts read the same completions (a group with ``u`` cards laid
        and one with ``u + 1`` share all but one of them: ~4 reads of each on the hardest
        positions)."""
        key = (g, u, h, he, m, limit)
        hit = self.parts.get(key)
        if hit is None:
            width = self.width
            hit = self.parts[key] = [
                (w, pack(g, sums, width))
                for w, sums in group_shares(self.prog, g, (u, h, he, m), limit, self.scale)
            ]
        return hit

    def _poly0(self, g: int, state: int) -> list[tuple[int, int]]:
        """Entry 0 (no marked even card) of :meth:`_poly`: (weight, shares) by cards taken."""
        key = (g, (state >> U_SH[g]) & 31 | (state & GROUP_BITS[g]))
        hit = self.polys0.get(key)
        if hit is not None:
            return hit
        u, h, he, m = counts_of(state, g)
        out: list[tuple[int, int]] = []
        for k, wk in enumerate(self._deal_factors(g, u)):
            w, packed = self._parts(g, u + k, h, he, m, 0)[0]
            out.append((wk * w, wk * packed))
        self.polys0[key] = out
        return out

    def _deal_factors(self, g: int, u: int) -> list[int]:
        """Per number ``k`` of the last stack's cards group ``g`` can take (its room, ``u`` laid
        already): the ways to give them free draws (``deals``; 1 otherwise), as the programme's
        own last-stack sums weigh them."""
        prog, size = self.prog, self.prog.npos
        room = min(self.room_of, prog.capg[size][g] - u)
        slots = (
            prog.drawn[size][g - 1] - u - prog.known_before[size][g - 1]
            if g and prog.measure == "deals"
            else -1
        )
        if slots < 0:
            return [1] * max(room + 1, 0)
        return [FALL[slots][k] for k in range(min(room, slots) + 1)]

    def _meet(self, state: int, left: int, limit: int) -> list[int]:
        """The share sums of the last stack's completions by even cards: the two halves
        met (``C(left, a)`` ways to give ``a`` of its cards to groups {0, 1}, already in the low
        half's rows: :meth:`_low_rows`).  Halves of different counts often have equal rows: the
        sums are memoised on the halves' values (an id per distinct half), read-only."""
        low_id, groups, most = self._low_rows(state, left, limit)
        hit = self.high_halves.get((state & HALVES[2]) | limit << 76)
        if hit is None:
            hit = self._high_half(state, limit)
        high, high_id = hit
        key = low_id << 32 | high_id
        out = self.met.get(key) if self.share_meets else None
        if out is not None:
            return out
        rows = len(high)
        out = [0] * (most + left + 1)  # a row's evens: at most its cards (and the hand's marks)
        for b, entries in groups:
            if b >= rows or not high[b]:
                continue
            row = high[b]
            if entries[-1][0] + row[-1][0] >= len(out):
                out += [0] * (entries[-1][0] + row[-1][0] + 1 - len(out))
            for t1, xw, xs in entries:
                for t2, yw, ys in row:
                    out[t1 + t2] += xw * ys + yw * xs
        while out and not out[-1]:
            out.pop()
        if self.share_meets:
            self.met[key] = out
        return out

    def _high_half(self, state: int, limit: int) -> tuple[list[Entries], int]:
        """Groups {2, 3}'s rows (:meth:`_half` without its trailer) and their value's id."""
        p, q = self._poly(2, state, limit), self._poly(3, state, limit)
        # no row beyond the last stack's cards (a final state's ``left``): the meet never reads it
        rows = [_convolve(p, q, k) for k in range(min(len(p) + len(q) - 2, self.room_of) + 1)]
        hit = self.high_halves[(state & HALVES[2]) | limit << 76] = (
            rows,
            self._row_id([tuple(row) for row in rows]) if self.share_meets else 0,
        )
        return hit

    def _row_id(self, rows: Sequence[object]) -> int:
        """One id per distinct value of rows (what :meth:`_meet` memoises on)."""
        return self.row_ids.setdefault(tuple(rows), len(self.row_ids))

    def _low_rows(self, state: int, left: int, limit: int) -> tuple[int, list[tuple[int, Entries]], int]:
        """Groups {0, 1}'s entries to meet with the high half's row ``b``: their value's id, then
        per ``b`` (``a = left - b`` of the last stack's cards to groups {0, 1}) the entries
        ``(evens, C(left, a) * weight, C(left, a) * shares)``, and their most evens (memoised on
        the half's counts and ``left``)."""
        key = (state & HALVES[0]) | left << LEFT
        hit = self.lows.get(key)
        if hit is None:
            low = self._half(0, state, limit)
            comb = COMB[left]
            groups = [
                (left - a, [(t1, comb[a] * xw, comb[a] * xs) for t1, xw, xs in low[a]])
                for a in range(min(left, len(low) - 2) + 1)
                if low[a]
            ]
            low_id = self._row_id(groups_key(groups)) if self.share_meets else 0
            hit = self.lows[key] = (low_id, groups, low[-1][0][0])
        return hit

    def _half(self, first: int, state: int, limit: int) -> list[Entries]:
        """Groups ``first`` and ``first + 1``: entry ``k`` (cards of the last stack they take,
        ``C(k, k0)`` ways to split them), the nonzero (evens, weight, shares) in order of evens;
        then one trailer entry ``[(most evens, 0, 0)]`` (what :meth:`_low_rows` sizes by)."""
        key = (state & HALVES[first]) | first << LEFT | limit << 76
        hit = self.halves.get(key)
        if hit is not None:
            return hit
        p, q = self._poly(first, state, limit), self._poly(first + 1, state, limit)
        # no row beyond the last stack's cards (a final state's ``left``): the meet never reads it
        out = [_convolve(p, q, k) for k in range(min(len(p) + len(q) - 2, self.room_of) + 1)]
        out.append([(max((row[-1][0] for row in out if row), default=0), 0, 0)])  # the most evens
        self.halves[key] = out
        return out

    def _poly(self, g: int, state: int, limit: int) -> list[Entries]:
        """Group ``g``: entry ``k`` (cards of the last stack it takes), by even cards."""
        key = (g, (state >> U_SH[g]) & 31 | (state & GROUP_BITS[g]) | limit << 70)
        hit = self.polys.get(key)
        if hit is not None:
            return hit
        u, h, he, m = counts_of(state, g)
        evens = self.prog.avail[2 * g + 1] - he - m
        out: list[Entries] = []
        for k, wk in enumerate(self._deal_factors(g, u)):
            row_w: list[int] = []
            row_s: list[int] = []
            for j in range(min(k, evens) + 1):
                c = wk * COMB[k][j]
                for t, (w, packed) in enumerate(self._parts(g, u + k, h, he, m + j, limit), j):
                    while len(row_w) <= t:
                        row_w.append(0)
                        row_s.append(0)
                    if w:
                        row_w[t] += c * w
                    if packed:
                        row_s[t] += c * packed
            evens_w, evens_s = by_evens(row_w), by_evens(row_s)
            out.append([(e, w, x) for e, (w, x) in enumerate(zip(evens_w, evens_s, strict=True)) if w or x])
        self.polys[key] = out
        return out


def _convolve(p: list[Entries], q: list[Entries], k: int) -> Entries:
    """Entry ``k`` of two groups' rows met: ``C(k, k0)`` ways to give ``k0`` of ``k`` cards to
    the first group, by even cards (the nonzero (evens, weight, shares), in order of evens).
    Summed on lanes by ``_shares`` when it is built and the kernel on (the loop below is the
    reference; the shares are ~900-bit ints)."""
    if _shares is not None and kernel.COMPILED:
        return _shares.convolve(p, q, k, COMB[k])
    first_k0, last_k0 = max(0, k - len(q) + 1), min(k, len(p) - 1)
    size = 1 + max(
        (p[k0][-1][0] + q[k - k0][-1][0] for k0 in range(first_k0, last_k0 + 1) if p[k0] and q[k - k0]),
        default=-1,
    )
    acc_w, acc_s = [0] * size, [0] * size
    comb = COMB[k]
    for k0 in range(first_k0, last_k0 + 1):
        c, lows = comb[k0], q[k - k0]
        for t1, xw, xs in p[k0]:
            xw, xs = c * xw, c * xs
            for t2, yw, ys in lows:
                acc_w[t1 + t2] += xw * yw
                acc_s[t1 + t2] += xw * ys + yw * xs
    return [(t, w, x) for t, (w, x) in enumerate(zip(acc_w, acc_s, strict=True)) if w or x]


def groups_key(groups: list[tuple[int, Entries]]) -> list[object]:
    """A low half's rows by ``b`` as hashable values (tuples), for :meth:`FinalShares._row_id`."""
    return [(b, tuple(entries)) for b, entries in groups]
