"""Card locations of the small positions :mod:`~.direct_early` counts, without a programme.

Those positions have face-down sprint cards under an earlier hideout too (a few: see
:func:`~.direct_early.takes`).  Their count walks the hideout paths with a *cloud* of card counts
each (:class:`~.direct_early._Walk`); the card locations walk the same paths with the same clouds
(its moves: face-up positions, hideouts, the earlier stacks shared out by group and parity) and
gather, per end of a path (its cloud key and the last stack's need), the paths' weight, and by
value the weight of those where it is a face-down hideout.  Per end, group by group:

* the count's own table (:meth:`~.direct_early._Walk.group_table`): the earlier stacks' cards of
  the group picked among its cards no hideout took, ``C(E, s_e) C(O, s_o)`` (``E``/``O`` its even
  and odd cards that are not hideouts), the last stack's ``k`` cards among the rest
  (``(1 + xy)**(E - s_e) (1 + x)**(O - s_o)``, packed by cards and even cards), the hand among
  what is left, times the deal measure's free draws;
* the same count with one *given* non-hideout card of the group somewhere: in an earlier stack
  (``C(E - 1, s_e - 1) C(O, s_o)`` and the stack's picks as before), under the last stack
  (``C(E - 1, s_e) C(O, s_o)``, the stack's picks ``xy (1 + xy)**(E - s_e - 1) ...``), or in the
  hand (the stack's picks without it, the hand ``C(m - 1, hand - 1)``) — an even card here, an odd
  one likewise.  Whole numbers of worlds: no division;
* a given card's counts times the three other groups' tables, read at the last stack's ``n``
  cards from ``need`` even cards on, as :mod:`~.direct_locations` reads its ends.

Non-hideout cards of one class are exchangeable, so a card's chance to lie under a sprint stack
(an earlier one or the last) or in the hand is its class's count for a given card, summed over the
worlds where it is not a hideout: the sum over every end, less the sum over the paths where it is
one.  Exact integers until the last division (Python's division of two ints is correctly rounded):
the very floats of the programme's pass (:mod:`~.marginals`).  :func:`early_locations` returns None
for any other position, or past :data:`WORK` (the caller builds the programme).
"""

from __future__ import annotations

from gamelib.fugitive.belief import direct_early
from gamelib.fugitive.belief.direct_early import HE, HS, SE, U_BITS, Cloud, takes
from gamelib.fugitive.belief.facts import Facts, advance
from gamelib.fugitive.belief.locations import Where
from gamelib.fugitive.belief.tables import COMB, FALL, GROUPS
from gamelib.fugitive.rules import STEP_LIMIT, cards_of

WORK = 4 * direct_early.EARLY_WORK
"""The walk's work (the count's units) before giving up: the count itself gives up past a quarter
of it, and the card locations walk the same paths (the caller builds the programme beyond)."""
SLOTS = 1 + 4 * GROUPS
"""Per end and need: the weight, then per group a given card's count under a sprint stack (odd,
even) and in the hand (odd, even)."""

_FACTORIALS = [1]
for _k in range(1, 64):
    _FACTORIALS.append(_FACTORIALS[-1] * _k)


def _comb(n: int, k: int) -> int:
    return COMB[n][k] if 0 <= k <= n else 0


def early_stacks(facts: Facts) -> list[int] | None:
    """The face-down sprint cards per position (index 1..size) if :mod:`~.direct_early` would count
    ``facts`` (a face-down stack before the last hideout, small, not pending), else None."""
    if facts.pending or facts.size < 1:
        return None
    size, known = facts.size, facts.known
    stacks = [0] * (size + 1)
    for i in range(1, size + 1):
        down = facts.sprint_counts[i] - len(facts.known_sprints[i])
        if down:
            if known[i] >= 0:
                return None  # face-down sprint cards under a face-up hideout
            stacks[i] = down
    if not any(stacks[:size]) or not takes(facts, stacks):
        return None
    if any(min(facts.caps[i][:3]) < 0 for i in range(1, size + 1)):
        return None
    return stacks


