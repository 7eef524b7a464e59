"""Records: JSON round trips, and every kind of bad record failing with a ValueError that says where."""

from __future__ import annotations

import copy
import functools
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamelib
from gamelib.agents import RandomAgent


@pytest.fixture(scope="module", params=gamelib.registered_games())
def finished(request: pytest.FixtureRequest) -> gamelib.State:
    game = gamelib.make(request.param)
    return gamelib.play(game, [RandomAgent()] * game.num_players, seed=4)


def test_record_is_plain_json(finished: gamelib.State) -> None:
    record = finished.to_record()
    assert set(record) == {"game", "version", "players", "options", "seed", "actions", "result"}
    assert record["result"] == {"terminal": finished.is_terminal(), "returns": finished.returns()}
    text = json.dumps(record)
    assert gamelib.from_record(text) == finished  # JSON text is accepted too
    assert all(isinstance(a, str) for a in record["actions"])


def test_record_replays_without_the_seed(finished: gamelib.State) -> None:
    """Chance outcomes are in the history: another seed replays the same game."""
    record = finished.to_record()
    record["seed"] = record["seed"] + 1
    assert gamelib.from_record(record).key() == finished.key()


def test_truncated_record_gives_the_position_at_that_step(finished: gamelib.State) -> None:
    record = finished.to_record()
    record["actions"] = record["actions"][:10]
    with pytest.raises(gamelib.RecordError, match="stop before the end") as info:
        gamelib.from_record(record)  # its result says the game is over: a truncated record
    assert info.value.field == "result"
    del record["result"]  # a position, not a game: without a result it replays to that step
    state = gamelib.from_record(record)
    assert len(state.history) == 10
    assert gamelib.from_record(state.to_record()) == state  # a record of an unfinished game


@pytest.mark.parametrize(
    ("mutate", "match"),
    [
        (lambda r: r.pop("actions"), "missing field"),
        (lambda r: r.update(game="chess"), "unknown game"),
        (lambda r: r.update(version="9.0.0+x.1"), "version"),
        (lambda r: r.update(version=3), "version"),
        (lambda r: r.update(players="two"), "players"),
        (lambda r: r.update(players=99), "players"),
        (lambda r: r.update(options={"nope": 1}), "unknown rule option"),
        (lambda r: r.update(options=[]), "options"),
        (lambda r: r.update(seed=-1), "seed"),
        (lambda r: r.update(seed="7"), "seed"),
        (lambda r: r.update(actions="deal 4"), "actions"),
        (lambda r: r.update(extra=1), "unknown field"),
        (lambda r: r["actions"].insert(3, 17), "step 3"),
        (lambda r: r["actions"].insert(0, "fly away"), "step 0"),
    ],
)
def test_bad_records_name_the_field_or_step(finished: gamelib.State, mutate, match: str) -> None:  # type: ignore[no-untyped-def]
    record = copy.deepcopy(finished.to_record())
    mutate(record)
    with pytest.raises(gamelib.RecordError, match=match) as err:
        gamelib.from_record(record)
    assert isinstance(err.value, ValueError)


def test_tampered_action_fails_at_its_step(finished: gamelib.State) -> None:
    record = finished.to_record()
    actions = record["actions"]
    # replace a late action with one legal at another moment: it must fail at exactly that step
    for step in range(len(actions) - 1, 0, -1):
        for other in actions[:step]:
            if other == actions[step]:
                continue
            tampered = dict(record, actions=[*actions[:step], other, *actions[step + 1 :]])
            try:
                gamelib.from_record(tampered)
            except gamelib.RecordError as exc:
                assert exc.step is not None and exc.step >= step
                return
    pytest.fail("no action of the game played at another step breaks a rule: replay checks nothing?")


def test_not_json_and_not_an_object() -> None:
    with pytest.raises(gamelib.RecordError, match="JSON"):
        gamelib.from_record("{not json")
    with pytest.raises(gamelib.RecordError, match="object"):
        gamelib.from_record("[1, 2]")


