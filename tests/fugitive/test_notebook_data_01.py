"""Notebook 01's stored tournament (notebooks/data/01_pairings.csv) is what its command computes:
the first games of every pairing, recomputed on the same seeds, equal the stored rows; no stored
game was stopped by the engine's round limit (a draw no rule has)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("pandas")

DATA = Path(__file__).resolve().parents[2] / "notebooks" / "data"
sys.path.insert(0, str(DATA))

from fugitive_experiments import COMMAND, PAIRINGS, pairings  # noqa: E402

from gamelib.analysis.stored import load, verify  # noqa: E402


def test_the_stored_file_says_how_it_was_made() -> None:
    frame = load("01_pairings", DATA)
    meta = frame.attrs["provenance"]
    assert meta["command"] == COMMAND and meta["params"]["games"] == 250
    assert list(frame["pairing"].unique()) == list(PAIRINGS)
    assert len(frame) == 250 * len(PAIRINGS)


def test_a_slice_recomputes_exactly() -> None:
    fresh = verify("01_pairings", pairings, DATA, games=3)
    assert len(fresh) == 3 * len(PAIRINGS)


def test_only_two_random_players_reach_the_round_limit_and_it_is_counted() -> None:
    frame = load("01_pairings", DATA)
    limited = frame[frame["ended_by"] == "max_rounds"]
    assert set(limited["pairing"]) <= {"random vs random"}  # the notebook prints the count
    assert (limited["winner"] == -1).all() and (
        frame.loc[frame["winner"] == -1, "ended_by"] == "max_rounds"
    ).all()
