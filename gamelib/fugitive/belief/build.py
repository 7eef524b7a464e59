"""Running the programme: forward over the layers (:func:`build`), and backward for the marginals
(:func:`backward`)."""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterator
from typing import Any, SupportsIndex, overload

from gamelib.fugitive.belief import kernel, tail_sums
from gamelib.fugitive.belief.bits import (
    GROUP,
    GROUP_READS,
    H_SH,
    HALVES,
    HE_SH,
    KEEP,
    PAIR,
    PAIR_READS,
    PAIRED,
    U_SH,
    VALUE,
    VALUE_READS,
)
from gamelib.fugitive.belief.facts import Facts, active_series, reachable_values, spread_down
from gamelib.fugitive.belief.programme import DeltaMoves, Programme, parts_of
from gamelib.fugitive.belief.tables import CLASSES, GROUPS, MEASURES, BeliefTooLarge
from gamelib.fugitive.rules import STEP_LIMIT, cards_of

SHARE_OPEN = 1000
"""States from which a pair layer memoises its moves as deltas shared between signatures
(:func:`_delta_layer`)."""

LOOKAHEAD_STACK = 1
"""The smallest stack whose allocation looks ahead at the next hideout (:func:`_lookahead`): every
stack (edges of 6 hard positions -6% against 3, heldout-D-913 -26%; small programmes unchanged)."""


class ByReads:
    """A layer's moves kept for the backward pass as the count memoised them: by the bits of a
    source they read (``reads``), a list shared by every source with those bits (no per-source
    record: the backward pass masks each source again).

    ``memo`` maps a signature to ``(part, weight)`` (the destination is the source's other bits
    ``| part``, i.e. ``(src & ~reads) + part``: no part has a bit outside ``reads``) or, value
    layers, ``(delta, weight, value)`` (the destination ``(src & KEEP) + delta``).  A large pair
    layer keeps ``deltas`` instead, a signature's ``(delta, weight)`` with destination ``source +
    delta``: the lists are shared by every signature whose moves add the same
    (:meth:`~.programme.Programme._delta_key`), so the count makes no list per signature; its
    ``memo`` is then made from them when first read (another pass over the kept moves).  A group
    layer (a full programme) keeps ``deltas`` too, one list per signature.  Either way the
    backward pass is one :func:`~.kernel.pull`."""

    __slots__ = ("_memo", "deltas", "reads")

    def __init__(
        self, reads: int, memo: dict[int, Any] | None, deltas: dict[int, list[tuple[int, int]]] | None = None
    ) -> None:
        self.reads, self._memo, self.deltas = reads, memo, deltas

    @property
    def memo(self) -> dict[int, Any]:
        if self._memo is None:
            self._memo = parts_of(self.deltas or {})
        return self._memo


class Layers(list[dict[int, int]]):
    """A programme's states per layer (``forward``, ``back``): dicts of ints, as every reader
    sees them.  The compiled kernel keeps a layer's states native between the layers of a pass
    (:func:`~.kernel.native`: no dict of Python ints made by one layer and read again by the
    next, most of what its loop spent per edge); such a layer is made a dict here when a reader
    first asks for it (card locations, sampling), and the dict then kept in its place.  The
    passes of this module read the stored item as it is (:func:`_states`)."""

    __slots__ = ()

    @overload
    def __getitem__(self, t: SupportsIndex) -> dict[int, int]: ...
    @overload
    def __getitem__(self, t: slice) -> list[dict[int, int]]: ...
    def __getitem__(self, t: SupportsIndex | slice) -> dict[int, int] | list[dict[int, int]]:
        if isinstance(t, slice):
            return [self[k] for k in range(len(self))[t]]
        item = list.__getitem__(self, t)
        if type(item) is not dict:
            item = kernel.as_dict(item)
            list.__setitem__(self, t, item)
        return item

    def __iter__(self) -> Iterator[dict[int, int]]:
        return (self[k] for k in range(len(self)))

    def __reversed__(self) -> Iterator[dict[int, int]]:
        return (self[k] for k in range(len(self) - 1, -1, -1))

    def __eq__(self, other: object) -> bool:
        return list(self) == (list(other) if isinstance(other, list) else other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]


