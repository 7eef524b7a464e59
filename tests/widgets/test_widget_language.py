"""One switch, every word: each widget walked in English and in French (issue 20 item 3).

The check uses the words table itself: a word that the English table uses and the French table
never does ("Undo", "waiting", "heuristic"...) must not appear anywhere on screen in French,
in any label, tooltip, placeholder, menu entry, status or error line, in any game, any view,
behind the hot-seat cover or at the end of a game.  Action notation ("hide 3", "bid 30") is the
games' formal language (docs/notation.md), the same in both languages, and is left out.  In both
languages nothing on screen may be a bare repr.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

import ipywidgets as W
import pytest
from kernel_loop import run_on_a_loop_of_its_own

import gamelib
from gamelib.agents import RandomAgent
from gamelib.core.i18n import using_language
from gamelib_widgets import Stepper
from gamelib_widgets.language import (
    LanguageToggle,
    follow_url_language,
    language_from_url,
    use_language_from_url,
)
from gamelib_widgets.naming import player_label, words

GAMES = ("fugitive", "passante", "delanopolis", "getonboard")
REPR = re.compile(r"object at 0x|<[A-Za-z_.]+ [^>]*>|\b[A-Z][A-Za-z]+\(|\{'|\['|\('|\bNone\b")
"""What a bare repr looks like: ``<Foo ...>``, ``Observation(``, a dict, list or tuple literal."""


def tokens(text: str) -> set[str]:
    text = re.sub(r"\{[^}]*\}", " ", text)  # a template's fields
    text = re.sub(r"<[^>]+>|&[a-z]+;", " ", text)  # HTML
    return {t.lower() for t in re.findall(r"[A-Za-zÀ-ÿ]{3,}", text)}


def english_only() -> set[str]:
    """Words of the English table that the French table never uses."""
    table = words.table
    english = set().union(*(tokens(t) for t in table["en"].values()))
    french = set().union(*(tokens(t) for t in table["fr"].values()))
    return english - french


def walk(widget: Any) -> Iterator[Any]:
    yield widget
    for child in getattr(widget, "children", ()):
        yield from walk(child)


def texts(widget: Any) -> Iterator[tuple[str, str]]:
    """(where, text) for everything a student can read in ``widget`` and below."""
    for w in walk(widget):
        where = f"{type(w).__name__} {' '.join(w._dom_classes)}".strip()
        for name in ("description", "tooltip", "placeholder"):
            value = getattr(w, name, None)
            if value:
                yield f"{where}.{name}", html.unescape(str(value))
        if isinstance(w, (W.HTML, W.Label, W.HTMLMath)) and w.value:
            yield f"{where}.value", html.unescape(w.value)
        for label in getattr(w, "_options_labels", ()):
            yield f"{where}.options", label


def notation_tokens(stepper: Stepper) -> set[str]:
    """The words of the game's notation seen in this stepper (actions, outcomes, history)."""
    state = stepper.state
    seen = [str(a) for a in stepper.timeline.end.history]
    if state.current_player >= 0:
        seen += [str(a) for a in state.legal_actions()]
    elif state.is_chance_node():
        seen += [str(a) for a, _ in state.chance_outcomes()]
    return set().union(set(), *(tokens(n) for n in seen))


def screens(name: str) -> Iterator[tuple[str, Stepper]]:
    """A game's Stepper in every situation a class meets: start, seat views, an error, the end,
    the hot-seat cover."""
    stepper = Stepper(name, seed=3, panels="auto")
    yield "start", stepper
    stepper.undo()
    yield "an error", stepper
    for _ in range(6):
        stepper.step_agent()
    yield "mid-game", stepper
    for seat in range(stepper.game.num_players):
        stepper.perspective = seat
        yield f"seat {seat}", stepper
    stepper.perspective = None
    while not stepper.state.is_chance_node() and not stepper.state.is_terminal():
        stepper.step_agent()
    yield "chance", stepper
    ended = Stepper(name, seed=3, agents={"random": RandomAgent()}, panels="auto")
    ended.play_to_end()
    yield "game over", ended
    hot = Stepper(name, seed=3, hot_seat=True, panels="auto")
    yield "hot seat, covered", hot
    hot.reveal()
    yield "hot seat, revealed", hot


def test_the_check_knows_english_from_the_table() -> None:
    leftovers = english_only()
    assert {"undo", "step", "heuristic", "reveal", "omniscient", "planner"} <= leftovers
    assert "notation" not in leftovers and "actions" not in leftovers, "the same in both languages"


@pytest.mark.parametrize("name", GAMES)
def test_every_widget_speaks_french_after_one_switch(name: str) -> None:
    leftovers = english_only()
    problems = []
    with using_language("fr"):
        for situation, stepper in screens(name):
            stepper.refresh()
            allowed = notation_tokens(stepper) | tokens(stepper.game.info.title)  # a proper name
            widgets = [stepper.widget, stepper.cover, *(p.widget for p in stepper.panels)]
            for widget in widgets:
                for where, text in texts(widget):
                    english = (tokens(text) & leftovers) - allowed
                    if english:
                        problems.append(f"{situation}: {where}: {sorted(english)} in {text!r}")
                    if REPR.search(re.sub(r"<[^>]+>", " ", text)):
                        problems.append(f"{situation}: {where}: bare repr {text!r}")
    assert not problems, "\n".join(problems[:30])


@pytest.mark.parametrize("name", GAMES)
def test_nothing_on_screen_is_a_bare_repr_in_english(name: str) -> None:
    problems = []
    for situation, stepper in screens(name):
        for widget in (stepper.widget, stepper.cover, *(p.widget for p in stepper.panels)):
            for where, text in texts(widget):
                if REPR.search(re.sub(r"<[^>]+>", " ", text)):
                    problems.append(f"{situation}: {where}: {text!r}")
    assert not problems, "\n".join(problems[:30])


def test_the_check_catches_an_english_label_and_a_repr() -> None:
    stepper = Stepper("fugitive", seed=3)
    with using_language("fr"):
        stepper.refresh()
        stepper.undo_button.description = "Undo"
        stepper.waiting.value = "<Observation at 0x7f>"
        found = [text for _, text in texts(stepper.widget)]
    assert any(tokens(t) & english_only() for t in found)
    assert any(REPR.search(re.sub(r"<[^>]+>", " ", t)) or "0x7f" in t for t in found)


def test_players_are_numbered_from_one_in_every_game() -> None:
    for name in GAMES:
        game = gamelib.make(name)
        for lang, word in (("en", "player"), ("fr", "joueur")):
            with using_language(lang):
                labels = [player_label(game, p) for p in range(game.num_players)]
            numbered = [re.match(rf"{word} (\d+)", label) for label in labels]
            if all(numbered):
                assert [int(m.group(1)) for m in numbered if m] == list(range(1, game.num_players + 1))
    stepper = Stepper("delanopolis", seed=1)
    assert "player 0" not in stepper.status.value.lower() + "".join(
        label for d in stepper.seat_dropdowns for label in [d.description]
    )


def test_a_stepper_on_screen_follows_the_toggle() -> None:
    stepper = Stepper("passante", seed=1)
    toggle = LanguageToggle()
    assert toggle.widget.value == "en" and stepper.undo_button.description == "Undo"
    try:
        toggle.widget.value = "fr"
        assert gamelib.language() == "fr"
        assert stepper.undo_button.description == "Annuler", "redrawn at once, no click needed"
        assert "coup 0" in stepper.status.value and stepper.seat_dropdowns[0].description == "joueur 1"
        other = LanguageToggle()
        assert other.widget.value == "fr"
        other.widget.value = "en"
        assert toggle.widget.value == "en" and stepper.undo_button.description == "Undo"
    finally:
        gamelib.set_language("en")


def test_a_stepper_on_screen_follows_a_plain_set_language() -> None:
    stepper = Stepper("passante", seed=1)
    toggle = LanguageToggle()
    try:
        gamelib.set_language("fr")
        assert stepper.undo_button.description == "Annuler", "the library's switch redraws the page"
        assert toggle.widget.value == "fr"
        with using_language("en"):  # a temporary switch is undone before anything is shown
            assert stepper.undo_button.description == "Annuler"
        gamelib.set_language("en")
        assert stepper.undo_button.description == "Undo" and toggle.widget.value == "en"
    finally:
        gamelib.set_language("en")


def test_the_page_url_chooses_the_language(monkeypatch: pytest.MonkeyPatch) -> None:
    assert language_from_url("lang=fr") == "fr" and language_from_url("x=1&lang=FR") == "fr"
    assert language_from_url("lang=de") is None and language_from_url("") is None
    monkeypatch.setenv("QUERY_STRING", "lang=fr")
    monkeypatch.setenv("VOILA_PREHEAT", "False")
    try:
        assert language_from_url() == "fr"
        assert use_language_from_url() == "fr" and gamelib.language() == "fr"
        toggle = LanguageToggle(from_url=True)
        assert toggle.widget.value == "fr"
    finally:
        gamelib.set_language("en")
    monkeypatch.setenv("QUERY_STRING", "")
    assert use_language_from_url() == "en"


def test_a_preheated_page_switches_when_it_is_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """Voilà's preheated kernel runs the notebook first; the URL comes with the request."""
    import asyncio
    import threading

    import gamelib_widgets.language as page_language

    asked = threading.Event()

    def page_query_string() -> str:
        asked.wait(5)  # until a browser asks for the page
        return "lang=fr"

    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setattr(page_language, "page_query_string", page_query_string)

    async def page() -> tuple[str, str, str]:
        stepper = Stepper("fugitive", seed=1)
        follow_url_language()  # returns at once: the notebook goes on running
        before = gamelib.language()
        asked.set()
        for _ in range(100):
            await asyncio.sleep(0.02)
            if gamelib.language() == "fr":
                break
        return before, gamelib.language(), stepper.undo_button.description

    try:
        assert run_on_a_loop_of_its_own(page) == ("en", "fr", "Annuler")
    finally:
        gamelib.set_language("en")


def test_a_preheated_kernel_hears_of_its_visitor_over_voila_s_socket(monkeypatch: pytest.MonkeyPatch) -> None:
    """The request's variables come over a real websocket, as Voilà sends them, without Voilà imported."""
    import asyncio
    import json
    import subprocess
    import sys
    import threading

    import websockets.asyncio.server as ws_server

    import gamelib_widgets.page_request as page_request

    served: list[str] = []
    ready = threading.Event()
    stop: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []

    async def tell(socket: ws_server.ServerConnection) -> None:
        served.append(socket.request.path if socket.request else "")
        await socket.send(json.dumps({"QUERY_STRING": "lang=fr&code=K7QXP"}))

    async def serve() -> None:
        async with ws_server.serve(tell, "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            monkeypatch.setenv("VOILA_APP_PORT", str(port))
            done = asyncio.Event()
            stop.append((asyncio.get_running_loop(), done))
            ready.set()
            await done.wait()

    thread = threading.Thread(target=lambda: asyncio.run(serve()), daemon=True)
    thread.start()
    assert ready.wait(5)
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setenv("VOILA_KERNEL_ID", "k-1")
    monkeypatch.setenv("QUERY_STRING", "")
    monkeypatch.setattr(page_request, "_RECEIVED", False)
    try:
        assert page_request.page_query_string() == "lang=fr&code=K7QXP"
        assert page_request.page_query_string() == "lang=fr&code=K7QXP"  # told once, kept
        assert served == ["/voila/query/k-1"]
    finally:
        loop, done = stop[0]
        loop.call_soon_threadsafe(done.set)
        thread.join(5)
    check = "import gamelib_widgets.language, sys; assert 'voila' not in sys.modules, 'voila imported'"
    subprocess.run([sys.executable, "-c", check], check=True)
