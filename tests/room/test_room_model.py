"""gamelib.room on both stores: seating, rejoining, turns, refusals, agents, chance, results."""

from __future__ import annotations

import json
import random

import pytest
from room_support import play_to_end, play_turn

import gamelib
import gamelib.room
from gamelib.core.checks import information_differences
from gamelib.core.play import random_playout
from gamelib.room import (
    NotYourTurn,
    RoomClosed,
    RoomError,
    SeatView,
    StaleMove,
    UnknownRoom,
    UnknownSeat,
    open_room,
)


def log_rows(room: gamelib.room.Room, table: int) -> list[tuple[int, str, str]]:
    return [
        (int(p), a, s)
        for p, a, s in room.store.query(
            "SELECT ply, action, source FROM actions WHERE room = ? AND number = ? ORDER BY ply",
            (room.code, table),
        )
    ]


def test_students_are_seated_in_arrival_order(room: gamelib.room.Room) -> None:
    seats = [room.join("passante", name) for name in ["Ana", "Bob", "Chloé", "Dan", "Eve"]]
    assert [(s.table, s.player) for s in seats] == [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1)]
    tables = room.tables()
    assert [t.started for t in tables] == [True, False]  # table 1 is full, table 2 waits
    assert tables[0].names == ("Ana", "Bob", "Chloé")
    assert tables[1].humans == (True, True, False)
    assert len({s.token for s in seats}) == 5 and all(len(s.token) >= 20 for s in seats)


def test_a_student_comes_back_with_the_token(room: gamelib.room.Room, store_url: str) -> None:
    ana = room.join("getonboard", "Ana")
    room.join("getonboard", "Bob")
    room.join("getonboard", "Chloé")
    again = open_room(store_url, room.code.lower(), create=False).seat(
        ana.token
    )  # another process, same store
    assert (again.table, again.player, again.name) == (1, 0, "Ana")
    assert again.view() == ana.view()


@pytest.mark.parametrize("token", ["", "x" * 30, 42, None, "a" * 500])
def test_a_forged_token_is_refused(room: gamelib.room.Room, token: object) -> None:
    room.join("fugitive", "Ana")
    with pytest.raises(UnknownSeat, match="not"):
        room.seat(token)


def test_another_rooms_token_is_refused(room: gamelib.room.Room, store_url: str) -> None:
    other = open_room(store_url, gamelib.room.new_code())
    theirs = other.join("fugitive", "Zoé")
    with pytest.raises(UnknownSeat, match="not one of this room's seats"):
        room.seat(theirs.token)
    assert other.seat(theirs.token).name == "Zoé"


def test_an_unknown_room_code_is_refused(store_url: str) -> None:
    with pytest.raises(UnknownRoom, match="no room has the code"):
        open_room(store_url, "NOPE" + gamelib.room.new_code(), create=False)
    with pytest.raises(RoomError, match="letters and digits"):
        open_room(store_url, "<script>", create=False)


@pytest.mark.parametrize(
    ("name", "message"), [("   ", "type your name"), ("x" * 31, "at most"), ("a\x00b", "letters")]
)
def test_a_bad_name_is_refused_and_seats_nobody(room: gamelib.room.Room, name: str, message: str) -> None:
    with pytest.raises(RoomError, match=message):
        room.join("fugitive", name)
    assert room.tables() == []


def test_the_room_plays_one_game_with_one_set_of_options(room: gamelib.room.Room) -> None:
    room.configure("delanopolis", players=3)
    with pytest.raises(RoomError, match="this room plays delanopolis"):
        room.join("fugitive", "Ana")
    with pytest.raises(gamelib.OptionError):
        room.join("delanopolis", "Ana", no_such_option=1)
    assert room.join("delanopolis", "Ana").player == 0
    with pytest.raises(RoomError, match="already seated"):
        room.configure("fugitive")


def test_moves_are_refused_cleanly_and_change_nothing(room: gamelib.room.Room) -> None:
    ana, bob = room.join("fugitive", "Ana"), room.join("fugitive", "Bob")
    mover, waiter = (ana, bob) if ana.legal_actions() else (bob, ana)
    ply = mover.ply
    before = log_rows(room, 1)
    assert waiter.legal_actions() == [] and waiter.view().legal == ()
    with pytest.raises(NotYourTurn, match="waiting for"):
        waiter.apply(mover.view().legal[0], ply=ply)
    with pytest.raises(StaleMove, match="not 3"):
        mover.apply(mover.view().legal[0], ply=3)
    with pytest.raises(gamelib.IllegalAction, match="notation"):
        mover.apply("fly to the moon", ply=ply)
    with pytest.raises(RoomError, match="ply must be"):
        mover.apply(mover.view().legal[0], ply="0")  # type: ignore[arg-type]
    assert log_rows(room, 1) == before and mover.ply == ply
    played = mover.apply(mover.view().legal[0], ply=ply)
    assert log_rows(room, 1)[ply] == (ply, str(played), "seat")
    with pytest.raises(StaleMove):  # the same click again, a second later
        mover.apply(str(played), ply=ply)


def test_chance_is_resolved_by_the_room_and_logged(room: gamelib.room.Room) -> None:
    room.join("passante", "Ana")
    room.join("passante", "Bob")
    room.join("passante", "Chloé")
    rows = log_rows(room, 1)
    assert rows and rows[0][2] == "chance"  # the deal was played as soon as the table started
    replay = gamelib.make("passante").new_game(seed=room.state(1).seed)
    for _, action, _ in rows:
        replay.apply(action)
    assert replay == room.state(1)


