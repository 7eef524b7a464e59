"""The detective's exact belief in Fugitive, and determinization for both seats.

A *fugitive world* consistent with what the detective sees fills in every face-down card: the
values of the face-down hideouts, the cards of the face-down sprint stacks (their sizes are
public) and the fugitive's hand (its size is public), such that

* every card is distinct and none is a card the detective sees (face up, or in its own hand);
* hideouts strictly increase along the row, and each one is at most 3 plus the footprints of
  its sprint cards above the previous one (odd cards 1, even cards 2; overpaying is allowed);
* the fugitive holds exactly {1, 2, 3, 42}, 3 cards of deck 1, 2 of deck 2 and one card of the
  logged deck per fugitive draw, and a card laid at position ``i`` was in hand by then (for each
  deck, the cards laid at positions 1..i are at most the cards drawn before position i);
  a smaller deck (option ``escape_card``) has its own escape card, deck ranges and setup deal,
  read from the state's :class:`~gamelib.fugitive.rules.Layout` (per-layout card tables);
* every guess the detective missed is explained: a missed number was not a hideout among the
  positions on the table at that moment, and a failed series was not entirely made of them;
* mid-turn (laying sprint cards), the pending hideout is still reachable with the hand left.

:func:`belief` counts these worlds exactly (Python ints) and gives, uniformly over them, the
probability of each number at each face-down position, of being any hideout, a sprint card or in
the fugitive's hand.  :func:`determinize` samples one world uniformly and turns it into a full
:class:`~gamelib.fugitive.rules.FugitiveState` whose history replays.

How the count works (a forward/backward dynamic programme over positions, like the C++
``belief.cc`` of smsxgz/fugitive, with sprint identities and hands counted exactly):

* cards are split into 8 *classes*: {1, 2, 3} and the three decks, each by parity.  Only the
  class of a sprint card matters to the rules (its deck for timing, its parity for footprints),
  so a sprint card's identity is deferred: the DP chooses classes, and at the end
  ``falling(A_c - h_c, s_c)`` ways pick the actual cards of class ``c`` (``A_c`` unknown cards of
  the class, ``h_c`` used as hideouts, ``s_c`` as sprints).  Where the footprints are not tight
  (the hideout is within 3 + stack size of the previous one) a card's parity does not matter
  either: only its group is chosen, and the final count picks it from both parities;
* a DP state is one int: the previous hideout value, per-class counts of hideouts and sprint
  cards so far, per-group totals (checked against the timing caps with a carry-guard trick),
  the progress through each failed series and the pending deficit.  A position is a few
  layers (its mode, one layer per sprint card, its value) so that states merge after each card;
* the fugitive's hand is what is left: a binomial per deck (all of {1, 2, 3} that is left), and
  the final weights factor by group (a convolution over hand parities when a pending hideout
  needs footprints from the hand);
* sprint stacks are counted as ordered sequences (one DP edge per card) and divided by
  ``prod(n_i!)`` at the end, so every weight stays an integer;
* the card-location probabilities (sprint, hand, deck) use, by symmetry inside a class, the
  share of a class's non-hideout cards in each place, weighted through a second backward pass.

Two cases are not counted exactly: in the second edition, a fugitive who stops after a single
first-turn hideout must have been unable to place another; and with ``canonical_order``, a
fugitive in the middle of a sprint stack must still hold, above its last sprint card, the
footprints the hideout needs (the DP only knows the classes of the cards, not their order).
:func:`belief` ignores those constraints (``Belief.exact`` is then False) and :func:`determinize`
rejects the worlds that break them, so its samples stay exactly uniform.
"""

from __future__ import annotations

import bisect
import functools
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from gamelib.core.errors import IllegalAction
from gamelib.fugitive.rules import (
    DEAL,
    DETECTIVE,
    F_SPRINT,
    FUGITIVE,
    LAST,
    PUBLISHED,
    SETUP,
    STEP_LIMIT,
    Add,
    Deal,
    Draw,
    FugitiveObservation,
    FugitiveState,
    Guess,
    Hide,
    Layout,
    Pass,
    Reveal,
    Sprint,
    cards_of,
    layout_for,
)

__all__ = ["Belief", "belief", "card_class", "clear_caches", "determinize", "group_of"]

# ---------------------------------------------------------------------------- card classes
GROUPS = 4
"""Card groups: 0 = {1, 2, 3} (the fugitive's own), 1-3 = the three decks."""
CLASSES = 2 * GROUPS
"""A class is a group and a parity: ``2 * group + (1 if even else 0)``."""


def group_of(card: int, layout: Layout = PUBLISHED) -> int:
    """0 for 1-3 (the fugitive's starting cards), 1-3 for the decks, -1 for 0 and the escape card.

    The decks depend on the deck size (``layout``, the published one by default).
    """
    if 1 <= card <= 3:
        return 0
    deck = layout.deck_of(card)  # -1 for 0, the escape card and anything off the deck
    return deck + 1 if deck >= 0 else -1


def card_class(card: int, layout: Layout = PUBLISHED) -> int:
    """The class of a card 1..last-1: its group and its parity (sprint footprints)."""
    return 2 * group_of(card, layout) + (1 - card % 2)


# ---------------------------------------------------------------------------- state packing
# One DP state is one int.  Bits, from the lowest:
#   4 group totals (u_0, u_1, u_2, u_3)  6 bits each: 5 value bits + 1 guard bit for the cap test
#                                        (at most the cards drawn by then, and the cards there are)
#   8 classes x (hideouts h_c, sprints s_c of a known parity)   4 bits each (<= 7 cards a class)
#   4 groups x sprints f_g whose parity is still free            4 bits each (<= 14 a group)
#   pending deficit                      6 bits
#   even sprint cards still needed, and the hideout's distance past 3 + n
#                                        4 + 6 bits (only inside a position's layers)
#   previous hideout value               6 bits
#   failed-series progress               6 bits per series
# A sprint card's parity only matters where the footprints are tight (the hideout is more than
# 3 + stack size above the previous one); elsewhere the DP only picks its group, which merges
# many states, and the final count picks the cards of both parities at once.
_U_BITS = 6
_U_SHIFT = tuple(_U_BITS * g for g in range(GROUPS))
_GUARDS = sum(1 << (_U_BITS * g + 5) for g in range(GROUPS))
_CLASS_BASE = GROUPS * _U_BITS
_H_SHIFT = tuple(_CLASS_BASE + 8 * c for c in range(CLASSES))
_S_SHIFT = tuple(_CLASS_BASE + 8 * c + 4 for c in range(CLASSES))
_F_SHIFT = tuple(_CLASS_BASE + 8 * CLASSES + 4 * g for g in range(GROUPS))
_NEED_SHIFT = _CLASS_BASE + 8 * CLASSES + 4 * GROUPS
_R_SHIFT = _NEED_SHIFT + 6  # while laying a stack: even cards it still needs
_T_SHIFT = _R_SHIFT + 4  # while laying a stack: how far above 3 + n the hideout will be
_PREV_SHIFT = _T_SHIFT + 6
_PROG_SHIFT = _PREV_SHIFT + 6
_USAGE_MASK = (1 << _NEED_SHIFT) - 1
_DONE = 63
"""Progress value of a failed series already explained (one of its numbers was skipped)."""
_SCALE = 360360 * 420
"""Divisible by p * q for any p <= 14 and q <= 7: the secondary marginals divide by such products."""


