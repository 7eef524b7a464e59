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

:func:`belief` weighs these worlds exactly (Python ints) under a measure — ``"deals"`` (default:
a world counts as many times as deal orders produce it, what shuffled decks imply) or
``"worlds"`` (each world once) — and gives the probability of each number at each face-down
position, of being any hideout, a sprint card or in the fugitive's hand.  :func:`determinize`
samples one world exactly from a measure and turns it into a full
:class:`~gamelib.fugitive.rules.FugitiveState` whose history replays.

How the count works (a forward/backward dynamic programme over positions):

* cards fall into 4 *groups* ({1, 2, 3} and the three decks), each split by parity into 2
  *classes*.  Only a sprint card's group matters to the rules (timing) and, for footprints, how
  many of a stack are even, so sprint identities are deferred: the programme chooses how many
  cards of each group a stack takes (binomial weights, a share the later groups could not
  complete is never tried), and final per-group weights (falling factorials) pick the cards;
* footprints: a stack needs at least ``need`` even cards.  With the signed identity
  ``1[e >= need] = sum_j (-1)^(j-need) C(j-1, need-1) C(e, j)`` only *marked* even cards enter the
  state; weights may then be negative, and a state whose weight cancels to 0 stays in the
  programme (one hideout value's paths through it need not cancel);
* a state is one int: per group the cards laid, the hideouts and even hideouts, the marked
  evens; the previous hideout; the failed series' progress; mid-stack scratch.  A group whose
  cards are all laid folds its final weight in and forgets its counts (count only), so states
  merge; the last stack has no layers of its own: its completions are summed in closed form,
  groups {0, 1} and {2, 3} each memoised on their own counts and met by a binomial convolution
  (one vector by marked evens serves every need);
* counting only (no card locations, no sampling), a stack's four group layers run as two
  composed pairs, and every layer's moves are memoised on the bits of the state they read and
  added to each state (the closing groups then folded in through a memo on the counts); the last
  layer's edges carry their final weights directly (no layer of final states);
* ``"deals"`` multiplies, per position and deck, the ways to give the cards laid there a free
  draw made before (a falling factorial), and the hand's cards the rest (``hand!``);
* the hideout probabilities come from one backward pass over the forward edges; the card
  locations (sprint, hand, deck) use, by symmetry inside a class, the share of a class's
  non-hideout cards in each place, through a second backward pass on a programme that keeps every
  layer (computed on first use).

Two cases are not counted exactly: in the second edition, a fugitive who stops after a single
first-turn hideout must have been unable to place another; and with ``canonical_order``, a
fugitive in the middle of a sprint stack must still hold, above its last sprint card, the
footprints the hideout needs (the DP only knows the classes of the cards, not their order).
:func:`belief` ignores those constraints (``Belief.exact`` is then False) and :func:`determinize`
rejects the worlds that break them, so its samples stay exact.
"""

from __future__ import annotations

import bisect
import functools
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gamelib.core.errors import IllegalAction
from gamelib.core.game import InformationState
from gamelib.fugitive.board import PUBLISHED
from gamelib.fugitive.rules import (
    DEAL,
    DETECTIVE,
    F_SPRINT,
    FUGITIVE,
    LAST,
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


def _add_product(acc: list[int], x: list[int], y: list[int], c: int) -> None:
    """``acc += c * x * y`` for polynomials as coefficient lists (by marked even cards): the one
    convolution the last stack's counts are built from."""
    need = len(x) + len(y) - 1
    if len(acc) < need:
        acc.extend([0] * (need - len(acc)))
    for s, xs in enumerate(x):
        if xs:
            xs *= c
            for t, yt in enumerate(y, s):
                if yt:
                    acc[t] += xs * yt


__all__ = [
    "MEASURES",
    "Belief",
    "BeliefTooLarge",
    "belief",
    "card_class",
    "clear_caches",
    "determinize",
    "group_of",
]

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


@dataclass(frozen=True)
class _Tables:
    """Per-card lookup tables of one deck size, indexed 0..42 (-1 / 0 from the escape card up).

    Classes and groups follow the deck ranges, so every layout has its own tables; they are
    built once per escape card (:func:`_tables`) and read as plain tuples on the hot paths.
    """

    layout: Layout
    class_of: tuple[int, ...]
    group_of: tuple[int, ...]


@functools.lru_cache(maxsize=64)
def _tables(last: int) -> _Tables:
    layout = layout_for(last)
    group = tuple(group_of(c, layout) if 1 <= c < last else -1 for c in range(43))
    klass = tuple(2 * group[c] + (1 - c % 2) if group[c] >= 0 else -1 for c in range(43))
    return _Tables(layout, klass, group)


# The published game's tables, kept under their historical names.
_CLASS_OF = _tables(LAST).class_of
_GROUP_OF = _tables(LAST).group_of


_COMB = [[math.comb(n, k) for k in range(n + 1)] + [0] * (64 - n) for n in range(64)]
"""Binomial coefficients C(n, k) for n < 64 (0 for k > n): the hot loops read them as lists."""
_FALL = [[math.perm(n, k) for k in range(n + 1)] + [0] * (64 - n) for n in range(64)]
"""Falling factorials n (n-1) ... (n-k+1) for n < 64 (0 for k > n)."""


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


_PUBLIC_VERBS: dict[type, str] = {
    Hide: "hide",
    Guess: "guess",
    Add: "add",
    Reveal: "reveal",
    Pass: "pass",
    Draw: "draw",
    Deal: "deal",
}
"""The actions whose kind the detective sees (what the facts read), by their exact class."""


def _facts_from_state(state: FugitiveState) -> _Facts:
    """The detective's facts read straight from a state (no observation strings to build)."""
    public: list[tuple[str, int]] = []
    verbs = _PUBLIC_VERBS
    for action in state.history:
        verb = verbs.get(type(action))
        if verb is None:
            continue
        if verb == "guess" or verb == "add":
            assert isinstance(action, (Guess, Add))  # for mypy: checked on these steps only
            public.append((verb, action.number))
        else:
            public.append((verb, 0))
    return _build_facts(
        hideouts=[h if r else -1 for h, r in zip(state.hideouts, state.revealed, strict=True)],
        sprint_counts=[len(s) for s in state.sprints],
        face_up_sprints=[s if state.sprints_shown(i) else () for i, s in enumerate(state.sprints)],
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


def _facts_from_observation(
    obs: FugitiveObservation, edition: int, canonical: bool = False, history: tuple[str, ...] | None = None
) -> _Facts:
    if obs.detective_hand is None:
        raise ValueError("belief needs the detective's view: this observation hides the detective's hand")
    if history is None:
        history = getattr(obs, "history", None)
    if history is None:
        raise ValueError(
            "belief needs the detective's history as well as its observation: "
            "pass state.information_state(DETECTIVE)"
        )
    public: list[tuple[str, int]] = []
    for text in history:
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
    # [i][d]: fugitive cards of deck d usable at i (draws counted where they start, then summed)
    starts = [[0] * 3 for _ in range(size + 2)]
    for d in setup_deals[:setup_done]:
        starts[0][d] += 1
    for player, deck, on_table in log:
        if player == FUGITIVE and on_table + 1 <= size + 1:
            starts[on_table + 1][deck] += 1
    drawn_before = []
    running = [0, 0, 0]
    for row in starts:
        running = [running[d] + row[d] for d in range(3)]
        drawn_before.append(running)
    known_used = [0, 0, 0]
    caps: list[tuple[int, int, int]] = [(0, 0, 0)]
    for i in range(1, size + 1):
        for c in ((hideouts[i],) if hideouts[i] >= 0 else ()) + tuple(face_up_sprints[i]):
            g = group_of_card[c]
            if g >= 1:
                known_used[g - 1] += 1
        drawn = drawn_before[i]
        caps.append((drawn[0] - known_used[0], drawn[1] - known_used[1], drawn[2] - known_used[2]))
    total_drawn = drawn_before[size + 1]
    hand_unknown = (
        total_drawn[0] - known_used[0],
        total_drawn[1] - known_used[1],
        total_drawn[2] - known_used[2],
    )

    # the detective's guesses, replayed in order: a hit turns its hideout face up (``found``); a
    # miss rules its number out of the positions then on the table; a failed series says that not
    # all of its numbers were face-down hideouts, unless one of them was certainly not one then
    # (face up already: rules v2 let the detective name it), and then it says nothing at all
    revealed_at = {h: i for i, h in enumerate(hideouts) if h >= 0}
    forbidden = [0] * (size + 1)
    series_constraints: list[tuple[tuple[int, ...], int]] = []
    on_table, pending_series = 0, []
    found = 0  # hideouts turned face up by the detective so far (bit per number)
    first_turn_hides, first_turn_passed, first_turn = 0, False, True
    for verb, arg in public:
        if first_turn and on_table > 0 and verb in ("draw", "guess", "add"):
            first_turn = False  # the detective's first action ends the fugitive's first turn
        if verb == "hide":
            on_table += 1
            if first_turn:
                first_turn_hides += 1
        elif verb == "pass" and first_turn:
            first_turn_passed = True
        elif verb == "guess":
            if 0 < revealed_at.get(arg, size + 1) <= on_table and not found >> arg & 1:
                found |= 1 << arg  # a hit: face down then, face up from now on
            elif not 0 < revealed_at.get(arg, size + 1) <= on_table:
                for i in range(1, on_table + 1):
                    forbidden[i] |= 1 << arg
        elif verb == "add":
            pending_series.append(arg)
        elif verb == "reveal":
            in_time = all(0 < revealed_at.get(n, size + 1) <= on_table for n in pending_series)
            certain_miss = any(found >> n & 1 for n in pending_series)
            if in_time and not certain_miss:
                for n in pending_series:  # the series hit: its hideouts are face up from now on
                    found |= 1 << n
            elif not certain_miss:
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
        caps=tuple(caps),
        hand_unknown=hand_unknown,
        forbidden=tuple(forbidden),
        series=tuple(series_constraints),
        pending=phase == F_SPRINT,
        holds_last=holds_last,
        stuck_first_turn=edition == 2 and first_turn_passed and first_turn_hides == 1,
        canonical_order=canonical,
        canonical_pending=canonical and phase == F_SPRINT and sprint_counts[size] > 0,
    )


# ---------------------------------------------------------------------------- the programme
# A forward dynamic programme over positions whose state is one int (see the module docstring):
#   u_g   hidden cards of group g laid so far (hideouts and sprint cards)     5 bits x 4
#   H_g   hidden hideouts of group g, He_g the even ones                       4 bits x 4, x 4
#   M_g   marked even sprint cards of group g (the footprint identity)        4 bits x 4
#   prev  the previous hideout; while a stack is allocated: cards left, marks at this position
#         and the even cards the position needs; then the failed-series progress.
_U_SH = (0, 5, 10, 15)
_H_SH = (20, 24, 28, 32)
_HE_SH = (36, 40, 44, 48)
_M_SH = (52, 56, 60, 64)
_PREV = 68
_LEFT = 74
_JM = 80
_NEED = 86
_PROG = 93
_SCRATCH = ((1 << _PROG) - 1) ^ ((1 << _LEFT) - 1)
_KEEP = (1 << _PREV) - 1
_DONE = 63
"""Progress value of a failed series already explained (one of its numbers was skipped)."""
_CLOSED = 15
"""H value of a group whose cards are all laid: its final weight is already in (count only)."""
_LOWER = tuple(
    sum((15 if sh != _U_SH else 31) << sh[x] for sh in (_U_SH, _H_SH, _HE_SH, _M_SH) for x in range(g + 1))
    for g in range(4)
)
"""Per group g: the mask of the counts of groups 0..g (what the last stack's completion from g reads:
it runs from group 3 down, so the group a late hideout changes is behind it and the rest is shared)."""

_HALVES = {
    first: sum(
        (31 << _U_SH[g]) | (15 << _H_SH[g]) | (15 << _HE_SH[g]) | (15 << _M_SH[g]) for g in (first, first + 1)
    )
    for first in (0, 2)
}
"""The counts of groups {0, 1} and of groups {2, 3}: what each half of the last stack's sum reads."""

"""The first group of each pair of group layers composed into one layer (counting only)."""

MEASURES = ("deals", "worlds")
"""``deals``: a world weighs the number of deal orders that produce it (shuffled decks);
``worlds``: every consistent world counts once."""

_VALUE, _GROUP, _PAIR = 0, 1, 2
_PAIRED = ((_PAIR, 0), (_PAIR, 2))
_GROUP_BITS = tuple((15 << _H_SH[g]) | (15 << _HE_SH[g]) | (15 << _M_SH[g]) for g in range(4))
"""Per group: its hideout, even hideout and mark counts (with u, what its final weight reads)."""
_VALUE_READS = sum(31 << sh for sh in _U_SH) | ~((1 << _PREV) - 1)
"""The state's bits a value move reads: the groups' card counts, the previous hideout, the
series' progress (and the scratch, empty between positions)."""
_PAIR_READS = {
    first: (63 << _LEFT)
    | (63 << _JM)
    | (127 << _NEED)
    | sum(31 << _U_SH[g] for g in range(first, GROUPS))
    | sum((15 << _HE_SH[g]) | (15 << _M_SH[g]) for g in (first, first + 1))
    for first in (0, 2)
}
"""Per pair of groups: the state's bits their moves read (cards to allocate, marks, need, the
counts of these groups and of the later ones, their even hideouts and marks)."""
"""A stack's layers when only counting: groups {0, 1}, then {2, 3}, each pair composed in one layer."""


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
        shown = facts.known_sprints[i]
        span = STEP_LIMIT + sum(2 - c % 2 for c in shown) + 2 * (facts.sprint_counts[i] - len(shown))
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


def _active_series(facts: _Facts, reach: list[int] | None = None) -> list[tuple[tuple[int, ...], int]]:
    """The failed series that can still constrain the worlds, their numbers trimmed."""
    if not facts.series:
        return []
    if reach is None:
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


def _coef(marks: int, need: int) -> int:
    """The weight of ``marks`` marked even cards so that a stack counts iff it has >= ``need`` evens.

    For a stack with ``e`` even cards, ``sum_j coef(j, need) * C(e, j) = 1 if e >= need else 0``
    (for ``need`` >= 1: ``coef = (-1)^(j - need) C(j - 1, need - 1)``), so summing over marked
    subsets of the evens with these signed weights counts each valid stack exactly once.
    """
    if need <= 0:
        return 1 if marks == 0 else 0
    if marks < need:
        return 0
    c = math.comb(marks - 1, need - 1)
    return -c if (marks - need) & 1 else c


_COEFS = [[_coef(marks, need) for marks in range(128)] for need in range(128)]
"""``_COEFS[need][marks]`` is ``_coef(marks, need)``: the hot loops read it as lists."""


class BeliefTooLarge(ValueError):
    """Counting the worlds would exceed the edge budget given to :func:`belief`.

    The published game never needs it any more (every reference position counts in well under
    a second), but a live view may still ask for a budget on doctored or unusual positions.
    """


@dataclass
class _Programme:
    """The forward programme for one set of facts and one measure, with its final weights."""

    facts: _Facts
    measure: str
    relaxed: bool  # footprints ignored (a proposal for rejection sampling)
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
    saved: list[dict[int, list[tuple[int, int, int]]]] | None = None  # forward edges, until the backward pass
    weights_memo: dict[tuple[int, int, int], list[int]] = field(default_factory=dict)
    tail: bool = False  # the last layer's edges carry their final weights (counting only)
    folded: bool = False  # the last stack is summed in closed form (no group layers at the end)
    npos: int = 0  # positions on the table (facts.size, read on the hot paths)
    pending_pos: int = -1  # the position still getting sprint cards (the hand may pay), or -1
    slots: list[tuple[int, ...]] = field(
        default_factory=list
    )  # per position, per group: draws - face-up before (-1: none)
    group_tab: tuple[int, ...] = ()  # per card: its group (facts.tables.group_of)
    hide_inc: tuple[int, ...] = ()  # per card: what hiding it adds to the counts (u, H, He of its group)
    full_u: tuple[int, ...] = ()  # per group: the count at which a group is closed (no card can follow)
    closing: bool = False  # fold closed groups' final weights in as they close (the count only)
    mark_vectors: dict[int, list[int]] = field(default_factory=dict)  # by counts | left << _LEFT
    halves: dict[int, list[list[int]]] = field(default_factory=dict)  # by counts | first << _LEFT
    polys: dict[tuple[int, int, int], list[list[int]]] = field(default_factory=dict)  # _group_poly
    closed_memo: dict[int, tuple[int, int]] = field(default_factory=dict)  # _close_groups by counts
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
        if kind == _VALUE:
            return self._value_moves(i, src)
        if kind == _PAIR:
            return self._pair_moves(i, g, src, {})
        return self._group_moves(i, g, src)

    def _memo_value_moves(
        self, i: int, src: int, memo: dict[int, list[tuple[int, int, int]]], closes: bool
    ) -> list[tuple[int, int, int]]:
        """:meth:`_value_moves` through ``memo`` (one layer): the moves add to the state's counts
        what depends only on the groups' card counts, the previous hideout and the series'
        progress (``_VALUE_READS``); a position that closes then folds in the groups it completes."""
        sig = src & _VALUE_READS
        hit = memo.get(sig)
        if hit is None:
            base = sig & _KEEP
            hit = memo[sig] = [(dst - base, w, v) for dst, w, v in self._value_moves(i, sig, False) if w]
        base = src & _KEEP
        if not closes:
            return [(base + delta, w, v) for delta, w, v in hit]
        out = []
        closed, close_groups = self.closed_memo, self._close_groups
        for delta, w, v in hit:
            dst = base + delta
            low = dst & _KEEP
            shut = closed.get(low)
            if shut is None:
                close_groups(dst)
                shut = closed[low]
            if shut[1]:
                out.append(((dst ^ low) | shut[0], w * shut[1], v))
        return out

    def _pair_moves(
        self, i: int, g: int, src: int, memo: dict[int, list[tuple[int, int]]]
    ) -> list[tuple[int, int, int]]:
        """Groups ``g`` and ``g + 1`` in one layer (their moves composed): no layer of intermediate
        states to store and walk.  The moves add to the state what depends only on the bits the two
        groups read (``_PAIR_READS``): ``memo`` keeps them by those bits, for the whole layer."""
        sig = src & _PAIR_READS[g]
        hit = memo.get(sig)
        if hit is None:
            hit = []
            group_moves = self._group_moves
            for mid, w1, _ in group_moves(i, g, sig, False):
                for dst, w2, _ in group_moves(i, g + 1, mid, False):
                    w = w1 * w2
                    if w:
                        hit.append((dst - sig, w))
            memo[sig] = hit
        if g + 1 == GROUPS - 1 and self.closing and i != self.pending_pos:
            out = []
            closed, close_groups = self.closed_memo, self._close_groups
            for delta, w in hit:  # the position closes: fold in the groups it completes
                dst = src + delta
                low = dst & _KEEP
                shut = closed.get(low)
                if shut is None:
                    close_groups(dst)  # memoises it
                    shut = closed[low]
                if shut[1]:
                    out.append(((dst ^ low) | shut[0], w * shut[1], 0))
            return out
        return [(src + delta, w, 0) for delta, w in hit]

    def _close_ok(self, i: int, state: int) -> bool:
        cap = self.capg[i]
        return (
            (state & 31) <= cap[0]
            and (state >> 5) & 31 <= cap[1]
            and (state >> 10) & 31 <= cap[2]
            and (state >> 15) & 31 <= cap[3]
        )

    def _value_moves(self, i: int, src: int, close: bool = True) -> list[tuple[int, int, int]]:
        prev = (src >> _PREV) & 63
        progress = src >> _PROG
        base = src & _KEEP
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
        relaxed = self.relaxed
        # need = v - offset: the even cards the stack must hold beyond its odd footprints
        offset = prev + STEP_LIMIT + self.fixed_fp[i] + n + (self.hand_count if pending else 0)
        hidden = self.hidden[i]
        w = 1
        if hidden:
            # per group: -1 if it has no card left for this position, else the free draws (deals)
            cap, drawn, before = self.capg[i], self.drawn[i], self.known_before[i]
            room = []
            for g in range(GROUPS):
                u = (base >> _U_SH[g]) & 31
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
                    w *= _falling(drawn[d] - ((base >> _U_SH[d + 1]) & 31) - before[d], c)
            if not w:
                return []
        out = []
        for v in values[lo:hi]:
            new_progress = progress
            if active:
                new_progress = _advance(progress, active, v, i)
                if new_progress < 0:
                    continue
            need = v - offset
            if relaxed or need < 0:
                need = 0
            new = base
            if hidden:
                w = room[group[v]]
                if w < 0:
                    continue
                new += inc[v]
            if n:
                dst = new | (n << _LEFT) | (need << _NEED)
            else:
                if not self._close_ok(i, new):
                    continue
                if pending:
                    dst = new | (need << _NEED)
                elif need:
                    continue
                elif close and self.closing and not last:
                    dst, f = self._close_groups(new)
                    if not f:
                        continue
                    out.append((dst | (v << _PREV) | (new_progress << _PROG), w * f, v))
                    continue
                else:
                    dst = new
            if not last:
                dst |= (v << _PREV) | (new_progress << _PROG)
            out.append((dst, w, v))
        return out

    def _group_moves(self, i: int, g: int, src: int, close: bool = True) -> list[tuple[int, int, int]]:
        left = (src >> _LEFT) & 63
        u_shift = _U_SH[g]
        u = (src >> u_shift) & 31
        cap = self.capg[i]
        room = cap[g] - u
        if room > left:
            room = left
        if g == GROUPS - 1:  # the last group takes what is left, and the position closes
            if left > room:
                return []
            lowest = left
        else:
            # the groups after this one must have room for the rest of the stack
            later = 0
            for h in range(g + 1, GROUPS):
                later += cap[h] - ((src >> _U_SH[h]) & 31)
            lowest = left - later
            if lowest < 0:
                lowest = 0
            if lowest > room:
                return []
        closing = g == GROUPS - 1
        need = (src >> _NEED) & 127
        pending = i == self.pending_pos  # the hand may still pay: no closing weight
        evens = 0
        if need:
            evens = self.avail[2 * g + 1] - ((src >> _HE_SH[g]) & 15) - ((src >> _M_SH[g]) & 15)
        marks = (src >> _JM) & 63
        comb = _COMB
        coefs = _COEFS[need]
        free_slots = self.slots[i][g]
        if free_slots >= 0:
            free_slots -= u
        m_shift = _M_SH[g]
        out = []
        for k in range(lowest, room + 1):
            wk = comb[left][k]
            if free_slots >= 0 and k:
                if k > free_slots:
                    break
                wk *= _FALL[free_slots][k]
            step = src + (k << u_shift) - (k << _LEFT)
            if not need:
                if closing and not pending:
                    if marks:
                        continue  # _coef(marks, 0) is 0
                    step &= ~_SCRATCH
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
                if not pending and m + rest < need:
                    continue  # even the cards still to allocate could not all be marked enough
                w = wk * comb[k][j] if j else wk
                dst = step + (j << m_shift) + (j << _JM) if j else step
                if closing and not pending:
                    c = coefs[m]
                    if not c:
                        continue
                    w *= c
                    dst &= ~_SCRATCH
                    if close and self.closing:
                        dst, f = self._close_groups(dst)
                        w *= f
                        if not w:
                            continue
                out.append((dst, w, k))
        return out

    # ------------------------------------------------------------------ final weights
    def _mark_vector(self, left: int, state: int) -> list[int]:
        """The last stack's completions, times every group's final weight, for every need at once:
        entry ``t`` sums them with ``t`` marked even cards (the hand's too when pending).

        ``left`` cards of the stack are still to allocate; ``state`` holds each group's
        (u, H, He, M) before this stack's share.  The stack's cards go to the groups in
        ``C(left; k0, k1, k2, k3)`` ways, so the sum splits into groups {0, 1} and {2, 3}
        (:meth:`_half`), each memoised on its own counts, met here: the same sums as the group
        layers, shared by every need (0 included).
        """
        key = (state & _LOWER[GROUPS - 1]) | left << _LEFT
        hit = self.mark_vectors.get(key)
        if hit is not None:
            return hit
        halves = self.halves
        low = halves.get(state & _HALVES[0])  # the keys of :meth:`_half`
        if low is None:
            low = self._half(0, state)
        high = halves.get((state & _HALVES[2]) | 2 << _LEFT)
        if high is None:
            high = self._half(2, state)
        out: list[int] = []
        comb = _COMB[left]
        for a in range(min(left, len(low) - 1) + 1):
            b = left - a
            if b >= len(high):
                continue
            x, y = low[a], high[b]
            if not x or not y:
                continue
            _add_product(out, x, y, comb[a])
        self.mark_vectors[key] = out
        return out

    def _unmarked(self, left: int, state: int) -> int:
        """Entry 0 of :meth:`_mark_vector` (what a hideout that needs no even card reads), alone."""
        key = (state & _LOWER[GROUPS - 1]) | left << _LEFT
        hit = self.mark_vectors.get(key)
        if hit is not None:
            return hit[0] if hit else 0
        halves = self.halves
        low = halves.get(state & _HALVES[0])  # the keys of :meth:`_half`
        if low is None:
            low = self._half(0, state)
        high = halves.get((state & _HALVES[2]) | 2 << _LEFT)
        if high is None:
            high = self._half(2, state)
        comb = _COMB[left]
        total = 0
        for a in range(min(left, len(low) - 1) + 1):
            b = left - a
            if b < len(high):
                x, y = low[a], high[b]
                if x and y and x[0] and y[0]:
                    total += comb[a] * x[0] * y[0]
        return total

    def _half(self, first: int, state: int) -> list[list[int]]:
        """Groups ``first`` and ``first + 1`` of the last stack: entry ``k`` is, by marked even
        cards, the weight of giving them ``k`` of its cards (``C(k, k0)`` ways to split them),
        times their final weights."""
        key = (state & _HALVES[first]) | first << _LEFT
        hit = self.halves.get(key)
        if hit is not None:
            return hit
        polys = self.polys
        pkey = (first, (state >> _U_SH[first]) & 31, state & _GROUP_BITS[first])
        p = polys.get(pkey)
        if p is None:
            p = polys[pkey] = self._group_poly(first, state)
        qkey = (first + 1, (state >> _U_SH[first + 1]) & 31, state & _GROUP_BITS[first + 1])
        q = polys.get(qkey)
        if q is None:
            q = polys[qkey] = self._group_poly(first + 1, state)
        out: list[list[int]] = []
        for k0, x in enumerate(p):
            if not x:
                continue
            for k1, y in enumerate(q):
                if not y:
                    continue
                k = k0 + k1
                while len(out) <= k:
                    out.append([])
                _add_product(out[k], x, y, _COMB[k][k0])
        self.halves[key] = out
        return out

    def _group_poly(self, g: int, state: int) -> list[list[int]]:
        """Group ``g`` of the last stack: entry ``k`` is, by marked even cards, the weight of
        giving it ``k`` of the stack's cards (free draws, marked evens) times its final weight."""
        size = self.npos
        u = (state >> _U_SH[g]) & 31
        h = (state >> _H_SH[g]) & 15
        he = (state >> _HE_SH[g]) & 15
        m = (state >> _M_SH[g]) & 15
        room = min(self.stack[size], self.capg[size][g] - u)
        evens = self.avail[2 * g + 1] - he - m
        limit = self.hand_count if self.facts.pending else 0
        free_slots = -1
        if g and self.measure == "deals":
            free_slots = self.drawn[size][g - 1] - u - self.known_before[size][g - 1]
        memo = self.weights_memo
        out: list[list[int]] = []
        for k in range(max(room, -1) + 1):
            wk = 1
            if free_slots >= 0 and k:
                if k > free_slots:
                    break
                wk = _FALL[free_slots][k]
            row: list[int] = []
            for j in range(min(k, evens) + 1):
                wkey = (g | limit << 2, (u + k) | h << 5 | he << 9, m + j)
                parts = memo.get(wkey)
                if parts is None:
                    parts = memo[wkey] = self._group_weights_of(g, u + k, h, he, m + j, limit)
                w = wk * _COMB[k][j]
                for jp, x in enumerate(parts, j):
                    if x:
                        while len(row) <= jp:
                            row.append(0)
                        row[jp] += w * x
            out.append(row)
        return out

    def _close_groups(self, state: int) -> tuple[int, int]:
        """Fold in the final weight of every group that can take no more card (all of its cards
        laid), and forget its hideout and mark counts (H = 15 marks it closed): states merge."""
        low = state & _KEEP  # the per-group counts: all that closing reads and changes
        hit = self.closed_memo.get(low)
        if hit is None:
            factor, new = 1, low
            for g in range(GROUPS):
                if (new >> _U_SH[g]) & 31 == self.full_u[g] and (new >> _H_SH[g]) & 15 != _CLOSED:
                    factor *= self._group_weights(new, g, 0)[0]
                    new &= ~((15 << _H_SH[g]) | (15 << _HE_SH[g]) | (15 << _M_SH[g]))
                    new |= _CLOSED << _H_SH[g]
            hit = self.closed_memo[low] = (new, factor)
        return (state ^ low) | hit[0], hit[1]

    def _group_weights(self, state: int, g: int, hand_marks: int) -> list[int]:
        """Completions of group ``g``, by the number of marked even cards in the hand (pending)."""
        u = (state >> _U_SH[g]) & 31
        h = (state >> _H_SH[g]) & 15
        he = (state >> _HE_SH[g]) & 15
        m = (state >> _M_SH[g]) & 15
        key = (g | hand_marks << 2, u | h << 5 | he << 9, m)
        hit = self.weights_memo.get(key)
        if hit is None:
            hit = self.weights_memo[key] = self._group_weights_of(g, u, h, he, m, hand_marks)
        return hit

    def _group_weights_of(self, g: int, u: int, h: int, he: int, m: int, hand_marks: int) -> list[int]:
        if h == _CLOSED:
            return [1]  # folded in when the group closed
        a = self.gavail[g]
        a_even = self.avail[2 * g + 1]
        f = u - h - m
        hand = a - u if g == 0 else self.fug[g] - u
        if f < 0 or hand < 0 or hand > a - u:
            return [0]
        evens = a_even - he
        base = _falling(evens, m)
        if not base:
            return [0]
        if self.measure == "deals" and g:
            base *= math.factorial(hand)
        out = []
        for jp in range(min(hand, hand_marks) + 1):
            pool = a - h - m - jp
            out.append(
                base * math.comb(evens - m, jp) * _falling(pool, f) * math.comb(pool - f, hand - jp)
                if evens - m >= jp
                else 0
            )
        return out

    def final_weight(self, state: int) -> int:
        facts = self.facts
        if self.folded:
            left, marks, need = (state >> _LEFT) & 63, (state >> _JM) & 63, (state >> _NEED) & 127
            if not need and not marks:  # no even card needed: only the unmarked completions
                return self._unmarked(left, state)
            # the same sums for every need: by the number of marked evens, then weighed
            vector = self._mark_vector(left, state)
            coefs = _COEFS[need]
            total = 0
            for t, x in enumerate(vector, marks):
                if x:
                    total += coefs[t] * x
            return total
        if not facts.pending:
            w = 1
            for g in range(GROUPS):
                w *= self._group_weights(state, g, 0)[0]
                if not w:
                    return 0
            return w
        need = (state >> _NEED) & 127
        marks = (state >> _JM) & 63
        conv = [1]
        limit = self.hand_count if need else 0
        for g in range(GROUPS):
            part = self._group_weights(state, g, limit)
            nxt = [0] * (len(conv) + len(part) - 1)
            for a_, x in enumerate(conv):
                if x:
                    for b_, y in enumerate(part):
                        nxt[a_ + b_] += x * y
            conv = nxt
        return sum(x * _coef(marks + jp, need) for jp, x in enumerate(conv) if x)


def _build(
    facts: _Facts,
    measure: str,
    relaxed: bool = False,
    max_edges: int | None = None,
    fixed: dict[int, int] | None = None,
    full: bool = False,
) -> _Programme:
    """The programme of ``facts``; ``fixed`` (position -> value) keeps only the worlds with those
    face-down hideouts (tests count a marginal that way, independently of the backward pass)."""
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {MEASURES}, got {measure!r}")
    size = facts.size
    tables = facts.tables
    class_of, group = tables.class_of, tables.group_of
    unknown = cards_of(facts.unknown)
    counted = [0] * CLASSES
    for c in unknown:
        counted[class_of[c]] += 1
    avail = tuple(counted)
    gavail = tuple(avail[2 * g] + avail[2 * g + 1] for g in range(GROUPS))
    fug = (gavail[0], *facts.hand_unknown)
    hidden = [False] + [facts.known[i] < 0 for i in range(1, size + 1)]
    # the face-down sprint cards of each position: all of them under a face-down hideout, none under
    # a face-up one, unless its sprint cards stay face down (the escape card, escape_sprints="hidden")
    stack = [0] + [facts.sprint_counts[i] - len(facts.known_sprints[i]) for i in range(1, size + 1)]
    hidden_cards = sum(hidden) + sum(stack)
    hand_count = gavail[0] + sum(facts.hand_unknown) - hidden_cards
    prog = _Programme(facts, measure, relaxed, avail, gavail, fug, hand_count)
    prog.npos = size
    prog.group_tab = group
    prog.hide_inc = tuple(
        (1 << _U_SH[group[v]]) + (1 << _H_SH[group[v]]) + ((1 - v % 2) << _HE_SH[group[v]])
        if group[v] >= 0
        else 0
        for v in range(43)
    )
    prog.full_u = (gavail[0], *(min(fug[g], gavail[g]) for g in range(1, GROUPS)))
    prog.hidden, prog.stack = hidden, stack
    for i in range(1, size + 1):
        prog.stacks *= math.factorial(stack[i])
    # face-up deck cards per position, and the draws before each position
    known_at: list[tuple[int, ...]] = [(0, 0, 0)]
    for i in range(1, size + 1):
        counts = [0, 0, 0]
        if not hidden[i]:
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
        prog.capg.append((gavail[0], *(min(cap[d], gavail[d + 1]) for d in range(3))))
    prog.known_at = known_at
    prog.pending_pos = size if facts.pending else -1
    prog.slots = [
        (-1, *(prog.drawn[i][d] - prog.known_before[i][d] if measure == "deals" else -1 for d in range(3)))
        for i in range(size + 1)
    ]
    # the values each position may hold: reachable from the start and on to the end
    reach = _reachable(facts)
    for i, v in (fixed or {}).items():
        reach[i] &= 1 << v
    top = facts.last - 1
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
    ok = reach[size] if size else 1
    backward_ok = [0] * (size + 1)
    backward_ok[size] = ok
    for i in range(size - 1, -1, -1):
        nxt, span, mask = backward_ok[i + 1], spans[i + 1], 0
        rest = reach[i]
        while rest:
            low = rest & -rest
            p = low.bit_length() - 1
            if (nxt >> (p + 1)) & ((1 << span) - 1):
                mask |= low
            rest ^= low
        backward_ok[i] = mask
    prog.values = [[]] + [
        [v for v in cards_of(backward_ok[i]) if v <= top or not hidden[i]] for i in range(1, size + 1)
    ]
    series = _active_series(facts, None if fixed else reach)
    prog.active = [[]] + [
        [(j, numbers, deadline) for j, (numbers, deadline) in enumerate(series) if deadline >= i]
        for i in range(1, size + 1)
    ]
    # run forward
    layers = prog.layers
    # the last stack needs no layers of its own (unless a caller walks its groups: card locations
    # and sampling): nothing follows it, so its completions are summed group by group, memoised
    prog.folded = bool(size and stack[size] and not (full or relaxed))
    prog.closing = not (full or relaxed)
    for i in range(1, size + 1):
        layers.append((i, _VALUE, -1))
        if stack[i] and not (prog.folded and i == size):
            if prog.closing:  # groups composed in pairs (nothing reads the group labels then)
                layers.extend((i, kind, g) for kind, g in _PAIRED)
            else:
                layers.extend((i, _GROUP, g) for g in range(GROUPS))
    forward: list[dict[int, int]] = [{0: 1}] if backward_ok[0] & 1 else [{}]
    saved: list[dict[int, list[tuple[int, int, int]]]] = []  # the edges again for the backward pass
    edges = 0
    # when only counting, the last layer's moves end in final states: each edge is weighed by its
    # final weight at once (no layer of final states to store; the backward pass reads the sums)
    prog.tail = prog.closing and bool(layers)
    total = 0
    for t in range(len(layers)):
        if prog.tail and t == len(layers) - 1:
            i = layers[t][0]
            finals: dict[int, int] = {}
            tail: dict[int, list[tuple[int, int, int]]] = {}
            final_weight, memo_moves = prog.final_weight, prog._memo_value_moves
            tail_memo: dict[int, list[tuple[int, int, int]]] = {}
            for src, weight in forward[-1].items():
                out = memo_moves(i, src, tail_memo, False)
                edges += len(out)
                ends = []
                b = 0
                for dst, w, v in out:
                    fin = finals.get(dst)
                    if fin is None:
                        fin = finals[dst] = final_weight(dst)
                    if fin and w:
                        x = w * fin
                        ends.append((0, x, v))
                        b += x
                tail[src] = ends
                total += weight * b
            saved.append(tail)
            if max_edges is not None and edges > max_edges:
                raise BeliefTooLarge(f"more than {max_edges:,} edges to count this position's worlds")
            forward.append({})
            break
        layer: dict[int, int] = {}
        get = layer.get
        i, kind, g = layers[t]
        kept: dict[int, list[tuple[int, int, int]]] = {}
        group_moves, pair_moves = prog._group_moves, prog._pair_moves
        memo: dict[int, list[tuple[int, int]]] = {}
        vmemo: dict[int, list[tuple[int, int, int]]] = {}
        memo_value_moves = prog._memo_value_moves
        closes = prog.closing and i != size and not stack[i]  # the value move ends the position
        for src, weight in forward[-1].items():
            if kind == _VALUE:
                out = memo_value_moves(i, src, vmemo, closes)
            elif kind == _PAIR:
                out = pair_moves(i, g, src, memo)
            else:
                out = group_moves(i, g, src)
            kept[src] = out
            edges += len(out)
            for dst, w, _ in out:
                layer[dst] = get(dst, 0) + weight * w
        saved.append(kept)
        if max_edges is not None and edges > max_edges:
            raise BeliefTooLarge(f"more than {max_edges:,} edges to count this position's worlds")
        # keep states whose signed weight (the footprint identity) cancels to 0: the paths of one
        # hideout value through them need not cancel, and the marginals walk them backward
        forward.append(layer)
    prog.forward, prog.edges, prog.saved = forward, edges, saved
    if not prog.tail:
        for key, weight in forward[-1].items():
            fin = prog.final_weight(key)
            if fin:
                prog.finals[key] = fin
                total += weight * fin
    prog.total = total
    return prog


def _backward(prog: _Programme) -> list[dict[int, int]]:
    """Completions from every live state, and the value marginals of the hidden positions."""
    if prog.back is not None:
        return prog.back
    count = len(prog.layers)
    back: list[dict[int, int]] = [{} for _ in range(count + 1)]
    back[count] = dict(prog.finals)
    marginals: dict[int, list[int]] = {}
    for t in range(count - 1, -1, -1):
        i, kind, _ = prog.layers[t]
        nxt, cur = back[t + 1], back[t]
        tally = None
        if kind == _VALUE and prog.hidden[i]:
            tally = marginals.setdefault(i, [0] * 43)
        kept = prog.saved[t] if prog.saved is not None else None
        if prog.tail and t == count - 1:
            assert kept is not None
            for src, fw in prog.forward[t].items():  # edges weighed by their final weights
                b = 0
                for _, y, label in kept[src]:
                    b += y
                    if tally is not None:
                        tally[label] += fw * y
                if b:
                    cur[src] = b
            continue
        if tally is None and kept is not None:  # no marginal to tally: the completions alone
            get = nxt.get
            for src, out in kept.items():
                b = 0
                for dst, w, _ in out:
                    x = get(dst)
                    if x:
                        b += x * w
                if b:
                    cur[src] = b
            continue
        for src, fw in prog.forward[t].items():
            b = 0
            for dst, w, label in kept[src] if kept is not None else prog.moves(t, src):
                x = nxt.get(dst)
                if x:
                    x *= w
                    b += x
                    if tally is not None:
                        tally[label] += fw * x
            if b:
                cur[src] = b
    prog.back, prog.marginals = back, marginals
    prog.saved = None  # the edges served their turn: free them
    return back


# ---------------------------------------------------------------------------- the belief
class Belief:
    """The detective's exact belief over the fugitive's hidden cards, under one measure.

    ``measure`` is ``"deals"`` (a world weighs the number of deal orders that produce it: what
    shuffled decks imply) or ``"worlds"`` (every consistent world counts once).
    ``mass`` is the total weight under that measure; :attr:`worlds` the number of consistent
    worlds (the same for both measures).
    ``position_probs[i][v]``: P(the face-down hideout at position ``i`` is ``v``);
    ``hideout_prob[v]``: P(``v`` is a face-down hideout); ``sprint_prob[v]``: P(``v`` is a
    face-down sprint card); ``hand_prob[v]``: P(``v`` is in the fugitive's hand) (1 for the
    escape card until it is played); ``deck_prob[v]``: P(``v`` is still in a deck).  All indexed
    0..42 whatever the deck size, so that callers index them the same way in every game; in a
    smaller deck (option ``escape_card``) the entries above the escape card are 0.
    The card locations and, under ``deals``, the world count are computed on first use.
    """

    __slots__ = ("_cache", "_where", "_worlds", "exact", "hideout_prob", "mass", "measure", "position_probs")

    def __init__(
        self,
        *,
        mass: int,
        position_probs: dict[int, tuple[float, ...]],
        hideout_prob: tuple[float, ...],
        exact: bool = True,
        measure: str = "deals",
        worlds: int | Callable[[], int] | None = None,
        where: Callable[[], tuple[tuple[float, ...], ...]] | None = None,
    ) -> None:
        self.mass = mass
        self.position_probs = position_probs
        self.hideout_prob = hideout_prob
        self.exact = exact
        """False only for the edition-2 first-turn pass and, with canonical order, mid-stack (see the
        module docstring): the counts then include worlds those rules exclude."""
        self.measure = measure
        self._worlds = worlds if worlds is not None else (mass if measure == "worlds" else None)
        self._where = where
        self._cache: dict[str, tuple[float, ...]] = {}

    def __repr__(self) -> str:
        return f"Belief(measure={self.measure!r}, mass={self.mass}, positions={self.hidden_positions})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Belief):
            return NotImplemented
        return (self.measure, self.mass, self.exact, self.position_probs, self.hideout_prob) == (
            other.measure,
            other.mass,
            other.exact,
            other.position_probs,
            other.hideout_prob,
        )

    # no __hash__: a class that defines __eq__ alone gets __hash__ = None, so a Belief (mutable
    # caches, float fields) is unhashable (Belief.__hash__ is None)

    @property
    def worlds(self) -> int:
        """The number of consistent worlds (each counted once, whatever the measure)."""
        if callable(self._worlds):
            self._worlds = self._worlds()
        assert isinstance(self._worlds, int)
        return self._worlds

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


_CACHE: dict[tuple[Any, ...], _Programme] = {}
_CACHE_SIZE = 16
"""Programmes kept (for sampling and card locations): enough for a turn of search or a game."""
_CACHE_EDGES = 2_000_000
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


def _programme_for(
    facts: _Facts, measure: str, relaxed: bool = False, max_edges: int | None = None, full: bool = False
) -> _Programme:
    key = (*_facts_key(facts), measure, relaxed, full)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    prog = _build(facts, measure, relaxed, max_edges, full=full)
    if prog.edges > _CACHE_EDGES:
        return prog  # too big to keep around
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = prog
    return prog


_BELIEFS: dict[tuple[Any, ...], Belief] = {}
_BELIEFS_SIZE = 1024


def clear_caches() -> None:
    """Forget memoized programmes and beliefs (benchmarks, memory)."""
    _CACHE.clear()
    _BELIEFS.clear()


def _facts_of(
    state_or_observation: FugitiveState | FugitiveObservation | InformationState,
    edition: int | None,
    canonical_order: bool,
) -> _Facts:
    if isinstance(state_or_observation, FugitiveState):
        return _facts_from_state(state_or_observation)
    if isinstance(state_or_observation, FugitiveObservation):
        return _facts_from_observation(state_or_observation, edition or 1, canonical_order)
    if isinstance(state_or_observation, InformationState) and isinstance(
        state_or_observation.observation, FugitiveObservation
    ):
        return _facts_from_observation(
            state_or_observation.observation, edition or 1, canonical_order, state_or_observation.history
        )
    raise TypeError(
        "belief needs a FugitiveState or the detective's information state, "
        f"got {type(state_or_observation).__name__}"
    )


def belief(
    state_or_observation: FugitiveState | FugitiveObservation | InformationState,
    edition: int | None = None,
    max_edges: int | None = None,
    canonical_order: bool = False,
    measure: str = "deals",
) -> Belief:
    """The detective's exact belief over the fugitive's hidden cards.

    Accepts a :class:`FugitiveState` (its detective's view is used) or the detective's
    :class:`FugitiveObservation`; ``edition`` and ``canonical_order`` matter only for an
    observation (the options are not part of it; a state brings its own): the edition for an
    edition-2 game, canonical order only for :attr:`Belief.exact` mid-stack.  The deck size
    (option ``escape_card``) is read from the state, or worked out from the observation's card
    counts.  ``measure`` weighs the worlds: ``"deals"`` (default) by the number of deal orders
    that produce each, as shuffled decks imply; ``"worlds"`` counts each world once
    (docs/rules/fugitive.md).  Results are memoized on the facts.
    ``max_edges`` bounds the work: :class:`BeliefTooLarge` (a ValueError) when the count would
    need more edges (the default counts whatever it takes).
    """
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {MEASURES}, got {measure!r}")
    facts = _facts_of(state_or_observation, edition, canonical_order)
    key = (*_facts_key(facts), facts.stuck_first_turn, facts.canonical_pending, measure)
    hit = _BELIEFS.get(key)
    if hit is not None:
        return hit
    result = _belief_of(facts, measure, max_edges)
    if len(_BELIEFS) >= _BELIEFS_SIZE:
        _BELIEFS.pop(next(iter(_BELIEFS)))
    _BELIEFS[key] = result
    return result


def _belief_of(facts: _Facts, measure: str, max_edges: int | None = None) -> Belief:
    prog = _programme_for(facts, measure, max_edges=max_edges)
    if prog.total == 0:
        raise ValueError("inconsistent observation: no fugitive world explains it")
    _backward(prog)
    assert prog.marginals is not None
    total = prog.total
    mass, rest = divmod(total, prog.stacks)
    assert rest == 0, "ordered sprint stacks must divide evenly"
    # big-integer divisions only where a count is not 0 (most numbers are out of reach)
    position_probs = {
        i: tuple(c / total if c else 0.0 for c in counts) for i, counts in prog.marginals.items()
    }
    hideout_count = [0] * 43
    for counts in prog.marginals.values():
        for v, c in enumerate(counts):
            if c:
                hideout_count[v] += c
    hideout = tuple(c / total if c else 0.0 for c in hideout_count)
    worlds: int | Callable[[], int] | None = None
    if measure != "worlds":

        def worlds() -> int:
            return _build(facts, "worlds").mass

    return Belief(
        mass=mass,
        position_probs=position_probs,
        hideout_prob=hideout,
        exact=not (facts.stuck_first_turn or facts.canonical_pending),
        measure=measure,
        worlds=worlds,
        where=lambda: _card_locations(_programme_for(facts, measure, full=True), hideout),
    )


def _shares(prog: _Programme, state: int) -> list[float]:
    """Per class: the completions of ``state`` weighted by the share of the class's non-hideout
    cards under sprint stacks (entries 2c) and in the hand (entries 2c + 1).

    The sums are exact integers until the last division by the class's free cards: the unmarked
    cards of a group are a uniform choice from its pool, and ``falling(pool, f) * f / pool`` and
    ``falling(pool, f) * C(pool - f, r) * r / pool`` are integers.
    """
    facts = prog.facts
    need = (state >> _NEED) & 127 if facts.pending else 0
    marks = (state >> _JM) & 63 if facts.pending else 0
    limit = prog.hand_count if need else 0
    deals = prog.measure == "deals"
    zero = [0] * (4 * GROUPS)
    # per group, per hand-mark count: (weight, [sprint odd, sprint even, hand odd, hand even] sums)
    conv: list[tuple[int, list[int]]] = [(1, zero)]
    for g in range(GROUPS):
        weights = prog._group_weights(state, g, limit)
        u = (state >> _U_SH[g]) & 31
        h = (state >> _H_SH[g]) & 15
        he = (state >> _HE_SH[g]) & 15
        m = (state >> _M_SH[g]) & 15
        a = prog.gavail[g]
        evens, odds = prog.avail[2 * g + 1] - he, prog.avail[2 * g] - (h - he)
        f = u - h - m
        hand = a - u if g == 0 else prog.fug[g] - u
        base = _falling(evens, m) * (math.factorial(hand) if deals and g else 1)
        part: list[tuple[int, list[int]]] = []
        for jp, w in enumerate(weights):
            if not w:
                part.append((0, [0, 0, 0, 0]))
                continue
            pool = a - h - m - jp
            rest = hand - jp
            core = base * math.comb(evens - m, jp)
            spr = core * f * _falling(pool - 1, f - 1) * math.comb(pool - f, rest) if f else 0
            hnd = core * _falling(pool - 1, f) * math.comb(pool - f - 1, rest - 1) if rest else 0
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
    sums = [0] * (2 * CLASSES)
    for jp, (_, x) in enumerate(conv):
        c = _coef(marks + jp, need) if facts.pending else 1
        if not c:
            continue
        for g in range(GROUPS):
            for parity in range(2):
                cls = 2 * g + parity
                sums[2 * cls] += c * x[4 * g + parity]
                sums[2 * cls + 1] += c * x[4 * g + 2 + parity]
    out = [0.0] * (2 * CLASSES)
    for g in range(GROUPS):
        h = (state >> _H_SH[g]) & 15
        he = (state >> _HE_SH[g]) & 15
        free = (prog.avail[2 * g] - (h - he), prog.avail[2 * g + 1] - he)
        for parity in range(2):
            if free[parity]:
                cls = 2 * g + parity
                out[2 * cls] = sums[2 * cls] / free[parity]
                out[2 * cls + 1] = sums[2 * cls + 1] / free[parity]
    return out


def _card_locations(
    prog: _Programme, hideout: tuple[float, ...]
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
    shares = {key: _shares(prog, key) for key in prog.forward[-1]}
    shares = {key: s for key, s in shares.items() if any(s)}
    interest = sorted(
        {class_of[v] for i in range(1, facts.size + 1) if prog.hidden[i] for v in prog.values[i]}
    )
    width = 2 * len(interest)
    count = len(prog.layers)
    back: dict[int, list[float]] = {
        k: [s[2 * c + q] for c in interest for q in (0, 1)] for k, s in shares.items()
    }
    joint = [[0.0] * 43 for _ in range(width)]
    for t in range(count - 1, -1, -1):
        i, kind, _ = prog.layers[t]
        cur: dict[int, list[float]] = {}
        record = kind == _VALUE and prog.hidden[i]
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
    expect = [0.0] * (2 * CLASSES)
    last = prog.forward[-1]
    for key, s in shares.items():
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


# ---------------------------------------------------------------------------- sampling
def _sample_world(
    facts: _Facts, rng: random.Random, measure: str
) -> tuple[list[int], list[list[int]], list[int]]:
    """One world of the *relaxed* programme (footprints ignored), with its measure's weight.

    The caller replays it and rejects the worlds the rules refuse, so accepted samples follow
    the chosen measure exactly (the relaxed weights agree with it on every valid world).
    """
    prog = _programme_for(facts, measure, relaxed=True)
    size = facts.size
    if prog.total == 0:
        raise ValueError("inconsistent observation: no fugitive world explains it")
    back = _backward(prog)
    state = 0
    values = [0] * (size + 1)
    counts: list[list[int]] = [[0] * GROUPS for _ in range(size + 1)]
    for t, (i, kind, g) in enumerate(prog.layers):
        nxt = back[t + 1]
        options = [(dst, w * nxt[dst], label) for dst, w, label in prog.moves(t, state) if dst in nxt]
        dst, _, label = options[_pick([o[1] for o in options], rng)]
        if kind == _VALUE:
            values[i] = label if prog.hidden[i] else facts.known[i]
        else:
            counts[i][g] = label
        state = dst
    group = facts.tables.group_of
    taken = {values[i] for i in range(1, size + 1) if prog.hidden[i]}
    pools: list[list[int]] = [[] for _ in range(GROUPS)]
    for c in cards_of(facts.unknown):
        if c not in taken:
            pools[group[c]].append(c)
    for pool in pools:
        rng.shuffle(pool)
    stacks: list[list[int]] = [[] for _ in range(size + 1)]
    for i in range(1, size + 1):
        stacks[i] = list(facts.known_sprints[i])
        if not prog.stack[i]:
            continue
        for g in range(GROUPS):
            stacks[i] += [pools[g].pop() for _ in range(counts[i][g])]
        if facts.canonical_order:
            stacks[i].sort()  # canonical order: the only order the rules allow
        else:
            rng.shuffle(stacks[i])
    hand = list(pools[0])
    for g in range(1, GROUPS):
        hand += pools[g][: prog.fug[g] - ((state >> _U_SH[g]) & 31)]
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


def determinize(
    state: FugitiveState, player: int, rng: random.Random, measure: str = "deals"
) -> FugitiveState:
    """A full state consistent with ``state.observation(player)``, sampled exactly from ``measure``.

    The detective's seat samples a fugitive world from the chosen measure (see :func:`belief`:
    ``"deals"`` weighs a world by its deal orders, ``"worlds"`` counts each once), then one of
    the deal orders that produce it uniformly; the fugitive's seat samples the detective's hand
    uniformly among hands that never named one of its own cards (the two measures agree there:
    every hand has as many deal orders).  The history is rewritten to match (deals, hides,
    sprints), then replayed, so the world's record replays to itself.
    """
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {MEASURES}, got {measure!r}")
    if player == DETECTIVE:
        return _determinize_detective(state, rng, measure)
    if player == FUGITIVE:
        return _determinize_fugitive(state, rng)
    raise ValueError(f"player must be 0 (fugitive) or 1 (detective), got {player!r}")


_ATTEMPTS = 2000
"""Samples of the relaxed programme tried before giving up (each one is replayed)."""
_SAMPLER_STATS = {"calls": 0, "attempts": 0, "worst": 0}
"""Rejection-sampling tallies of the detective's seat: determinize calls, worlds tried, most in one call."""


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


def _footprints_hold(facts: _Facts, values: list[int], stacks: list[list[int]]) -> bool:
    """Every finished hideout within 3 plus its sprint cards' footprints of the previous one.

    The last hideout while it still gets sprint cards (the hand may pay) is left to the replay.
    """
    last = facts.size - (1 if facts.pending else 0)
    for i in range(1, last + 1):
        if values[i] - values[i - 1] > STEP_LIMIT + sum(2 - c % 2 for c in stacks[i]):
            return False
    return True


def _determinize_detective(state: FugitiveState, rng: random.Random, measure: str) -> FugitiveState:
    facts = _facts_from_state(state)
    slots = [s for s in _deal_slots(state) if s[1] == FUGITIVE]
    setups = len(state.layout.setup_deals)
    group_of_card = facts.tables.group_of
    _SAMPLER_STATS["calls"] += 1
    for attempt in range(1, _ATTEMPTS + 1):
        _SAMPLER_STATS["attempts"] += 1
        _SAMPLER_STATS["worst"] = max(_SAMPLER_STATS["worst"], attempt)
        values, stacks, hand = _sample_world(facts, rng, measure)
        if not _footprints_hold(facts, values, stacks):
            continue  # the relaxed programme ignores footprints: refuse at once, without a replay
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
        f"determinize: no consistent world found in {_ATTEMPTS} samples (footprints or an edition-2 first-turn pass rejected them)"
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
        if number is not None and state.refuse_known:  # else a held card may be named too
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
