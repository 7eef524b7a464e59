"""Rule options declared once: a frozen dataclass whose field types say what each option allows.

A game's options are a frozen dataclass (``Game.Options``).  Each field's type is the one place
its allowed values are said, and core reads it for three things: checking ``gamelib.make``'s
options (an :class:`~gamelib.core.errors.OptionError` naming the option and what it allows),
listing every option for students and scripts (:func:`option_specs`, ``gamelib.options(name)``,
``python -m gamelib games``), and the bounds the OpenSpiel adapter applies::

    @dataclass(frozen=True)
    class FugitiveOptions:
        edition: Literal[1, 2] = 1
        \"\"\"1: first turn 1 or 2 hideouts.  2: first turn exactly 2.\"\"\"
        max_rounds: Annotated[int, Between(1, 100_000)] = 100
        \"\"\"Engine safety limit (not a rule).\"\"\"

* ``Literal[...]``: the option is one of these values (choices);
* ``Annotated[int, Between(low, high)]`` (or ``float``): a number in ``[low, high]``; either
  bound may be ``None`` (unbounded on that side);
* ``bool``, ``int``, ``float``, ``str``: any value of that type.

The string under a field (an attribute docstring) is its documentation line.  A dataclass may
also call :func:`check_declared` from ``__post_init__`` so that options built by hand, without
``gamelib.make``, are held to the same declarations.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import numbers
import operator
import textwrap
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from gamelib.core.errors import OptionError, shown

__all__ = ["Between", "OptionSpec", "build_options", "check_declared", "option_specs", "options_to_dict"]


@dataclass(frozen=True)
class Between:
    """The range of a numeric option, bounds included: ``Annotated[int, Between(1, 100)]``."""

    low: int | float | None = None
    high: int | float | None = None

    def __post_init__(self) -> None:
        if self.low is not None and self.high is not None and self.low > self.high:
            raise ValueError(f"Between({self.low}, {self.high}): low is above high")

    def contains(self, value: int | float) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    def __str__(self) -> str:
        if self.low is None and self.high is None:
            return "any value"
        if self.high is None:
            return f">= {self.low}"
        if self.low is None:
            return f"<= {self.high}"
        return f"between {self.low} and {self.high}"


@dataclass(frozen=True)
class OptionSpec:
    """One rule option as declared: what ``gamelib.options(name)`` lists."""

    name: str
    default: Any
    type: type
    """``bool``, ``int``, ``float`` or ``str`` (the type of the values it takes)."""
    choices: tuple[Any, ...] | None = None
    """The allowed values of a ``Literal`` option (None: any value of :attr:`type` in range)."""
    range: Between | None = None
    """The allowed range of a numeric option (None: no declared range)."""
    doc: str = ""
    """The first paragraph of the option's docstring, on one line."""

    def allowed(self) -> str:
        """What the option allows, in words: ``one of [1, 2]``, ``an int between 1 and 100``."""
        if self.choices is not None:
            return f"one of {list(self.choices)}"
        if self.range is not None:
            return f"{_article(self.type)} {self.range}"
        return _article(self.type)

    def check(self, value: Any, game_name: str) -> Any:
        """``value`` as this option stores it (numpy integers become ``int``); OptionError otherwise."""
        name = shown(self.name)
        converted = _convert(value, self.type)
        if converted is _REFUSED:
            raise OptionError(f"{game_name}: option {name} must be {self.allowed()}, got {shown(value)}")
        if self.choices is not None and not any(
            converted == c and type(converted) is type(c) for c in self.choices
        ):
            raise OptionError(f"{game_name}: option {name} must be {self.allowed()}, got {shown(value)}")
        if self.range is not None and not self.range.contains(converted):
            raise OptionError(f"{game_name}: option {name} must be {self.allowed()}, got {shown(value)}")
        return converted

    def as_dict(self) -> dict[str, Any]:
        """JSON-safe: name, default, type name, choices, low/high and doc."""
        return {
            "name": self.name,
            "default": self.default,
            "type": self.type.__name__,
            "choices": None if self.choices is None else list(self.choices),
            "low": None if self.range is None else self.range.low,
            "high": None if self.range is None else self.range.high,
            "doc": self.doc,
        }


_REFUSED = object()


def _article(kind: type) -> str:
    return {bool: "a bool", int: "an int", float: "a number", str: "a string"}.get(kind, kind.__name__)


def _convert(value: Any, kind: type) -> Any:
    """``value`` as ``kind`` if it is one: any integral number (numpy's too) for int, any real for
    float, only True/False for bool; ``_REFUSED`` otherwise."""
    is_bool = isinstance(value, bool) or _numpy_bool(value)
    if kind is bool:
        return bool(value) if is_bool else _REFUSED
    if is_bool:
        return _REFUSED
    if kind is int:
        if isinstance(value, numbers.Integral) or (
            not isinstance(value, (str, float, numbers.Real)) and hasattr(type(value), "__index__")
        ):
            try:
                return operator.index(value)
            except TypeError:
                return _REFUSED
        return _REFUSED
    if kind is float:
        if isinstance(value, numbers.Real):
            return float(value)
        return _REFUSED
    return value if isinstance(value, kind) else _REFUSED


