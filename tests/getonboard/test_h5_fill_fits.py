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
