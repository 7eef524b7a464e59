"""Determinization: a full world the seat cannot tell from the real game, sampled exactly.

For the detective's seat the world is drawn from the exact belief's measure, never by rejection:

1. the hideout values and, per face-down stack, how many cards of each group it holds, one layer
   at a time through the full programme.  The walk keeps every programme state that agrees with
   the labels drawn so far (they differ only in the footprint identity's marks), so the weight of
   each next label is an exact count of worlds (a sum of signed terms that is never negative);
2. which cards: given those counts every choice of cards is equally likely under both measures
   (the deal weights read counts only), except that a stack must hold enough even cards to pay
   its footprints.  The stacks that need some even cards (rarely more than two) share out the
   even cards through a small exact count; the other stacks, the hand and the decks take the
   rest uniformly;
3. which deal brought each card, uniformly among the valid orders (:mod:`.deals`).

The world is the real state cloned with its hidden fields and history rewritten (no replay), so
a draw costs a fraction of a millisecond once the programme of the information state is built;
the programme and its backward pass are cached (:data:`~.probabilities.SAMPLERS`).  Every draw
walks the counting programme (:class:`CountSampler`: the count a belief builds, a third to a
quarter of the full programme's cost, with the same exact weights), so an agent drawing a few
worlds per position never pays for the full programme, and a search drawing thousands walks a
tree that grows no slower (3,000 draws on hard positions: 1.6x faster than switching to the
full programme after 64).  One walk for every draw also keeps :meth:`determinize` a function of
the position and the rng alone: a sampler that changed after some draws gave a different world
from the same rng once the caches were warm.  The full programme's sampler (:class:`Sampler`,
:func:`walk`) stays as the independent walk the tests check the count sampler's law against.  The two
relaxations of the count (:attr:`Belief.exact` False: edition 2's stuck first turn, canonical
order mid-stack) are the only case where a drawn world is replayed and, if the rules refuse it,
drawn again.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from dataclasses import dataclass, field

from gamelib.fugitive.belief.bits import GROUP, HALVES, KEEP, LEFT, NEED, PAIR_READS, VALUE, VALUE_READS
from gamelib.fugitive.belief.build import backward
from gamelib.fugitive.belief.deals import assign_slots, deal_slots, determinize_fugitive, pick, replay
from gamelib.fugitive.belief.facts import Facts, facts_from_state, facts_key
from gamelib.fugitive.belief.probabilities import _COUNTED as COUNTED
from gamelib.fugitive.belief.probabilities import SAMPLERS, SAMPLERS_SIZE, programme_for
from gamelib.fugitive.belief.programme import Programme
from gamelib.fugitive.belief.tables import GROUPS, MEASURES
from gamelib.fugitive.rules import (
    DEALS,
    DETECTIVE,
    F_SPRINT,
    FUGITIVE,
    HIDES,
    SPRINTS,
    STEP_LIMIT,
    FugitiveState,
    Hide,
    Sprint,
    footprints,
)

NODES_KEPT = 100_000
"""Prefix nodes a sampler keeps before starting its tree again."""
MOVES_KEPT = 200_000
"""Memoised moves a sampler keeps (each a short list)."""
RELAXED_ATTEMPTS = 10_000
"""Draws tried when the count relaxes a rule (``Belief.exact`` False) before giving up."""


def determinize(
    state: FugitiveState, player: int, rng: random.Random, measure: str = "deals"
) -> FugitiveState:
    """A full state consistent with ``state.observation(player)``, sampled exactly from ``measure``.

    The detective's seat samples a fugitive world from the chosen measure (see :func:`belief`:
    ``"deals"`` weighs a world by its deal orders, ``"worlds"`` counts each once), then one of
    the deal orders that produce it uniformly; the fugitive's seat samples the detective's hand
    uniformly among hands that never named one of its own cards (the two measures agree there:
    every hand has as many deal orders).  The history is rewritten to match (deals, hides,
    sprints), so the world's record replays to itself.
    """
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {MEASURES}, got {measure!r}")
    if player == DETECTIVE:
        return _determinize_detective(state, rng, measure)
    if player == FUGITIVE:
        return determinize_fugitive(state, rng)
    raise ValueError(f"player must be 0 (fugitive) or 1 (detective), got {player!r}")


class Node:
    """One prefix of labels in a sampler's walk: the programme states that agree with it (until
    its labels are weighed), then its labels with their cumulative exact weights, and the nodes
    one label further (made on first visit).  Repeated draws at one position walk this tree down
    by bisection and weigh a prefix only once."""

    __slots__ = ("ahead", "children", "cumulative", "current", "labels")

    def __init__(self, current: dict[int, int]) -> None:
        self.current: dict[int, int] | None = current
        self.labels: list[int] = []
        self.cumulative: list[int] = []
        self.ahead: dict[int, dict[int, int]] = {}
        self.children: dict[int, Node] = {}


@dataclass
class Sampler:
    """A walk of the full programme (every stack folded into pair layers, no closed forms): its
    backward pass, the moves met so far (memoised by layer and state) and the tree of label
    prefixes drawn.  Draws do not use it; it is the independent walk whose law the tests compare
    :class:`CountSampler`'s with."""

    facts: Facts
    prog: Programme
    back: list[dict[int, int]]
    moves: dict[tuple[int, int], list[tuple[int, int, int]]] = field(default_factory=dict)
    root: Node = field(default_factory=lambda: Node({0: 1}))
    nodes: int = 0
    splits: dict[tuple[object, ...], dict[tuple[int, tuple[int, ...]], int]] = field(default_factory=dict)

    def moves_of(self, t: int, src: int) -> list[tuple[int, int, int]]:
        key = (t, src)
        hit = self.moves.get(key)
        if hit is None:
            if len(self.moves) >= MOVES_KEPT:
                self.moves.clear()  # memory stays bounded on the largest programmes
            hit = self.moves[key] = [move for move in self.prog.moves(t, src) if move[1]]
        return hit

    def weigh(self, t: int, node: Node) -> None:
        """The labels of layer ``t`` after ``node``'s prefix, each weighed by an exact count:
        ``forward * move * backward`` summed over the states that agree with the prefix.  A state
        whose backward sum cancels to 0 stays: the footprint identity's signed terms cancel over
        all its completions, not over those of one label."""
        nxt = self.back[t + 1]
        totals: dict[int, int] = {}
        ahead: dict[int, dict[int, int]] = {}
        assert node.current is not None
        for src, fw in node.current.items():
            for dst, w, label in self.moves_of(t, src):
                x = fw * w
                totals[label] = totals.get(label, 0) + x * nxt.get(dst, 0)
                states = ahead.get(label)
                if states is None:
                    states = ahead[label] = {}
                states[dst] = states.get(dst, 0) + x
        running = 0
        for label, total in totals.items():
            if total > 0:
                running += total
                node.labels.append(label)
                node.cumulative.append(running)
        if not node.labels:
            raise AssertionError(f"determinize: no world continues at layer {t}")
        node.ahead = {label: ahead[label] for label in node.labels}
        node.current = None


