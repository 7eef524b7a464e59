"""Card locations from the count itself: one backward pass of the class shares over the counted
programme, beside its world total and hideout marginals (no second programme, no recount).

The counting programme (:mod:`~.build`: a value layer per position, its stack's groups in two
composed pairs, the last stack summed in closed form) folds a group's final weight in on the
edge where the group closes, and forgets the group's counts so that states merge.  The card
locations need those counts (a class's share of sprint and hand cards is read from them), so
this pass walks the same layers again, backward, regenerating each state's moves with the
programme's closing turned off and closing the groups itself: on a closing edge it knows the
closing groups' counts, hence their shares (:mod:`~.marginals_shares`).  Each group is settled
once per world — on its closing edge or in the final weight — so the shares ride on one factor
of each path.  Per state the pass carries ``S``, the completions' share-weighted sums (16 sums
packed in one int), and reads the count's own forward weights ``F`` and completions ``B``:

* ``S(start)`` is, per class, ``E[rho]`` (times the total): the expected share of the class's
  non-hideout cards under sprint stacks (or in the hand);
* ``E[rho 1(v hideout)]`` sums ``F(src) (w S(dst) + w s_e B(dst))`` over the value edges
  labelled ``v`` (``s_e`` the closing shares of the edge).  A card's group closes after the card
  is laid, so the shares of a card's own group are always ahead of its value edge;
* by symmetry inside a class, ``P(v sprint) = (E[rho] - E[rho 1(v hideout)]) / total`` (likewise
  the hand), and the deck takes the rest.

The last layer of a large programme is summed as a bilinear form of the last stack's two halves
(:mod:`~.marginals_tail`: one dot product per source instead of one meet per final state), and a
closing pair layer reads the count's own unclosed moves where the count kept them.  The positions
whose only face-down stack is the last one need no programme at all (:mod:`~.direct_locations`).
When the compiled kernel is there (:data:`~.kernel.COMPILED`), the layers before the last one run
on its edge loops (:func:`~.kernel.pull`, :func:`~.kernel.pull_tally`; the share sums are ~850-bit
ints, which it sums in 128-bit lanes), else on the loops below: the same integers.

Everything is an exact integer until the last division.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from gamelib.fugitive.belief import kernel, marginals_tail
from gamelib.fugitive.belief.bits import HALVES, KEEP, PAIR, PAIR_READS, VALUE, VALUE_READS
from gamelib.fugitive.belief.build import _states, backward
from gamelib.fugitive.belief.marginals_shares import ClosingShares, FinalShares, digit, share_scale
from gamelib.fugitive.belief.marginals_tail import tail_shares
from gamelib.fugitive.belief.programme import DeltaMoves, Programme
from gamelib.fugitive.belief.tables import GROUPS

ONE_PULL = True
"""Whether a closing pair layer's two sums run in one pull (the completions read at flagged keys:
:func:`~.kernel.pull`'s ``flagged``) when ``_shares`` is built."""

Closed = tuple[int, int, int, int]
"""A closed edge: (destination bits, weight, share weight, hideout value or 0)."""

Tail = tuple[int, int, int, list[tuple[int, int]]]
"""The last layer's moves of one source that add the same counts with the same weight: (counts
added, their largest need, weight, [(need, hideout value)])."""


@dataclass
class ClassShares:
    """The share sums of one counted programme, exact (packed: digit ``4 * group + q``, ``q`` 0
    sprint odd, 1 sprint even, 2 hand odd, 3 hand even; times ``scale``)."""

    total: int  # the programme's total weight (what the sums are shares of), over the divisor
    expect: int  # per digit: the share summed over every world
    joint: list[int]  # per number: the same over the worlds where it is a face-down hideout
    scale: int
    width: int

    def where(self, v: int, klass: int) -> tuple[int, int]:
        """The weight of the worlds where card ``v`` (of class ``klass``) is a face-down sprint
        card, and where it is in the hand, times ``scale``: its class's share in the worlds where
        it is not a hideout."""
        g, parity = divmod(klass, 2)
        expect, joint, width = self.expect, self.joint[v], self.width
        sprint, hand = 4 * g + parity, 4 * g + 2 + parity
        return (
            digit(expect, sprint, width) - digit(joint, sprint, width),
            digit(expect, hand, width) - digit(joint, hand, width),
        )


