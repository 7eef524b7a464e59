"""Card locations of the simplest positions without a programme: only the last stack face down.

A position whose face-down sprint cards all lie under the last hideout (what :mod:`~.direct`
counts without a programme) has its card locations worked out here, directly, instead of building
the programme the count did without (a second count):

* the hideout values are walked path by path (as the count does: the face-up positions' free
  draws, the failed series, each deck's cards laid at most as drawn), and each path's weight is
  added to its *end*: the groups' hideout counts and even hideout counts, and the even cards the
  last stack needs;
* per end, the last stack's ``n`` cards and the hand are filled in group by group.  Group ``g``
  gives ``k`` cards of the stack, ``e`` of them even, and keeps ``hand`` of the rest for the hand:
  ``C(E, e) C(O, k - e) C(m, hand)`` ways (``E``/``O`` its unseen even/odd cards that are not
  hideouts, ``m`` its cards left after the stack), times the deal measure's free draws.  The same
  count with one *given* non-hideout card under the stack or in the hand is a count of the same
  shape: ``C(E - 1, e - 1) C(O, k - e) C(m, hand)`` (a given even card in the stack),
  ``C(E - 1, e) C(O, k - e) C(m - 1, hand - 1)`` (in the hand), likewise for an odd card.  No
  division: every such count is a whole number of worlds;
* the groups' tables are multiplied as packed integers by (cards, even cards) (Kronecker
  substitution), the product of the three other groups' weights once per group, and the stack's
  row read by need (a suffix sum over even cards);
* non-hideout cards of one class are exchangeable, so a card's chance to lie under the stack is
  its class's count for a given card, summed over the worlds where it is not a hideout: the sum
  over every end, less the sum over the paths where it is one (tallied by value).

Exact integers until the last division, so the probabilities are those of the programme's own
pass (:mod:`~.marginals`) to the last bit.  A small position with a face-down stack under an
earlier hideout too (what :mod:`~.direct_early` counts) is handed to :mod:`~.direct_early_locations`.
:func:`direct_locations` returns None for any other position (a larger one, pending, too many
paths): the caller then builds the programme.
"""

from __future__ import annotations

from gamelib.fugitive.belief.direct_early_locations import early_locations
from gamelib.fugitive.belief.facts import Facts, active_series, advance, reachable_values
from gamelib.fugitive.belief.locations import Where
from gamelib.fugitive.belief.tables import COMB, FALL, GROUPS, class_masks
from gamelib.fugitive.rules import STEP_LIMIT, cards_of

PATH_LIMIT = 4096
"""Hideout paths walked before giving up (the programme merges them)."""
MAX_STACK = 24
"""The largest last stack taken here (the packed tables grow with its square)."""
SLOTS = 1 + 4 * GROUPS
"""Per end and need: the weight, then per group a given card's count under the stack (odd, even)
and in the hand (odd, even)."""

_FACTORIALS = [1]
for _k in range(1, 64):
    _FACTORIALS.append(_FACTORIALS[-1] * _k)


def _comb(n: int, k: int) -> int:
    return COMB[n][k] if 0 <= k <= n else 0


def last_stack(facts: Facts) -> int | None:
    """The last stack's face-down cards if it holds every face-down sprint card of ``facts``
    (under a face-down hideout, not pending), else None."""
    size = facts.size
    if facts.pending or size < 1:
        return None
    known, counts, shown = facts.known, facts.sprint_counts, facts.known_sprints
    for i in range(1, size):
        if counts[i] != len(shown[i]):
            return None
    n = counts[size] - len(shown[size])
    if n > MAX_STACK or (n and known[size] >= 0):
        return None
    if any(min(facts.caps[i]) < 0 for i in range(1, size + 1)):
        return None
    return n


