"""Every game's data files are read and checked by the same core helpers (gamelib.core.data)."""

from __future__ import annotations

import pytest

from gamelib.core.data import DataError, entries, field, load_json, require
from gamelib.delanopolis.board import content
from gamelib.getonboard.board import MapError, load_tables
from gamelib.passante.board import WishDataError, load_wishes


def test_every_game_loads_its_content_through_core() -> None:
    assert len(load_wishes()) == 38 and len(content().terrains) == 12 and len(load_tables().tickets) == 12
    assert issubclass(MapError, DataError) and issubclass(WishDataError, DataError)


def test_a_missing_file_names_the_file_and_the_package() -> None:
    with pytest.raises(MapError, match=r"data file nowhere\.json is missing from gamelib\.getonboard"):
        load_json("gamelib.getonboard", "nowhere.json", MapError)


def test_words_are_json_files_too() -> None:
    assert "en" in load_json("gamelib.fugitive", "words.json")


@pytest.mark.parametrize(
    ("raw", "count", "message"),
    [
        ({"a": 1}, None, "cards: expected a non-empty list, got dict"),
        ([], None, "cards: expected a non-empty list, got 0 entries"),
        ([{}], 2, "cards: expected a list of 2 entries, got 1 entries"),
        ([{}, 3], 2, r"cards\[1\]: expected an object"),
    ],
)
def test_entries_name_the_list_and_the_entry(raw: object, count: int | None, message: str) -> None:
    with pytest.raises(DataError, match=message):
        entries(raw, "cards", count)


@pytest.mark.parametrize(
    ("entry", "kind", "message"),
    [
        ({}, int, "card 3: missing field 'number'"),
        ({"number": True}, int, "field 'number' must be int, got True"),
        ({"number": "7"}, (int, float), "field 'number' must be int or float, got '7'"),
        ({"number": "  "}, str, "field 'number' is empty"),
    ],
)
def test_a_field_is_checked_by_name(
    entry: dict[str, object], kind: type | tuple[type, ...], message: str
) -> None:
    with pytest.raises(DataError, match=message):
        field(entry, "number", kind, "card 3")


def test_legal_fields_and_requirements_pass() -> None:
    assert field({"number": 7}, "number", int, "card 3") == 7
    assert field({"ok": True}, "ok", bool, "card 3") is True
    assert [where for where, _ in entries([{}, {}], "cards", 2)] == ["cards[0]", "cards[1]"]
    require(True, "cards", "never said")
    with pytest.raises(WishDataError, match="cards: six needed"):
        require(False, "cards", "six needed", WishDataError)
