"""Errors raised by every game: they are ValueErrors so plain ``except ValueError`` works too."""

from __future__ import annotations

import reprlib


class IllegalAction(ValueError):
    """An action (or its notation) that the rules forbid in the current state.

    ``rule`` names the rule broken (a short kebab-case identifier that also appears in
    ``docs/rules/<game>.md``) so that a widget or a test can react to it; the message says
    it in words.  Raising it never changes the state: games validate before they mutate.
    """

    def __init__(self, rule: str, message: str, action: object = None) -> None:
        super().__init__(f"[{rule}] {message}")
        self.rule = rule
        self.action = action
        self.detail = message


class RecordError(ValueError):
    """A game record that cannot be loaded: malformed, truncated, tampered or unknown.

    ``step`` is the index of the action that failed (``None`` for header problems) and
    ``field`` names the record field at fault.
    """

    def __init__(self, message: str, *, field: str | None = None, step: int | None = None) -> None:
        where = []
        if field is not None:
            where.append(f"field {field!r}")
        if step is not None:
            where.append(f"step {step}")
        prefix = f"bad record ({', '.join(where)}): " if where else "bad record: "
        super().__init__(prefix + message)
        self.field = field
        self.step = step


class OptionError(ValueError):
    """An unknown rule option, or a value outside what the option allows."""


SHOWN = 40
"""How many characters of a user's input an error message echoes."""


def shown(value: object, limit: int = SHOWN) -> str:
    """``repr(value)`` for an error message about user input, cut to ``limit`` characters.

    A long input is shown by its start and its length (``'end 99999…' (5042 characters)``), so a
    message stays readable whatever was typed; a deeply nested or huge value never raises while
    it is described (no RecursionError, no int-to-str limit).
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}… ({len(value)} characters)"
    if isinstance(value, int) and not isinstance(value, bool):
        if value.bit_length() > 4 * limit:  # beyond what is worth (or allowed) converting
            return f"<an int of {value.bit_length()} bits>"
        text = repr(value)
        return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} digits)"
    try:
        text = _SAFE_REPR.repr(value)
    except (RecursionError, ValueError):  # a deep object, a huge number inside a container
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else f"{text[:limit]}…"


def _safe_repr() -> reprlib.Repr:
    safe = reprlib.Repr()
    safe.maxlevel = 3
    safe.maxstring = 2 * SHOWN
    safe.maxother = 2 * SHOWN
    safe.maxlong = 2 * SHOWN
    return safe


_SAFE_REPR = _safe_repr()
