"""A value layer's memos: a closing value layer closes its destinations' groups from the two halves'
closings (``Programme._close_low``, ``part_memo``), never by ``_close_groups``' own loop, with the same
closed counts and factors; a stack's fit (``Programme._stack_fits``) is memoised on the position, the
NEXT field and the groups' card counts, with the room and even cards its loop finds.  Positions: those
of test_h1_kernel_loops (shared ones with many face-down sprint cards, random-play ones mid-turn and with
small decks), both measures; counts equal the one-by-one walk there.
"""

from __future__ import annotations

import pytest

from gamelib.fugitive.belief.bits import KEEP, NEXT, PROG, U_SH
from gamelib.fugitive.belief.build import backward, build
from gamelib.fugitive.belief.programme import Programme
from gamelib.fugitive.belief.tables import GROUPS
from tests.fugitive.test_h1_kernel_loops import positions


@pytest.mark.parametrize("measure", ["deals", "worlds"])
def test_closing_value_layers_close_by_halves(monkeypatch: pytest.MonkeyPatch, measure: str) -> None:
    totals = [build(facts, measure).total for facts in positions()]
    closings = 0

    def refused(self: Programme, state: int) -> tuple[int, int]:
        raise AssertionError("a counting build closed a state by _close_groups")

    with monkeypatch.context() as patch:
        patch.setattr(Programme, "_close_groups", refused)
        for facts, total in zip(positions(), totals, strict=True):
            prog = build(facts, measure)
            assert prog.total == total
            backward(prog)
            for low, shut in prog.closed_memo.items():
                closings += 1
                assert low == low & KEEP
                assert shut == prog._close_low(low)
    for facts in positions()[:20]:  # and _close_groups' own loop gives what _close_low gives
        prog = build(facts, measure)
        for low, shut in list(prog.closed_memo.items()):
            prog.closed_memo.clear()
            assert prog._close_groups(low) == shut
    assert closings > 100


def stack_room(prog: Programme, i: int, new: int, field: int) -> tuple[int, int]:
    """The room and the even cards in it that ``_stack_fits`` compares, without its memo."""
    caps, limits = prog.ahead_caps[i][(field >> NEXT) & 7]
    room = evens = 0
    for g in range(GROUPS):
        u = (new >> U_SH[g]) & 31
        r = limits[g] - u if limits[g] >= u else caps[g] - u
        if r > 0:
            room += r
            evens += min(r, prog.avail[2 * g + 1])
    return room, evens


def test_a_stack_s_fit_is_memoised_on_what_it_reads() -> None:
    checked = 0
    for facts in positions():
        prog = build(facts, "deals")
        for key, fit in prog.fits_memo.items():
            i, field, new = key >> PROG, key & (7 << NEXT), key & ((1 << 20) - 1)
            assert fit == stack_room(prog, i, new, field)
            checked += 1
    assert checked > 100