def early_locations(facts: Facts, measure: str, hideout: tuple[float, ...]) -> Where | None:
    """P(sprint), P(hand), P(deck) per number (indexed 0..42) of a position :mod:`~.direct_early`
    counts (None for any other, or past :data:`WORK`), from the hideout probabilities ``hideout``
    of the same measure."""
    stacks = early_stacks(facts)
    if stacks is None:
        return None
    walk = _Gather(facts, measure, stacks)
    if not walk.gather(1, 0, 0, {0: 1}):
        return None
    total = 0
    expect = [0] * SLOTS
    joint_sprint, joint_hand = [0] * 43, [0] * 43
    class_of = facts.tables.class_of
    for key, by_need in walk.by_end.items():
        rows = walk.end_rows(key, max(by_need))
        for need, (weight, by_value) in by_need.items():
            row = rows[need]
            total += weight * row[0]
            for slot in range(1, SLOTS):
                if row[slot]:
                    expect[slot] += weight * row[slot]
            for v, w in by_value.items():
                g, parity = divmod(class_of[v], 2)
                joint_sprint[v] += w * row[1 + 4 * g + parity]
                joint_hand[v] += w * row[3 + 4 * g + parity]
    if not total:
        return None
    sprint, hand, deck = [0.0] * 43, [0.0] * 43, [0.0] * 43
    for v in cards_of(facts.unknown):
        klass = class_of[v]
        if klass < 0:
            continue
        g, parity = divmod(klass, 2)
        sprint[v] = (expect[1 + 4 * g + parity] - joint_sprint[v]) / total
        hand[v] = (expect[3 + 4 * g + parity] - joint_hand[v]) / total
        deck[v] = max(0.0, 1.0 - hideout[v] - sprint[v] - hand[v])
    if facts.holds_last:
        hand[facts.last] = 1.0
    return tuple(sprint), tuple(hand), tuple(deck)


