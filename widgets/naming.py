"""What the widgets call things on screen: players numbered from 1, agents by their label, words.

Everything a student reads goes through :data:`words` (``widgets/data/words.json``, English by
default, French after ``gamelib.set_language("fr")``).  Players are numbered from 1 whatever the
game's code does (a game whose ``player_name`` says "player 0" is shown as "player 1"), and an
agent's registry name (``heuristic``, ``seeker#2``) is shown by its label in the language in force.
"""

from __future__ import annotations

import html
import re
from typing import Any

import ipywidgets as W

from gamelib import Game
from gamelib.core.i18n import Wording

words = Wording(__package__ or "gamelib_widgets")
"""Every label, tooltip and status line of the widgets: ``widgets/data/words.json``."""

HUMAN = "human"
"""The seat value of a player who plays at the keyboard (Step and Autoplay wait for them)."""

_NUMBERED = re.compile(r"^(?:[Pp]layer|[Jj]oueur) (\d+)\b(.*)$", re.S)


def escape(text: object) -> str:
    """Text for an HTML widget: ``<``, ``>`` and ``&`` escaped, quotes kept (they read better)."""
    return html.escape(str(text), quote=False)


def css(widget: Any, *classes: str) -> Any:
    """``widget`` with the ``gamelib-*`` CSS classes a browser test finds it by."""
    for name in classes:
        widget.add_class(name)
    return widget


def button(css_class: str, style: str = "") -> W.Button:
    """A button with its CSS class; its label comes later, in the language in force."""
    return css(W.Button(button_style=style), css_class)


def player_label(game: Game, player: int) -> str:
    """How ``player`` (0-based in code) is named on screen, numbered from 1, in the language in force.

    Games with roles keep their names ("fugitive", "détective"); a numbered name is renumbered
    when the game counts from 0 (its seat ``p`` called "player p") and worded by this package, so
    "player 0 (red)" reads "player 1 (red)" and, in French, "joueur 1 (rouge)" — the part after
    the number is the game's own, already in the language in force.
    """
    name = game.player_name(player)
    match = _NUMBERED.match(name)
    if match is None:
        return name
    number = int(match.group(1))
    if number == player:  # the game counts from 0: the student counts from 1
        number = player + 1
    return words("player_numbered", n=number) + match.group(2)


def seat_words(name: str) -> dict[str, str]:
    """The fields a sentence about a player takes: ``{player}`` mid-sentence, ``{Player}`` first."""
    return {"player": name, "Player": name[:1].upper() + name[1:]}


def agent_title(name: str) -> str:
    """An agent's registry name (``seeker``, ``random#2``) as a seat menu shows it.

    The label is ``agent_<name>`` in the words table when there is one (the agents the games
    ship), else the name itself (an agent a notebook brings, named by its author).
    """
    base, hash_, suffix = name.partition("#")
    key = f"agent_{base}"
    label = words(key) if key in words.table["en"] else base
    return label + hash_ + suffix


def seat_options(agent_names: list[str]) -> list[tuple[str, str]]:
    """The seat menu: every agent by its label, then the keyboard (value :data:`HUMAN`)."""
    return [(agent_title(n), n) for n in agent_names] + [(words("human"), HUMAN)]
