"""Checks a game author runs on their own game: is an illegal move refused cleanly, is hidden
information airtight?

:func:`refusal` plays a move that must be refused and returns the error, after checking that the
state is exactly as it was (position and history): the contract of ``State.apply``.

A determinization ``D = S.determinize(p, rng)`` is a world seat ``p`` cannot tell apart from ``S``.
So everything ``p`` is shown must be identical for both, and ``D`` must be a real game (it replays
to itself from its record); otherwise an agent handed ``D`` finds the truth in it, or a projector
showing ``p``'s view leaks another seat's secret.  :func:`information_differences` lists what
differs; the generic test suite runs it over every registered game and seat.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from gamelib.core.errors import IllegalAction

if TYPE_CHECKING:
    from gamelib.core.game import Action, State


def refusal(state: State, action: Action | str) -> IllegalAction:
    """The :class:`IllegalAction` that ``action`` raises at ``state``, after checking that the
    refusal left the state exactly as it was (its key and its history).

    ``AssertionError`` if the action is legal (and then it has been played) or if the state moved.
    """
    before, history = state.key(), [str(a) for a in state.history]
    try:
        state.apply(action)
    except IllegalAction as error:
        after = (state.key(), [str(a) for a in state.history])
        if after != (before, history):
            raise AssertionError(f"refusing {action} changed the state") from error
        return error
    raise AssertionError(f"{action} was played: it is legal here")


def seat_views(state: State, player: int) -> dict[str, object]:
    """Everything the core shows ``player`` of ``state``, by name."""
    views: dict[str, object] = {
        "observation": state.observation(player),
        "public_history": state.public_history(player),
        "information_state_string": state.information_state_string(player),
        "current_player": state.current_player,
        "history length": len(state.history),
    }
    if state.current_player == player:
        views["legal_actions"] = [str(a) for a in state.legal_actions()]
    if state.game.info.has("observation_tensor"):
        views["observation_tensor"] = state.observation_tensor(player)
        views["information_state_tensor"] = state.information_state_tensor(player)
    return views


def information_differences(state: State, world: State, player: int) -> list[str]:
    """What ``player`` is shown differently in ``state`` and ``world`` (empty: indistinguishable)."""
    mine, theirs = seat_views(state, player), seat_views(world, player)
    return [
        f"{name} differs for player {player}: {_short(mine[name])} vs {_short(theirs.get(name))}"
        for name in mine
        if mine[name] != theirs.get(name)
    ]


def determinize_problems(state: State, player: int, rng: random.Random) -> list[str]:
    """Everything wrong with ``state.determinize(player, rng)``: views that differ, and replay."""
    from gamelib.core.records import from_record

    world = state.determinize(player, rng)
    problems = information_differences(state, world, player)
    if world is state:
        problems.append("determinize returned the state itself, not a copy")
    try:
        replayed = from_record(world.to_record())
    except ValueError as exc:
        problems.append(f"the determinized world does not replay: {exc}")
    else:
        if replayed != world:
            problems.append("the determinized world replays to a different state (history not rewritten?)")
    return problems


def _short(value: object, limit: int = 200) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
