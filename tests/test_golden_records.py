"""Records written before the issue-23 refactor still replay, move for move, to the same result.

``tests/data/records_7919c38.jsonl.gz`` holds 213 random games recorded by the code of commit
7919c38 (the rules as they stood before each game moved onto core's rulebook): every game, every
player count, the default options and each other value of every option with a fixed set of
choices.  Replaying checks each action is legal where it was played and that the replay ends with
the recorded ``result``; rewriting the rules must leave all of them playable.  Regenerate only
with a version bump (the old versions' records then stay as they are).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

import gamelib

GOLDEN = Path(__file__).parent / "data" / "records_7919c38.jsonl.gz"


def _records() -> list[dict[str, Any]]:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


RECORDS = _records()


def test_every_game_and_player_count_is_in_the_golden_records() -> None:
    seen = {(r["game"], r["players"]) for r in RECORDS}
    for name in gamelib.registered_games():
        info = gamelib.core.game_class(name).info
        assert {(name, p) for p in range(info.min_players, info.max_players + 1)} <= seen


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_records_before_the_refactor_replay_to_their_result(name: str) -> None:
    mine = [r for r in RECORDS if r["game"] == name]
    assert mine
    for record in mine:
        state = gamelib.from_record(record)  # every action legal where it was played
        assert len(state.history) == len(record["actions"])
        assert [str(a) for a in state.history] == record["actions"]
        assert state.is_terminal() == record["result"]["terminal"]
        assert state.returns() == record["result"]["returns"]
