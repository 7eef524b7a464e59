"""Where each unseen card can be (a face-down hideout, a sprint stack, the fugitive's hand, a
deck), exactly, from the count that gave the world total.

By symmetry inside a class (a group and a parity), a card's chance to lie under a stack or in the
hand is the share of its class's non-hideout cards there, less its share in the worlds where it
is itself a hideout.  :func:`~.marginals.class_shares` sums both over the counting programme in
one backward pass (exact integers); this module divides them.
"""

from __future__ import annotations

from gamelib.fugitive.belief.marginals import class_shares
from gamelib.fugitive.belief.programme import Programme
from gamelib.fugitive.rules import cards_of

Where = tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]
"""P(sprint), P(hand), P(deck) per number, each indexed 0..42."""


def card_locations(prog: Programme, hideout: tuple[float, ...]) -> Where:
    """P(sprint), P(hand), P(deck) per number, from the counting programme ``prog`` (its forward
    weights and completions: the count's own) and the hideout probabilities of the same count."""
    facts = prog.facts
    shares = class_shares(prog)
    class_of = facts.tables.class_of
    whole = shares.total * shares.scale
    sprint, hand, deck = [0.0] * 43, [0.0] * 43, [0.0] * 43
    for v in cards_of(facts.unknown):
        in_sprint, in_hand = shares.where(v, class_of[v])
        sprint[v] = in_sprint / whole
        hand[v] = in_hand / whole
        deck[v] = max(0.0, 1.0 - hideout[v] - sprint[v] - hand[v])
    if facts.holds_last:
        hand[facts.last] = 1.0
    return tuple(sprint), tuple(hand), tuple(deck)