def direct_locations(facts: Facts, measure: str, hideout: tuple[float, ...]) -> Where | None:
    """P(sprint), P(hand), P(deck) per number (indexed 0..42) for a position whose only face-down
    stack is the last one, or one :mod:`~.direct_early` counts (None for any other: see the module
    docstring), from the hideout probabilities ``hideout`` of the same measure."""
    n = last_stack(facts)
    if n is None:
        return early_locations(facts, measure, hideout)  # a face-down stack before the last, or None
    paths = _Paths(facts, measure, n)
    if not paths.walk(1, 0, 0, [0] * GROUPS, [0] * GROUPS, 1):
        return None
    total = 0
    expect = [0] * SLOTS
    joint_sprint, joint_hand = [0] * 43, [0] * 43
    class_of = facts.tables.class_of
    for end, by_need in paths.ends.items():
        rows = paths.end_rows(end)
        for need, gathered in by_need.items():
            row, weight = rows[need], gathered.weight
            total += weight * row[0]
            for slot in range(1, SLOTS):
                if row[slot]:
                    expect[slot] += weight * row[slot]
            for v, w in gathered.by_value.items():
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


class Gathered:
    """The paths of one end and need: their weight, and by value the weight of those where it is a
    face-down hideout."""

    __slots__ = ("by_value", "weight")

    def __init__(self) -> None:
        self.weight = 0
        self.by_value: dict[int, int] = {}


