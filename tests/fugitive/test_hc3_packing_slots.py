"""``_early.packing_width`` with a group's draws less before beyond a C long: C raised nothing and
answered a width from the wrapped difference (signed overflow) where the pure loop
(``direct_early._Walk._bound_width``) sees the true difference; now C raises OverflowError there,
which ``_Walk._packing`` answers by running the pure loop."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamelib.fugitive.belief import direct, direct_early
from gamelib.fugitive.belief.tables import COMB

_early = pytest.importorskip("gamelib.fugitive.belief._early")

LONG = 2**63


def widths(drawn: list[int], before: list[int]) -> tuple[Any, Any]:
    """(C, pure) widths, or error types, for a one-early-stack walk with these last draws."""
    gavail, fug, cap = [0, 2, 1, 0], [0, 1, 2, 0], [0, 1, 2, 0]
    ns: Any = SimpleNamespace(
        n=1, deals=True, gavail=gavail, fug=fug, stacks=[0, 1, 0], size=2,
        capg=[[], [], cap], drawn=[[], [], drawn], before=[[], [], before],
    )  # fmt: skip
    args = (1, True, 1, gavail, fug, cap, drawn, before, direct.group_bound, COMB, direct.WIDTH_STEP)
    out: list[Any] = []
    for make in (lambda: _early.packing_width(*args), lambda: direct_early._Walk._bound_width(ns)):
        try:
            out.append(make())
        except (OverflowError, IndexError, ValueError, TypeError) as error:
            out.append(type(error))
    return out[0], out[1]


def test_wrapped_difference_raises() -> None:
    """0 - (-2**63) is 2**63: beyond a C long, C raises OverflowError (it answered 16 before)."""
    fast, pure = widths([0, 0, 0], [-LONG, 0, 0])
    assert fast is OverflowError
    assert pure is IndexError  # group_bound cannot index 2**63 slots: what the fallback answers


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(st.integers(-3, 12), st.integers(-LONG, LONG - 1)), min_size=3, max_size=3),
    st.lists(st.one_of(st.integers(-3, 12), st.integers(-LONG, LONG - 1)), min_size=3, max_size=3),
)
def test_width_or_overflow(drawn: list[int], before: list[int]) -> None:
    """Draws and befores within a C long: C's width is the pure one, or the same error, or
    OverflowError, only where some drawn less before is beyond a C long."""
    fast, pure = widths(drawn, before)
    beyond = any(not -LONG <= d - b < LONG for d, b in zip(drawn, before, strict=True))
    assert fast == pure or (beyond and fast is OverflowError)  # an earlier group may fail first alike
