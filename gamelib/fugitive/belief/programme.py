"""The forward programme's moves: one hideout value, then a sprint stack shared out by group.

A :class:`Programme` holds the per-position data of one set of facts and one measure; its moves
(:meth:`Programme.moves`) take a state (one int, :mod:`gamelib.fugitive.belief.bits`) through one
layer.  The final weights it inherits from :class:`~gamelib.fugitive.belief.weights.FinalWeights`.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Any

from gamelib.fugitive.belief import kernel
from gamelib.fugitive.belief.bits import (
    GROUP_BITS,
    HALVES,
    HE_SH,
    JM,
    KEEP,
    LEFT,
    M_SH,
    NEED,
    NEXT,
    PAIR,
    PAIR_HIDEOUTS,
    PAIR_READS,
    PREV,
    PROG,
    SCRATCH,
    U_SH,
    VALUE,
    VALUE_READS,
)
from gamelib.fugitive.belief.facts import Facts, advance
from gamelib.fugitive.belief.tables import COEFS, COMB, FALL, GROUPS, falling
from gamelib.fugitive.belief.weights import FinalWeights, Rows, Vec
from gamelib.fugitive.rules import STEP_LIMIT

try:
    from gamelib.fugitive.belief import _pairs
except ImportError:  # installed without a C compiler: the pure methods serve
    _pairs = None  # type: ignore[assignment]

PAIR_KEEPS = {first: ~sum((15 << HE_SH[h]) | (15 << M_SH[h]) for h in (first, first + 1)) for first in (0, 2)}
"""Per pair of groups: a signature's bits but their even hideouts and marks (:meth:`Programme._delta_key`)."""

U_BITS = sum(31 << sh for sh in U_SH)
"""The groups' card counts in a state."""

MASK_GROUPS = tuple(tuple(g for g in range(GROUPS) if mask >> g & 1) for mask in range(1 << GROUPS))
"""Per mask of groups: its groups."""

PairMoves = tuple[int, int, list[tuple[int, int]]]
"""A source's moves through a pair of group layers: (rest, factor, [(part, weight)]), see
:meth:`Programme._pair_moves`."""


Split = tuple[
    list[tuple[int, int]], list[tuple[int, int]], list[tuple[int, int]], int, dict[int, list[tuple[int, int]]]
]
"""A closing pair layer's moves of one :meth:`Programme._delta_key`: its unclosed moves, those no
closing changes, those that may close, the counts closing them reads (a mask), and the closed
lists by those counts (:meth:`Programme._closed_deltas`)."""


def parts_of(deltas: dict[int, list[tuple[int, int]]]) -> dict[int, list[tuple[int, int]]]:
    """A pair layer's moves by signature as ``(part, weight)`` from its ``(delta, weight)`` lists
    (the destination ``sig + delta``)."""
    return {sig: [(sig + d, w) for d, w in moves] for sig, moves in deltas.items()}


class DeltaMoves:
    """A large pair layer's unclosed moves kept as ``(delta, weight)`` lists by signature (see
    ``build._delta_layer``), until :class:`OpenMemos` makes them ``(part, weight)`` lists."""

    __slots__ = ("deltas",)

    def __init__(self, deltas: dict[int, list[tuple[int, int]]]) -> None:
        self.deltas = deltas


class OpenMemos(dict[tuple[int, int], Any]):
    """:attr:`Programme.open_memos`: large pair layers' unclosed moves by signature, kept for the
    card locations' walk (which reads them with ``get``).  A layer held as :class:`DeltaMoves` is
    made into ``(part, weight)`` lists when first read: the count itself never needs them."""

    def get(self, key: tuple[int, int], default: Any = None) -> Any:  # type: ignore[override]
        hit = super().get(key, default)
        if isinstance(hit, DeltaMoves):
            hit = self[key] = parts_of(hit.deltas)
        return hit


