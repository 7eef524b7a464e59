"""A direct count of small positions with face-down sprint stacks before the last hideout.

:mod:`~.direct` counts the positions whose only face-down stack is the last one.  This module
takes the next simplest ones: a few face-down hideouts and a few face-down sprint cards under an
earlier hideout as well.  It walks the hideout values (the paths) one by one, as :mod:`~.direct`
does, but each path carries a small *cloud* of card counts, and the last stack closes each path in
closed form:

* a cloud maps the cards laid face down so far to their weight; a key holds, per group of
  :mod:`~.tables`, the cards laid, the hideouts, the even hideouts and the even cards of the
  earlier stacks.  The weight is the deal measure's free draws at each position (1 under
  ``"worlds"``) and the ways to share out the earlier stacks, exactly the moves of
  :mod:`~.programme`; a hideout adds its card to every count of the cloud;
* an earlier face-down stack of ``n`` cards is shared out by group and parity: group ``g`` gives
  ``k`` cards, ``e`` of them even, under its cap, times ``FALL[slots][k]`` free draws under
  ``"deals"``, at least ``need`` of the stack's cards even (its footprints).  Which cards they are
  is left to the end: the hideouts still to come may take some of them.  A stack only weighs which
  of the earlier stacks' cards of a class are its own (``C(s + e, e)`` for ``s`` such cards before
  it), and the end picks all of them among the class's cards no hideout took (``C(E, s)``).  The
  counts a share leads to merge in the cloud;
* the last stack and the hand are the group tables of :mod:`~.direct`, packed, times those picks,
  memoised per count; the counts a value leads to depend only on its class and the stack's need,
  so they are made once per pair at each node of the walk;
* unordered stacks, like :mod:`~.direct`: totals and marginals are the programme's over the product
  of the stacks' ``n!``.

:func:`early_count` takes only small positions (:func:`takes`: the direct count beats the
programme there, measured; a larger one would walk too many paths and clouds) and gives up past
:data:`EARLY_WORK`, returning None (the caller builds the programme).  Counts are checked equal
to the programme on every stored and held-out position it takes, and to a brute-force
enumeration (tests/fugitive/test_fugitive_belief_h3_direct.py).
"""

from __future__ import annotations

import functools
from bisect import bisect_right
from typing import Any

from gamelib.fugitive.belief import kernel
from gamelib.fugitive.belief.bits import DONE
from gamelib.fugitive.belief.direct import (
    _ALSO_CLEARED,
    ENDS,
    WIDTH_STEP,
    Counted,
    _bits,
    _context,
    _open_series,
    _position_tables,
    group_bound,
    packed_table,
)
from gamelib.fugitive.belief.direct_early_pure import PureLoops, Shares, _by_cards
from gamelib.fugitive.belief.facts import Facts, advance, reachable_values
from gamelib.fugitive.belief.tables import COMB, FALL, GROUPS, class_masks
from gamelib.fugitive.rules import STEP_LIMIT

try:
    from gamelib.fugitive.belief import _early
    from gamelib.fugitive.belief._early import share_params as _share_params  # bound once (walk set-up)
except ImportError:  # installed without a C compiler (or an older build): the pure loops serve
    _early = None  # type: ignore[assignment]
    _share_params = None  # type: ignore[assignment]

EARLY_WORK = 5_000
"""The work (counts moved, shares made, end weights) before giving up: the programme is faster
beyond (a unit of work is some 1-2 microseconds).  The walk also gives up as soon as its work so
far, over the part of the paths it has walked, says the whole would pass it."""
EARLY_CARDS = 12
"""The most face-down sprint cards (all stacks) and :data:`EARLY_HIDDEN` the most face-down
hideouts of a position taken here.  Measured on the 1,852 positions of agents, heldout-C, random
and heldout-A that have earlier stacks, at most 8 such cards and 4 face-down hideouts, each
counted both ways (min of 2): this walk was the faster on 1,528, and in sum 2,851 against
3,281 ms; it loses on the largest (3-4 face-down hideouts with 12-21 values each, 5-7 cards),
which the work bound sends to the programme.  On the random sets' easy positions (the reference
under 0.1 ms) with up to 14 cards it was the faster on 275 of 310 (8-11 cards, 2-3 face-down
hideouts: median 0.14-0.25 against 0.34-0.54 ms).  Benchmark loop, one pass, base alternated:
random easy median 0.58 -> 0.50 ms at (14, 4), 0.59 -> 0.54 at (6, 3), the set's sum unchanged."""
EARLY_HIDDEN = 4
END_WORK = 4
"""The work of one end weight (a product of packed tables) against one count moved."""

