"""Hidden information is airtight, for every registered game and every seat (issue 12).

For random positions S and each seat p, the world D = S.determinize(p) is one p cannot tell apart
from S: everything p is shown (observation, history as p saw it, information state, tensors, its
legal actions) is identical, and D is a real game that replays to itself from its record.
The checker itself is shown to fail on a game that leaks.
"""

from __future__ import annotations

import random
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamelib
from gamelib.core.checks import determinize_problems, information_differences

sys.path.insert(0, str(Path(__file__).parent / "agents"))

from toygames import TOY_GAMES

from gamelib.core import registry

CONFIGS = [
    (name, players)
    for name in gamelib.registered_games()
    for players in range(
        gamelib.core.game_class(name).info.min_players, gamelib.core.game_class(name).info.max_players + 1
    )
]
IDS = [f"{n}-{p}p" for n, p in CONFIGS]


def positions(name: str, players: int, count: int, seed: int = 0) -> list[gamelib.State]:
    """``count`` positions, each cut at a random point of its own random game."""
    from gamelib.agents import RandomAgent

    game = gamelib.make(name, players=players)
    rng = random.Random(seed)
    out = []
    for game_seed in range(count):
        final = gamelib.play(game, [RandomAgent()] * players, seed=1000 * seed + game_seed)
        cut = rng.randrange(len(final.history) + 1)
        state = game.new_game(seed=final.seed)
        for action in final.history[:cut]:
            state.apply(action)
        out.append(state)
    return out


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_every_seat_sees_the_same_in_its_determinization(name: str, players: int) -> None:
    rng = random.Random(12)
    for state in positions(name, players, count=12):
        for player in range(players):
            problems = determinize_problems(state, player, rng)
            assert not problems, f"{name}, seat {player}, after {len(state.history)} actions: {problems}"


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_the_omniscient_history_is_the_notation(name: str) -> None:
    (state,) = positions(name, gamelib.make(name).num_players, count=1, seed=3)
    assert state.public_history(None) == tuple(str(a) for a in state.history)


@pytest.mark.parametrize("name", gamelib.registered_games())
@pytest.mark.parametrize("seat", [-1, -4, 7, True, "0", 1.0])
def test_seats_out_of_range_are_refused(name: str, seat: object) -> None:
    state = gamelib.make(name).new_game(seed=0)
    for method in (state.observation, state.public_history, state.information_state):
        with pytest.raises(ValueError, match="seat"):
            method(seat)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seat"):
        state.determinize(seat, random.Random(0))  # type: ignore[arg-type]


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_information_states_have_perfect_recall(name: str) -> None:
    """Two different histories of one seat give two different information states."""
    game = gamelib.make(name)
    seen: dict[str, tuple[str, ...]] = {}
    for state in positions(name, game.num_players, count=30, seed=5):
        for player in range(game.num_players):
            text = state.information_state_string(player)
            history = state.public_history(player)
            assert seen.setdefault(text, history) == history
            assert tuple(state.information_state(player).history) == history


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_capabilities_are_declared_not_probed(name: str) -> None:
    game = gamelib.make(name)
    state = game.new_game(seed=0)
    if game.info.has("observation_tensor"):
        size = len(state.observation_tensor(0))
        assert len(state.information_state_tensor(0)) == game.information_state_tensor_size()
        assert game.information_state_tensor_size() > size
    else:
        with pytest.raises(NotImplementedError):
            state.observation_tensor(0)
    with pytest.raises(ValueError, match="unknown capability"):
        game.info.has("telepathy")


