"""A state's fields, declared once: core derives ``clone``, ``key`` and the checks from the list.

A game used to list its state's fields four to six times (``__init__``, ``_clone``, ``key``, the
observation...), and a field missing from one list was a silent bug: a list shared between a
state and its clone, a position that compares equal to a different one.  Now a state class says
once what each attribute is::

    class FugitiveState(State):
        fields = StateFields(
            key="phase fhand dhand decks hideouts ...",   # what defines the position, in key order
            lists="decks hideouts ...",                    # mutable lists: copied by clone, tuples in key
            config="layout last canonical",                # fixed by the game and its options
            derived="face_up",                             # recomputed from the key by State._derive()
        )

and core derives ``_clone()`` (a shallow copy with the declared lists copied), ``key()`` (the key
fields in order, lists as tuples) and :func:`undeclared` (the generic test that every attribute
is declared).  Kinds:

``key``
    Defines the position: two states with equal keys (and the same game) are the same position.
``private``
    The key fields a seat may not see in full (hands, decks): :meth:`StateFields.public_key`
    leaves them out.  Informative for tools; each game's ``_observation`` says what a seat sees.
``config``
    Fixed for the whole game by the game and its options (the board, option flags read on hot
    paths): shared by clones, not in the key (the game itself is compared).
``derived``
    Computed from the key fields and kept for speed (a mask of face-up cards): shared by clones,
    not in the key, recomputed by the game's ``State._derive()`` hook; the generic tests check it.
``caches``
    Memos that ``State.invalidate()`` drops (set to ``None``): shared by clones, not in the key.
``logs``
    Facts about the history recorded as its steps are applied (which seat was dealt which secret
    card at which step): not in the key, since ``==`` compares the history itself; shared by
    clones (keep them immutable: tuples), left alone by ``invalidate()``.
``lists``
    Among all of the above, the attributes holding a mutable ``list`` (or ``dict``/``set``):
    clone copies them (one level: their items must be immutable), ``key`` turns lists into tuples.
"""

from __future__ import annotations

import keyword
import operator
from collections.abc import Callable
from typing import Any

CORE_ATTRIBUTES = frozenset({"game", "seed", "history", "_legal_cache"})
"""Attributes every state has, owned by core's ``State`` (never declared by a game)."""

KINDS = ("key", "private", "config", "derived", "caches", "logs", "lists")


def _names(text: str | tuple[str, ...] | list[str], kind: str) -> tuple[str, ...]:
    names = tuple(text.split()) if isinstance(text, str) else tuple(text)
    for name in names:
        if not name.isidentifier() or keyword.iskeyword(name):
            raise ValueError(f"StateFields: {kind} field {name!r} is not an attribute name")
        if name in CORE_ATTRIBUTES:
            raise ValueError(f"StateFields: {name!r} is core's own attribute; do not declare it")
    if len(set(names)) != len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"StateFields: {kind} names {twice} more than once")
    return names


