"""Get on Board's prefilled ``fits`` and ``next_sticks`` tables (:meth:`CityMap.fill_fits`, filled
from a shape's last stick back) hold exactly what the recursive memos make, key for key."""

from __future__ import annotations

import pytest

from gamelib.getonboard.board import NO_HEADING, _data, load_map, load_tables, map_from_data


@pytest.mark.parametrize("city", ["rome", "paris"])
def test_prefilled_tables_are_the_recursive_memos(city: str) -> None:
    shapes = load_tables().shapes
    recursive = map_from_data(_data(f"{city}.json"), city)
    for node in range(recursive.num_nodes):
        for heading in (NO_HEADING, 0, 1, 2, 3):
            for shape in shapes:
                for step in range(shape.sticks):
                    for boxes in range(shape.sticks - step + 1):
                        recursive.fits(node, heading, shape.junctions, step, shape.sticks, boxes)
    filled = map_from_data(_data(f"{city}.json"), city)
    filled.fill_fits(shapes)
    assert filled._fit_cache == recursive._fit_cache
    assert filled._next_cache == recursive._next_cache
    assert any(filled._fit_cache.values()) and not all(filled._fit_cache.values())
    loaded = load_map(city)
    assert loaded._fit_cache == recursive._fit_cache  # what the games read


def test_playing_never_imports_networkx_and_the_graph_is_the_network() -> None:
    """The map is read into plain dicts; ``CityMap.graph`` is the same network in networkx, built
    on first use (a new tournament worker no longer pays ~140 ms to import networkx)."""
    import subprocess
    import sys

    code = (
        "import sys, gamelib\n"
        "for n in (2, 5):\n"
        "    gamelib.tournament('getonboard', ['random'] * n, games=3, players=n, progress=False)\n"
        "print('networkx' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    import networkx as nx

    for city in ("rome", "paris"):
        board = load_map(city)
        graph = board.graph
        assert graph is board.graph and graph.graph["city"] == city
        assert list(graph) == list(board.network.nodes) and nx.is_connected(graph)
        assert graph.number_of_edges() == board.num_sections == len(list(board.network.edges()))
        assert list(graph.edges(data="colour")) == [(a, b, d["colour"]) for a, b, d in board.network.edges()]
        for node in range(board.num_nodes):
            name = board.names[node]
            assert graph.nodes[name]["pos"] == board.pos[node]
            assert {board.names[v] for v in board.neighbour[node] if v >= 0} == set(graph[name])


def test_stick_costs_are_computed_per_step_not_per_node(monkeypatch: pytest.MonkeyPatch) -> None:
    """A step's stick costs depend on heading and direction only: 20 a step, not one per node,
    heading and direction (Rome's fill: 12,480 calls before, 260 now)."""
    from gamelib.getonboard import board

    calls: list[int] = []
    real = board.junction_cost

    def counted(*args: object) -> int:
        calls.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(board, "junction_cost", counted)
    shapes = load_tables().shapes
    filled = map_from_data(_data("rome.json"), "rome")  # its checks lay sticks too
    calls.clear()
    filled.fill_fits(shapes)
    steps = sum(sticks for _, sticks in dict.fromkeys((s.junctions, s.sticks) for s in shapes))
    assert len(calls) == 20 * steps
    assert filled._fit_cache == load_map("rome")._fit_cache
