"""Rule options are declarations: core reads the types for checks and for the public listing."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Annotated, Literal

import numpy as np
import pytest

import gamelib
from gamelib.__main__ import main
from gamelib.core.options import Between, OptionSpec, build_options, check_declared, option_specs


@dataclass(frozen=True)
class ToyOptions:
    """Options of a toy game: one of each kind."""

    size: Annotated[int, Between(2, 9)] = 3
    """Cells per side.

    More words that are not the doc line."""
    rate: Annotated[float, Between(0.0, None)] = 0.5
    """A non-negative rate."""
    mode: Literal["fast", "slow"] = "fast"
    """How it plays."""
    level: Literal[1, 2, 3] = 1
    fair: bool = True
    name: str = "toy"

    def __post_init__(self) -> None:
        check_declared(self)


def test_the_listing_reads_types_defaults_and_docs() -> None:
    specs = {s.name: s for s in option_specs(ToyOptions)}
    assert list(specs) == [f.name for f in dataclasses.fields(ToyOptions)]
    assert specs["size"] == OptionSpec("size", 3, int, None, Between(2, 9), "Cells per side.")
    assert specs["rate"].allowed() == "a number >= 0.0"
    assert specs["mode"].choices == ("fast", "slow") and specs["mode"].type is str
    assert specs["level"].allowed() == "one of [1, 2, 3]" and specs["level"].doc == ""
    assert specs["fair"].allowed() == "a bool" and specs["name"].allowed() == "a string"
    assert specs["size"].as_dict()["low"] == 2


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"size": 1}, "option 'size' must be an int between 2 and 9, got 1"),
        ({"size": 10}, "option 'size' must be an int between 2 and 9, got 10"),
        ({"size": True}, "option 'size' must be an int between 2 and 9, got True"),
        ({"size": 3.0}, "option 'size' must be an int"),
        ({"rate": -0.1}, "option 'rate' must be a number >= 0.0"),
        ({"mode": "FAST"}, "option 'mode' must be one of ['fast', 'slow'], got 'FAST'"),
        ({"level": 4}, "option 'level' must be one of [1, 2, 3], got 4"),
        ({"level": "1"}, "option 'level' must be one of [1, 2, 3], got '1'"),
        ({"fair": 1}, "option 'fair' must be a bool, got 1"),
        ({"name": 5}, "option 'name' must be a string, got 5"),
        (
            {"x" * 5000: 1},
            "unknown rule option(s) 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'… (5000 characters)",
        ),
        ({"size": 10**5000}, "got <an int of 16610 bits>"),
    ],
)
def test_a_value_outside_its_declaration_is_refused_naming_it(given: dict[str, object], message: str) -> None:
    with pytest.raises(gamelib.OptionError) as caught:
        build_options(ToyOptions, given, "toy")
    assert message in str(caught.value)
    assert len(str(caught.value)) < 300


def test_legal_values_and_numpy_numbers_are_taken_as_plain_values() -> None:
    built = build_options(
        ToyOptions,
        {"size": np.int64(9), "rate": np.float32(2), "level": np.int8(3), "fair": np.bool_(False)},
        "toy",
    )
    assert (built.size, built.rate, built.level, built.fair) == (9, 2.0, 3, False)
    assert type(built.size) is int and type(built.rate) is float and type(built.fair) is bool
    assert build_options(ToyOptions, {"size": 2, "rate": 0}, "toy").rate == 0.0


def test_options_built_by_hand_are_held_to_the_declarations() -> None:
    with pytest.raises(ValueError, match="'size' must be an int between 2 and 9"):
        ToyOptions(size=20)
    assert ToyOptions(size=9).size == 9


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_every_game_lists_its_options_and_takes_its_defaults(name: str) -> None:
    specs = gamelib.options(name)
    game = gamelib.make(name)
    assert [s.name for s in specs] == list(game.option_dict())
    for spec in specs:
        assert spec.default == game.option_dict()[spec.name]
        assert spec.check(spec.default, name) == spec.default  # every default is allowed
        for choice in spec.choices or ():
            if choice != spec.default:  # every declared choice is a legal value (alone)
                try:
                    gamelib.make(name, options={spec.name: choice})
                except gamelib.OptionError as exc:  # refused only by a rule across options
                    assert spec.name in str(exc) or "option" in str(exc)
        with pytest.raises(gamelib.OptionError, match=spec.name):
            gamelib.make(name, options={spec.name: object()})


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_numpy_integers_are_taken_for_players_seeds_and_seats(name: str) -> None:
    game = gamelib.make(name, players=np.int64(gamelib.make(name).num_players))
    state = game.new_game(seed=np.int64(7))  # type: ignore[arg-type]
    assert state.seed == 7 and type(state.seed) is int
    assert state.observation(np.int32(0)) == state.observation(0)
    assert gamelib.from_record(state.to_record()) == state
    with pytest.raises(ValueError, match="seat"):
        state.observation(np.int64(game.num_players))
    with pytest.raises(ValueError, match="seed"):
        game.new_game(seed=np.float64(7))  # type: ignore[arg-type]


def test_the_command_line_prints_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    for name in gamelib.registered_games():
        assert name in out
        for spec in gamelib.options(name):
            assert f"{spec.name}={spec.default!r}  ({spec.allowed()})" in out
    assert "max_rounds=100  (an int between 1 and 100000)" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--max-actions", "0"], "--max-actions must be a positive number, got 0"),
        (["--max-actions", "-1"], "--max-actions must be a positive number"),
        (["--games", "0"], "--games must be a positive number"),
        (["--out", "/nonexistent-dir/x.csv"], "--out '/nonexistent-dir/x.csv' cannot be written"),
        (["--records", "/nonexistent-dir/x.jsonl"], "--records '/nonexistent-dir/x.jsonl' cannot be written"),
    ],
)
def test_the_command_line_checks_its_arguments_before_playing(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    played = []
    monkeypatch.setattr(gamelib, "tournament", lambda *a, **k: played.append(1))
    code = main(
        ["tournament", "fugitive", "--agents", "random,random", "--games", "2", "--no-progress", *argv]
    )
    assert code == 2 and message in capsys.readouterr().err
    assert not played  # refused before any game


def test_a_writable_out_path_is_checked_and_left_alone(tmp_path: object) -> None:
    from pathlib import Path

    out = Path(str(tmp_path)) / "games.csv"
    assert (
        main(
            [
                "tournament",
                "fugitive",
                "--agents",
                "random,random",
                "--games",
                "2",
                "--no-progress",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert out.read_text().startswith(("game", "seed", "index"))  # the CSV, written after playing
