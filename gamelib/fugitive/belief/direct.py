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

from gamelib.fugitive.belief.facts import Facts, active_series, advance, reachable_values
from gamelib.fugitive.belief.tables import COMB, FALL, GROUPS, class_masks
from gamelib.fugitive.rules import STEP_LIMIT

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
    caps = facts.caps
    for i in range(1, size + 1):
        cap = caps[i]
        if cap[0] < 0 or cap[1] < 0 or cap[2] < 0:
            return None  # inconsistent: the programme says why
    group_of = facts.tables.group_of
    unknown = facts.unknown
    avail = [(unknown & mask).bit_count() for mask in class_masks(facts.last)]
    gavail = [avail[2 * g] + avail[2 * g + 1] for g in range(GROUPS)]
    fug = (gavail[0], *facts.hand_unknown)
    deals = measure == "deals"

    # per position: deck cards face up there, before it, drawn before it; the groups' caps; the
    # footprints of its face-up sprint cards
    known_at: list[tuple[int, int, int]] = []
    before: list[tuple[int, int, int]] = []
    drawn: list[tuple[int, int, int]] = []
    capg: list[tuple[int, int, int, int]] = []
    fixed_fp = [0] * (size + 1)
    r0 = r1 = r2 = 0
    a0, a1, a2, a3 = gavail
    for i in range(size + 1):
        before.append((r0, r1, r2))
        c0 = c1 = c2 = 0
        if i and known[i] >= 0:
            shown = known_sprints[i]
            if shown:
                fixed_fp[i] = sum(2 - c % 2 for c in shown)
            for c in (known[i], *shown):
                g = group_of[c]
                if g == 1:
                    c0 += 1
                elif g == 2:
                    c1 += 1
                elif g == 3:
                    c2 += 1
        known_at.append((c0, c1, c2))
        r0, r1, r2 = r0 + c0, r1 + c1, r2 + c2
        cap = caps[i]
        drawn.append((cap[0] + r0, cap[1] + r1, cap[2] + r2))
        capg.append((a0, min(cap[0], a1), min(cap[1], a2), min(cap[2], a3)))

    reach = reachable_values(facts)
    series = active_series(facts, reach)
    # per position, the series still open there (deadline at or after it), each with its index j
    by_deadline = sorted(
        ((j, numbers, deadline) for j, (numbers, deadline) in enumerate(series)), key=lambda s: s[2]
    )
    active: list[list[tuple[int, tuple[int, ...], int]]] = []
    first = 0
    for i in range(size + 1):
        while first < len(by_deadline) and by_deadline[first][2] < i:
            first += 1
        active.append(by_deadline[first:])  # the order of the series does not matter to advance()
    values: list[list[int]] = [[]] + [
        _bits(reach[i]) if known[i] < 0 or i == size else [] for i in range(1, size + 1)
    ]
    hidden_positions = [i for i in range(1, size + 1) if known[i] < 0]
    tallies: dict[int, list[int]] = {i: [0] * 43 for i in hidden_positions}
    ends: dict[tuple[int, ...], list[int]] = {}  # the last stack's weights by need, per path end
    last_cap, last_drawn, last_before = capg[size], drawn[size], before[size]

    def closes(u: list[int], i: int) -> bool:
        cap = capg[i]
        return u[0] <= cap[0] and u[1] <= cap[1] and u[2] <= cap[2] and u[3] <= cap[3]

    # the groups' tables are multiplied as packed integers (Kronecker substitution): entry (k, e)
    # at bit ``width * (e + (n + 1) * k)``, every entry and product entry below 2**width
    # A bound on every product entry: each group's weights only shrink as its counts grow (fewer
    # cards to pick, hand and free draws), so the sum of its entries with nothing laid bounds them,
    # and the product of those sums bounds the product's entries.
    stride = n + 1
    bound = 1
    for g in range(GROUPS):
        a, hand_total = gavail[g], max(fug[g], 0)
        slots = last_drawn[g - 1] - last_before[g - 1] if deals and g else -1
        group_sum = 0
        for k in range(min(n, max(last_cap[g], 0), hand_total) + 1):
            w = COMB[a][k] * _comb(a - k, hand_total - k)
            if deals and g:
                w *= _FACTORIALS[hand_total - k]
                if k:
                    w *= FALL[slots][k] if slots >= 0 else 0
            group_sum += w
        bound *= max(group_sum, 1)
    # ... and the ways to pick k <= n of a group's cards, C(a, k) < 2**a, fit as well
    width = max(bound.bit_length(), *gavail) + 2
    row_bits = width * stride
    keep = (1 << (row_bits * stride)) - 1  # entries with at most n cards
    row_shift, row_mask = row_bits * n, (1 << row_bits) - 1
    digit = (1 << width) - 1
    x_1 = 1 + (1 << row_bits)  # 1 + x (an odd card); 1 + xy is an even one
    packed: dict[tuple[int, int, int, int], int] = {}

    def group_table(g: int, ug: int, hg: int, heg: int) -> int:
        """Group ``g``'s weights by (cards given to the stack, even ones), packed: the ways to pick
        them, ``(1 + xy)**evens (1 + x)**odds``, each row k times its hand and draw factor."""
        key = (g, ug, hg, heg)
        hit = packed.get(key)
        if hit is not None:
            return hit
        a = gavail[g]
        hand_total = fug[g] - ug if g else a - ug
        room = min(n, last_cap[g] - ug, hand_total)
        out = 0
        if room >= 0:
            picks = ((1 + (1 << (row_bits + width))) ** (avail[2 * g + 1] - heg)) * (
                x_1 ** (avail[2 * g] - (hg - heg))
            )
            slots = last_drawn[g - 1] - ug - last_before[g - 1] if deals and g else -1
            for k in range(room + 1):
                hand = hand_total - k
                w = _comb(a - ug - k, hand)
                if deals and g:
                    if k:
                        if k > slots:
                            break
                        w *= FALL[slots][k]
                    w *= _FACTORIALS[hand]
                if w:
                    shift = row_bits * k
                    out |= (((picks >> shift) & row_mask) * w) << shift
        packed[key] = out
        return out

    def end_weights(u: list[int], h: list[int], he: list[int]) -> list[int]:
        """The last stack and the hand filled in from these counts: weight by need (0..n)."""
        key = (*u, *h, *he)
        hit = ends.get(key)
        if hit is not None:
            return hit
        prod = group_table(0, u[0], h[0], he[0])
        for g in range(1, GROUPS):
            if not prod:
                break
            prod = (prod * group_table(g, u[g], h[g], he[g])) & keep
        row = (prod >> row_shift) & row_mask
        out = [0] * stride
        run = 0
        for e in range(n, -1, -1):
            run += (row >> (width * e)) & digit
            out[e] = run
        ends[key] = out
        return out

    paths = [0]
    path = [0] * (size + 1)
    total = [0]

    def walk(
        i: int, prev: int, progress: int, u: list[int], h: list[int], he: list[int], weight: int
    ) -> bool:
        """Every hideout value at position ``i`` (and on): False if too many paths."""
        while i < size and known[i] >= 0:  # face-up positions before the last: one value each
            v = known[i]
            if not reach[i] >> v & 1 or v <= prev or v > prev + STEP_LIMIT + fixed_fp[i]:
                return True
            if deals:
                at, dr, bf = known_at[i], drawn[i], before[i]
                for d in range(3):
                    c = at[d]
                    if c:
                        x = dr[d] - u[d + 1] - bf[d]
                        weight *= FALL[x][c] if x >= 0 else 0
                if not weight:
                    return True
            if active[i]:
                progress = advance(progress, active[i], v, i)
                if progress < 0:
                    return True
            if not closes(u, i):
                return True
            prev = v
            i += 1
        last = i == size
        stack = n if last else 0
        offset = prev + STEP_LIMIT + fixed_fp[i] + stack
        top = offset + stack  # need <= stack: at most the stack's cards are even
        hidden = known[i] < 0
        w_up = 1
        if not hidden and deals:
            at, dr, bf = known_at[i], drawn[i], before[i]
            for d in range(3):
                c = at[d]
                if c:
                    x = dr[d] - u[d + 1] - bf[d]
                    w_up *= FALL[x][c] if x >= 0 else 0
            if not w_up:
                return True
        cap = capg[i]
        acts = active[i]
        for v in values[i]:
            if v <= prev:
                continue
            if v > top:
                break
            new_progress = progress
            if acts:
                new_progress = advance(progress, acts, v, i)
                if new_progress < 0:
                    continue
            if hidden:
                g = group_of[v]
                ug = u[g]
                if ug >= cap[g]:
                    continue
                w = weight * (drawn[i][g - 1] - ug - before[i][g - 1] if deals and g else 1)
                nu, nh, nhe = u.copy(), h.copy(), he.copy()
                nu[g] += 1
                nh[g] += 1
                if not v & 1:
                    nhe[g] += 1
            else:
                w = weight * w_up
                nu, nh, nhe = u, h, he
            if not closes(nu, i):
                continue
            path[i] = v
            if not last:
                if not walk(i + 1, v, new_progress, nu, nh, nhe, w):
                    return False
                continue
            paths[0] += 1
            if paths[0] > PATH_LIMIT:
                return False
            need = v - offset
            if need < 0:
                need = 0
            fins = end_weights(nu, nh, nhe)
            if need >= len(fins):
                continue
            x = w * fins[need]
            if x:
                total[0] += x
                for j in hidden_positions:
                    tallies[j][path[j]] += x
        return True

    if not walk(1, 0, 0, [0] * GROUPS, [0] * GROUPS, [0] * GROUPS, 1):
        return None
    return total[0], tallies


def _bits(mask: int) -> list[int]:
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