@functools.cache
def _base_record(name: str) -> dict:  # type: ignore[type-arg]
    game = gamelib.make(name)
    return gamelib.play(game, [RandomAgent()] * game.num_players, seed=1).to_record()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    actions=st.lists(
        st.one_of(
            st.text(max_size=12),
            st.sampled_from(["deal 4", "hide 3", "done", "pass", "draw 1", "guess 5", "add 2", "reveal"]),
            st.integers(),
            st.none(),
        ),
        max_size=12,
    ),
    seed=st.integers(min_value=0, max_value=2**40),
)
def test_fuzzed_records_fail_cleanly_or_replay(actions: list, seed: int) -> None:  # type: ignore[type-arg]
    for name in gamelib.registered_games():
        record = dict(_base_record(name))
        record["actions"] = actions
        record["seed"] = seed
        try:
            state = gamelib.from_record(record)
        except gamelib.RecordError as exc:
            assert "bad record" in str(exc)
        else:
            assert [str(a) for a in state.history] == actions


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=20))
def test_fuzzed_notation_is_parsed_or_refused_with_a_rule(text: str) -> None:
    for name in gamelib.registered_games():
        game = gamelib.make(name)
        try:
            action = game.parse_action(text)
        except gamelib.IllegalAction as exc:
            assert exc.rule == "notation"
        else:
            assert game.parse_action(str(action)) == action


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**62), steps=st.integers(min_value=0, max_value=200))
def test_record_round_trip_at_any_point(seed: int, steps: int) -> None:
    for name in gamelib.registered_games():
        game = gamelib.make(name)
        state = game.new_game(seed=seed)
        rng = __import__("random").Random(seed)
        for _ in range(steps):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        assert gamelib.from_record(json.loads(json.dumps(state.to_record()))) == state


# ------------------------------------------------------------- issue 12: records that lie
@pytest.mark.parametrize("name", gamelib.registered_games())
def test_an_action_after_the_end_is_a_record_error_naming_the_step(name: str) -> None:
    from gamelib.agents import RandomAgent

    game = gamelib.make(name)
    final = gamelib.play(game, [RandomAgent()] * game.num_players, seed=4)
    record = final.to_record()
    record["actions"] = [*record["actions"], record["actions"][-1]]
    with pytest.raises(gamelib.RecordError) as info:
        gamelib.from_record(record)
    assert info.value.step == len(final.history)
    assert "after the end of the game" in str(info.value)
    assert "-4" not in str(info.value) and "-3" not in str(info.value)


@pytest.mark.parametrize("players", [0, 9, -1])
def test_a_wrong_player_count_is_reported_as_the_players_field(players: int) -> None:
    record = gamelib.make("fugitive").new_game(seed=0).to_record()
    record["players"] = players
    with pytest.raises(gamelib.RecordError) as info:
        gamelib.from_record(record)
    assert info.value.field == "players"


def test_a_result_that_contradicts_the_replay_is_refused() -> None:
    from gamelib.agents import RandomAgent

    game = gamelib.make("fugitive")
    final = gamelib.play(game, [RandomAgent(), RandomAgent()], seed=2)
    record = final.to_record()
    assert gamelib.from_record({**record, "result": final.returns()}) == final
    for lie in ([9.0, 9.0], [1.0], "fugitive", [True, False]):
        with pytest.raises(gamelib.RecordError) as info:
            gamelib.from_record({**record, "result": lie})
        assert info.value.field == "result"
    unfinished = {**record, "actions": record["actions"][:3], "result": final.returns()}
    with pytest.raises(gamelib.RecordError, match="stop before the end"):
        gamelib.from_record(unfinished)


