"""Action notation declared once: a verb and typed arguments give writing, strict parsing, bounds
checks, the action universe and its integer ids.

python-chess keeps both directions of its notation together; so does this module.  A game
declares each action class with :func:`action_class` (a frozen, slotted dataclass and its
:func:`notation`)::

    @action_class("draw", Int("deck", 1, 3, shift=1))   # stored 0-2, written 1-3
    class Draw(Action):
        deck: int

    @action_class("go", Choice("direction", "NESW"))    # stored 0-3, written N E S W
    ...

and lists its actions once, in universe order::

    NOTATION = Notation(Draw, Deal, Hide, ...)
    NOTATION.parse("draw 2", game)    # Draw(1), interned; IllegalAction("notation") naming the field
    NOTATION.universe(game)           # every action of this configuration, in a fixed order

``str(action)`` writes the notation; an action built by hand with a field out of its declared
range is refused at construction (``IllegalAction`` rule ``notation``), before any use.  Bounds
that depend on the configuration (a smaller deck, the map's number of starts) are a function of
the game (``high=lambda game: game.layout.last``): parsing and the universe use them; the
construction check uses the static ``limit``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar, Unpack, cast, dataclass_transform

from gamelib.core.errors import IllegalAction, shown
from gamelib.core.game import Action, parse_int

if TYPE_CHECKING:
    from gamelib.core.game import Game

A = TypeVar("A", bound=type[Action])
Bound = int | Callable[[Any], int]
"""A bound: a number, or a function of the game (its configuration) giving one."""


class Arg:
    """One typed argument of an action: its field, how it is written and read, its values."""

    field: str
    what: str

    def write(self, value: Any) -> str:
        raise NotImplementedError

    def writer(self) -> Callable[[Any], str]:
        """``write`` as a plain function (the fast path of ``str(action)``)."""
        return self.write

    def read(self, text: str, game: Game | None) -> Any:
        """The field's value written ``text``; :class:`IllegalAction` (rule ``notation``) if none."""
        raise NotImplementedError

    def check(self, value: Any, owner: str) -> None:
        """Refuse a value outside the declared static range (actions built by hand)."""
        raise NotImplementedError

    def values(self, game: Game) -> Sequence[Any]:
        """Every value this argument takes in ``game``'s configuration, in universe order."""
        raise NotImplementedError

    def example(self) -> str:
        raise NotImplementedError


def _resolve(bound: Bound, game: Game | None, default: int) -> int:
    if callable(bound):
        return default if game is None else int(bound(game))
    return bound


class Int(Arg):
    """A whole number stored as ``value`` and written as ``value + shift`` (e.g. 0-based decks
    written 1-3), between ``low`` and ``high`` as written.

    ``high`` may be a function of the game; ``limit`` is then the largest it can be in any
    configuration, what a hand-built action is checked against.  ``step`` thins the universe and
    the parse (a bid in steps of 5).
    """

    __slots__ = ("field", "high", "limit", "low", "shift", "step", "what")

    def __init__(
        self,
        field: str,
        low: int,
        high: Bound,
        *,
        what: str | None = None,
        shift: int = 0,
        limit: int | None = None,
        step: int | Callable[[Any], int] = 1,
    ) -> None:
        self.field = field
        self.low = low
        self.high = high
        self.what = what or field
        self.shift = shift
        if limit is None:
            if callable(high):
                raise ValueError(f"Int({field!r}): a high bound that depends on the game needs a limit")
            limit = high
        self.limit = limit
        self.step = step

    def bounds(self, game: Game | None) -> tuple[int, int]:
        """(low, high) as written, in ``game``'s configuration (the static range without one)."""
        return self.low, _resolve(self.high, game, self.limit)

    def write(self, value: Any) -> str:
        return str(value + self.shift)

    def writer(self) -> Callable[[Any], str]:
        shift = self.shift
        if not shift:
            return str
        return lambda value: str(value + shift)

    def read(self, text: str, game: Game | None) -> int:
        low, high = self.bounds(game)
        written = parse_int(text, self.what, low, high)
        step = _resolve(self.step, game, 1)
        if step > 1 and (written - low) % step:
            raise IllegalAction("notation", f"{self.what} goes in steps of {step} from {low}, got {written}")
        return written - self.shift

    def check(self, value: Any, owner: str) -> None:
        low, high = self.low - self.shift, self.limit - self.shift
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise IllegalAction(
                "notation",
                f"{owner}: {self.what} must be an int between {low} and {high}, got {shown(value)}",
            )

    def values(self, game: Game) -> Sequence[int]:
        low, high = self.bounds(game)
        step = _resolve(self.step, game, 1)
        return range(low - self.shift, high - self.shift + 1, step)

    def example(self) -> str:
        return str(self.low)


