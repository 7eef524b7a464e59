"""The class pages driven in Python: join, play, refusals in the page's language, and what a
student's page holds (its widget state) carries nothing of another seat."""

from __future__ import annotations

import random
from typing import Any

import ipywidgets as W
import pytest

import gamelib
import gamelib.room
from gamelib.core.i18n import using_language
from gamelib_widgets.pictures import figure_png
from gamelib_widgets.room import JoinPage, SeatPanel
from gamelib_widgets.room_dashboard import THUMBNAIL_DPI, Dashboard


def widget_texts(root: W.Widget) -> list[str]:
    """Every string in the state of ``root`` and the widgets below it (what the browser receives)."""
    texts: list[str] = []
    stack = [root]
    while stack:
        widget = stack.pop()
        for value in widget.get_state().values():
            if isinstance(value, str):
                texts.append(value)
            elif isinstance(value, (list, tuple)):
                texts.extend(v for v in value if isinstance(v, str))
        stack.extend(getattr(widget, "children", ()))
    return texts


def seated_pair(room: gamelib.room.Room, store_url: str) -> tuple[JoinPage, JoinPage]:
    room.configure("fugitive")
    pages = []
    for name in ["Ana", "Bob"]:
        page = JoinPage(store_url, code=room.code.lower())
        page.name.value = name
        assert page.join()
        pages.append(page)
    return pages[0], pages[1]


def test_two_students_play_through_their_pages(room: gamelib.room.Room, store_url: str) -> None:
    ana, bob = seated_pair(room, store_url)
    assert ana.panel is not None and bob.panel is not None
    rng = random.Random(0)
    for _ in range(30):
        for page in (ana, bob):
            panel = page.panel
            assert panel is not None
            panel.refresh()
            buttons = [b for b in panel.moves.children if isinstance(b, W.Button) and b.description != "Play"]
            if buttons:
                assert rng.choice(buttons).click() is None
            elif panel.seat.view().legal:
                panel.play(rng.choice(panel.seat.view().legal))
    ply = room.state(1).history
    assert len(ply) > 10
    waiting = bob if ana.panel.seat.view().my_turn else ana
    waiting.panel.refresh()
    assert waiting.panel.status.value.startswith("<b>waiting for")


def test_refusals_are_clear_in_the_pages_language(room: gamelib.room.Room, store_url: str) -> None:
    ana, bob = seated_pair(room, store_url)
    assert ana.panel is not None and bob.panel is not None
    mover, waiter = (ana.panel, bob.panel) if ana.panel.seat.view().my_turn else (bob.panel, ana.panel)
    mover.refresh(), waiter.refresh()  # what the poller does on a page
    before = len(room.state(1).history)
    assert not waiter.play(mover.seat.view().legal[0])
    assert "not your turn" in waiter.notice.value
    with using_language("fr"):
        assert not mover.play("<b>nonsense</b>")
        assert "pas permis" in mover.notice.value and "<b>" not in mover.notice.value
    assert len(room.state(1).history) == before
    page = JoinPage(store_url, code="ZZZZZZ9")
    page.name.value = "Chloé"
    assert not page.join() and "No room has the code ZZZZZZ9" in page.notice.value
    with using_language("fr"):
        assert not page.join() and "Aucune salle" in page.notice.value
    page = JoinPage(store_url, code=room.code)
    page.name.value = " "
    assert not page.join() and "Type your name" in page.notice.value


def test_a_student_comes_back_with_the_token_link(room: gamelib.room.Room, store_url: str) -> None:
    ana, _ = seated_pair(room, store_url)
    assert ana.panel is not None
    again = JoinPage(store_url, code=room.code, token=ana.panel.seat.token)
    assert again.panel is not None and again.panel.seat.player == ana.panel.seat.player
    forged = JoinPage(store_url, code=room.code, token="x" * 24)
    assert forged.panel is None and "is not one of this room" in forged.notice.value


