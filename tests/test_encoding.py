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
from game_configs import configurations as game_configurations

import gamelib
from gamelib.core.encoding import Block, Encoding, Piece, bit_floats, encoding_of
from gamelib.core.play import random_playout

GOLDEN = Path(__file__).parent / "data" / "observation_tensors.json"
GAMES = ("fugitive", "delanopolis", "getonboard", "passante")
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "fugitive": [{"edition": 2, "manhunt": "immediate", "escape_sprints": "hidden"}],
    "delanopolis": [
        {"placement": "sum", "refuge_on_double": True, "mayor_bid": "open_first"},
        {"refuges": 0, "chain_auctions": True, "boost_timing": "any_roll", "bid_step": 1},
    ],
    "getonboard": [{"city": "paris", "free_city": True}],
    "passante": [{"open_hands": True}, {"table_talk": True}],
}
POSITIONS = 50
GAMES_PER_CONFIG = 2


def digest(tensor: list[float]) -> str:
    """The tensor's exact bits (IEEE doubles, little-endian), hashed."""
    return hashlib.sha256(struct.pack(f"<{len(tensor)}d", *tensor)).hexdigest()[:20]


def configurations() -> list[tuple[str, int, dict[str, Any]]]:
    return game_configurations(GAMES, VARIANTS)


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


