"""Every game's state fields are declared once (``State.fields``) and the declaration is true.

Core derives ``clone``, ``key`` and ``invalidate`` from the declaration, so a field left out of
it would be shared between a state and its clone, or left out of the position's identity.  These
tests run over every registered game, at many positions of random games:

* every attribute of a state is declared (key, config, derived or caches), and every declared
  field exists;
* each declared list is really copied by ``clone`` (mutating the clone's leaves the original);
* derived fields are derived: ``_derive()`` on a clone recomputes exactly the values kept;
* ``invalidate()`` after no edit changes nothing a player can see.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import gamelib
from gamelib.core.fields import StateFields, missing, undeclared
from gamelib.core.game import State

VARIANTS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "fugitive": [(2, {"manhunt": "immediate", "escape_card": 12})],
    "passante": [(3, {"privileges": "hint"})],
    "delanopolis": [(5, {"chain_auctions": True, "refuges": 0})],
    "getonboard": [(4, {"city": "paris"})],
}
"""Configurations whose states hold other attributes (a manhunt, hints, chained auctions, Paris)."""
CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    (name, players, options)
    for name in gamelib.registered_games()
    for players, options in [(gamelib.core.game_class(name).info.min_players, {}), *VARIANTS.get(name, [])]
]
"""Every registered game (a new one is checked at once) at its fewest players, and the variants."""
SEEDS = range(4)


def positions(name: str, players: int, options: dict[str, Any]) -> Iterator[State]:
    """States along random games (every few steps, and the last)."""
    game = gamelib.make(name, players=players, options=options)
    for seed in SEEDS:
        rng = random.Random(seed)
        state = game.new_game(seed=seed)
        step = 0
        while not state.is_terminal() and step < 400:
            if step % 7 == 0:
                yield state.clone()
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
            step += 1
        yield state


def declaration(name: str) -> StateFields:
    fields = type(gamelib.make(name).new_game(seed=0)).fields
    assert fields is not None, f"{name} declares no state fields (State.fields)"
    return fields


def ids(config: tuple[str, int, dict[str, Any]]) -> str:
    name, players, options = config
    return f"{name}-{players}p" + ("-" + "-".join(f"{k}={v}" for k, v in options.items()) if options else "")


@pytest.mark.parametrize("config", CONFIGS, ids=ids)
def test_every_attribute_is_declared(config: tuple[str, int, dict[str, Any]]) -> None:
    declaration(config[0])
    for state in positions(*config):
        assert undeclared(state) == [], f"attributes not in {type(state).__name__}.fields"
        assert missing(state) == [], f"declared in {type(state).__name__}.fields but absent"


@pytest.mark.parametrize("config", CONFIGS, ids=ids)
def test_clone_copies_every_declared_list(config: tuple[str, int, dict[str, Any]]) -> None:
    fields = declaration(config[0])
    for state in positions(*config):
        key, snapshot = state.key(), {n: repr(getattr(state, n)) for n in fields.lists}
        copy = state.clone()
        for name in fields.lists:
            value = getattr(copy, name)
            assert value is not getattr(state, name), f"{name} is shared by a state and its clone"
            if isinstance(value, list):
                value.append("sentinel")
            elif isinstance(value, dict):
                value["sentinel"] = 1
            elif isinstance(value, set):
                value.add("sentinel")
        assert state.key() == key
        assert {n: repr(getattr(state, n)) for n in fields.lists} == snapshot


@pytest.mark.parametrize("config", CONFIGS, ids=ids)
def test_derived_fields_are_recomputed_from_the_key(config: tuple[str, int, dict[str, Any]]) -> None:
    fields = declaration(config[0])
    for state in positions(*config):
        copy = state.clone()
        copy._derive()
        for name in fields.derived:
            assert getattr(copy, name) == getattr(state, name), (
                f"derived field {name} differs once recomputed"
            )


@pytest.mark.parametrize("config", CONFIGS, ids=ids)
def test_invalidate_without_an_edit_changes_nothing(config: tuple[str, int, dict[str, Any]]) -> None:
    declaration(config[0])
    for state in positions(*config):
        copy = state.clone()
        copy.invalidate()
        assert copy.key() == state.key()
        assert copy.current_player == state.current_player
        assert [str(a) for a in copy.legal_actions()] == [str(a) for a in state.legal_actions()]
        if state.is_chance_node():
            assert copy.chance_outcomes() == state.chance_outcomes()


@pytest.mark.parametrize(
    ("declaration", "message"),
    [
        ({"key": "a b a"}, "more than once"),
        ({"key": "a", "config": "a"}, "both key and config"),
        ({"key": "a", "private": "b"}, "not declared as key"),
        ({"key": "a", "lists": "b"}, "not declared as key, config"),
        ({"key": "a class"}, "not an attribute name"),
        ({"key": "a history"}, "core's own attribute"),
    ],
)
def test_a_wrong_declaration_is_refused_naming_the_field(declaration: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        StateFields(**declaration)  # type: ignore[arg-type]


def test_the_derived_key_and_clone_follow_the_declaration() -> None:
    class Toy:
        fields = StateFields(key="a b", lists="b", logs="log", caches="memo")

    toy = Toy()
    toy.a, toy.b, toy.log, toy.memo = 1, [2, 3], ("x",), None  # type: ignore[attr-defined]
    assert Toy.fields.key_of(toy) == (1, (2, 3))
    copy = Toy.fields.clone(toy)
    assert copy.b == [2, 3] and copy.b is not toy.b and copy.log is toy.log  # type: ignore[attr-defined]
    assert undeclared(toy) == [] and missing(toy) == []
    toy.extra = 1  # type: ignore[attr-defined]
    assert undeclared(toy) == ["extra"]


def test_the_default_observation_leaves_out_the_private_fields() -> None:
    class Secret(State):
        fields = StateFields(key="pile secret", private="secret")
        current_player = 0

        def _legal_actions(self) -> list[Any]:
            return []

        def _apply(self, action: Any) -> None:
            pass

        def returns(self) -> list[float]:
            return [0.0]

    state = object.__new__(Secret)
    state.pile, state.secret = 7, 3  # type: ignore[attr-defined]
    assert state._observation(None) == (7, 3)  # the teacher's omniscient view
    assert state._observation(0) == (7,)  # a seat: the public fields only
