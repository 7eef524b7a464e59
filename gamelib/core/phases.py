"""A game's phases, each declared once: its name and who acts in it; the rest is derived.

Games used to keep parallel tables (phase constants, a tuple of who moves, a dict of names) that
had to be edited together.  A game now writes one list::

    PHASES = Phases(
        Phase("deal", "chance"),
        Phase("hide a hideout", "fugitive"),
        Phase("guess", "detective", tags={"turn"}),
        Phase("game over", "nobody"),
        actors={"fugitive": lambda state: 0, "detective": lambda state: 1},
    )
    DEAL, HIDE, GUESS, OVER = PHASES.numbers

and reads ``PHASES.names[phase]`` (what a student sees), ``PHASES.who(state, phase)``,
``PHASES.chance`` (the phases where chance acts) and ``PHASES.tagged("turn")``.  The number of a
phase is what states, records and tensors store: append new phases at the end.

Actors ``"chance"`` (:data:`~gamelib.core.game.CHANCE`) and ``"nobody"``
(:data:`~gamelib.core.game.TERMINAL`) are built in; every other actor is a function of the state
given in ``actors`` (a fixed seat, the player whose turn it is, the one a question is asked).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from gamelib.core.game import CHANCE, TERMINAL

Actor = Callable[[Any], int]
"""Who acts, as a function of the state: a seat, ``CHANCE`` or ``TERMINAL``."""


def _chance(state: Any) -> int:
    return CHANCE


def _nobody(state: Any) -> int:
    return TERMINAL


BUILT_IN_ACTORS: Mapping[str, Actor] = {"chance": _chance, "nobody": _nobody}


@dataclass(frozen=True)
class Phase:
    """One phase: its name (what a student reads, in English; games translate it through their
    wording), who acts in it (an actor's name) and free tags the rules ask about."""

    name: str
    acts: str
    tags: frozenset[str] = field(default_factory=frozenset)

    def __init__(self, name: str, acts: str, tags: Iterable[str] = ()) -> None:
        if not name or not acts:
            raise ValueError("a phase has a name and an actor")
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "acts", acts)
        object.__setattr__(self, "tags", frozenset(tags))


class Phases:
    """A game's phases in number order, with everything derived from them."""

    def __init__(self, *phases: Phase, actors: Mapping[str, Actor] | None = None) -> None:
        if not phases:
            raise ValueError("a game has at least one phase")
        table = {**BUILT_IN_ACTORS, **(actors or {})}
        unknown = sorted({phase.acts for phase in phases} - set(table))
        if unknown:
            raise ValueError(f"phases name actors with no function: {', '.join(unknown)}")
        names = [phase.name for phase in phases]
        if len(set(names)) != len(names):
            raise ValueError("two phases share a name")
        self.phases = phases
        self.names: tuple[str, ...] = tuple(names)
        """``names[phase]``: the phase as a student reads it."""
        self.numbers = range(len(phases))
        """The phase numbers in order (unpack them into the game's constants)."""
        self.actors: tuple[Actor, ...] = tuple(table[phase.acts] for phase in phases)
        """``actors[phase](state)``: who acts in that phase."""
        self.chance = frozenset(i for i, phase in enumerate(phases) if phase.acts == "chance")
        """The phases in which chance acts."""
        self.over = frozenset(i for i, phase in enumerate(phases) if phase.acts == "nobody")
        """The phases in which nobody acts (the game is over)."""

    def who(self, state: Any, phase: int) -> int:
        """Who acts in ``phase`` at ``state``."""
        return self.actors[phase](state)

    def tagged(self, tag: str) -> frozenset[int]:
        """The phases carrying ``tag``."""
        return frozenset(i for i, phase in enumerate(self.phases) if tag in phase.tags)

    def number(self, name: str) -> int:
        """The number of the phase called ``name`` (``KeyError`` naming the known ones)."""
        try:
            return self.names.index(name)
        except ValueError:
            raise KeyError(f"no phase {name!r}; phases: {', '.join(self.names)}") from None

    def __len__(self) -> int:
        return len(self.phases)

    def __iter__(self) -> Iterator[Phase]:
        return iter(self.phases)

    def __getitem__(self, phase: int) -> Phase:
        return self.phases[phase]
