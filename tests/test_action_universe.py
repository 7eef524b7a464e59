"""Every game's action universe pinned: the notation of each action id, in order.

Action ids (the index of an action in ``game.action_universe()``) are the integer encoding the
OpenSpiel and PettingZoo adapters, the information-state tensors and stored learning data rely
on.  The notation of actions is the record format.  Declaring the notation once (issue 16) must
move neither: this golden file was written from the hand-written notation before the refactor.
Regenerate it only for a deliberate change of ids (and bump the game's version):
``python tests/test_action_universe.py``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

import gamelib

GOLDEN = Path(__file__).parent / "data" / "action_universes.json"
CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("fugitive", 2, {}),
    ("fugitive", 2, {"escape_card": 12}),
    ("fugitive", 2, {"manhunt": "immediate"}),
    ("passante", 1, {}),
    ("passante", 3, {}),
    ("passante", 2, {"privileges": "hint"}),
    ("passante", 2, {"table_talk": True}),
    # bid_step pinned: its default went from 10 to 1; the universe of each step did not move (same digests)
    ("delanopolis", 3, {"bid_step": 10}),
    ("delanopolis", 5, {"bid_step": 1}),
    ("delanopolis", 4, {"refuges": 0, "chain_auctions": True, "bid_step": 10}),
    ("getonboard", 2, {}),
    ("getonboard", 5, {"city": "paris"}),
    ("getonboard", 3, {"city": "rome"}),
]


def config_id(name: str, players: int, options: dict[str, Any]) -> str:
    return f"{name}-{players}p" + ("-" + json.dumps(options, sort_keys=True) if options else "")


def universe_notation(name: str, players: int, options: dict[str, Any]) -> list[str]:
    game = gamelib.make(name, players=players, options=options)
    return [str(a) for a in game.action_universe()]


def digest(notations: list[str]) -> str:
    return hashlib.sha256("\n".join(notations).encode()).hexdigest()[:24]


def golden() -> dict[str, Any]:
    return json.loads(GOLDEN.read_text())  # type: ignore[no-any-return]


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(*c) for c in CONFIGS])
def test_action_ids_and_notation_never_move(config: tuple[str, int, dict[str, Any]]) -> None:
    expected = golden()[config_id(*config)]
    notations = universe_notation(*config)
    assert len(notations) == expected["size"]
    assert notations[: len(expected["head"])] == expected["head"]
    assert notations[-len(expected["tail"]) :] == expected["tail"]
    assert digest(notations) == expected["digest"]


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(*c) for c in CONFIGS])
def test_every_action_reads_back_from_its_notation(config: tuple[str, int, dict[str, Any]]) -> None:
    name, players, options = config
    game = gamelib.make(name, players=players, options=options)
    universe = list(game.action_universe())
    assert len(set(universe)) == len(universe), "two action ids for one action"
    for action_id, action in enumerate(universe):
        parsed = game.parse_action(str(action))
        assert parsed == action
        assert game.action_id(parsed) == action_id


def _write() -> None:
    table = {}
    for config in CONFIGS:
        notations = universe_notation(*config)
        table[config_id(*config)] = {
            "size": len(notations),
            "head": notations[:12],
            "tail": notations[-12:],
            "digest": digest(notations),
        }
    GOLDEN.write_text(json.dumps(table, indent=1) + "\n")


if __name__ == "__main__":
    _write()
