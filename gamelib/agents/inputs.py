"""Checks of the whole numbers agents and experiments take (counts, seeds, seats, budgets).

Any integral number is accepted (``int``, ``numpy.int64``: whatever implements ``__index__``),
never a bool, a float or a string; the error names the parameter and says what it must be.

>>> whole_number(3, "games", minimum=1)
3
>>> whole_number(0, "games", minimum=1)
Traceback (most recent call last):
...
ValueError: games must be an integer >= 1, got 0
"""

from __future__ import annotations

import operator


def whole_number(value: object, name: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` as a plain ``int`` (numpy integers included), or a ``ValueError`` naming ``name``."""
    bound = (
        f" between {minimum} and {maximum}"
        if minimum is not None and maximum is not None
        else f" >= {minimum}"
        if minimum is not None
        else ""
    )
    if isinstance(value, bool):
        raise ValueError(f"{name} must be an integer{bound}, got {value!r}")
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"{name} must be an integer{bound}, got {value!r}") from None
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        raise ValueError(f"{name} must be an integer{bound}, got {number}")
    return int(number)


def optional_whole_number(value: object, name: str, minimum: int | None = None) -> int | None:
    """Like :func:`whole_number`, with ``None`` (no limit, the default) kept as ``None``."""
    return None if value is None else whole_number(value, name, minimum)
