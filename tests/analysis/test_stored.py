"""gamelib.analysis.stored: load-or-compute, provenance in the file, exact verification of a slice."""

from __future__ import annotations

import pytest

import gamelib
from gamelib.analysis import SweepResults
from gamelib.analysis.stored import (
    MARKER,
    experiment,
    load,
    path_of,
    provenance_line,
    read_provenance,
    results_frame,
    split_results,
    verify,
)

pd = pytest.importorskip("pandas")

calls: list[dict] = []


def editions(games: int = 6, seed: int = 5, progress: bool = False):
    calls.append({"games": games, "seed": seed, "progress": progress})
    swept = gamelib.sweep(
        "fugitive",
        option="edition",
        values=[1, 2],
        agents=["random", "first"],
        games=games,
        seed=seed,
        progress=False,
    )
    return results_frame(dict(zip(swept.values, swept.results, strict=True)), key="edition")


def test_compute_save_then_load(tmp_path):
    calls.clear()
    first = experiment("editions", editions, folder=tmp_path, command="make editions")
    assert calls == [{"games": 6, "seed": 5, "progress": True}]
    meta = first.attrs["provenance"]
    assert meta["command"] == "make editions"
    assert meta["params"] == {"games": 6, "seed": 5}
    assert meta["gamelib"] == gamelib.__version__
    assert meta["rows"] == 2 * 6 * 2
    text = path_of("editions", tmp_path).read_text()
    assert text.startswith(MARKER + "\n# {")
    assert read_provenance(path_of("editions", tmp_path)) == meta

    again = experiment("editions", editions, folder=tmp_path)
    assert len(calls) == 1, "a stored experiment is loaded, not computed"
    pd.testing.assert_frame_equal(again, first, check_exact=True)
    assert again.attrs["provenance"] == meta
    assert "games=6" in provenance_line(again) and "make editions" in provenance_line(again)


def test_recompute_repeats_the_stored_parameters(tmp_path):
    calls.clear()
    experiment("editions", editions, folder=tmp_path, params={"games": 4})
    experiment("editions", editions, recompute=True, folder=tmp_path, progress=False)
    assert calls[-1] == {"games": 4, "seed": 5, "progress": False}
    assert load("editions", tmp_path).attrs["provenance"]["params"] == {"games": 4, "seed": 5}


def test_verify_compares_a_slice_exactly(tmp_path):
    experiment("editions", editions, folder=tmp_path, params={"games": 8})
    fresh = verify("editions", editions, tmp_path, games=3)
    assert sorted(fresh["game"].unique()) == [0, 1, 2]
    # a tampered file is caught
    path = path_of("editions", tmp_path)
    frame = load("editions", tmp_path)
    frame.loc[frame.index[0], "return"] += 1
    from gamelib.analysis.stored import write

    write(frame, path, frame.attrs["provenance"])
    with pytest.raises(AssertionError, match="not in the stored file"):
        verify("editions", editions, tmp_path, games=3)
    # another seed is another set of games
    experiment("editions", editions, recompute=True, folder=tmp_path, params={"games": 8})
    with pytest.raises(AssertionError):
        verify("editions", editions, tmp_path, games=3, seed=6)


def test_split_results_rebuilds_the_tournaments(tmp_path):
    swept = gamelib.sweep(
        "fugitive",
        option="edition",
        values=[1, 2],
        agents=["random", "first"],
        games=6,
        seed=5,
        progress=False,
    )
    frame = experiment("editions", editions, folder=tmp_path)
    rebuilt = split_results(frame, lambda e: gamelib.make("fugitive", options={"edition": e}), key="edition")
    assert list(rebuilt) == [1, 2]
    for value, original in zip(swept.values, swept.results, strict=True):
        again = rebuilt[value]
        assert again.agent_names == original.agent_names
        assert again.stats("agent_seat") == original.stats("agent_seat")
        assert again.mean_length == original.mean_length
        assert again.game.options.edition == value
    plotted = SweepResults("edition", list(rebuilt), list(rebuilt.values()))
    assert str(plotted) == str(swept)
    single = split_results(frame[frame["edition"] == 1].drop(columns="edition"), "fugitive")
    assert single.stats() == swept.results[0].stats()


def test_bad_names_and_files(tmp_path):
    with pytest.raises(ValueError):
        path_of("../escape", tmp_path)
    bad = tmp_path / "plain.csv"
    bad.write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="not a gamelib stored experiment"):
        load("plain", tmp_path)
    with pytest.raises(TypeError, match="DataFrame"):
        experiment("nothing", lambda: 3, folder=tmp_path)


def test_compute_by_import_path(tmp_path):
    calls.clear()
    frame = experiment("editions", f"{__name__}:editions", folder=tmp_path, params={"games": 2})
    assert len(calls) == 1 and len(frame) == 2 * 2 * 2
    assert experiment("editions", "no.such.module:nothing", folder=tmp_path).equals(
        frame
    )  # loaded: not imported
    verify("editions", f"{__name__}:editions", tmp_path, games=1)
    with pytest.raises(ValueError, match=r"package\.module:function"):
        experiment("other", "editions", folder=tmp_path)


def test_computed_in_english_whatever_the_language_in_force(tmp_path):
    def seats(progress: bool = False):
        import pandas as pd

        game = gamelib.make("passante", players=2)
        return pd.DataFrame({"role": [game.player_name(p) for p in range(game.num_players)]})

    with gamelib.core.i18n.using_language("fr"):
        frame = experiment("seats", seats, folder=tmp_path)
        assert gamelib.language() == "fr"
    with gamelib.core.i18n.using_language("en"):
        english = list(seats()["role"])
    assert list(frame["role"]) == english
