"""tree_size: exact counts of small trees, and a clear stop on large ones."""

from __future__ import annotations

import pytest

import gamelib
from gamelib.analysis import TreeTooLarge, tree_size
from gamelib.interop.solve import SMALL_CONFIGURATIONS

SMALL = SMALL_CONFIGURATIONS["fugitive"]  # pins the readings its counts rely on (fugitive rules version 2)


def test_small_fugitive_tree_counts() -> None:
    size = tree_size(gamelib.make("fugitive", options=SMALL))
    assert size.histories == size.terminals + size.chance_nodes + sum(size.decision_nodes)
    # 4,148 and 1,925 before the fix: a manhunt with nothing face down is now the detective's at once
    assert size.histories == 4145 and size.terminals == 1923
    assert size.information_states == [52, 571]
    # the fugitive sees everything it decides on: one information state per decision
    assert size.information_states[0] == size.decision_nodes[0]
    assert size.information_states[1] < size.decision_nodes[1]
    assert "4,145 histories" in str(size)


def test_canonical_order_only_removes_reorderings() -> None:
    plain = tree_size(gamelib.make("fugitive", options={**SMALL, "canonical_order": False}))
    canonical = tree_size(gamelib.make("fugitive", options=SMALL))
    assert plain.histories > canonical.histories
    assert plain.depth == canonical.depth  # the longest game is as long either way


def test_tree_matches_a_hand_count_on_the_smallest_prefix() -> None:
    # a two-card "game": the first decisions of the small Fugitive, counted by hand
    state = gamelib.make("fugitive", options=SMALL).new_game(seed=0)
    assert sorted(str(a) for a in state.legal_actions()) == ["hide 1", "hide 2", "hide 3", "hide 7"]


def test_published_game_is_too_large() -> None:
    with pytest.raises(TreeTooLarge, match="more than 2,000 histories"):
        tree_size(gamelib.make("fugitive"), max_histories=2000)


@pytest.mark.parametrize("bad", [0, -5, True, 1.5])
def test_bad_budget_is_a_clear_error(bad: object) -> None:
    with pytest.raises(ValueError, match="max_histories"):
        tree_size(gamelib.make("fugitive", options=SMALL), max_histories=bad)  # type: ignore[arg-type]