class Choice(Arg):
    """One word of ``words`` (case-insensitive when written), stored as its index."""

    __slots__ = ("field", "folded", "what", "words")

    def __init__(self, field: str, words: Iterable[str], *, what: str | None = None) -> None:
        self.field = field
        self.words = tuple(words)
        self.folded = {w.lower(): i for i, w in enumerate(self.words)}
        self.what = what or field

    def write(self, value: Any) -> str:
        word: str = self.words[value]
        return word

    def writer(self) -> Callable[[Any], str]:
        return self.words.__getitem__

    def read(self, text: str, game: Game | None) -> int:
        index = self.folded.get(text.lower()) if isinstance(text, str) else None
        if index is None:
            raise IllegalAction(
                "notation", f"{self.what} is one of {', '.join(self.words)}, got {shown(text)}"
            )
        return index

    def check(self, value: Any, owner: str) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(self.words):
            named = ", ".join(f"{i} {w}" for i, w in enumerate(self.words))
            raise IllegalAction(
                "notation",
                f"{owner}: {self.what} must be an int 0-{len(self.words) - 1} ({named}), got {shown(value)}",
            )

    def values(self, game: Game) -> Sequence[int]:
        return range(len(self.words))

    def example(self) -> str:
        return self.words[0]


class Spec:
    """The notation of one action class: its verb and arguments, and when it exists."""

    __slots__ = ("args", "cls", "universe_only", "verb", "when", "where")

    def __init__(
        self,
        verb: str,
        args: tuple[Arg, ...],
        cls: type[Action],
        when: Callable[[Any], bool] | None,
        where: Callable[..., bool] | None,
        universe_only: bool = False,
    ) -> None:
        self.verb = verb
        self.args = args
        self.cls = cls
        self.when = when
        self.where = where
        self.universe_only = universe_only

    def write(self, action: Action) -> str:
        args = self.args
        if not args:
            return self.verb
        return " ".join([self.verb, *(arg.write(getattr(action, arg.field)) for arg in args)])

    def usage(self) -> str:
        return " ".join([self.verb, *(arg.example() for arg in self.args)])


class Scope(TypedDict, total=False):
    """Which actions of a declaration exist (the keywords of :func:`notation` and :func:`action_class`)."""

    when: Callable[[Any], bool] | None
    where: Callable[..., bool] | None
    universe_only: bool


def notation(verb: str, *args: Arg, **scope: Unpack[Scope]) -> Callable[[A], A]:
    """Declare an action class's notation: ``verb`` then one written argument per field.

    ``when(game)`` says whether the action exists in a configuration (an option's actions);
    ``where(*values)`` leaves combinations out of the universe (and the parse).  With
    ``universe_only``, ``when`` and ``where`` choose only what the universe lists: every value in
    range still parses, and the rules refuse the others naming their own rule (``move chat place``
    is a ``chat-move`` error, not a notation one).  The class gets ``__str__`` (the writing) and a
    check of its fields at construction.  Several classes may share a verb when their arguments
    read differently (``reach chat``, ``reach 2``): the parse takes the first that reads.
    """
    if not verb or not verb.isascii() or " " in verb or verb != verb.lower():
        raise ValueError(f"a verb is one lower-case ASCII word, got {verb!r}")
    unknown = sorted(set(scope) - Scope.__optional_keys__)
    if unknown:
        raise TypeError(f"@notation({verb!r}) takes {sorted(Scope.__optional_keys__)}, not {unknown}")

    def declare(cls: A) -> A:
        fields = getattr(cls, "__dataclass_fields__", None)
        if fields is None:
            raise TypeError(f"@notation goes above @dataclass on {cls.__name__}")
        names = [f for f in fields]
        if [a.field for a in args] != names:
            raise TypeError(
                f"{cls.__name__}: notation arguments {[a.field for a in args]} must match its fields {names}"
            )
        spec = Spec(verb, args, cls, scope.get("when"), scope.get("where"), scope.get("universe_only", False))
        __str__ = _writer(spec)

        cls._spec = spec  # type: ignore[attr-defined]
        cls.__str__ = __str__  # type: ignore[method-assign,assignment]
        return cls

    return declare


