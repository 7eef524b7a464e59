"""What a tournament worker pays to build its game: a game made to be played does not read its
options' docs from source (:func:`gamelib.core.options.option_specs` reads them on demand)."""

from __future__ import annotations

import subprocess
import sys

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


PLAY = """
import random, sys
import gamelib
from gamelib.core.play import random_playout
game = gamelib.make({name!r})
for seed in range(3):
    random_playout(game.new_game(seed=seed), random.Random(seed))
print(sorted(m for m in ("html", "gamelib.core.encoding") if m in sys.modules))
"""


@pytest.mark.parametrize("name", gamelib.registered_games())
def test_playing_imports_no_observation_encoding(name: str) -> None:
    """The observation tensors' encoding (and html, for its Jupyter table) are for learning
    agents: a tournament worker's game never reads them (Get on Board imported both: 5-9 ms)."""
    out = subprocess.run(
        [sys.executable, "-c", PLAY.format(name=name)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    assert out.strip() == "[]", out


def test_local_cluster_workers_import_the_executors_as_they_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker of :func:`~gamelib.analysis.executors.local_cluster` imports the executors when it
    starts, not inside a tournament's first task; a caller's own options still win."""
    distributed = pytest.importorskip("distributed")
    from gamelib.analysis import executors

    made: list[dict[str, object]] = []
    monkeypatch.setattr(distributed, "LocalCluster", lambda **settings: made.append(settings))
    executors.local_cluster(2)
    executors.local_cluster(1, preload=[], dashboard_address=":0")
    assert made[0]["preload"] == ["gamelib.analysis.executors"] and made[0]["n_workers"] == 2
    assert made[0]["threads_per_worker"] == 1 and made[0]["processes"] is True
    assert made[1]["preload"] == [] and made[1]["dashboard_address"] == ":0"