Cloud = dict[int, int]
"""Card counts laid face down so far -> weight; a key holds per group (:data:`U_BITS` each) the
cards laid (at ``5 g``), the hideouts (:data:`HS`), the even hideouts (:data:`HE`) and the even
cards of the earlier stacks (:data:`SE`)."""
Terms = tuple[tuple[int, int, int], ...]
"""A face-up position's free draws, per deck with cards face up there: (key shift, cards, draws)."""

U_BITS = 5
"""Bits per count in a cloud's key."""
HS = U_BITS * GROUPS
"""Where the hideout counts start in a cloud's key."""
HE = 2 * HS
"""Where the even hideout counts start."""
SE = 3 * HS
"""Where the earlier stacks' even cards start (their odd cards: laid less hideouts less these)."""


GROUP_MASKS = [sum(31 << (start + U_BITS * g) for start in (0, HS, HE, SE)) for g in range(GROUPS)]
"""Per group, its counts' bits in a cloud's key."""

SHARES: dict[tuple[int, ...], Shares] = {}
"""A group's shares of an earlier stack by what they depend on, shared between counts (80% of a
count's were made before, by other games' positions alike).  At most :data:`SHARES_KEPT`;
:func:`~.direct.clear_shared` forgets them.  (Their products by stack, kept alike, cost more than
they saved: measured.)"""
SHARES_KEPT = 4_000
_ALSO_CLEARED.append(SHARES.clear)


LATE_MASK = GROUP_MASKS[2] | GROUP_MASKS[3]
"""The counts of groups 2 and 3 in a cloud's key: their shares of a stack depend on nothing else."""
LOW_MASK, HIGH_MASK = GROUP_MASKS[0] | GROUP_MASKS[1], LATE_MASK
"""The counts of groups 0-1 and of groups 2-3 in a cloud's key (their tables' products)."""
END_MASKS = (LOW_MASK, HIGH_MASK)


def takes(facts: Facts, stacks: list[int]) -> bool:
    """Whether the position is small enough to try (:data:`EARLY_CARDS`, :data:`EARLY_HIDDEN`)."""
    return sum(stacks) <= EARLY_CARDS and sum(1 for v in facts.known if v < 0) <= EARLY_HIDDEN


def early_count(facts: Facts, measure: str) -> Counted | None:
    """The total weight of ``facts`` under ``measure`` and the face-down positions' value weights,
    or None when the position is not one this module counts (see the module docstring): it must
    have a face-down stack before the last hideout (else :mod:`~.direct` counts it)."""
    if facts.pending:
        return None
    size = facts.size
    if size < 1:
        return None
    known = facts.known
    sprint_counts, known_sprints = facts.sprint_counts, facts.known_sprints
    stacks = [0] * (size + 1)
    for i in range(1, size + 1):
        down = sprint_counts[i] - len(known_sprints[i])
        if down:
            if known[i] >= 0:
                return None  # face-down sprint cards under a face-up hideout (escape_sprints="hidden")
            stacks[i] = down
    if not any(stacks[:size]) or not takes(facts, stacks):
        return None
    for i in range(1, size + 1):
        cap = facts.caps[i]
        if cap[0] < 0 or cap[1] < 0 or cap[2] < 0:
            return None  # inconsistent: the programme says why
    walker = _Walk(facts, measure, stacks)
    if not (walker.walk_compiled() if walker.fast else walker.walk(1, 0, 0, {0: 1})):
        return None
    return walker.total, walker.tallies


def _up_terms(deals: bool, at: tuple[int, ...], dr: tuple[int, ...], bf: tuple[int, ...]) -> Terms:
    """A face-up position's free draws (deals), per deck with cards ``at`` it: (key shift, cards, draws less
    before).  The position's alone: a walk makes them once (:attr:`_Walk.up_terms`), not once a pass."""
    return tuple((U_BITS * (d + 1), at[d], dr[d] - bf[d]) for d in range(3) if at[d]) if deals else ()


@functools.lru_cache(maxsize=64)
def _hide_keys(group_of: tuple[int, ...]) -> tuple[int, ...]:
    """Per card: what hiding it adds to a cloud's key (its group's cards and hideouts, and even
    hideouts if even)."""
    return tuple(
        (1 << (U_BITS * g)) + (1 << (HS + U_BITS * g)) + ((1 - v % 2) << (HE + U_BITS * g))
        if (g := group_of[v]) >= 0
        else 0
        for v in range(43)
    )