# ---------------------------------------------------------------- the checker can fail
@pytest.fixture
def toy_games(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, target in TOY_GAMES.items():
        monkeypatch.setitem(registry._GAMES, name, target)


def test_the_check_passes_on_a_sound_toy_game(toy_games: None) -> None:
    state = gamelib.make("toy-hidden").new_game(seed=1)
    state.apply(state.sample_chance())
    assert state.public_history(0) == ("card ?",)
    for seed in range(20):
        assert determinize_problems(state, 0, random.Random(seed)) == []


def test_the_check_finds_a_leak(toy_games: None) -> None:
    state = gamelib.make("toy-hidden-leaky").new_game(seed=1)
    state.apply("card 1")
    assert state.public_history(0) == ("card 1",)  # the leak: the seat's history names the card
    problems = [determinize_problems(state, 0, random.Random(seed)) for seed in range(20)]
    found = [p for p in problems if p]
    assert found, "a world with another card and the true history must be reported"
    assert any("replays to a different state" in line for p in found for line in p)


def test_views_that_differ_are_named(toy_games: None) -> None:
    state = gamelib.make("toy-hidden").new_game(seed=1)
    state.apply("card 1")
    other = state.clone()
    other.guess = 2  # something the seat sees
    assert any(line.startswith("observation differs") for line in information_differences(state, other, 0))


# ---------------------------------------------------------------- strict notation
_DIGIT_VARIANTS = {
    "fullwidth": lambda d: chr(0xFF10 + int(d)),
    "arabic-indic": lambda d: chr(0x0660 + int(d)),
    "devanagari": lambda d: chr(0x0966 + int(d)),
}


def _notations_with_numbers(name: str) -> list[str]:
    state = positions(name, gamelib.make(name).num_players, count=1, seed=8)[0]
    found: list[str] = []
    game = state.game
    for action in list(game.action_universe()):
        text = str(action)
        if any(c.isdigit() for c in text):
            found.append(text)
        if len(found) >= 40:
            break
    return found


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_numbers_in_notation_are_plain_ascii_digits(name: str) -> None:
    game = gamelib.make(name)
    for text in _notations_with_numbers(name):
        assert game.parse_action(text) is not None
        number_at = next(i for i, c in enumerate(text) if c.isdigit())
        variants = [text[:number_at] + "+" + text[number_at:], text[:number_at] + "0" + text[number_at:]]
        if text[number_at + 1 : number_at + 2].isdigit():
            variants.append(text[: number_at + 1] + "_" + text[number_at + 1 :])
        for make in _DIGIT_VARIANTS.values():
            variants.append("".join(make(c) if c.isdigit() else c for c in text))
        for variant in variants:
            with pytest.raises(gamelib.IllegalAction):
                game.parse_action(variant)


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_huge_numbers_are_refused_briefly(name: str) -> None:
    game = gamelib.make(name)
    for text in _notations_with_numbers(name)[:5]:
        verb = text.split()[0]
        with pytest.raises(gamelib.IllegalAction) as info:
            game.parse_action(f"{verb} {'9' * 5000}")
        assert len(str(info.value)) < 300


@pytest.mark.parametrize("name", gamelib.registered_games())
@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=24))
def test_any_text_parses_strictly_or_is_refused(name: str, text: str) -> None:
    game = gamelib.make(name)
    try:
        action = game.parse_action(text)
    except gamelib.IllegalAction:
        return
    assert all(not c.isdigit() or c.isascii() for c in text), f"{text!r} parsed to {action}"
    assert game.parse_action(str(action)) == action
    assert unicodedata.normalize("NFC", text).split()[0].lower() == str(action).split()[0].lower()


@pytest.mark.parametrize("options", [[1, 2], 5, "abc", ("edition", 2), {1: 2}])
def test_options_that_are_not_a_mapping_of_names_are_refused(options: object) -> None:
    with pytest.raises(gamelib.OptionError, match="option"):
        gamelib.make("fugitive", options=options)  # type: ignore[arg-type]


@dataclass(frozen=True)
class _LiteralOptions:
    mode: Literal["a", "b"] = "a"


def test_literal_options_are_checked_by_core() -> None:
    from gamelib.core.options import build_options

    assert build_options(_LiteralOptions, {"mode": "b"}, "toy").mode == "b"
    with pytest.raises(gamelib.OptionError, match=r"one of \['a', 'b'\]"):
        build_options(_LiteralOptions, {"mode": "c"}, "toy")
