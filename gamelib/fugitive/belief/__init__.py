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
* counting only (no sampling), a stack's four group layers run as two composed pairs, each
  closing its own groups when the position closes (groups 0-1 at the first pair: the second never
  reads them), and every layer's moves are memoised on the bits of the state they read; the memo
  itself is kept for the backward pass (:class:`~.build.ByReads`: no record per source, the
  backward pass masks each source again); a stack's group moves skip allocations the later
  groups could not complete (their room, the marks their even cards can still bring), and a stack
  of 3 or more cards before a face-down hideout looks ahead at it: a value whose next hideout
  has no group with room left is dead, and when one group only has room the stack leaves it a card
  (``bits.NEXT``, ``build._lookahead``); the last layer sums each source's completions and the last position's value tallies forward, reading
  each final weight per hideout class and need from the last stack's sums by *even* cards (a
  need's weight is then a suffix sum), computed once per pair of halves whose rows are equal up
  to a factor; a large last layer is summed as a bilinear form instead (:mod:`~.tail_sums`: a
  hideout changes one half of the last stack only, so a source's completions are one dot product
  against a vector kept per interned move set and other half, not a convolution per final key);
* ``build(..., count_only=True)`` keeps no edges and only the layer being read: the world total
  beside a belief costs no memory for a backward pass nobody walks;
* a position whose only face-down sprint stack is the last one is counted without a programme
  (:mod:`~.direct`: its hideout paths walked, the last stack and hand closed per group in closed
  form), the fixed cost of the easy positions, and so are small positions with a few face-down
  cards under earlier hideouts (:mod:`~.direct_early`: each hideout path carries a small cloud of
  card counts); the first kind's card locations come from the same walk
  (:mod:`~.direct_locations`), the second's and every sample build the programme on first use;
* the last stack's group polynomials are shared between programmes (a bounded memo keyed by the
  group's context and counts), and every memo holds tuples, which the garbage collector stops
  tracking (the programmes a cache keeps cost nothing to its full collections);
* ``"deals"`` multiplies, per position and deck, the ways to give the cards laid there a free
  draw made before (a falling factorial), and the hand's cards the rest (``hand!``);
* the hideout probabilities come from one backward pass over the forward edges; the card
  locations (sprint, hand, deck), by symmetry inside a class, from the share of a class's
  non-hideout cards in each place: one backward pass of packed class-share sums over the
  counting programme itself (:mod:`~.marginals`, :mod:`~.marginals_shares`, a large last layer
  as a bilinear form in :mod:`~.marginals_tail`), reading the count's own kept moves of large
  closing pair layers (``Programme.open_memos``).

Two cases are not counted exactly: in the second edition, a fugitive who stops after a single
first-turn hideout must have been unable to place another; and with ``canonical_order``, a
fugitive in the middle of a sprint stack must still hold, above its last sprint card, the
footprints the hideout needs (the DP only knows the classes of the cards, not their order).
:func:`belief` ignores those constraints (``Belief.exact`` is then False) and :func:`determinize`
replays its samples and draws again when they break them, so its samples stay exact.

The package, one idea a module: :mod:`~.tables` (card groups and classes), :mod:`~.facts` (what the
detective knows), :mod:`~.direct`, :mod:`~.direct_early` and :mod:`~.direct_locations` (the simplest positions
without a programme), :mod:`~.bits` (the state's layout), :mod:`~.programme` and :mod:`~.weights` (the
moves and the final weights), :mod:`~.build` and :mod:`~.tail_sums` (forward and backward passes), :mod:`~.locations`,
:mod:`~.marginals` and :mod:`~.marginals_shares` (card locations), :mod:`~.probabilities` (:func:`belief`, :class:`Belief`, the caches) and
:mod:`~.sampling` (:func:`determinize`).
"""

from __future__ import annotations

from gamelib.fugitive.belief.build import backward, build
from gamelib.fugitive.belief.facts import Facts, facts_from_observation, facts_from_state
from gamelib.fugitive.belief.probabilities import Belief, belief, cache_sizes, clear_caches
from gamelib.fugitive.belief.programme import Programme
from gamelib.fugitive.belief.sampling import determinize
from gamelib.fugitive.belief.tables import (
    CLASSES,
    GROUPS,
    MEASURES,
    PUBLISHED_CLASSES,
    PUBLISHED_GROUPS,
    BeliefTooLarge,
    Tables,
    card_class,
    group_of,
    tables_for,
)

__all__ = [
    "CLASSES",
    "GROUPS",
    "MEASURES",
    "PUBLISHED_CLASSES",
    "PUBLISHED_GROUPS",
    "Belief",
    "BeliefTooLarge",
    "Facts",
    "Programme",
    "Tables",
    "backward",
    "belief",
    "build",
    "cache_sizes",
    "card_class",
    "clear_caches",
    "determinize",
    "facts_from_observation",
    "facts_from_state",
    "group_of",
    "tables_for",
]
