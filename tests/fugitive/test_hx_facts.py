"""The detective's facts read from a state in one pass (:func:`facts_from_state`, issue 24 goal 1:
the fixed cost of every ``belief(state)``) equal the facts :func:`build_facts` makes from the same
view (``_facts_by_parts``, the reference), field by field with their types and orders, and the
facts key; on stored positions of both editions and on random play under every option that
changes what the detective sees or what a guess says.  And they read only the detective's view:
the fugitive's hidden cards changed, the facts stay the same, and they equal the facts of the
detective's information state."""

from __future__ import annotations

import dataclasses
import gzip
import json
import random
from pathlib import Path
from typing import Any

import pytest
from fugitive_positions import random_position
from hypothesis import given, settings
from hypothesis import strategies as st

import gamelib
from gamelib.fugitive.belief.facts import Facts, _facts_by_parts, facts_from_state, facts_key, facts_of
from gamelib.fugitive.rules import DETECTIVE, FugitiveState

BENCH = Path(__file__).parents[2] / "benchmarks" / "data"
SETS = (
    Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz",  # edition 1
    BENCH / "fugitive_belief_random_v2.jsonl.gz",
    BENCH / "fugitive_belief_agents_v2.jsonl.gz",
)

OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"edition": 2},
    {"edition": 2, "refuse_known_numbers": True},
    {"refuse_known_numbers": True, "manhunt": "immediate"},
    {"edition": 2, "manhunt": "immediate"},
    {"canonical_order": True},
    {"edition": 2, "canonical_order": True, "refuse_known_numbers": True},
    {"escape_card": 12},
    {"edition": 2, "escape_card": 20},
    {"escape_card": 7, "refuse_known_numbers": True},
    {"escape_sprints": "hidden"},
    {"edition": 2, "escape_sprints": "hidden", "escape_card": 15},
)


def typed(value: Any) -> Any:
    """A value with the type of every part (a list is not a tuple, a bool not an int)."""
    if isinstance(value, (tuple, list)):
        return type(value).__name__, tuple(typed(v) for v in value)
    return type(value).__name__, value


def fields(facts: Facts) -> list[tuple[str, Any]]:
    """The facts field by field, typed, in the order their instance dict holds them."""
    assert list(facts.__dict__) == [f.name for f in dataclasses.fields(Facts)]
    return [(name, typed(value)) for name, value in facts.__dict__.items()]


def check(state: FugitiveState) -> Facts:
    """The one-pass facts equal the reference's, typed, and so does the facts key."""
    fast, reference = facts_from_state(state), _facts_by_parts(state)
    assert type(fast) is Facts
    assert fields(fast) == fields(reference)
    assert typed(facts_key(fast)) == typed(facts_key(reference))
    return fast


@pytest.mark.parametrize("path", SETS, ids=lambda p: p.name)
def test_one_pass_facts_equal_the_reference_on_stored_positions(path: Path) -> None:
    with gzip.open(path, "rt") as handle:
        rows = [json.loads(line) for n, line in enumerate(handle) if n % 2 == 0]
    for row in rows:
        state = gamelib.from_record(row["record"])
        assert isinstance(state, FugitiveState)
        check(state)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "v1")
def test_one_pass_facts_equal_the_reference_on_random_play(options: dict[str, Any]) -> None:
    """Every phase along random games (setup, dealing, a stack being laid, the escape card down,
    the manhunt, the end), the state without its guess log too (the history replayed)."""
    rng = random.Random(24)
    for seed in range(40):
        state = random_position(seed, rng.randrange(0, 500), **options)
        check(state)
        copy = state.clone()
        assert isinstance(copy, FugitiveState)
        del copy.named_log
        assert fields(facts_from_state(copy)) == fields(check(state))


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 700),
    options=st.fixed_dictionaries(
        {
            "edition": st.sampled_from([1, 2]),
            "refuse_known_numbers": st.booleans(),
            "manhunt": st.sampled_from(["choice", "immediate"]),
            "escape_card": st.sampled_from([7, 9, 14, 25, 42]),
            "canonical_order": st.booleans(),
            "escape_sprints": st.sampled_from(["shown", "hidden"]),
        }
    ),
)
def test_one_pass_facts_equal_the_reference_on_any_play(
    seed: int, steps: int, options: dict[str, Any]
) -> None:
    check(random_position(seed, steps, **options))


def blinded(state: FugitiveState, rng: random.Random) -> FugitiveState:
    """A copy whose hidden cards are changed (the fugitive's hand, the decks, the face-down
    hideouts and every sprint card the detective does not see, stack sizes kept): what only the
    fugitive knows, replaced by other numbers."""
    copy = state.clone()
    assert isinstance(copy, FugitiveState)
    copy.fhand = rng.getrandbits(43)
    copy.decks = [rng.getrandbits(43) for _ in copy.decks]
    for i in range(1, len(copy.hideouts)):
        if not copy.revealed[i]:
            copy.hideouts[i] = rng.randrange(1, 43)
        if not copy.sprints_shown(i):
            copy.sprints[i] = tuple(rng.randrange(1, 43) for _ in copy.sprints[i])
    return copy


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "v1")
def test_facts_read_only_the_detectives_view(options: dict[str, Any]) -> None:
    """The facts of a state are those of the detective's information state, and stay the same
    when the fugitive's hidden cards are changed."""
    rng = random.Random(5)
    for seed in range(30):
        state = random_position(seed, rng.randrange(30, 500), **options)
        facts = facts_from_state(state)
        assert fields(facts_from_state(blinded(state, rng))) == fields(facts)
        view = facts_of(state.information_state(DETECTIVE), state.game.options.edition, state.canonical)
        assert fields(view) == fields(facts)
