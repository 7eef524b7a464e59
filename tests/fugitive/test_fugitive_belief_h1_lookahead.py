"""A big stack's allocation looks ahead at the next hideout (``build._lookahead``): exact.

A stack of ``LOOKAHEAD_STACK`` cards or more before a face-down hideout learns from its value move
the groups that hideout can be of; a value whose groups are all full is dead, and when one group
only has room the stack leaves it a card.  The states it never makes have no completion, so the
total, the hideout probabilities (backward pass) and the card locations are those of the programme
without the lookahead, which makes more states.
"""

from __future__ import annotations

import gzip
import importlib
import json
from fractions import Fraction
from pathlib import Path

import pytest

import gamelib
from gamelib.fugitive import belief as belief_module
from gamelib.fugitive.belief.build import backward, build
from gamelib.fugitive.belief.marginals import class_shares
from gamelib.fugitive.belief.programme import Programme
from gamelib.fugitive.rules import FugitiveState, cards_of

build_module = importlib.import_module("gamelib.fugitive.belief.build")  # the module, not the function
DATA = Path(__file__).parent / "data" / "fugitive_belief_positions.jsonl.gz"


def facts_of(row: dict) -> belief_module.Facts:
    state = gamelib.from_record(row["record"])
    assert isinstance(state, FugitiveState)
    return belief_module.facts_from_state(state)


def looking_ahead() -> list[dict]:
    """The shared positions whose programme has a stack that looks ahead (the largest first)."""
    with gzip.open(DATA, "rt") as handle:
        rows = [json.loads(line) for line in handle]
    rows.sort(key=lambda row: -row.get("hidden_sprint_cards", 0))
    out = []
    for row in rows:
        facts = facts_of(row)
        if facts.size < 2:
            continue
        prog = build(facts, "worlds", count_only=True)
        if any(a is not None for a in prog.ahead):
            out.append(row)
        if len(out) == 16:
            break
    return out


def without_lookahead(monkeypatch: pytest.MonkeyPatch, facts: belief_module.Facts, measure: str, **kw: bool):
    with monkeypatch.context() as patch:
        patch.setattr(build_module, "LOOKAHEAD_STACK", 10**6)
        return build(facts, measure, **kw)


@pytest.mark.parametrize("measure", ["deals", "worlds"])
def test_lookahead_keeps_the_count_and_the_hideout_probabilities(
    monkeypatch: pytest.MonkeyPatch, measure: str
) -> None:
    rows = looking_ahead()
    assert len(rows) >= 8
    fewer = 0
    for row in rows:
        facts = facts_of(row)
        plain = without_lookahead(monkeypatch, facts, measure)
        ahead = build(facts, measure)
        assert all(a is None for a in plain.ahead)
        assert ahead.total == plain.total
        expected = row["deal_weighted_mass"] if measure == "deals" else row["worlds"]
        assert ahead.mass == expected, row["id"]
        states = sum(len(layer) for layer in ahead.forward)
        plain_states = sum(len(layer) for layer in plain.forward)
        assert states <= plain_states
        fewer += states < plain_states
        backward(plain)
        backward(ahead)
        assert ahead.marginals is not None and plain.marginals is not None
        for i, tally in plain.marginals.items():
            assert ahead.marginals[i] == tally, (row["id"], i)
    assert fewer >= 2  # the lookahead prunes something on these positions


def locations(prog: Programme) -> list[tuple[Fraction, Fraction]]:
    """Per unseen card: the exact chances it is a face-down sprint card and in the hand."""
    shares = class_shares(prog)
    whole = shares.total * shares.scale
    class_of = prog.facts.tables.class_of
    out = []
    for v in cards_of(prog.facts.unknown):
        sprint, hand = shares.where(v, class_of[v])
        out.append((Fraction(sprint, whole), Fraction(hand, whole)))
    return out


def test_lookahead_keeps_the_card_locations(monkeypatch: pytest.MonkeyPatch) -> None:
    for row in looking_ahead()[:4]:
        facts = facts_of(row)
        plain = without_lookahead(monkeypatch, facts, "deals")
        ahead = build(facts, "deals")
        assert locations(ahead) == locations(plain), row["id"]
