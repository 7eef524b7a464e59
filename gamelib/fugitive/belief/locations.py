"""Where each unseen card can be (a sprint stack, the fugitive's hand, a deck), exactly.

By symmetry inside a class, a card's chance to lie under a stack or in the hand is the share of its
class's non-hideout cards there, less its share when it is itself a hideout: a backward pass of
those shares over the programme's layers.
"""

from __future__ import annotations

import math
from itertools import repeat

try:
    import numpy as np
except ImportError:  # pragma: no cover - matplotlib brings numpy; the pure-Python path stays
    np = None  # type: ignore[assignment]

from gamelib.fugitive.belief.bits import H_SH, HE_SH, JM, LOWER, M_SH, NEED, U_SH, VALUE
from gamelib.fugitive.belief.programme import Programme
from gamelib.fugitive.belief.tables import CLASSES, GROUPS, coef, falling
from gamelib.fugitive.rules import cards_of

Convolved = list[tuple[int, list[int]]]
"""Per number of marked even cards in the hand: (weight, per group [sprint odd, sprint even,
hand odd, hand even] sums) of the completions."""


def shares(
    prog: Programme, state: int, memo: dict[tuple[int, int, int], Convolved] | None = None
) -> list[float]:
    """Per class: the completions of ``state`` weighted by the share of the class's non-hideout
    cards under sprint stacks (entries 2c) and in the hand (entries 2c + 1).

    The sums are exact integers until the last division by the class's free cards: the unmarked
    cards of a group are a uniform choice from its pool, and ``falling(pool, f) * f / pool`` and
    ``falling(pool, f) * C(pool - f, r) * r / pool`` are integers.  The groups' sums read only
    the groups' counts: ``memo`` keeps them (:func:`_convolved`).
    """
    facts = prog.facts
    need = (state >> NEED) & 127 if facts.pending else 0
    marks = (state >> JM) & 63 if facts.pending else 0
    limit = prog.hand_count if need else 0
    conv = _convolved(prog, state, limit, {} if memo is None else memo)
    return _finish(prog, state, conv, marks, need)


def _convolved(
    prog: Programme, state: int, limit: int, memo: dict[tuple[int, int, int], Convolved]
) -> Convolved:
    """The groups' completions and share sums of ``state``, convolved over the hand's marks.

    The sums over groups 0..g read only those groups' counts (``LOWER[g]``): ``memo`` keeps every
    such prefix by ``g`` and those counts, so final states that share their first groups' counts share that work."""
    deals = prog.measure == "deals"
    zero = [0] * (4 * GROUPS)
    # per group, per hand-mark count: (weight, [sprint odd, sprint even, hand odd, hand even] sums)
    conv: list[tuple[int, list[int]]] = [(1, zero)]
    first = 0
    for g in range(GROUPS - 1, -1, -1):
        hit = memo.get((g, state & LOWER[g], limit))
        if hit is not None:
            conv, first = hit, g + 1
            break
    for g in range(first, GROUPS):
        weights = prog._group_weights(state, g, limit)
        u = (state >> U_SH[g]) & 31
        h = (state >> H_SH[g]) & 15
        he = (state >> HE_SH[g]) & 15
        m = (state >> M_SH[g]) & 15
        a = prog.gavail[g]
        evens, odds = prog.avail[2 * g + 1] - he, prog.avail[2 * g] - (h - he)
        f = u - h - m
        hand = a - u if g == 0 else prog.fug[g] - u
        base = falling(evens, m) * (math.factorial(hand) if deals and g else 1)
        part: list[tuple[int, list[int]]] = []
        for jp, w in enumerate(weights):
            if not w:
                part.append((0, [0, 0, 0, 0]))
                continue
            pool = a - h - m - jp
            rest = hand - jp
            core = base * math.comb(evens - m, jp)
            spr = core * f * falling(pool - 1, f - 1) * math.comb(pool - f, rest) if f else 0
            hnd = core * falling(pool - 1, f) * math.comb(pool - f - 1, rest - 1) if rest else 0
            free_evens = evens - m - jp
            part.append((w, [spr * odds, m * w + spr * free_evens, hnd * odds, jp * w + hnd * free_evens]))
        nxt: dict[int, tuple[int, list[int]]] = {}
        for a_, (w1, x1) in enumerate(conv):
            if not w1:
                continue
            for b_, (w2, x2) in enumerate(part):
                if not w2:
                    continue
                x = [v * w2 for v in x1]
                for q in range(4):
                    x[4 * g + q] += w1 * x2[q]
                old = nxt.get(a_ + b_)
                if old is None:
                    nxt[a_ + b_] = (w1 * w2, x)
                else:
                    nxt[a_ + b_] = (old[0] + w1 * w2, [p + q for p, q in zip(old[1], x, strict=True)])
        conv = [nxt.get(k, (0, zero)) for k in range(max(nxt, default=-1) + 1)]
        memo[g, state & LOWER[g], limit] = conv
    return conv