# ---------------------------------------------------------------------------- the pieces of each game
def sample_positions(game: gamelib.Game, count: int = 12) -> list[gamelib.State]:
    final = random_playout(game.new_game(seed=3), random.Random(3))
    state, every, out = game.new_game(seed=3), max(1, len(final.history) // count), []
    for index, action in enumerate(final.history):
        if index % every == 0:
            out.append(state.clone())
        state.apply(action)
    return [*out, state]


@pytest.mark.parametrize(
    ("name", "players", "options"), configurations(), ids=[config_id(*c) for c in configurations()]
)
def test_every_piece_writes_its_own_slice(name: str, players: int, options: dict[str, Any]) -> None:
    game = gamelib.make(name, players=players, options=options)
    encoding = encoding_of(game)
    for state in sample_positions(game):
        for player in range(players):
            tensor = state.observation_tensor(player)
            assert len(tensor) == len(encoding)
            encoding.check(state, player)
            for slot in encoding.slots:
                assert encoding.encode_piece(slot, state, player) == encoding.piece(slot, tensor)


def test_each_tensor_game_declares_its_pieces_or_says_it_does_not() -> None:
    for name in gamelib.registered_games():
        game = gamelib.make(name)
        if not game.info.has("observation_tensor"):
            continue
        try:
            encoding = encoding_of(game)
        except NotImplementedError as exc:
            assert "named pieces" in str(exc)
            continue
        assert len(encoding) == len(game.new_game(seed=0).observation_tensor(0))
        text = str(encoding.describe())
        assert all(slot in text for slot in encoding.slots)
        assert "<table>" in encoding.describe()._repr_html_()


def test_the_game_size_functions_are_the_encodings_sizes() -> None:
    from gamelib.delanopolis.encoding import delanopolis_tensor_size
    from gamelib.getonboard.rules import GetOnBoardGame, getonboard_tensor_size
    from gamelib.passante.encoding import passante_tensor_size

    assert len(encoding_of(gamelib.make("fugitive"))) == 318
    for n in range(3, 7):
        assert (
            delanopolis_tensor_size(n)
            == 42 * n + 57
            == len(encoding_of(gamelib.make("delanopolis", players=n)))
        )
    game = gamelib.make("getonboard", players=4)
    assert isinstance(game, GetOnBoardGame)
    assert getonboard_tensor_size(game) == len(encoding_of(game))
    for n in range(1, 5):
        assert (
            passante_tensor_size(n) == 358 + 76 * n == len(encoding_of(gamelib.make("passante", players=n)))
        )


def test_fugitive_pieces_read_back() -> None:
    game = gamelib.make("fugitive")
    state = random_playout(game.new_game(seed=1), random.Random(1), max_actions=60)
    encoding = encoding_of(game)
    tensor = state.observation_tensor(0)
    hand = [card for card, row in enumerate(encoding.piece("cards", tensor)) if row[0]]  # type: ignore[index]
    assert hand == sorted(state.observation(0).fugitive_hand)
    assert encoding.piece("me", tensor) == [1.0, 0.0]
    assert encoding.piece("decks", tensor) == [size / 14 for size in state.deck_sizes]  # type: ignore[attr-defined]
    assert encoding.where(encoding.offset("phase") + 2) == "phase[2]"


def test_passante_pieces_read_back() -> None:
    game = gamelib.make("passante", players=3)
    state = random_playout(game.new_game(seed=2), random.Random(2), max_actions=40)
    encoding = encoding_of(game)
    tensor = state.observation_tensor(1)
    hands = encoding.piece("hands", tensor)
    assert [[w + 1 for w, x in enumerate(row) if x] for row in hands] == [  # type: ignore[arg-type]
        [],
        sorted(state.observation(1).hands[1]),  # type: ignore[attr-defined]
        [],
    ]
    assert encoding.piece("me", tensor) == [0.0, 1.0, 0.0]
    where = [row.index(1.0) for row in encoding.piece("characters", tensor)]  # type: ignore[union-attr]
    assert where == list(state.pos)  # type: ignore[attr-defined]
    assert encoding.where(encoding.offset("player.card") + 16 + 3) == "player[1].card[3]"


# ---------------------------------------------------------------------------- core.encoding itself
def toy() -> Encoding[dict[str, Any]]:
    def hand(state: dict[str, Any], player: int, out: list[float], at: int) -> None:
        for card in state["hands"][player]:
            out[at + card] = 1.0

    def score(state: dict[str, Any], player: int, out: list[float], at: range) -> None:
        for seat, i in enumerate(at):
            out[i] = state["scores"][seat] / 10

    return Encoding(
        "toy",
        [
            Piece("hand", 4, hand, doc="cards in my hand"),
            Block(
                "seat",
                2,
                [Piece("score", 1, score), Piece("me", 1, values=lambda s, p, q: [float(p == q)])],
            ),
            Piece("grid", (2, 3), values=lambda s, p: range(6), columns=("a", "b", "c")),
        ],
    )


TOY_STATE = {"hands": [[0, 2], [3]], "scores": [5, 10]}


def test_offsets_sizes_and_reading_back() -> None:
    enc = toy()
    assert len(enc) == enc.size == 4 + 2 * 2 + 6
    assert [enc.offset(n) for n in enc.slots] == [0, 4, 5, 8]
    tensor = enc.encode(TOY_STATE, 1)
    assert tensor == [0, 0, 0, 1, 0.5, 0, 1, 1, 0, 1, 2, 3, 4, 5]
    assert enc.piece("hand", tensor) == [0, 0, 0, 1]
    assert enc.piece("seat.score", tensor) == [[0.5], [1.0]]
    assert enc.piece("seat[1].me", tensor) == [1.0]
    assert enc.piece("grid", tensor) == [[0, 1, 2], [3, 4, 5]]
    assert enc.encode_piece("seat.me", TOY_STATE, 0) == [[1.0], [0.0]]
    assert enc.where(7) == "seat[1].me[0]"
    enc.check(TOY_STATE, 0)
    with pytest.raises(KeyError, match="no piece 'nope'"):
        enc.piece("nope", tensor)
    with pytest.raises(IndexError):
        enc.piece("seat[2].me", tensor)
    with pytest.raises(ValueError, match="14 floats long"):
        enc.piece("hand", tensor[:-1])


def test_describe_is_a_table() -> None:
    table = toy().describe()
    lines = str(table).splitlines()
    assert lines[0] == "toy: 14 floats"
    assert lines[1].split() == ["piece", "offset", "size", "shape", "stride", "doc"]
    assert any(line.split()[:3] == ["grid", "8", "6"] and "(a, b, c)" in line for line in lines)
    assert any(line.split()[:2] == ["seat.me", "5"] and line.split()[4] == "2" for line in lines)
    assert table._repr_html_().count("<tr>") == len(lines) - 1


def test_a_piece_that_writes_outside_its_slice_is_named() -> None:
    def sloppy(state: object, player: int, out: list[float], at: int) -> None:
        out[at + 2] = 1.0  # one past its size of 2

    enc: Encoding[object] = Encoding(
        "bad", [Piece("first", 2, sloppy), Piece("second", 2, values=lambda s, p: [0, 0])]
    )
    with pytest.raises(ValueError, match="'first' wrote outside its slice, at second\\[0\\]"):
        enc.check(None, 0)


def test_a_values_piece_of_the_wrong_length_is_named() -> None:
    enc: Encoding[object] = Encoding("bad", [Piece("short", 3, values=lambda s, p: [1.0])])
    with pytest.raises(ValueError, match="piece 'short' wrote -2 floats"):
        enc.encode(None, 0)


def test_declaration_errors() -> None:
    with pytest.raises(ValueError, match="exactly one of"):
        Piece("x", 1)
    with pytest.raises(ValueError, match="identifier"):
        Piece("two words", 1, values=lambda s, p: [0])
    with pytest.raises(ValueError, match="column names"):
        Piece("x", (2, 3), values=lambda s, p: [0] * 6, columns=("a",))
    with pytest.raises(ValueError, match="two pieces are named 'x'"):
        Encoding("dup", [Piece("x", 1, values=lambda s, p: [0]), Piece("x", 1, values=lambda s, p: [0])])


def test_bits_match_the_bit_loop() -> None:
    rng = random.Random(0)
    for size in (0, 1, 7, 8, 9, 43, 120):
        for _ in range(20):
            mask = rng.getrandbits(size + 5)
            assert bit_floats(mask, size) == [float(mask >> k & 1) for k in range(size)]


def test_docstring_examples() -> None:
    import doctest

    import gamelib.core.encoding

    result = doctest.testmod(gamelib.core.encoding)
    assert result.attempted > 0 and result.failed == 0


def write_golden() -> None:
    data = {config_id(*c): record_config(*c) for c in configurations()}
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n")
    print(f"wrote {GOLDEN} ({GOLDEN.stat().st_size} bytes, {len(data)} configurations)")


if __name__ == "__main__":
    write_golden()
