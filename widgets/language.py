"""One switch for the language of a page: a toggle on the page, or ``?lang=fr`` in its URL.

``gamelib.set_language("fr")`` switches every drawing, status line and widget label; the widgets
already on screen follow at their next refresh.  A classroom page needs the switch without
code:

* :class:`LanguageToggle` is an English/Français toggle a page shows; choosing a language
  switches gamelib's and redraws every live Stepper (:func:`gamelib_widgets.stepper.refresh_all`)
  and every callback registered with :func:`on_language_change`;
* :func:`language_from_url` reads the ``lang`` query parameter of the page Voilà serves
  (``…/voila/render/notebooks/01_fugitive.ipynb?lang=fr``): Voilà 0.5 gives the kernel the query
  string in its ``QUERY_STRING`` environment variable, and a preheated kernel (started before
  anyone asked for the page) is told when the page is asked for (:mod:`.page_request`, which
  reads Voilà's request without importing Voilà into the kernel).  :func:`use_language_from_url` applies it; :func:`follow_url_language` (what
  ``LanguageToggle(from_url=True)`` calls) does not hold up a preheated kernel: it waits for the
  request in a thread and switches on the kernel's own loop when the page is asked for, so the
  notebook still runs ahead of the request and the page opens in the URL's language.
"""

from __future__ import annotations

import asyncio
import os
import threading
import weakref
from collections.abc import Callable
from urllib.parse import parse_qs

import ipywidgets as W

from gamelib.core.i18n import LANGUAGES, language, set_language
from gamelib.core.i18n import on_language_change as on_library_language_change

from .naming import css, words
from .page_request import page_query_string
from .stepper import refresh_all

CHOICES = (("English", "en"), ("Français", "fr"))
"""Each language by its own name (a student finds their language whatever the page speaks)."""

_LISTENERS: list[Callable[[str], None]] = []
_TOGGLES: weakref.WeakSet[LanguageToggle] = weakref.WeakSet()


def on_language_change(callback: Callable[[str], None]) -> None:
    """Call ``callback(lang)`` after each switch made with :func:`switch_language` (or the toggle)."""
    _LISTENERS.append(callback)


def switch_language(lang: str) -> None:
    """``gamelib.set_language(lang)``: every Stepper alive redraws and the listeners are told."""
    set_language(lang)


def _follow_library(lang: str) -> None:
    """What a plain ``gamelib.set_language(lang)`` does to the widgets already on screen."""
    refresh_all()
    for toggle in list(_TOGGLES):
        toggle.follow(lang)
    for callback in list(_LISTENERS):
        callback(lang)


on_library_language_change(_follow_library)


def query_string() -> str:
    """The query string of the page this kernel serves (empty outside Voilà)."""
    return page_query_string()


def language_from_url(query: str | None = None) -> str | None:
    """The ``lang`` parameter of the page's URL (``?lang=fr``) if it names a known language."""
    values = parse_qs(query_string() if query is None else query).get("lang", [])
    for value in values:
        if value.strip().lower() in LANGUAGES:
            return value.strip().lower()
    return None


def use_language_from_url(query: str | None = None) -> str:
    """Switch to the URL's ``lang`` if it gives one; returns the language in force."""
    lang = language_from_url(query)
    if lang is not None and lang != language():
        switch_language(lang)
    return language()


def follow_url_language() -> None:
    """Apply the page URL's ``?lang=`` now, or, in a preheated Voilà kernel, when the page is asked for.

    A preheated kernel runs the notebook before anyone asks for the page, so its URL is not known
    yet: a thread waits for the request and the switch runs on the kernel's event loop (widgets
    are only touched from there), redrawing every Stepper already built.
    """
    if os.environ.get("VOILA_PREHEAT", "False") != "True":
        use_language_from_url()
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # no kernel loop to come back to: wait here
        use_language_from_url()
        return

    def wait_for_the_page() -> None:
        query = query_string()
        loop.call_soon_threadsafe(use_language_from_url, query)

    threading.Thread(target=wait_for_the_page, name="gamelib-url-language", daemon=True).start()


class LanguageToggle:
    """An English/Français toggle for a page (display it, or its :attr:`widget`).

    Choosing a language switches gamelib's (every drawing and label) and redraws every Stepper
    on the page.  ``from_url=True`` first applies the page URL's ``?lang=`` (Voilà).
    """

    def __init__(self, from_url: bool = False) -> None:
        if from_url:
            follow_url_language()
        self.widget = css(
            W.ToggleButtons(options=CHOICES, value=language(), style={"button_width": "auto"}),
            "gamelib-language",
        )
        self.widget.tooltip = words("language_tip")
        self.widget.observe(self._on_change, "value")
        _TOGGLES.add(self)

    def _on_change(self, change: dict[str, object]) -> None:
        if change["new"] != language():
            switch_language(str(change["new"]))

    def follow(self, lang: str) -> None:
        """Another toggle (or code) switched: show the language in force; relabel."""
        if self.widget.value != lang:
            self.widget.value = lang
        self.widget.tooltip = words("language_tip")

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)

    def _repr_mimebundle_(self, **kwargs: object) -> object:
        return self.widget._repr_mimebundle_(**kwargs)
