"""Observation encodings built from named pieces (:mod:`gamelib.core.encoding`).

The golden test pins every game's observation tensor, bit for bit, on positions of recorded
random games (``tests/data/observation_tensors.json``): the OpenSpiel and PettingZoo adapters and
stored learning data depend on the layout, so a rewrite of an encoding must not move one bit.
Regenerate the file only for a deliberate layout change (and say so in the game's version):
``python tests/test_encoding.py``.
"""

from __future__ import annotations

import hashlib
import json
import random
import struct
from pathlib import Path
from typing import Any

import pytest

import gamelib
from gamelib.core.play import random_playout

GOLDEN = Path(__file__).parent / "data" / "observation_tensors.json"
GAMES = ("fugitive", "delanopolis", "getonboard")
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "fugitive": [{"edition": 2, "manhunt": "immediate", "escape_sprints": "hidden"}],
    "delanopolis": [
        {"placement": "sum", "refuge_on_double": True, "mayor_bid": "open_first"},
        {"refuges": 0, "chain_auctions": True, "boost_timing": "any_roll", "bid_step": 1},
    ],
    "getonboard": [{"city": "paris", "free_city": True}],
}
POSITIONS = 50
GAMES_PER_CONFIG = 2


def digest(tensor: list[float]) -> str:
    """The tensor's exact bits (IEEE doubles, little-endian), hashed."""
    return hashlib.sha256(struct.pack(f"<{len(tensor)}d", *tensor)).hexdigest()[:20]


def configurations() -> list[tuple[str, int, dict[str, Any]]]:
    configs = []
    for name in GAMES:
        info = gamelib.core.game_class(name).info
        for players in range(info.min_players, info.max_players + 1):
            for options in [{}, *VARIANTS.get(name, [])]:
                configs.append((name, players, options))
    return configs


def config_id(name: str, players: int, options: dict[str, Any]) -> str:
    return f"{name}-{players}p" + ("-" + json.dumps(options, sort_keys=True) if options else "")


def record_config(name: str, players: int, options: dict[str, Any]) -> dict[str, Any]:
    """Games of one configuration (the seats' own agents, then random play) and the digests of every seat's tensor at ~50 steps."""
    from gamelib.agents.registry import default_agents, make_agent

    game = gamelib.make(name, players=players, options=options)
    games = []
    for seed in range(GAMES_PER_CONFIG):
        if seed == 0 and name != "fugitive":  # as the seats' own agents play it: later positions
            final = gamelib.play(game, [make_agent(a, name) for a in default_agents(game)], seed=seed)
        else:
            final = random_playout(game.new_game(seed=seed), random.Random(1000 + seed))
        actions = [str(a) for a in final.history]
        every = max(1, (len(actions) + 1) // (POSITIONS // GAMES_PER_CONFIG))
        steps = list(range(0, len(actions) + 1, every))
        if steps[-1] != len(actions):
            steps.append(len(actions))  # the end of the game too
        games.append(
            {"seed": seed, "actions": actions, "tensors": replay_digests(game, seed, actions, steps)}
        )
    return {"length": len(game.new_game(seed=0).observation_tensor(0)), "games": games}


def replay_digests(
    game: gamelib.Game, seed: int, actions: list[str], steps: list[int]
) -> dict[str, list[str]]:
    """Replay ``actions`` and hash every seat's tensor at each of ``steps`` (action counts)."""
    state = game.new_game(seed=seed)
    wanted = set(steps)
    out: dict[str, list[str]] = {}
    for index in range(len(actions) + 1):
        if index in wanted:
            out[str(index)] = [digest(state.observation_tensor(p)) for p in range(game.num_players)]
        if index < len(actions):
            state.apply(actions[index])
    return out


def load_golden() -> dict[str, Any]:
    return json.loads(GOLDEN.read_text())  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("name", "players", "options"), configurations(), ids=[config_id(*c) for c in configurations()]
)
def test_tensors_are_bit_identical_to_the_recorded_ones(
    name: str, players: int, options: dict[str, Any]
) -> None:
    stored = load_golden()[config_id(name, players, options)]
    game = gamelib.make(name, players=players, options=options)
    assert len(game.new_game(seed=0).observation_tensor(0)) == stored["length"]
    for entry in stored["games"]:
        steps = sorted(int(s) for s in entry["tensors"])
        got = replay_digests(game, entry["seed"], entry["actions"], steps)
        for step in steps:
            assert got[str(step)] == entry["tensors"][str(step)], (
                f"seed {entry['seed']}, after {step} actions"
            )


def write_golden() -> None:
    data = {config_id(*c): record_config(*c) for c in configurations()}
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n")
    print(f"wrote {GOLDEN} ({GOLDEN.stat().st_size} bytes, {len(data)} configurations)")


if __name__ == "__main__":
    write_golden()
