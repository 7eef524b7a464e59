"""Game panels for the Stepper, found by convention so the generic stepper names no game.

A panel is a view of one game shown under the stepper and refreshed after every change.  A game
offers panels by having a module of this package named after it (``gamelib_widgets.fugitive``
for the game registered as ``"fugitive"``) with a ``PANELS`` tuple of ``(capability, factory)``
pairs: ``Stepper(..., panels="auto")`` shows each factory whose ``GameInfo`` capability the game
declares (``None``: always).  A new game's panels are one new module; nothing here changes.

A module without ``PANELS`` offers the classes it defines whose name ends in ``Panel``, each
needing the capability in its ``capability`` attribute if it has one (the Fugitive module,
``BeliefPanel``, is found that way).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from gamelib import Game, State

if TYPE_CHECKING:
    from .stepper import Stepper


class Panel(Protocol):
    """A game-specific view shown under the stepper and refreshed after every change."""

    widget: Any

    def update(self, state: State) -> None: ...


PanelFactory = Callable[["Stepper"], Panel]


def panels_for(game: Game) -> list[PanelFactory]:
    """The panels ``game`` offers whose capability it declares (see the module docstring)."""
    try:
        module = importlib.import_module(f".{game.name}", __package__)
    except ModuleNotFoundError as exc:
        if exc.name is not None and exc.name.endswith(f".{game.name}"):
            return []  # the game ships no panel module
        raise
    offered: tuple[tuple[str | None, PanelFactory], ...] | None = getattr(module, "PANELS", None)
    if offered is None:
        offered = tuple(
            (getattr(value, "capability", None), value)
            for name, value in vars(module).items()
            if name.endswith("Panel") and isinstance(value, type) and value.__module__ == module.__name__
        )
    return [factory for capability, factory in offered if capability is None or game.info.has(capability)]
