"""One rule, one place: each action class's transition and its refusal, declared side by side.

A game writes, next to each other in its state class (or a mixin of it)::

    @transition(Guess)
    def _guess(self, action: Guess) -> None:
        ...  # what a guess changes (called only once the guess is known to be legal)

    @refusal(Guess)
    def _why_not_guess(self, action: Guess) -> IllegalAction | None:
        ...  # why this guess is not legal now, naming the rule (reads the state, changes nothing)

and core does the rest: :meth:`~gamelib.core.game.State._apply` dispatches on the action's class
through one dict lookup (no ``isinstance`` ladder, no ``match``), and
:meth:`~gamelib.core.game.State._explain_illegal` asks the game's class-independent refusals
first (``_refuse_now``: a chance outcome is due, the game is in another phase) and then the
action class's own.  A new rule therefore touches one place; a generic test checks that every
action a game can produce has both a transition and a refusal (:func:`gaps`).

Why decorators rather than a table at the end of the file: a table is a second place to edit
(and to forget) whenever an action class is added; a decorator sits on the method itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from gamelib.core.errors import IllegalAction
    from gamelib.core.game import Action, State

F = TypeVar("F", bound=Callable[..., Any])
Transition = Callable[[Any, Any], None]
"""``transition(state, action)``: apply an action already known to be legal."""
Refusal = Callable[[Any, Any], "IllegalAction | None"]
"""``refusal(state, action)``: the error naming the rule the action breaks now (``None``: no
more specific reason than "not legal now")."""

_TRANSITION_MARK = "_gamelib_transition_of"
_REFUSAL_MARK = "_gamelib_refusal_of"


def transition(*kinds: type[Action]) -> Callable[[F], F]:
    """Mark a state method as the transition of the action classes ``kinds``."""
    return _marker(_TRANSITION_MARK, "transition", kinds)


def refusal(*kinds: type[Action]) -> Callable[[F], F]:
    """Mark a state method as the refusal of the action classes ``kinds``."""
    return _marker(_REFUSAL_MARK, "refusal", kinds)


def _marker(mark: str, what: str, kinds: tuple[Any, ...]) -> Callable[[F], F]:
    """A decorator adding ``kinds`` to a method's ``mark`` (a method may serve several classes)."""
    if not kinds:
        raise TypeError(f"@{what} names at least one action class")
    for kind in kinds:
        if not isinstance(kind, type):
            raise TypeError(f"@{what} takes action classes, got {kind!r}")

    def marked(method: F) -> F:
        setattr(method, mark, (*getattr(method, mark, ()), *kinds))
        return method

    return marked


def collect(cls: type) -> tuple[dict[type, Transition], dict[type, Refusal]]:
    """The transitions and refusals of a state class, by action class.

    Read from the class's own attributes after inheritance (``getattr`` on each name), so a
    subclass that overrides a marked method under the same name replaces it, and mixins count.
    Two methods claiming the same action class is a mistake in the game: ``TypeError``.
    """
    transitions: dict[type, Transition] = {}
    refusals: dict[type, Refusal] = {}
    owners: dict[tuple[str, type], str] = {}
    for name in dir(cls):
        try:
            value = getattr(cls, name)
        except AttributeError:  # pragma: no cover - a lazy class attribute not set yet
            continue
        for mark, table in ((_TRANSITION_MARK, transitions), (_REFUSAL_MARK, refusals)):
            for kind in getattr(value, mark, ()):
                key = (mark, kind)
                if key in owners and owners[key] != name:
                    what = "transition" if mark == _TRANSITION_MARK else "refusal"
                    raise TypeError(
                        f"{cls.__name__}: {kind.__name__} has two {what}s, {owners[key]} and {name}"
                    )
                owners[key] = name
                table[kind] = value
    return transitions, refusals


def gaps(state_class: type[State], kinds: Iterable[type]) -> dict[str, list[str]]:
    """The action classes among ``kinds`` that lack a transition or a refusal in ``state_class``
    (``{"transition": [...], "refusal": [...]}``, empty lists when the rulebook is complete)."""
    transitions, refusals = state_class._transitions, state_class._refusals
    wanted = sorted(set(kinds), key=lambda kind: kind.__name__)
    return {
        "transition": [kind.__name__ for kind in wanted if kind not in transitions],
        "refusal": [kind.__name__ for kind in wanted if kind not in refusals],
    }