def test_a_table_started_early_plays_to_the_end_with_agents(room: gamelib.room.Room) -> None:
    room.configure("delanopolis", players=3, agent="random")
    ana = room.join("delanopolis", "Ana")
    assert not ana.view().started and ana.legal_actions() == []
    with pytest.raises(NotYourTurn, match="not started"):
        ana.apply("pass", ply=ana.ply)
    room.start(1)
    assert room.tables()[0].names[1:] == ("random (agent)", "random (agent)")
    play_to_end([ana])
    sources = {s for _, _, s in log_rows(room, 1)}
    assert sources == {"chance", "agent", "seat"}
    with pytest.raises(RoomError, match="no table 9"):
        room.start(9)


def test_the_teacher_moves_a_student_before_the_table_starts(room: gamelib.room.Room) -> None:
    room.configure("passante", players=3)
    ana, bob = room.join("passante", "Ana"), room.join("passante", "Bob")
    room.start(1)
    cleo = room.join("passante", "Chloé")
    assert cleo.table == 2
    with pytest.raises(RoomError, match="has started"):
        room.move("Chloé", 1, 2)
    room.join("passante", "Dan")
    room.move("Chloé", 2, 2)
    assert room.seat(cleo.token).player == 2
    with pytest.raises(RoomError, match="taken"):
        room.move("Chloé", 2, 1)
    with pytest.raises(RoomError, match="between 1 and 3"):
        room.move("Chloé", 2, 7)
    with pytest.raises(RoomError, match="0 students match"):
        room.move("Nobody", 2, 1)
    assert (ana.table, bob.table) == (1, 1)


def test_an_ended_room_takes_no_more_joins_or_moves(room: gamelib.room.Room) -> None:
    ana, _ = room.join("fugitive", "Ana"), room.join("fugitive", "Bob")
    room.end()
    with pytest.raises(RoomClosed):
        room.join("fugitive", "Chloé")
    with pytest.raises(RoomClosed):
        ana.apply("anything", ply=ana.ply)


def test_seat_views_hold_nothing_a_seat_may_not_see(room: gamelib.room.Room) -> None:
    """The core's hidden-information check, over remote views: the view a seat receives is the same
    for the real table and for any world that seat cannot tell apart from it."""
    for game in ["fugitive", "passante"]:
        code_room = open_room(room.store.url, gamelib.room.new_code())
        seats = [code_room.join(game, f"s{i}") for i in range(gamelib.make(game).num_players)]
        rng = random.Random(3)
        for step in range(40):
            for seat in seats:
                play_turn(seat, rng)
            if step % 8:
                continue
            truth = code_room.state(1)
            for seat in seats:
                world = truth.determinize(seat.player, rng)
                assert information_differences(truth, world, seat.player) == []
                names = seat.view().names
                assert SeatView.of(world, 1, seat.player, True, names) == seat.view()


def test_a_class_plays_to_the_end_and_its_results_replay(room: gamelib.room.Room) -> None:
    room.configure("getonboard", players=3, agent="random")
    seats = [room.join("getonboard", name) for name in ["Ana", "Bob", "Chloé", "Dan"]]
    room.start(2)
    play_to_end(seats, seed=5)
    results = room.results()
    frame = results.to_pandas()
    assert len(frame) == 6 and set(frame["agent"]) == {"class", "random"}
    assert list(frame[frame["table"] == 2]["name"]) == ["Dan", "random (agent)", "random (agent)"]
    assert results.tournament.summary().loc["class", "games"] == 4
    records = json.loads(results.to_json())["games"]
    for game in records:
        assert gamelib.from_record(game["record"]) == room.state(game["table"])
    assert results.to_csv().splitlines()[0] == "table,seat,role,name,agent,return,outcome,length,finished"
    ana_seat = results.stat(0)
    assert ana_seat is not None and ana_seat.games == 2


def test_the_class_beside_an_agent() -> None:
    room = open_room("sqlite:///:memory:")
    room.configure("getonboard", players=2, agent="random")
    seats = [room.join("getonboard", n) for n in ["Ana", "Bob"]]
    play_to_end(seats, seed=2)
    table = room.results().against("greedy", seat=0, games=10)
    assert list(table.index) == ["class", "greedy (agent)"]
    assert list(table["games"]) == [1, 10]
    figure = room.results().plot_against("greedy", seat=0, games=4)
    assert figure.axes


def test_the_log_is_the_truth_for_a_fresh_process(room: gamelib.room.Room, store_url: str) -> None:
    seats = [room.join("passante", n) for n in ["Ana", "Bob", "Chloé"]]
    rng = random.Random(1)
    for _ in range(12):
        for seat in seats:
            play_turn(seat, rng)
    fresh = open_room(store_url, room.code)
    assert fresh.state(1) == room.state(1)
    replayed = gamelib.from_record(room.state(1).to_record())
    assert replayed == fresh.state(1)
    random_playout(replayed, rng)  # the replay is a live game


def test_opening_without_a_code_never_creates_a_room_when_told_not_to(store_url: str) -> None:
    fresh_store = store_url if store_url.startswith("sqlite") else None
    if fresh_store is not None:
        with pytest.raises(UnknownRoom, match="no open room"):
            open_room(fresh_store, create=False)
    room = open_room(store_url, gamelib.room.new_code())
    room.configure("passante")
    latest = open_room(store_url, create=False)
    assert latest.code == room.code and latest.settings().game == "passante"


def test_a_seeded_room_deals_the_same_cards_again(store_url: str) -> None:
    logs = []
    for _ in range(2):
        room = open_room(store_url, gamelib.room.new_code(), seed=11)
        room.join("fugitive", "Ana")
        room.join("fugitive", "Bob")
        logs.append([a for _, a, _ in log_rows(room, 1)])
    assert logs[0] == logs[1] and logs[0]
