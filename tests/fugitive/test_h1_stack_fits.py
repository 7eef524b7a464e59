"""A value move whose stack cannot fit in its groups' room (``Programme._stack_fits``) is not made:
exact, since such a state has no completion.

Against the programme that makes every value move: the same total and hideout probabilities, and
every state it keeps has the same weight and completion; every state it leaves out has none.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

import gamelib
from gamelib.fugitive import belief as belief_module
from gamelib.fugitive.belief.build import backward, build
from gamelib.fugitive.belief.programme import Programme
from gamelib.fugitive.rules import FugitiveState
from tests.fugitive.fugitive_positions import random_position

DATA = Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz"


def facts_list() -> list[belief_module.Facts]:
    """The shared positions with the most face-down sprint cards, and random-play ones (small decks
    among them)."""
    with gzip.open(DATA, "rt") as handle:
        rows = [json.loads(line) for line in handle]
    rows.sort(key=lambda row: -row.get("hidden_sprint_cards", 0))
    out = []
    for row in rows[:16]:
        state = gamelib.from_record(row["record"])
        assert isinstance(state, FugitiveState)
        out.append(belief_module.facts_from_state(state))
    for seed in range(30):
        state = random_position(seed, 40 + 5 * (seed % 9), **({"escape_card": 28} if seed % 3 == 0 else {}))
        out.append(belief_module.facts_from_state(state))
    return out


def always_fits(self: Programme, i: int, new: int, field: int, n: int, need: int) -> bool:
    return True


@pytest.mark.parametrize("measure", ["deals", "worlds"])
def test_stacks_that_cannot_fit_leave_only_dead_states(monkeypatch: pytest.MonkeyPatch, measure: str) -> None:
    dropped = 0
    for facts in facts_list():
        fitted = build(facts, measure)
        with monkeypatch.context() as patch:
            patch.setattr(Programme, "_stack_fits", always_fits)
            every = build(facts, measure)
        assert fitted.total == every.total
        back_fitted, back_every = backward(fitted), backward(every)
        assert fitted.marginals == every.marginals
        for t, (kept, made) in enumerate(zip(fitted.forward, every.forward, strict=True)):
            assert kept.keys() <= made.keys()
            for state, weight in kept.items():
                assert made[state] == weight
                assert back_fitted[t].get(state, 0) == back_every[t].get(state, 0)
            for state in made.keys() - kept.keys():
                assert not back_every[t].get(state, 0)
                dropped += 1
        assert build(facts, measure, full=True).total == every.total
    assert dropped >= 50