@dataclass(frozen=True)
class _Tables:
    """Per-card lookup tables of one deck size, indexed 0..42 (-1 / 0 from the escape card up).

    Classes and groups follow the deck ranges, so every layout has its own tables; they are
    built once per escape card (:func:`_tables`) and read as plain tuples on the hot paths.
    """

    layout: Layout
    class_of: tuple[int, ...]
    group_of: tuple[int, ...]
    hideout_delta: tuple[int, ...]
    """State delta of a face-down hideout ``v``: one more hideout of its class and its group."""


@functools.lru_cache(maxsize=64)
def _tables(last: int) -> _Tables:
    layout = layout_for(last)
    group = tuple(group_of(c, layout) if 1 <= c < last else -1 for c in range(43))
    klass = tuple(2 * group[c] + (1 - c % 2) if group[c] >= 0 else -1 for c in range(43))
    delta = tuple(
        (1 << _H_SHIFT[klass[c]]) + (1 << _U_SHIFT[group[c]]) if klass[c] >= 0 else 0 for c in range(43)
    )
    return _Tables(layout, klass, group, delta)


# The published game's tables, kept under their historical names.
_CLASS_OF = _tables(LAST).class_of
_GROUP_OF = _tables(LAST).group_of
_HIDEOUT_DELTA = _tables(LAST).hideout_delta


def _falling(n: int, k: int) -> int:
    """n (n-1) ... (n-k+1): ordered choices of k distinct cards among n (0 if impossible)."""
    if k < 0 or n < k:
        return 0
    return math.perm(n, k)


# ---------------------------------------------------------------------------- the facts
@dataclass(frozen=True)
class _Facts:
    """Everything the detective's observation says about the fugitive's cards, as plain data.

    Positions are 1..K (card 0 is position 0).  ``known[i]`` is the face-up value or -1;
    ``sprint_counts[i]`` the stack size; ``known_sprints[i]`` the face-up stack or ().
    ``last`` is the escape card: it selects the deck layout and the class tables.
    """

    last: int
    known: tuple[int, ...]
    sprint_counts: tuple[int, ...]
    known_sprints: tuple[tuple[int, ...], ...]
    unknown: int  # bitmask of the cards 1..last-1 the detective cannot see
    caps: tuple[tuple[int, int, int], ...]  # per position: deck cards the DP may still use
    hand_unknown: tuple[int, int, int]  # per deck: the fugitive's unknown cards in total
    forbidden: tuple[int, ...]  # per position: bitmask of numbers missed while it lay there
    series: tuple[tuple[tuple[int, ...], int], ...]  # failed series: (numbers, positions then)
    pending: bool  # the last hideout is still getting sprint cards
    holds_last: bool  # the escape card is in the fugitive's hand
    stuck_first_turn: bool  # edition 2: one first-turn hideout then a pass
    canonical_order: bool = False  # sprint stacks go in increasing order (option canonical_order)
    canonical_pending: bool = False  # canonical order, mid-stack: the hand above it must pay

    @property
    def size(self) -> int:
        return len(self.known) - 1

    @property
    def tables(self) -> _Tables:
        return _tables(self.last)


def _facts_from_state(state: FugitiveState) -> _Facts:
    """The detective's facts read straight from a state (no observation strings to build)."""
    public: list[tuple[str, int]] = []
    for action in state.history:
        if isinstance(action, Hide):
            public.append(("hide", 0))
        elif isinstance(action, (Guess, Add)):
            public.append(("guess" if isinstance(action, Guess) else "add", action.number))
        elif isinstance(action, Reveal):
            public.append(("reveal", 0))
        elif isinstance(action, Pass):
            public.append(("pass", 0))
        elif isinstance(action, Draw):
            public.append(("draw", 0))
        elif isinstance(action, Deal):
            public.append(("deal", 0))
    return _build_facts(
        hideouts=[h if r else -1 for h, r in zip(state.hideouts, state.revealed, strict=True)],
        sprint_counts=[len(s) for s in state.sprints],
        face_up_sprints=[s if r else () for s, r in zip(state.sprints, state.revealed, strict=True)],
        detective_hand=state.dhand,
        draw_log=state.draw_log,
        phase=state.phase,
        public=public,
        edition=state.game.options.edition,
        layout=state.layout,
        canonical=state.canonical,
    )


def _escape_card_of(obs: FugitiveObservation) -> int:
    """The escape card of the game an observation comes from (the observation does not name it).

    Every card 0..last lies somewhere the observation counts: a hand, a deck, a hideout or a
    sprint stack, so the sizes add up to ``last + 1``.
    """
    on_table = sum(1 + count for _, count, _ in obs.hideouts)
    cards = obs.fugitive_hand_size + obs.detective_hand_size + sum(obs.deck_sizes) + on_table
    last = cards - 1
    layout_for(last)  # validates: a doctored observation gets a clear error
    return last


def _facts_from_observation(obs: FugitiveObservation, edition: int, canonical: bool = False) -> _Facts:
    if obs.detective_hand is None:
        raise ValueError("belief needs the detective's view: this observation hides the detective's hand")
    public: list[tuple[str, int]] = []
    for text in obs.history:
        verb, _, arg = text.partition(" ")
        public.append((verb, int(arg) if verb in ("add", "guess") else 0))
    hideouts, counts, ups = [], [], []
    for (value, count, cards), r in zip(obs.hideouts, obs.revealed, strict=True):
        hideouts.append(value if r and value is not None else -1)
        counts.append(count)
        ups.append(tuple(cards) if r and cards is not None else ())
    dhand = 0
    for c in obs.detective_hand:
        dhand |= 1 << c
    return _build_facts(
        hideouts=hideouts,
        sprint_counts=counts,
        face_up_sprints=ups,
        detective_hand=dhand,
        draw_log=obs.draw_log,
        phase=obs.phase,
        public=public,
        edition=edition,
        layout=layout_for(_escape_card_of(obs)),
        canonical=canonical,
    )


