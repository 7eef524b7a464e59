"""Fugitive's actions: their classes, notation, the interned tables the rules hand out, and what a
seat that does not see an action reads in its place.

A turn is split into small actions so that branching stays small and every choice is explicit in
the history:

* fugitive: ``draw 1|2|3`` then the chance outcome ``deal N``; ``hide N`` then any number of
  ``sprint S`` and ``done``; or ``pass``;
* detective: ``draw 1|2|3`` (twice on the first turn) then ``deal N``; ``guess N`` or a series
  ``add N`` ... ``reveal``; after the escape card, also ``manhunt``; during a manhunt, ``guess N``
  until a miss.
"""

from __future__ import annotations

import functools
from typing import Any, TypeVar

from gamelib.core.game import Action
from gamelib.core.notation import Int, Notation, action_class, spec_of
from gamelib.fugitive.board import LAST

N = TypeVar("N", bound=Action)


def _last(game: Any) -> int:
    """The escape card of ``game`` (a ``FugitiveGame``, read by its ``layout``): the highest card
    a ``hide`` or a ``sprint`` reads."""
    return int(game.layout.last)


def _below_last(game: Any) -> int:
    """The highest number a ``deal``, a ``guess`` or an ``add`` reads (the escape card is never
    dealt nor named)."""
    return int(game.layout.last) - 1


@action_class("draw", Int("deck", 1, 3, shift=1))
class Draw(Action):
    """Choose a deck (0-based inside, 1-3 in notation) to draw from."""

    deck: int


@action_class("deal", Int("card", 4, _below_last, limit=LAST - 1))
class Deal(Action):
    """Chance outcome: the card that comes off the chosen deck."""

    card: int


@action_class("hide", Int("card", 1, _last, limit=LAST))
class Hide(Action):
    """The fugitive lays ``card`` face down as the next hideout."""

    card: int


@action_class("sprint", Int("card", 1, _last, limit=LAST))
class Sprint(Action):
    """The fugitive slips ``card`` under the new hideout as a sprint card (never the escape card:
    ``sprint 42`` reads, and the rules say why it is refused)."""

    card: int


@action_class("done")
class Done(Action):
    """The fugitive has laid all the sprint cards for this hideout."""


@action_class("pass")
class Pass(Action):
    """The fugitive lays no (more) hideout this turn."""


@action_class("guess", Int("number", 1, _below_last, what="number named", limit=LAST - 1))
class Guess(Action):
    """The detective names one number (single guess, or one step of a manhunt)."""

    number: int


@action_class("add", Int("number", 1, _below_last, what="number named", limit=LAST - 1))
class Add(Action):
    """The detective adds a number to a series guess."""

    number: int


@action_class("reveal")
class Reveal(Action):
    """The detective checks the series: all numbers hit, or nothing happens."""


@action_class("manhunt")
class Manhunt(Action):
    """The detective launches the manhunt (after the escape card, option ``manhunt="choice"``)."""


NOTATION = Notation(Draw, Deal, Hide, Sprint, Done, Pass, Guess, Add, Reveal, Manhunt)
"""Fugitive's actions in universe order: an action's index is its integer id (``manhunt``, added
with rules version 2, comes last so the older ids keep their meaning)."""


def _by_number(cls: type[N]) -> tuple[N, ...]:
    """The interned actions of ``cls`` at the index of their number (card or number named): the
    slots below the lowest number hold ``None`` and are never read."""
    actions = NOTATION.every(cls)
    lowest: int = getattr(actions[0], spec_of(cls).args[0].field)
    padded: tuple[Any, ...] = (None,) * lowest + actions
    return padded


# Actions are interned: legal_actions returns shared objects, so membership tests hit identity.
# A table is named after its class (``HIDES[n]`` is ``hide n``), a single action after its verb.
DRAWS: tuple[Draw, ...] = NOTATION.every(Draw)
DEALS = _by_number(Deal)
HIDES = _by_number(Hide)
SPRINTS = _by_number(Sprint)
GUESSES = _by_number(Guess)
ADDS = _by_number(Add)
DONE: Done = NOTATION.make(Done)
PASS: Pass = NOTATION.make(Pass)
REVEAL: Reveal = NOTATION.make(Reveal)
MANHUNT_CALL: Manhunt = NOTATION.make(Manhunt)
"""The detective's call of the manhunt (the action; the phase in which it runs is ``HUNTING``)."""

MASKS: dict[type[Action], str] = {kind: f"{spec_of(kind).verb} ?" for kind in (Deal, Hide, Sprint)}
"""What a seat that does not see an action of these classes reads instead (``deal ?``, ``hide ?``,
``sprint ?``), in the order of ``GameInfo.hidden_masks`` (the order codes the information-state
tensor's tokens: append only)."""


@functools.lru_cache(maxsize=8192)
def numbers_not_in(blocked: int, last: int = LAST) -> tuple[int, ...]:
    """Numbers 1..last-1 not in the mask ``blocked`` (cached: the detective's mask of known
    numbers changes only a few times a game).  A tuple of ints, which the garbage collector stops
    tracking: thousands of cached lists were walked by every full collection."""
    return tuple(n for n in range(1, last) if not blocked >> n & 1)
