"""What a student reads, in English by default and in French at one switch.

Every drawing, status line and widget label asks this module for its words instead of writing
them in code.  The wording is data: each package keeps a ``data/words.json`` file of the form
``{"en": {"key": "text {n}"}, "fr": {"key": "texte {n}"}}``, and
``Wording(__package__)`` reads it once::

    >>> from gamelib.core.i18n import Wording, set_language, language
    >>> words = Wording("gamelib.core")
    >>> words("game_over")
    'game over'
    >>> set_language("fr"); words("game_over")
    'partie terminée'
    >>> set_language("en")

The games' own names (zones, characters, VOT'S, Contrôleur...) are proper nouns and stay as they
are in both languages.  A key missing in French falls back to English; a key missing in English
is a bug and raises ``KeyError`` naming the file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from gamelib.core.data import load_json, require
from gamelib.core.errors import shown

LANGUAGES = ("en", "fr")
"""The languages every ``words.json`` may hold; English is complete, French may fall back."""

_current = "en"
_listeners: list[Callable[[str], None]] = []


def set_language(lang: str) -> None:
    """Switch every drawing, status line and widget label to ``lang`` ("en" or "fr")."""
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES}, got {shown(lang)}")
    changed = lang != _current
    _speak(lang)
    if changed:
        for callback in list(_listeners):
            callback(lang)


def on_language_change(callback: Callable[[str], None]) -> None:
    """Call ``callback(lang)`` after each :func:`set_language` that changes the language.

    Why: what is already on screen (a Stepper, a toggle) must follow the one switch without the
    library importing it; the Jupyter layer registers its redraw here.  A temporary switch
    (:func:`using_language`) notifies nobody: it is undone before anything is shown.
    """
    if callback not in _listeners:
        _listeners.append(callback)


def _speak(lang: str) -> None:
    global _current
    _current = lang


def language() -> str:
    """The language in force ("en" by default)."""
    return _current


@contextmanager
def using_language(lang: str | None) -> Iterator[str]:
    """Temporarily speak ``lang`` (None keeps the current one): ``with using_language("fr"): ...``."""
    previous = _current
    if lang is not None:
        if lang not in LANGUAGES:
            raise ValueError(f"language must be one of {LANGUAGES}, got {shown(lang)}")
        _speak(lang)
    try:
        yield _current
    finally:
        _speak(previous)


class Wording:
    """The words of one package (``Wording("gamelib.passante")``), looked up by key."""

    def __init__(self, package: str) -> None:
        self.package = package
        self._table: dict[str, dict[str, str]] | None = None

    @property
    def table(self) -> dict[str, dict[str, str]]:
        if self._table is None:
            table = load_json(self.package, "words.json")
            where = f"{self.package}/data/words.json"
            require(isinstance(table, dict) and "en" in table, where, "must map 'en' (and 'fr') to words")
            unknown = set(table) - set(LANGUAGES)
            require(not unknown, where, f"unknown language(s) {sorted(unknown)}")
            self._table = table
        return self._table

    def __call__(self, key: str, lang: str | None = None, **fields: Any) -> str:
        """The text of ``key`` in ``lang`` (default: the language in force), formatted with ``fields``."""
        table = self.table
        chosen = lang or _current
        text = table.get(chosen, {}).get(key)
        if text is None:
            try:
                text = table["en"][key]
            except KeyError:
                raise KeyError(f"{self.package}/data/words.json has no English text for {key!r}") from None
        return text.format(**fields) if fields else text

    def keys(self) -> set[str]:
        return set(self.table["en"])

    def missing(self, lang: str) -> set[str]:
        """Keys English has and ``lang`` lacks (a test keeps French complete)."""
        return self.keys() - set(self.table.get(lang, {}))