def _states(layers: list[dict[int, int]], t: int) -> Any:
    """Layer ``t`` of ``layers`` as stored (a dict, or the compiled kernel's native states): what
    the next :func:`~.kernel.push` or :func:`~.kernel.pull` reads without a dict."""
    return list.__getitem__(layers, t)


Edges = Any
"""A layer's edges for the backward pass: a :class:`ByReads` memo (value layers that do not close,
pair layers, group layers), or by source state: ``(0, moves)`` (a value layer that closes), the
completions summed forward (the tail layer)."""


def build(
    facts: Facts,
    measure: str,
    max_edges: int | None = None,
    fixed: dict[int, int] | None = None,
    full: bool = False,
    count_only: bool = False,
) -> Programme:
    """The programme of ``facts``, run forward: ``prog.total`` is the weight of every world.

    ``fixed`` (position -> value) keeps only the worlds with those face-down hideouts (tests count
    a marginal that way, independently of the backward pass); ``full`` keeps a layer per group
    and the last stack's layers (what card locations and sampling walk); ``max_edges`` stops with
    :class:`BeliefTooLarge` beyond that many edges.  ``count_only`` (the total alone, e.g. the world
    count beside a belief): no edges kept, no layer kept but the one being read, the last layer's
    moves summed by need without the values' tallies; the programme then has no backward pass.
    """
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {MEASURES}, got {measure!r}")
    prog = _programme(facts, measure)
    _positions(prog)
    start_ok = _values(prog, fixed)
    _lookahead(prog)
    _layers(prog, full)
    prog.count_only = count_only and not full
    _run(prog, start_ok, max_edges)
    return prog


def _programme(facts: Facts, measure: str) -> Programme:
    """The programme's card counts: per class and group what the detective cannot see, the
    fugitive's share of each deck, the face-down stacks and the hand."""
    size = facts.size
    tables = facts.tables
    class_of, group = tables.class_of, tables.group_of
    counted = [0] * CLASSES
    for c in cards_of(facts.unknown):
        counted[class_of[c]] += 1
    avail = tuple(counted)
    gavail = tuple(avail[2 * g] + avail[2 * g + 1] for g in range(GROUPS))
    fug = (gavail[0], *facts.hand_unknown)
    hidden = [False] + [facts.known[i] < 0 for i in range(1, size + 1)]
    # the face-down sprint cards of each position: all of them under a face-down hideout, none under
    # a face-up one, unless its sprint cards stay face down (the escape card, escape_sprints="hidden")
    stack = [0] + [facts.sprint_counts[i] - len(facts.known_sprints[i]) for i in range(1, size + 1)]
    hand_count = gavail[0] + sum(facts.hand_unknown) - sum(hidden) - sum(stack)
    prog = Programme(facts, measure, avail, gavail, fug, hand_count)
    prog.npos = size
    prog.group_tab = group
    prog.hide_inc = _hide_increments(group)
    prog.full_u = (gavail[0], *(min(fug[g], gavail[g]) for g in range(1, GROUPS)))
    prog.hidden, prog.stack = hidden, stack
    for i in range(1, size + 1):
        prog.stacks *= math.factorial(stack[i])
    return prog


_HIDE_INC: dict[tuple[int, ...], tuple[int, ...]] = {}
"""Per group table (one per deck configuration): what hiding each card adds to the counts."""


def _hide_increments(group: tuple[int, ...]) -> tuple[int, ...]:
    """Per card: what hiding it adds to its group's counts (u, H, He), made once per group table."""
    hit = _HIDE_INC.get(group)
    if hit is None:
        hit = _HIDE_INC[group] = tuple(
            (1 << U_SH[group[v]]) + (1 << H_SH[group[v]]) + ((1 - v % 2) << HE_SH[group[v]])
            if group[v] >= 0
            else 0
            for v in range(43)
        )
    return hit