def _build_facts(
    *,
    hideouts: list[int],
    sprint_counts: list[int],
    face_up_sprints: list[tuple[int, ...]],
    detective_hand: int,
    draw_log: Any,
    phase: int,
    public: list[tuple[str, int]],
    edition: int,
    layout: Layout,
    canonical: bool,
) -> _Facts:
    size = len(hideouts) - 1
    last = layout.last
    group_of_card = _tables(last).group_of
    face_up = 0
    for h, s in zip(hideouts, face_up_sprints, strict=True):
        if h >= 0:
            face_up |= 1 << h
        for c in s:
            face_up |= 1 << c
    unknown = ((1 << last) - 2) & ~face_up & ~detective_hand

    # what the fugitive holds, and when: setup deals, then one card per dealt fugitive draw
    setup_deals = layout.setup_deals
    setup_done = len(setup_deals)
    if phase == SETUP:
        setup_done = sum(1 for verb, _ in public if verb == "deal")
    log = list(draw_log)
    if phase == DEAL and log:
        log = log[:-1]  # the last draw is waiting for its card
    drawn_before = [[0] * 3 for _ in range(size + 2)]  # [i][d]: fugitive cards of deck d usable at i
    for d in setup_deals[:setup_done]:
        for i in range(size + 2):
            drawn_before[i][d] += 1
    for player, deck, on_table in log:
        if player != FUGITIVE:
            continue
        for i in range(on_table + 1, size + 2):
            drawn_before[i][deck] += 1
    known_used = [0, 0, 0]
    caps = [(0, 0, 0)]
    for i in range(1, size + 1):
        for c in ((hideouts[i],) if hideouts[i] >= 0 else ()) + tuple(face_up_sprints[i]):
            g = group_of_card[c]
            if g >= 1:
                known_used[g - 1] += 1
        caps.append(tuple(drawn_before[i][d] - known_used[d] for d in range(3)))  # type: ignore[arg-type]
    total_drawn = drawn_before[size + 1]
    hand_unknown = tuple(total_drawn[d] - known_used[d] for d in range(3))

    # the detective's guesses: a miss rules a number out of the positions then on the table
    revealed_at = {h: i for i, h in enumerate(hideouts) if h >= 0}
    forbidden = [0] * (size + 1)
    series_constraints: list[tuple[tuple[int, ...], int]] = []
    on_table, pending_series = 0, []
    first_turn_hides, first_turn_passed, first_turn = 0, False, True
    for verb, arg in public:
        if verb == "hide":
            on_table += 1
            if first_turn:
                first_turn_hides += 1
        elif verb == "pass" and first_turn:
            first_turn_passed = True
        elif verb in ("draw", "guess", "add") and first_turn and on_table > 0:
            first_turn = False  # the detective's first action ends the fugitive's first turn
        elif verb == "guess":
            if not 0 < revealed_at.get(arg, size + 1) <= on_table:
                for i in range(1, on_table + 1):
                    forbidden[i] |= 1 << arg
        elif verb == "add":
            pending_series.append(arg)
        elif verb == "reveal":
            if not all(0 < revealed_at.get(n, size + 1) <= on_table for n in pending_series):
                series_constraints.append((tuple(sorted(pending_series)), on_table))
            pending_series = []
    # the escape card face up ends the fugitive's run; otherwise it is in the fugitive's hand
    holds_last = last not in hideouts
    return _Facts(
        last=last,
        known=tuple(hideouts),
        sprint_counts=tuple(sprint_counts),
        known_sprints=tuple(tuple(s) for s in face_up_sprints),
        unknown=unknown,
        caps=tuple(caps),  # type: ignore[arg-type]
        hand_unknown=hand_unknown,  # type: ignore[arg-type]
        forbidden=tuple(forbidden),
        series=tuple(series_constraints),
        pending=phase == F_SPRINT,
        holds_last=holds_last,
        stuck_first_turn=edition == 2 and first_turn_passed and first_turn_hides == 1,
        canonical_order=canonical,
        canonical_pending=canonical and phase == F_SPRINT and sprint_counts[size] > 0,
    )


# ---------------------------------------------------------------------------- the programme
# The DP runs over *layers*.  A face-down position with ``n`` sprint cards takes ``n + 2`` of
# them: a mode layer (``t = 0``: the hideout is within 3 + n of the previous one, so the stack's
# parities do not matter; ``t > 0``: it is exactly ``t`` further, so the stack needs ``t`` even
# cards), one layer per sprint card, so that states merge after every card, and a value layer
# (the hideout).  While even cards are still needed a card's class is chosen; after that only
# its group (parity free), which merges many states: the final count picks those cards from
# both parities at once.  A face-up position is one value layer.  Sprint cards are ordered
# slots (weight 1 each), so a make-up with ``k_c`` cards per class is reached along
# ``n! / prod(k_c!)`` paths: its multinomial weight.
_Edge = tuple[int, int, int, int]
"""(source state, destination state, weight, label): the label is the mode, the class (0-7)
or group (8 + g) of a sprint card, or the hideout value."""

_MODE, _SLOT, _VALUE = 0, 1, 2


@dataclass
class _Layer:
    position: int
    kind: int  # _MODE, _SLOT or _VALUE
    edges: list[_Edge]


@dataclass
class _Programme:
    """The layered DP for one set of facts: layers of edges, forward weights, final weights."""

    facts: _Facts
    avail: tuple[int, ...]  # A_c: unknown cards per class
    layers: list[_Layer] = field(default_factory=list)
    forward: list[dict[int, int]] = field(default_factory=list)  # forward[t]: states before layer t
    finals: dict[int, tuple[int, ...]] = field(default_factory=dict)
    total: int = 0
    classes_of_interest: tuple[int, ...] = ()
    group_cache: dict[tuple[int, ...], tuple[int, ...]] = field(default_factory=dict)
    back: list[dict[int, list[int]]] | None = None  # plain backward weights, once computed
    by_src: list[dict[int, tuple[list[_Edge], list[int]]]] | None = None  # for sampling


def _reachable(facts: _Facts) -> list[int]:
    """Per position, a bitmask of values a hideout can take (ignoring card counts): prunes series."""
    size = facts.size
    allowed = []
    for i in range(size + 1):
        if facts.known[i] >= 0:
            allowed.append(1 << facts.known[i])
        else:
            allowed.append(facts.unknown & ~facts.forbidden[i])
    reach = [0] * (size + 1)
    reach[0] = 1
    for i in range(1, size + 1):
        if facts.known[i] >= 0:
            span = STEP_LIMIT + sum(2 - c % 2 for c in facts.known_sprints[i])
        else:
            span = STEP_LIMIT + 2 * facts.sprint_counts[i]
        if facts.pending and i == size:
            span = facts.last
        m, prev = 0, reach[i - 1]
        while prev:
            low = prev & -prev
            p = low.bit_length() - 1
            m |= ((1 << (p + span + 1)) - 1) & ~((1 << (p + 1)) - 1)
            prev ^= low
        reach[i] = m & allowed[i]
    return reach


def _active_series(facts: _Facts) -> list[tuple[tuple[int, ...], int]]:
    """The failed series that can still constrain the worlds, their numbers trimmed."""
    reach = _reachable(facts)
    out = []
    for numbers, deadline in facts.series:
        rest = []
        satisfied = False
        for n in numbers:
            if any(facts.known[i] == n for i in range(1, deadline + 1)):
                continue  # known to be a hideout in time: it matches for sure
            if not any(reach[i] >> n & 1 for i in range(1, deadline + 1) if facts.known[i] < 0):
                satisfied = True  # this number cannot be a hideout then: the series failed anyway
                break
            rest.append(n)
        if satisfied:
            continue
        if not rest:
            raise ValueError(f"inconsistent observation: the failed series {numbers} is all hideouts")
        out.append((tuple(rest), deadline))
    return sorted(set(out))