def _nest(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("depth", [50, 100_000])
def test_deeply_nested_records_are_refused_naming_the_field(depth: int) -> None:
    record = gamelib.make("fugitive").new_game(seed=1).to_record()
    for field in ("options", "actions", "meta"):
        with pytest.raises(gamelib.RecordError, match="nested more than") as caught:
            gamelib.from_record({**record, field: _nest(depth)})
        assert caught.value.field == field
    with pytest.raises(gamelib.RecordError, match="nested more than") as caught:
        gamelib.from_record({**record, "options": {"edition": _nest(depth)}})
    assert caught.value.field == "options"
    text = '{"game": "fugitive", "options": ' + "[" * depth + "]" * depth + "}"
    with pytest.raises(gamelib.RecordError, match=r"nested|JSON"):
        gamelib.from_record(text)


@pytest.mark.parametrize(
    "version",
    [
        "0.-1.0+fugitive.2",
        "0.1.-0+fugitive.2",
        "0.1+fugitive.2",
        "0.1.0.0+fugitive.2",
        "00.1.0+fugitive.2",
        "0.1.0 +fugitive.2",
        "0.1.0+fugitive.02",
        "0.1.0+fugitive.2 ",
        "0.1.0+Fugitive.2",
        "0.１.0+fugitive.2",
        "0.1.0",
        "0.1.0++fugitive.2",
        "",
    ],
)
def test_record_versions_are_read_strictly(version: str) -> None:
    record = gamelib.make("fugitive").new_game(seed=1).to_record()
    assert gamelib.from_record(record).seed == 1  # the version written today reads
    with pytest.raises(gamelib.RecordError) as caught:
        gamelib.from_record({**record, "version": version})
    assert caught.value.field == "version"


def test_an_edited_option_that_breaks_no_move_is_caught_by_the_result() -> None:
    game = gamelib.make("fugitive", max_rounds=2)
    final = gamelib.play(game, [RandomAgent(), RandomAgent()], seed=5)
    assert final.is_terminal() and final.ended_by == "max_rounds"  # type: ignore[attr-defined]
    record = final.to_record()
    assert gamelib.from_record(record) == final
    edited = copy.deepcopy(record)
    edited["options"]["max_rounds"] = 50  # every move is still legal under the edit
    with pytest.raises(gamelib.RecordError, match="stop before the end") as caught:
        gamelib.from_record(edited)
    assert caught.value.field == "result"
    old = {k: v for k, v in edited.items() if k != "result"}  # a record from before "result"
    assert not gamelib.from_record(old).is_terminal()


@pytest.mark.parametrize(
    "result",
    [
        {"terminal": True},
        {"terminal": 1, "returns": [1.0, -1.0]},
        {"terminal": True, "returns": [1.0, -1.0], "extra": 0},
        {"terminal": False, "returns": None},
        "won",
    ],
)
def test_a_malformed_result_is_refused(finished: gamelib.State, result: object) -> None:
    record = finished.to_record()
    with pytest.raises(gamelib.RecordError) as caught:
        gamelib.from_record({**record, "result": result})
    assert caught.value.field == "result"


def test_a_result_that_says_not_over_for_a_finished_game_is_refused(finished: gamelib.State) -> None:
    record = finished.to_record()
    lie = {"terminal": False, "returns": finished.returns()}
    with pytest.raises(gamelib.RecordError, match="not over"):
        gamelib.from_record({**record, "result": lie})


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=12,
)


@given(
    field=st.sampled_from(["game", "version", "players", "options", "seed", "actions", "result", "meta"]),
    value=_JSON,
)
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_any_json_in_any_field_replays_or_is_a_record_error(field: str, value: object) -> None:
    record = _fresh_record()
    try:
        state = gamelib.from_record({**record, field: value})
    except gamelib.RecordError as exc:
        assert len(str(exc)) < 600
    else:
        assert state.game.name == "fugitive"


@functools.lru_cache(maxsize=1)
def _fresh_record() -> dict[str, object]:
    return gamelib.make("fugitive").new_game(seed=3).to_record()
