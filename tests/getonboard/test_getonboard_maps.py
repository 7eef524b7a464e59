"""Both maps and the sheet tables are validated on load: the published facts, and clear errors."""

from __future__ import annotations

import copy
import json
from importlib import resources

import networkx as nx
import pytest

from gamelib.getonboard.board import (
    PUBLISHED,
    MapError,
    completable,
    load_map,
    load_tables,
    map_from_data,
    tables_from_data,
)


def raw(name: str) -> dict:
    text = resources.files("gamelib.getonboard").joinpath("data", name).read_text(encoding="utf-8")
    return json.loads(text)


@pytest.mark.parametrize("city", ["rome", "paris"])
def test_published_statistics(city: str) -> None:
    board = load_map(city)
    facts = PUBLISHED[city]
    assert board.num_nodes == facts["intersections"] and board.num_sections == facts["sections"]
    assert sorted(board.starts) == list(range(1, facts["starts"] + 1))
    assert sorted(board.letters) == list("abcdefghijklmno")
    assert board.width <= 11 and board.height <= 9
    assert nx.is_connected(board.graph)
    assert all(board.features[n] for n in range(board.num_nodes))
    assert 0 < len(board.river) <= 10  # a few blocked sections
    # adjacency tuples agree with the graph
    for node in range(board.num_nodes):
        nbrs = {board.names[v] for v in board.neighbour[node] if v >= 0}
        assert nbrs == set(board.graph[board.names[node]])


def test_rome_has_two_section_colours_paris_none() -> None:
    rome, paris = load_map("rome"), load_map("paris")
    assert set(rome.section_colour) == {0, 1}
    assert set(paris.section_colour) == {-1}


@pytest.mark.parametrize("city", ["rome", "paris"])
def test_every_start_is_usable(city: str) -> None:
    board = load_map(city)
    for node in board.starts.values():
        for shape in load_tables().shapes:
            assert completable(board, node, -1, shape.junctions, 0, shape.sticks, 0, 1 << node)


def broken(city: str, edit) -> dict:  # type: ignore[no-untyped-def]
    data = copy.deepcopy(raw(f"{city}.json"))
    edit(data)
    return data


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["intersections"].pop(), "intersections"),
        (lambda d: d["intersections"][0]["features"].clear(), "no feature"),
        (lambda d: d["intersections"][0]["features"].__setitem__(0, "casino"), "unknown feature"),
        (lambda d: d["river"].pop(), "sections"),
        (lambda d: d["river"].append(["A3", "C3"]), "not grid neighbours"),
        (lambda d: d["intersections"].append(dict(d["intersections"][0])), "listed twice"),
        (lambda d: d["intersections"][0].__setitem__("at", "Z9"), "column A-K"),
        (lambda d: d["section_colours"]["amber"].pop(), "without a colour"),
        (lambda d: d.__setitem__("width", 12), "at most"),
    ],
)
def test_broken_rome_is_refused(edit, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(MapError, match=message):
        map_from_data(broken("rome", edit), "rome")


def test_start_must_be_an_entrance_and_letters_unique() -> None:
    def no_entrance(d: dict) -> None:
        for item in d["intersections"]:
            if item.get("start") == 1:
                item["features"] = ["granny"]

    with pytest.raises(MapError, match="metro entrance"):
        map_from_data(broken("paris", no_entrance), "paris")

    def twice(d: dict) -> None:
        letters = [i for i in d["intersections"] if "letter" in i]
        letters[1]["letter"] = letters[0]["letter"]

    with pytest.raises(MapError, match="used twice"):
        map_from_data(broken("paris", twice), "paris")
    assert map_from_data(raw("paris.json"), "paris").num_nodes == 96  # the intact file loads


def test_tables_are_checked_against_the_published_facts() -> None:
    sheets, objectives = raw("sheets.json"), raw("objectives.json")
    tables = tables_from_data(sheets, objectives)
    assert tables.transfer_track[-1] == 10 and len(tables.transfer_track) == 19
    bad = copy.deepcopy(sheets)
    bad["turn_penalties"] = [1, 1, 1, 1, 1]
    with pytest.raises(MapError, match="turn_penalties"):
        tables_from_data(bad, objectives)
    bad = copy.deepcopy(sheets)
    bad["sheets"][1] = bad["sheets"][0]
    with pytest.raises(MapError, match="different cyclic shift"):
        tables_from_data(bad, objectives)
    bad_obj = copy.deepcopy(objectives)
    bad_obj["personal"]["rome"][0] = "abz"
    with pytest.raises(MapError, match="3 distinct letters"):
        tables_from_data(sheets, bad_obj)


def test_unknown_city() -> None:
    with pytest.raises(MapError, match="unknown city"):
        load_map("london")