def _finish(prog: Programme, state: int, conv: Convolved, marks: int, need: int) -> list[float]:
    """The share sums weighed by the footprint identity's coefficient, per class, divided by the
    class's free cards."""
    facts = prog.facts
    sums = [0] * (2 * CLASSES)
    for jp, (_, x) in enumerate(conv):
        c = coef(marks + jp, need) if facts.pending else 1
        if not c:
            continue
        for g in range(GROUPS):
            for parity in range(2):
                cls = 2 * g + parity
                sums[2 * cls] += c * x[4 * g + parity]
                sums[2 * cls + 1] += c * x[4 * g + 2 + parity]
    out = [0.0] * (2 * CLASSES)
    for g in range(GROUPS):
        h = (state >> H_SH[g]) & 15
        he = (state >> HE_SH[g]) & 15
        free = (prog.avail[2 * g] - (h - he), prog.avail[2 * g + 1] - he)
        for parity in range(2):
            if free[parity]:
                cls = 2 * g + parity
                out[2 * cls] = sums[2 * cls] / free[parity]
                out[2 * cls + 1] = sums[2 * cls + 1] / free[parity]
    return out


def card_locations(
    prog: Programme, hideout: tuple[float, ...]
) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
    """P(sprint), P(hand), P(deck) per number.

    For a card ``v`` of class ``c``, by symmetry among the class's cards that are not hideouts,
    P(v sprint) = E[rho] - E[rho 1(v hideout)] with rho the share of class-``c`` non-hideout
    cards under sprint stacks (likewise for the hand); the second term needs a backward pass of
    rho, for the classes a hideout can come from.
    """
    facts = prog.facts
    saved, prog.saved = prog.saved, None  # the forward edges, if still kept: walked once more here
    class_of = facts.tables.class_of
    # every final state, even one whose signed weight (the footprint identity) cancels to 0:
    # its weighted shares need not cancel
    memo: dict[tuple[int, int, int], Convolved] = {}
    share_of = {key: shares(prog, key, memo) for key in prog.forward[-1]}
    share_of = {key: s for key, s in share_of.items() if any(s)}
    interest = sorted(
        {class_of[v] for i in range(1, facts.size + 1) if prog.hidden[i] for v in prog.values[i]}
    )
    width = 2 * len(interest)
    back: dict[int, list[float]] = {
        k: [s[2 * c + q] for c in interest for q in (0, 1)] for k, s in share_of.items()
    }
    joint = (_joint_numpy if np is not None else _joint_python)(prog, saved, back, width)
    expect = [0.0] * (2 * CLASSES)
    last = prog.forward[-1]
    for key, s in share_of.items():
        w = last[key]
        for j in range(2 * CLASSES):
            expect[j] += w * s[j]
    sprint = [0.0] * 43
    hand = [0.0] * 43
    deck = [0.0] * 43
    total = float(prog.total)
    for v in cards_of(facts.unknown):
        c = class_of[v]
        in_sprint, in_hand = expect[2 * c], expect[2 * c + 1]
        if c in interest:
            k = 2 * interest.index(c)
            in_sprint -= joint[k][v]
            in_hand -= joint[k + 1][v]
        sprint[v] = max(0.0, in_sprint / total)
        hand[v] = max(0.0, in_hand / total)
        deck[v] = max(0.0, 1.0 - hideout[v] - sprint[v] - hand[v])
    if facts.holds_last:
        hand[facts.last] = 1.0
    return tuple(sprint), tuple(hand), tuple(deck)


