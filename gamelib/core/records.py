"""Game records: JSON-safe dicts holding a game's header and its action history in notation.

Loading never trusts the file: every field is type-checked and every action is parsed and
re-validated by the rules, so a tampered record fails at the step that breaks a rule.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from gamelib.core.errors import IllegalAction, OptionError, RecordError, shown
from gamelib.core.game import CHANCE, TERMINAL, State
from gamelib.core.registry import game_class, make
from gamelib.core.version import __version__

RECORD_FIELDS = ("game", "version", "players", "options", "seed", "actions")
"""The fields every record has.  ``result`` (the returns and whether the game is over, checked on
replay) and ``meta`` are optional, so records written before ``result`` existed still replay."""

MAX_DEPTH = 20
"""How deeply a record's JSON may nest (a real record nests 3 deep): deeper is refused by name,
never with a RecursionError."""

_VERSION = re.compile(r"(0|[1-9][0-9]{0,8})(\.(0|[1-9][0-9]{0,8})){2}")
"""A library version as this gamelib writes them: three dot-separated ASCII numbers."""


def library_version() -> str:
    """The version of this gamelib, as records write it."""
    return __version__


def _check_version(
    version: object, game_name: str, game_version: str, legacy: Mapping[str, Mapping[str, Any]] | None = None
) -> Mapping[str, Any]:
    """Check a record's version; returns the option defaults of the rules version it was made with."""
    if not isinstance(version, str):
        raise RecordError(f"must be a string, got {shown(version)}", field="version")
    lib, plus, rules = version.partition("+")
    if not (plus and _VERSION.fullmatch(lib)):  # the rules part is compared whole below
        raise RecordError(
            f"must read 'LIBRARY+GAME.RULES' like {library_version()}+{game_name}.{game_version!s}, "
            f"got {shown(version)}",
            field="version",
        )
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
        f"record uses rules version {shown(rules)}; this gamelib reads {', '.join(repr(r) for r in readable)}",
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
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not valid JSON: {exc}") from None
        except RecursionError:
            raise RecordError(f"nested more than {MAX_DEPTH} levels deep") from None
    if isinstance(record, dict):
        for key, value in record.items():
            if _too_deep(value, MAX_DEPTH):
                known = key in RECORD_FIELDS or key in ("result", "meta")
                raise RecordError(
                    f"nested more than {MAX_DEPTH} levels deep", field=key if known else shown(key)
                )
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object, got {type(record).__name__}")
    missing = [f for f in RECORD_FIELDS if f not in record]
    if missing:
        raise RecordError(f"missing field(s) {missing}", field=missing[0])
    extra = sorted(set(record) - set(RECORD_FIELDS) - {"result", "meta"})
    if extra:
        raise RecordError(f"unknown field(s) {[shown(e) for e in extra[:5]]}", field=shown(extra[0]))
    name = record["game"]
    try:
        cls = game_class(name)
    except OptionError as exc:
        raise RecordError(str(exc), field="game") from None
    old_defaults = _check_version(record["version"], name, cls.version, cls.legacy_defaults)
    players = record["players"]
    if isinstance(players, bool) or not isinstance(players, int):
        raise RecordError(f"must be an int, got {shown(players)}", field="players")
    options = record["options"]
    if not isinstance(options, dict):
        raise RecordError(f"must be an object, got {shown(options)}", field="options")
    options = {**old_defaults, **options}
    seed = record["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise RecordError(f"must be a non-negative int, got {shown(seed)}", field="seed")
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
            raise RecordError(f"action must be a string, got {shown(text)}", field="actions", step=step)
        if state.current_player == TERMINAL:
            raise RecordError(
                f"{shown(text)} comes after the end of the game ({len(actions) - step} action(s) too many)",
                field="actions",
                step=step,
            )
        try:
            state.apply(text)
        except IllegalAction as exc:
            who = "chance" if state.current_player == CHANCE else state.player_name(state.current_player)
            raise RecordError(f"{shown(text)} ({who} to act): {exc}", field="actions", step=step) from None
    if "result" in record:
        _check_result(record["result"], state)
    return state


def _too_deep(value: object, depth: int) -> bool:
    """Whether ``value`` nests lists/dicts more than ``depth`` levels (iteratively: no recursion)."""
    stack = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (list, dict)):
            if level >= depth:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, level + 1) for child in children)
    return False


def _check_result(result: object, state: State) -> None:
    """A record's ``result`` must be what its replay gives: ``{"terminal": bool, "returns": [..]}``
    (written by ``to_record``), or, in older records, the final returns as a list (terminal).

    So a truncated record, or one whose options were edited in a way no move breaks but the
    outcome shows, is refused instead of replaying to another result.
    """
    if isinstance(result, list):
        result = {"terminal": True, "returns": result}
    if not isinstance(result, dict) or set(result) != {"terminal", "returns"}:
        raise RecordError(
            f'must be {{"terminal": true|false, "returns": [one number per player]}}, got {shown(result)}',
            field="result",
        )
    terminal, returns = result["terminal"], result["returns"]
    if not isinstance(terminal, bool):
        raise RecordError(f"'terminal' must be true or false, got {shown(terminal)}", field="result")
    if not isinstance(returns, list) or not all(
        isinstance(r, (int, float)) and not isinstance(r, bool) for r in returns
    ):
        raise RecordError(
            f"'returns' must be a list of numbers (one per player), got {shown(returns)}", field="result"
        )
    if terminal and not state.is_terminal():
        raise RecordError(
            "says the game is over but its actions stop before the end (a truncated record, "
            "or options that differ from those it was played with)",
            field="result",
        )
    if not terminal and state.is_terminal():
        raise RecordError("says the game is not over but its actions end it", field="result")
    actual = state.returns()
    if len(returns) != len(actual) or any(abs(a - b) > 1e-9 for a, b in zip(returns, actual, strict=False)):
        raise RecordError(f"says returns {shown(returns)} but the actions give {actual}", field="result")


def dumps(state: State) -> str:
    """The record of ``state`` as JSON text."""
    return json.dumps(state.to_record(), ensure_ascii=False)
