"""The Timeline behind undo/redo/rewind: exact against replaying the action list from scratch."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamelib
from gamelib.agents import RandomAgent
from gamelib_widgets import Timeline


def replay(game: gamelib.Game, seed: int, actions: list[str]) -> gamelib.State:
    state = game.new_game(seed=seed)
    for text in actions:
        state.apply(text)
    return state


def test_push_undo_redo_rewind_are_exact() -> None:
    game = gamelib.make("fugitive")
    walker = game.new_game(seed=4)
    timeline = Timeline(walker)
    states = [walker.clone()]
    rng = random.Random(4)
    for _ in range(40):
        walker.apply(
            walker.sample_chance() if walker.is_chance_node() else rng.choice(walker.legal_actions())
        )
        timeline.push(walker)
        states.append(walker.clone())
    assert not walker.is_terminal()
    assert len(timeline) == 41 and timeline.cursor == 40
    walker.apply(walker.sample_chance() if walker.is_chance_node() else rng.choice(walker.legal_actions()))
    assert timeline.current == states[-1], "push must clone: later mutation of the pushed object leaks"
    for expected in reversed(states[:-1]):
        assert timeline.undo()
        assert timeline.current == expected
    assert not timeline.undo() and timeline.cursor == 0
    for expected in states[1:]:
        assert timeline.redo()
        assert timeline.current == expected
    assert not timeline.redo()
    timeline.rewind(17)
    assert timeline.current == states[17] and timeline.can_redo()
    with pytest.raises(IndexError, match="outside the line"):
        timeline.rewind(41)


def test_playing_the_redo_line_keeps_it_and_a_new_move_cuts_it() -> None:
    game = gamelib.make("fugitive")
    state = gamelib.play(game, [RandomAgent()] * 2, seed=2, max_actions=30)
    timeline = Timeline.replayed(state)
    timeline.rewind(10)
    again = timeline.current.clone()
    again.apply(timeline.at(11).history[-1])
    timeline.push(again)
    assert len(timeline) == 31 and timeline.cursor == 11, "same move as the line: line kept"
    other = timeline.current.clone()
    other.apply(next(a for a in other.legal_actions() if a != timeline.at(12).history[-1]))
    timeline.push(other)
    assert len(timeline) == 13 and timeline.cursor == 12 and not timeline.can_redo()


def test_replayed_starts_at_the_beginning_and_falls_back_to_the_state_itself(pile_game) -> None:
    game = gamelib.make("fugitive")
    state = gamelib.play(game, [RandomAgent()] * 2, seed=9, max_actions=25)
    timeline = Timeline.replayed(state)
    assert timeline.start_ply == 0 and timeline.cursor == 25
    assert timeline.current == state and timeline.at(0) == game.new_game(seed=9)
    for index in range(26):
        assert [str(a) for a in timeline.at(index).history] == [str(a) for a in state.history[:index]]
    # a position its own history does not lead to (edited by hand) becomes the root
    odd = pile_game.new_game(seed=1)
    odd.apply("secret 2")
    odd.pile = 3
    rooted = Timeline.replayed(odd)
    assert len(rooted) == 1 and rooted.start_ply == 1 and rooted.current == odd
    # ... and so does one whose history is no longer legal from the start
    odd.history.append(odd.game.parse_action("take 9"))
    assert len(Timeline.replayed(odd)) == 1


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    ops=st.lists(st.tuples(st.sampled_from("aaurw"), st.integers(0, 99)), max_size=60),
)
def test_any_sequence_of_operations_matches_a_replay(seed: int, ops: list[tuple[str, int]]) -> None:
    """Model: the list of notations on the line and a cursor; the timeline must equal its replay."""
    game = gamelib.make("fugitive")
    timeline = Timeline(game.new_game(seed=seed))
    line: list[str] = []
    cursor = 0
    for op, n in ops:
        if op == "a":
            state = timeline.current.clone()
            if state.is_terminal():
                continue
            options = state.legal_actions()
            action = options[n % len(options)]
            state.apply(action)
            timeline.push(state)
            if cursor < len(line) and line[cursor] == str(action):
                cursor += 1
            else:
                del line[cursor:]
                line.append(str(action))
                cursor += 1
        elif op == "u":
            assert timeline.undo() == (cursor > 0)
            cursor = max(0, cursor - 1)
        elif op == "r":
            assert timeline.redo() == (cursor < len(line))
            cursor = min(len(line), cursor + 1)
        else:
            cursor = n % (len(line) + 1)
            timeline.rewind(cursor)
        assert timeline.cursor == cursor and len(timeline) == len(line) + 1
        assert timeline.current == replay(game, seed, line[:cursor])
    assert timeline.end == replay(game, seed, line)


def test_the_package_docstring_example_runs() -> None:
    import doctest

    import gamelib_widgets

    result = doctest.testmod(gamelib_widgets, verbose=False)
    assert result.attempted >= 3 and result.failed == 0
