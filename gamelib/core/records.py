"""Game records: JSON-safe dicts holding a game's header and its action history in notation.

Loading never trusts the file: every field is type-checked and every action is parsed and
re-validated by the rules, so a tampered record fails at the step that breaks a rule.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gamelib.core.errors import IllegalAction, OptionError, RecordError

if TYPE_CHECKING:
    from gamelib.core.game import State

RECORD_FIELDS = ("game", "version", "players", "options", "seed", "actions")


def library_version() -> str:
    from gamelib import __version__

    return __version__


def make_record(state: State) -> dict[str, Any]:
    game = state.game
    return {
        "game": game.name,
        "version": f"{library_version()}+{game.name}.{game.version}",
        "players": game.num_players,
        "options": game.option_dict(),
        "seed": state.seed,
        "actions": [str(a) for a in state.history],
    }


def _check_version(
    version: object, game_name: str, game_version: str, legacy: Mapping[str, Mapping[str, Any]] | None = None
) -> Mapping[str, Any]:
    """Check a record's version; returns the option defaults of the rules version it was made with."""
    if not isinstance(version, str):
        raise RecordError(f"must be a string, got {version!r}", field="version")
    lib, _, rules = version.partition("+")
    ours = library_version()
    if lib.split(".")[:1] != ours.split(".")[:1] or _as_tuple(lib) > _as_tuple(ours):
        raise RecordError(
            f"record made by gamelib {lib!r}, which this gamelib {ours} cannot read", field="version"
        )
    expected = f"{game_name}.{game_version}"
    if rules == expected:
        return {}
    for old, defaults in (legacy or {}).items():
        if rules == f"{game_name}.{old}":
            return defaults
    readable = [expected] + [f"{game_name}.{old}" for old in legacy or {}]
    raise RecordError(
        f"record uses rules version {rules!r}; this gamelib reads {', '.join(repr(r) for r in readable)}",
        field="version",
    )


def _as_tuple(version: str) -> tuple[int, ...]:
    try:
        return tuple(int(p) for p in version.split("."))
    except ValueError:
        raise RecordError(f"unreadable library version {version!r}", field="version") from None


def from_record(record: dict[str, Any] | str) -> State:
    """Replay a record (a dict, or its JSON text) and return the final state.

    Every action is parsed and checked against the rules; any problem raises
    :class:`~gamelib.core.errors.RecordError` (a ValueError) naming the field or step.
    """
    from gamelib.core.game import CHANCE, TERMINAL
    from gamelib.core.registry import game_class, make

    if isinstance(record, str):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not valid JSON: {exc}") from None
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object, got {type(record).__name__}")
    missing = [f for f in RECORD_FIELDS if f not in record]
    if missing:
        raise RecordError(f"missing field(s) {missing}", field=missing[0])
    extra = sorted(set(record) - set(RECORD_FIELDS) - {"result", "meta"})
    if extra:
        raise RecordError(f"unknown field(s) {extra}", field=extra[0])
    name = record["game"]
    try:
        cls = game_class(name)
    except OptionError as exc:
        raise RecordError(str(exc), field="game") from None
    old_defaults = _check_version(record["version"], name, cls.version, cls.legacy_defaults)
    players = record["players"]
    if isinstance(players, bool) or not isinstance(players, int):
        raise RecordError(f"must be an int, got {players!r}", field="players")
    options = record["options"]
    if not isinstance(options, dict):
        raise RecordError(f"must be an object, got {_short(options)}", field="options")
    options = {**old_defaults, **options}
    seed = record["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise RecordError(f"must be a non-negative int, got {seed!r}", field="seed")
    actions = record["actions"]
    if not isinstance(actions, list):
        raise RecordError(f"must be a list of notations, got {type(actions).__name__}", field="actions")
    info = cls.info
    if not info.min_players <= players <= info.max_players:
        raise RecordError(
            f"{name} is played by {info.min_players} to {info.max_players} players, got {players}",
            field="players",
        )
    try:
        game = make(name, players=players, options=options)
    except OptionError as exc:
        raise RecordError(str(exc), field="options") from None
    state = game.new_game(seed=seed)
    for step, text in enumerate(actions):
        if not isinstance(text, str):
            raise RecordError(f"action must be a string, got {_short(text)}", field="actions", step=step)
        if state.current_player == TERMINAL:
            raise RecordError(
                f"{_short(text)} comes after the end of the game ({len(actions) - step} action(s) too many)",
                field="actions",
                step=step,
            )
        try:
            state.apply(text)
        except IllegalAction as exc:
            who = "chance" if state.current_player == CHANCE else state.player_name(state.current_player)
            raise RecordError(f"{_short(text)} ({who} to act): {exc}", field="actions", step=step) from None
    if "result" in record:
        _check_result(record["result"], state)
    return state


def _check_result(result: object, state: State) -> None:
    """A record's optional ``result`` (the returns, one number per player) must be the replay's."""
    if not isinstance(result, list) or not all(
        isinstance(r, (int, float)) and not isinstance(r, bool) for r in result
    ):
        raise RecordError(
            f"must be a list of numbers (one return per player), got {_short(result)}", field="result"
        )
    if not state.is_terminal():
        raise RecordError("a record with a result must replay to the end of the game", field="result")
    returns = state.returns()
    if len(result) != len(returns) or any(abs(a - b) > 1e-9 for a, b in zip(result, returns, strict=False)):
        raise RecordError(f"says {result} but the actions give {returns}", field="result")


def _short(value: object, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def dumps(state: State) -> str:
    """The record of ``state`` as JSON text."""
    return json.dumps(make_record(state), ensure_ascii=False)