def _full_sampler(facts: Facts, measure: str) -> Sampler:
    """The full programme's sampler of ``facts`` (the tests' reference walk)."""
    prog = programme_for(facts, measure, full=True)
    if prog.total == 0:
        raise ValueError("inconsistent observation: no fugitive world explains it")
    return Sampler(facts, prog, backward(prog))


def _keep(key: tuple[object, ...], sampler: object) -> None:
    SAMPLERS.pop(key, None)
    if len(SAMPLERS) >= SAMPLERS_SIZE:
        SAMPLERS.pop(next(iter(SAMPLERS)))
    SAMPLERS[key] = sampler


PAIR_LABEL = 64
"""A pair layer's label: ``k1 * PAIR_LABEL + k2``, the cards its two groups give the stack."""


@dataclass
class CountSampler:
    """The first draws at one information state, read from the counting programme (the one
    :func:`~.probabilities.belief` builds: a fraction of the full programme's cost).

    The walk is :func:`walk`'s, down the count's layers: the hideout values at the value layers,
    the cards each group gives a stack at the pair layers (their moves enumerated with their
    labels, then closed as the count closes them, so that they reach the states its backward
    pass weighed; a state only cancelling moves reached is weighed on demand), and the last
    stack, which the count sums in closed form, through its four group layers run from the
    states the last value leaves (unfolded final weights, a few states).  Every label is weighed
    by exact counts, so a world is drawn exactly as from the full sampler."""

    facts: Facts
    prog: Programme
    root: Node = field(default_factory=lambda: Node({0: 1}))
    nodes: int = 0
    draws: int = 0
    splits: dict[tuple[object, ...], dict[tuple[int, tuple[int, ...]], int]] = field(default_factory=dict)
    value_memo: dict[int, dict[int, list[tuple[int, int, int]]]] = field(default_factory=dict)
    pair_memo: dict[int, dict[int, list[tuple[int, int, int]]]] = field(default_factory=dict)
    tail_memo: dict[int, list[tuple[int, int, list[tuple[int, int, int]]]]] = field(default_factory=dict)
    fins_memo: dict[int, list[int]] = field(default_factory=dict)
    missing: dict[tuple[int, int], int] = field(default_factory=dict)
    last_memo: dict[tuple[int, int], int] = field(default_factory=dict)

    def moves(self, t: int, src: int) -> list[tuple[int, int, int]]:
        """The count's moves from ``src`` through layer ``t``, closed as the count closed them,
        with their labels (a value; a pair layer's cards per group)."""
        prog = self.prog
        i, kind, g = prog.layers[t]
        if kind == VALUE:
            closes = prog.closing and i != prog.npos and not prog.stack[i]
            return prog._memo_value_moves(i, src, self.value_memo.setdefault(t, {}), closes)
        closing = prog._pair_closes(i)
        sig = src & (PAIR_READS[g] | HALVES[g] if closing else PAIR_READS[g])
        memo = self.pair_memo.setdefault(t, {})
        hit = memo.get(sig)
        if hit is None:
            hit = memo[sig] = self._pair_labelled(i, g, sig, closing)
        rest = src ^ sig
        return [(rest | d, w, label) for d, w, label in hit]

    def _pair_labelled(self, i: int, g: int, sig: int, closing: bool) -> list[tuple[int, int, int]]:
        """:meth:`~.programme.Programme._pair_hit` with the labels kept: the moves of one label
        to one state summed, not those of different labels."""
        prog = self.prog
        acc: dict[tuple[int, int], int] = {}
        fields, tag = HALVES[g], g << LEFT
        for mid, w1, k1 in prog._group_moves(i, g, sig, False):
            for dst, w2, k2 in prog._group_moves(i, g + 1, mid, False):
                w = w1 * w2
                if not w:
                    continue
                if closing:
                    part = dst & fields
                    shut = prog.part_memo.get(part | tag)
                    if shut is None:
                        shut = prog.part_memo[part | tag] = prog._close_part(part, g)
                    if not shut[1]:
                        continue
                    dst = (dst ^ part) | shut[0]
                    w *= shut[1]
                key = (dst, k1 * PAIR_LABEL + k2)
                acc[key] = acc.get(key, 0) + w
        return [(dst, w, label) for (dst, label), w in acc.items() if w]

    def completions(self, t: int, state: int) -> int:
        """The weight of every completion of ``state`` from layer ``t``: the count's backward pass,
        or, for a state the count never reached, the same sum taken here."""
        prog = self.prog
        assert prog.back is not None
        if state in prog.forward[t]:
            return prog.back[t].get(state, 0)
        key = (t, state)
        hit = self.missing.get(key)
        if hit is None:
            if t == len(prog.layers) - 1:
                totals: dict[int, int] = {}
                self._weigh_tail(t, {state: 1}, totals, None)
                hit = sum(totals.values())
            else:
                hit = sum(w * self.completions(t + 1, dst) for dst, w, _ in self.moves(t, state))
            self.missing[key] = hit
        return hit

    def weigh(self, t: int, node: Node) -> None:
        """As :meth:`Sampler.weigh`, over the count's layers; its last layer ends in final weights
        read by need (:func:`~.build._tail_layer`)."""
        prog = self.prog
        assert node.current is not None and prog.back is not None
        totals: dict[int, int] = {}
        ahead: dict[int, dict[int, int]] = {}
        if t == len(prog.layers) - 1:
            self._weigh_tail(t, node.current, totals, ahead)
        else:
            nxt, reached = prog.back[t + 1], prog.forward[t + 1]
            for src, fw in node.current.items():
                for dst, w, label in self.moves(t, src):
                    x = fw * w
                    b = nxt.get(dst)
                    if b is None:
                        b = 0 if dst in reached else self.completions(t + 1, dst)
                    totals[label] = totals.get(label, 0) + x * b
                    states = ahead.get(label)
                    if states is None:
                        states = ahead[label] = {}
                    states[dst] = states.get(dst, 0) + x
        _label(node, totals, ahead, t)

    def _weigh_tail(
        self, t: int, current: dict[int, int], totals: dict[int, int], ahead: dict[int, dict[int, int]] | None
    ) -> None:
        """The last value layer: per value, its final weights by need (the last stack summed in
        closed form), and the states it leaves for the last stack's walk."""
        prog = self.prog
        i = prog.layers[t][0]
        fins_memo, tail_memo = self.fins_memo, self.tail_memo
        for src, fw in current.items():
            sig = src & VALUE_READS
            groups = tail_memo.get(sig)
            if groups is None:
                groups = tail_memo[sig] = prog._tail_moves(i, sig)
            base = src & KEEP
            for inc, top, items in groups:
                key = base + inc
                fins = fins_memo.get(key)
                if fins is None or len(fins) <= top:
                    fins = fins_memo[key] = prog._fins_by_need(key, top)
                for need, w, v in items:
                    if need < len(fins) and fins[need]:
                        x = fw * w
                        totals[v] = totals.get(v, 0) + x * fins[need]
                        if ahead is not None:
                            states = ahead.get(v)
                            if states is None:
                                states = ahead[v] = {}
                            dst = key | need << NEED
                            states[dst] = states.get(dst, 0) + x

    def last_completions(self, g: int, state: int) -> int:
        """The completions of a state of the last stack before its group ``g`` (4: final)."""
        key = (g, state)
        hit = self.last_memo.get(key)
        if hit is None:
            prog = self.prog
            if g == GROUPS:
                folded = prog.folded
                prog.folded = False  # the stack's cards are shared out: the plain final weight
                try:
                    hit = prog.final_weight(state)
                finally:
                    prog.folded = folded
            else:
                i = prog.npos
                hit = sum(
                    w * self.last_completions(g + 1, dst)
                    for dst, w, _ in prog._group_moves(i, g, state, False)
                )
            self.last_memo[key] = hit
        return hit

    def weigh_last(self, g: int, node: Node) -> None:
        """The last stack's group ``g``: how many cards it gives, weighed exactly."""
        prog = self.prog
        assert node.current is not None
        totals: dict[int, int] = {}
        ahead: dict[int, dict[int, int]] = {}
        for src, fw in node.current.items():
            for dst, w, k in prog._group_moves(prog.npos, g, src, False):
                x = fw * w
                totals[k] = totals.get(k, 0) + x * self.last_completions(g + 1, dst)
                states = ahead.get(k)
                if states is None:
                    states = ahead[k] = {}
                states[dst] = states.get(dst, 0) + x
        _label(node, totals, ahead, g)

    def draw(self, rng: random.Random) -> tuple[list[int], list[list[int]]]:
        """The hideout values and per-stack group counts of one world, with exact weights."""
        prog, facts = self.prog, self.facts
        values = list(facts.known)
        counts = [[0] * GROUPS for _ in range(facts.size + 1)]
        if self.nodes > NODES_KEPT:
            self.root, self.nodes = Node({0: 1}), 0  # memory stays bounded
        if len(self.missing) > MOVES_KEPT:
            self.missing.clear()
            self.last_memo.clear()
        node = self.root
        steps = [(t, layer) for t, layer in enumerate(prog.layers)]
        last = prog.npos if prog.folded else -1
        steps += [(g, (last, GROUP, g)) for g in range(GROUPS) if last > 0]
        for n, (t, (i, kind, g)) in enumerate(steps):
            if node.current is not None:
                if kind == GROUP:
                    self.weigh_last(t, node)
                else:
                    self.weigh(t, node)
            cumulative = node.cumulative
            j = bisect.bisect_right(cumulative, rng.randrange(cumulative[-1])) if len(cumulative) > 1 else 0
            label = node.labels[j]
            if kind == VALUE:
                values[i] = label
            elif kind == GROUP:
                counts[i][g] = label
            else:
                counts[i][g], counts[i][g + 1] = divmod(label, PAIR_LABEL)
            if n == len(steps) - 1:
                break
            child = node.children.get(label)
            if child is None:
                child = node.children[label] = Node(node.ahead.pop(label))
                self.nodes += 1
            node = child
        self.draws += 1
        return values, counts