@dataclass
class Closer:
    """How one layer closes groups: the state's bits it reads (``mask``), its first group (-1:
    every group, through :meth:`Programme._close_groups`; else that group and the next, through
    :meth:`Programme._close_part`), their shares, and a memo by those bits."""

    mask: int
    first: int
    shares: ClosingShares
    memo: dict[int, tuple[int, int, int]] = field(default_factory=dict)


def class_shares(prog: Programme) -> ClassShares:
    """The backward pass of the class shares over a counting programme (built by
    :func:`~.build.build` without ``full``; its backward pass is run here if it was not).

    The programme counts each world once per order of its face-down stacks' cards (``stacks``:
    the product of their sizes' factorials), so every share sum is a multiple of ``stacks``: the
    digits are packed as wide as the sums divided by it need (a quarter narrower on the hardest
    positions), and the sums are divided by it at the end.  Were a sum not a multiple of it, the
    pass would run again at full width."""
    if prog.back is None:
        backward(prog)
    shares = _class_shares(prog, prog.stacks)
    if shares is None:
        shares = _class_shares(prog, 1)
        assert shares is not None
    return shares


def _class_shares(prog: Programme, divisor: int) -> ClassShares | None:
    """:func:`class_shares` with the sums divided by ``divisor`` (None if one is not a multiple)."""
    if prog.total % divisor:
        return None
    scale = share_scale(prog)
    width = max(1, (abs(prog.total) // divisor * scale).bit_length() + 1)
    walk = _Walk(prog, scale, width, prog.closing)
    closing = prog.closing
    prog.closing = False  # the moves come back unclosed: the walk closes them (and their shares)
    try:
        for t in range(len(prog.layers) - 1, -1, -1):
            if t == len(prog.layers) - 1:
                walk.last_layer(t)
            else:
                walk.layer(t)
        start = walk.both(0, 0)[1] if 0 in prog.forward[0] else 0
    finally:
        prog.closing = closing
    if divisor == 1:
        return ClassShares(prog.total, start, walk.joint, scale, width)
    if start % divisor or any(x % divisor for x in walk.joint):
        return None
    joint = [x // divisor for x in walk.joint]
    return ClassShares(prog.total // divisor, start // divisor, joint, scale, width)


class _Walk:
    """One backward walk of the share sums (:func:`class_shares`), layer by layer.

    The count sums the parallel moves of a pair layer into one edge and drops the edges whose
    signed weight cancels (and so the states only they reach): their share sums need not cancel
    (the footprint identity's terms of one world are split over several sources).  Such a state
    is walked here on demand (:meth:`missing`), its completions and share sums both."""

    def __init__(self, prog: Programme, scale: int, width: int, counting: bool) -> None:
        self.prog, self.counting = prog, counting
        count = len(prog.layers)
        self.finals = FinalShares(prog, scale, width)
        self.closers = [self._closer(layer, scale, width) for layer in prog.layers]
        self.joint = [0] * 43
        self.sums: list[dict[int, int]] = [{} for _ in range(count + 1)]
        self.extra: list[dict[int, tuple[int, int]]] = [{} for _ in range(count + 1)]
        self.vmemo: list[dict[int, list[tuple[int, int, int]]]] = [{} for _ in range(count)]
        # a pair layer's unclosed moves by signature: the count's own where it kept them (a large
        # closing layer shares them between signatures: Programme.open_memos, the same keys and lists)
        kept = getattr(prog, "open_memos", {})
        # a large pair layer that closes nothing keeps (delta, weight) lists (build._delta_layer): a
        # plain layer of the walk reads them as is, one the walk closes gets them as (part, weight)
        raw = [dict.get(kept, (i, g)) if kind == PAIR else None for i, kind, g in prog.layers]
        self.deltas = [
            x.deltas if isinstance(x, DeltaMoves) and closer is None else None
            for x, closer in zip(raw, self.closers, strict=True)
        ]
        self.pmemo: list[dict[int, list[tuple[int, int]]]] = [
            {} if deltas is not None else kept.get((i, g), {}) if kind == PAIR else {}
            for (i, kind, g), deltas in zip(prog.layers, self.deltas, strict=True)
        ]

    def _closer(self, layer: tuple[int, int, int], scale: int, width: int) -> Closer | None:
        """How layer ``layer`` closes groups, as the count does: a value layer that ends its
        position every full group, a pair layer of a position that is not pending its own two
        groups when one of them can be full there (its cap reaches the group's cards: else closing
        is the identity, and the layer is walked as a plain one), none when the programme does not
        close (a full one)."""
        prog = self.prog
        i, kind, g = layer
        if not self.counting or i == prog.pending_pos:
            return None
        if kind == VALUE and not prog.stack[i] and i != prog.npos:
            return Closer(KEEP, -1, ClosingShares(prog, scale, width, tuple(range(GROUPS))))
        if kind == PAIR and any(prog.capg[i][h] >= prog.full_u[h] for h in (g, g + 1)):
            return Closer(HALVES[g], g, ClosingShares(prog, scale, width, (g, g + 1)))
        return None  # a pair none of whose groups can be full at ``i``: closing it is the identity

    def moves(self, t: int, src: int) -> list[tuple[int, int, int]]:
        """The programme's moves from ``src`` through layer ``t``, unclosed."""
        i, kind, g = self.prog.layers[t]
        if kind == VALUE:
            return self.prog._memo_value_moves(i, src, self.vmemo[t], False)
        rest, _, hit = self.prog._pair_moves(i, g, src, self.pmemo[t])
        return [(rest | d, w, 0) for d, w in hit]

    def shut(self, closer: Closer, key: int) -> tuple[int, int, int]:
        """Closing the groups ``closer`` reads from their counts ``key``: the closed counts, the
        weight folded in (0: a group cannot complete) and the closing groups' share sums."""
        hit = closer.memo.get(key)
        if hit is None:
            prog = self.prog
            new, f = prog._close_groups(key) if closer.first < 0 else prog._close_part(key, closer.first)
            hit = closer.memo[key] = (new, f, closer.shares(key)[1] if f else 0)
        return hit

    def both(self, t: int, state: int) -> tuple[int, int]:
        """(completions, share sums) of a state of layer ``t`` (``t`` = the number of layers: a
        final state)."""
        prog = self.prog
        assert prog.back is not None
        if t == len(prog.layers):
            return prog.final_weight(state), self.final(state)
        if state in prog.forward[t]:
            return prog.back[t].get(state, 0), self.sums[t].get(state, 0)
        return self.missing(t, state)

    def missing(self, t: int, state: int) -> tuple[int, int]:
        """:meth:`both` for a state the count never reached (see the class docstring)."""
        hit = self.extra[t].get(state)
        if hit is None:
            b = s = 0
            closer = self.closers[t]
            for dst, w, _ in self.moves(t, state):
                f, fs = 1, 0
                if closer is not None:
                    key = dst & closer.mask
                    new, f, fs = self.shut(closer, key)
                    if not f:
                        continue
                    dst = (dst ^ key) | new
                bd, sd = self.both(t + 1, dst)
                b += w * f * bd
                s += w * (f * sd + fs * bd)
            hit = self.extra[t][state] = (b, s)
        return hit

    def final(self, state: int) -> int:
        memo = self.sums[-1]
        x = memo.get(state)
        if x is None:
            x = memo[state] = self.finals(state)
        return x

    def last_layer(self, t: int) -> None:
        """The last layer (its moves end in final states), a source's moves grouped by the counts
        the hideout adds and their weight (:meth:`_tail`): the share sums are read once per
        group, by need, summed, then weighed once."""
        prog = self.prog
        i, _, _ = prog.layers[t]
        tally = self.joint if prog.hidden[i] else None
        if tail_shares(self, t, _tail, tally):
            return
        out = self.sums[t]
        tables, by_need = self.finals.tables, self.finals.by_need
        groups_memo: dict[int, list[Tail]] = {}
        for src, fw in prog.forward[t].items():
            sig = src & VALUE_READS
            groups = groups_memo.get(sig)
            if groups is None:
                groups = groups_memo[sig] = _tail(prog, i, sig)
            base = src & KEEP
            s = 0
            for inc, top, w, items in groups:
                key = base + inc
                table = tables.get(key)
                if table is None or len(table) <= top:
                    table = by_need(key, top)
                acc = 0
                if tally is None or not fw:
                    for need, _ in items:
                        acc += table[need]
                else:
                    fww = fw * w
                    for need, v in items:
                        x = table[need]
                        if x:
                            acc += x
                            tally[v] += fww * x
                s += w * acc
            if s:
                out[src] = s

    def layer(self, t: int) -> None:
        """The share sums of layer ``t``'s states from those of layer ``t + 1``."""
        prog = self.prog
        closer = self.closers[t]
        if closer is not None:
            self._closing_layer(t, closer)
            return
        kind = prog.layers[t][1]
        if kind == VALUE:
            self._value_layer(t)
            return
        deltas = self.deltas[t]
        if deltas is not None:
            self._delta_layer(t, deltas)
            return
        i, _, g = prog.layers[t]
        out, after, pmemo = self.sums[t], self.sums[t + 1], self.pmemo[t]
        reads = PAIR_READS[g]  # the walk's moves are unclosed: they read these bits
        if (
            kernel.COMPILED
        ):  # (the rest of a source's bits and a part are disjoint: rest | part = rest + part)
            self.sums[t] = kernel.pull(
                _states(prog.forward, t),
                reads,
                ~reads,
                pmemo,
                after,
                lambda sig: prog._pair_hit(i, g, sig, False),
            )
            return
        get, reached = after.get, prog.forward[t + 1]
        for src in prog.forward[t]:
            sig = src & reads
            hit = pmemo.get(sig)
            if hit is None:
                hit = pmemo[sig] = prog._pair_hit(i, g, sig, False)
            rest = src ^ sig
            s = None  # no 0 + x: each big-int operation allocates
            for d, w in hit:
                x = get(rest | d)
                if x is None:
                    if rest | d in reached:
                        continue
                    x = self.missing(t + 1, rest | d)[1]
                if w != 1:
                    x *= w
                s = x if s is None else s + x
            if s:
                out[src] = s

    def _delta_layer(self, t: int, deltas: dict[int, list[tuple[int, int]]]) -> None:
        """A pair layer that closes nothing, whose moves the count kept as ``(delta, weight)``
        lists by signature (``build._delta_layer``): a source's destinations are ``source +
        delta``, as the count reached them (no ``(part, weight)`` lists made, no rest split off)."""
        prog = self.prog
        i, _, g = prog.layers[t]
        out, after, reads, deltas_of = self.sums[t], self.sums[t + 1], PAIR_READS[g], prog._open_deltas
        if kernel.COMPILED:
            self.sums[t] = kernel.pull(
                _states(prog.forward, t), reads, -1, deltas, after, lambda sig: deltas_of(i, g, sig)
            )
            return
        get, reached = after.get, prog.forward[t + 1]
        for src in prog.forward[t]:
            sig = src & reads
            hit = deltas.get(sig)
            if hit is None:
                hit = deltas[sig] = deltas_of(i, g, sig)
            s = None  # no 0 + x nor x * 1: each big-int operation allocates
            for d, w in hit:
                dst = src + d
                x = get(dst)
                if x is None:
                    if dst in reached:
                        continue
                    x = self.missing(t + 1, dst)[1]
                if w != 1:
                    x *= w
                s = x if s is None else s + x
            if s:
                out[src] = s

    def _value_layer(self, t: int) -> None:
        """A value layer that does not close: a source's moves are its signature's memoised
        (delta, weight, value) list added to the source's counts (as the count reads them)."""
        prog = self.prog
        i = prog.layers[t][0]
        tally = self.joint if prog.hidden[i] else None
        if kernel.COMPILED:
            self.sums[t] = self._pull_values(t, i, tally)
            return
        out, after, reached = self.sums[t], self.sums[t + 1], prog.forward[t + 1]
        memo = self.vmemo[t]
        for src, fw in prog.forward[t].items():
            sig = src & VALUE_READS
            hit = memo.get(sig)
            if hit is None:
                prog._memo_value_moves(i, sig, memo, False)  # fills memo[sig]
                hit = memo[sig]
            base = src & KEEP
            s = None  # no 0 + x nor x * 1: each big-int operation allocates
            for delta, w, label in hit:
                dst = base + delta
                x = after.get(dst)
                if x is None:
                    if dst in reached:
                        continue  # no completion's share there
                    x = self.missing(t + 1, dst)[1]
                if w != 1:
                    x *= w
                s = x if s is None else s + x
                if tally is not None and x:
                    tally[label] += fw * x
            if s:
                out[src] = s

    def _pull_values(self, t: int, i: int, tally: list[int] | None) -> dict[int, int]:
        """:meth:`_value_layer` through the compiled kernel (:func:`~.kernel.pull_tally`)."""
        prog, memo = self.prog, self.vmemo[t]

        def miss(sig: int) -> list[tuple[int, int, int]]:
            prog._memo_value_moves(i, sig, memo, False)  # fills memo[sig]
            return memo[sig]

        after, sources = self.sums[t + 1], _states(prog.forward, t)
        if tally is None:
            return kernel.pull(sources, VALUE_READS, KEEP, memo, after, miss)
        return kernel.pull_tally(sources, VALUE_READS, KEEP, memo, after, tally, miss)

    def _closing_layer(self, t: int, closer: Closer) -> None:
        """A layer whose edges close the groups they complete (a value layer with no stack, a pair
        layer of a position that is not pending): the closed groups' shares enter here, weighed by
        the completions after the edge (the count's own, or walked on demand for a state it never
        reached).  A pair layer's moves are the count's memoised list for its signature; closed,
        they depend only on it and on the pair's hideout counts the source holds (``rest &
        mask``): each such list is closed once."""
        prog = self.prog
        kind = prog.layers[t][1]
        if kind == PAIR:
            self._closing_pairs(t, closer)
            return
        self._closing_values(t, closer)

    def _closing_values(self, t: int, closer: Closer) -> None:
        """:meth:`_closing_layer` for a value layer (a position without a stack; it closes per
        destination, reading every group): a source's moves are its signature's memoised (delta,
        weight, value) list added to its counts, as :meth:`_value_layer` reads them, each destination
        closed through the closer's memo (:meth:`shut`), with no list made per source."""
        prog = self.prog
        assert prog.back is not None
        i = prog.layers[t][0]
        tally = self.joint if prog.hidden[i] else None
        out, memo, shut, shut_memo = self.sums[t], self.vmemo[t], self.shut, closer.memo
        after = kernel.as_dict(self.sums[t + 1])  # (native when the layer after was pulled so)
        completions, reached = prog.back[t + 1], prog.forward[t + 1]
        for src, fw in prog.forward[t].items():
            sig = src & VALUE_READS
            hit = memo.get(sig)
            if hit is None:
                prog._memo_value_moves(i, sig, memo, False)  # fills memo[sig]
                hit = memo[sig]
            base = src & KEEP
            s = 0
            for delta, w, label in hit:
                dst = base + delta
                key = dst & KEEP
                new, f, fs = shut_memo.get(key) or shut(closer, key)
                if not f:
                    continue  # a group that cannot complete
                dst = (dst ^ key) | new
                x = after.get(dst)
                if x is not None:
                    x *= w * f
                    if fs:
                        x += w * fs * completions.get(dst, 0)
                elif dst in reached:
                    if not fs:
                        continue
                    x = w * fs * completions.get(dst, 0)
                else:
                    bd, sd = self.missing(t + 1, dst)
                    x = sd * (w * f) + (w * fs) * bd
                if x:
                    s += x
                    if tally is not None:
                        tally[label] += fw * x
            if s:
                out[src] = s

    def _closing_pairs(self, t: int, closer: Closer) -> None:
        """:meth:`_closing_layer` for a pair layer: a source's closed edges are memoised on the bits
        its moves read (the count's own signature) and the pair's hideout counts, and added to the
        rest of its bits."""
        prog = self.prog
        assert prog.back is not None
        i, _, g = prog.layers[t]
        out, pmemo, mask = self.sums[t], self.pmemo[t], closer.mask
        closing = prog._pair_closes(i)  # as Programme._pair_moves reads a source (the walk's: unclosed)
        reads = PAIR_READS[g] | HALVES[g] if closing else PAIR_READS[g]
        both = reads | mask  # what a source's closed edges depend on: its signature, its held counts
        if kernel.COMPILED:
            self.sums[t] = self._pull_closing_pairs(t, closer, reads, both, closing)
            return
        after, completions, reached = self.sums[t + 1], prog.back[t + 1], prog.forward[t + 1]
        closed: dict[int, list[Closed]] = {}
        for src in prog.forward[t]:
            key = src & both
            entries = closed.get(key)
            if entries is None:
                sig = key & reads
                hit = pmemo.get(sig)
                if hit is None:
                    hit = pmemo[sig] = prog._pair_hit(i, g, sig, closing)
                entries = closed[key] = self._closed(closer, hit, key ^ sig)
            base = src ^ key
            s = None  # no 0 + x, x * 1 nor y * 0: each big-int operation allocates
            for bits, wf, wfs, _ in entries:
                dst = base | bits
                x = after.get(dst)
                if x is not None:
                    if wf != 1:
                        x *= wf
                    if wfs:
                        b = completions.get(dst)
                        if b:
                            x += wfs * b
                elif dst in reached:
                    if not wfs:
                        continue
                    b = completions.get(dst)
                    if not b:
                        continue
                    x = wfs * b
                else:
                    bd, sd = self.missing(t + 1, dst)
                    x = sd * wf + wfs * bd
                s = x if s is None else s + x
            if s:
                out[src] = s

    def _pull_closing_pairs(
        self, t: int, closer: Closer, reads: int, both: int, closing: bool
    ) -> dict[int, int]:
        """:meth:`_closing_pairs` through the compiled kernel: ``wf S(dst)`` over the share sums after
        and ``wfs B(dst)`` over the completions after, a source's closed moves summed by destination
        (:meth:`_closed`; the count closed this layer, per the same bits, the same way).  With
        ``_shares`` built (:mod:`~.marginals_tail`) in one pull: the moves to ``dst | flag`` (a bit
        above every state) read ``B(dst)`` from the completions after (:func:`~.kernel.pull`'s
        ``flagged``: the layers stay native, no dict of both is made), and the closing is compiled;
        else in two pulls.  A destination whose summed ``wf``
        cancels (the count dropped that edge: it may be a state the count never reached) brings ``0 *
        S(dst)`` and ``wfs B(dst)``: read per source here, its completions walked on demand if the
        count never reached it."""
        prog = self.prog
        assert prog.back is not None
        i, _, g = prog.layers[t]
        pmemo = self.pmemo[t]
        shares: dict[int, list[tuple[int, int]]] = {}
        odd: dict[int, list[tuple[int, int]]] = {}
        fast = marginals_tail._shares
        flag = 0
        if fast is not None and ONE_PULL:
            # the layers as the count kept them (native States: no dict made of them), the flagged
            # moves reading the completions after (kernel.pull's flagged)
            sources, after = _states(prog.forward, t), self.sums[t + 1]
            top = max(sources, default=0).bit_length() if type(sources) is dict else sources.bit_length()
            # destinations are a source's rest (below it) with a move's bits (state bits, below NEXT's 96)
            flag = 1 << max(top, 96)
        else:
            sources, after = prog.forward[t], self.sums[t + 1]
        shut = partial(self.shut, closer)

        def miss(key: int) -> list[tuple[int, int]]:
            sig = key & reads
            hit = pmemo.get(sig)
            if hit is None:
                hit = pmemo[sig] = prog._pair_hit(i, g, sig, closing)
            split = (
                NotImplemented
                if fast is None
                else fast.closed(hit, key ^ sig, closer.mask, closer.memo, shut, flag)
            )
            if split is NotImplemented:
                split = self._split(closer, hit, key ^ sig, flag)
            moves, settled, cancelled = split
            if cancelled:
                odd[key] = cancelled
            shares[key] = settled
            return moves

        # a source's closed edges depend on its bits ``both`` (its signature and held counts) and
        # add to the rest: (src & ~both) + bits = (src ^ key) | bits
        if flag:
            cur = kernel.pull(
                sources, both, ~both, {}, after, miss, flagged=(flag, _states(prog.back, t + 1))
            )
        else:
            cur = kernel.as_dict(kernel.pull(sources, both, ~both, {}, after, miss))
            for src, x in kernel.pull(sources, both, ~both, shares, prog.back[t + 1]).items():
                y = cur.get(src)
                cur[src] = x if y is None else x + y
        if not odd:
            return cur if flag else {src: x for src, x in cur.items() if x}
        cur, completions = kernel.as_dict(cur), prog.back[t + 1]
        for src in sources:
            key = src & both
            entries = odd.get(key)
            if entries is not None:
                rest = src ^ key
                for bits, wfs in entries:
                    dst = rest | bits
                    b = completions.get(dst, 0) if dst in prog.forward[t + 1] else self.missing(t + 1, dst)[0]
                    if b:
                        cur[src] = cur.get(src, 0) + wfs * b
        return {src: x for src, x in cur.items() if x}

    def _split(
        self, closer: Closer, hit: list[tuple[int, int]], held: int, flag: int
    ) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[tuple[int, int]]]:
        """A source's closed moves (:meth:`_closed`) as :meth:`_pull_closing_pairs` reads them:
        ``(bits, wf)`` where ``wf`` is not 0, each followed by ``(bits | flag, wfs)`` where ``wfs`` is
        not 0 with a ``flag`` (else those go to the second list), and the cancelled ``(bits, wfs)``."""
        moves: list[tuple[int, int]] = []
        settled: list[tuple[int, int]] = []
        cancelled: list[tuple[int, int]] = []
        for bits, wf, wfs, _ in self._closed(closer, hit, held):  # summed by destination
            if wf:
                moves.append((bits, wf))
                if wfs:
                    (moves if flag else settled).append((bits | flag, wfs))
            else:
                cancelled.append((bits, wfs))
        return moves, settled, cancelled

    def _closed(self, closer: Closer, hit: list[tuple[int, int]], held: int) -> list[Closed]:
        """A pair layer's moves ``hit`` closed, for a source holding ``held`` of the closer's bits:
        (destination bits, weight, share weight, 0), the moves that close into one destination summed
        (10-17% fewer edges on the layers that close most).  A destination whose weights cancel (the
        count dropped that edge) keeps its share weight: its shares need not cancel."""
        mask, keep, memo, shut = closer.mask, ~closer.mask, closer.memo, self.shut
        merged: dict[int, tuple[int, int]] = {}
        get = merged.get
        for d, w in hit:
            key = held | (d & mask)
            new, f, fs = memo.get(key) or shut(closer, key)
            if f:
                bits = (d & keep) | new
                seen = get(bits)
                merged[bits] = (w * f, w * fs) if seen is None else (seen[0] + w * f, seen[1] + w * fs)
        return [(bits, wf, wfs, 0) for bits, (wf, wfs) in merged.items() if wf or wfs]


def _tail(prog: Programme, i: int, sig: int) -> list[Tail]:
    """The count's last-layer moves from ``sig`` (:meth:`Programme._tail_moves`, the groups that
    need even cards first), each group's moves split by weight (a group is one hideout class: its
    moves share the weight, the free draws of its group; a split keeps the group's top need)."""
    out: list[Tail] = []
    for inc, top, items in prog._tail_moves(i, sig):
        w = items[0][1]
        if all(x == w for _, x, _ in items):
            out.append((inc, top, w, [(need, v) for need, _, v in items]))
            continue
        by_weight: dict[int, list[tuple[int, int]]] = {}
        for need, x, v in items:
            by_weight.setdefault(x, []).append((need, v))
        out.extend((inc, top, x, pairs) for x, pairs in by_weight.items())
    return out
