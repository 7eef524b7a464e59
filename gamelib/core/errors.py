"""Errors raised by every game: they are ValueErrors so plain ``except ValueError`` works too."""

from __future__ import annotations


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