class StateFields:
    """The declaration of a state's attributes (see the module docstring for the kinds)."""

    __slots__ = (
        "_copiers",
        "_key_function",
        "_key_parts",
        "_public_functions",
        "caches",
        "config",
        "derived",
        "key",
        "lists",
        "logs",
        "private",
    )

    def __init__(
        self,
        *,
        key: str | tuple[str, ...] | list[str],
        private: str | tuple[str, ...] | list[str] = "",
        config: str | tuple[str, ...] | list[str] = "",
        derived: str | tuple[str, ...] | list[str] = "",
        caches: str | tuple[str, ...] | list[str] = "",
        logs: str | tuple[str, ...] | list[str] = "",
        lists: str | tuple[str, ...] | list[str] = "",
    ) -> None:
        self.key = _names(key, "key")
        self.private = _names(private, "private")
        self.config = _names(config, "config")
        self.derived = _names(derived, "derived")
        self.caches = _names(caches, "caches")
        self.logs = _names(logs, "logs")
        self.lists = _names(lists, "lists")
        groups = {
            "key": self.key,
            "config": self.config,
            "derived": self.derived,
            "caches": self.caches,
            "logs": self.logs,
        }
        seen: dict[str, str] = {}
        for kind, names in groups.items():
            for name in names:
                if name in seen:
                    raise ValueError(f"StateFields: {name!r} is declared both {seen[name]} and {kind}")
                seen[name] = kind
        for kind, names in (("private", self.private), ("lists", self.lists)):
            stray = [n for n in names if n not in seen]
            if kind == "private":
                stray = [n for n in names if n not in self.key]
            if stray:
                where = "key" if kind == "private" else "key, config, derived, caches or logs"
                raise ValueError(f"StateFields: {kind} names {stray} are not declared as {where} fields")
        copied = frozenset(self.lists)
        self._key_parts = tuple((name, name in copied) for name in self.key)
        self._key_function = _key_function(self._key_parts)
        self._public_functions = _public_functions(self._key_parts, frozenset(self.private))
        self._copiers = tuple(self.lists)

    @property
    def declared(self) -> frozenset[str]:
        """Every attribute name this declaration covers."""
        return frozenset(self.key + self.config + self.derived + self.caches + self.logs)

    def clone(self, source: Any) -> Any:
        """A copy of ``source``: attributes shared, the declared lists copied (one C-level copy of
        the attribute dict, then the lists: what a hand-written clone does, as fast)."""
        values = source.__dict__.copy()
        for name in self._copiers:
            values[name] = values[name].copy()
        copy = object.__new__(type(source))
        copy.__dict__ = values
        return copy

    def key_of(self, state: Any) -> tuple[Any, ...]:
        """The key fields of ``state`` in order, lists turned into tuples (hashable)."""
        key: tuple[Any, ...] = self._key_function(state)
        return key

    def public_key(self, state: Any, summary: Callable[[str, Any], Any] | None = None) -> tuple[Any, ...]:
        """The key without the private fields (or with ``summary(name, value)`` in their place,
        e.g. a hand's size), the part of the position every seat sees."""
        if summary is None:
            without: tuple[Any, ...] = self._public_functions[0](state)
            return without
        summarised: tuple[Any, ...] = self._public_functions[1](state, summary)
        return summarised

    def __repr__(self) -> str:
        parts = [f"{kind}={' '.join(getattr(self, kind))!r}" for kind in KINDS if getattr(self, kind)]
        return f"StateFields({', '.join(parts)})"


def _key_function(parts: tuple[tuple[str, bool], ...]) -> Callable[[Any], tuple[Any, ...]]:
    """``lambda s: (s.a, tuple(s.b), ...)`` for the key fields (generated, as dataclasses do: the
    key is read on every comparison and hash, as fast as one written by hand)."""
    items = "".join(f"tuple(s.{name}), " if is_list else f"s.{name}, " for name, is_list in parts)
    function: Callable[[Any], tuple[Any, ...]] = eval(f"lambda s: ({items})", {"tuple": tuple})
    return function


def _public_functions(
    parts: tuple[tuple[str, bool], ...], private: frozenset[str]
) -> tuple[Callable[..., tuple[Any, ...]], Callable[..., tuple[Any, ...]]]:
    """The public key generated as :func:`_key_function`: without the private fields, and with
    ``summary(name, value)`` in their place (an observation reads it on every call)."""
    without, summarised = [], []
    for name, is_list in parts:
        value = f"tuple(s.{name})" if is_list else f"s.{name}"
        if name in private:
            summarised.append(f"summary({name!r}, {value}), ")
        else:
            without.append(f"{value}, ")
            summarised.append(f"{value}, ")
    env = {"tuple": tuple}
    return (
        eval(f"lambda s: ({''.join(without)})", env),
        eval(f"lambda s, summary: ({''.join(summarised)})", env),
    )


def current_player_field(name: str) -> Any:
    """``current_player`` as a C-level read of a ``derived`` field the transitions keep up to date.

    The play loop asks ``current_player`` several times a step; a game that stores it (and
    recomputes it in ``_derive``) writes ``current_player = current_player_field("_to_move")``
    instead of a Python property.
    """
    return property(
        operator.attrgetter(name), doc="The player to act, CHANCE or TERMINAL (a stored, derived field)."
    )


def undeclared(state: Any) -> list[str]:
    """The attributes of ``state`` its class does not declare in ``fields`` (should be none)."""
    fields: StateFields | None = getattr(type(state), "fields", None)
    present = set(vars(state)) - CORE_ATTRIBUTES
    if fields is None:
        return sorted(present)
    return sorted(present - fields.declared)


def missing(state: Any) -> list[str]:
    """Declared attributes ``state`` does not have (a declaration that drifted from ``__init__``)."""
    fields: StateFields | None = getattr(type(state), "fields", None)
    if fields is None:
        return []
    return sorted(fields.declared - set(vars(state)))


__all__ = ["CORE_ATTRIBUTES", "StateFields", "current_player_field", "missing", "undeclared"]