def _positions(prog: Programme) -> None:
    """Per position: the face-up deck cards there and before, the draws made before it, the cards
    of each group it may still use, and (deals) the free draw slots."""
    facts, size, group = prog.facts, prog.npos, prog.group_tab
    known_at: list[tuple[int, ...]] = [(0, 0, 0)]
    for i in range(1, size + 1):
        counts = [0, 0, 0]
        if not prog.hidden[i]:
            for c in (facts.known[i], *facts.known_sprints[i]):
                if group[c] >= 1:
                    counts[group[c] - 1] += 1
        known_at.append(tuple(counts))
    running = [0, 0, 0]
    for i in range(size + 1):
        prog.known_before.append(tuple(running))
        for d in range(3):
            running[d] += known_at[i][d]
        prog.drawn.append(tuple(facts.caps[i][d] + running[d] for d in range(3)))
        cap = facts.caps[i]
        if i and min(cap) < 0:
            raise ValueError(f"inconsistent observation: position {i} uses more deck cards than drawn")
        prog.capg.append((prog.gavail[0], *(min(cap[d], prog.gavail[d + 1]) for d in range(3))))
    prog.known_at = known_at
    prog.pending_pos = size if facts.pending else -1
    deals = prog.measure == "deals"
    prog.slots = [
        (-1, *(prog.drawn[i][d] - prog.known_before[i][d] if deals else -1 for d in range(3)))
        for i in range(size + 1)
    ]
    # what a group's moves allow it at most (its cap and, deals, its free draws): read by the groups
    # before it in a stack (the room they must leave)
    prog.room_caps = [
        tuple(min(c, f) if f >= 0 else c for c, f in zip(prog.capg[i], prog.slots[i], strict=True))
        for i in range(size + 1)
    ]


def _values(prog: Programme, fixed: dict[int, int] | None) -> bool:
    """The values each position may hold (reachable from the start and on to the end), the
    footprint spans, and the failed series each position can still meet.  False if none fits."""
    facts, size, stack = prog.facts, prog.npos, prog.stack
    reach = reachable_values(facts)
    for i, v in (fixed or {}).items():
        reach[i] &= 1 << v
    spans = [0]
    prog.fixed_fp = [0]
    for i in range(1, size + 1):
        fp = sum(2 - c % 2 for c in facts.known_sprints[i])
        span = STEP_LIMIT + fp + 2 * stack[i]
        if facts.pending and i == size:
            span = facts.last  # the hand may pay
        prog.fixed_fp.append(fp)
        spans.append(span)
    prog.span = spans
    backward_ok = [0] * (size + 1)
    backward_ok[size] = reach[size] if size else 1
    for i in range(size - 1, -1, -1):
        backward_ok[i] = reach[i] & spread_down(backward_ok[i + 1], spans[i + 1])
    top = facts.last - 1
    prog.values = [[]] + [
        [v for v in cards_of(backward_ok[i]) if v <= top or not prog.hidden[i]] for i in range(1, size + 1)
    ]
    series = active_series(facts, None if fixed else reach)
    prog.active = [[]] + [
        [(j, numbers, deadline) for j, (numbers, deadline) in enumerate(series) if deadline >= i]
        for i in range(1, size + 1)
    ]
    return bool(backward_ok[0] & 1)


def _lookahead(prog: Programme) -> None:
    """The stacks that leave the next hideout room: a stack of ``LOOKAHEAD_STACK`` cards or more,
    before a face-down hideout, learns from its value move the groups that hideout can be of (the
    values in reach of this one; :attr:`~.programme.Programme.ahead`).  A value whose groups are
    all full then is dead; if one group only has room, the stack's moves leave it a card (the
    position's caps by that group, ``ahead_caps``).  States that would reach the next position
    without a hideout to take are never made (exact: their completions are 0)."""
    size, values, group = prog.npos, prog.values, prog.group_tab
    prog.ahead = [None] * (size + 1)
    prog.ahead_caps = [[(prog.capg[i], prog.room_caps[i])] for i in range(size + 1)]
    for i in range(1, size):
        if prog.stack[i] < LOOKAHEAD_STACK or not prog.hidden[i + 1]:
            continue
        nxt, span = values[i + 1], prog.span[i + 1]
        masks = [0] * 43
        for v in values[i]:
            mask = 0
            for x in nxt[bisect.bisect_right(nxt, v) : bisect.bisect_right(nxt, v + span)]:
                mask |= 1 << group[x] if group[x] >= 0 else 15
            masks[v] = mask
        prog.ahead[i] = tuple(masks)
        room_next = prog.room_caps[i + 1]
        for h in range(GROUPS):  # NEXT = h + 1: group h keeps a card's room for the next hideout
            caps, limits = list(prog.capg[i]), list(prog.room_caps[i])
            caps[h] = min(caps[h], room_next[h] - 1)
            limits[h] = min(limits[h], room_next[h] - 1)
            prog.ahead_caps[i].append((tuple(caps), tuple(limits)))


