"""Every kind of experiment shows in Jupyter as its summary table (one shared way, ShownAsTable),
and as its plain text when pandas cannot make the table."""

from __future__ import annotations

from typing import Any

import pytest

import gamelib
from gamelib.analysis import compare_agents, paired, round_robin
from gamelib.analysis.tournament import ShownAsTable


def experiments() -> list[Any]:
    quick = {"games": 4, "progress": False}
    return [
        gamelib.tournament("fugitive", ["random", "first"], **quick),
        compare_agents("fugitive", ["first", "random"], **quick),
        round_robin("fugitive", ["random", "first", "random"], **quick),
        paired("fugitive", "first", "random", **quick),
        gamelib.sweep("delanopolis", "bid_cap", [0, 60], agents=["random"] * 3, players=3, **quick),
    ]


def test_every_experiment_shows_its_summary_table() -> None:
    for result in experiments():
        assert isinstance(result, ShownAsTable)
        html = result._repr_html_()
        assert "<table" in html, type(result).__name__
    titled = experiments()[0]._repr_html_()
    assert titled.startswith("<p>fugitive: random vs first, 4 games")


def test_without_pandas_the_text_is_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    result = round_robin("fugitive", ["random", "first"], games=2, progress=False)

    def no_pandas(*args: Any, **kwargs: Any) -> Any:
        raise ImportError("no pandas here")

    monkeypatch.setattr(type(result), "summary", no_pandas)
    assert result._repr_html_() == f"<pre>{result}</pre>"
    assert "win rate" in str(result) and "mean return" in str(result)
