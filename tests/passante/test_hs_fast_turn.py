"""The compiled turn moves (``gamelib/passante/_fast.c``) list what ``_main_actions`` lists, object
for object, and the switch picks one or the other (``GAMELIB_PURE_PYTHON=1``, ``use_compiled``)."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator

import pytest

import gamelib
from gamelib.core.game import CHANCE, Action
from gamelib.passante import rules
from gamelib.passante.options import MAIN, WINDOW
from gamelib.passante.rules import PassanteState

fast = pytest.importorskip("gamelib.passante._fast", reason="the C extension is not built here")

OPTIONS: list[dict[str, object]] = [
    {},
    {"lay_wishes": "choice"},
    {"lay_wishes": "automatic", "draw_first": True, "omnibus_must_leave": True, "policier_veto": False},
    {"privileges": "hint", "must_move_twice": True, "omnibus_carries_controlled": True},
    {"privileges": "none", "heart_leaves_with_card": True, "mendiante_clears_all_hearts": True},
    {"window_asks": "holders", "final_round_event": True, "play_while_boarding": False},
    {"open_hands": True, "must_move_twice": True, "draw_first": True},
]


def same(state: PassanteState) -> None:
    """The compiled list is the pure one: the same interned actions in the same order."""
    compiled = fast.main_actions(state)
    pure = PassanteState._main_actions(state)
    assert type(compiled) is list
    assert len(compiled) == len(pure)
    assert all(a is b for a, b in zip(compiled, pure, strict=True)), (compiled, pure)


def turn_positions(options: dict[str, object], players: int, seeds: int) -> Iterator[PassanteState]:
    game = gamelib.make("passante", players=players, options=options)
    for seed in range(seeds):
        state, rng = game.new_game(seed=seed), random.Random(seed)
        assert isinstance(state, PassanteState)
        while not state.is_terminal():
            if state.current_player >= 0 and state.phase == MAIN:
                yield state
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("options", OPTIONS, ids=[",".join(o) or "defaults" for o in OPTIONS])
def test_compiled_turn_moves_are_the_pure_ones_in_random_games(options: dict[str, object]) -> None:
    seen = 0
    for players in (1, 2, 3, 4):
        for state in turn_positions(options, players, 3):
            same(state)
            seen += 1
    assert seen > 200


@pytest.mark.parametrize("options", OPTIONS[:5], ids=[",".join(o) or "defaults" for o in OPTIONS[:5]])
def test_compiled_turn_moves_on_edited_positions(options: dict[str, object]) -> None:
    """Fields the random games rarely combine: hearts on any character (several on one), stopped
    pieces and card, riders aboard, no card left to draw, a hint given, moves spent."""
    rng = random.Random(7)
    for players in (1, 2, 3, 4):
        for k, state in enumerate(turn_positions(options, players, 1)):
            if k % 3:
                continue
            world = state.clone()
            assert isinstance(world, PassanteState)
            world.pos = [rng.randrange(5) for _ in range(8)]
            world.bus = rng.randrange(5)
            world.hearts = [rng.randrange(-1, 8) for _ in range(players)]
            world.char_hand = [rng.choice((-1, h)) for h in world.hearts]
            world.moved = rng.getrandbits(9) & rng.getrandbits(9)
            world.vetoed = rng.getrandbits(10) & rng.getrandbits(10)
            world.moves = rng.randrange(3)
            world.boarding = tuple(sorted(rng.sample(range(8), rng.randrange(3))))
            world.fresh, world.drew, world.hinted = (rng.random() < 0.5 for _ in range(3))
            if rng.random() < 0.3:
                world.char_deck, world.char_under = 0, ()
            world.shown = rng.getrandbits(39) & rng.getrandbits(39) & ~1
            same(world)


def test_a_broken_field_raises_instead_of_reading_past_a_table() -> None:
    state = next(turn_positions({}, 3, 1))
    bad = state.clone()
    assert isinstance(bad, PassanteState)
    bad.pos = [0, 1, 2, 9, 0, 1, 2, 3]
    with pytest.raises(ValueError):
        fast.main_actions(bad)
    del bad.__dict__["moves"]
    with pytest.raises(AttributeError):
        fast.main_actions(bad)


def test_use_compiled_switches_the_turns_legal_moves() -> None:
    was = rules.COMPILED  # False under GAMELIB_PURE_PYTHON=1: put back as found
    try:
        assert rules.use_compiled(False) is False
        assert rules._LEGAL[MAIN] is PassanteState._main_actions
        assert rules._LEGAL[WINDOW] is PassanteState._window_actions
        assert rules._open_window is PassanteState._open_window
        pure = [tuple(map(str, s.legal_actions())) for s in turn_positions({}, 3, 2)]
        assert rules.use_compiled(True) is True
        assert rules._LEGAL[MAIN] is fast.main_actions
        assert rules._LEGAL[WINDOW] is fast.window_actions
        assert rules._open_window is fast.open_window
        compiled = [tuple(map(str, s.legal_actions())) for s in turn_positions({}, 3, 2)]
        assert compiled == pure
    finally:
        rules.use_compiled(was)


@pytest.mark.parametrize("value, compiled", [("1", False), ("0", True), ("", True)])
def test_pure_python_environment_selects_the_pure_turn_moves(value: str, compiled: bool) -> None:
    code = (
        "from gamelib.passante import rules; from gamelib.passante.options import MAIN; "
        "print(rules.COMPILED, rules._LEGAL[MAIN] is rules.PassanteState._main_actions)"
    )
    env = {"GAMELIB_PURE_PYTHON": value, "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert out.stdout.split() == [str(compiled), str(not compiled)]


def test_a_subclass_applies_its_own_transitions() -> None:
    """``_apply`` reads the transition and the role bits from one table per class (``_steps``)."""
    calls = []

    class Counting(PassanteState):
        pass

    base = PassanteState._transitions
    assert Counting._steps is not PassanteState._steps
    assert {k: s for k, (s, _) in Counting._steps.items()} == Counting._transitions
    assert {k: r for k, (_, r) in Counting._steps.items()} == {k: rules._ROLES[k] for k in base}
    calls.append(len(Counting._steps))
    assert calls == [len(base)]


def windows_agree(state: PassanteState) -> None:
    """The compiled moment between moves writes what ``_open_window`` writes (every field)."""
    pure, compiled = state.clone(), state.clone()
    assert isinstance(pure, PassanteState) and isinstance(compiled, PassanteState)
    PassanteState._open_window(pure)
    fast.open_window(compiled)
    assert vars(compiled) == vars(pure)
    assert [type(v) for v in vars(compiled).values()] == [type(v) for v in vars(pure).values()]


WINDOWS: list[dict[str, object]] = [
    {},
    {"window_asks": "holders"},
    {"window_asks": "holders", "open_hands": True},
]


@pytest.mark.parametrize("options", WINDOWS, ids=[",".join(o) or "defaults" for o in WINDOWS])
def test_compiled_window_writes_what_the_pure_one_writes(options: dict[str, object]) -> None:
    rng = random.Random(3)
    opened = 0
    for players in (1, 2, 3, 4):
        game = gamelib.make("passante", players=players, options=options)
        for seed in range(3):
            state, play = game.new_game(seed=seed), random.Random(seed)
            assert isinstance(state, PassanteState)
            while not state.is_terminal():
                windows_agree(state)
                edited = state.clone()
                assert isinstance(edited, PassanteState)
                edited.pos = [rng.randrange(5) for _ in range(8)]
                edited.shown = rng.getrandbits(39) & ~1
                edited.laid = rng.getrandbits(39) & rng.getrandbits(39) & ~1
                edited.dealt_to = rng.getrandbits(players)
                windows_agree(edited)
                probe = edited.clone()
                assert isinstance(probe, PassanteState)
                fast.open_window(probe)
                opened += probe.phase != edited.phase
                if state.current_player == CHANCE:
                    state.apply(state.sample_chance(play))
                else:
                    state.apply(play.choice(state.legal_actions()))
    assert opened > 100


def test_compiled_window_refuses_a_position_off_the_board() -> None:
    state = next(turn_positions({}, 3, 1))
    bad = state.clone()
    assert isinstance(bad, PassanteState)
    bad.pos = [0, 1, 2, 3, 0, 1, 2, -1]
    with pytest.raises(ValueError):
        fast.open_window(bad)


ROLLOUTS: list[dict[str, object]] = [
    {},
    {"lay_wishes": "choice", "privileges": "hint"},
    {"lay_wishes": "automatic", "policier_veto": False},
    {"window_asks": "holders", "must_move_twice": True},
]


@pytest.mark.parametrize("options", ROLLOUTS, ids=[",".join(o) or "defaults" for o in ROLLOUTS])
@pytest.mark.parametrize("limit", [0, 1, 7, 10_000])
def test_compiled_rollout_plays_the_agents_uniform_rollout(options: dict[str, object], limit: int) -> None:
    """From positions of random games (and the worlds IS-MCTS searches), the compiled loop plays
    the moves the agents' own loop plays: the same history, fields, logs and rng state after."""
    from gamelib.agents.mcts import _uniform_rollout

    # the agents' hook while compiled (GAMELIB_PURE_PYTHON=1: none); the loop is tested either way
    assert PassanteState._uniform_rollout is (rules._compiled_rollout if rules.COMPILED else None)
    for players in (1, 3, 4):
        game = gamelib.make("passante", players=players, options=options)
        for seed in range(2):
            state, play = game.new_game(seed=seed), random.Random(seed)
            while not state.is_terminal():
                if len(state.history) % 9 == 0:
                    mine, theirs = state.clone(), state.clone()
                    assert isinstance(mine, PassanteState)
                    rng_mine, rng_theirs = (
                        random.Random(len(state.history)),
                        random.Random(len(state.history)),
                    )
                    rules._compiled_rollout(mine, rng_mine, limit)
                    _uniform_rollout(theirs, rng_theirs, limit)
                    assert mine.history == theirs.history
                    assert vars(mine) == vars(theirs)
                    assert rng_mine.getstate() == rng_theirs.getstate()
                if state.current_player == CHANCE:
                    state.apply(state.sample_chance(play))
                else:
                    state.apply(play.choice(state.legal_actions()))