def _layers(prog: Programme, full: bool) -> None:
    """A value layer per position, then its stack's group layers (paired when only counting).

    The last stack needs no layers of its own unless a caller walks its groups (card locations,
    sampling): nothing follows it, so its completions are summed group by group, memoised."""
    size, stack = prog.npos, prog.stack
    prog.folded = bool(size and stack[size] and not full)
    prog.closing = not full
    for i in range(1, size + 1):
        prog.layers.append((i, VALUE, -1))
        if stack[i] and not (prog.folded and i == size):
            if prog.closing:  # groups composed in pairs (nothing reads the group labels then)
                prog.layers.extend((i, kind, g) for kind, g in PAIRED)
            else:
                prog.layers.extend((i, GROUP, g) for g in range(GROUPS))
    # when only counting, the last layer's moves end in final states: each edge is weighed by its
    # final weight at once (no layer of final states to store; the backward pass reads the sums)
    prog.tail = prog.closing and bool(prog.layers)


def _run(prog: Programme, start_ok: bool, max_edges: int | None) -> None:
    """Forward over the layers, keeping each layer's edges for the backward pass.  The layers'
    loops over their edges are :func:`~.kernel.push` (and, backward, :func:`~.kernel.pull`): a
    compiled implementation of them, when importable, does that work on native integers."""
    forward = Layers([kernel.native({0: 1} if start_ok else {})])  # native along the pass when compiled
    saved: list[Edges] = []
    edges = total = 0
    layers = prog.layers
    count_only = prog.count_only
    for t in range(len(layers)):
        if prog.tail and t == len(layers) - 1:
            if count_only:  # (forward[-1]: the tail sums read the states as a dict)
                kept, total, count = None, *_tail_total(prog, layers[t][0], forward[-1])
            else:
                kept, total, count = _tail_layer(prog, layers[t][0], forward[-1])
            forward.append({})
        else:
            layer, kept, count = _layer(prog, layers[t], _states(forward, -1))
            # keep states whose signed weight (the footprint identity) cancels to 0: the paths of
            # one hideout value through them need not cancel, and the marginals walk them backward
            forward.append(layer)
        if count_only:
            forward[-2] = {}  # read: only the total is wanted
        else:
            saved.append(kept)
        edges += count
        if max_edges is not None and edges > max_edges:
            raise BeliefTooLarge(f"more than {max_edges:,} edges to count this position's worlds")
    prog.forward, prog.edges, prog.saved = forward, edges, None if count_only else saved
    if prog.delta_memo:
        prog.delta_memo = {}  # served the forward pass: a programme kept in a cache holds none
    if prog.split_memo:
        prog.split_memo = {}
    if not prog.tail:
        for key, weight in forward[-1].items():
            fin = prog.final_weight(key)
            if fin:
                prog.finals[key] = fin
                total += weight * fin
    prog.total = total


def _layer(prog: Programme, layer: tuple[int, int, int], states: Any) -> tuple[Any, Edges, int]:
    """One layer forward: the next states' weights, the edges, their number.  The states (in and
    out) are dicts, or the compiled kernel's native states (:func:`~.kernel.native`)."""
    i, kind, g = layer
    if kind == PAIR:
        return _pair_layer(prog, i, g, states)
    if kind == VALUE:
        return _value_layer(prog, i, states)
    return _group_layer(prog, i, g, states)


def _group_layer(prog: Programme, i: int, g: int, states: Any) -> tuple[Any, Edges, int]:
    """A group layer forward (a full programme's stack, one group at a time): a source's moves add
    to it what depends only on the bits ``GROUP_READS[g]`` names (the stack's scratch, the counts
    the group's moves read; nothing closes in a full programme), so they are ``(delta, weight)``
    lists memoised on those bits, as a large pair layer's (:class:`ByReads` with ``deltas``; the
    moves' labels, the cards taken, are read by no pass over the kept edges)."""
    group_moves = prog._group_moves

    def miss(sig: int) -> list[tuple[int, int]]:
        return [(dst - sig, w) for dst, w, _ in group_moves(i, g, sig)]

    memo: dict[int, list[tuple[int, int]]] = {}
    out_states, count = kernel.push(states, GROUP_READS[g], -1, memo, miss)
    return out_states, ByReads(GROUP_READS[g], None, memo), count