def _label(node: Node, totals: dict[int, int], ahead: dict[int, dict[int, int]], t: int) -> None:
    """A node's labels with their cumulative weights (the positive ones), and the states ahead."""
    running = 0
    for label, total in totals.items():
        if total > 0:
            running += total
            node.labels.append(label)
            node.cumulative.append(running)
    if not node.labels:
        raise AssertionError(f"determinize: no world continues at layer {t}")
    node.ahead = {label: ahead[label] for label in node.labels if label in ahead}
    node.current = None


def _count_sampler(facts: Facts, measure: str) -> CountSampler:
    """The count sampler of ``facts``: on the count :func:`~.probabilities.belief` kept for the
    card locations if it counted this position (a detective or a panel beside the agent), else
    on a count of its own."""
    prog = COUNTED.get((*facts_key(facts), measure))
    if prog is None or prog.back is None:
        prog = programme_for(facts, measure)
    if prog.total == 0:
        raise ValueError("inconsistent observation: no fugitive world explains it")
    backward(prog)
    return CountSampler(facts, prog)


def _draw(
    facts: Facts, measure: str, rng: random.Random
) -> tuple[
    Programme, dict[tuple[object, ...], dict[tuple[int, tuple[int, ...]], int]], list[int], list[list[int]]
]:
    """One world's hideout values and group counts, with the programme and the even-card memo
    they are dealt with, from the count sampler of this information state (built once, kept)."""
    key = (*facts_key(facts), measure)
    hit = SAMPLERS.get(key)
    if not isinstance(hit, CountSampler):
        hit = _count_sampler(facts, measure)
        _keep(key, hit)
    values, counts = hit.draw(rng)
    return hit.prog, hit.splits, values, counts