def test_compiled_rollout_asks_a_subclass_for_its_own_legal_moves() -> None:
    from gamelib.agents.mcts import _uniform_rollout

    class FirstHalf(PassanteState):
        def _legal_actions(self) -> list[Action]:
            moves = super()._legal_actions()
            return moves[: max(1, len(moves) // 2)]

    hook = rules._compiled_rollout
    game = gamelib.make("passante")
    assert isinstance(game, rules.PassanteGame)
    for seed in range(3):
        mine, theirs = FirstHalf(game, seed), FirstHalf(game, seed)
        hook(mine, random.Random(seed), 10_000)
        _uniform_rollout(theirs, random.Random(seed), 10_000)
        assert mine.history == theirs.history
        assert mine.is_terminal()


def test_the_agents_search_the_same_with_the_compiled_rollout() -> None:
    from gamelib.agents import ISMCTSAgent, MCTSAgent

    game = gamelib.make("passante")
    state = game.new_game(seed=4)
    play = random.Random(4)
    for _ in range(25):
        state.apply(
            state.sample_chance(play)
            if state.current_player == CHANCE
            else play.choice(state.legal_actions())
        )
    while state.current_player < 0:
        state.apply(state.sample_chance(play))
    was = rules.COMPILED
    try:
        found = {}
        for on in (False, True):
            rules.use_compiled(on)
            assert (PassanteState._uniform_rollout is not None) is on
            agents = [ISMCTSAgent(iterations=60), MCTSAgent(iterations=60, omniscient=True)]
            found[on] = [
                [
                    (str(m.action), m.visits, m.value)
                    for m in agent.analyse(state, state.current_player, random.Random(1))
                ]
                for agent in agents
            ]
        assert found[True] == found[False]
    finally:
        rules.use_compiled(was)


@pytest.mark.parametrize("options", WINDOWS, ids=[",".join(o) or "defaults" for o in WINDOWS])
def test_compiled_window_moves_are_the_pure_ones(options: dict[str, object]) -> None:
    """At every window of random games, and with the hand's shown wishes, the asked seat's heart
    and its signal edited: the same lays (hand order), signals and ``pass``."""
    rng = random.Random(5)
    seen = 0
    for players in (2, 3, 4):
        game = gamelib.make("passante", players=players, options=options)
        for seed in range(3):
            state, play = game.new_game(seed=seed), random.Random(seed)
            assert isinstance(state, PassanteState)
            while not state.is_terminal():
                if state.current_player >= 0 and state.phase == WINDOW:
                    for k in range(4):
                        world = state.clone()
                        assert isinstance(world, PassanteState)
                        if k:
                            world.shown = rng.getrandbits(39) & ~1
                            world.hearts = [rng.randrange(-1, 8) for _ in range(players)]
                            world.signalled = rng.getrandbits(players)
                        compiled = fast.window_actions(world)
                        pure = PassanteState._window_actions(world)
                        assert all(a is b for a, b in zip(compiled, pure, strict=True)), (compiled, pure)
                        seen += 1
                if state.current_player == CHANCE:
                    state.apply(state.sample_chance(play))
                else:
                    state.apply(play.choice(state.legal_actions()))
    assert seen > 100


APPLY: list[dict[str, object]] = [
    {},
    {"lay_wishes": "automatic"},
    {"lay_wishes": "choice", "privileges": "hint", "round_event_chooser": "next"},
    {"window_asks": "holders", "final_round_event": True, "comedienne_die": "swap"},
    {"policier_veto": False, "must_move_twice": True, "solo_hand_size": 10},
]


@pytest.mark.parametrize("options", APPLY, ids=[",".join(o) or "defaults" for o in APPLY])
def test_compiled_apply_changes_what_apply_changes(options: dict[str, object]) -> None:
    """Every action of random games (vetoes and allows, windows, automatic lays, round cards)
    applied by ``_fast.apply`` and by ``_apply``: every field equal after."""
    kinds = set()
    for players in (1, 2, 3, 4):
        game = gamelib.make("passante", players=players, options=options)
        for seed in range(3):
            state, play = game.new_game(seed=seed), random.Random(seed)
            assert isinstance(state, PassanteState)
            while not state.is_terminal():
                action = (
                    state.sample_chance(play)
                    if state.current_player == CHANCE
                    else play.choice(state.legal_actions())
                )
                mine, theirs = state.clone(), state.clone()
                assert isinstance(theirs, PassanteState)
                fast.apply(mine, action, PassanteState._steps)
                PassanteState._apply(theirs, action)
                assert vars(mine) == vars(theirs), action
                kinds.add(type(action).__name__)
                state.apply(action)
    assert {"Move", "End", "WishCard"} <= kinds
    if not options:
        assert {"Veto", "Allow", "Pass", "Lay"} <= kinds


def test_compiled_rollout_calls_a_subclass_own_apply_and_draw() -> None:
    from gamelib.agents.mcts import _uniform_rollout

    class Counting(PassanteState):
        applied = drawn = 0

        def _apply(self, action: Action) -> None:
            type(self).applied += 1
            super()._apply(action)

        def sample_chance(self, rng: random.Random | None = None) -> Action:
            type(self).drawn += 1
            return super().sample_chance(rng)

    game = gamelib.make("passante")
    assert isinstance(game, rules.PassanteGame)
    mine, theirs = Counting(game, 2), Counting(game, 2)
    rules._compiled_rollout(mine, random.Random(2), 10_000)
    assert Counting.applied == len(mine.history) > 50
    assert 0 < Counting.drawn < Counting.applied
    _uniform_rollout(theirs, random.Random(2), 10_000)
    assert mine.history == theirs.history


@pytest.mark.parametrize("options", APPLY, ids=[",".join(o) or "defaults" for o in APPLY])
def test_compiled_draw_is_sample_chance(options: dict[str, object]) -> None:
    """At every chance node of random games (wish deals, character cards from the deck and from
    under it, the die, the round's card) ``_fast.sample`` draws what ``sample_chance`` draws from
    the same generator, and leaves it in the same state."""
    kinds = set()
    for players in (1, 2, 3, 4):
        game = gamelib.make("passante", players=players, options={**options, "final_round_event": True})
        for seed in range(3):
            state, play = game.new_game(seed=seed), random.Random(seed)
            while not state.is_terminal():
                if state.current_player == CHANCE:
                    mine, theirs = random.Random(len(state.history)), random.Random(len(state.history))
                    drawn = fast.sample(state, mine)
                    assert drawn is state.sample_chance(theirs)
                    assert mine.getstate() == theirs.getstate()
                    kinds.add(type(drawn).__name__)
                    state.apply(state.sample_chance(play))
                else:
                    state.apply(play.choice(state.legal_actions()))
    assert {"WishCard", "CharacterCard", "RoundEvent"} <= kinds


def test_compiled_draw_leaves_the_odd_cases_to_the_method() -> None:
    """No card to draw, or a deck the tables do not hold: None, and no number drawn."""
    game = gamelib.make("passante")
    state = game.new_game(seed=1)
    assert isinstance(state, PassanteState)
    assert state.current_player == CHANCE and state.pending
    rng = random.Random(0)
    before = rng.getstate()
    for deck in (0, 1, 1 << 40 | 1 << 3):
        odd = state.clone()
        assert isinstance(odd, PassanteState)
        odd.wish_deck = deck
        assert fast.sample(odd, rng) is None
        assert rng.getstate() == before
