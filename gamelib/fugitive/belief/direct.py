"""A direct count of the simplest positions, without a programme: the fixed cost of the belief.

Most positions a detective meets early hold few face-down hideouts and at most one face-down
sprint stack, under the last hideout.  Their worlds are counted here by walking the hideout values
(the paths) one by one, and closing each path with the last stack summed in closed form:

* a path fixes every face-down hideout: per group (:mod:`~.tables`) the cards it laid ``u``, its
  hideouts ``h`` and even hideouts ``he``; its weight is the deal measure's free draws at each
  position (1 under ``"worlds"``), exactly the moves of :mod:`~.programme` for a position without
  a stack;
* the last stack's ``n`` cards and the hand then fill in group by group: group ``g`` gives ``k``
  cards of the stack, ``e`` of them even, in ``C(E, e) C(O, k - e)`` ways (``E``/``O`` its unseen
  even/odd cards not already hideouts), keeps ``C(a - u - k, hand)`` for the hand (``hand`` its
  cards the fugitive still holds), and under ``"deals"`` ``hand!`` orders and ``FALL[slots][k]``
  free draws for the stack's cards; the stack needs at least ``need`` even cards (its footprints),
  so the groups' tables by (``k``, ``e``) are multiplied up to ``n`` cards and summed from ``need``
  evens on (memoised per path end: the same counts close many paths);
* unordered stacks: the programme counts ordered stacks and divides by ``n!`` at the end, the
  product above is that quotient already, so totals and marginals are the programme's over ``n!``
  (the same probabilities, to the last bit: Python divides integers exactly rounded).

:func:`direct_count` returns None for any other position (a face-down stack under an earlier
hideout, the last hideout still getting sprint cards, more paths than :data:`PATH_LIMIT`), and the
caller builds the programme.  Counts are checked equal to the programme on every stored position
and to a brute-force enumeration (tests/fugitive/test_fugitive_belief_direct.py).
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from gamelib.fugitive.belief import kernel
from gamelib.fugitive.belief.facts import Facts, active_series, advance, reachable_values
from gamelib.fugitive.belief.tables import COMB, FALL, GROUPS, class_masks, tables_for
from gamelib.fugitive.rules import STEP_LIMIT

try:
    from gamelib.fugitive.belief import _direct
except ImportError:  # installed without a C compiler: the pure functions serve
    _direct = None  # type: ignore[assignment]

PATH_LIMIT = 4096
"""Paths (hideout values) walked before giving up on the direct count (the programme merges them)."""
MAX_STACK = 24
"""The largest last stack counted here: every stack the stored positions hold (up to 16 cards), the
count exact and faster than the programme at every size (0.06-0.13 ms against 0.14-0.23 ms for
0-8 cards); the packed tables grow with its square."""

Counted = tuple[int, dict[int, list[int]]]
"""The total weight (unordered stacks) and, per face-down position, the weight by hideout value."""


def _comb(n: int, k: int) -> int:
    if k < 0 or n < k or n < 0:
        return 0
    return COMB[n][k]


def direct_count(facts: Facts, measure: str) -> Counted | None:
    """The total weight of ``facts`` under ``measure`` and the face-down positions' value weights,
    or None when the position is not one this module counts (see the module docstring)."""
    if facts.pending:
        return None
    size = facts.size
    if size < 1:
        return None
    known = facts.known
    sprint_counts, known_sprints = facts.sprint_counts, facts.known_sprints
    for i in range(1, size):
        if sprint_counts[i] != len(known_sprints[i]):
            return None  # a face-down stack before the last hideout: the programme counts it
    n = sprint_counts[size] - len(known_sprints[size])
    if n > MAX_STACK:
        return None
    if n and known[size] >= 0:
        return None  # face-down sprint cards under a face-up hideout (escape_sprints="hidden")
    for i in range(1, size + 1):
        cap = facts.caps[i]
        if cap[0] < 0 or cap[1] < 0 or cap[2] < 0:
            return None  # inconsistent: the programme says why
    walker = _Walk(facts, measure, n)
    if not walker.walk(1, 0, 0, [0] * GROUPS, [0] * GROUPS, [0] * GROUPS, 1):
        return None
    return walker.total, walker.tallies


def _position_tables(
    facts: Facts, gavail: list[int]
) -> tuple[list[Any], list[Any], list[Any], list[Any], list[int]]:
    """Per position: deck cards face up there, before it, drawn before it; the groups' caps; the
    footprints of its face-up sprint cards.  Made in C when :data:`~.kernel.COMPILED` (the same
    lists of the same ints; a set-up paid by every direct and early count, ~4 us of Python for a
    few positions), else, or when C cannot read the facts (it raises), by the pure loop."""
    if _direct is not None and kernel.COMPILED:
        try:
            return _direct.position_tables(
                facts.known, facts.known_sprints, facts.caps, facts.tables.group_of, gavail
            )
        except Exception:  # whatever C could not read, the pure loop answers or raises
            pass
    return _position_tables_pure(facts, gavail)


def _position_tables_pure(
    facts: Facts, gavail: list[int]
) -> tuple[list[Any], list[Any], list[Any], list[Any], list[int]]:
    """:func:`_position_tables` in Python: the reference."""
    known, known_sprints, caps = facts.known, facts.known_sprints, facts.caps
    group_of = tables_for(facts.last).group_of
    a0, a1, a2, a3 = gavail
    zero = (0, 0, 0)
    cap = caps[0]
    known_at: list[tuple[int, int, int]] = [zero]
    before: list[tuple[int, int, int]] = [zero]
    drawn: list[tuple[int, int, int]] = [cap]
    capg: list[tuple[int, int, int, int]] = [
        (a0, cap[0] if cap[0] < a1 else a1, cap[1] if cap[1] < a2 else a2, cap[2] if cap[2] < a3 else a3)
    ]
    fixed_fp = [0] * len(known)
    r0 = r1 = r2 = 0
    for i in range(1, len(known)):
        before.append((r0, r1, r2))
        k = known[i]
        if k >= 0:
            by_group = [0, 0, 0, 0, 0]  # groups 0-3, and -1 (the escape card) last
            by_group[group_of[k]] += 1
            shown = known_sprints[i]
            if shown:
                odd = 0  # the footprints and groups in one pass (no generator per stack)
                for c in shown:
                    by_group[group_of[c]] += 1
                    odd += c & 1
                fixed_fp[i] = 2 * len(shown) - odd
            c0, c1, c2 = by_group[1], by_group[2], by_group[3]
            known_at.append((c0, c1, c2))
            r0, r1, r2 = r0 + c0, r1 + c1, r2 + c2
        else:
            known_at.append(zero)
        cap = caps[i]
        x0, x1, x2 = cap
        drawn.append((x0 + r0, x1 + r1, x2 + r2))
        capg.append((a0, x0 if x0 < a1 else a1, x1 if x1 < a2 else a2, x2 if x2 < a3 else a3))
    return known_at, before, drawn, capg, fixed_fp


def _open_series(facts: Facts, reach: list[int]) -> list[list[tuple[int, tuple[int, ...], int]]]:
    """Per position, the series still open there (deadline at or after it), each with its index."""
    series = active_series(facts, reach)
    if not series:
        return [[]] * (facts.size + 1)  # one empty list for all: never changed
    by_deadline = sorted(
        ((j, numbers, deadline) for j, (numbers, deadline) in enumerate(series)), key=lambda s: s[2]
    )
    active: list[list[tuple[int, tuple[int, ...], int]]] = []
    first = 0
    for i in range(facts.size + 1):
        while first < len(by_deadline) and by_deadline[first][2] < i:
            first += 1
        active.append(by_deadline[first:])  # the order of the series does not matter to advance()
    return active


ENDS: dict[tuple[int, ...], tuple[int, ...]] = {}
"""The last stack's weights by need (:meth:`_Walk.end_weights`), by context and path end, shared
between counts: the positions of a game close their paths alike.  At most :data:`ENDS_KEPT`."""
ENDS_KEPT = 4_000
"""Entries :data:`ENDS` keeps before starting again (an entry is some 300-400 bytes: under 1.6
MiB); a position adds a few (at most its paths), a game's positions share most."""
_CONTEXTS: dict[tuple[Any, ...], int] = {}
"""What a last stack's weights depend on beside the path end (its size, the measure, the classes'
unseen cards, the last position's caps, the hand, the free draws), interned: an int in each key."""