def walk(sampler: Sampler, rng: random.Random) -> tuple[list[int], list[list[int]]]:
    """Hideout values and per-stack group counts, drawn layer by layer with exact weights, down
    the sampler's tree of prefixes (each prefix weighed once, :meth:`Sampler.weigh`)."""
    prog, facts = sampler.prog, sampler.facts
    values = list(facts.known)
    counts = [[0] * GROUPS for _ in range(facts.size + 1)]
    if sampler.nodes > NODES_KEPT:
        sampler.root, sampler.nodes = Node({0: 1}), 0  # memory stays bounded
    node = sampler.root
    for t, (i, kind, g) in enumerate(prog.layers):
        if node.current is not None:
            sampler.weigh(t, node)
        cumulative = node.cumulative
        j = bisect.bisect_right(cumulative, rng.randrange(cumulative[-1])) if len(cumulative) > 1 else 0
        label = node.labels[j]
        child = node.children.get(label)
        if child is None:
            child = node.children[label] = Node(node.ahead.pop(label))
            sampler.nodes += 1
        node = child
        if kind == VALUE:
            values[i] = label
        elif kind == GROUP:
            counts[i][g] = label
    return values, counts


def _needs(prog: Programme, values: list[int]) -> list[int]:
    """Per position, the even cards its face-down stack must hold (the hand's too, mid-stack)."""
    facts = prog.facts
    out = [0]
    for i in range(1, facts.size + 1):
        need = values[i] - values[i - 1] - STEP_LIMIT - prog.fixed_fp[i] - prog.stack[i]
        if facts.pending and i == facts.size:
            need -= prog.hand_count  # the hand may still pay, each card 1 footprint at least
        out.append(need)
    return out