def _value_layer(prog: Programme, i: int, states: Any) -> tuple[Any, Edges, int]:
    """A value layer forward.  A source's moves are ``base + delta`` for ``(delta, weight, value)``
    in a list memoised on the bits the moves read (``VALUE_READS``) and shared by every source with
    them, ``base`` the source's counts: the layer keeps that memo (:class:`ByReads`), the backward
    pass reads a source's moves from it again.  A value move that closes its position (no stack)
    folds in the groups it fills: those moves are the source's own, kept by source as ``(0, moves)``."""
    memo: dict[int, list[tuple[int, int, int]]] = {}
    closes = prog.closing and i != prog.npos and not prog.stack[i]  # the value move ends the position
    value_moves, memo_value_moves = prog._value_moves, prog._memo_value_moves
    if closes:
        kept: Edges = {}
        if kernel.COMPILED:  # each source its own signature (reads -1), its moves' destinations absolute

            def moves_of(src: int) -> list[tuple[int, int, int]]:
                out = memo_value_moves(i, src, memo, True)
                kept[src] = (0, out)
                return out

            out_states, count = kernel.push(states, -1, 0, {}, moves_of)
            return out_states, kept, count
        states = kernel.as_dict(states)
        acc: dict[int, int] = {}  # (the pure loop: no call or memo entry per source)
        get = acc.get
        count = 0
        for src, weight in states.items():
            out = memo_value_moves(i, src, memo, True)
            kept[src] = (0, out)
            count += len(out)
            for dst, w, _ in out:
                acc[dst] = get(dst, 0) + weight * w
        return acc, kept, count

    def miss(sig: int) -> list[tuple[int, int, int]]:  # the same entries as _memo_value_moves keeps
        low = sig & KEEP
        return [(dst - low, w, v) for dst, w, v in value_moves(i, sig, False) if w]

    out_states, count = kernel.push(states, VALUE_READS, KEEP, memo, miss)
    return out_states, ByReads(VALUE_READS, memo), count


def _pair_layer(prog: Programme, i: int, g: int, states: Any) -> tuple[Any, Edges, int]:
    """A pair of group layers forward (counting only): each source's moves are a memoised list of
    parts that complete the source's rest (:meth:`~.programme.Programme._pair_moves`, inlined); a
    large layer's are deltas (:func:`_delta_layer`)."""
    memo: dict[int, list[tuple[int, int]]] = {}
    closing = prog._pair_closes(i, g)
    reads = PAIR_READS[g] | HALVES[g] if closing else PAIR_READS[g]
    pair_hit = prog._pair_hit
    large = len(states) >= SHARE_OPEN
    if large and prog.delta_memo is None:
        prog.delta_memo = {}  # from now on the pairs' moves are shared between signatures (_open_deltas)
    if large:
        return _delta_layer(prog, i, g, states, closing)
    # a part has no bit outside ``reads`` (test_h1_kernel_loops), so the destination ``rest | part``
    # (``rest`` the source's other bits) is ``(src & ~reads) + part``
    out_states, count = kernel.push(states, reads, ~reads, memo, lambda sig: pair_hit(i, g, sig, closing))
    return out_states, ByReads(reads, memo), count


def _delta_layer(prog: Programme, i: int, g: int, states: Any, closing: bool) -> tuple[Any, Edges, int]:
    """A large pair layer: a source's moves are a ``(delta, weight)`` list, the destination
    ``source + delta`` (no rest split off per source).  Unclosed, the list is shared by every
    signature whose moves add the same (``Programme.delta_memo``); closing, by the signatures
    none of whose moves close (:meth:`~.programme.Programme._closed_deltas`: a large layer's
    signatures differ mostly by the pair's hideout counts, which its moves never read).  No list
    is made per signature but for the moves that close."""
    reads = PAIR_READS[g] | HALVES[g] if closing else PAIR_READS[g]
    memo: dict[int, list[tuple[int, int]]] = {}
    bare_moves: dict[int, list[tuple[int, int]]] = {}  # closing: the unclosed moves by bare signature
    open_deltas, closed_deltas = prog._open_deltas, prog._closed_deltas

    def miss(sig: int) -> list[tuple[int, int]]:
        return closed_deltas(i, g, sig, bare_moves) if closing else open_deltas(i, g, sig)

    out_states, count = kernel.push(states, reads, -1, memo, miss)
    if prog.closing and not prog.count_only:
        # the card locations' walk reads the unclosed moves again, made into parts when it asks
        prog.open_memos[(i, g)] = DeltaMoves(bare_moves if closing else memo)
    return out_states, ByReads(reads, None, memo), count