def _context(context: tuple[Any, ...]) -> int:
    """The interned id of ``context``; both memos start again once :data:`ENDS` is full (only here,
    before a walk: a walk's id stays valid to its end)."""
    if len(ENDS) > ENDS_KEPT:
        ENDS.clear()
        _CONTEXTS.clear()
    found = _CONTEXTS.get(context)
    if found is None:
        found = _CONTEXTS[context] = len(_CONTEXTS)
    return found


def clear_shared() -> None:
    """Forget the shared last-stack weights (:func:`~.probabilities.clear_caches`)."""
    ENDS.clear()
    _CONTEXTS.clear()
    TABLES.clear()
    PICKS.clear()
    _BOUNDS.clear()
    for forget in _ALSO_CLEARED:
        forget()


_ALSO_CLEARED: list[Any] = []
"""The other direct counts' shared memos' ``clear`` (:mod:`~.direct_early` adds its own)."""


class _Walk:
    """One direct count: the position's tables, the last stack's packed group tables, and the
    walk over hideout values that tallies every path's weight."""

    def __init__(self, facts: Facts, measure: str, n: int) -> None:
        size = self.size = facts.size
        known = self.known = facts.known
        self.n = n
        tables = tables_for(facts.last)
        self.group_of, self.class_of = tables.group_of, tables.class_of
        avail = self.avail = [(facts.unknown & mask).bit_count() for mask in class_masks(facts.last)]
        gavail = self.gavail = [avail[2 * g] + avail[2 * g + 1] for g in range(GROUPS)]
        self.fug = (gavail[0], *facts.hand_unknown)
        self.deals = measure == "deals"
        self.known_at, self.before, self.drawn, self.capg, self.fixed_fp = _position_tables(facts, gavail)
        reach = self.reach = reachable_values(facts)
        self.active = _open_series(facts, reach)
        self.values: list[list[int]] = [
            _bits(reach[i]) if known[i] < 0 or i == size else [] for i in range(size + 1)
        ]
        self.hidden_positions = [i for i in range(1, size + 1) if known[i] < 0]
        self.hidden_before = [i for i in self.hidden_positions if i < size]
        self.tallies: dict[int, list[int]] = {i: [0] * 43 for i in self.hidden_positions}
        last_drawn, last_before = self.drawn[size], self.before[size]
        self.context = _context(
            (
                n,
                self.deals,
                *avail,
                *self.capg[size],
                *self.fug,
                last_drawn[0] - last_before[0],  # the free draws, one term per deck (no generator)
                last_drawn[1] - last_before[1],
                last_drawn[2] - last_before[2],
            )
        )
        self.packed: dict[tuple[int, int, int, int], int] = {}
        self.low_pairs: dict[tuple[int, ...], int] = {}  # groups 0-1's tables multiplied, by counts
        self.high_pairs: dict[tuple[int, ...], int] = {}  # groups 2-3's
        self.paths = 0
        self.path = [0] * (size + 1)
        self.total = 0
        self.width = 0  # the packing's, set on the first group table (:meth:`_packing`)
        self.end_params: tuple[Any, ...] | None = None
        """What ``_direct.end_weights`` reads of the walk, made on its first ENDS miss (compiled)."""

    def _packing(self) -> None:
        """The groups' tables are multiplied as packed integers (Kronecker substitution): entry
        (k, e) at bit ``width * (e + (n + 1) * k)``, every entry and product entry below 2**width.
        A bound on every product entry: each group's weights only shrink as its counts grow (fewer
        cards to pick, hand and free draws), so the sum of its entries with nothing laid bounds
        them, and the product of those sums bounds the product's entries."""
        n, deals, gavail, fug = self.n, self.deals, self.gavail, self.fug
        last_cap, last_drawn, last_before = (
            self.capg[self.size],
            self.drawn[self.size],
            self.before[self.size],
        )
        bound = 1
        for g in range(GROUPS):
            hand_total = max(fug[g], 0)
            drawn = deals and g > 0
            slots = last_drawn[g - 1] - last_before[g - 1] if drawn else -1
            bound *= group_bound(gavail[g], hand_total, min(n, max(last_cap[g], 0), hand_total), slots, drawn)
        # ... and the ways to pick k <= n of a group's cards, C(a, k) < 2**a, fit as well
        self.set_width(max(bound.bit_length(), *gavail) + 2)

    def set_width(self, width: int) -> None:
        """The packing's layout from a digit's width, rounded up (:data:`WIDTH_STEP`)."""
        width = self.width = -(-width // WIDTH_STEP) * WIDTH_STEP
        stride = self.n + 1
        row_bits = self.row_bits = width * stride
        self.keep = (1 << (row_bits * stride)) - 1  # entries with at most n cards
        self.row_shift, self.row_mask = row_bits * self.n, (1 << row_bits) - 1
        self.digit = (1 << width) - 1
        self.x_1 = 1 + (1 << row_bits)  # 1 + x (an odd card); 1 + xy is an even one

    def closes(self, u: list[int], i: int) -> bool:
        cap = self.capg[i]
        return u[0] <= cap[0] and u[1] <= cap[1] and u[2] <= cap[2] and u[3] <= cap[3]

    def group_table(self, g: int, ug: int, hg: int, heg: int) -> int:
        """Group ``g``'s weights by (cards given to the stack, even ones), packed: the ways to pick
        them, ``(1 + xy)**evens (1 + x)**odds``, each row k times its hand and draw factor."""
        key = (g, ug, hg, heg)
        packed = self.packed
        hit = packed.get(key)
        if hit is not None:
            return hit
        if not self.width:
            self._packing()
        a, n, avail, last = self.gavail[g], self.n, self.avail, self.size
        last_cap, last_drawn, last_before = self.capg[last], self.drawn[last], self.before[last]
        hand_total = self.fug[g] - ug if g else a - ug
        room = min(n, last_cap[g] - ug, hand_total)
        out = 0
        if room >= 0:
            drawn = self.deals and g > 0
            slots = last_drawn[g - 1] - ug - last_before[g - 1] if drawn else -1
            out = packed_table(
                self.width,
                n,
                avail[2 * g + 1] - heg,
                avail[2 * g] - (hg - heg),
                a - ug,
                hand_total,
                room,
                slots,
                drawn,
            )
        packed[key] = out
        return out

    def end_weights(self, u: list[int], h: list[int], he: list[int]) -> tuple[int, ...]:
        """The last stack and the hand filled in from these counts: weight by need (0..n), kept in
        :data:`ENDS` under the walk's :attr:`context`."""
        key = (self.context, *u, *h, *he)
        hit = ENDS.get(key)
        return hit if hit is not None else self.new_end_weights(key)

    def new_end_weights(self, key: tuple[int, ...]) -> tuple[int, ...]:
        """:meth:`end_weights` not kept yet, from its key (context, then the counts u, h, he).
        Made in C when :data:`~.kernel.COMPILED` (``_direct.end_weights``: the same memos filled in
        the same order, the same Python int products, :func:`packed_table` called for the tables;
        an easy direct position makes ~4 of these, ~40% of its first count), else, or when C
        cannot read the walk (it raises), by :meth:`_new_end_weights`."""
        if _direct is not None and kernel.COMPILED:
            params = self.end_params
            if params is None:
                if not self.width:
                    self._packing()  # the pure path packs on its first group table: this miss's
                size = self.size
                params = self.end_params = (
                    self.low_pairs, self.high_pairs, self.packed, ENDS, packed_table, self.keep,
                    self.row_shift, self.row_mask, self.digit, self.n, self.width, self.deals,
                    tuple(self.gavail), tuple(self.fug), tuple(self.avail), tuple(self.capg[size]),
                    tuple(self.drawn[size]), tuple(self.before[size]),
                )  # fmt: skip
            try:
                return _direct.end_weights(key, params)
            except Exception:  # whatever C could not read, the pure loop answers or raises
                pass
        return self._new_end_weights(key)

    def _new_end_weights(self, key: tuple[int, ...]) -> tuple[int, ...]:
        """:meth:`new_end_weights` in Python, the reference: groups 0-1's tables multiplied, then
        groups 2-3's, each pair memoised on its groups' counts (a last hideout changes one group:
        the values of a class share the other pair)."""
        low = key[1:3] + key[5:7] + key[9:11]
        prod = self.low_pairs.get(low)
        if prod is None:
            prod = self.low_pairs[low] = self._pair(0, key)
        if prod:
            high = key[3:5] + key[7:9] + key[11:13]
            other = self.high_pairs.get(high)
            if other is None:
                other = self.high_pairs[high] = self._pair(2, key)
            prod = (prod * other) & self.keep if other else 0
        row = (prod >> self.row_shift) & self.row_mask
        n, width, digit = self.n, self.width, self.digit
        out = [0] * (n + 1)
        run = 0
        for e in range(n, -1, -1):
            run += (row >> (width * e)) & digit
            out[e] = run
        kept = ENDS[key] = tuple(out)
        return kept

    def _pair(self, g: int, key: tuple[int, ...]) -> int:
        """The product of groups ``g`` and ``g + 1``'s tables from the counts of an :data:`ENDS`
        key (u at 1.., h at 5.., he at 9..)."""
        first = self.group_table(g, key[1 + g], key[5 + g], key[9 + g])
        if not first:
            return 0
        return (first * self.group_table(g + 1, key[2 + g], key[6 + g], key[10 + g])) & self.keep

    def face_up_weight(self, i: int, u: list[int]) -> int:
        """Measure deals: the ways to give the deck cards face up at position ``i`` a free draw."""
        at, dr, bf = self.known_at[i], self.drawn[i], self.before[i]
        w = 1
        for d in range(3):
            c = at[d]
            if c:
                x = dr[d] - u[d + 1] - bf[d]
                w *= FALL[x][c] if x >= 0 else 0
        return w

    def skip_face_up(
        self, i: int, prev: int, progress: int, u: list[int], weight: int
    ) -> tuple[int, int, int, int]:
        """Face-up positions before the last: one value each.  (i, prev, progress, weight) after
        them, weight 0 when the path dies there."""
        known, reach, fixed_fp, active, size = self.known, self.reach, self.fixed_fp, self.active, self.size
        while i < size and known[i] >= 0:
            v = known[i]
            if not reach[i] >> v & 1 or v <= prev or v > prev + STEP_LIMIT + fixed_fp[i]:
                return i, prev, progress, 0
            if self.deals:
                weight *= self.face_up_weight(i, u)
                if not weight:
                    return i, prev, progress, 0
            if active[i]:
                progress = advance(progress, active[i], v, i)
                if progress < 0:
                    return i, prev, progress, 0
            if not self.closes(u, i):
                return i, prev, progress, 0
            prev = v
            i += 1
        return i, prev, progress, weight

    def walk(
        self, i: int, prev: int, progress: int, u: list[int], h: list[int], he: list[int], weight: int
    ) -> bool:
        """Every hideout value at position ``i`` (and on): False if too many paths."""
        i, prev, progress, weight = self.skip_face_up(i, prev, progress, u, weight)
        if not weight:
            return True
        if i == self.size:
            return self.walk_last(prev, progress, u, h, he, weight)
        deals, path = self.deals, self.path
        top = prev + STEP_LIMIT + self.fixed_fp[i]
        cap, acts, group_of = self.capg[i], self.active[i], self.group_of
        drawn_i, before_i = self.drawn[i], self.before[i]
        values = self.values[i]  # a face-down hideout: skip_face_up passed the face-up ones
        first = bisect_right(values, prev)
        for v in values[first : bisect_right(values, top, first)]:  # prev < v <= top
            new_progress = progress
            if acts:
                new_progress = advance(progress, acts, v, i)
                if new_progress < 0:
                    continue
            g = group_of[v]
            ug = u[g]
            if ug >= cap[g]:
                continue
            w = weight * (drawn_i[g - 1] - ug - before_i[g - 1] if deals and g else 1)
            nu, nh, nhe = u.copy(), h.copy(), he.copy()
            nu[g] += 1
            nh[g] += 1
            if not v & 1:
                nhe[g] += 1
            if not self.closes(nu, i):
                continue
            path[i] = v
            if not self.walk(i + 1, v, new_progress, nu, nh, nhe, w):
                return False
        return True

    def walk_last(
        self, prev: int, progress: int, u: list[int], h: list[int], he: list[int], weight: int
    ) -> bool:
        """Every value of the last hideout after the path so far: False if too many paths.  A
        value's weight depends only on its class and the stack's need: made once per pair, and
        the path's earlier positions tallied once with the sum."""
        i = self.size
        offset = prev + STEP_LIMIT + self.fixed_fp[i] + self.n
        top = offset + self.n  # need <= stack: at most the stack's cards are even
        hidden = self.known[i] < 0
        acts, class_of = self.active[i], self.class_of
        tally = self.tallies[i] if hidden else None
        made: dict[int, int] = {}
        total = paths = 0
        values = self.values[i]
        first = bisect_right(values, prev)
        for v in values[first : bisect_right(values, top, first)]:  # prev < v <= top
            if acts and advance(progress, acts, v, i) < 0:
                continue
            paths += 1
            need = v - offset if v > offset else 0
            made_key = class_of[v] | need << 4 if hidden else need
            x = made.get(made_key)
            if x is None:
                x = made[made_key] = self.closing(v, need, u, h, he, weight, hidden)
            if x:
                total += x
                if tally is not None:
                    tally[v] += x
        self.paths += paths
        if self.paths > PATH_LIMIT:
            return False
        if total:
            self.total += total
            path, tallies = self.path, self.tallies
            for j in self.hidden_before:
                tallies[j][path[j]] += total
        return True

    def closing(
        self, v: int, need: int, u: list[int], h: list[int], he: list[int], weight: int, hidden: bool
    ) -> int:
        """The weight of the path so far closed by last hideout ``v`` and the last stack: the
        :data:`ENDS` key made at once from the path's counts (a face-down ``v`` added to its
        group's; no list copied), the last position's caps read from it."""
        i = self.size
        cap = self.capg[i]
        if hidden:
            g = self.group_of[v]
            ug = u[g]
            if ug >= cap[g]:
                return 0
            if self.deals and g:
                weight *= self.drawn[i][g - 1] - ug - self.before[i][g - 1]
            key = [self.context, *u, *h, *he]
            key[1 + g] = ug + 1
            key[5 + g] += 1
            if not v & 1:
                key[9 + g] += 1
        else:
            if self.deals:
                weight *= self.face_up_weight(i, u)
            key = [self.context, *u, *h, *he]
        if not weight or key[1] > cap[0] or key[2] > cap[1] or key[3] > cap[2] or key[4] > cap[3]:
            return 0
        ends = tuple(key)
        fins = ENDS.get(ends)
        if fins is None:
            fins = self.new_end_weights(ends)
        return weight * fins[need] if need < len(fins) else 0


WIDTH_STEP = 16
"""A packing's digit width is rounded up to a multiple of this: the group tables of positions of
different games then share their packing (:func:`packed_table`), at the cost of a few bits."""
TABLES: dict[tuple[int, ...], int] = {}
"""Packed group tables (:func:`packed_table`) shared between counts (a game's positions and other
games' alike: 70-80% of a direct count's tables were made before).  At most :data:`TABLES_KEPT`."""
TABLES_KEPT = 4_000
"""Entries :data:`TABLES` keeps before starting again (an entry is an int of some 100-800 bytes
and its key: under 4 MiB)."""
_BOUNDS: dict[tuple[int, ...], int] = {}
"""A group's weights summed with nothing laid (:func:`group_bound`), by its counts."""


def pick_rows(width: int, n: int, evens: int, odds: int) -> tuple[int, ...]:
    """The ways to pick k cards (rows k = 0..n), ``e`` of them even, among ``evens`` and ``odds``
    free cards, packed at ``width`` bits by ``e``: ``C(evens, e) C(odds, k - e)``, the rows of
    ``(1 + xy)**evens (1 + x)**odds`` up to x**n (each entry below ``2**(evens + odds)`` fits its
    digit: no carry, the same ints as the powers, 4x faster to make), shared in :data:`PICKS`."""
    key = (width, n, evens, odds)
    hit = PICKS.get(key)
    if hit is not None:
        return hit
    if len(PICKS) >= TABLES_KEPT:
        PICKS.clear()
    if _direct is not None and kernel.COMPILED:
        try:
            hit = PICKS[key] = _direct.pick_rows(width, n, evens, odds, COMB)
            return hit
        except Exception:  # whatever C could not read, the pure loop answers or raises
            pass
    hit = PICKS[key] = _pick_rows(width, n, evens, odds)
    return hit


def _pick_rows(width: int, n: int, evens: int, odds: int) -> tuple[int, ...]:
    """:func:`pick_rows`'s loop in Python (the reference; C makes the same rows when
    :data:`~.kernel.COMPILED`, 4-8x faster on a miss)."""
    comb_e, comb_o = COMB[evens], COMB[odds]
    rows = []
    for k in range(n + 1):
        row = 0
        for e in range(k - odds if k > odds else 0, (k if k < evens else evens) + 1):
            row += (comb_e[e] * comb_o[k - e]) << (width * e)
        rows.append(row)
    return tuple(rows)


PICKS: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
"""The packed ways to pick a last stack's cards of a group (:func:`pick_rows`) by width, stack and
free cards: fewer keys than :data:`TABLES` (no hand, no draws), so other positions' tables find
them made.  At most :data:`TABLES_KEPT`."""


def packed_table(
    width: int, n: int, evens: int, odds: int, left: int, hand_total: int, room: int, slots: int, drawn: bool
) -> int:
    """A group's weights by (cards given to a last stack of ``n`` cards, even ones), packed at
    ``width`` bits a digit: the ways to pick them among ``evens`` and ``odds`` free cards,
    ``(1 + xy)**evens (1 + x)**odds`` (:func:`pick_rows`), each row k (up to ``room``) times the
    ways to keep ``hand_total - k`` in hand of the ``left - k`` others, and under ``"deals"``
    (``drawn``, a deck's group) the hand's orders and ``FALL[slots][k]`` free draws.  Kept in
    :data:`TABLES`."""
    key = (width, n, evens, odds, left, hand_total, room, slots, drawn)
    hit = TABLES.get(key)
    if hit is not None:
        return hit
    if len(TABLES) >= TABLES_KEPT:
        TABLES.clear()
    picks = pick_rows(width, n, evens, odds)
    if _direct is not None and kernel.COMPILED:
        try:
            out = TABLES[key] = _direct.packed_rows(
                width, n, left, hand_total, room, slots, drawn, picks, COMB, FALL, _FACTORIALS
            )
            return out
        except Exception:  # whatever C could not read, the pure loop answers or raises
            pass
    out = TABLES[key] = _packed_rows(width, n, left, hand_total, room, slots, drawn, picks)
    return out


def _packed_rows(
    width: int, n: int, left: int, hand_total: int, room: int, slots: int, drawn: bool, picks: tuple[int, ...]
) -> int:
    """:func:`packed_table`'s loop in Python (the reference; C makes the same int when
    :data:`~.kernel.COMPILED`: a table miss is a loop of up to ``n + 1`` rows, a few a position)."""
    row_bits = width * (n + 1)
    out = 0
    for k in range(room + 1):
        hand = hand_total - k
        w = _comb(left - k, hand)
        if drawn:
            if k:
                if k > slots:
                    break
                w *= FALL[slots][k]
            w *= _FACTORIALS[hand]
        if w:
            out |= (picks[k] * w) << (row_bits * k)
    return out


def group_bound(a: int, hand_total: int, top: int, slots: int, drawn: bool) -> int:
    """A group of ``a`` free cards, ``hand_total`` of them in hand: its weights summed over the
    stack's cards ``k <= top`` with nothing laid, which bounds every entry of its tables (each only
    shrinks as the group's counts grow); kept in :data:`_BOUNDS`."""
    key = (a, hand_total, top, slots, drawn)
    hit = _BOUNDS.get(key)
    if hit is not None:
        return hit
    if len(_BOUNDS) >= TABLES_KEPT:
        _BOUNDS.clear()
    if _direct is not None and kernel.COMPILED:
        try:
            total = _direct.bound_sum(a, hand_total, top, slots, drawn, COMB, FALL, _FACTORIALS)
        except Exception:  # whatever C could not read, the pure loop answers or raises
            total = _bound_sum(a, hand_total, top, slots, drawn)
    else:
        total = _bound_sum(a, hand_total, top, slots, drawn)
    _BOUNDS[key] = bound = max(total, 1)
    return bound


def _bound_sum(a: int, hand_total: int, top: int, slots: int, drawn: bool) -> int:
    """:func:`group_bound`'s sum in Python, the reference (C makes the same int when
    :data:`~.kernel.COMPILED`: every direct and early walk's packing asks four, a few miss)."""
    total = 0
    for k in range(top + 1):
        w = COMB[a][k] * _comb(a - k, hand_total - k)
        if drawn:
            w *= _FACTORIALS[hand_total - k]
            if k:
                w *= FALL[slots][k] if slots >= 0 else 0
        total += w
    return total


_BYTE_BITS = [[tuple(8 * k + b for b in range(8) if x >> b & 1) for x in range(256)] for k in range(6)]
"""Per byte k of a mask below 2**48 and its value: the set bits' numbers (``8 k + b``), ascending."""


def _bits(mask: int) -> list[int]:
    """The numbers of ``mask``'s set bits, ascending: a mask of hideout values (below 2**48) read
    a byte at a time from :data:`_BYTE_BITS` (one list display, no call or loop per bit)."""
    if 0 <= mask < 1 << 48:
        t0, t1, t2, t3, t4, t5 = _BYTE_BITS
        return [
            *t0[mask & 255],
            *t1[mask >> 8 & 255],
            *t2[mask >> 16 & 255],
            *t3[mask >> 24 & 255],
            *t4[mask >> 32 & 255],
            *t5[mask >> 40],
        ]
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_FACTORIALS = [1]
for _k in range(1, 64):
    _FACTORIALS.append(_FACTORIALS[-1] * _k)


def _factorial(k: int) -> int:
    return _FACTORIALS[k]
