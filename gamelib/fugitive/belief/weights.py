"""Final weights: how many ways the groups' cards complete a final state, and the last stack summed
in closed form.

A final state holds, per group, how many of its cards were laid (hideouts, even hideouts, marked
even sprint cards); the weight picks the actual cards (falling factorials) and the hand.  The last
stack's completions are summed group by group (:meth:`FinalWeights._mark_vector`), memoised.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

from gamelib.fugitive.belief.bits import (
    CLOSED,
    GROUP_BITS,
    H_SH,
    HALVES,
    HE_SH,
    JM,
    KEEP,
    LEFT,
    LOWER,
    M_SH,
    NEED,
    U_SH,
)
from gamelib.fugitive.belief.facts import Facts
from gamelib.fugitive.belief.tables import COEFS, COMB, FALL, GROUPS, add_product, coef, falling

Vec = tuple[int, ...]
"""A memoised vector (by marked or even cards, or by the cards a group takes).  Tuples of ints,
not lists: the garbage collector stops tracking them, so the memos of the programmes a cache keeps
cost nothing to its full collections."""
Rows = tuple[Vec, ...]
"""Vectors by the number of the stack's cards a group (or a pair of groups) takes."""


POLYS: dict[tuple[Any, ...], tuple[tuple[int, ...], ...]] = {}
"""The last stack's group polynomials by context and counts (:meth:`FinalWeights._shared_rows`),
shared by the programmes of every position: an easy position computes few of its own."""
POLYS0: dict[tuple[Any, ...], tuple[int, ...]] = {}
"""Their unmarked entries (:meth:`FinalWeights._shared_poly0`)."""
POLYS_SIZE = 100_000
"""Entries :data:`POLYS` keeps before starting again (tuples of ints: untracked by the collector)."""


SHARE_ROWS = 64
"""A programme shares its last stack's rows between counts (one object per value, divided by their
gcd: :meth:`FinalWeights._half`) once it holds this many halves: a small one would only pay for it."""


T = TypeVar("T")


def _shared(
    memo: dict[tuple[Any, ...], T], key: tuple[Any, ...], make: Callable[[int, int], T], g: int, state: int
) -> T:
    """``memo[key]``, made by ``make(g, state)`` if missing; the memo starts again when full."""
    hit = memo.get(key)
    if hit is None:
        if len(memo) >= POLYS_SIZE:
            memo.clear()
        hit = memo[key] = make(g, state)
    return hit


def clear_shared() -> None:
    """Forget the polynomials shared between programmes (:func:`~.probabilities.clear_caches`)."""
    POLYS.clear()
    POLYS0.clear()


def shared_sizes() -> dict[str, int]:
    """How many shared polynomials are kept (:func:`~.probabilities.cache_sizes`)."""
    return {"polys": len(POLYS), "polys0": len(POLYS0)}