class _Walk(PureLoops):
    """One direct count: the position's tables, the last stack's packed group tables, and the
    walk over hideout values that tallies every path's weight."""

    def __init__(self, facts: Facts, measure: str, stacks: list[int]) -> None:
        size = self.size = facts.size
        known = self.known = facts.known
        self.stacks = stacks
        self.n = stacks[size]
        self.group_of = facts.tables.group_of
        self.class_of = facts.tables.class_of
        self.hide_key = _hide_keys(self.group_of)
        avail = self.avail = [(facts.unknown & mask).bit_count() for mask in class_masks(facts.last)]
        gavail = self.gavail = [avail[2 * g] + avail[2 * g + 1] for g in range(GROUPS)]
        self.fug = (gavail[0], *facts.hand_unknown)
        self.deals = measure == "deals"
        self.fast = _early is not None and kernel.COMPILED
        """The compiled loops (``_early.c``: the same Python-int sums in C, :mod:`~.kernel`'s switch)."""
        self.known_at, self.before, self.drawn, self.capg, self.fixed_fp = _position_tables(facts, gavail)
        reach = self.reach = reachable_values(facts)
        self.active = _open_series(facts, reach)
        self.hidden_positions = [i for i in range(1, size + 1) if known[i] < 0]
        self.hidden_before = [i for i in self.hidden_positions if i < size]
        self.tallies: dict[int, list[int]] = {i: [0] * 43 for i in self.hidden_positions}
        last_drawn, last_before = self.drawn[size], self.before[size]
        self.context = _context(
            (
                self.n,
                self.deals,
                *avail,
                *self.capg[size],
                *self.fug,
                *(last_drawn[d] - last_before[d] for d in range(3)),
            )
        )
        """The last stack's context, interned (:func:`~.direct._context`): its weights by need are
        kept in :data:`~.direct.ENDS` by (context, cloud key), shared between counts."""
        self.packed: list[dict[int, int]] = [{} for _ in range(GROUPS)]  # group tables by part of key
        self.low_pairs: dict[int, int] = {}  # groups 0-1's tables multiplied, by their part of key
        self.high_pairs: dict[int, int] = {}  # groups 2-3's
        self.shares: dict[tuple[int, int], list[tuple[int, int, int]]] = {}  # a stack's moves
        self.group_shares: dict[int, Shares] = {}
        self.late: dict[tuple[int, int], list[list[tuple[int, int, int]]]] = {}  # groups 2-3 paired
        self.work = 0
        self.limit = EARLY_WORK
        self.done = 0.0  # the part of the walk done
        self.path = [0] * (size + 1)
        self.total = 0
        self.width = 0  # the packing's, set on the first group table (:meth:`_packing`)
        self.up_terms: list[Terms | None] = [None] * (size + 1)  # face-up positions' _up_terms, once made
        self.share_params: dict[int, tuple[tuple[int, int, bool, int, int, int], ...]] = (
            _share_params(size, stacks, self.capg, self.drawn, self.before, avail, self.deals)
            if self.fast
            else {}
        )
        """Per early stack, per group, what ``_early.group_shares`` reads of the position (its cap, the
        stack's cards, whether and which free draws count (deals, g > 0), the group's odd and even
        cards), made in C (``_early.share_params``; the pure loops read the position itself)."""

    @functools.cached_property
    def values(self) -> list[list[int]]:
        """Per position, the hideout values the walk picks from there (face-down positions and the
        last), ascending.  Only the Python walks read it (the compiled walk reads :attr:`reach`
        itself), so it is made on first use: ~4 us a walk saved on the compiled path."""
        known, reach, size = self.known, self.reach, self.size
        return [[]] + [_bits(reach[i]) if known[i] < 0 or i == size else [] for i in range(1, size + 1)]

    def _packing(self) -> None:
        """The groups' tables are multiplied as packed integers (Kronecker substitution): entry
        (k, e) at bit ``width * (e + (n + 1) * k)``, every entry and product entry below 2**width.
        A bound on every product entry: each group's weights only shrink as its counts grow (fewer
        cards to pick, hand and free draws), so the sum of its entries with nothing laid bounds
        them, and the product of those sums bounds the product's entries; but for the ways to pick
        the earlier stacks' ``t <= early`` cards of a group of ``a``, ``C(E, x) C(O, t - x) <=
        C(a, t) <= C(a, min(early, a // 2))``, a factor of each group's bound."""
        n, gavail, fug = self.n, self.gavail, self.fug
        last_cap, last_drawn, last_before = (
            self.capg[self.size],
            self.drawn[self.size],
            self.before[self.size],
        )
        width = 0
        if self.fast:
            try:
                early = sum(self.stacks[: self.size])
                width = _early.packing_width(
                    n,
                    self.deals,
                    early,
                    gavail,
                    fug,
                    last_cap,
                    last_drawn,
                    last_before,
                    group_bound,
                    COMB,
                    WIDTH_STEP,
                )
            except OverflowError:
                width = 0  # counts beyond a C long: the pure loop below
        width = self.width = width or self._bound_width()
        stride = n + 1
        row_bits = self.row_bits = width * stride
        self.keep = (1 << (row_bits * stride)) - 1  # entries with at most n cards
        self.row_shift, self.row_mask = row_bits * n, (1 << row_bits) - 1
        self.digit = (1 << width) - 1
        self.x_1 = 1 + (1 << row_bits)  # 1 + x (an odd card); 1 + xy is an even one
        self.end_packing = (self.keep, self.row_shift, self.row_mask, n, width, self.digit)
        """What ``_early.end_weights`` reads of the packing, and below of the group tables."""
        params = [n, width]
        for g in range(GROUPS):
            drawn = self.deals and g > 0
            params += (
                gavail[g],
                fug[g] if g else gavail[g],
                last_cap[g],
                self.avail[2 * g + 1],
                self.avail[2 * g],
            )
            params += (drawn, last_drawn[g - 1] - last_before[g - 1] if g else 0)
        self.end_tables = (self.packed, tuple(params), packed_table, COMB)

    def group_table(self, g: int, key: int) -> int:
        """Group ``g``'s weights by (cards given to the stack, even ones), packed: the ways to pick
        them, ``(1 + xy)**evens (1 + x)**odds``, each row k times its hand and draw factor, all
        times the ways to pick the earlier stacks' cards of the group among those no hideout took
        (:meth:`end_weights` keeps them by the group's part of the key)."""
        shift = U_BITS * g
        ug, hg = (key >> shift) & 31, (key >> (HS + shift)) & 31
        heg, seg = (key >> (HE + shift)) & 31, (key >> (SE + shift)) & 31
        if not self.width:
            self._packing()
        a, n, avail, last = self.gavail[g], self.n, self.avail, self.size
        last_cap, last_drawn, last_before = self.capg[last], self.drawn[last], self.before[last]
        hand_total = self.fug[g] - ug if g else a - ug
        room = min(n, last_cap[g] - ug, hand_total)
        evens, odds = avail[2 * g + 1] - heg, avail[2 * g] - (hg - heg)  # not hideouts
        seo = ug - hg - seg  # the earlier stacks' odd cards
        early = COMB[evens][seg] * COMB[odds][seo]  # all >= 0 (COMB is 0 past n)
        if room < 0 or not early:
            return 0
        drawn = self.deals and g > 0
        slots = last_drawn[g - 1] - ug - last_before[g - 1] if drawn else -1
        # the earlier stacks' picks multiply every entry: the packed table times that factor
        return early * packed_table(
            self.width, n, evens - seg, odds - seo, a - ug, hand_total, room, slots, drawn
        )

    def end_weights(self, key: int) -> tuple[int, ...]:
        """The last stack and the hand filled in from these counts: weight by need (0..n)."""
        hit = ENDS.get((self.context, key))
        return hit if hit is not None else self.new_end_weights(key)

    def new_end_weights(self, key: int) -> tuple[int, ...]:
        """:meth:`end_weights` not kept yet: the product of groups 0-1's tables times groups
        2-3's, each pair memoised on its groups' counts (a hideout changes one group: the keys a
        cloud's values lead to share the other pair), kept in :data:`~.direct.ENDS`."""
        self.work += END_WORK
        if self.fast:
            if not self.width:
                self._packing()
            ends = _early.end_weights(
                key,
                self.low_pairs,
                self.high_pairs,
                self.end_tables,
                END_MASKS,
                self.end_packing,
                ENDS,
                self.context,
            )
            return ends
        low = key & LOW_MASK
        prod = self.low_pairs.get(low)
        if prod is None:
            prod = self.low_pairs[low] = self._pair(0, key)
        if prod:
            high = key & HIGH_MASK
            other = self.high_pairs.get(high)
            if other is None:
                other = self.high_pairs[high] = self._pair(2, key)
            prod = (prod * other) & self.keep if other else 0
        row = (prod >> self.row_shift) & self.row_mask
        n, width, digit = self.n, self.width, self.digit
        out = [0] * (n + 1)
        if row:
            run = 0
            for e in range(n, -1, -1):
                run += (row >> (width * e)) & digit
                out[e] = run
        kept = ENDS[self.context, key] = tuple(out)
        return kept

    def _pair(self, g: int, key: int) -> int:
        """The product of groups ``g`` and ``g + 1``'s tables from the counts ``key`` (each
        memoised on its group's counts: its table depends on nothing else)."""
        packed = self.packed
        tables = packed[g]
        part = key & GROUP_MASKS[g]
        first = tables.get(part)
        if first is None:
            first = tables[part] = self.group_table(g, key)
        if not first:
            return 0
        tables = packed[g + 1]
        part = key & GROUP_MASKS[g + 1]
        second = tables.get(part)
        if second is None:
            second = tables[part] = self.group_table(g + 1, key)
        return (first * second) & self.keep if second else 0

    def face_up_weight(self, i: int, key: int) -> int:
        """Measure deals: the ways to give the deck cards face up at position ``i`` a free draw."""
        at, dr, bf = self.known_at[i], self.drawn[i], self.before[i]
        w = 1
        for d in range(3):
            c = at[d]
            if c:
                x = dr[d] - ((key >> (U_BITS * (d + 1))) & 31) - bf[d]
                w *= FALL[x][c] if x >= 0 else 0
        return w

    def face_up(self, i: int, cloud: Cloud, terms: Terms | None = None) -> Cloud:
        """The cloud past face-up position ``i`` (its caps; measure deals: its deck cards' free
        draws, :meth:`face_up_weight` inline, only the decks with a card face up there): ``terms``
        are :func:`_up_terms`'s for ``i`` (the walk's, kept in :attr:`up_terms`), made here if None."""
        if terms is None:
            terms = _up_terms(self.deals, self.known_at[i], self.drawn[i], self.before[i])
        if self.fast:
            return _early.face_up(cloud, self.capg[i], terms, FALL)
        cap0, cap1, cap2, cap3 = self.capg[i]
        out = {}
        for key, w in cloud.items():
            if (  # closes(), inline
                key & 31 <= cap0
                and (key >> 5) & 31 <= cap1
                and (key >> 10) & 31 <= cap2
                and (key >> 15) & 31 <= cap3
            ):
                for shift, c, free in terms:
                    x = free - ((key >> shift) & 31)
                    w *= FALL[x][c] if x >= 0 else 0
                if w:
                    out[key] = w
        return out

    def skip_face_up(self, i: int, prev: int, progress: int, cloud: Cloud) -> tuple[int, int, int, Cloud]:
        """Face-up positions before the last: one value each.  (i, prev, progress, cloud) after
        them, the cloud empty when the path dies there."""
        known, reach, fixed_fp, active, size = self.known, self.reach, self.fixed_fp, self.active, self.size
        up_terms, fast, capg = self.up_terms, self.fast, self.capg
        while i < size and known[i] >= 0:
            v = known[i]
            if not reach[i] >> v & 1 or v <= prev or v > prev + STEP_LIMIT + fixed_fp[i]:
                return i, prev, progress, {}
            if active[i]:
                progress = advance(progress, active[i], v, i)
                if progress < 0:
                    return i, prev, progress, {}
            terms = up_terms[i]
            if terms is None:  # the position's first pass this walk
                terms = up_terms[i] = _up_terms(self.deals, self.known_at[i], self.drawn[i], self.before[i])
            cloud = _early.face_up(cloud, capg[i], terms, FALL) if fast else self.face_up(i, cloud, terms)
            if not cloud:
                return i, prev, progress, cloud
            prev = v
            i += 1
        return i, prev, progress, cloud

    def hide(self, i: int, v: int, cloud: Cloud) -> Cloud:
        """Every count of the cloud with hideout ``v`` at face-down position ``i`` (its free draws)."""
        g = self.group_of[v]
        cap = self.capg[i][g]
        shift = U_BITS * g
        inc = self.hide_key[v]
        if self.fast:
            free = self.drawn[i][g - 1] - self.before[i][g - 1] if self.deals and g else 0
            return _early.hide_step(cloud, shift, cap, inc, bool(self.deals and g), free, None)
        out = {}
        if self.deals and g:
            free = self.drawn[i][g - 1] - self.before[i][g - 1]
            for key, w in cloud.items():
                ug = (key >> shift) & 31
                if ug < cap:
                    out[key + inc] = w * (free - ug)
        else:
            for key, w in cloud.items():
                if (key >> shift) & 31 < cap:
                    out[key + inc] = w
        return out

    def hide_closed(self, i: int, v: int, cloud: Cloud, hidden: bool) -> Cloud:
        """The cloud past position ``i`` (not the last, no stack) with hideout ``v``: :meth:`hide`
        when face down, then the counts its caps allow (:meth:`closes`), in one pass (no cloud in
        between, no call per count); the same dict, counts of weight 0 kept alike."""
        if self.fast and not hidden:
            return _early.hide_step(cloud, -1, 0, 0, False, 0, self.capg[i])
        cap0, cap1, cap2, cap3 = self.capg[i]
        if not hidden:
            return {
                key: w
                for key, w in cloud.items()
                if key & 31 <= cap0
                and (key >> 5) & 31 <= cap1
                and (key >> 10) & 31 <= cap2
                and (key >> 15) & 31 <= cap3
            }
        g = self.group_of[v]
        cap = self.capg[i][g]
        shift = U_BITS * g
        inc = self.hide_key[v]
        free = self.drawn[i][g - 1] - self.before[i][g - 1] if self.deals and g else -1
        if self.fast:
            return _early.hide_step(cloud, shift, cap, inc, free >= 0, free, self.capg[i])
        out = {}
        for key, w in cloud.items():
            ug = (key >> shift) & 31
            if ug >= cap:
                continue
            key += inc
            if (  # closes(), inline
                key & 31 <= cap0
                and (key >> 5) & 31 <= cap1
                and (key >> 10) & 31 <= cap2
                and (key >> 15) & 31 <= cap3
            ):
                out[key] = w * (free - ug) if free >= 0 else w
        return out

    def share_out(self, i: int, n: int, need: int, cloud: Cloud) -> Cloud:
        """The cloud past the face-down stack of ``n`` cards at position ``i`` (not the last), at
        least ``need`` of them even: every share by group and parity, its picks and free draws."""
        if self.fast:  # the stack's shares made in C too (stack_shares's arguments)
            make = (n, self.group_shares, self.late, self.share_params[i], SHARES, SHARES_KEPT, FALL, COMB)
            moved, work = _early.share_out(cloud, need, i, self.shares, make)
            self.work += work
            return moved
        out: Cloud = {}
        shares = self.shares
        for key, w in cloud.items():
            moves = shares.get((i, key))
            if moves is None:
                moves = shares[i, key] = self._shares(i, key)
            if need > 0:
                for step, f, evens in moves:
                    if evens >= need:
                        k = key + step
                        out[k] = out.get(k, 0) + w * f
            else:  # every share has enough even cards
                for step, f, _ in moves:
                    k = key + step
                    out[k] = out.get(k, 0) + w * f
        return out

    def _group_shares(self, i: int, g: int, key: int) -> Shares:
        """Group ``g``'s shares of the stack at ``i`` from the counts ``key``: (cards, even cards,
        weight, step to the key), by cards (shared: :data:`SHARES`); memoised on the group's
        counts."""
        memo_key = (key & GROUP_MASKS[g]) << 8 | i << 2 | g  # positions < 64
        hit = self.group_shares.get(memo_key)
        if hit is not None:
            return hit
        if self.fast:
            out = _early.group_shares(key, g, self.share_params[i][g], SHARES, SHARES_KEPT, FALL, COMB)
        else:
            out = self._new_group_shares(i, g, key)
        self.group_shares[memo_key] = out
        self.work += len(out)
        return out

    def _new_group_shares(self, i: int, g: int, key: int) -> Shares:
        """:meth:`_group_shares` not memoised yet: made, or found in :data:`SHARES`."""
        shift = U_BITS * g
        ug, hg = (key >> shift) & 31, (key >> (HS + shift)) & 31
        heg, seg = (key >> (HE + shift)) & 31, (key >> (SE + shift)) & 31
        seo = ug - hg - seg
        # the cards still free (no hideout yet, no earlier stack): a bound, the hideouts to come
        # may take some (the end picks the stacks' cards among those no hideout took)
        free_e = self.avail[2 * g + 1] - heg - seg
        free_o = self.avail[2 * g] - (hg - heg) - seo
        room = min(self.capg[i][g] - ug, self.stacks[i], free_e + free_o)
        free = -1
        if self.deals and g:
            free = self.drawn[i][g - 1] - ug - self.before[i][g - 1]
            room = min(room, free)
        # free cards beyond the room change no share (the ranges of e below): clamped to it, the
        # positions of other games share more (SHARES misses 753 -> 458 on 150 random easy ones)
        shared_key = (g, room, free, min(free_e, room), min(free_o, room), seg, seo)
        out = SHARES.get(shared_key)
        if out is None:
            if len(SHARES) >= SHARES_KEPT:
                SHARES.clear()
            made: list[tuple[int, int, int, int]] = []
            for k in range(room + 1):
                wk = FALL[free][k] if free >= 0 else 1
                for e in range(k - free_o if k > free_o else 0, (k if k < free_e else free_e) + 1):
                    # which of the stacks' cards of a class are this stack's (the end picks them all)
                    x = wk * COMB[seg + e][e] * COMB[seo + k - e][k - e]
                    if x:
                        made.append((k, e, x, (k << shift) + (e << (SE + shift))))
            out = SHARES[shared_key] = tuple(made)  # tuples of ints: the collector stops tracking them
        return out

    def _shares(self, i: int, key: int) -> list[tuple[int, int, int]]:
        """Every share of the stack at ``i`` by group and parity from the counts ``key``: (step to
        the key, weight, even cards).  Groups 2 and 3 are paired first, by cards (memoised on their
        counts: the keys of a cloud share them), and each pair of groups 0 and 1 takes the list of
        the cards it leaves."""
        n = self.stacks[i]
        if self.fast:
            out, work = _early.stack_shares(
                i, key, n, self.group_shares, self.late, self.share_params[i], SHARES, SHARES_KEPT, FALL, COMB
            )
            self.work += work + len(out)
            return out
        group_shares, memo = self._group_shares, self.group_shares.get
        base = i << 2  # _group_shares's memo keys, looked up here first (most are there)
        first = memo((key & GROUP_MASKS[0]) << 8 | base)
        if first is None:
            first = group_shares(i, 0, key)
        second = memo((key & GROUP_MASKS[1]) << 8 | base | 1)
        if second is None:
            second = group_shares(i, 1, key)
        late_key = (i, key & LATE_MASK)
        late = self.late.get(late_key)
        fast = self.fast
        if late is None:
            pair = _early.by_cards if fast else _by_cards
            late = self.late[late_key] = pair(group_shares(i, 2, key), group_shares(i, 3, key), n)
        if fast:
            out = _early.combine(first, second, late, n)
            self.work += len(out)
            return out
        out = []
        for k0, e0, x0, s0 in first:
            for k1, e1, x1, s1 in second:
                left = n - k0 - k1
                if left < 0:
                    break
                rest = late[left]
                if rest:
                    x01, s01, e01 = x0 * x1, s0 + s1, e0 + e1
                    out += [(s01 + s, x01 * x, e01 + e) for e, x, s in rest]
        self.work += len(out)
        return out

    def walk(self, i: int, prev: int, progress: int, cloud: Cloud, part: float = 1.0) -> bool:
        """Every hideout value at position ``i`` (and on), ``part`` of the whole walk: False if too
        much work (as soon as the work so far over the part of the walk done says so: the values
        of a position share its part).  The counts a value leads to depend only on its class (and
        the stack's need): made once per pair."""
        i, prev, progress, cloud = self.skip_face_up(i, prev, progress, cloud)
        if not cloud:
            self.done += part
            return True
        last = i == self.size
        stack = self.stacks[i]
        offset = prev + STEP_LIMIT + self.fixed_fp[i] + stack
        top = offset + stack  # need <= stack: at most the stack's cards are even
        hidden = self.known[i] < 0
        if not hidden and self.up_terms[i] is None:
            self.up_terms[i] = _up_terms(self.deals, self.known_at[i], self.drawn[i], self.before[i])
        up: Cloud = cloud if hidden else self.face_up(i, cloud, self.up_terms[i])
        acts, class_of, path = self.active[i], self.class_of, self.path
        made: dict[int, Any] = {}  # by class | need << 4: the cloud after (not last) or the weight
        limit = self.limit
        values = self.values[i]
        first = bisect_right(values, prev)
        values = values[first : bisect_right(values, top, first)]  # prev < v <= top
        if not values:  # the path dies here: its part is done
            self.done += part
            return self.work <= limit * self.done
        part /= len(values)
        node_total = 0
        last_tally = self.tallies[i] if last and hidden else []
        for v in values:
            new_progress = progress
            if acts:
                new_progress = advance(progress, acts, v, i)
                if new_progress < 0:
                    self.done += part
                    continue
            need = v - offset if v > offset else 0
            made_key = class_of[v] | need << 4
            nxt = made.get(made_key)
            if nxt is None:
                nxt = made[made_key] = self.after(i, v, need, cloud if hidden else up, hidden, last)
                self.work += len(cloud)
                if self.work > limit * (self.done + part):
                    return False  # even were this value's walk done, the rest would cost as much
            if not last:
                if nxt:
                    path[i] = v
                    if not self.walk(i + 1, v, new_progress, nxt, part):
                        return False
                    continue
                self.done += part
                if self.work > limit * self.done:
                    return False  # the rest would cost as much
                continue
            self.done += part
            if nxt:  # the last position: its own tally per value, the path's once per node (below)
                node_total += nxt
                if hidden:
                    last_tally[v] += nxt
        if node_total:
            self.total += node_total
            tallies = self.tallies
            for j in self.hidden_before:
                tallies[j][path[j]] += node_total
        return self.work <= limit * self.done  # else the rest would cost as much

    def walk_compiled(self) -> bool:
        """:meth:`walk` from the first position, in C (``_early.walk``): the same clouds, memos,
        tallies, work and give-up (``total``, ``work``, ``done`` as the walk leaves them), without
        the Python calls per node, value and step that were most of an easy position's count."""
        ok, self.total, self.work, self.done = _early.walk(
            self, ENDS, SHARES, SHARES_KEPT, FALL, COMB, END_MASKS, END_WORK, STEP_LIMIT, DONE
        )
        return ok

    def after(self, i: int, v: int, need: int, cloud: Cloud, hidden: bool, last: bool) -> Any:
        """The cloud past position ``i`` with hideout ``v``, or at the last position its weight."""
        if not last:
            if self.stacks[i]:
                return self.share_out(i, self.stacks[i], need, self.hide(i, v, cloud) if hidden else cloud)
            return self.hide_closed(i, v, cloud, hidden)
        if need > self.n:
            return 0
        if hidden:
            return self.last_hidden(v, need, cloud)
        if self.fast:
            return self._close_last(cloud, -1, 0, 0, -1, need)
        x = 0
        cap0, cap1, cap2, cap3 = self.capg[i]
        context, kept, new_end_weights = self.context, ENDS.get, self.new_end_weights
        for key, w in cloud.items():  # closes(), inline
            if (
                key & 31 <= cap0
                and (key >> 5) & 31 <= cap1
                and (key >> 10) & 31 <= cap2
                and (key >> 15) & 31 <= cap3
            ):
                x += w * (kept((context, key)) or new_end_weights(key))[need]
        return x

    def last_hidden(self, v: int, need: int, cloud: Cloud) -> int:
        """The weight of ``cloud`` closed by face-down last hideout ``v``: :meth:`hide` and the
        end weights in one pass (no cloud made in between)."""
        i = self.size
        g = self.group_of[v]
        cap = self.capg[i][g]
        shift = U_BITS * g
        inc = self.hide_key[v]
        free = self.drawn[i][g - 1] - self.before[i][g - 1] if self.deals and g else -1
        if self.fast:
            return self._close_last(cloud, shift, cap, inc, free, need)
        x = 0
        cap0, cap1, cap2, cap3 = self.capg[i]
        context, kept, new_end_weights = self.context, ENDS.get, self.new_end_weights
        for key, w in cloud.items():
            ug = (key >> shift) & 31
            if ug >= cap:
                continue
            if free >= 0:  # the hideout's free draws (measure deals, a deck's card)
                w *= free - ug
            key += inc
            if (  # closes(), inline
                key & 31 <= cap0
                and (key >> 5) & 31 <= cap1
                and (key >> 10) & 31 <= cap2
                and (key >> 15) & 31 <= cap3
            ):
                x += w * (kept((context, key)) or new_end_weights(key))[need]
        return x

    def _close_last(self, cloud: Cloud, shift: int, cap: int, inc: int, free: int, need: int) -> int:
        """``_early.close_last`` at the last position; once the packing is made (the first end
        weight made calls it) the end weights are made in C too, each counted as work here."""
        i = self.size
        if not self.width:
            return _early.close_last(
                cloud, shift, cap, inc, free, self.capg[i], self.context, ENDS, self.new_end_weights, need
            )
        make = (self.low_pairs, self.high_pairs, self.end_tables, END_MASKS, self.end_packing)
        x, made = _early.close_last(
            cloud, shift, cap, inc, free, self.capg[i], self.context, ENDS, make, need
        )
        self.work += END_WORK * made
        return x