def _numpy_bool(value: object) -> bool:
    """numpy's bool scalar (``np.True_``), without importing numpy."""
    kind = type(value)
    return kind.__module__ == "numpy" and kind.__name__ in ("bool_", "bool")


def option_specs(cls: type) -> tuple[OptionSpec, ...]:
    """Every option of the options dataclass ``cls``, in declaration order, with its doc (cached)."""
    cached = _SPECS.get(cls)
    if cached is None:
        docs = _field_docs(cls)
        cached = tuple(dataclasses.replace(spec, doc=docs.get(spec.name, "")) for spec in _rules(cls))
        _SPECS[cls] = cached
    return cached


def _rules(cls: type) -> tuple[OptionSpec, ...]:
    """:func:`option_specs` without the docs: what checking values needs (cached).

    The docs are read from the class's source (inspect, tokenize, ast: 16-34 ms a game, the
    first time in a process), which a game made to be played never shows: a spawned tournament
    worker built Delanopolis in ~55 ms, 34 of them reading its options' docs."""
    cached = _RULES.get(cls)
    if cached is None:
        cached = _RULES[cls] = tuple(_specs(cls))
    return cached


_SPECS: dict[type, tuple[OptionSpec, ...]] = {}
_RULES: dict[type, tuple[OptionSpec, ...]] = {}


def _specs(cls: type) -> list[OptionSpec]:
    hints = typing.get_type_hints(cls, include_extras=True)
    out = []
    for field in dataclasses.fields(cls):
        default = field.default
        if default is dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{field.name}: every rule option needs a default")
        hint = hints.get(field.name, type(default))
        range_: Between | None = None
        if typing.get_origin(hint) is Annotated:
            base, *extras = typing.get_args(hint)
            range_ = next((e for e in extras if isinstance(e, Between)), None)
            hint = base
        choices: tuple[Any, ...] | None = None
        if typing.get_origin(hint) is Literal:
            choices = typing.get_args(hint)
            kind: type = type(choices[0])
        elif isinstance(hint, type):
            kind = hint
        else:
            kind = type(default)
        out.append(OptionSpec(field.name, default, kind, choices, range_))
    return out


def _field_docs(cls: type) -> dict[str, str]:
    """The attribute docstrings of a dataclass (the string after each field), first paragraph."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__[:-1]):
        try:
            source = textwrap.dedent(inspect.getsource(klass))
        except (OSError, TypeError):
            continue
        body = ast.parse(source).body
        if not body or not isinstance(body[0], ast.ClassDef):
            continue
        statements = body[0].body
        for stmt, after in itertools.pairwise(statements):
            if (
                isinstance(stmt, ast.AnnAssign)
                and isinstance(stmt.target, ast.Name)
                and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)
            ):
                paragraph = inspect.cleandoc(after.value.value).split("\n\n")[0]
                docs[stmt.target.id] = " ".join(paragraph.split())
    return docs


def options_to_dict(options: Any) -> dict[str, Any]:
    """The options dataclass as a JSON-safe dict (the form stored in records)."""
    return {f.name: getattr(options, f.name) for f in dataclasses.fields(options)}


def build_options(cls: type, given: Mapping[str, Any], game_name: str) -> Any:
    """Make an options dataclass from a dict: unknown names, wrong types, values outside their
    declared choices or range are refused with an OptionError naming the option."""
    if not isinstance(given, Mapping):
        raise OptionError(
            f"{game_name}: options are a mapping of option name to value "
            f"(e.g. {{'edition': 2}}), got {type(given).__name__} {shown(given)}"
        )
    bad = next((k for k in given if not isinstance(k, str)), None)
    if bad is not None:
        raise OptionError(f"{game_name}: option names are strings, got {shown(bad)}")
    specs = {s.name: s for s in _rules(cls)}
    unknown = sorted(set(given) - set(specs))
    if unknown:
        names = ", ".join(shown(u) for u in unknown[:5]) + (" ..." if len(unknown) > 5 else "")
        raise OptionError(f"{game_name}: unknown rule option(s) {names}; known options: {sorted(specs)}")
    values = {name: specs[name].check(value, game_name) for name, value in given.items()}
    try:
        return cls(**values)
    except (TypeError, ValueError) as exc:
        raise OptionError(f"{game_name}: {exc}") from None


def check_declared(options: Any) -> None:
    """Hold an options dataclass built by hand to its declarations (call it from ``__post_init__``):
    ValueError naming the first option outside its choices or range."""
    for spec in _rules(type(options)):
        spec.check(getattr(options, spec.name), type(options).__name__)