def _pools(prog: Programme, values: list[int]) -> tuple[list[list[int]], list[list[int]]]:
    """Per group, the even and the odd unseen cards that are not face-down hideouts."""
    facts = prog.facts
    group = facts.tables.group_of
    taken = {values[i] for i in range(1, facts.size + 1) if prog.hidden[i]}
    evens: list[list[int]] = [[] for _ in range(GROUPS)]
    odds: list[list[int]] = [[] for _ in range(GROUPS)]
    unknown = facts.unknown
    while unknown:
        low = unknown & -unknown
        c = low.bit_length() - 1
        unknown ^= low
        if c not in taken:
            (odds if c & 1 else evens)[group[c]].append(c)
    return evens, odds


def _split_evens(
    units: list[tuple[int, list[int]]],
    evens: list[int],
    odds: list[int],
    rng: random.Random,
    memo: dict[tuple[int, tuple[int, ...]], int],
) -> list[tuple[int, ...]]:
    """Per unit (need, cards per group), how many of its cards are even, drawn with exact weights.

    A unit's cards must hold at least ``need`` even ones; per group the ways to pick ``e`` even and
    ``k - e`` odd cards from what earlier units left are binomials.  ``ways`` counts completions
    (``memo``: the same units and pools at one position share them)."""
    before = [[0] * GROUPS]
    for _, ks in units:
        before.append([a + k for a, k in zip(before[-1], ks, strict=True)])

    def options(u: int, used: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        need, ks = units[u]
        ranges = [range(min(k, evens[g] - used[g]) + 1) for g, k in enumerate(ks)]
        out = []
        for e in itertools.product(*ranges):
            if sum(e) < need:
                continue
            w = 1
            for g, k in enumerate(ks):
                odd_left = odds[g] - (before[u][g] - used[g])
                w *= math.comb(evens[g] - used[g], e[g]) * math.comb(odd_left, k - e[g])
            if w:
                out.append((e, w))
        return out

    def ways(u: int, used: tuple[int, ...]) -> int:
        if u == len(units):
            return 1
        key = (u, used)
        if key not in memo:
            memo[key] = sum(
                w * ways(u + 1, tuple(a + b for a, b in zip(used, e, strict=True)))
                for e, w in options(u, used)
            )
        return memo[key]

    chosen: list[tuple[int, ...]] = []
    used = (0,) * GROUPS
    for u in range(len(units)):
        choices = [
            (e, w * ways(u + 1, tuple(a + b for a, b in zip(used, e, strict=True))))
            for e, w in options(u, used)
        ]
        e = choices[pick([w for _, w in choices], rng)][0]
        chosen.append(e)
        used = tuple(a + b for a, b in zip(used, e, strict=True))
    return chosen


def deal_cards(
    prog: Programme,
    values: list[int],
    counts: list[list[int]],
    rng: random.Random,
    splits: dict[tuple[object, ...], dict[tuple[int, tuple[int, ...]], int]] | None = None,
) -> tuple[list[list[int]], list[int]]:
    """The cards of every face-down stack and of the hand, given the values and the group counts."""
    facts = prog.facts
    size = facts.size
    group = facts.tables.group_of
    evens, odds = _pools(prog, values)
    used = [sum(counts[i][g] for i in range(1, size + 1)) for g in range(GROUPS)]
    for i in range(1, size + 1):
        if prog.hidden[i]:
            used[group[values[i]]] += 1
    hand_n = [prog.fug[g] - used[g] for g in range(GROUPS)]
    needs = _needs(prog, values)
    pending = size if facts.pending and needs[size] > 0 else -1
    units = [(needs[i], list(counts[i])) for i in range(1, size + 1) if needs[i] > 0 and i != pending]
    if pending > 0:
        units.append((needs[pending], [counts[pending][g] + hand_n[g] for g in range(GROUPS)]))
    sizes = ([len(x) for x in evens], [len(x) for x in odds])
    key = (tuple((n, tuple(ks)) for n, ks in units), tuple(sizes[0]), tuple(sizes[1]))
    memo = {} if splits is None else splits.setdefault(key, {})
    split = _split_evens(units, *sizes, rng, memo)
    for pool in (*evens, *odds):
        rng.shuffle(pool)
    stacks: list[list[int]] = [list(s) for s in facts.known_sprints]
    hand: list[int] = []
    constrained = [i for i in range(1, size + 1) if needs[i] > 0 and i != pending]
    if pending > 0:
        constrained.append(pending)
    for i, e in zip(constrained, split, strict=True):
        for g in range(GROUPS):
            k = counts[i][g] + (hand_n[g] if i == pending else 0)
            cards = [evens[g].pop() for _ in range(e[g])] + [odds[g].pop() for _ in range(k - e[g])]
            rng.shuffle(cards)
            stacks[i] += cards[: counts[i][g]]
            hand += cards[counts[i][g] :]
    rest = [evens[g] + odds[g] for g in range(GROUPS)]
    for pool in rest:
        rng.shuffle(pool)
    for i in range(1, size + 1):
        if prog.stack[i] and i not in constrained:
            for g in range(GROUPS):
                stacks[i] += [rest[g].pop() for _ in range(counts[i][g])]
    if pending < 0:
        for g in range(GROUPS):
            hand += [rest[g].pop() for _ in range(hand_n[g])]
    for i in range(1, size + 1):
        if prog.stack[i]:
            if facts.canonical_order:
                stacks[i].sort()  # canonical order: the only order the rules allow
            else:
                rng.shuffle(stacks[i])
    if facts.holds_last:
        hand.append(facts.last)
    return stacks, sorted(hand)


@dataclass(frozen=True)
class Plan:
    """Where a history's fugitive secrets sit: per deck its fugitive deals (history index, hideouts
    on the table then, -1 for the setup), the hides and the sprint cards (index, position, rank
    under its hideout).  Read once per state (:func:`plan_of`)."""

    deals: tuple[tuple[tuple[int, int], ...], ...]
    hides: tuple[int, ...]
    sprints: tuple[tuple[int, int, int], ...]


def _plan(state: FugitiveState) -> Plan:
    setups = len(state.layout.setup_deals)
    deals: list[list[tuple[int, int]]] = [[], [], []]
    for index, receiver, deck, on_table in deal_slots(state):
        if receiver == FUGITIVE:
            deals[deck].append((index, on_table if index >= setups else -1))
    hides: list[int] = []
    sprints: list[tuple[int, int, int]] = []
    rank = 0
    for index, action in enumerate(state.history):
        if isinstance(action, Hide):
            hides.append(index)
            rank = 0
        elif isinstance(action, Sprint):
            sprints.append((index, len(hides), rank))
            rank += 1
    return Plan(tuple(tuple(d) for d in deals), tuple(hides), tuple(sprints))


_LAST: list[object] = []
"""The last state read: its history list, length and last action, then its facts and plan (a
search determinizes one state many times in a row)."""


def facts_and_plan(state: FugitiveState) -> tuple[Facts, Plan]:
    """The state's facts and plan, read again only when its history changed."""
    history = state.history
    last = history[-1] if history else None
    if _LAST and _LAST[0] is history and _LAST[1] == len(history) and _LAST[2] is last:
        facts, plan = _LAST[3], _LAST[4]
        assert isinstance(facts, Facts) and isinstance(plan, Plan)
        return facts, plan
    facts, plan = facts_from_state(state), _plan(state)
    _LAST[:] = [history, len(history), last, facts, plan]
    return facts, plan


def _deal_order(
    plan: Plan, facts: Facts, values: list[int], stacks: list[list[int]], hand: list[int], rng: random.Random
) -> dict[int, int]:
    """Which fugitive deal (history index) brought which card: a card laid at position ``i`` came
    with a deal made while fewer than ``i`` hideouts lay on the table; uniform over valid orders."""
    group_of_card = facts.tables.group_of
    assignment: dict[int, int] = {}
    # by group: deck d is group d + 1; cards of no deck (group -1: the escape card) go last, unread
    by_deck: list[list[tuple[int, int]]] = [[], [], [], [], []]
    for i in range(1, facts.size + 1):
        by_deck[group_of_card[values[i]]].append((values[i], i))
        for c in stacks[i]:
            by_deck[group_of_card[c]].append((c, i))
    for c in hand:
        by_deck[group_of_card[c]].append((c, 99))
    for d in range(3):
        keys = [on_table for _, on_table in plan.deals[d]]
        cards = by_deck[d + 1]
        if len(cards) != len(keys):
            raise AssertionError(f"deck {d + 1}: {len(cards)} cards for {len(keys)} deals")
        matched = assign_slots(cards, keys, rng)
        if matched is None:
            raise AssertionError(f"deck {d + 1}: the counted world has no deal order")
        for card, j in matched.items():
            assignment[plan.deals[d][j][0]] = card
    return assignment


def build_world(
    state: FugitiveState,
    facts: Facts,
    plan: Plan,
    world_cards: tuple[list[int], list[list[int]], list[int]],
    rng: random.Random,
) -> FugitiveState:
    """The real state with the fugitive's secrets replaced and its history rewritten to match."""
    values, stacks, hand = world_cards
    world = state.clone()
    assert isinstance(world, FugitiveState)
    history = world.history
    for index, card in _deal_order(plan, facts, values, stacks, hand, rng).items():
        history[index] = DEALS[card]
    for position, index in enumerate(plan.hides, 1):
        history[index] = HIDES[values[position]]
    for index, position, rank in plan.sprints:
        history[index] = SPRINTS[stacks[position][rank]]
    world.hideouts = list(values)
    world.sprints = [tuple(s) for s in stacks]
    mine = 0
    for c in (*values[1:], *hand, *itertools.chain.from_iterable(stacks)):
        mine |= 1 << c
    world.fhand = sum(1 << c for c in hand)
    masks = state.layout.deck_masks
    world.decks = [masks[d] & facts.unknown & ~mine for d in range(3)]
    if world.phase == F_SPRINT:  # the hideout being laid: what its sprint cards still owe
        size = facts.size
        world.deficit = (
            values[size] - values[size - 1] - STEP_LIMIT - sum(footprints(c) for c in stacks[size])
        )
    world.invalidate()
    return world


def _determinize_detective(state: FugitiveState, rng: random.Random, measure: str) -> FugitiveState:
    facts, plan = facts_and_plan(state)
    exact = not (facts.stuck_first_turn or facts.canonical_pending)
    for _ in range(1 if exact else RELAXED_ATTEMPTS):
        prog, splits, values, counts = _draw(facts, measure, rng)
        if len(splits) > NODES_KEPT:
            splits.clear()
        stacks, hand = deal_cards(prog, values, counts, rng, splits)
        world = build_world(state, facts, plan, (values, stacks, hand), rng)
        if exact or replay(state, list(world.history)) is not None:
            return world
    why = "edition 2: a single first-turn hideout" if facts.stuck_first_turn else "canonical order mid-stack"
    raise RuntimeError(f"determinize: no world the rules accept in {RELAXED_ATTEMPTS} draws ({why})")