@dataclass_transform(frozen_default=True)
def action_class(verb: str, *args: Arg, **scope: Unpack[Scope]) -> Callable[[A], A]:
    """Declare an action class in one place: a frozen, slotted dataclass (hashable, cheap to
    intern) with its notation (see :func:`notation` for the arguments)::

        @action_class("draw", Int("deck", 1, 3, shift=1))
        class Draw(Action):
            deck: int
    """
    declare_notation = notation(verb, *args, **scope)

    def declare(cls: A) -> A:
        made = cast(A, dataclass(frozen=True, slots=True)(cls))  # slots: a new class, same name
        return declare_notation(made)

    return declare


def _writer(spec: Spec) -> Callable[[Action], str]:
    """A fast ``__str__`` for one declaration (notation is written on every record and view)."""
    verb, args = spec.verb, spec.args
    if not args:

        def write_verb(self: Action) -> str:
            return verb

        return write_verb
    prefix = verb + " "
    if len(args) == 1:
        (arg,) = args
        field, value_text = arg.field, arg.writer()

        def write_one(self: Action) -> str:
            return prefix + value_text(getattr(self, field))

        return write_one
    fields = tuple(a.field for a in args)
    texts = tuple(a.writer() for a in args)
    pairs = tuple(zip(fields, texts, strict=True))

    def write_many(self: Action) -> str:
        return prefix + " ".join([text(getattr(self, field)) for field, text in pairs])

    return write_many


def spec_of(action: Action | type[Action]) -> Spec:
    """The declared notation of an action or action class."""
    spec = getattr(action, "_spec", None)
    if not isinstance(spec, Spec):
        name = action.__name__ if isinstance(action, type) else type(action).__name__
        raise TypeError(f"{name} has no declared notation (@notation)")
    return spec


