"""Card groups and classes, and the small combinatorial tables the counting loops read.

A card's *group* is who could hold it and when ({1, 2, 3}, or one of the three decks); its *class*
is the group and the card's parity (odd cards give 1 footprint as a sprint card, even cards 2).
Per deck size (option ``escape_card``) the tables are built once (:func:`tables_for`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from gamelib.fugitive.board import LAST, PUBLISHED, Layout, layout_for


def add_product(acc: list[int], x: Sequence[int], y: Sequence[int], c: int) -> None:
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
class Tables:
    """Per-card lookup tables of one deck size, indexed 0..42 (-1 / 0 from the escape card up).

    Classes and groups follow the deck ranges, so every layout has its own tables; they are
    built once per escape card (:func:`tables_for`) and read as plain tuples on the hot paths.
    """

    layout: Layout
    class_of: tuple[int, ...]
    group_of: tuple[int, ...]


@functools.lru_cache(maxsize=64)
def tables_for(last: int) -> Tables:
    layout = layout_for(last)
    group = tuple(group_of(c, layout) if 1 <= c < last else -1 for c in range(43))
    klass = tuple(2 * group[c] + (1 - c % 2) if group[c] >= 0 else -1 for c in range(43))
    return Tables(layout, klass, group)


@functools.lru_cache(maxsize=64)
def class_masks(last: int) -> tuple[int, ...]:
    """Per class, the bitmask of its cards 1..last-1 (a class's unseen cards: one AND, one count)."""
    klass = tables_for(last).class_of
    return tuple(sum(1 << c for c in range(1, last) if klass[c] == k) for k in range(CLASSES))


# The published game's tables, kept under their historical names.
PUBLISHED_CLASSES = tables_for(LAST).class_of
PUBLISHED_GROUPS = tables_for(LAST).group_of


COMB = [[math.comb(n, k) for k in range(n + 1)] + [0] * (64 - n) for n in range(64)]
"""Binomial coefficients C(n, k) for n < 64 (0 for k > n): the hot loops read them as lists."""
FALL = [[math.perm(n, k) for k in range(n + 1)] + [0] * (64 - n) for n in range(64)]
"""Falling factorials n (n-1) ... (n-k+1) for n < 64 (0 for k > n)."""


def falling(n: int, k: int) -> int:
    """n (n-1) ... (n-k+1): ordered choices of k distinct cards among n (0 if impossible)."""
    if k < 0 or n < k:
        return 0
    return math.perm(n, k)


MEASURES = ("deals", "worlds")
"""``deals``: a world weighs the number of deal orders that produce it (shuffled decks);
``worlds``: every consistent world counts once."""


def coef(marks: int, need: int) -> int:
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


COEFS = [[coef(marks, need) for marks in range(128)] for need in range(128)]
"""``COEFS[need][marks]`` is ``coef(marks, need)``: the hot loops read it as lists."""


class BeliefTooLarge(ValueError):
    """Counting the worlds would exceed the edge budget given to :func:`belief`.

    The published game never needs it any more (every reference position counts in well under
    a second), but a live view may still ask for a budget on doctored or unusual positions.
    """