@dataclass
class Programme(FinalWeights):
    """The forward programme for one set of facts and one measure, with its final weights."""

    facts: Facts
    measure: str
    avail: tuple[int, ...]  # unknown cards per class
    gavail: tuple[int, ...]  # per group
    fug: tuple[int, ...]  # per group: the fugitive's unknown cards (group 0: all of them)
    hand_count: int  # the fugitive's hand, escape card aside
    layers: list[tuple[int, int, int]] = field(default_factory=list)  # (position, kind, group)
    forward: list[dict[int, int]] = field(default_factory=list)
    finals: dict[int, int] = field(default_factory=dict)
    total: int = 0
    stacks: int = 1  # product of n_i! over hidden stacks: the ordered-to-set divisor
    edges: int = 0
    back: list[dict[int, int]] | None = None
    saved: list[dict[int, Any]] | None = None  # forward edges (build.Edges), until the backward pass
    weights_memo: dict[tuple[int, int, int], Vec] = field(default_factory=dict)
    tail: bool = False  # the last layer's edges carry their final weights (counting only)
    count_only: bool = False  # build(count_only=True): the total alone, no edges kept, no backward pass
    tail_tally: list[int] = field(default_factory=list)  # the last layer's value tallies (tail)
    # a large closing pair layer's unclosed moves by signature, kept for the card locations' walk
    # (marginals reads them instead of making them again): by (position, group)
    open_memos: OpenMemos = field(default_factory=OpenMemos)
    folded: bool = False  # the last stack is summed in closed form (no group layers at the end)
    npos: int = 0  # positions on the table (facts.size, read on the hot paths)
    pending_pos: int = -1  # the position still getting sprint cards (the hand may pay), or -1
    room_caps: list[tuple[int, ...]] = field(default_factory=list)  # per position, per group: min(cap, slots)
    slots: list[tuple[int, ...]] = field(
        default_factory=list
    )  # per position, per group: draws - face-up before (-1: none)
    # per position with a lookahead (see build._lookahead), else None: per value, the groups the next
    # hideout can then be of (a mask), and per NEXT field (0: none) the caps and room caps its stack has
    ahead: list[tuple[int, ...] | None] = field(default_factory=list)
    ahead_caps: list[list[tuple[tuple[int, ...], tuple[int, ...]]]] = field(default_factory=list)
    group_tab: tuple[int, ...] = ()  # per card: its group (facts.tables.group_of)
    hide_inc: tuple[int, ...] = ()  # per card: what hiding it adds to the counts (u, H, He of its group)
    full_u: tuple[int, ...] = ()  # per group: the count at which a group is closed (no card can follow)
    closing: bool = False  # fold closed groups' final weights in as they close (the count only)
    mark_vectors: dict[int, Vec] = field(default_factory=dict)  # by counts | left << LEFT
    halves: dict[int, Rows] = field(default_factory=dict)  # by counts | first << LEFT
    even_vectors: dict[int, Vec] = field(default_factory=dict)  # _mark_vector(even=True)
    even_halves: dict[int, Rows] = field(default_factory=dict)  # _half(even=True)
    rows_seen: dict[Rows, Rows] = field(default_factory=dict)  # _half's rows, one object per value
    rows_scaled: dict[int, tuple[int, Rows]] = field(default_factory=dict)  # _half: (gcd, rows / gcd)
    met: dict[tuple[int, int, int], Vec] = field(default_factory=dict)  # _mark_vector by rows met
    suffixes: dict[tuple[int, int, int], list[int]] = field(default_factory=dict)  # _even_fins
    even_polys: dict[tuple[int, int, int], Rows] = field(default_factory=dict)  # _even_poly
    polys: dict[tuple[int, int, int], Rows] = field(default_factory=dict)  # _group_poly
    halves0: dict[int, Vec] = field(default_factory=dict)  # _half0
    polys0: dict[tuple[int, int, int], Vec] = field(default_factory=dict)  # _group_poly0
    poly_contexts: list[tuple[int, ...]] = field(default_factory=list)  # _poly_key
    closed_memo: dict[int, tuple[int, int]] = field(default_factory=dict)  # _close_groups by counts
    part_memo: dict[int, tuple[int, int]] = field(default_factory=dict)  # _close_part by a pair's counts
    delta_memo: dict[int, list[tuple[int, int]]] | None = None  # _open_deltas, once a pair layer is large
    split_memo: dict[int, Split] = field(default_factory=dict)
    # _closed_deltas: a delta key's unclosed moves, those split by whether they may close, and closed
    fits_memo: dict[int, tuple[int, int]] = field(default_factory=dict)  # _stack_fits: (room, evens)
    marginals: dict[int, list[int]] | None = None
    # per position: sorted values, hidden stack size, footprint span, and per-group data
    values: list[list[int]] = field(default_factory=list)
    hidden: list[bool] = field(default_factory=list)
    stack: list[int] = field(default_factory=list)
    span: list[int] = field(default_factory=list)
    fixed_fp: list[int] = field(default_factory=list)
    capg: list[tuple[int, ...]] = field(default_factory=list)  # per position, per group: u_g limit
    drawn: list[tuple[int, ...]] = field(default_factory=list)  # per position, per deck: D_i
    known_before: list[tuple[int, ...]] = field(default_factory=list)  # deck cards face up before i
    known_at: list[tuple[int, ...]] = field(default_factory=list)
    active: list[list[tuple[int, tuple[int, ...], int]]] = field(default_factory=list)

    @property
    def size(self) -> int:
        return self.npos

    @property
    def mass(self) -> int:
        return self.total // self.stacks

    # ------------------------------------------------------------------ moves
    def moves(self, t: int, src: int) -> list[tuple[int, int, int]]:
        """(destination, weight, label) of every move from ``src`` through layer ``t``."""
        i, kind, g = self.layers[t]
        if kind == VALUE:
            return self._value_moves(i, src)
        if kind == PAIR:
            rest, factor, hit = self._pair_moves(i, g, src, {})
            return [(rest | d, factor * w, 0) for d, w in hit if factor]
        return self._group_moves(i, g, src)

    def _memo_value_moves(
        self, i: int, src: int, memo: dict[int, list[tuple[int, int, int]]], closes: bool
    ) -> list[tuple[int, int, int]]:
        """:meth:`_value_moves` through ``memo`` (one layer): the moves add to the state's counts
        what depends only on the groups' card counts, the previous hideout and the series'
        progress (``VALUE_READS``); a position that closes then folds in the groups it completes."""
        sig = src & VALUE_READS
        hit = memo.get(sig)
        if hit is None:
            base = sig & KEEP
            hit = memo[sig] = [(dst - base, w, v) for dst, w, v in self._value_moves(i, sig, False) if w]
        base = src & KEEP
        if not closes:
            return [(base + delta, w, v) for delta, w, v in hit]
        out = []
        closed, close_low = self.closed_memo, self._close_low
        for delta, w, v in hit:
            dst = base + delta
            low = dst & KEEP
            shut = closed.get(low)
            if shut is None:
                shut = closed[low] = close_low(low)
            if shut[1]:
                out.append(((dst ^ low) | shut[0], w * shut[1], v))
        return out

    def _close_low(self, low: int) -> tuple[int, int]:
        """:meth:`_close_groups` of a state's counts ``low`` (what ``closed_memo`` keeps for it), made
        of its two halves' closings (:meth:`_close_part`, memoised in ``part_memo`` as the pair
        layers do): a position's value layer meets many counts but few halves."""
        part_memo = self.part_memo
        first, second = low & HALVES[0], low & HALVES[2]
        a = part_memo.get(first)  # (the tag of groups 0 and 1 is 0 << LEFT)
        if a is None:
            a = part_memo[first] = self._close_part(first, 0)
        b = part_memo.get(second | 2 << LEFT)
        if b is None:
            b = part_memo[second | 2 << LEFT] = self._close_part(second, 2)
        return a[0] | b[0], a[1] * b[1]

    def _pair_moves(self, i: int, g: int, src: int, memo: dict[int, list[tuple[int, int]]]) -> PairMoves:
        """Groups ``g`` and ``g + 1`` in one layer (their moves composed): no layer of intermediate
        states to store and walk.  Returns ``(rest, factor, hit)``: the destinations are
        ``rest | d`` weighed ``factor * w`` for ``(d, w)`` in ``hit`` (``factor`` is 1: the tuple
        keeps room for a per-source weight).

        The moves read only the bits ``PAIR_READS`` names (the two groups' counts, the later groups'
        card counts, the stack's scratch); ``hit`` is memoised on them for the whole layer, and
        parallel moves are summed (only the value layers tally labels).  When the position closes,
        the pair's groups close at the end of their own layer (:meth:`_pair_closes`): nothing later
        in the position reads them, so the states merge one layer earlier."""
        closing = self._pair_closes(i, g)
        sig = src & (PAIR_READS[g] | HALVES[g] if closing else PAIR_READS[g])
        hit = memo.get(sig)
        if hit is None:
            hit = memo[sig] = self._pair_hit(i, g, sig, closing)
        return src ^ sig, 1, hit

    def _pair_closes(self, i: int, g: int | None = None) -> bool:
        """Whether the pair layers of position ``i`` close their groups (counting, not pending):
        the first pair closes groups 0 and 1 (the second pair never reads them), the second pair
        groups 2 and 3; a group closes when all of the fugitive's cards of it are laid.  Given
        the pair's first group ``g``: only if one of its groups can be full at ``i`` (its cap
        reaches the count at which it closes); otherwise closing would change no state, and the
        layer reads and memoises fewer bits (no hideout counts)."""
        if not self.closing or i == self.pending_pos:
            return False
        if g is None:
            return True
        cap, full = self.capg[i], self.full_u
        return cap[g] >= full[g] or cap[g + 1] >= full[g + 1]

    def _pair_hit(self, i: int, g: int, sig: int, closing: bool) -> list[tuple[int, int]]:
        """The composed moves of groups ``g`` and ``g + 1`` from ``sig`` (see :meth:`_pair_moves`):
        (destination, weight), the two groups closed if ``closing``, equal destinations summed."""
        moves = self._pair_deltas(i, g, sig)
        if not closing:
            return [(sig + d, w) for d, w in moves]
        acc: dict[int, int] = {}
        part_memo, fields, tag = self.part_memo, HALVES[g], g << LEFT
        for d, w in moves:
            dst = sig + d
            part = dst & fields
            shut = part_memo.get(part | tag)
            if shut is None:
                shut = part_memo[part | tag] = self._close_part(part, g)
            if not shut[1]:
                continue
            dst = (dst ^ part) | shut[0]
            acc[dst] = acc.get(dst, 0) + w * shut[1]
        return [(dst, w) for dst, w in acc.items() if w]

    def _pair_deltas(self, i: int, g: int, sig: int) -> list[tuple[int, int]]:
        """The composed moves of groups ``g`` and ``g + 1`` from ``sig``, unclosed, as ``(delta,
        weight)`` (the destination ``sig + delta``): :meth:`_group_moves` of the first group, then
        of the second from each of its destinations, in one pass.  A destination is linear in the
        cards and marks each group takes (the last group clears the scratch), and distinct takes
        give distinct destinations, so nothing is summed; no intermediate state, list or call is
        made per move (the moves were ~70% of the hardest closing pair layers' time).

        When the compiled kernel runs (:data:`.kernel.COMPILED`, read at each call), the frame and
        the loops run natively (``_pairs.pair_deltas``: the same tuples in the same order); the
        loops below are the reference, and run when it is off, missing, or the call does not fit."""
        if _pairs is not None and kernel.COMPILED:
            caps = self.ahead_caps[i][(sig >> NEXT) & 7]
            hit = _pairs.pair_deltas(
                sig, g, caps[0], caps[1], self.avail, self.slots[i], i == self.pending_pos, COMB, FALL, COEFS
            )
            if hit is not None:
                return hit
        frame = self._pair_frame(i, g, sig)
        if frame is None:
            return []
        left, need, marks, lowest, room_a, far, evens_a, evens_b, ev_a, ev_b, free_a, free_b, cap_b = frame[0]
        base, one_a, one_b, mark_a, mark_b, last, pending, clears = frame[1]
        comb, fall, coefs = COMB, FALL, COEFS[need]
        out = []
        for k in range(lowest if lowest > 0 else 0, room_a + 1):
            wk = comb[left][k]
            if free_a >= 0 and k:
                if k > free_a:
                    break
                wk *= fall[free_a][k]
            left_b = left - k
            # the second group's cards: all that is left (the last group), else within its room
            room_b = cap_b if cap_b < left_b else left_b
            low_b = left_b if last else left_b - far if left_b > far else 0
            if low_b > room_b:
                continue
            # the marks this group must make: the cards still to allocate could not all be marked
            # enough otherwise (no bound while the hand may pay)
            low_j = 0 if pending or not need else need - marks - (left_b if left_b < evens_a else evens_a)
            for j in range(low_j if low_j > 0 else 0, (k if k < ev_a else ev_a) + 1 if need else 1):
                m = marks + j
                w1 = wk * comb[k][j] if j else wk
                d1 = base + k * one_a + j * mark_a
                for k2 in range(low_b, room_b + 1):
                    wk2 = comb[left_b][k2]
                    if free_b >= 0 and k2:
                        if k2 > free_b:
                            break
                        wk2 *= fall[free_b][k2]
                    d2 = d1 + k2 * one_b
                    wk2 *= w1
                    if not need:
                        if not (clears and m):
                            out.append((d2, wk2))
                        continue
                    rest = left_b - k2
                    low_j = 0 if pending else need - m - (rest if rest < evens_b else evens_b)
                    for j2 in range(low_j if low_j > 0 else 0, (k2 if k2 < ev_b else ev_b) + 1):
                        w = wk2 * comb[k2][j2] if j2 else wk2
                        if clears:
                            w *= coefs[m + j2]
                        if w:
                            out.append((d2 + j2 * mark_b, w))
        return out

    def _pair_frame(self, i: int, g: int, sig: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """What :meth:`_pair_deltas` reads of ``sig``: the stack's scratch, each group's room, even
        cards and free draws, the room and marks the groups after it need (:meth:`_later_room`),
        and how a take adds to the state; None if the pair has no move."""
        h = g + 1
        left, need, marks = (sig >> LEFT) & 63, (sig >> NEED) & 127, (sig >> JM) & 63
        cap, limit = self.ahead_caps[i][(sig >> NEXT) & 7]
        avail, slots = self.avail, self.slots[i]
        u_a, u_b = (sig >> U_SH[g]) & 31, (sig >> U_SH[h]) & 31
        ev_a = avail[2 * g + 1] - ((sig >> HE_SH[g]) & 15) - ((sig >> M_SH[g]) & 15)
        ev_b = avail[2 * h + 1] - ((sig >> HE_SH[h]) & 15) - ((sig >> M_SH[h]) & 15)
        if ev_a < 0 or ev_b < 0:
            return None  # a group with fewer even cards than its hideouts and marks took: no move
        far = far_evens = 0  # the groups after the pair
        for x in range(h + 1, GROUPS):
            r = limit[x] - ((sig >> U_SH[x]) & 31)
            if r < 0:
                r = cap[x] - ((sig >> U_SH[x]) & 31)
            far += r
            if need and r > 0:
                e = avail[2 * x + 1]
                far_evens += r if r < e else e if e > 0 else 0
        r = limit[h] - u_b  # the second group, after the first
        if r < 0:
            r = cap[h] - u_b
        evens_a = far_evens + (r if r < ev_b else ev_b) if need and r > 0 else far_evens
        room_a = cap[g] - u_a
        if room_a > left:
            room_a = left
        lowest = left - far - r
        if lowest > room_a:
            return None
        last = h == GROUPS - 1
        pending = i == self.pending_pos
        clears = last and not pending  # the position's last group clears the stack's scratch
        free_a, free_b = slots[g], slots[h]
        if free_a >= 0:
            free_a -= u_a
        if free_b >= 0:
            free_b -= u_b
        one_a, one_b, mark_a, mark_b = 1 << U_SH[g], 1 << U_SH[h], 1 << M_SH[g], 1 << M_SH[h]
        base = -(sig & SCRATCH) if clears else 0
        if not clears:  # the stack goes on: its cards left and marks change with each take
            one_a, one_b, mark_a, mark_b = (
                one_a - (1 << LEFT),
                one_b - (1 << LEFT),
                mark_a + (1 << JM),
                mark_b + (1 << JM),
            )
        evens_b = 0 if last else far_evens  # the marks the groups after the second can bring
        counts = (
            left,
            need,
            marks,
            lowest,
            room_a,
            far,
            evens_a,
            evens_b,
            ev_a,
            ev_b,
            free_a,
            free_b,
            cap[h] - u_b,
        )
        return counts, (base, one_a, one_b, mark_a, mark_b, last, pending, clears)

    def _closed_deltas(
        self, i: int, g: int, sig: int, bare_moves: dict[int, list[tuple[int, int]]]
    ) -> list[tuple[int, int]]:
        """:meth:`_pair_hit` closed, as ``(delta, weight)`` (the destination ``sig + delta``;
        ``sig`` holds the pair's hideout counts): the unclosed moves of ``sig`` without them
        (:meth:`_pair_deltas`: the moves never read them), split once per :meth:`_delta_key` by
        whether they may close (:meth:`_split_closable`), then those closed.  The same moves as
        ``_pair_hit(i, g, sig, True)``: a closing depends on the destination only, so summing
        equal destinations first changes no sum.  A signature that none of its moves closes
        shares its key's list.  ``bare_moves`` collects each signature's unclosed moves without
        the hideout counts (the card locations' walk reads them again).

        The closed list is memoised in the key's split too, on the hideout, even hideout and mark
        counts of the groups its moves can fill (``sig & fills``): a move that closes a group
        changes only that group's counts and weighs by them alone (:meth:`_close_part`), so the
        deltas do not depend on the other group's (the large layers' signatures differ mostly by
        those: fresh-K-211 closes 7,170 signatures' moves, 4,218 distinct)."""
        bare = sig & ~PAIR_HIDEOUTS[g]
        memo = self.split_memo
        key = self._delta_key(i, g, bare)
        split = memo.get(key)
        if split is None:  # (the key's moves are its own: an open layer's keys are other layers')
            deltas = self._pair_deltas(i, g, bare)
            split = memo[key] = (deltas, *self._split_closable(g, bare, deltas), {})
        deltas, plain, closable, fills, closed = split
        bare_moves[bare] = deltas
        if not closable:
            return plain
        sub = sig & fills
        hit = closed.get(sub)
        if hit is not None:
            return hit
        if _pairs is not None and kernel.COMPILED:  # the loop below, natively (the same list)
            hit = _pairs.close_moves(sig, g, plain, closable, self.part_memo, self._close_part)
            if hit is not None:
                closed[sub] = hit
                return hit
        acc: dict[int, int] = {}
        part_memo, fields, tag = self.part_memo, HALVES[g], g << LEFT
        for d, w in closable:
            dst = sig + d
            part = dst & fields
            shut = part_memo.get(part | tag)
            if shut is None:
                shut = part_memo[part | tag] = self._close_part(part, g)
            if shut[1]:
                d = ((dst ^ part) | shut[0]) - sig
                acc[d] = acc.get(d, 0) + w * shut[1]
        hit = closed[sub] = plain + [(d, w) for d, w in acc.items() if w]  # (a generator: 1.5x the time)
        return hit

    def _split_closable(
        self, g: int, bare: int, deltas: list[tuple[int, int]]
    ) -> tuple[list[tuple[int, int]], list[tuple[int, int]], int]:
        """The unclosed moves ``deltas`` of a pair's signature ``bare`` split by whether a
        destination fills a group of the pair (closing may change it) or not (closing leaves it as
        it is: it is the destination whatever the hideout counts held; and no closed destination
        equals it, whose filled group's count differs); and the hideout, even hideout and mark
        bits of the groups the closable moves fill (what closing them reads beyond the key).
        Natively (``_pairs.split_closable``: the same lists and mask) when the compiled kernel runs."""
        if _pairs is not None and kernel.COMPILED:
            hit = _pairs.split_closable(bare, g, self.full_u[g], self.full_u[g + 1], deltas)
            if hit is not None:
                return hit
        plain: list[tuple[int, int]] = []
        closable: list[tuple[int, int]] = []
        full_a, full_b, sh_a, sh_b = self.full_u[g], self.full_u[g + 1], U_SH[g], U_SH[g + 1]
        fills = 0
        for move in deltas:
            dst = bare + move[0]
            fill_a = (dst >> sh_a) & 31 >= full_a
            fill_b = (dst >> sh_b) & 31 >= full_b
            if fill_a or fill_b:
                closable.append(move)
                fills |= (GROUP_BITS[g] if fill_a else 0) | (GROUP_BITS[g + 1] if fill_b else 0)
            else:
                plain.append(move)
        return plain, closable, fills

    def _open_deltas(self, i: int, g: int, sig: int) -> list[tuple[int, int]]:
        """``_pair_hit(i, g, sig, False)`` as ``(delta, weight)``, the destination ``sig + delta``,
        memoised in ``delta_memo`` (a large programme's) on a coarser key (:meth:`_delta_key`):
        the signatures whose moves add the same to them share one list."""
        memo = self.delta_memo
        assert memo is not None
        key = self._delta_key(i, g, sig)
        deltas = memo.get(key)
        if deltas is None:
            deltas = memo[key] = self._pair_deltas(i, g, sig)
        return deltas

    def _delta_key(self, i: int, g: int, sig: int) -> int:
        """What the moves of a pair's signature ``sig`` add to it depends on: ``sig`` without the
        pair's even hideouts and marks, and per group of the pair only the even cards it has left
        (``evens``, read by :meth:`_group_moves` and :meth:`_later_room`), and that only as far as
        it matters: none when no even card is needed (``need`` 0: no mark is made, only a group
        with fewer than none has no move), else at most the cards left to allocate (a group
        marks at most the cards it takes; a later group's marks are capped by the rest too).
        Natively (``_pairs.delta_key``: the same int) when the compiled kernel runs."""
        if _pairs is not None and kernel.COMPILED:
            hit = _pairs.delta_key(sig, i, g, self.avail)
            if hit is not None:
                return hit
        scratch = sig >> LEFT  # (small ints from here: the counts read in two pieces)
        left, need, avail = scratch & 63, (scratch >> (NEED - LEFT)) & 127, self.avail
        counts = (sig >> HE_SH[g]) & 0xFF00FF  # the pair's even hideouts (low byte) and marks
        ev_a = avail[2 * g + 1] - (counts & 15) - ((counts >> 16) & 15)
        ev_b = avail[2 * g + 3] - ((counts >> 4) & 15) - ((counts >> 20) & 15)
        code = i << 2 | g  # a pair's signature holds no progress bits
        if ev_a < 0:
            code |= 127 << 8
        elif need:
            code |= (1 + (ev_a if ev_a < left else left)) << 8
        if ev_b < 0:
            code |= 127 << 16
        elif need:
            code |= (1 + (ev_b if ev_b < left else left)) << 16
        return (sig & PAIR_KEEPS[g]) | code << PROG

    def _tail_moves(self, i: int, sig: int) -> list[tuple[int, int, list[tuple[int, int, int]]]]:
        """The last position's value moves from ``sig`` (the bits they read), grouped by what they
        add to the counts (the hideout's class, the stack left to share): ``(inc, top need,
        [(need, weight, value)])``.  A final state is then ``counts + inc`` with its need."""
        base = sig & KEEP
        by_inc: dict[int, list[tuple[int, int, int]]] = {}
        for dst, w, v in self._value_moves(i, sig, False):
            if w:
                delta = dst - base
                need = (delta >> NEED) & 127
                by_inc.setdefault(delta ^ (need << NEED), []).append((need, w, v))
        groups = [(inc, max(need for need, _, _ in items), items) for inc, items in by_inc.items()]
        # the groups that need even cards first: their sums by evens then give the unmarked ones
        # (:meth:`~.weights.FinalWeights._half0`)
        groups.sort(key=lambda group: -group[1])
        return groups

    def _close_ok(self, i: int, state: int) -> bool:
        cap = self.capg[i]
        return (
            (state & 31) <= cap[0]
            and (state >> 5) & 31 <= cap[1]
            and (state >> 10) & 31 <= cap[2]
            and (state >> 15) & 31 <= cap[3]
        )

    def _value_moves(self, i: int, src: int, close: bool = True) -> list[tuple[int, int, int]]:
        prev = (src >> PREV) & 63
        progress = src >> PROG
        base = src & KEEP
        values = self.values[i]
        lo = bisect.bisect_right(values, prev)
        hi = bisect.bisect_right(values, prev + self.span[i])
        if lo >= hi:
            return []
        last = i == self.npos
        pending = self.facts.pending and last
        n = self.stack[i]
        deals = self.measure == "deals"
        active = self.active[i]
        # need = v - offset: the even cards the stack must hold beyond its odd footprints
        offset = prev + STEP_LIMIT + self.fixed_fp[i] + n + (self.hand_count if pending else 0)
        hidden = self.hidden[i]
        ahead = self.ahead[i] if n else None
        w = 1
        if hidden:
            # per group: -1 if it has no card left for this position, else the free draws (deals)
            cap, drawn, before = self.capg[i], self.drawn[i], self.known_before[i]
            room = []
            for g in range(GROUPS):
                u = (base >> U_SH[g]) & 31
                if u >= cap[g]:
                    room.append(-1)
                else:
                    room.append(drawn[g - 1] - u - before[g - 1] if deals and g else 1)
            group, inc = self.group_tab, self.hide_inc
        elif deals:
            known_at, drawn, before = self.known_at[i], self.drawn[i], self.known_before[i]
            for d in range(3):
                c = known_at[d]
                if c:
                    w *= falling(drawn[d] - ((base >> U_SH[d + 1]) & 31) - before[d], c)
            if not w:
                return []
        out = []
        for v in values[lo:hi]:
            new_progress = progress
            if active:
                new_progress = advance(progress, active, v, i)
                if new_progress < 0:
                    continue
            need = v - offset
            if need < 0:
                need = 0
            new = base
            if hidden:
                w = room[group[v]]
                if w < 0:
                    continue
                new += inc[v]
            if n:
                dst = new | (n << LEFT) | (need << NEED)
                field = 0 if ahead is None else self._next_field(i, ahead[v], new, n)
                if field < 0 or not (last or self._stack_fits(i, new, field, n, need)):
                    continue  # no room left for the next hideout, or none for this stack
                dst |= field
            else:
                if not self._close_ok(i, new):
                    continue
                if pending:
                    dst = new | (need << NEED)
                elif need:
                    continue
                elif close and self.closing and not last:
                    dst, f = self._close_groups(new)
                    if not f:
                        continue
                    out.append((dst | (v << PREV) | (new_progress << PROG), w * f, v))
                    continue
                else:
                    dst = new
            if not last:
                dst |= (v << PREV) | (new_progress << PROG)
            out.append((dst, w, v))
        return out

    def _stack_fits(self, i: int, new: int, field: int, n: int, need: int) -> bool:
        """Whether the ``n`` cards of position ``i``'s stack fit in its groups' room after the
        hideout (``new``: the counts with it; ``field``: the NEXT bits, whose caps the stack's moves
        read), ``need`` of them even: at most ``cap - u`` cards per group, and, measure deals, no
        more than its free draws (:meth:`_group_moves`' bounds), and no more even ones than the
        group has unknown.  A value whose stack cannot fit has no group move (nor, ``need`` beyond
        the evens, a nonzero final weight): its state would reach no final one (8-22% of the
        largest value layers' states), so it is not made.  The room and the even cards in it depend
        on the position, ``field`` and the groups' card counts only: memoised on them (``fits_memo``;
        a value layer's signatures share few card counts)."""
        key = (new & U_BITS) | field | i << PROG
        fit = self.fits_memo.get(key)
        if fit is None:
            caps, limits = self.ahead_caps[i][(field >> NEXT) & 7]
            avail = self.avail
            room = evens = 0
            for g in range(GROUPS):
                u = (new >> U_SH[g]) & 31
                r = limits[g] - u
                if r < 0:  # more cards laid than free draws: the moves then set no draw limit
                    r = caps[g] - u
                if r > 0:
                    room += r
                    e = avail[2 * g + 1]
                    evens += r if r < e else e
            fit = self.fits_memo[key] = (room, evens)
        return fit[0] >= n and fit[1] >= need

    def _next_field(self, i: int, groups: int, new: int, n: int) -> int:
        """The NEXT bits of a value move of position ``i`` whose stack of ``n`` cards looks ahead
        (``groups``: the groups the next hideout can be of, ``new``: the counts with this hideout),
        or -1 if the value is dead: the groups that still have room for the next hideout; none, the
        value is dead; one that the stack could fill, the stack must leave it a card (NEXT = 1 +
        that group); else 0, no constraint."""
        live = 0
        room_next = self.room_caps[i + 1]
        for h in MASK_GROUPS[groups]:
            if (new >> U_SH[h]) & 31 < room_next[h]:
                live |= 1 << h
        if not live:
            return -1
        if live & (live - 1):
            return 0
        h = live.bit_length() - 1
        u = (new >> U_SH[h]) & 31
        return (h + 1) << NEXT if u + min(n, self.capg[i][h] - u) >= room_next[h] else 0

    def _later_room(self, i: int, g: int, src: int, left: int, need: int) -> tuple[int, int]:
        """The fewest cards group ``g`` must take of the ``left`` still to allocate, and the marks
        the later groups of the stack can still bring (``need`` only): the groups after this one
        must have room for the rest of the stack (their cap and, measure deals, their free draws:
        what their own moves allow), and marks enough."""
        later = later_evens = 0
        cap, limit = self.ahead_caps[i][(src >> NEXT) & 7]
        for h in range(g + 1, GROUPS):
            u_h = (src >> U_SH[h]) & 31
            r = limit[h] - u_h
            if r < 0:  # more cards laid than free draws: the moves then set no draw limit
                r = cap[h] - u_h
            later += r
            if need and r > 0:
                # a later group's unknown even cards (less those it used when it is of this
                # pair: a pair layer's moves read no other group's even counts, PAIR_READS)
                e = self.avail[2 * h + 1]
                if h >> 1 == g >> 1:
                    e -= ((src >> HE_SH[h]) & 15) + ((src >> M_SH[h]) & 15)
                later_evens += r if r < e else e if e > 0 else 0
        lowest = left - later
        return (lowest if lowest > 0 else 0), later_evens

    def _group_moves(self, i: int, g: int, src: int, close: bool = True) -> list[tuple[int, int, int]]:
        left = (src >> LEFT) & 63
        u_shift = U_SH[g]
        u = (src >> u_shift) & 31
        cap = self.ahead_caps[i][(src >> NEXT) & 7][0]
        room = cap[g] - u
        if room > left:
            room = left
        need = (src >> NEED) & 127
        if g == GROUPS - 1:  # the last group takes what is left, and the position closes
            if left > room:
                return []
            lowest, later_evens = left, 0
        else:
            lowest, later_evens = self._later_room(i, g, src, left, need)
            if lowest > room:
                return []
        closing = g == GROUPS - 1
        pending = i == self.pending_pos  # the hand may still pay: no closing weight
        evens = self.avail[2 * g + 1] - ((src >> HE_SH[g]) & 15) - ((src >> M_SH[g]) & 15)
        if evens < 0:
            # an even hideout took a card the group's marked sprint cards had claimed (the value
            # moves do not read the marks): no world, its final weight is 0 (falling(evens, M))
            return []
        marks = (src >> JM) & 63
        comb = COMB
        coefs = COEFS[need]
        free_slots = self.slots[i][g]
        if free_slots >= 0:
            free_slots -= u
        m_shift = M_SH[g]
        out = []
        for k in range(lowest, room + 1):
            wk = comb[left][k]
            if free_slots >= 0 and k:
                if k > free_slots:
                    break
                wk *= FALL[free_slots][k]
            step = src + (k << u_shift) - (k << LEFT)
            if not need:
                if closing and not pending:
                    if marks:
                        continue  # coef(marks, 0) is 0
                    step &= ~SCRATCH
                    if close and self.closing:
                        step, f = self._close_groups(step)
                        wk *= f
                        if not wk:
                            continue
                out.append((step, wk, k))
                continue
            rest = left - k
            for j in range((k if k < evens else evens) + 1):
                m = marks + j
                if not pending and m + (rest if rest < later_evens else later_evens) < need:
                    continue  # the cards still to allocate could not all be marked enough
                w = wk * comb[k][j] if j else wk
                dst = step + (j << m_shift) + (j << JM) if j else step
                if closing and not pending:
                    c = coefs[m]
                    if not c:
                        continue
                    w *= c
                    dst &= ~SCRATCH
                    if close and self.closing:
                        dst, f = self._close_groups(dst)
                        w *= f
                        if not w:
                            continue
                out.append((dst, w, k))
        return out

    # ------------------------------------------------------------------ final weights