class _Gather(direct_early._Walk):
    """The count's walk (its tables and moves), gathering the paths by end instead of summing
    them, and each end's given-card counts."""

    def __init__(self, facts: Facts, measure: str, stacks: list[int]) -> None:
        super().__init__(facts, measure, stacks)
        self.by_end: dict[int, dict[int, tuple[int, dict[int, int]]]] = {}  # key -> need -> gathered
        self.variants: dict[tuple[int, int], tuple[int, ...]] = {}
        if not getattr(self, "width", 0):
            self._packing()

    def gather(self, i: int, prev: int, progress: int, cloud: Cloud) -> bool:
        """Every hideout value at position ``i`` and on (the count's :meth:`walk`), each path's
        cloud at the end gathered by (key, need) with its face-down values; False past :data:`WORK`."""
        i, prev, progress, cloud = self.skip_face_up(i, prev, progress, cloud)
        if not cloud:
            return True
        last = i == self.size
        stack = self.stacks[i]
        offset = prev + STEP_LIMIT + self.fixed_fp[i] + stack
        top = offset + stack  # need <= stack: at most the stack's cards are even
        hidden = self.known[i] < 0
        up = cloud if hidden else self.face_up(i, cloud)
        acts, class_of, path = self.active[i], self.class_of, self.path
        made: dict[int, Cloud] = {}  # by class | need << 4: the cloud after the value
        for v in self.values[i]:
            if v <= prev:
                continue
            if v > top:
                break
            new_progress = progress
            if acts:
                new_progress = advance(progress, acts, v, i)
                if new_progress < 0:
                    continue
            need = v - offset if v > offset else 0
            made_key = class_of[v] | need << 4
            nxt = made.get(made_key)
            if nxt is None:
                nxt = made[made_key] = self._after(i, v, need, up, hidden, last)
                self.work += len(cloud)
                if self.work > WORK:
                    return False
            if not nxt:
                continue
            path[i] = v
            if not last:
                if not self.gather(i + 1, v, new_progress, nxt):
                    return False
                continue
            self._add(nxt, need)
        return self.work <= WORK

    def _after(self, i: int, v: int, need: int, cloud: Cloud, hidden: bool, last: bool) -> Cloud:
        """The cloud past position ``i`` with hideout ``v`` (at the last position: the keys whose
        counts its caps allow, the last stack still to fill)."""
        if not last:
            out = self.after(i, v, need, cloud, hidden, last)
            assert isinstance(out, dict)
            return out
        nxt = self.hide(i, v, cloud) if hidden else cloud
        closes = self.closes
        return {key: w for key, w in nxt.items() if closes(key, i)}

    def _add(self, cloud: Cloud, need: int) -> None:
        """The path's end: its cloud's weights by key, and by its face-down values."""
        values = [self.path[j] for j in self.hidden_positions]
        ends = self.by_end
        for key, w in cloud.items():
            by_need = ends.setdefault(key, {})
            weight, by_value = by_need.get(need, (0, {}))
            for v in values:
                by_value[v] = by_value.get(v, 0) + w
            by_need[need] = (weight + w, by_value)
            self.work += 1

    def end_rows(self, key: int, top: int) -> list[list[int]]:
        """Per need 0..``top``: the weight of the end ``key``'s completions (the last stack and the
        hand) with at least ``need`` even cards under the last stack, then per group a given card's
        counts (:data:`SLOTS`)."""
        tables = [self.given_tables(g, key) for g in range(GROUPS)]
        keep = self.keep
        pre = [1]
        for g in range(GROUPS):
            pre.append((pre[-1] * tables[g][0]) & keep)
        post = [1] * (GROUPS + 1)
        for g in range(GROUPS - 1, -1, -1):
            post[g] = (post[g + 1] * tables[g][0]) & keep
        products = [pre[GROUPS]]
        for g in range(GROUPS):
            others = (pre[g] * post[g + 1]) & keep
            products.extend((others * table) & keep if others else 0 for table in tables[g][1:])
        n, width, digit = self.n, self.width, self.digit
        row_shift, row_mask = self.row_shift, self.row_mask
        rows = [[0] * SLOTS for _ in range(top + 1)]
        for slot, prod in enumerate(products):
            row = (prod >> row_shift) & row_mask
            run = 0
            for e in range(n, -1, -1):
                run += (row >> (width * e)) & digit
                if e <= top:
                    rows[e][slot] = run
        return rows

    def given_tables(self, g: int, key: int) -> tuple[int, ...]:
        """Group ``g``'s packed tables from the counts ``key`` (as :meth:`group_table`): its
        weights, then a given non-hideout card's counts under a sprint stack (odd, even) and in
        the hand (odd, even); memoised on the group's counts."""
        shift = U_BITS * g
        ug, hg = (key >> shift) & 31, (key >> (HS + shift)) & 31
        heg, seg = (key >> (HE + shift)) & 31, (key >> (SE + shift)) & 31
        memo_key = (g, ug | hg << 5 | heg << 10 | seg << 15)
        hit = self.variants.get(memo_key)
        if hit is not None:
            return hit
        a, n, avail, row_bits, width = self.gavail[g], self.n, self.avail, self.row_bits, self.width
        last = self.size
        hand_total = self.fug[g] - ug if g else a - ug
        room = min(n, self.capg[last][g] - ug, hand_total)
        evens, odds = avail[2 * g + 1] - heg, avail[2 * g] - (hg - heg)  # not hideouts
        seo = ug - hg - seg  # the earlier stacks' odd cards
        out = [0] * 5
        if room < 0 or min(evens - seg, odds - seo, seg, seo) < 0:
            hit = self.variants[memo_key] = tuple(out)
            return hit
        xy, x = 1 << (row_bits + width), 1 << row_bits
        even_pick, odd_pick = 1 + xy, 1 + x
        free_e, free_o = evens - seg, odds - seo
        picks = even_pick**free_e * odd_pick**free_o
        # (early picks, stack picks, hand held) per table: the given card in an earlier stack or
        # under the last stack (sprint), or in the hand
        without_e = even_pick ** max(free_e - 1, 0) * odd_pick**free_o if free_e else 0
        without_o = even_pick**free_e * odd_pick ** max(free_o - 1, 0) if free_o else 0
        early = _comb(evens, seg) * _comb(odds, seo)
        kinds = (
            (early, picks, 0, 0),
            (_comb(evens, seg) * _comb(odds - 1, seo - 1), picks, 0, 1),  # odd, in an earlier stack
            (_comb(evens - 1, seg - 1) * _comb(odds, seo), picks, 0, 2),  # even, in an earlier stack
            (_comb(evens, seg) * _comb(odds - 1, seo), without_o * x, 0, 1),  # odd, under the last
            (_comb(evens - 1, seg) * _comb(odds, seo), without_e * xy, 0, 2),  # even, under the last
            (_comb(evens, seg) * _comb(odds - 1, seo), without_o, 1, 3),  # odd, in the hand
            (_comb(evens - 1, seg) * _comb(odds, seo), without_e, 1, 4),  # even, in the hand
        )
        deals = self.deals and g > 0
        slots = self.drawn[last][g - 1] - ug - self.before[last][g - 1] if deals else -1
        row_mask = self.row_mask
        for k in range(room + 1):
            hand = hand_total - k
            factor = 1
            if deals:
                if k:
                    if k > slots:
                        break
                    factor = FALL[slots][k]
                factor *= _FACTORIALS[hand]
            shift = row_bits * k
            for pick_ways, stack_picks, held, slot in kinds:
                w = (
                    pick_ways
                    * factor
                    * (_comb(a - ug - k - 1, hand - 1) if held else _comb(a - ug - k, hand))
                )
                if w and stack_picks:
                    out[slot] += (((stack_picks >> shift) & row_mask) * w) << shift
        hit = self.variants[memo_key] = tuple(out)
        return hit
