"""The world count from the deals count's own moves (:mod:`gamelib.fugitive.belief.both`): the
worlds measure's total equals the brute-force enumeration on small decks under every option that
changes what a guess reveals, the stored counts on every position of the shared set and on hard
random v2 positions, and the worlds programme's own count wherever the last layer is summed from
the deals completions (the settled tail) or by the worlds final weights.  And the claim it rests
on: both measures' programmes have the same states in every layer."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

import pytest
from fugitive_positions import random_position
from test_belief_brute_force import OPTIONS, enumerate_worlds, positions

import gamelib
from gamelib.fugitive.belief import (
    Programme,
    backward,
    belief,
    both,
    build,
    clear_caches,
    facts_from_state,
    probabilities,
)
from gamelib.fugitive.belief.bits import GROUP
from gamelib.fugitive.belief.facts import Facts
from gamelib.fugitive.rules import FugitiveState

DATA = Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz"
RANDOM_V2 = Path(__file__).parents[2] / "benchmarks" / "data" / "fugitive_belief_random_v2.jsonl.gz"
HARD_V2 = ("random-415", "random-64", "random-273", "random-886", "random-612")
"""Random v2 positions with large programmes (11k-55k edges; 656-4,914 sources in the last layer, so
both the per-key and the bilinear last layers are met), the first three settled (the fugitive drew
nothing after the last position), the last two not."""


def rows(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rt") as handle:
        return [json.loads(line) for line in handle]


def facts_of(row: dict[str, Any]) -> Facts:
    state = gamelib.from_record(row["record"])
    assert isinstance(state, FugitiveState)
    return facts_from_state(state)


def counted(facts: Facts) -> Programme:
    """The deals count as :func:`~gamelib.fugitive.belief.belief` makes it: built, its moves kept
    for the world count, then walked backward (which lets the build's own copy go)."""
    prog = build(facts, "deals")
    both.keep_moves(prog)
    backward(prog)
    return prog


def worlds_of(facts: Facts) -> int:
    prog = counted(facts)
    total = both.world_total(prog)
    assert total is not None
    mass, rest = divmod(total, prog.stacks)
    assert rest == 0
    return mass


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_the_world_count_from_the_deals_count_equals_the_enumeration(options: dict[str, Any]) -> None:
    checked = 0
    for state in positions(options, seed=24 + len(str(options)), count=6):
        facts = facts_from_state(state)
        got = worlds_of(facts)
        assert got == build(facts, "worlds", count_only=True).mass
        if not (facts.stuck_first_turn or facts.canonical_pending):  # else a documented superset
            assert got == enumerate_worlds(state)[0], state.history
            checked += 1
    assert checked >= 3


@pytest.mark.slow
def test_every_shared_position_gives_its_stored_world_count() -> None:
    for row in rows(DATA):
        assert worlds_of(facts_of(row)) == row["worlds"], row["id"]


def test_hard_random_positions_give_their_stored_world_count_by_either_last_layer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Hard positions both ways: the last layer from the deals completions where the fugitive drew
    nothing after the last position (the settled tail), and from the worlds final weights."""
    wanted = [row for row in rows(RANDOM_V2) if row["id"] in HARD_V2]
    assert len(wanted) == len(HARD_V2)
    for row in wanted:
        prog = counted(facts_of(row))
        n = prog.npos
        settled = prog.hidden[n] and all(prog.slots[n][g] == prog.fug[g] for g in (1, 2, 3))
        assert settled == (row["id"] in HARD_V2[:3]), row["id"]
        moves = getattr(prog, both.KEPT)
        assert both.world_total(prog) == row["worlds"] * prog.stacks, row["id"]
        setattr(prog, both.KEPT, moves)  # walked again, the last layer by the worlds final weights
        with monkeypatch.context() as patch:
            patch.setattr(both, "_settled_tail", lambda *args: None)
            assert both.world_total(prog) == row["worlds"] * prog.stacks, row["id"]


def test_mid_stack_positions_agree_with_the_worlds_programme() -> None:
    """The hand pays the pending hideout's footprints mid-stack: other final weights, same relation."""
    seen = 0
    for seed in range(200):
        state = random_position(seed, random.Random(seed).randrange(30, 150))
        if state.phase != 3 or not state.sprints[-1]:  # F_SPRINT with a card laid
            continue
        facts = facts_from_state(state)
        try:
            expected = build(facts, "worlds", count_only=True).mass
        except ValueError:
            continue
        assert worlds_of(facts) == expected, seed
        seen += 1
    assert seen >= 5


def test_both_measures_have_the_same_states_in_every_layer() -> None:
    """What the world count from the deals moves rests on (checked on all 6,640 stored and held-out
    positions when it was written; here the shared set's every 8th)."""
    for row in rows(DATA)[::8]:
        facts = facts_of(row)
        deals, worlds = build(facts, "deals"), build(facts, "worlds")
        assert deals.layers == worlds.layers
        for a, b in zip(deals.forward, worlds.forward, strict=True):
            assert a.keys() == b.keys(), row["id"]


def test_moves_are_walked_once_and_only_from_a_deals_count() -> None:
    facts = facts_of(rows(DATA)[3])
    prog = counted(facts)
    assert both.world_total(prog) is not None
    assert both.world_total(prog) is None  # let go after use: the belief keeps the total
    for prog in (build(facts, "worlds"), build(facts, "deals", count_only=True)):
        both.keep_moves(prog)
        assert both.world_total(prog) is None
    for row in rows(DATA):  # the first with a face-down sprint stack: group layers when full
        full = build(facts_of(row), "deals", full=True)
        if any(kind == GROUP for _, kind, _ in full.layers):
            break
    both.keep_moves(full)
    assert both.world_total(full) is None  # group layers (a sampler's programme): not walked


def test_a_beliefs_world_count_walks_its_deals_count_instead_of_building_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``belief(state).worlds`` on positions the programme counts: no second build (the wiring in
    :mod:`~gamelib.fugitive.belief.probabilities`), the stored world count."""
    built: list[str] = []
    build_again = probabilities.build

    def build(facts: Facts, measure: str, *args: Any, **kwargs: Any) -> Programme:
        built.append(measure)
        return build_again(facts, measure, *args, **kwargs)

    monkeypatch.setattr(probabilities, "build", build)
    checked = 0
    for row in rows(DATA)[::16]:
        state = gamelib.from_record(row["record"])
        assert isinstance(state, FugitiveState)
        if probabilities.counted_directly(facts_from_state(state), "deals") is not None:
            continue
        clear_caches()
        got = belief(state)
        assert got.worlds == row["worlds"], row["id"]
        checked += 1
    assert checked >= 5
    assert "worlds" not in built
