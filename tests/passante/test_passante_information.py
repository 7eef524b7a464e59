"""A Une Passante on the core information protocol: what each seat is shown, and determinize.

Everything seat p is shown (observation, public history, information state) must be identical
for a state S and for ``S.determinize(p)``, and the determinized world must be a real game:
it replays to itself from its record.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import gamelib
from gamelib import CHANCE, IllegalAction
from gamelib.core.checks import determinize_problems
from gamelib.passante import analysis
from gamelib.passante.rules import (
    NUM_WISHES,
    Board,
    Call,
    CharacterCard,
    DieRoll,
    Discard,
    Drive,
    Glare,
    Hint,
    Knock,
    Mime,
    Move,
    Name,
    PassanteState,
    Play,
    Reach,
    ReachPlayer,
    RoundEvent,
    Send,
    Start,
    Target,
    WishCard,
)


def walk(state: PassanteState, rng: random.Random, steps: int) -> PassanteState:
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


def positions(players: int, options: dict[str, Any], count: int, seed: int = 0) -> list[PassanteState]:
    game = gamelib.make("passante", players=players, options=options)
    rng = random.Random(seed)
    out = []
    for s in range(count):
        state = walk(game.new_game(seed=s), rng, rng.randrange(10, 400))
        assert isinstance(state, PassanteState)
        out.append(state)
    return out


def shown(state: PassanteState, player: int) -> tuple[Any, ...]:
    return (
        state.observation(player),
        state.public_history(player),
        state.information_state(player),
        state.information_state_string(player),
        state.observation_tensor(player),
    )


def test_the_others_wishes_are_masked_in_the_history() -> None:
    state = positions(3, {}, 1, seed=3)[0]
    for p in range(3):
        seen = state.public_history(p)
        for i, (action, text) in enumerate(zip(state.history, seen, strict=True)):
            if isinstance(action, WishCard):
                mine = any(i == step and seat == p for step, seat in state.secrets)
                assert text == (str(action) if mine else "wish ?")
            elif isinstance(action, Discard):
                assert text in (str(action), "discard ?")
            else:
                assert text == str(action)
        assert "wish ?" in seen
    assert state.public_history(None) == tuple(str(a) for a in state.history)
    assert set(gamelib.make("passante").info.hidden_masks) == {"wish ?", "discard ?"}
    assert gamelib.make("passante").info.has("observation_tensor")


def test_open_hands_hide_nothing() -> None:
    state = positions(2, {"open_hands": True}, 1)[0]
    assert state.public_history(0) == state.public_history(None)
    assert state.determinize(1, random.Random(0)) == state


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", [{}, {"lay_wishes": "automatic"}], ids=["default", "automatic"])
def test_determinize_is_a_real_game_showing_the_same(players: int, options: dict[str, Any]) -> None:
    game = gamelib.make("passante", players=players)
    if "lay_wishes" not in game.option_dict():
        options = {}
    rng = random.Random(players)
    varied = 0
    for state in positions(players, options, 12, seed=players):
        for p in range(players):
            world = state.determinize(p, rng)
            assert isinstance(world, PassanteState)
            assert shown(world, p) == shown(state, p)
            assert gamelib.from_record(world.to_record()) == world
            assert world.current_player == state.current_player
            varied += world.history != state.history
            walk(world, rng, 30)  # the world plays on
    assert varied >= 6 * players  # resampled, not the real world handed back


def test_the_check_can_fail() -> None:
    """A world with another hand dealt but the true history is told apart by the others."""
    state = positions(3, {}, 1, seed=5)[0]
    fake = state.clone()
    assert isinstance(fake, PassanteState)
    hidden = [w for w in range(1, NUM_WISHES + 1) if fake.wish_deck >> w & 1]
    if fake.hands[1] and hidden:
        out = fake.hands[1][0]
        fake.hands[1] = tuple(sorted((*fake.hands[1][1:], hidden[0])))
        fake.wish_deck = fake.wish_deck & ~(1 << hidden[0]) | 1 << out
        assert shown(fake, 0) == shown(state, 0)  # seat 0 cannot tell...
        assert gamelib.from_record(fake.to_record()) != fake  # ...but it is not a real game


def test_determinize_varies_the_hidden_deals() -> None:
    state = positions(3, {}, 1, seed=8)[0]
    worlds = {tuple(state.determinize(0, random.Random(i)).hands[1]) for i in range(20)}
    assert len(worlds) > 3
    histories = {tuple(map(str, state.determinize(0, random.Random(i)).history)) for i in range(5)}
    assert len(histories) > 1


def test_wish_numbers_are_the_cards_numbers_everywhere() -> None:
    for state in positions(2, {}, 6, seed=1):
        numbers = [w for h in state.hands for w in h] + [w for f in state.fulfilled for w in f]
        numbers += [w for d in state.discards for w in d]
        assert all(1 <= w <= NUM_WISHES for w in numbers)
        obs = state.observation(0)
        assert obs.hands[0] == state.hands[0]
        for w in state.hands[0]:
            assert f"wish {w}" in state.public_history(0)


@pytest.mark.parametrize("seat", [3, -1, True, 1.0, "0"])
def test_seats_out_of_range_raise_value_error(seat: Any) -> None:
    state = positions(3, {}, 1)[0]
    for method in (
        state.observation,
        state.public_history,
        state.information_state,
        state.observation_tensor,
        lambda p: state.determinize(p, random.Random(0)),
        lambda p: state.may_move(p, 0),
    ):
        with pytest.raises(ValueError):
            method(seat)


HAND_BUILT: list[tuple[type, tuple[int, ...]]] = [
    (Move, (9, 0)),
    (Move, (0, 7)),
    (Move, (-1, 0)),
    (WishCard, (0,)),
    (WishCard, (39,)),
    (Discard, (0,)),
    (Discard, (100,)),
    (Target, (8,)),
    (Send, (3, 9)),
    (Board, (-1,)),
    (Drive, (5,)),
    (Play, (12,)),
    (Start, (7,)),
    (Start, (4,)),  # the place: the Passante starts at the école or the café
    (CharacterCard, (8,)),
    (DieRoll, (9,)),
    (RoundEvent, (-1,)),
    (Hint, (8, 0)),
    (Hint, (0, 9)),
    (Name, (0,)),
    (Call, (8, 0)),
    (Mime, (-1,)),
    (Reach, (8,)),
    (ReachPlayer, (4,)),
    (Knock, (5,)),
    (Glare, (7,)),
]


@pytest.mark.parametrize(("kind", "fields"), HAND_BUILT, ids=lambda x: getattr(x, "__name__", repr(x)))
def test_hand_built_actions_out_of_range_are_refused(kind: type, fields: tuple[int, ...]) -> None:
    # the declared notation checks an action's fields when it is built, before any state sees it
    with pytest.raises(IllegalAction) as err:
        kind(*fields)
    assert err.value.rule == "notation"


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize(
    "options",
    [{}, {"lay_wishes": "automatic"}, {"table_talk": True}, {"lay_wishes": "automatic", "table_talk": True}],
    ids=["default", "automatic", "hints", "automatic+hints"],
)
def test_determinize_always_gives_a_consistent_world(players: int, options: dict[str, Any]) -> None:
    """Every position, every seat: the core check finds nothing, the world is never the truth handed back."""
    rng = random.Random(players)
    same = total = 0
    for state in positions(players, options, 8, seed=10 * players):
        for p in range(players):
            assert determinize_problems(state, p, random.Random(p)) == []
            world = state.determinize(p, rng)
            total += 1
            same += world.history == state.history
    if players > 1:
        assert same <= total // 8  # only where the seat can deduce every hidden card


def test_determinize_without_a_fallback_to_the_truth(monkeypatch: pytest.MonkeyPatch) -> None:
    """With every proposal refused, the chain still returns a consistent world other than the real one."""
    monkeypatch.setattr(analysis, "DETERMINIZE_TRIES", 0)
    moved = 0
    for state in positions(3, {"table_talk": True}, 6, seed=4):
        for p in range(3):
            assert determinize_problems(state, p, random.Random(p)) == []
            moved += state.determinize(p, random.Random(p)).history != state.history
    assert moved >= 12


def test_determinize_samples_uniformly_over_consistent_deals() -> None:
    """Early in a game (no lay, no discard) the other hand is a uniform draw of the cards seat 0 did not see."""
    game = gamelib.make("passante", players=2)
    state = game.new_game(seed=1)
    while state.current_player == CHANCE:
        state.apply(state.sample_chance())
    assert isinstance(state, PassanteState)
    counts = dict.fromkeys((w for w in range(1, NUM_WISHES + 1) if w not in state.hands[0]), 0)
    rng = random.Random(0)
    draws = 2000
    for _ in range(draws):
        world = state.determinize(0, rng)
        assert isinstance(world, PassanteState)
        for w in world.hands[1]:
            counts[w] += 1
    expected = draws * 4 / len(counts)
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 70  # 33 degrees of freedom: p < 0.001


@pytest.mark.parametrize("options", [{}, {"lay_wishes": "choice"}, {"lay_wishes": "automatic"}])
def test_worlds_are_written_exactly_and_have_their_own_chance(options: dict[str, Any]) -> None:
    # the world is a copy with the hidden cards rewritten, not a replay: it must still be the
    # game its history replays to, show the seat the same, and never carry the real seed
    for state in positions(3, options, 6, seed=7):
        for p in range(3):
            rng = random.Random(p)
            first = state.determinize(p, rng)
            assert first.seed != state.seed and determinize_problems(state, p, rng) == []
            replayed = gamelib.from_record(first.to_record())
            assert replayed == first and replayed.key() == first.key()
            assert isinstance(first, PassanteState)
            dealt = {w for h in first.hands for w in h} | {w for d in first.discards for w in d}
            assert not dealt & set(bits_of(first.wish_deck)) and first.hands[p] == state.hands[p]


def test_what_a_seat_knows_is_read_again_when_the_state_moves() -> None:
    rng = random.Random(0)
    state = walk(gamelib.make("passante", players=3).new_game(seed=9), rng, 60)
    assert isinstance(state, PassanteState) and not state.is_terminal()
    before = state.determinize(0, rng)
    walk(state, rng, 5)
    after = state.determinize(0, rng)
    assert len(after.history) == len(state.history) != len(before.history)
    assert determinize_problems(state, 0, rng) == []


def bits_of(mask: int) -> list[int]:
    return [w for w in range(1, NUM_WISHES + 1) if mask >> w & 1]


def _hinted_position() -> tuple[PassanteState, Hint]:
    """Two players; seat 1 holds four wishes and hints ``hint X Z`` (the fold) at its first turn."""
    game = gamelib.make(
        "passante", players=2, options={"privileges": "hint", "lay_wishes": "choice", "round_event": False}
    )
    state = game.new_game(seed=4)
    assert isinstance(state, PassanteState)
    for move in ("start ecole", "draw", "end", "draw", ""):
        while state.current_player == CHANCE:  # the deals, then the character card drawn
            state.apply(state.sample_chance())
        if move:
            state.apply(move)
    hint = next(a for a in state.legal_actions() if isinstance(a, Hint))
    state.apply(hint)
    state.apply("end")
    return state, hint


def test_determinize_samples_uniformly_among_worlds_consistent_with_a_hint() -> None:
    """A hint constrains seat 1's hand (one of its wishes asks for that character on that zone):
    the worlds seat 0 samples are uniform over the hands that satisfy it (rejection sampling,
    exact), checked against the exact marginals counted by combinatorics."""
    from math import comb

    from gamelib.passante.rules import WISH_ZONE, WISHES

    state, hint = _hinted_position()
    assert state.current_player == 0 and not state.pending and len(state.hands[1]) == 4
    unseen = [w for w in range(1, NUM_WISHES + 1) if w not in state.hands[0]]
    fits = {w for w in unseen if WISH_ZONE[w] == hint.zone and hint.char in WISHES[w].characters}
    m, n = len(fits), len(unseen)
    assert 0 < m < n - 3  # the hint rules hands out
    valid = comb(n, 4) - comb(n - m, 4)
    expected = {
        w: (comb(n - 1, 3) if w in fits else comb(n - 1, 3) - comb(n - 1 - m, 3)) / valid for w in unseen
    }
    rng, draws = random.Random(3), 3000
    counts = dict.fromkeys(unseen, 0)
    for _ in range(draws):
        world = state.determinize(0, rng)
        assert isinstance(world, PassanteState) and set(world.hands[1]) & fits
        for w in world.hands[1]:
            counts[w] += 1
    chi2 = sum((counts[w] - draws * expected[w]) ** 2 / (draws * expected[w]) for w in unseen)
    assert chi2 < 70  # 33 degrees of freedom: p < 0.001
    world = state.determinize(0, rng)
    assert gamelib.from_record(world.to_record()) == world  # and it replays to itself