Saved = list[dict[int, list[tuple[int, int, int]]]] | None


def _joint_python(
    prog: Programme, saved: Saved, back: dict[int, list[float]], width: int
) -> list[list[float]]:
    """The backward pass of the shares in pure Python: per share, per number, the weight of the
    worlds where that number is a face-down hideout, times the share (the pure-Python path)."""
    joint = [[0.0] * 43 for _ in range(width)]
    for t in range(len(prog.layers) - 1, -1, -1):
        i, kind, _ = prog.layers[t]
        cur: dict[int, list[float]] = {}
        record = kind == VALUE and prog.hidden[i]
        kept = saved[t] if saved is not None else None
        for src, fw in prog.forward[t].items():
            acc = [0.0] * width
            live = False
            for dst, w, label in kept[src] if kept is not None else prog.moves(t, src):
                b = back.get(dst)
                if b is None:
                    continue
                live = True
                for k in range(width):
                    acc[k] += w * b[k]
                if record:
                    for k in range(width):
                        joint[k][label] += fw * w * b[k]
            if live:
                cur[src] = acc
        back = cur
    return joint


def _joint_numpy(
    prog: Programme, saved: Saved, back: dict[int, list[float]], width: int
) -> list[list[float]]:
    """:func:`_joint_python` with each layer's edges as arrays: the edges are listed once in
    Python (their destinations looked up), the width-wide sums run in numpy (the pure-Python
    pass spent most of its time on them: 2-4 s on the hardest random-play positions)."""
    assert np is not None
    joint = np.zeros((width, 43))
    rows = {key: r for r, key in enumerate(back)}
    table = np.array(list(back.values()), dtype=float).reshape(len(rows), width).T  # share by state
    for t in range(len(prog.layers) - 1, -1, -1):
        i, kind, _ = prog.layers[t]
        states = prog.forward[t]
        kept = saved[t] if saved is not None else None
        outs = [kept[src] if kept is not None else prog.moves(t, src) for src in states]
        edges = [e for out in outs for e in out]
        if not edges:
            rows, table = {}, np.zeros((width, 0))
            continue
        targets = [e[0] for e in edges]
        weights = [e[1] for e in edges]
        labels = [e[2] for e in edges]
        dst = np.fromiter(map(rows.get, targets, repeat(-1)), dtype=np.int64, count=len(edges))
        live = dst >= 0
        dst = dst[live]
        nsrc = len(outs)
        src = np.repeat(np.arange(nsrc), [len(out) for out in outs])[live]
        weight = np.fromiter(map(float, weights), dtype=float, count=len(edges))[live]
        acc = np.empty((width, nsrc))
        if kind == VALUE and prog.hidden[i]:
            label = np.fromiter(labels, dtype=np.int64, count=len(edges))[live]
            fw = np.fromiter(map(float, states.values()), dtype=float, count=nsrc)[src] * weight
            for k in range(width):
                column = table[k][dst]
                acc[k] = np.bincount(src, weights=column * weight, minlength=nsrc)
                joint[k] += np.bincount(label, weights=column * fw, minlength=43)
        else:
            for k in range(width):
                acc[k] = np.bincount(src, weights=table[k][dst] * weight, minlength=nsrc)
        reached = np.zeros(nsrc, dtype=bool)
        reached[src] = True
        keys = list(states)
        kept_rows = np.flatnonzero(reached)
        rows = {keys[r]: n for n, r in enumerate(kept_rows.tolist())}
        table = acc[:, kept_rows]
    return [list(map(float, joint[k])) for k in range(width)]