class _Paths:
    """The hideout paths of one position (their weights gathered by end and need, and by value
    for the worlds' face-down hideouts), and each end's last stack and hand by need."""

    def __init__(self, facts: Facts, measure: str, n: int) -> None:
        self.size, self.known, self.n = facts.size, facts.known, n
        self.group_of = facts.tables.group_of
        self.avail = [(facts.unknown & mask).bit_count() for mask in class_masks(facts.last)]
        self.gavail = [self.avail[2 * g] + self.avail[2 * g + 1] for g in range(GROUPS)]
        self.fug = (self.gavail[0], *facts.hand_unknown)
        self.deals = measure == "deals"
        self._tables(facts)
        reach = self.reach = reachable_values(facts)
        series = sorted(enumerate(active_series(facts, reach)), key=lambda s: s[1][1])
        self.active = [
            [(j, numbers, deadline) for j, (numbers, deadline) in series if deadline >= i]
            for i in range(self.size + 1)
        ]
        self.values: list[list[int]] = [[]] + [
            list(cards_of(reach[i])) if self.known[i] < 0 or i == self.size else []
            for i in range(1, self.size + 1)
        ]
        self.hidden = [i for i in range(1, self.size + 1) if self.known[i] < 0]
        self.path = [0] * (self.size + 1)
        self.paths = 0
        # per end (hideouts and even hideouts per group), per need: the paths' weights
        self.ends: dict[tuple[int, ...], dict[int, Gathered]] = {}
        self.variants: dict[tuple[int, int, int], list[int]] = {}

    def _tables(self, facts: Facts) -> None:
        """Per position: deck cards face up there and before it, drawn by then, the groups' caps
        (the cards of a group laid up to there), the footprints of its face-up sprint cards."""
        group_of, gavail = self.group_of, self.gavail
        self.known_at, self.before, self.drawn, self.capg, self.fixed_fp = [], [], [], [], []
        running = [0, 0, 0]
        for i in range(self.size + 1):
            at = [0, 0, 0]
            if i and self.known[i] >= 0:
                for c in (self.known[i], *facts.known_sprints[i]):
                    if group_of[c] >= 1:
                        at[group_of[c] - 1] += 1
            self.fixed_fp.append(sum(2 - c % 2 for c in facts.known_sprints[i]) if i else 0)
            self.before.append(tuple(running))
            running = [running[d] + at[d] for d in range(3)]
            self.known_at.append(tuple(at))
            cap = facts.caps[i]
            self.drawn.append(tuple(cap[d] + running[d] for d in range(3)))
            self.capg.append((gavail[0], *(min(cap[d], gavail[d + 1]) for d in range(3))))

    def face_up_weight(self, i: int, u: list[int]) -> int:
        """Measure deals: the ways to give the deck cards face up at position ``i`` a free draw."""
        if not self.deals:
            return 1
        at, drawn, before = self.known_at[i], self.drawn[i], self.before[i]
        w = 1
        for d in range(3):
            if at[d]:
                x = drawn[d] - u[d + 1] - before[d]
                w *= FALL[x][at[d]] if x >= 0 else 0
        return w

    def fits(self, u: list[int], i: int) -> bool:
        cap = self.capg[i]
        return all(u[g] <= cap[g] for g in range(GROUPS))

    def walk(self, i: int, prev: int, progress: int, u: list[int], he: list[int], weight: int) -> bool:
        """Every hideout value at position ``i`` and on (False: too many paths)."""
        while i < self.size and self.known[i] >= 0:  # face-up positions before the last
            v = self.known[i]
            if not self.reach[i] >> v & 1 or v <= prev or v > prev + STEP_LIMIT + self.fixed_fp[i]:
                return True
            weight *= self.face_up_weight(i, u)
            if self.active[i]:
                progress = advance(progress, self.active[i], v, i)
            if not weight or progress < 0 or not self.fits(u, i):
                return True
            prev, i = v, i + 1
        last = i == self.size
        stack = self.n if last else 0
        offset = prev + STEP_LIMIT + self.fixed_fp[i] + stack
        hidden = self.known[i] < 0
        w_up = 1 if hidden else self.face_up_weight(i, u)
        cap, drawn, before = self.capg[i], self.drawn[i], self.before[i]
        for v in self.values[i]:
            if v <= prev:
                continue
            if v > offset + stack:  # at most the stack's cards are even
                break
            step = advance(progress, self.active[i], v, i) if self.active[i] else progress
            if step < 0:
                continue
            nu, nhe, w = u, he, weight * w_up
            if hidden:
                g = self.group_of[v]
                if g < 0 or u[g] >= cap[g]:
                    continue
                if self.deals and g:
                    w *= drawn[g - 1] - u[g] - before[g - 1]
                nu, nhe = u.copy(), he.copy()
                nu[g] += 1
                nhe[g] += 1 - v % 2
            if not w or not self.fits(nu, i):
                continue
            self.path[i] = v
            if not last:
                if not self.walk(i + 1, v, step, nu, nhe, w):
                    return False
                continue
            self.paths += 1
            if self.paths > PATH_LIMIT:
                return False
            self.add(tuple(nu + nhe), max(v - offset, 0), w)
        return True

    def add(self, end: tuple[int, ...], need: int, w: int) -> None:
        """One path's weight, at its end and need, and by each of its face-down hideouts."""
        by_need = self.ends.setdefault(end, {})
        gathered = by_need.get(need)
        if gathered is None:
            gathered = by_need[need] = Gathered()
        gathered.weight += w
        by_value = gathered.by_value
        for j in self.hidden:
            v = self.path[j]
            by_value[v] = by_value.get(v, 0) + w

    def end_rows(self, end: tuple[int, ...]) -> list[list[int]]:
        """Per need 0..n: the weight of the last stack and the hand filled in from ``end``, then
        per group the same with a given non-hideout card under the stack (odd, even) and in the
        hand (odd, even)."""
        n, stride = self.n, self.n + 1
        tables = [self.group_tables(g, end[g], end[GROUPS + g]) for g in range(GROUPS)]
        width = self.width
        keep = (1 << (width * stride * stride)) - 1  # entries with at most n cards
        prefix = [1]
        for g in range(GROUPS - 1):
            prefix.append((prefix[-1] * tables[g][0]) & keep)
        suffix = [1] * GROUPS
        for g in range(GROUPS - 1, 0, -1):
            suffix[g - 1] = (suffix[g] * tables[g][0]) & keep
        row_shift, digit = width * stride * n, (1 << width) - 1
        rows = [[0] * SLOTS for _ in range(stride)]
        for g in range(GROUPS):
            others = (prefix[g] * suffix[g]) & keep
            for q in range(0 if g == 0 else 1, 5):  # the weight once (group 0's), the given cards per group
                if not tables[g][q]:
                    continue
                row = ((tables[g][q] * others) & keep) >> row_shift
                slot, run = 4 * g + q, 0
                for e in range(n, -1, -1):  # a need's sums: those with at least that many evens
                    run += (row >> (width * e)) & digit
                    rows[e][slot] = run
        return rows

    @property
    def width(self) -> int:
        """The packed entries' width: every product entry below ``2 ** width`` (see :meth:`_bound`)."""
        hit = self.__dict__.get("_width")
        if hit is None:
            hit = self.__dict__["_width"] = max(self._bound().bit_length(), *self.gavail) + 2
        return hit

    def _bound(self) -> int:
        """A bound on every entry of a product of group tables: each group's weights only shrink as
        its counts grow (fewer cards to pick, hand and free draws), so the sum of its entries with
        nothing laid bounds them, and the product of the sums bounds the product's entries (a
        given card's counts are parts of the weights)."""
        bound = 1
        for g in range(GROUPS):
            bound *= max(sum(entry[1] for entry in self._entries(g, 0, 0)), 1)
        return bound

    def _entries(self, g: int, ug: int, heg: int) -> Entries:
        """Group ``g``'s nonzero entries by (cards to the stack ``k``, even ones ``e``) with ``ug``
        hideouts laid, ``heg`` of them even (:func:`group_entries`)."""
        last = self.size
        a = self.gavail[g]
        hand_total = self.fug[g] - ug if g else a - ug
        slots = self.drawn[last][g - 1] - ug - self.before[last][g - 1] if self.deals and g else -1
        key = (
            self.n,
            a - ug,
            self.avail[2 * g] - (ug - heg),
            self.avail[2 * g + 1] - heg,
            hand_total,
            min(self.n, self.capg[last][g] - ug, hand_total),
            slots,
            self.deals and g > 0,
        )
        hit = _ENTRIES.get(key)
        if hit is None:
            if len(_ENTRIES) >= ENTRIES_KEPT:
                _ENTRIES.clear()
            hit = _ENTRIES[key] = group_entries(*key)
        return hit

    def group_tables(self, g: int, ug: int, heg: int) -> list[int]:
        """Group ``g``'s tables (:meth:`_entries`: the weights, then a given odd / even card under
        the stack, in the hand), packed: entry (k, e) at bit ``width * (k * (n + 1) + e)``."""
        key = (g, ug, heg)
        hit = self.variants.get(key)
        if hit is None:
            width = self.width
            packed = [0] * 5
            for j, *xs in self._entries(g, ug, heg):
                shift = width * j
                for q, x in enumerate(xs):
                    if x:
                        packed[q] += x << shift
            hit = self.variants[key] = packed
        return hit