@pytest.mark.parametrize("game", ["fugitive", "passante"])
def test_a_page_holds_nothing_of_another_seat(store_url: str, game: str) -> None:
    room = gamelib.room.open_room(store_url, gamelib.room.new_code())
    seats = [room.join(game, f"s{i}") for i in range(gamelib.make(game).num_players)]
    rng = random.Random(4)
    for _ in range(25):
        for seat in seats:
            view = seat.view()
            if view.legal:
                seat.apply(rng.choice(view.legal), ply=view.ply)
    truth = room.state(1)
    for seat in seats:
        panel = SeatPanel(seat)
        texts = "\n".join(widget_texts(panel))
        mine = truth.public_history(seat.player)
        hidden = {str(a) for a, seen in zip(truth.history, mine, strict=True) if str(a) != seen}
        hidden -= set(mine)  # a notation this seat also saw elsewhere is not a secret
        assert not [h for h in hidden if h in texts.split(" · ")]
        world = truth.determinize(seat.player, rng)
        picture = figure_png(world.draw(perspective=seat.player), panel.dpi)
        assert picture == panel.board.value  # the picture sent is the same in every world it may be
        panel.close()


def test_the_dashboard_opens_a_room_and_follows_its_tables(store_url: str) -> None:
    dashboard = Dashboard(store_url, join_url="http://school:8866/voila/render/join.ipynb")
    dashboard.game.value = "getonboard"
    dashboard.players.value = 2
    dashboard.options.value = "[1]"
    assert not dashboard.open_room() and "JSON object" in dashboard.notice.value
    dashboard.options.value = "{}"
    assert dashboard.open_room()
    room = dashboard.room
    assert room is not None and "<svg" in dashboard.banner.value and room.code in dashboard.banner.value
    seats = [room.join("getonboard", n) for n in ["Ana", "Bob", "Chloé"]]
    dashboard.refresh()
    assert len(dashboard.grid.children) == 2
    assert dashboard.start(2)
    while not all(s.view().finished for s in seats):
        for seat in seats:
            view = seat.view()
            if view.legal:
                seat.apply(view.legal[0], ply=view.ply)
    dashboard.refresh()
    card: Any = dashboard.cards[1]
    assert "Result" in card.text.value and card.thumbnail.value
    dashboard.show_results()
    summary, chart, export = dashboard.results.children
    assert "win_rate" in summary.value and chart.value and "download=" in export.value
    dashboard.against_agent.value, dashboard.against_seat.value = "random", 0
    dashboard.show_against(games=4)
    assert len(dashboard.results.children) == 5
    assert not dashboard._do(lambda r: r.move("Nobody", 1, 0))
    dashboard.close()


@pytest.mark.parametrize("game", ["fugitive", "passante", "delanopolis"])
def test_the_dashboard_thumbnails_hold_no_secret(store_url: str, game: str) -> None:
    """A table in play is drawn publicly: the same picture in every world a seat cannot tell from
    the real one, and not the omniscient picture."""
    dashboard = Dashboard(store_url, join_url="http://school:8866/voila/render/join.ipynb")
    dashboard.game.value = game
    dashboard.options.value = "{}"
    assert dashboard.open_room()
    room = dashboard.room
    assert room is not None
    seats = [room.join(game, f"s{i}") for i in range(dashboard.players.value)]
    rng = random.Random(5)
    for _ in range(12):
        for seat in seats:
            view = seat.view()
            if view.legal:
                seat.apply(rng.choice(view.legal), ply=view.ply)
    dashboard.refresh()
    card: Any = dashboard.cards[1]
    truth = room.state(1)
    assert not truth.is_terminal() and card.thumbnail in card.children
    for seat in seats:
        world = truth.determinize(seat.player, rng)
        assert figure_png(world.draw(perspective=gamelib.PUBLIC), THUMBNAIL_DPI) == card.thumbnail.value
    if game != "delanopolis":  # hands are always secret (Delanopolis only hides bids being placed)
        assert figure_png(truth.draw(), THUMBNAIL_DPI) != card.thumbnail.value
    dashboard.close()


def test_every_word_a_student_reads_is_in_french_too() -> None:
    from gamelib_widgets.room import WORDS

    assert WORDS.missing("fr") == set()
    assert set(WORDS.table["fr"]) <= WORDS.keys()