def _tail_layer(prog: Programme, i: int, states: dict[int, int]) -> tuple[Edges, int, int]:
    """The last (value) layer when only counting: its moves end in final states, so each source's
    completions and the last position's value tallies are summed here, forward (the backward pass
    reads them).  Returns the completions by source, the total weight and the number of edges.

    The moves are memoised on the bits they read (:meth:`~.programme.Programme._tail_moves`),
    grouped by the counts the hideout adds; a final weight depends on the counts and on the need
    only, so each source looks its weights up once per group (by need), not once per move.  A large
    layer is summed as a bilinear form of the last stack's halves instead (:mod:`~.tail_sums`)."""
    states = kernel.as_dict(states)  # (a caller's native states: the tail sums read a dict)
    hit = tail_sums.tail_layer(prog, i, states)
    if hit is not None:
        return hit
    fins_of = prog._fins_by_need
    groups_memo: dict[int, list[tuple[int, int, list[tuple[int, int, int]]]]] = {}
    fins_memo: dict[int, list[int]] = {}
    unmarked: dict[int, int] = {}
    back: Edges = {}
    tally = [0] * 43
    total = count = 0
    tail_moves = prog._tail_moves
    for src, weight in states.items():
        sig = src & VALUE_READS
        groups = groups_memo.get(sig)
        if groups is None:
            groups = groups_memo[sig] = tail_moves(i, sig)
        base = src & KEEP
        b = 0
        for inc, top, items in groups:
            key = base + inc
            count += len(items)
            if not top:  # no hideout of this class needs an even card: the unmarked weight alone
                x = unmarked.get(key)
                if x is None:
                    x = unmarked[key] = fins_of(key, 0)[0]
                if x:
                    for _, w, v in items:
                        y = x * w
                        b += y
                        tally[v] += weight * y
                continue
            fins = fins_memo.get(key)
            if fins is None or len(fins) <= top:
                fins = fins_memo[key] = fins_of(key, top)
            for need, w, v in items:
                if need < len(fins):
                    x = fins[need]
                    if x:
                        x *= w
                        b += x
                        tally[v] += weight * x
        if b:
            back[src] = b
            total += weight * b
    prog.tail_tally = tally
    return back, total, count


def _tail_total(prog: Programme, i: int, states: dict[int, int]) -> tuple[int, int]:
    """:func:`_tail_layer` for the total alone (``count_only``): a source's moves of one hideout
    class are summed by need first (the values' tallies are not wanted), no completion kept by
    source.  Returns the total weight and the number of edges.  A large layer is summed as a
    bilinear form of the last stack's halves instead (:mod:`~.tail_sums`)."""
    states = kernel.as_dict(states)  # (a caller's native states: the tail sums read a dict)
    hit = tail_sums.tail_total(prog, i, states)
    if hit is not None:
        return hit
    fins_of = prog._fins_by_need
    groups_memo: dict[int, list[tuple[int, int, int, int, list[tuple[int, int]]]]] = {}
    fins_memo: dict[int, list[int]] = {}
    unmarked: dict[int, int] = {}
    total = count = 0
    tail_moves = prog._tail_moves
    for src, weight in states.items():
        sig = src & VALUE_READS
        groups = groups_memo.get(sig)
        if groups is None:
            groups = []
            for inc, top, items in tail_moves(i, sig):
                by_need: dict[int, int] = {}
                for need, w, _ in items:
                    by_need[need] = by_need.get(need, 0) + w
                merged = sorted(by_need.items())
                groups.append((inc, top, len(items), sum(by_need.values()), merged))
            groups_memo[sig] = groups
        base = src & KEEP
        b = 0
        for inc, top, n_items, w_sum, merged in groups:
            key = base + inc
            count += n_items
            if not top:  # no hideout of this class needs an even card: the unmarked weight alone
                x = unmarked.get(key)
                if x is None:
                    x = unmarked[key] = fins_of(key, 0)[0]
                b += x * w_sum
                continue
            fins = fins_memo.get(key)
            if fins is None or len(fins) <= top:
                fins = fins_memo[key] = fins_of(key, top)
            size = len(fins)
            for need, w in merged:
                if need < size:
                    b += fins[need] * w
        if b:
            total += weight * b
    return total, count