class FinalWeights:
    """The final-weight half of :class:`~gamelib.fugitive.belief.programme.Programme` (a mixin:
    the attributes below are the programme's fields)."""

    facts: Facts
    measure: str
    avail: tuple[int, ...]
    gavail: tuple[int, ...]
    fug: tuple[int, ...]
    hand_count: int
    weights_memo: dict[tuple[int, int, int], Vec]
    folded: bool
    npos: int
    full_u: tuple[int, ...]
    mark_vectors: dict[int, Vec]
    halves: dict[int, Rows]
    even_vectors: dict[int, Vec]
    even_halves: dict[int, Rows]
    rows_seen: dict[Rows, Rows]
    rows_scaled: dict[int, tuple[int, Rows]]
    met: dict[tuple[int, int, int], Vec]
    suffixes: dict[tuple[int, int, int], list[int]]
    even_polys: dict[tuple[int, int, int], Rows]
    polys: dict[tuple[int, int, int], Rows]
    halves0: dict[int, Vec]
    polys0: dict[tuple[int, int, int], Vec]
    poly_contexts: list[tuple[int, ...]]
    closed_memo: dict[int, tuple[int, int]]
    part_memo: dict[int, tuple[int, int]]
    stack: list[int]
    capg: list[tuple[int, ...]]
    drawn: list[tuple[int, ...]]
    known_before: list[tuple[int, ...]]

    def _mark_vector(self, left: int, state: int, even: bool = False) -> Vec:
        """The last stack's completions, times every group's final weight, for every need at once:
        entry ``t`` sums them with ``t`` marked even cards (the hand's too when pending).

        ``left`` cards of the stack are still to allocate; ``state`` holds each group's
        (u, H, He, M) before this stack's share.  The stack's cards go to the groups in
        ``C(left; k0, k1, k2, k3)`` ways, so the sum splits into groups {0, 1} and {2, 3}
        (:meth:`_half`), each memoised on its own counts, met here: the same sums as the group
        layers, shared by every need (0 included).

        ``even``: the same sums by the number of even cards instead (:meth:`_even_poly`).
        """
        key = (state & LOWER[GROUPS - 1]) | left << LEFT
        vectors = self.even_vectors if even else self.mark_vectors
        hit = vectors.get(key)
        if hit is not None:
            return hit
        halves = self.even_halves if even else self.halves
        low = halves.get(state & HALVES[0])  # the keys of :meth:`_half`
        if low is None:
            low = self._half(0, state, even)
        high = halves.get((state & HALVES[2]) | 2 << LEFT)
        if high is None:
            high = self._half(2, state, even)
        # halves with equal rows are one object (:meth:`_half`): many counts meet the same rows
        met_key = (id(low), id(high), left)
        done = self.met.get(met_key)
        if done is None:
            out: list[int] = []
            comb = COMB[left]
            for a in range(min(left, len(low) - 1) + 1):
                b = left - a
                if b >= len(high):
                    continue
                x, y = low[a], high[b]
                if not x or not y:
                    continue
                add_product(out, x, y, comb[a])
            done = self.met[met_key] = tuple(out)
        vectors[key] = done
        return done

    def _unmarked(self, left: int, state: int) -> int:
        """Entry 0 of :meth:`_mark_vector` (what a hideout that needs no even card reads), alone:
        the same sums without a marked even card, as plain numbers (:meth:`_half0`)."""
        key = (state & LOWER[GROUPS - 1]) | left << LEFT
        hit = self.mark_vectors.get(key)
        if hit is not None:
            return hit[0] if hit else 0
        hit = self.even_vectors.get(key)
        if hit is not None:  # by evens N: entry 0 by marks is N(1) (:meth:`_even_poly`)
            return sum(hit)
        return self._unmarked_sum(left, state)

    def _unmarked_sum(self, left: int, state: int) -> int:
        """:meth:`_unmarked` computed: entry 0 of each half, met."""
        halves = self.halves0
        low = halves.get(state & HALVES[0])
        if low is None:
            low = self._half0(0, state)
        high = halves.get((state & HALVES[2]) | 2 << LEFT)
        if high is None:
            high = self._half0(2, state)
        comb = COMB[left]
        total = 0
        for a in range(min(left, len(low) - 1) + 1):
            b = left - a
            if b < len(high):
                x, y = low[a], high[b]
                if x and y:
                    total += comb[a] * x * y
        return total

    def _half0(self, first: int, state: int) -> Vec:
        """Entry 0 (no marked even card) of :meth:`_half`, by the cards the two groups take."""
        key = (state & HALVES[first]) | first << LEFT
        hit = self.halves0.get(key)
        if hit is not None:
            return hit
        rows = self.even_halves.get(key)
        if rows is not None:  # by evens N, by marks V(x) = N(1 + x): entry 0 is V(0) = N(1)
            self.halves0[key] = done = tuple(sum(row) for row in rows)
            return done
        p = self._poly0(first, state)
        q = self._poly0(first + 1, state)
        out = [0] * max(0, len(p) + len(q) - 1)
        for k0, x in enumerate(p):
            if x:
                row = COMB
                for k1, y in enumerate(q):
                    if y:
                        out[k0 + k1] += row[k0 + k1][k0] * x * y
        self.halves0[key] = done = tuple(out)
        return done

    def _poly0(self, g: int, state: int) -> Vec:
        """Group ``g``'s :meth:`_group_poly0`: entry 0 of its rows by marks if this programme has
        them already (:meth:`_even_poly` made them), else made or shared (:data:`POLYS0`)."""
        pkey = (g, (state >> U_SH[g]) & 31, state & GROUP_BITS[g])
        p = self.polys0.get(pkey)
        if p is None:
            rows = self.polys.get(pkey)
            if rows is not None:
                p = tuple(row[0] if row else 0 for row in rows)
            else:
                p = self._shared_poly0(g, state)
            self.polys0[pkey] = p
        return p

    def _poly_context(self, g: int) -> tuple[int, ...]:
        """What group ``g``'s last-stack polynomials read besides the group's own counts: the
        group's card totals, the measure, the last stack's size, cap, free draws and hand marks.
        Positions of different games share polynomials through it (:data:`POLYS`, :data:`POLYS0`)."""
        size = self.npos
        deals = self.measure == "deals"
        return (
            g,
            self.gavail[g],
            self.avail[2 * g + 1],
            self.fug[g],
            deals,
            self.stack[size],
            self.capg[size][g],
            self.drawn[size][g - 1] - self.known_before[size][g - 1] if g and deals else -1,
            self.hand_count if self.facts.pending else 0,
        )

    def _poly_key(self, g: int, state: int) -> tuple[Any, ...]:
        """The key of group ``g``'s last-stack polynomials in :data:`POLYS` (context and counts)."""
        contexts = self.poly_contexts
        if not contexts:
            contexts.extend(self._poly_context(h) for h in range(GROUPS))
        return (contexts[g], (state >> U_SH[g]) & 31, state & GROUP_BITS[g])

    def _shared_poly0(self, g: int, state: int) -> Vec:
        """:meth:`_group_poly0` through :data:`POLYS0`, shared by every programme with the same
        context (a bounded memo)."""
        return _shared(POLYS0, self._poly_key(g, state), self._group_poly0, g, state)

    def _shared_rows(self, g: int, state: int) -> Rows:
        """:meth:`_group_poly` through :data:`POLYS`, shared like :meth:`_shared_poly0`."""
        return _shared(POLYS, self._poly_key(g, state), self._group_poly, g, state)

    def _group_context(self, g: int, state: int) -> tuple[int, int, int, int, int, int, int]:
        """What group ``g`` of the last stack brings to its weights at ``state``: the cards it has
        used, its hand and marked counts, the room left under its cap, the hand limit while the
        stack is pending, and (measure ``deals``) the free draws its deck still owes (-1: none)."""
        size = self.npos
        u = (state >> U_SH[g]) & 31
        h = (state >> H_SH[g]) & 15
        he = (state >> HE_SH[g]) & 15
        m = (state >> M_SH[g]) & 15
        room = min(self.stack[size], self.capg[size][g] - u)
        limit = self.hand_count if self.facts.pending else 0
        free_slots = -1
        if g and self.measure == "deals":
            free_slots = self.drawn[size][g - 1] - u - self.known_before[size][g - 1]
        return u, h, he, m, room, limit, free_slots

    def _group_poly0(self, g: int, state: int) -> Vec:
        """Entry 0 (no marked even card) of :meth:`_group_poly`, by the cards group ``g`` takes."""
        u, h, he, m, room, limit, free_slots = self._group_context(g, state)
        memo = self.weights_memo
        out: list[int] = []
        for k, wk in _draw_factors(room, free_slots):
            wkey = (g | limit << 2, (u + k) | h << 5 | he << 9, m)
            parts = memo.get(wkey)
            if parts is None:
                parts = memo[wkey] = self._group_weights_of(g, u + k, h, he, m, limit)
            out.append(wk * parts[0])
        return tuple(out)

    def _half(self, first: int, state: int, even: bool = False) -> Rows:
        """Groups ``first`` and ``first + 1`` of the last stack: entry ``k`` is, by marked even
        cards (``even``: by even cards), the weight of giving them ``k`` of its cards (``C(k, k0)``
        ways to split them), times their final weights."""
        key = (state & HALVES[first]) | first << LEFT
        halves = self.even_halves if even else self.halves
        hit = halves.get(key)
        if hit is not None:
            return hit
        polys = self.even_polys if even else self.polys
        make = self._even_poly if even else self._shared_rows
        pkey = (first, (state >> U_SH[first]) & 31, state & GROUP_BITS[first])
        p = polys.get(pkey)
        if p is None:
            p = polys[pkey] = make(first, state)
        qkey = (first + 1, (state >> U_SH[first + 1]) & 31, state & GROUP_BITS[first + 1])
        q = polys.get(qkey)
        if q is None:
            q = polys[qkey] = make(first + 1, state)
        out: list[list[int]] = []
        for k0, x in enumerate(p):
            if not x:
                continue
            for k1, y in enumerate(q):
                if not y:
                    continue
                k = k0 + k1
                while len(out) <= k:
                    out.append([])
                add_product(out[k], x, y, COMB[k][k0])
        done = halves[key] = tuple(tuple(row) for row in out)
        if len(halves) < SHARE_ROWS:
            return done  # a small programme meets few rows: nothing to share
        # one object per value: :meth:`_mark_vector` meets rows by identity (kept alive here)
        done = halves[key] = self.rows_seen.setdefault(done, done)
        if even and id(done) not in self.rows_scaled:
            # and by their greatest common divisor: rows that differ by a factor meet once
            # (:meth:`_even_fins`)
            common = math.gcd(*(x for row in done for x in row))
            if common > 1:
                shape = tuple(tuple(x // common for x in row) for row in done)
                self.rows_scaled[id(done)] = (common, self.rows_seen.setdefault(shape, shape))
            else:
                self.rows_scaled[id(done)] = (1, done)
        return done

    def _even_poly(self, g: int, state: int) -> Rows:
        """:meth:`_group_poly` by the number of even cards instead of marked ones: a row ``V`` by
        marks is ``V(x) = N(1 + x)`` for ``N`` by evens, so ``N[e] = sum_t (-1)^(t-e) C(t, e) V[t]``.
        Products of such rows stay by evens, and the weight of a need is then a suffix sum."""
        pkey = (g, (state >> U_SH[g]) & 31, state & GROUP_BITS[g])
        rows = self.polys.get(pkey)
        if rows is None:
            rows = self.polys[pkey] = self._shared_rows(g, state)
        out = []
        for row in rows:
            # N(y) = V(y - 1): the Taylor shift by -1, in place (subtractions only, no binomials)
            evens = list(row)
            top = len(evens) - 1
            for i in range(top):
                for j in range(top - 1, i - 1, -1):
                    evens[j] -= evens[j + 1]
            out.append(tuple(evens))
        return tuple(out)

    def _group_poly(self, g: int, state: int) -> Rows:
        """Group ``g`` of the last stack: entry ``k`` is, by marked even cards, the weight of
        giving it ``k`` of the stack's cards (free draws, marked evens) times its final weight."""
        u, h, he, m, room, limit, free_slots = self._group_context(g, state)
        evens = self.avail[2 * g + 1] - he - m
        memo = self.weights_memo
        out: list[list[int]] = []
        for k, wk in _draw_factors(room, free_slots):
            row: list[int] = []
            for j in range(min(k, evens) + 1):
                wkey = (g | limit << 2, (u + k) | h << 5 | he << 9, m + j)
                parts = memo.get(wkey)
                if parts is None:
                    parts = memo[wkey] = self._group_weights_of(g, u + k, h, he, m + j, limit)
                w = wk * COMB[k][j]
                for jp, x in enumerate(parts, j):
                    if x:
                        while len(row) <= jp:
                            row.append(0)
                        row[jp] += w * x
            out.append(row)
        return tuple(tuple(row) for row in out)

    def _close_groups(self, state: int) -> tuple[int, int]:
        """Fold in the final weight of every group that can take no more card (all of its cards
        laid), and forget its hideout and mark counts (H = 15 marks it closed): states merge."""
        low = state & KEEP  # the per-group counts: all that closing reads and changes
        hit = self.closed_memo.get(low)
        if hit is None:
            factor, new = 1, low
            for g in range(GROUPS):
                if (new >> U_SH[g]) & 31 == self.full_u[g] and (new >> H_SH[g]) & 15 != CLOSED:
                    factor *= self._group_weights(new, g, 0)[0]
                    new &= ~((15 << H_SH[g]) | (15 << HE_SH[g]) | (15 << M_SH[g]))
                    new |= CLOSED << H_SH[g]
            hit = self.closed_memo[low] = (new, factor)
        return (state ^ low) | hit[0], hit[1]

    def _close_part(self, part: int, first: int) -> tuple[int, int]:
        """:meth:`_close_groups` restricted to groups ``first`` and ``first + 1`` (``part`` holds only
        their counts): their closed counts and the factor folded in."""
        factor, new = 1, part
        for g in (first, first + 1):
            if (new >> U_SH[g]) & 31 == self.full_u[g] and (new >> H_SH[g]) & 15 != CLOSED:
                factor *= self._group_weights(new, g, 0)[0]
                new &= ~((15 << H_SH[g]) | (15 << HE_SH[g]) | (15 << M_SH[g]))
                new |= CLOSED << H_SH[g]
        return new, factor

    def _group_weights(self, state: int, g: int, hand_marks: int) -> Vec:
        """Completions of group ``g``, by the number of marked even cards in the hand (pending)."""
        u = (state >> U_SH[g]) & 31
        h = (state >> H_SH[g]) & 15
        he = (state >> HE_SH[g]) & 15
        m = (state >> M_SH[g]) & 15
        key = (g | hand_marks << 2, u | h << 5 | he << 9, m)
        hit = self.weights_memo.get(key)
        if hit is None:
            hit = self.weights_memo[key] = self._group_weights_of(g, u, h, he, m, hand_marks)
        return hit

    def _group_weights_of(self, g: int, u: int, h: int, he: int, m: int, hand_marks: int) -> Vec:
        if h == CLOSED:
            return (1,)  # folded in when the group closed
        a = self.gavail[g]
        a_even = self.avail[2 * g + 1]
        f = u - h - m
        hand = a - u if g == 0 else self.fug[g] - u
        if f < 0 or hand < 0 or hand > a - u:
            return (0,)
        evens = a_even - he
        base = falling(evens, m)
        if not base:
            return (0,)
        if self.measure == "deals" and g:
            base *= math.factorial(hand)
        out = []
        for jp in range(min(hand, hand_marks) + 1):
            pool = a - h - m - jp
            out.append(
                base * math.comb(evens - m, jp) * falling(pool, f) * math.comb(pool - f, hand - jp)
                if evens - m >= jp
                else 0
            )
        return tuple(out)

    def _fins_by_need(self, state: int, top: int) -> list[int]:
        """The final weights of ``state`` (no mark yet) by need 0..``top``: what the last layer
        reads for every hideout of one class (:func:`~.build._tail_layer`)."""
        if self.folded:
            left = (state >> LEFT) & 63
            if not top:
                return [self._unmarked(left, state)]
            return self._even_fins(left, state, top)
        return [self.final_weight(state | need << NEED) for need in range(top + 1)]

    def _even_fins(self, left: int, state: int, top: int) -> list[int]:
        """The last stack's completions by need (entry ``t``: with at least ``t`` even cards), at
        least ``top + 1`` entries: the suffix sums of :meth:`_mark_vector` by even cards, computed
        once per pair of halves' rows met (halves with equal rows are one object, :meth:`_half`,
        so the many counts that meet the same rows share one list; do not change it)."""
        halves = self.even_halves
        low = halves.get(state & HALVES[0])
        if low is None:
            low = self._half(0, state, True)
        high = halves.get((state & HALVES[2]) | 2 << LEFT)
        if high is None:
            high = self._half(2, state, True)
        factor = 1
        scaled = self.rows_scaled
        if scaled:  # rows are shared (a large programme): meet them divided by their gcd
            low_factor, low = scaled.get(id(low)) or (1, low)
            high_factor, high = scaled.get(id(high)) or (1, high)
            factor = low_factor * high_factor
        key = (id(low), id(high), left)
        out = self.suffixes.get(key)
        if out is None or len(out) <= top:
            vector: list[int] = []
            comb = COMB[left]
            n_high = len(high)
            for a, x in enumerate(low[: left + 1]):
                b = left - a
                if b < n_high and x:
                    y = high[b]
                    if y:
                        add_product(vector, x, y, comb[a])
            out = [0] * (max(top, len(vector)) + 1)
            run = 0
            for e in range(len(vector) - 1, -1, -1):
                run += vector[e]
                out[e] = run
            self.suffixes[key] = out
        return out if factor == 1 else [factor * x for x in out]

    def final_weight(self, state: int) -> int:
        facts = self.facts
        if self.folded:
            left, marks, need = (state >> LEFT) & 63, (state >> JM) & 63, (state >> NEED) & 127
            if not need and not marks:  # no even card needed: only the unmarked completions
                return self._unmarked(left, state)
            # the same sums for every need: by the number of marked evens, then weighed
            vector = self._mark_vector(left, state)
            coefs = COEFS[need]
            total = 0
            for t, x in enumerate(vector, marks):
                if x:
                    total += coefs[t] * x
            return total
        if not facts.pending:
            w = 1
            for g in range(GROUPS):
                w *= self._group_weights(state, g, 0)[0]
                if not w:
                    return 0
            return w
        need = (state >> NEED) & 127
        marks = (state >> JM) & 63
        conv = [1]
        limit = self.hand_count if need else 0
        for g in range(GROUPS):
            part = self._group_weights(state, g, limit)
            nxt = [0] * (len(conv) + len(part) - 1)
            for a_, x in enumerate(conv):
                if x:
                    for b_, y in enumerate(part):
                        nxt[a_ + b_] += x * y
            conv = nxt
        return sum(x * coef(marks + jp, need) for jp, x in enumerate(conv) if x)


def _draw_factors(room: int, free_slots: int) -> list[tuple[int, int]]:
    """``(k, ways)`` for each number ``k`` of the last stack's cards a group may take: the ways its
    deck's free draws can supply them (a falling factorial, measure ``deals``; 1 otherwise)."""
    factors: list[tuple[int, int]] = []
    for k in range(max(room, -1) + 1):
        if free_slots >= 0 and k:
            if k > free_slots:
                break
            factors.append((k, FALL[free_slots][k]))
        else:
            factors.append((k, 1))
    return factors
