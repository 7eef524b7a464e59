"""The layout of the programme's state, one int (see the package docstring), and the layer kinds.

Named once here so that the moves, the final weights and the sampler read the same bits.
"""

from __future__ import annotations

from gamelib.fugitive.belief.tables import GROUPS

# A forward dynamic programme over positions whose state is one int (see the module docstring):
#   u_g   hidden cards of group g laid so far (hideouts and sprint cards)     5 bits x 4
#   H_g   hidden hideouts of group g, He_g the even ones                       4 bits x 4, x 4
#   M_g   marked even sprint cards of group g (the footprint identity)        4 bits x 4
#   prev  the previous hideout; while a stack is allocated: cards left, marks at this position,
#         the even cards the position needs and the one group the next hideout can still take
#         (1 + group, or 0: the stack must leave it room); then the failed-series progress.
U_SH = (0, 5, 10, 15)
H_SH = (20, 24, 28, 32)
HE_SH = (36, 40, 44, 48)
M_SH = (52, 56, 60, 64)
PREV = 68
LEFT = 74
JM = 80
NEED = 86
NEXT = 93
PROG = 96
SCRATCH = ((1 << PROG) - 1) ^ ((1 << LEFT) - 1)
KEEP = (1 << PREV) - 1
DONE = 63
"""Progress value of a failed series already explained (one of its numbers was skipped)."""
CLOSED = 15
"""H value of a group whose cards are all laid: its final weight is already in (count only)."""
LOWER = tuple(
    sum((15 if sh != U_SH else 31) << sh[x] for sh in (U_SH, H_SH, HE_SH, M_SH) for x in range(g + 1))
    for g in range(4)
)
"""Per group g: the mask of the counts of groups 0..g (what the last stack's completion from g reads:
it runs from group 3 down, so the group a late hideout changes is behind it and the rest is shared)."""

HALVES = {
    first: sum(
        (31 << U_SH[g]) | (15 << H_SH[g]) | (15 << HE_SH[g]) | (15 << M_SH[g]) for g in (first, first + 1)
    )
    for first in (0, 2)
}
"""The counts of groups {0, 1} and of groups {2, 3}: what each half of the last stack's sum reads."""

"""The first group of each pair of group layers composed into one layer (counting only)."""

VALUE, GROUP, PAIR = 0, 1, 2
PAIRED = ((PAIR, 0), (PAIR, 2))
GROUP_BITS = tuple((15 << H_SH[g]) | (15 << HE_SH[g]) | (15 << M_SH[g]) for g in range(4))
"""Per group: its hideout, even hideout and mark counts (with u, what its final weight reads)."""
VALUE_READS = sum(31 << sh for sh in U_SH) | ~((1 << PREV) - 1)
"""The state's bits a value move reads: the groups' card counts, the previous hideout, the
series' progress (and the scratch, empty between positions)."""
PAIR_READS = {
    first: (63 << LEFT)
    | (63 << JM)
    | (127 << NEED)
    | (7 << NEXT)
    | sum(31 << U_SH[g] for g in range(first, GROUPS))
    | sum((15 << HE_SH[g]) | (15 << M_SH[g]) for g in (first, first + 1))
    for first in (0, 2)
}
"""Per pair of groups: the state's bits their moves read (cards to allocate, marks, need, the
counts of these groups and of the later ones, their even hideouts and marks)."""
GROUP_READS = tuple(
    (63 << LEFT)
    | (63 << JM)
    | (127 << NEED)
    | (7 << NEXT)
    | sum(31 << U_SH[h] for h in range(g, GROUPS))
    | sum((15 << HE_SH[h]) | (15 << M_SH[h]) for h in range(g, GROUPS) if h >> 1 == g >> 1)
    for g in range(GROUPS)
)
"""Per group: the state's bits its moves read, counting (the stack's scratch, its card count and
the later groups', the even hideouts and marks of its pair's groups from it on)."""
PAIR_HIDEOUTS = {first: (15 << H_SH[first]) | (15 << H_SH[first + 1]) for first in (0, 2)}
"""Per pair of groups: their hideout counts, what closing them reads beyond ``PAIR_READS``."""
"""A stack's layers when only counting: groups {0, 1}, then {2, 3}, each pair composed in one layer."""