Entries = list[tuple[int, int, int, int, int, int]]
"""A group's nonzero entries: (index ``k * (n + 1) + e``, weight, then a given odd / even card
under the stack, in the hand)."""

_ENTRIES: dict[tuple[int, ...], Entries] = {}
ENTRIES_KEPT = 4096
"""Group tables kept between positions (by their counts: positions of one game share most)."""


def group_entries(
    n: int, cards: int, odds: int, evens: int, hand_total: int, room: int, slots: int, deals: bool
) -> Entries:
    """One group's entries (:data:`Entries`) for a last stack of ``n`` cards: ``cards`` of the
    group left (``odds`` odd and ``evens`` even ones not hideouts), ``hand_total`` of them the
    fugitive's after the hideouts, at most ``room`` to the stack; ``deals``: ``slots`` free draws
    for the stack's cards and the hand's orders."""
    out = []
    for k in range(max(room, -1) + 1):
        hand, left = hand_total - k, cards - k
        factor = 1
        if deals:
            if k:
                if k > slots:
                    break
                factor = FALL[slots][k]
            factor *= _FACTORIALS[hand]
        stacked, held = _comb(left, hand) * factor, _comb(left - 1, hand - 1) * factor
        if not stacked:
            continue
        for e in range(min(k, evens) + 1):
            even, odd = _comb(evens, e), _comb(odds, k - e)
            weight = even * odd * stacked
            if weight:
                out.append(
                    (
                        k * (n + 1) + e,
                        weight,
                        even * _comb(odds - 1, k - e - 1) * stacked,
                        _comb(evens - 1, e - 1) * odd * stacked,
                        even * _comb(odds - 1, k - e) * held,
                        _comb(evens - 1, e) * odd * held,
                    )
                )
    return out
