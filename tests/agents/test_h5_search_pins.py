"""Seeded searches give the very moves and statistics they gave before the search loop was sped
up (issue 24, goal 3): IS-MCTS on A Une Passante (uniform rollouts, and the cooperative agent's
cut-off ones), MCTS on every game.  The expected figures were recorded at 63c9dba, before any
change to ``gamelib/agents``; a change that alters one draw of the searches' random stream, one
visit or one float fails here."""

from __future__ import annotations

import hashlib
import random

import pytest

import gamelib
from gamelib.agents import ISMCTSAgent, MCTSAgent
from gamelib.core.play import random_playout
from gamelib.passante.agents import cooperative_ismcts


def positions(game: gamelib.Game, count: int) -> list[gamelib.State]:
    """The benchmarks' positions: a random opening of 5-39 actions, a player to move, a choice."""
    found: list[gamelib.State] = []
    seed = 0
    while len(found) < count:
        rng = random.Random(seed)
        state = random_playout(game.new_game(seed=seed), rng, max_actions=rng.randrange(5, 40))
        if not state.is_terminal() and state.current_player >= 0 and len(state.legal_actions()) > 1:
            found.append(state)
        seed += 1
    return found


def fingerprint(agent: object, states: list[gamelib.State]) -> str:
    """Every root statistic (action, visits, value to the last bit) of a seeded search per
    position, the move ``act`` picks and the next draw of its generator."""
    rows = []
    for i, state in enumerate(states):
        stats = agent.analyse(state, state.current_player, random.Random(i))  # type: ignore[attr-defined]
        rows.append(";".join(f"{m.action}:{m.visits}:{m.value!r}" for m in stats))
        rng = random.Random(100 + i)
        move = agent.act(state, state.current_player, rng)  # type: ignore[attr-defined]
        rows.append(f"{move} {rng.random()!r}")
    return hashlib.sha256("\n".join(rows).encode()).hexdigest()[:16]


def test_passante_ismcts_root_statistics_are_pinned() -> None:
    game = gamelib.make("passante")
    state = positions(game, 1)[0]
    stats = ISMCTSAgent(iterations=60).analyse(state, state.current_player, random.Random(0))
    assert [(str(m.action), m.visits) for m in stats][:4] == PASSANTE_TOP
    assert fingerprint(ISMCTSAgent(iterations=60), positions(game, 3)) == PINS["passante ismcts"]


def test_passante_cooperative_ismcts_is_pinned() -> None:
    game = gamelib.make("passante")
    assert fingerprint(cooperative_ismcts(iterations=60), positions(game, 3)) == PINS["passante coop"]


@pytest.mark.parametrize("name", sorted(gamelib.registered_games()))
def test_mcts_is_pinned(name: str) -> None:
    game = gamelib.make(name)
    agent = MCTSAgent(iterations=40, omniscient=not game.info.perfect_information)
    assert fingerprint(agent, positions(game, 2)) == PINS[f"{name} mcts"]


def test_ismcts_on_games_with_secrets_is_pinned() -> None:
    for name in sorted(gamelib.registered_games()):
        game = gamelib.make(name)
        if game.info.perfect_information or name == "fugitive":
            continue  # Fugitive's worlds come from the belief's sampler (its own tests pin it)
        assert fingerprint(ISMCTSAgent(iterations=40), positions(game, 2)) == PINS[f"{name} ismcts 40"], name


PASSANTE_TOP = [
    ("move mendiante ecole", 3),
    ("move institutrice parc", 3),
    ("drive cafe", 3),
    ("move mendiante place", 3),
]
PINS = {
    "passante ismcts": "96062baff638b1cf",
    "passante ismcts 40": "0eb3eba828ee0ec6",
    "passante coop": "f411ead16e8c8d04",
    "delanopolis mcts": "6d7239688c1e473c",
    "delanopolis ismcts 40": "b40744da42368ba6",
    "fugitive mcts": "0d74cfb6aead2af9",
    "getonboard mcts": "c70113d0be107496",
    "passante mcts": "55bb019fbe1ec09c",
}