def _back_moves(prog: Programme, t: int, kept: ByReads, nxt: Any) -> Any:
    """The completions from each source of a pair of group layers or of a group layer (no label to
    tally there): a source's moves are its signature's memoised parts, added to the rest of its
    bits, or (a large pair layer, a group layer) its signature's deltas, added to it."""
    reads, deltas = kept.reads, kept.deltas
    if deltas is not None:  # a source's moves add to it (_delta_layer, _group_layer)
        return kernel.pull(_states(prog.forward, t), reads, -1, deltas, nxt)
    # rest | part, the rest the source's bits outside reads: (src & ~reads) + part (see _pair_layer)
    return kernel.pull(_states(prog.forward, t), reads, ~reads, kept.memo, nxt)


def _back_value(prog: Programme, t: int, nxt: Any, tally: list[int] | None) -> Any:
    """The completions from each source of a value layer, and the values' tallies if the
    position is face down (``tally``).  ``nxt`` and the result: dicts, or native states."""
    kept = prog.saved[t] if prog.saved is not None else None
    states = _states(prog.forward, t)
    if isinstance(kept, ByReads):
        if tally is None:
            return kernel.pull(states, VALUE_READS, KEEP, kept.memo, nxt)
        return kernel.pull_tally(states, VALUE_READS, KEEP, kept.memo, nxt, tally)
    if kept is not None and kernel.COMPILED:  # a value layer that closes: its moves by source
        moves = {src: out for src, (_, out) in kept.items()}
        if tally is None:
            return kernel.pull(states, -1, 0, moves, nxt)
        return kernel.pull_tally(states, -1, 0, moves, nxt, tally)
    cur: dict[int, int] = {}
    get = kernel.as_dict(nxt).get
    for src, fw in prog.forward[t].items():  # (the pure loop: no dict of the moves by source)
        base, out = kept[src] if kept is not None else (0, prog.moves(t, src))
        b = 0
        for delta, w, label in out:
            x = get(base + delta)
            if x:
                x *= w
                b += x
                if tally is not None:
                    tally[label] += fw * x
        if b:
            cur[src] = b
    return cur


def backward(prog: Programme) -> list[dict[int, int]]:
    """Completions from every live state, and the value marginals of the hidden positions."""
    if prog.back is not None:
        return prog.back
    if prog.count_only:
        raise ValueError("a programme built with count_only has no backward pass")
    count = len(prog.layers)
    back = Layers([{} for _ in range(count + 1)])
    back[count] = dict(prog.finals)
    marginals: dict[int, list[int]] = {}
    for t in range(count - 1, -1, -1):
        i, kind, _ = prog.layers[t]
        nxt, cur = _states(back, t + 1), _states(back, t)
        tally = None
        if kind == VALUE and prog.hidden[i]:
            tally = marginals.setdefault(i, [0] * 43)
        kept = prog.saved[t] if prog.saved is not None else None
        if prog.tail and t == count - 1:  # summed forward (:func:`_tail_layer`)
            assert kept is not None
            cur.update(kept)
            if tally is not None:
                for v, y in enumerate(prog.tail_tally):
                    if y:
                        tally[v] += y
            continue
        if kind == VALUE:
            back[t] = _back_value(prog, t, nxt, tally)
        elif isinstance(kept, ByReads):  # a pair of group layers, or a group layer
            back[t] = _back_moves(prog, t, kept, nxt)
        else:
            get = kernel.as_dict(nxt).get
            for src in prog.forward[t]:
                b = 0
                for dst, w, _ in prog.moves(t, src):
                    x = get(dst)
                    if x:
                        b += x * w
                if b:
                    cur[src] = b
    prog.back, prog.marginals = back, marginals
    prog.saved = None  # the edges served their turn: free them
    return back
