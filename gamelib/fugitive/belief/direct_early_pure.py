"""The pure reference loops of :mod:`~.direct_early`'s walk that its compiled path (``_early.c``)
does not run, kept apart so that direct_early.py stays under the size limit (tests/test_sizes.py).

They are the reference the compiled loops are checked against (``GAMELIB_PURE_PYTHON=1`` /
:func:`~.kernel.use_compiled` ``(False)`` select them): :class:`~.direct_early._Walk` inherits them.
"""

from __future__ import annotations

from typing import Any

from gamelib.fugitive.belief.direct import WIDTH_STEP, group_bound
from gamelib.fugitive.belief.tables import COMB, GROUPS

Shares = tuple[tuple[int, int, int, int], ...]
"""A group's shares of an earlier stack (:meth:`~.direct_early._Walk._group_shares`)."""


def _by_cards(third: Shares, fourth: Shares, n: int) -> list[list[tuple[int, int, int]]]:
    """Two groups' shares of a stack of ``n`` cards paired, by the cards they give (0..n): (even
    cards, weight, step to the key) each."""
    out: list[list[tuple[int, int, int]]] = [[] for _ in range(n + 1)]
    for k2, e2, x2, s2 in third:
        if k2 > n:
            break
        for k3, e3, x3, s3 in fourth:
            k = k2 + k3
            if k > n:
                break
            out[k].append((e2 + e3, x2 * x3, s2 + s3))
    return out


class PureLoops:
    """The walk's pure loops that read only the position's tables (set by ``_Walk.__init__``)."""

    n: int
    deals: bool
    size: int
    gavail: list[int]
    fug: tuple[int, ...]
    stacks: list[int]
    capg: list[Any]
    drawn: list[Any]
    before: list[Any]

    def _bound_width(self) -> int:
        """The packing's width (the pure loop; ``_early.packing_width`` in C): the bound of
        :meth:`_packing` in bits, or the groups' cards if more, plus 2, rounded up to
        :data:`~.direct.WIDTH_STEP`."""
        n, deals, gavail, fug = self.n, self.deals, self.gavail, self.fug
        early = sum(self.stacks[: self.size])
        last_cap, last_drawn, last_before = (
            self.capg[self.size],
            self.drawn[self.size],
            self.before[self.size],
        )
        bound = 1
        for g in range(GROUPS):
            a, hand_total = gavail[g], max(fug[g], 0)
            drawn = deals and g > 0
            slots = last_drawn[g - 1] - last_before[g - 1] if drawn else -1
            top = min(n, max(last_cap[g], 0), hand_total)
            bound *= group_bound(a, hand_total, top, slots, drawn) * COMB[a][min(early, a // 2)]
        # ... and the ways to pick k <= n of a group's cards, C(a, k) < 2**a, fit as well
        return -(-(max(bound.bit_length(), *gavail) + 2) // WIDTH_STEP) * WIDTH_STEP

    def closes(self, key: int, i: int) -> bool:
        cap = self.capg[i]
        return (
            key & 31 <= cap[0]
            and (key >> 5) & 31 <= cap[1]
            and (key >> 10) & 31 <= cap[2]
            and (key >> 15) & 31 <= cap[3]
        )