class Notation:
    """A game's actions, listed once in universe order: parsing, the universe, interning."""

    def __init__(self, *classes: type[Action]) -> None:
        self.specs = tuple(spec_of(c) for c in classes)
        self.by_verb: dict[str, tuple[Spec, ...]] = {}
        for spec in self.specs:
            shared = self.by_verb.get(spec.verb, ())
            if any(len(s.args) != len(spec.args) or not spec.args for s in shared):
                raise ValueError(f"verb {spec.verb!r} declared twice")
            self.by_verb[spec.verb] = (*shared, spec)
        self.verbs = tuple(self.by_verb)
        self._interned: dict[Action, Action] = {}

    def intern(self, action: Action) -> Action:
        """The one shared object equal to ``action`` (identity tests in core ``apply`` hit it).

        Only the game's own tables, legal actions and universes are interned (what the rules
        build), never a parse on its own: refused input leaves no trace in memory.
        """
        return self._interned.setdefault(action, action)

    def make(self, cls: type[Action], *values: Any) -> Any:
        """``cls(*values)``, interned."""
        return self.intern(cls(*values))

    def every(self, cls: type[Action], game: Game | None = None) -> tuple[Any, ...]:
        """Every action of class ``cls`` over its arguments' static ranges (or ``game``'s), interned,
        in universe order (for a game's lookup tables)."""
        spec = spec_of(cls)
        ranges = [a.values(game) if game is not None else _static_values(a) for a in spec.args]
        return tuple(self.make(cls, *values) for values in itertools.product(*ranges))

    def parse(self, text: str, game: Game | None = None) -> Action:
        """The action written ``text``: strict (known verb, exact arity, fields in range)."""
        parts = split(text)
        specs = [
            s
            for s in self.by_verb.get(parts[0].lower(), ())
            if game is None or s.when is None or s.universe_only or s.when(game)
        ]
        if not specs:
            known = [
                s.verb
                for s in self.specs
                if game is None or s.when is None or s.universe_only or s.when(game)
            ]
            raise IllegalAction(
                "notation",
                f"unknown action {shown(parts[0])}; expected one of: {', '.join(dict.fromkeys(known))}",
            )
        if len(specs) == 1:
            return self._read(specs[0], text, parts[1:], game)
        errors: list[str] = []
        for spec in specs:  # one verb, arguments told apart by how they read (reach chat / reach 2)
            try:
                return self._read(spec, text, parts[1:], game)
            except IllegalAction as exc:
                errors.append(exc.detail)
        raise IllegalAction("notation", "; or ".join(dict.fromkeys(errors)))

    def _read(self, spec: Spec, text: str, words: list[str], game: Game | None) -> Action:
        if len(words) != len(spec.args):
            if not spec.args:
                raise IllegalAction(
                    "notation", f"{spec.verb!r} takes no argument, got {shown(' '.join(words))}"
                )
            what = " and ".join(a.what for a in spec.args)
            raise IllegalAction(
                "notation",
                f"{spec.verb!r} takes {len(spec.args)} argument(s), the {what}: e.g. {spec.usage()!r}",
            )
        values = tuple(arg.read(word, game) for arg, word in zip(spec.args, words, strict=True))
        if spec.where is not None and not spec.universe_only and not spec.where(*values):
            raise IllegalAction("notation", f"{shown(text)} names no action of this game")
        action: Action = spec.cls(*values)
        # the shared object when the rules made one; a parse alone interns nothing (bounded memory)
        interned: Action = self._interned.get(action, action)
        return interned

    def universe(self, game: Game) -> tuple[Action, ...]:
        """Every action of ``game``'s configuration in declared order (its index is its id)."""
        out: list[Action] = []
        for spec in self.specs:
            if spec.when is not None and not spec.when(game):
                continue
            ranges = [a.values(game) for a in spec.args]
            for values in itertools.product(*ranges):
                if spec.where is None or spec.where(*values):
                    out.append(self.make(spec.cls, *values))
        return tuple(out)


MAX_LENGTH = 100
"""The longest notation read (the longest any game writes today is 25 characters): a longer
input is refused before any word of it is read, so no message echoes it whole."""


def split(text: object) -> list[str]:
    """The words of a notation, strictly: printable ASCII, one space between words, none around.

    Strict so every action has one spelling and nothing merely looks like one: a Kelvin sign
    (U+212A) is not a ``k``, and a no-break, ideographic or control space is not a space.
    """
    if not isinstance(text, str):
        raise IllegalAction("notation", f"notation must be a string, got {type(text).__name__}")
    if not text.strip(" "):
        raise IllegalAction("notation", "empty notation")
    if len(text) > MAX_LENGTH:
        raise IllegalAction(
            "notation", f"no action is written in more than {MAX_LENGTH} characters, got {shown(text)}"
        )
    if not (text.isascii() and text.isprintable()):  # printable ASCII is " " to "~" (C speed)
        i, char = next((i, c) for i, c in enumerate(text) if not " " <= c <= "~")
        raise IllegalAction(
            "notation",
            f"notation is written in printable ASCII (letters, digits, single spaces): character "
            f"{i + 1} is U+{ord(char):04X} in {shown(text)}",
        )
    parts = text.split(" ")
    if "" in parts:
        raise IllegalAction(
            "notation", f"words are separated by one space, with none before or after: got {shown(text)}"
        )
    return parts


def _static_values(arg: Arg) -> Sequence[Any]:
    if isinstance(arg, Int):
        return range(arg.low - arg.shift, arg.limit - arg.shift + 1)
    if isinstance(arg, Choice):
        return range(len(arg.words))
    raise TypeError(f"{type(arg).__name__} has no static values")


__all__ = ["Arg", "Choice", "Int", "Notation", "Spec", "action_class", "notation", "spec_of", "split"]
