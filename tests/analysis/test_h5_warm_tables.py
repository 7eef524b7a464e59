"""Get on Board's memo tables belong to the process (one set per city and ``shape_fit``): a new game
of a configuration already played starts warm, and the games stay the same move for move."""

from __future__ import annotations

import gamelib
from gamelib.agents.registry import make_agent
from gamelib.getonboard import rules


def histories(game: gamelib.Game, seeds: range) -> list[list[str]]:
    agents = [make_agent("random", game.name) for _ in range(game.num_players)]
    return [[str(a) for a in gamelib.play(game, agents, seed=s).history] for s in seeds]


def test_games_of_one_configuration_share_the_memos() -> None:
    first = gamelib.make("getonboard", players=3)
    again = gamelib.make("getonboard", players=3, options={"fluid_bonus": "always"})
    paris = gamelib.make("getonboard", players=5)
    per_stick = gamelib.make("getonboard", players=3, options={"shape_fit": "per-stick"})
    for name in ("lay_table", "open_table", "bonus_table", "pile_table"):
        assert getattr(first, name) is getattr(again, name)
        assert getattr(first, name) is not getattr(paris, name)
    assert first.lay_table is not per_stick.lay_table  # what a shape allows depends on shape_fit
    histories(first, range(3))
    assert first.lay_table and first.pile_table  # filled by play, seen by the other game
    assert len(again.lay_table) == len(first.lay_table)


def test_warm_memos_play_the_same_games_as_fresh_ones() -> None:
    configurations = [
        {"players": 3},
        {"players": 5},
        {"players": 2, "options": {"shape_fit": "per-stick", "loops": "forced-only"}},
        {"players": 1},
    ]
    for configuration in configurations:
        rules._MEMOS.clear()
        fresh = histories(gamelib.make("getonboard", **configuration), range(20))
        warm_game = gamelib.make("getonboard", **configuration)
        assert warm_game.lay_table  # the fresh game's entries
        size = len(warm_game.pile_table)
        assert histories(warm_game, range(20)) == fresh
        assert len(warm_game.pile_table) == size  # the same games meet no new pile state


def test_the_memos_share_their_answers() -> None:
    """The lay memo's answers are the few distinct ones (by node and directions allowed), and a
    pile state's chances are tuples shared with every other state holding that card and count."""
    rules._MEMOS.clear()
    game = gamelib.make("getonboard", players=3)
    histories(game, range(30))
    distinct = {id(value) for value in game.lay_table.values()}
    assert len(distinct) == len(game.lay_values) < len(game.lay_table) / 3
    for value in game.lay_table.values():
        moves, gos, union = value
        assert gos == [go for go, _ in moves] and union == sum({bit for _, bit in moves})
    pairs = [chance for chances, _ in game.pile_table.values() for chance in chances]
    assert len({id(pair) for pair in pairs}) < len(pairs) / 3
    for chances, cards in game.pile_table.values():
        assert [card for card, _ in chances] == cards
        assert all(p == 1.0 / len(cards) for _, p in chances)
