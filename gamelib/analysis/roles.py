"""What a game tells experiments about each finished game: roles, scores, how it ended, facts.

Seats are not always roles: in Delanopolis the mayor is drawn by lot, so "the mayor's win rate"
groups games by the role each seat held *in that game*.  A game says so by convention, in its own
``analysis`` module (next to its rules, like agents in ``agents``), with any of:

* ``seat_role(state, seat) -> str``: the role key of ``seat`` in that game (language-neutral,
  e.g. ``"mayor"``), and ``role_title(role) -> str``: what a student reads for it;
* ``game_facts(state) -> Mapping[str, float]``: numbers worth averaging per game (Delanopolis:
  the mayor's terrains).

Without ``seat_role`` a seat's role is its seat, named by ``game.player_name`` (Fugitive's
fugitive and detective).  A game's **score** is ``state.scores()`` when the state has one (Get on
Board's points), else its returns.  How a game ended is ``state.outcome`` or ``state.ended_by``
when the state says (Delanopolis: ``"president"``...; Fugitive: ``"caught"``...).

Everything recorded here is a plain string or float, the same in every worker and language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gamelib.core.resolve import companion_module

_HOOKS: dict[str, dict[str, Callable[..., Any]]] = {}


def game_hooks(game: Any) -> dict[str, Callable[..., Any]]:
    """The convention functions (see the module docstring) of ``game``'s analysis module."""
    name = game.name
    hooks = _HOOKS.get(name)
    if hooks is None:
        hooks = {}
        module = companion_module(type(game), "analysis")
        for key in ("seat_role", "role_title", "game_facts"):
            fn = getattr(module, key, None)
            if callable(fn):
                hooks[key] = fn
        _HOOKS[name] = hooks
    return hooks


def seat_roles(state: Any) -> tuple[str, ...]:
    """Each seat's role key in this game (``"seat 0"``... when the game declares no roles)."""
    fn = game_hooks(state.game).get("seat_role")
    seats = range(state.game.num_players)
    if fn is None:
        return tuple(f"seat {s}" for s in seats)
    return tuple(str(fn(state, s)) for s in seats)


def role_title(game: Any, role: str) -> str:
    """What a student reads for a role key of :func:`seat_roles` (in the language in force)."""
    if role.startswith("seat ") and role[5:].isdigit():
        return str(game.player_name(int(role[5:])))
    fn = game_hooks(game).get("role_title")
    return str(fn(role)) if fn is not None else role


def final_scores(state: Any) -> tuple[float, ...]:
    """Each seat's score: ``state.scores()`` when the game keeps one, else its returns."""
    scores = getattr(state, "scores", None)
    values = scores() if callable(scores) else state.returns()
    return tuple(float(v) for v in values)


def ending(state: Any) -> str:
    """How the game ended, in the game's own words (``state.outcome`` or ``state.ended_by``), or ""."""
    for attr in ("outcome", "ended_by"):
        value = getattr(state, attr, None)
        if isinstance(value, str):
            return value
    return ""


def facts(state: Any) -> tuple[tuple[str, float], ...]:
    """The game's ``game_facts`` of this final state, as sorted ``(name, value)`` pairs."""
    fn = game_hooks(state.game).get("game_facts")
    if fn is None:
        return ()
    found: Mapping[str, float] = fn(state)
    return tuple(sorted((str(k), float(v)) for k, v in found.items()))
