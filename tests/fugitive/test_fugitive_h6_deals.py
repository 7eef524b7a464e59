"""Deal orders with sorted slot keys (the fugitive's deals, in history order) take a shortcut:
the same matching as the general loop for the same random draws, and None exactly when no
matching exists."""

from __future__ import annotations

import random

from gamelib.fugitive.belief.deals import assign_slots


def general(cards: list[tuple[int, int]], slots: list[int], rng: random.Random) -> dict[int, int] | None:
    """The general loop, written out: cards tightest bound first, each to a uniform free valid slot."""
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


def test_sorted_slots_match_the_general_loop() -> None:
    maker = random.Random(5)
    impossible = 0
    for case in range(3000):
        n = maker.randrange(0, 14)
        slots = sorted(maker.randrange(-1, 8) for _ in range(n))
        cards = [(c, maker.choice([maker.randrange(0, 10), 99])) for c in maker.sample(range(1, 42), n)]
        fast = assign_slots(cards, slots, random.Random(case))
        slow = general(cards, slots, random.Random(case))
        assert fast == slow
        impossible += fast is None
    assert 0 < impossible < 3000  # both outcomes were met


def test_unsorted_slots_take_the_general_loop() -> None:
    maker = random.Random(6)
    for case in range(500):
        n = maker.randrange(1, 10)
        slots = [-maker.randrange(0, 50) for _ in range(n)]
        cards = [(c, -maker.randrange(-1, 50)) for c in range(n)]
        assert assign_slots(cards, slots, random.Random(case)) == general(cards, slots, random.Random(case))
