"""What a tournament worker pays to build its game: a game made to be played does not read its
options' docs from source (:func:`gamelib.core.options.option_specs` reads them on demand)."""

from __future__ import annotations

import pytest

import gamelib
from gamelib.core import options


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_making_a_game_reads_no_option_docs(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(cls: type) -> dict[str, str]:
        raise AssertionError(f"{cls.__name__}'s docs were read to make a game")

    cls = gamelib.core.registry.game_class(name).Options
    monkeypatch.setattr(options, "_SPECS", {})
    monkeypatch.setattr(options, "_RULES", {})
    monkeypatch.setattr(options, "_field_docs", refuse)
    game = gamelib.make(name)
    options.build_options(cls, game.option_dict(), name)  # checks every value, no docs
    with pytest.raises(gamelib.OptionError):
        options.build_options(cls, {"no such option": 1}, name)


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_the_listed_options_keep_their_docs(name: str) -> None:
    listed = gamelib.options(name)
    assert listed and all(spec.doc for spec in listed)
    rules = options._rules(gamelib.core.registry.game_class(name).Options)
    assert [(s.name, s.default, s.type, s.choices, s.range) for s in listed] == [
        (s.name, s.default, s.type, s.choices, s.range) for s in rules
    ]