def _slot_deltas(avail: tuple[int, ...]) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]:
    """Per sprint card: (label, state delta, evens it brings) by group (free parity) or class."""
    free, fixed = [], []
    for g in range(GROUPS):
        if avail[2 * g] + avail[2 * g + 1]:
            free.append((8 + g, (1 << _F_SHIFT[g]) + (1 << _U_SHIFT[g]), 0))
    for c in range(CLASSES):
        if avail[c]:
            fixed.append((c, (1 << _S_SHIFT[c]) + (1 << _U_SHIFT[c // 2]), c % 2))
    return free, fixed


class BeliefTooLarge(ValueError):
    """Counting the worlds would exceed the edge budget given to :func:`belief`.

    Positions that random play creates (a stack of 6-8 sprint cards, many failed series) can
    need millions of edges and minutes; a live view asks for a budget and offers the full count
    on demand instead of freezing.
    """


def _check_budget(layers: list[_Layer], max_edges: int | None) -> None:
    if max_edges is not None:
        edges = sum(len(lay.edges) for lay in layers)
        if edges > max_edges:
            raise BeliefTooLarge(f"more than {max_edges:,} edges to count this position's worlds")


def _programme(facts: _Facts, max_edges: int | None = None) -> _Programme:
    size = facts.size
    tables = facts.tables
    class_of, hideout_delta = tables.class_of, tables.hideout_delta
    top_value = facts.last - 1  # the highest hideout a face-down position can hold
    avail = tuple(sum(1 for c in cards_of(facts.unknown) if class_of[c] == k) for k in range(CLASSES))
    group_avail = [avail[2 * g] + avail[2 * g + 1] for g in range(GROUPS)]
    series = _active_series(facts)
    free_slots, fixed_slots = _slot_deltas(avail)
    prog = _Programme(facts, avail)
    layers: list[_Layer] = []
    forward: list[dict[int, int]] = [{0: 1}]  # prev 0, nothing used, every series at progress 0
    r_unit = 1 << _R_SHIFT
    # per class: (label, delta with the even-card countdown, shifts of its counts, cards there are)
    fixed_checks = [
        (c, delta - (r_unit if even else 0), _S_SHIFT[c], _H_SHIFT[c], avail[c])
        for c, delta, even in fixed_slots
    ]

    for i in range(1, size + 1):
        cap = facts.caps[i]
        if min(cap) < 0:
            raise ValueError(f"inconsistent observation: position {i} uses more deck cards than drawn")
        # one carry test checks both: deck cards drawn by then, and cards of the group that exist
        limits = (group_avail[0], *(min(cap[d], group_avail[d + 1]) for d in range(3)))
        offset = sum((31 - limit) << _U_SHIFT[g] for g, limit in enumerate(limits))
        active = [(j, numbers, deadline) for j, (numbers, deadline) in enumerate(series) if deadline >= i]
        pending = facts.pending and i == size
        last = i == size
        known = facts.known[i]
        n = facts.sprint_counts[i] if known < 0 else 0
        if known >= 0:
            fp = sum(2 - c % 2 for c in facts.known_sprints[i])
            values: list[int] = [known]
        else:
            fp = n
            values = cards_of(facts.unknown & ~facts.forbidden[i])  # all below the escape card
        allowed = sum(1 << v for v in values)

        if n:
            # mode t: 0 = the hideout is within 3 + n (parities free), t > 0 = exactly t above
            # that, so the stack needs t even cards (or the hand the rest, if pending)
            edges: list[_Edge] = []
            layer: dict[int, int] = {}
            for src, weight in forward[-1].items():
                prev = (src >> _PREV_SHIFT) & 63
                base = prev + STEP_LIMIT + fp
                top = (top_value if pending else min(top_value, base + n)) - base
                for t in range(max(top, 0) + 1):  # t = 0 always: hideouts below ``last`` or not
                    if t and not allowed >> (base + t) & 1:
                        continue
                    dst = src | (t << _T_SHIFT) | (min(t, 15) << _R_SHIFT)
                    edges.append((src, dst, 1, t))
                    layer[dst] = weight
            layers.append(_Layer(i, _MODE, edges))
            _check_budget(layers, max_edges)
            forward.append(layer)
            # the stack, one card at a time: its class while even cards are needed, else its group
            guards, r_shift = _GUARDS, _R_SHIFT
            for _ in range(n):
                edges, layer = [], {}
                add_edge, get = edges.append, layer.get
                for src, weight in forward[-1].items():
                    if (src >> r_shift) & 15:
                        for label, delta, s_shift, h_shift, limit in fixed_checks:
                            if ((src >> s_shift) & 15) + ((src >> h_shift) & 15) >= limit:
                                continue  # every card of this class is already used
                            dst = src + delta
                            if (dst + offset) & guards:
                                continue
                            add_edge((src, dst, 1, label))
                            layer[dst] = get(dst, 0) + weight
                    else:
                        for label, delta, _ in free_slots:
                            dst = src + delta
                            if (dst + offset) & guards:
                                continue
                            add_edge((src, dst, 1, label))
                            layer[dst] = get(dst, 0) + weight
                layers.append(_Layer(i, _SLOT, edges))
                _check_budget(layers, max_edges)
                forward.append(layer)

        # the hideout's value
        edges, layer = [], {}
        for src, weight in forward[-1].items():
            prev = (src >> _PREV_SHIFT) & 63
            t = (src >> _T_SHIFT) & 63
            r = (src >> _R_SHIFT) & 15
            usage = src & _USAGE_MASK
            progress = src >> _PROG_SHIFT
            base = prev + STEP_LIMIT + fp
            need = 0
            if t:
                if r and not pending:
                    continue  # not enough even sprint cards: the hideout is out of reach
                need = r + t - min(t, 15)
                choices = [base + t]
            else:
                lo = bisect.bisect_right(values, prev)
                hi = len(values) if pending and not n else bisect.bisect_right(values, base)
                choices = values[lo:hi]
            for v in choices:
                new = usage + hideout_delta[v] if known < 0 else usage
                if (new + offset) & _GUARDS:
                    continue
                new_progress = progress
                if active:
                    new_progress = _advance(progress, active, v, i)
                    if new_progress < 0:
                        continue
                missing = need if t else max(0, v - base)
                if missing:
                    new += missing << _NEED_SHIFT  # pending: the hand must still hold these footprints
                dst = new if last else new | (v << _PREV_SHIFT) | (new_progress << _PROG_SHIFT)
                edges.append((src, dst, 1, v))
                layer[dst] = layer.get(dst, 0) + weight
        layers.append(_Layer(i, _VALUE, edges))
        _check_budget(layers, max_edges)
        forward.append(layer)
    prog.layers, prog.forward = layers, forward

    # classes whose cards may be hideouts need the joint (hideout, final state) marginals
    interest = set()
    for lay in layers:
        if lay.kind == _VALUE and facts.known[lay.position] < 0:
            for e in lay.edges:
                interest.add(class_of[e[3]])
    prog.classes_of_interest = tuple(sorted(interest))
    total = 0
    for key, weight in forward[-1].items():
        fin = _final(prog, key)
        if fin[0]:
            prog.finals[key] = fin
            total += weight * fin[0]
    prog.total = total
    return prog


def _advance(progress: int, active: list[tuple[int, tuple[int, ...], int]], v: int, i: int) -> int:
    """Move every failed series past hideout ``v`` at position ``i``; -1 if one would now hold."""
    for j, numbers, deadline in active:
        shift = 6 * j
        p = (progress >> shift) & 63
        if p != _DONE:
            target = numbers[p]
            if v > target:
                p = _DONE  # a number of the series was skipped: the series fails, as observed
            elif v == target:
                p += 1
                if p == len(numbers):
                    return -1  # every number would have been a hideout: the series would have hit
            if i == deadline and p != _DONE:
                p = _DONE
            progress = (progress & ~(63 << shift)) | (p << shift)
    return progress


def _fields(key: int) -> tuple[list[int], list[int], list[int], list[int]]:
    """(h per class, fixed-parity sprints per class, free-parity sprints per group, deck totals)."""
    h = [(key >> _H_SHIFT[c]) & 15 for c in range(CLASSES)]
    s = [(key >> _S_SHIFT[c]) & 15 for c in range(CLASSES)]
    f = [(key >> _F_SHIFT[g]) & 15 for g in range(GROUPS)]
    u = [0] + [(key >> _U_SHIFT[g]) & 31 for g in range(1, GROUPS)]
    return h, s, f, u


def _product(lists: list[list[Any]]) -> Iterator[tuple[Any, ...]]:
    if not lists:
        yield ()
        return
    for head in lists[0]:
        for tail in _product(lists[1:]):
            yield (head, *tail)


def _final(prog: _Programme, key: int) -> tuple[int, ...]:
    """Final weights of a state after the last position (see :func:`_final_coupled`).

    Without a pending deficit the completions factor by group (sprint identities and hand cards
    of a deck depend on that deck's counts only), so each group's factor is computed once and
    cached, and a final state costs a few multiplications.
    """
    if (key >> _NEED_SHIFT) & 63:
        return _final_coupled(prog, key)
    cache = prog.group_cache
    parts = []
    for g in range(GROUPS):
        o, e = 2 * g, 2 * g + 1
        gkey = (
            g,
            (key >> _H_SHIFT[o]) & 15,
            (key >> _H_SHIFT[e]) & 15,
            (key >> _S_SHIFT[o]) & 15,
            (key >> _S_SHIFT[e]) & 15,
            (key >> _F_SHIFT[g]) & 15,
        )
        part = cache.get(gkey)
        if part is None:
            part = cache[gkey] = _group_final(prog, *gkey)
        if not part[0]:
            return (0,)
        parts.append(part)
    base = parts[0][0] * parts[1][0] * parts[2][0] * parts[3][0]
    out = [base]
    for g in range(GROUPS):
        others = base // parts[g][0]
        out += [others * x for x in parts[g][1:]]
    return tuple(out)


def _group_final(prog: _Programme, g: int, h_o: int, h_e: int, s_o: int, s_e: int, f: int) -> tuple[int, ...]:
    """One group's completions, then ``_SCALE`` x completions x P(sprint), P(hand) per parity."""
    avail = prog.avail
    a_o, a_e = avail[2 * g], avail[2 * g + 1]
    free_o, free_e = a_o - h_o, a_e - h_e
    rest_o, rest_e = free_o - s_o, free_e - s_e
    pool = rest_o + rest_e
    if min(rest_o, rest_e) < 0 or f > pool:
        return (0,)
    ways = _falling(free_o, s_o) * _falling(free_e, s_e) * _falling(pool, f)
    if g == 0:
        in_hand = pool - f  # every card of 1-3 left over is in the hand
    else:
        used = h_o + h_e + s_o + s_e + f
        in_hand = prog.facts.hand_unknown[g - 1] - used
        if in_hand < 0 or in_hand > pool - f:
            return (0,)
        ways *= math.comb(pool - f, in_hand)
    out = [ways]
    for free, s, rest in ((free_o, s_o, rest_o), (free_e, s_e, rest_e)):
        if not free:
            out += [0, 0]
            continue
        if pool:
            out.append(ways * (s * pool + f * rest) * _SCALE // (free * pool))
            out.append(ways * rest * in_hand * _SCALE // (free * pool))
        else:
            out += [ways * s * _SCALE // free, 0]
    return tuple(out)


def _coupled_options(prog: _Programme, key: int) -> tuple[int, list[list[tuple[int, ...]]]] | None:
    """Per group, the hand's parity splits: (ways, footprints, odd, even, free-odd, free-even).

    ``ways`` picks the hand (``even`` even cards) then the free-parity sprint cards from the rest;
    ``free-odd``/``free-even`` are ``ways`` times the expected free sprint cards of each parity
    (exact integers: ``falling(rest, f)`` holds the factor ``rest``).  Also returns the ways of the
    fixed-parity sprint cards.  None if impossible.
    """
    avail, facts = prog.avail, prog.facts
    h, s, f, u = _fields(key)
    fixed_ways = 1
    per_group: list[list[tuple[int, ...]]] = []
    for g in range(GROUPS):
        o, e = 2 * g, 2 * g + 1
        free_o, free_e = avail[o] - h[o], avail[e] - h[e]
        left_o, left_e = free_o - s[o], free_e - s[e]
        if min(left_o, left_e) < 0:
            return None
        fixed_ways *= _falling(free_o, s[o]) * _falling(free_e, s[e])
        pool = left_o + left_e
        hand = pool - f[g] if g == 0 else facts.hand_unknown[g - 1] - u[g]
        if hand < 0 or hand + f[g] > pool:
            return None
        rest = pool - hand
        options: list[tuple[int, ...]] = []
        for x in range(max(0, hand - left_o), min(left_e, hand) + 1):
            w = math.comb(left_e, x) * math.comb(left_o, hand - x) * _falling(rest, f[g])
            if not w:
                continue
            fo = w * f[g] * (left_o - hand + x) // rest if f[g] else 0
            fe = w * f[g] * (left_e - x) // rest if f[g] else 0
            options.append((w, hand + x, hand - x, x, fo, fe))
        if not options or not fixed_ways:
            return None
        per_group.append(options)
    return fixed_ways, per_group


def _coupled_combos(prog: _Programme, key: int) -> tuple[int, list[tuple[tuple[int, ...], ...]]]:
    """The fixed-parity sprint ways and every per-group combination whose hand covers the deficit."""
    need = (key >> _NEED_SHIFT) & 63
    found = _coupled_options(prog, key)
    if found is None:
        return 0, []
    fixed_ways, per_group = found
    return fixed_ways, [combo for combo in _product(per_group) if sum(o[1] for o in combo) >= need]


def _final_coupled(prog: _Programme, key: int) -> tuple[int, ...]:
    """Final weights when a pending hideout still needs footprints from the hand (see :func:`_final`)."""
    avail = prog.avail
    h, s, _, _ = _fields(key)
    fixed_ways, combos = _coupled_combos(prog, key)
    total = 0
    hand_num = [0] * CLASSES
    free_num = [0] * CLASSES
    for combo in combos:
        weight = 1
        for o in combo:
            weight *= o[0]
        total += weight
        for g, o in enumerate(combo):
            others = weight // o[0]
            hand_num[2 * g] += weight * o[2]
            hand_num[2 * g + 1] += weight * o[3]
            free_num[2 * g] += others * o[4]
            free_num[2 * g + 1] += others * o[5]
    if not total:
        return (0,)
    out = [fixed_ways * total]
    for c in range(CLASSES):
        free = avail[c] - h[c]
        if not free:
            out += [0, 0]
            continue
        out.append(fixed_ways * (s[c] * total + free_num[c]) * _SCALE // free)
        out.append(fixed_ways * hand_num[c] * _SCALE // free)
    return tuple(out)


def _backward(prog: _Programme, entries: tuple[int, ...] = (0,)) -> list[dict[int, list[int]]]:
    """Backward weights: completions from each state to the end (the chosen final entries).

    ``back[t]`` is keyed by the states before layer ``t`` (like ``forward[t]``).
    """
    count = len(prog.layers)
    back: list[dict[int, list[int]]] = [{} for _ in range(count + 1)]
    back[count] = {k: [v[j] for j in entries] for k, v in prog.finals.items()}
    for t in range(count - 1, -1, -1):
        nxt, cur = back[t + 1], back[t]
        for src, dst, w, _ in prog.layers[t].edges:
            b = nxt.get(dst)
            if b is None:
                continue
            row = cur.get(src)
            if row is None:
                cur[src] = [w * x for x in b] if w != 1 else list(b)
            else:
                for j, x in enumerate(b):
                    row[j] += w * x
    return back


# ---------------------------------------------------------------------------- the belief
@dataclass(frozen=True)
class Belief:
    """The detective's exact belief: every consistent fugitive world counted once.

    ``position_probs[i][v]``: P(the face-down hideout at position ``i`` is ``v``);
    ``hideout_prob[v]``: P(``v`` is a face-down hideout); ``sprint_prob[v]``: P(``v`` is a
    face-down sprint card); ``hand_prob[v]``: P(``v`` is in the fugitive's hand) (1 for the
    escape card until it is played); ``deck_prob[v]``: P(``v`` is still in a deck).  All indexed
    0..42 whatever the deck size, so that callers index them the same way in every game; in a
    smaller deck (option ``escape_card``) the entries above the escape card are 0.
    The last three are computed on first use (they need a wider backward pass).
    """

    worlds: int
    position_probs: dict[int, tuple[float, ...]]
    hideout_prob: tuple[float, ...]
    exact: bool = True
    """False only for the edition-2 first-turn pass and, with canonical order, mid-stack (see the
    module docstring): the counts then include worlds those rules exclude."""
    _where: Callable[[], tuple[tuple[float, ...], ...]] | None = field(
        default=None, compare=False, repr=False
    )
    _cache: dict[str, tuple[float, ...]] = field(default_factory=dict, compare=False, repr=False)

    def _secondary(self, name: str) -> tuple[float, ...]:
        # sprint / hand / deck probabilities need a wider backward pass: computed on first use
        if not self._cache:
            if self._where is None:
                raise ValueError("this belief was built without its card-location probabilities")
            sprint, hand, deck = self._where()
            self._cache.update(sprint=sprint, hand=hand, deck=deck)
        return self._cache[name]

    @property
    def sprint_prob(self) -> tuple[float, ...]:
        """P(number is a face-down sprint card), indexed 0..42 (0 above the escape card)."""
        return self._secondary("sprint")

    @property
    def hand_prob(self) -> tuple[float, ...]:
        """P(number is in the fugitive's hand), indexed 0..42 (the escape card: 1 until it is played)."""
        return self._secondary("hand")

    @property
    def deck_prob(self) -> tuple[float, ...]:
        """P(number is still in a deck), indexed 0..42 (0 above the escape card)."""
        return self._secondary("deck")

    @property
    def hidden_positions(self) -> list[int]:
        return sorted(self.position_probs)

    def most_likely(self, position: int | None = None) -> int:
        """The most probable value at ``position``, or the most probable face-down hideout number."""
        probs = self.hideout_prob if position is None else self.position_probs[position]
        best = max(range(43), key=lambda v: (probs[v], -v))
        return best

    def candidates(self, position: int) -> list[int]:
        """The values ``position`` can still hold."""
        return [v for v, p in enumerate(self.position_probs[position]) if p > 0]

    def certain_numbers(self) -> list[int]:
        """Numbers that are a face-down hideout in every consistent world."""
        return [v for v, p in enumerate(self.hideout_prob) if p >= 1.0 - 1e-12]

    def entropy(self, position: int) -> float:
        """Shannon entropy (bits) of one face-down position: how spread the detective's doubt is."""
        return -sum(p * math.log2(p) for p in self.position_probs[position] if p > 0)


_CACHE: dict[tuple[Any, ...], tuple[_Facts, _Programme]] = {}
_CACHE_SIZE = 16
"""Programmes kept (a big one holds many edges): enough for a turn of search or a game."""
_CACHE_EDGES = 250_000
"""Programmes with more edges than this are not kept."""


def _facts_key(facts: _Facts) -> tuple[Any, ...]:
    return (
        facts.last,
        facts.known,
        facts.sprint_counts,
        facts.known_sprints,
        facts.unknown,
        facts.caps,
        facts.hand_unknown,
        facts.forbidden,
        facts.series,
        facts.pending,
        facts.holds_last,
    )


def _programme_for(facts: _Facts, max_edges: int | None = None) -> _Programme:
    key = _facts_key(facts)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit[1]
    prog = _programme(facts, max_edges)
    if sum(len(lay.edges) for lay in prog.layers) > _CACHE_EDGES:
        return prog  # too big to keep around: recomputing beats holding gigabytes
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = (facts, prog)
    return prog


_BELIEFS: dict[tuple[Any, ...], Belief] = {}
_BELIEFS_SIZE = 1024


def clear_caches() -> None:
    """Forget memoized programmes and beliefs (benchmarks, memory)."""
    _CACHE.clear()
    _BELIEFS.clear()


def _facts_of(
    state_or_observation: FugitiveState | FugitiveObservation, edition: int | None, canonical_order: bool
) -> _Facts:
    if isinstance(state_or_observation, FugitiveState):
        return _facts_from_state(state_or_observation)
    if isinstance(state_or_observation, FugitiveObservation):
        return _facts_from_observation(state_or_observation, edition or 1, canonical_order)
    raise TypeError(
        f"belief needs a FugitiveState or FugitiveObservation, got {type(state_or_observation).__name__}"
    )


def belief(
    state_or_observation: FugitiveState | FugitiveObservation,
    edition: int | None = None,
    max_edges: int | None = None,
    canonical_order: bool = False,
) -> Belief:
    """The detective's exact belief over the fugitive's hidden cards.

    Accepts a :class:`FugitiveState` (its detective's view is used) or the detective's
    :class:`FugitiveObservation`; ``edition`` and ``canonical_order`` matter only for an
    observation (the options are not part of it; a state brings its own): the edition for an
    edition-2 game, canonical order only for :attr:`Belief.exact` mid-stack.  The deck size
    (option ``escape_card``) is read from the state, or worked out from the observation's card
    counts.  Results are memoized on the facts.
    ``max_edges`` bounds the work: :class:`BeliefTooLarge` (a ValueError) when the count would
    need more edges (a live widget uses it; the default counts whatever it takes).
    """
    facts = _facts_of(state_or_observation, edition, canonical_order)
    key = (*_facts_key(facts), facts.stuck_first_turn, facts.canonical_pending)
    hit = _BELIEFS.get(key)
    if hit is not None:
        return hit
    result = _belief_of(facts, max_edges)
    if len(_BELIEFS) >= _BELIEFS_SIZE:
        _BELIEFS.pop(next(iter(_BELIEFS)))
    _BELIEFS[key] = result
    return result


def _belief_of(facts: _Facts, max_edges: int | None = None) -> Belief:
    prog = _programme_for(facts, max_edges)
    size = facts.size
    if prog.total == 0:
        raise ValueError("inconsistent observation: no fugitive world explains it")
    back = _plain_backward(prog)
    total = prog.total
    stacks = 1
    for i in range(1, size + 1):
        if facts.known[i] < 0:
            stacks *= math.factorial(facts.sprint_counts[i])
    worlds, rest = divmod(total, stacks)
    assert rest == 0, "ordered sprint stacks must divide evenly"

    # P(h_i = v): forward x edge x backward through the value layer of position i
    at_value: dict[int, list[int]] = {}
    for t, lay in enumerate(prog.layers):
        if lay.kind != _VALUE or facts.known[lay.position] >= 0:
            continue
        counts = [0] * 43
        fwd, nxt = prog.forward[t], back[t + 1]
        for src, dst, w, v in lay.edges:
            b = nxt.get(dst)
            if b is not None:
                counts[v] += fwd[src] * w * b[0]
        at_value[lay.position] = counts
    position_probs = {i: tuple(c / total for c in counts) for i, counts in at_value.items()}
    hideout_count = [0] * 43
    for counts in at_value.values():
        for v, c in enumerate(counts):
            hideout_count[v] += c
    hideout = tuple(c / total for c in hideout_count)
    return Belief(
        worlds=worlds,
        position_probs=position_probs,
        hideout_prob=hideout,
        exact=not (facts.stuck_first_turn or facts.canonical_pending),
        _where=lambda: _card_locations(_programme_for(facts), hideout),
    )


def _plain_backward(prog: _Programme) -> list[dict[int, list[int]]]:
    """The completions count from every state (computed once per programme, shared by sampling)."""
    if prog.back is None:
        prog.back = _backward(prog)
    return prog.back


def _card_locations(
    prog: _Programme, hideout: tuple[float, ...]
) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
    """P(sprint), P(hand), P(deck) per number.

    For a card ``v`` of class ``c``, by symmetry among the class's cards that are not hideouts,
    P(v sprint) = E[rho(final)] - E[rho(final) 1(v hideout)] with rho the share of class-``c``
    non-hideout cards under sprint stacks in that final state (likewise for the hand); the
    second term needs the backward weights of rho, one entry per class a hideout can come from.
    """
    facts = prog.facts
    interest = prog.classes_of_interest
    entries = (0, *(j for c in interest for j in (1 + 2 * c, 2 + 2 * c)))
    width = len(entries)
    back = _backward(prog, entries)
    joint = [[0] * 43 for _ in range(width)]  # summed over positions: hideout v x final entry
    for t, lay in enumerate(prog.layers):
        if lay.kind != _VALUE or facts.known[lay.position] >= 0:
            continue
        fwd, nxt = prog.forward[t], back[t + 1]
        for src, dst, w, v in lay.edges:
            b = nxt.get(dst)
            if b is None:
                continue
            through = fwd[src] * w
            for j in range(1, width):
                joint[j][v] += through * b[j]
    expect = [0] * (1 + 2 * CLASSES)
    last = prog.forward[-1]
    for key, fin in prog.finals.items():
        w = last[key]
        for j in range(1, 1 + 2 * CLASSES):
            expect[j] += w * fin[j]
    sprint = [0.0] * 43
    hand = [0.0] * 43
    deck = [0.0] * 43
    scale = prog.total * _SCALE
    class_of = facts.tables.class_of
    for v in cards_of(facts.unknown):
        c = class_of[v]
        js, jh = 1 + 2 * c, 2 + 2 * c
        if c in interest:
            k = 1 + 2 * interest.index(c)
            sprint[v] = (expect[js] - joint[k][v]) / scale
            hand[v] = (expect[jh] - joint[k + 1][v]) / scale
        else:
            sprint[v] = expect[js] / scale
            hand[v] = expect[jh] / scale
        deck[v] = max(0.0, 1.0 - hideout[v] - sprint[v] - hand[v])
    if facts.holds_last:
        hand[facts.last] = 1.0
    return tuple(sprint), tuple(hand), tuple(deck)


# ---------------------------------------------------------------------------- sampling
def _sample_world(facts: _Facts, rng: random.Random) -> tuple[list[int], list[list[int]], list[int]]:
    """One consistent world, uniformly: (hideout per position, sprint stack per position, hand)."""
    prog = _programme_for(facts)
    size = facts.size
    if prog.total == 0:
        raise ValueError("inconsistent observation: no fugitive world explains it")
    back = _plain_backward(prog)
    if prog.by_src is None:  # out-edges of every live state, once per programme
        prog.by_src = []
        for t, lay in enumerate(prog.layers):
            nxt = back[t + 1]
            index: dict[int, tuple[list[_Edge], list[int]]] = {}
            for e in lay.edges:
                b = nxt.get(e[1])
                if b is not None:
                    edges, weights = index.setdefault(e[0], ([], []))
                    edges.append(e)
                    weights.append(e[2] * b[0])
            prog.by_src.append(index)
    state = 0
    values = [0] * (size + 1)
    choices: list[list[int]] = [[] for _ in range(size + 1)]  # sprint labels per position
    for t, lay in enumerate(prog.layers):
        options, weights = prog.by_src[t][state]
        chosen = options[_pick(weights, rng)]
        if lay.kind == _SLOT:
            choices[lay.position].append(chosen[3])
        elif lay.kind == _VALUE:
            values[lay.position] = chosen[3]
        state = chosen[1]
    combo: tuple[tuple[int, ...], ...] | None = None
    if (state >> _NEED_SHIFT) & 63:
        # the hand must cover the pending deficit: draw its parity split with its weight first
        _, combos = _coupled_combos(prog, state)
        weights = [math.prod(o[0] for o in c) for c in combos]
        combo = combos[_pick(weights, rng)]

    taken = {v for i, v in enumerate(values) if i and facts.known[i] < 0}
    class_of = facts.tables.class_of
    pools = [
        [c for c in cards_of(facts.unknown) if class_of[c] == k and c not in taken] for k in range(CLASSES)
    ]
    for pool in pools:
        rng.shuffle(pool)
    stacks: list[list[int]] = [[] for _ in range(size + 1)]
    # fixed-parity sprint cards first, then the hand and the free-parity ones from what is left
    for i in range(1, size + 1):
        if facts.known[i] >= 0:
            stacks[i] = list(facts.known_sprints[i])
        else:
            stacks[i] = [pools[label].pop() for label in choices[i] if label < 8]
    hand: list[int] = []
    merged = []
    for g in range(GROUPS):
        odd, even = pools[2 * g], pools[2 * g + 1]
        if combo is not None:
            hand += odd[: combo[g][2]] + even[: combo[g][3]]
            odd, even = odd[combo[g][2] :], even[combo[g][3] :]
        cards = odd + even
        rng.shuffle(cards)
        merged.append(cards)
    for i in range(1, size + 1):
        if facts.known[i] < 0:
            stacks[i] += [merged[label - 8].pop() for label in choices[i] if label >= 8]
            if facts.canonical_order:
                stacks[i].sort()  # canonical order: the only order the rules allow
            else:
                rng.shuffle(stacks[i])
    if combo is None:
        hand += merged[0]  # every card of 1-3 left over
        for g in range(1, GROUPS):
            hand += merged[g][: facts.hand_unknown[g - 1] - ((state >> _U_SHIFT[g]) & 31)]
    if facts.holds_last:
        hand.append(facts.last)
    return values, stacks, sorted(hand)


def _pick(weights: list[int], rng: random.Random) -> int:
    """An index drawn with probability proportional to exact integer weights."""
    total = sum(weights)
    r = rng.randrange(total)
    for i, w in enumerate(weights):
        if r < w:
            return i
        r -= w
    raise AssertionError("unreachable")


def _assign_slots(
    cards: list[tuple[int, int]], slots: list[int], rng: random.Random
) -> dict[int, int] | None:
    """Give each card a distinct slot, uniformly among valid matchings.

    ``cards``: (card, bound) with a slot valid iff ``slot_key < bound`` for cards that must have
    arrived in time; ``slots``: the slots' keys.  Processing cards tightest bound first, the
    number of free valid slots never depends on earlier choices, so each step is uniform.
    Returns card -> slot index, or None if impossible.
    """
    order = sorted(cards, key=lambda cb: cb[1])
    used = [False] * len(slots)
    out = {}
    for card, bound in order:
        free = [j for j, key in enumerate(slots) if key < bound and not used[j]]
        if not free:
            return None
        j = free[int(rng.random() * len(free))]
        used[j] = True
        out[card] = j
    return out


def determinize(state: FugitiveState, player: int, rng: random.Random) -> FugitiveState:
    """A full state consistent with ``state.observation(player)``, sampled uniformly.

    The detective's seat samples a fugitive world uniformly (see :func:`belief`); the fugitive's
    seat samples the detective's hand uniformly among hands that never named one of its own
    cards.  The history is rewritten to match, then replayed, so the world's record replays.
    """
    if player == DETECTIVE:
        return _determinize_detective(state, rng)
    if player == FUGITIVE:
        return _determinize_fugitive(state, rng)
    raise ValueError(f"player must be 0 (fugitive) or 1 (detective), got {player!r}")


_ATTEMPTS = 2000


def _deal_slots(state: FugitiveState) -> list[tuple[int, int, int, int]]:
    """Every deal in the history: (history index, receiver, deck, hideouts on the table)."""
    out = []
    deal_no = 0
    setup_deals = state.layout.setup_deals
    for index, action in enumerate(state.history):
        if not isinstance(action, Deal):
            continue
        if index < len(setup_deals):
            out.append((index, FUGITIVE, setup_deals[index], 0))
        else:
            player, deck, on_table = state.draw_log[deal_no]
            out.append((index, player, deck, on_table))
            deal_no += 1
    return out


def _replay(state: FugitiveState, actions: list[Any]) -> FugitiveState | None:
    world = state.game.new_game(seed=state.seed)
    try:
        for action in actions:
            world.apply(action)
    except IllegalAction:
        return None
    assert isinstance(world, FugitiveState)
    return world


def _determinize_detective(state: FugitiveState, rng: random.Random) -> FugitiveState:
    facts = _facts_from_state(state)
    slots = [s for s in _deal_slots(state) if s[1] == FUGITIVE]
    setups = len(state.layout.setup_deals)
    group_of_card = facts.tables.group_of
    for _ in range(_ATTEMPTS):
        values, stacks, hand = _sample_world(facts, rng)
        # which deal brought each of the fugitive's deck cards: laid at i -> drawn before i
        assignment: dict[int, int] = {}
        ok = True
        for d in range(3):
            keys = [s[3] if s[0] >= setups else -1 for s in slots if s[2] == d]
            indices = [s[0] for s in slots if s[2] == d]
            cards = []
            for i in range(1, facts.size + 1):
                for c in (values[i], *stacks[i]):
                    if group_of_card[c] == d + 1:
                        cards.append((c, i))
            cards += [(c, 99) for c in hand if group_of_card[c] == d + 1]
            if len(cards) != len(keys):
                raise AssertionError(f"deck {d + 1}: {len(cards)} cards for {len(keys)} deals")
            matched = _assign_slots(cards, keys, rng)
            if matched is None:
                ok = False
                break
            for card, j in matched.items():
                assignment[indices[j]] = card
        if not ok:
            continue
        actions: list[Any] = []
        position, sprint_no = 0, 0
        for index, action in enumerate(state.history):
            if index in assignment:
                actions.append(f"deal {assignment[index]}")
            elif isinstance(action, Hide):
                position += 1
                sprint_no = 0
                actions.append(f"hide {values[position]}")
            elif isinstance(action, Sprint):
                actions.append(f"sprint {stacks[position][sprint_no]}")
                sprint_no += 1
            else:
                actions.append(action)
        world = _replay(state, actions)
        if world is not None:
            return world
    raise RuntimeError(
        "determinize: no consistent world found (edition-2 first-turn pass rejected every sample)"
    )


def _determinize_fugitive(state: FugitiveState, rng: random.Random) -> FugitiveState:
    """The detective's hand and deal order, sampled; with canonical order, redrawn until it replays.

    Canonical order adds a rule the deal order can break: a series may only start with a number
    that has a higher nameable one, so the detective's hand at that moment must leave one free.
    Those samples are rejected; without canonical order the first sample always replays.
    """
    slots = [s for s in _deal_slots(state) if s[1] == DETECTIVE]
    last_named: dict[int, int] = {}
    for index, action in enumerate(state.history):
        number = getattr(action, "number", None)
        if number is not None:
            last_named[number] = index
    attempts = _ATTEMPTS if state.canonical else 1
    for _ in range(attempts):
        assignment: dict[int, int] = {}
        for d in range(3):
            pool = cards_of(state.decks[d] | (state.dhand & state.layout.deck_masks[d]))
            mine = [s for s in slots if s[2] == d]
            chosen = _sample_detective_cards(pool, [s[0] for s in mine], last_named, rng)
            # a card named at step t came to the detective's hand after t: slot index > t
            cards = [(c, -last_named.get(c, -1)) for c in chosen]
            matched = _assign_slots(cards, [-s[0] for s in mine], rng)
            assert matched is not None
            for card, j in matched.items():
                assignment[mine[j][0]] = card
        actions = [f"deal {assignment[i]}" if i in assignment else a for i, a in enumerate(state.history)]
        world = _replay(state, actions)
        if world is not None:
            return world
    if not state.canonical:
        raise AssertionError("determinize: the rewritten history does not replay")
    raise RuntimeError("determinize: no detective hand found that keeps every series in canonical order")


def _sample_detective_cards(
    pool: list[int], slots: list[int], last_named: dict[int, int], rng: random.Random
) -> list[int]:
    """Uniformly, ``len(slots)`` cards of ``pool`` the detective can have drawn at those steps.

    A card named at step ``t`` cannot have been in the detective's hand then, so it came with a
    deal after ``t``.  Group the cards by ``rank`` = how many deals came before their last
    naming; a hand is possible iff, for every ``k``, at most ``m - k`` of its cards have rank
    ``>= k`` (Hall's condition for suffixes).  Count hands by rank groups, then sample.
    """
    m = len(slots)
    order = sorted(slots)
    groups: list[list[int]] = [[] for _ in range(m + 1)]
    for c in pool:
        named = last_named.get(c, -1)
        groups[bisect.bisect_left(order, named + 1)].append(c)
    memo: dict[tuple[int, int], int] = {}

    def ways(k: int, taken: int) -> int:
        # choices among groups k, k-1, ..., 0 given ``taken`` cards of rank > k
        if k < 0:
            return 1 if taken == m else 0
        key = (k, taken)
        if key not in memo:
            memo[key] = sum(
                math.comb(len(groups[k]), j) * ways(k - 1, taken + j)
                for j in range(len(groups[k]) + 1)
                if taken + j <= m - k
            )
        return memo[key]

    if ways(m - 1, 0) == 0:
        raise ValueError("inconsistent state: no detective hand fits the guesses it made")
    chosen: list[int] = []
    taken = 0
    for k in range(m - 1, -1, -1):
        options = [j for j in range(len(groups[k]) + 1) if taken + j <= m - k]
        weights = [math.comb(len(groups[k]), j) * ways(k - 1, taken + j) for j in options]
        j = options[_pick(weights, rng)]
        chosen += rng.sample(groups[k], j)
        taken += j
    return chosen
