"""Get on Board rules: a legal and an illegal case per rule (names as in docs/rules/getonboard.md)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamelib
from gamelib import IllegalAction, OptionError
from gamelib.agents import FirstLegalAgent, RandomAgent
from gamelib.core.checks import refusal
from gamelib.getonboard.analysis import placements
from gamelib.getonboard.board import DIRECTIONS, FEATURES, load_tables
from gamelib.getonboard.phases import P_BONUS, P_LAY, P_OVER, P_REVEAL
from gamelib.getonboard.rules import GetOnBoardState
from gamelib.getonboard.scoring import ScoreSheet, apply_features, score_breakdown

TABLES = load_tables()
ROOT = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------- scenario helpers
def setup(
    players: int = 2,
    city: str = "rome",
    starts: tuple[int, ...] = (2, 5),
    objectives: tuple[int, int] = (1, 4),
    **options: object,
) -> GetOnBoardState:
    """A game after its setup: sheet p+1 and personal card p+1 for player p, the given starts."""
    game = gamelib.make("getonboard", players=players, city=city, options=options)
    state = game.new_game(seed=0)
    for k in objectives:
        state.apply(f"objective {k}")
    for p in range(players):
        state.apply(f"sheet {p + 1}")
    for p in range(players):
        state.apply(f"personal {p + 1}")
    spare = [t for t in game.board.starts if t not in starts]
    for p in range(players):
        state.apply(f"deal {starts[p]}")
        if game.deals_per_player == 2:
            state.apply(f"deal {spare.pop()}")
    for p in range(players):
        state.apply(f"start {starts[p]}")
    assert state.phase == P_REVEAL
    assert isinstance(state, GetOnBoardState)
    return state


def place_line(state: GetOnBoardState, player: int, names: str) -> None:
    """Test fixture: put ``player``'s line on the intersections ``"K3 J3 I3"`` (features not applied)."""
    board = state.board
    nodes = [board.node(n) for n in names.split()]
    state.routes[player] = tuple(nodes)
    state.visited[player] = 0
    state.owned[player] = 0
    for node in nodes:
        state.visited[player] |= 1 << node
    for a, b in itertools.pairwise(nodes):
        d = board.direction(a, b)
        assert d >= 0, f"{board.names[a]}-{board.names[b]} is not a section"
        state.owned[player] |= 1 << board.section[a][d]
        state.heading[player] = d
    state.end[player] = nodes[-1]
    state.invalidate()


def line(state: GetOnBoardState, player: int) -> str:
    return " ".join(state.board.names[n] for n in state.routes[player])


def legal(state: GetOnBoardState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def refused(state: GetOnBoardState, action: str, rule: str) -> None:
    error = refusal(state, action)
    assert error.rule == rule, error


# Sheet 1 (player 0): ticket 1 "2 straight", 2 "2 with a turn", 3 "2 free", 4 "1 segment",
# 5 "3 straight", 6 "3 with two turns".  Sheet 2 (player 1) is shifted by one.
def test_sheet_shapes_are_cyclic_shifts() -> None:
    names = [TABLES.shape_for(0, t).name for t in range(1, 7)]
    assert names == ["2 straight", "2 with a turn", "2 free", "1 segment", "3 straight", "3 with two turns"]
    assert TABLES.shape_for(1, 1).name == "2 with a turn"
    assert TABLES.shape_for(0, 7).name == "2 straight"  # n and n+6 share a colour
    for sheet in range(5):
        assert sum(TABLES.shape_for(sheet, t).sticks for t in range(1, 13)) == 26  # + 6 entrances = 32


# --------------------------------------------------------------------------- options and setup
def test_city_follows_player_count_by_default() -> None:
    assert [gamelib.make("getonboard", players=n).city for n in range(1, 6)] == [
        "rome",
        "rome",
        "rome",
        "paris",
        "paris",
    ]


def test_city_pairing() -> None:
    game = gamelib.make("getonboard", players=3, city="rome", options={"loops": "allowed"})
    assert game.city == "rome" and game.options.loops == "allowed"
    with pytest.raises(OptionError, match="Rome is played by 2-3 players"):
        gamelib.make("getonboard", players=4, city="rome")
    with pytest.raises(OptionError, match="Paris is played by 4-5"):
        gamelib.make("getonboard", players=2, city="paris")
    free = gamelib.make("getonboard", players=5, city="rome", free_city=True)
    assert free.deals_per_player == 1  # 6 starts for 5 players
    assert gamelib.play(free, [RandomAgent()] * 5, seed=1).is_terminal()


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("city", "london"),
        ("rome_fluid", "never"),
        ("fluid_bonus", 1),
        ("loops", "sometimes"),
        ("shape_fit", "loose"),
        ("tourist_overflow", "x"),
        ("empty_destination", "x"),
        ("rounds", 0),
        ("rounds", 13),
        ("solo_yellow_rounds", -1),
    ],
)
def test_bad_options_are_refused(name: str, value: object) -> None:
    with pytest.raises(OptionError, match=name):
        gamelib.make("getonboard", players=2, options={name: value})


def test_start_ticket() -> None:
    game = gamelib.make("getonboard", players=2)
    state = game.new_game(seed=0)
    for a in ["objective 1", "objective 2", "sheet 1", "sheet 2", "personal 1", "personal 2"]:
        state.apply(a)
    for t in (1, 2, 3, 4):
        state.apply(f"deal {t}")
    assert state.dealt == ((1, 2), (3, 4))
    assert legal(state) == {"start 1", "start 2"}
    refused(state, "start 3", "start-ticket")
    state.apply("start 2")
    assert state.current_player == 1 and legal(state) == {"start 3", "start 4"}


def test_chance_rules() -> None:
    game = gamelib.make("getonboard", players=2)
    state = game.new_game(seed=0)
    refused(state, "go N", "chance-node")
    refused(state, "sheet 1", "setup-order")
    state.apply("objective 3")
    refused(state, "objective 3", "already-dealt")
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 5 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    state = setup()
    state.apply("ticket 4")
    refused(state, "ticket 5", "chance-node")
    state = setup()
    state.apply("ticket 4")
    while state.current_player != gamelib.CHANCE:
        state.apply(state.legal_actions()[0])
    refused(state, "ticket 4", "already-dealt")


def test_controller_rotates_and_goes_first() -> None:
    state = setup(players=3, starts=(1, 2, 3))
    order = []
    for ticket in (4, 10, 4 + 6 * 0 + 1):  # 1-segment tickets for sheet 1, and ticket 5
        state.apply(f"ticket {ticket}")
        seen = []
        while state.current_player != gamelib.CHANCE and not state.is_terminal():
            if not seen or seen[-1] != state.current_player:
                seen.append(state.current_player)
            state.apply(state.legal_actions()[-1] if state.phase == P_BONUS else state.legal_actions()[0])
        order.append(seen)
    assert order == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]


# --------------------------------------------------------------------------- laying sticks
def test_elbow_is_free_and_shape_counts_junctions() -> None:
    state = setup()
    place_line(state, 0, "I4 J4 J3")  # heading north into J3
    state.apply("ticket 1")  # player 0: "2 straight"
    # the first stick of a turn may turn (the elbow is not counted): west, no box used
    state.apply("go W")  # J3 -> I3
    assert state.sheets[0].modifications == 0
    turned = state.clone()
    state.apply("go W")  # straight on: the shape asks for it
    assert state.sheets[0].modifications == 0 and line(state, 0) == "I4 J4 J3 I3 H3"
    turned.apply("go N")  # a turn where the shape is straight: one box
    assert turned.sheets[0].modifications == 1


def test_turn_box_is_ticked_for_a_turn_made_straight() -> None:
    state = setup()
    state.apply("ticket 2")  # player 0: "2 with a turn"
    state.apply("go W")  # K3 -> J3
    assert {"go W", "go N", "go S"} == legal(state)
    state.apply("go W")  # straight where a turn is asked: one box
    assert state.sheets[0].modifications == 1
    assert line(state, 0) == "K3 J3 I3"
    state2 = setup()
    state2.apply("ticket 2")
    state2.apply("go W")
    state2.apply("go N")  # the asked turn: no box
    assert state2.sheets[0].modifications == 0


def test_turn_boxes_run_out() -> None:
    state = setup()
    state.apply("ticket 2")  # "2 with a turn"
    state.sheets[0] = state.sheets[0]._replace(modifications=5)
    state.apply("go W")
    assert legal(state) == {"go N", "go S"}
    refused(state, "go W", "turn-boxes")


def test_no_u_turn_and_off_map() -> None:
    state = setup()
    state.apply("ticket 5")  # player 0: "3 straight" from K3
    refused(state, "go N", "off-map")
    refused(state, "go E", "off-map")
    state.apply("go W")
    refused(state, "go E", "no-u-turn")


def test_river_blocks_sections() -> None:
    state = setup()
    state.apply("ticket 4")  # "1 segment"
    place_line(state, 0, "D3 E3")
    refused(state, "go N", "river")  # E3-E2 is blocked
    refused(state, "go E", "river")  # E3-F3 is blocked
    assert legal(state) == {"go S"}


def test_shape_must_fit_on_the_map() -> None:
    state = setup()
    state.sheets[0] = state.sheets[0]._replace(modifications=5)
    state.apply("ticket 5")  # "3 straight" from K3: south reaches K4, then the map ends
    assert not state.forced_straight and legal(state) == {"go W"}
    refused(state, "go S", "shape-fits-map")
    # legal case: with a box left, a turn may replace a straight junction, so south is fine
    state = setup()
    state.apply("ticket 5")
    assert legal(state) == {"go W", "go S"}
    state.apply("go S")
    state.apply("go W")  # K4 -> J4: the box pays for the turn
    assert state.sheets[0].modifications == 1


def test_shape_fit_per_stick_offers_a_stick_that_strands_the_shape() -> None:
    state = setup(shape_fit="per-stick")
    state.sheets[0] = state.sheets[0]._replace(modifications=5)
    state.apply("ticket 5")  # "3 straight" from K3: south reaches K4, then the map ends
    assert legal(state) == {"go W", "go S"}
    state.apply("go S")  # stuck at K4: the turn ends there, the two sticks left are lost
    assert line(state, 0) == "K3 K4" and not state.eliminated[0]
    assert state.current_player == 1 and state.phase == P_LAY and state.step == 0
    # illegal under per-stick: each stick still needs a section and obeys the turn boxes
    state = setup(shape_fit="per-stick")
    state.apply("ticket 2")  # "2 with a turn"
    state.sheets[0] = state.sheets[0]._replace(modifications=5)
    refused(state, "go N", "off-map")
    state.apply("go W")
    assert legal(state) == {"go N", "go S"}
    refused(state, "go W", "turn-boxes")


def test_shape_fit_default_is_the_whole_shape() -> None:
    game = gamelib.make("getonboard", players=2)
    assert game.options.shape_fit == "whole-shape" and game.options.loops == "allowed"
    assert game.version == "2"


def test_five_box_exception_replaces_the_shape_by_one_straight_stick() -> None:
    state = setup()
    place_line(state, 0, "J4 K4")  # heading east at K4; only K3 (north) and K5? is off map
    state.sheets[0] = state.sheets[0]._replace(modifications=5)
    state.apply("ticket 5")  # "3 straight": impossible on the map with no box left
    assert state.phase == P_LAY and state.forced_straight
    # straight ahead (east) leaves the map too, so any open direction is allowed
    assert legal(state) == {"go N"}
    state.apply("go N")  # K4 -> K3, a metro entrance
    assert state.phase == P_BONUS and line(state, 0) == "J4 K4 K3"  # one stick: the shape is done
    # legal case: straight ahead exists
    state = setup()
    place_line(state, 0, "H3 I3")
    state.sheets[0] = state.sheets[0]._replace(modifications=5)
    state.apply("ticket 6")  # "3 with two turns"
    assert not state.forced_straight  # I3 -> J3 -> J4 -> I4?  a shape exists: no exception


def test_forced_straight_stick_goes_straight_when_it_can() -> None:
    state = setup()
    place_line(state, 0, "I3 J3")  # heading east; no 3 straight sticks fit from J3
    state.sheets[0] = state.sheets[0]._replace(modifications=5)
    state.apply("ticket 5")
    assert state.forced_straight
    assert legal(state) == {"go E"}
    refused(state, "go N", "forced-straight")
    state.apply("go E")
    assert line(state, 0) == "I3 J3 K3" and state.phase == P_BONUS


# « Revenir sur un carrefour déjà visité est encore plus grave : le joueur est éliminé » (option loops)
def test_loop_is_legal_and_eliminates_by_default() -> None:
    state = setup()  # loops="allowed": the text
    assert state.game.options.loops == "allowed"
    state.apply("ticket 4")  # "1 segment"
    place_line(state, 0, "I3 I4 J4 J3")  # end J3 heading north; I3 (west) is on the line
    assert legal(state) == {"go N", "go E", "go W"}  # offered although safe sticks exist
    assert [a for a in state.legal_actions() if state.fatal(a)] == [state.game.parse_action("go W")]
    state.apply("go W")
    assert state.eliminated[0] and state.score(0) == 0
    assert line(state, 0) == "I3 I4 J4 J3 I3"
    # illegal at the default: the line still never goes back nor doubles its own section
    state = setup()
    state.apply("ticket 4")
    place_line(state, 0, "I3 I4 J4 J3")
    refused(state, "go S", "no-u-turn")


def test_loop_forced_later_in_the_turn_is_legal_and_fatal_by_default() -> None:
    state = setup()
    state.apply("ticket 1")  # player 0: "2 straight"
    place_line(state, 0, "I2 I3 I4 J4 J3")  # end J3 heading north
    assert legal(state) == {"go N", "go E", "go W"}
    fatal = {str(a) for a in state.legal_actions() if state.fatal(a)}
    assert fatal == {"go N", "go W"}  # W re-enters I3 now; N can only finish the shape into the line
    for text in sorted(fatal):
        # every way on from a fatal stick eliminates, as the placements confirm
        after = [pl for pl in placements(state) if str(pl.actions[0]) == text]
        assert after and all(pl.state.eliminated[0] for pl in after)
    safe = [pl for pl in placements(state) if str(pl.actions[0]) == "go E"]
    assert safe and not any(pl.state.eliminated[0] for pl in safe)


def test_loops_forced_only_refuses_a_loop_while_a_safe_stick_exists() -> None:
    state = setup(loops="forced-only")
    state.apply("ticket 4")  # "1 segment"
    place_line(state, 0, "I3 I4 J4 J3")
    assert legal(state) == {"go N", "go E"}
    refused(state, "go W", "avoid-loop")
    state = setup(loops="forced-only")
    state.apply("ticket 1")  # "2 straight": N forces a loop at the second stick
    place_line(state, 0, "I2 I3 I4 J4 J3")
    assert legal(state) == {"go E"}
    refused(state, "go N", "avoid-loop")
    # legal case: trapped, the only stick re-enters the line and is offered
    state = setup(loops="forced-only")
    state.apply("ticket 4")
    place_line(state, 0, "J4 J3 K3 K4")  # heading south at K4; J4 (west) is on the line
    assert legal(state) == {"go W"}
    state.apply("go W")
    assert state.eliminated[0] and state.score(0) == 0
    assert line(state, 0).endswith("K4 J4")


@pytest.mark.parametrize("loops", ["allowed", "forced-only"])
@pytest.mark.parametrize("shape_fit", ["whole-shape", "per-stick"])
def test_fatal_is_exactly_the_sticks_every_placement_of_which_eliminates(loops: str, shape_fit: str) -> None:
    rng = random.Random(7)
    checked = 0
    for seed in range(6):
        game = gamelib.make("getonboard", players=2, options={"loops": loops, "shape_fit": shape_fit})
        state = game.new_game(seed=seed)
        while not state.is_terminal() and checked < 400:
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            assert isinstance(state, GetOnBoardState)
            if state.phase == P_LAY:
                p = state.current_player
                outcomes: dict[str, list[bool]] = {}
                for pl in placements(state):
                    outcomes.setdefault(str(pl.actions[0]), []).append(pl.state.eliminated[p])
                for action in state.legal_actions():
                    assert state.fatal(action) == all(outcomes[str(action)]), (seed, str(action))
                    checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 100


def test_old_records_replay_with_the_old_loop_rule() -> None:
    """Rules version 1 (loops="forced-only" by default): its records replay as they were played."""
    game = gamelib.make("getonboard", players=2, options={"loops": "forced-only"})
    final = gamelib.play(game, [RandomAgent()] * 2, seed=3)
    record = final.to_record()
    assert record["version"].endswith("+getonboard.2")
    old = dict(record, version=record["version"].replace("+getonboard.2", "+getonboard.1"))
    old["options"] = {k: v for k, v in record["options"].items() if k not in ("loops", "shape_fit")}
    replayed = gamelib.from_record(old)
    assert replayed.game.options.loops == "forced-only" and replayed == final
    # a version-1 record is read with version 1's rule: a loop legal today was refused then
    early = gamelib.make("getonboard", players=2).new_game(seed=0).to_record()
    actions, looper = _a_game_with_an_avoidable_loop()
    assert gamelib.from_record(dict(early, actions=actions)).eliminated[looper]
    v1 = dict(early, version=old["version"], options={}, actions=actions)
    with pytest.raises(gamelib.RecordError, match="avoid-loop"):
        gamelib.from_record(v1)


def _a_game_with_an_avoidable_loop() -> tuple[list[str], int]:
    """A 2-player Rome game (seed 0) up to a player walking into their own line with a safe stick left."""
    state = gamelib.make("getonboard", players=2).new_game(seed=0)
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        assert isinstance(state, GetOnBoardState)
        p = state.current_player
        actions = state.legal_actions()
        loops = [a for a in actions if state.phase == P_LAY and state.visited[p] >> state.target(a) & 1]
        if loops and len(loops) < len(actions):
            state.apply(loops[0])
            return [str(a) for a in state.history], p
        state.apply(rng.choice([a for a in actions if not state.fatal(a)] or actions))
    raise AssertionError("no avoidable loop found")


def test_eliminated_player_is_skipped_and_sticks_stay() -> None:
    state = setup()
    state.apply("ticket 4")
    place_line(state, 0, "I3 I4 J4 J3")
    state.apply("go W")  # into I3: eliminated
    assert state.eliminated[0]
    while state.current_player != gamelib.CHANCE:
        state.apply(state.legal_actions()[0])
    state.apply("ticket 10")
    assert state.current_player == 1  # round 2: player 1 is Contrôleur
    assert state.owned[0] != 0  # the sticks stay on the map
    while state.current_player != gamelib.CHANCE:
        assert state.current_player == 1
        state.apply(state.legal_actions()[0])
    state.apply("ticket 7")  # round 3: player 0 would be Contrôleur, but is out
    assert state.current_player == 1


def test_features_apply_in_order_and_both() -> None:
    # D3 holds a dark lover then a tourist
    state = setup()
    state.apply("ticket 4")
    place_line(state, 0, "B3 C3")
    state.apply("go E")  # C3 -> D3
    sheet = state.sheets[0]
    assert sheet.dark == (1, 0, 0) and sheet.tourist_rows == (1, 0, 0)


def test_bonus_stick() -> None:
    state = setup()
    state.apply("ticket 4")  # "1 segment"
    place_line(state, 0, "H3 H4")
    state.apply("go E")  # H4 -> I4... I4 is an opera; use an entrance instead
    state = setup()
    state.apply("ticket 4")
    place_line(state, 0, "G3 H3")
    refused(state, "bonus S", "bonus-end-of-turn")
    refused(state, "end", "bonus-end-of-turn")
    state.apply("go S")  # H3 -> H4, a metro entrance: circled, and spendable at once
    assert state.sheets[0].entrances == 1 and state.phase == P_BONUS and state.current_player == 0
    assert "end" in legal(state)
    refused(state, "go S", "shape-done")
    refused(state, "bonus N", "no-u-turn")
    state.apply("bonus S")  # H4 -> H5: one extra stick
    assert state.sheets[0].spent == 1 and state.current_player == 1  # only one per turn
    assert state.entrances_available(0) == 0


def test_bonus_stick_never_loops() -> None:
    state = setup()
    state.apply("ticket 4")
    place_line(state, 0, "I5 I4 H4 G4 G3 H3")  # H3 -> ... end at H3 heading east
    state.sheets[0] = state.sheets[0]._replace(entrances=1)
    state.apply("go N")  # H3 -> H2
    assert state.phase == P_BONUS
    refused(state, "bonus S", "no-u-turn")
    state = setup()
    state.apply("ticket 4")
    place_line(state, 0, "G2 G3 H3 H4 I4")  # end I4 heading east
    state.sheets[0] = state.sheets[0]._replace(entrances=1)
    state.apply("go N")  # I4 -> I3
    assert state.phase == P_BONUS
    refused(state, "bonus W", "bonus-no-loop")  # H3 is on the line
    assert "bonus N" in legal(state)


def test_transfers_one_circle_per_opponent_stick() -> None:
    state = setup(fluid_bonus="with-transfer")
    place_line(state, 1, "G3 H3 I3 J3")
    state.apply("ticket 10")  # teal fluid; player 0 sheet 1: ticket 10 is "1 segment"
    assert state.fluid_colour() == 1
    section = state.board.section[state.board.node("K3")][3]
    colour = state.board.section_colour[section]
    state.apply("go W")  # K3 -> J3: no opponent stick on K3-J3
    assert state.sheets[0].transfers == 0
    state = setup()
    place_line(state, 1, "G3 H3 I3 J3 K3 K4")
    state.apply("ticket 4")  # amber fluid, "1 segment"
    section = state.board.section[state.board.node("K3")][3]
    expected = 1 + (1 if state.board.section_colour[section] == state.fluid_colour() else 0)
    state.apply("go W")  # K3 -> J3, player 1's stick lies there
    assert state.sheets[0].transfers == expected
    assert colour in (0, 1)


@pytest.mark.parametrize("fluid_bonus", ["with-transfer", "always"])
def test_rome_fluid_colour_bonus(fluid_bonus: str) -> None:
    state = setup(fluid_bonus=fluid_bonus)
    state.apply("ticket 4")  # amber, "1 segment" for player 0
    board = state.board
    west = board.section[board.node("K3")][3]
    south = board.section[board.node("K3")][2]
    for d, section in (("W", west), ("S", south)):
        s = state.clone()
        s.apply(f"go {d}")
        on_fluid = board.section_colour[section] == s.fluid_colour()
        want = 1 if (on_fluid and fluid_bonus == "always") else 0
        assert s.sheets[0].transfers == want


def test_rome_fluid_colour_first_ticket_option() -> None:
    state = setup(rome_fluid="first-ticket")
    state.apply("ticket 1")  # amber
    while state.current_player != gamelib.CHANCE:
        state.apply(state.legal_actions()[0])
    state.apply("ticket 12")  # teal, but the first ticket rules
    assert state.fluid_colour() == 0
    state = setup()
    state.apply("ticket 1")
    while state.current_player != gamelib.CHANCE:
        state.apply(state.legal_actions()[0])
    state.apply("ticket 12")
    assert state.fluid_colour() == 1
    paris = setup(players=4, city="paris", starts=(1, 2, 3, 4))
    paris.apply("ticket 1")
    assert paris.fluid_colour() == -1


def test_common_objectives_ten_for_all_first_then_six() -> None:
    state = setup(objectives=(1, 4))  # 5 grannies, 5 lovers
    for p in (0, 1):
        state.sheets[p] = state.sheets[p]._replace(visits=(0, 4, 0, 0, 0, 0, 0, 0, 0, 0))
    # player 0 reaches a fifth granny this round: E3 from D3? use a granny neighbour of each line
    place_line(state, 0, "C4 D4")  # E4 (east) is a granny
    place_line(state, 1, "D7 D8")  # E8 (east) is a granny
    state.apply("ticket 4")  # player 0 "1 segment"; player 1 (sheet 2) "3 straight"
    state.apply("go E")
    if state.phase == P_BONUS:
        state.apply("end")
    assert state.sheets[0].objective_points == (0, 0)  # checked only after every player
    state.apply("go E")
    while state.current_player == 1:
        state.apply(state.legal_actions()[-1])
    assert state.sheets[0].objective_points[0] == 10
    assert state.sheets[1].objective_points[0] == 10  # same round: both 10
    assert state.flipped == (True, False)
    # a later achiever gets 6
    late = setup(players=3, starts=(1, 2, 3), objectives=(1, 4))
    late.flipped = (True, False)
    late.sheets[2] = late.sheets[2]._replace(visits=(0, 5, 0, 0, 0, 0, 0, 0, 0, 0))
    late.apply("ticket 4")
    while late.current_player != gamelib.CHANCE:
        late.apply(late.legal_actions()[0])
    assert late.sheets[2].objective_points[0] == 6


def test_game_ends_after_twelve_rounds() -> None:
    game = gamelib.make("getonboard", players=2, rounds=3)
    state = gamelib.play(game, [FirstLegalAgent()] * 2, seed=3)
    assert state.round == 3 and state.phase == P_OVER
    with pytest.raises(IllegalAction) as err:
        state.apply("go N")
    assert err.value.rule == "game-over"
    full = gamelib.play(gamelib.make("getonboard", players=2), [FirstLegalAgent()] * 2, seed=3)
    assert full.round == 12 or all(full.eliminated)


def test_notation_round_trip_and_errors() -> None:
    game = gamelib.make("getonboard", players=4)
    for text in [
        "go N",
        "bonus W",
        "end",
        "ticket 12",
        "start 12",
        "deal 1",
        "sheet 5",
        "personal 10",
        "objective 6",
    ]:
        assert str(game.parse_action(text)) == text
    for bad in ["go X", "go", "end now", "ticket 13", "start 13", "sheet 0", "fly N", ""]:
        with pytest.raises(IllegalAction) as err:
            game.parse_action(bad)
        assert err.value.rule == "notation"


def test_documented_example_replays() -> None:
    text = (ROOT / "docs/rules/getonboard.md").read_text(encoding="utf-8").split("## Notation", 1)[1]
    block = text.split("```", 2)[1]
    moves = [m.strip() for ln in block.splitlines() for m in ln.split("#")[0].split(",") if m.strip()]
    state = gamelib.make("getonboard", players=2, city="rome").new_game(seed=1)
    for move in moves[:-3]:
        state.apply(move)
    assert state.sheets[0].light == (2, 0, 0) and state.sheets[0].tourist_rows == (1, 0, 0)
    state.apply(moves[-3])
    refused(state, "go S", "no-u-turn")  # type: ignore[arg-type]
    for move in moves[-2:]:
        state.apply(move)
    assert line(state, 1) == "J7 J6 I6 I5"  # type: ignore[arg-type]


# --------------------------------------------------------------------------- scoring tables
OPTS = gamelib.make("getonboard", players=2).options


def score(sheet: ScoreSheet, personal: int = 0) -> dict[str, int]:
    return score_breakdown(sheet, personal, TABLES)


def feed(features: list[str], options: object = OPTS) -> ScoreSheet:
    from gamelib.getonboard.board import FEATURE_INDEX

    sheet = ScoreSheet()
    for f in features:
        sheet = apply_features(sheet, (FEATURE_INDEX[f],), TABLES, options)  # type: ignore[arg-type]
    return sheet


def test_granny_track() -> None:
    totals = [score(feed(["granny"] * k))["grannies"] for k in range(10)]
    assert totals == [0, 1, 2, 3, 5, 7, 9, 12, 15, 15]


def test_students_times_cinemas() -> None:
    assert score(feed(["student"] * 3 + ["cinema"] * 2))["students"] == 6
    assert score(feed(["student"] * 7 + ["cinema"] * 5))["students"] == 24  # 6 x 4 at most
    assert score(feed(["student"] * 3))["students"] == 0


def test_tourist_rows() -> None:
    for k, value in zip(range(1, 5), (2, 5, 9, 14), strict=True):
        assert score(feed(["tourist"] * k + ["theatre"]))["tourists"] == value
    assert score(feed(["tourist"] * 5 + ["opera"]))["tourists"] == 14  # the fifth is lost
    overflow = gamelib.make("getonboard", players=2, tourist_overflow="next-row").options
    sheet = feed(["tourist"] * 5 + ["opera"], overflow)
    assert sheet.tourist_rows == (4, 1, 0) and score(sheet)["tourists"] == 14 + 1  # 2 // 2 open
    # unresolved rows: half, rounded down
    assert score(feed(["tourist"] * 3))["tourists"] == 4
    assert score(feed(["tourist", "theatre", "tourist", "tourist"]))["tourists"] == 2 + 2
    # three rows at most
    sheet = feed(["tourist", "theatre"] * 4)
    assert sheet.tourists_closed == 3 and score(sheet)["tourists"] == 6


def test_destination_with_an_empty_row() -> None:
    assert feed(["theatre", "tourist"]).tourists_closed == 0
    close = gamelib.make("getonboard", players=2, empty_destination="close").options
    sheet = feed(["theatre", "tourist", "restaurant"], close)
    assert sheet.tourists_closed == 1 and sheet.tourist_rows == (0, 1, 0) and sheet.lovers_closed == 1


def test_lover_rows() -> None:
    two_couples = ["light_lovers", "dark_lovers"] * 2 + ["restaurant"]
    assert score(feed(two_couples))["lovers"] == 12
    assert score(feed(["light_lovers"] * 2 + ["dark_lovers", "restaurant"]))["lovers"] == 6 + 2
    assert score(feed(["light_lovers", "restaurant"]))["lovers"] == 2
    assert score(feed(["light_lovers"] * 3 + ["restaurant"]))["lovers"] == 4  # the third is lost
    assert score(feed(["light_lovers"] * 2 + ["dark_lovers"]))["lovers"] == 4  # open: 8 // 2
    assert score(feed(["restaurant", "dark_lovers"]))["lovers"] == 1  # empty row not closed; 2 // 2


def test_entrances_kept_and_spent() -> None:
    sheet = feed(["entrance"] * 7)
    assert sheet.entrances == 6  # 6 boxes
    assert score(sheet)["entrances"] == 12
    assert score(sheet._replace(spent=2))["entrances"] == 8


def test_turn_penalties() -> None:
    assert [score(ScoreSheet(modifications=k))["turns"] for k in range(6)] == [0, -1, -3, -5, -7, -10]


def test_transfer_track() -> None:
    values = [score(ScoreSheet(transfers=k))["transfers"] for k in range(20)]
    assert values == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 10]


def test_personal_objective() -> None:
    assert [score(ScoreSheet(), k)["personal"] for k in range(4)] == [0, 2, 5, 10]


def test_total_is_the_sum_and_ties_share_the_win() -> None:
    sheet = feed(["granny", "student", "cinema", "tourist", "theatre", "entrance"])
    b = score(sheet, 1)
    assert b["total"] == sum(v for k, v in b.items() if k != "total") == 1 + 1 + 2 + 2 + 2
    state = setup()
    state.sheets[0] = state.sheets[1] = sheet
    state.visited[0] = state.visited[1] = 0
    assert state.winners() == [0, 1]
    state.eliminated[1] = True
    assert state.winners() == [0] and state.score(1) == 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(FEATURES), max_size=40))
def test_sheet_never_exceeds_its_boxes(features: list[str]) -> None:
    sheet = feed(features)
    assert all(0 <= c <= 4 for c in sheet.tourist_rows) and sheet.tourists_closed <= 3
    assert all(0 <= c <= 2 for c in sheet.light + sheet.dark) and sheet.lovers_closed <= 3
    assert sheet.entrances <= 6
    b = score(sheet)
    assert 0 <= b["total"] <= 169


def test_solo_mode() -> None:
    game = gamelib.make("getonboard", players=1)
    assert game.solo and game.city == "rome"
    state = setup(players=1, starts=(2,))
    board = state.board
    a, b = board.affluence_path[0], board.affluence_path[1]
    place_line(state, 0, board.names[a])  # the pawn at the start of the affluence line
    state.apply("ticket 4")  # "1 segment"
    state.apply(f"go {DIRECTIONS[board.direction(a, b)]}")
    assert state.sheets[0].transfers >= 1  # the affluence line counts as an opponent stick
    no_ghost = setup(players=1, starts=(2,), solo_affluence=False)
    place_line(no_ghost, 0, board.names[a])
    no_ghost.apply("ticket 4")
    no_ghost.apply(f"go {DIRECTIONS[board.direction(a, b)]}")
    assert no_ghost.sheets[0].transfers == 0
    solo = setup(players=1, starts=(2,), objectives=(1, 4))
    solo.sheets[0] = solo.sheets[0]._replace(visits=(0, 5, 0, 0, 0, 0, 0, 0, 0, 0))
    while solo.round < 2:
        solo.apply(solo.sample_chance() if solo.current_player == gamelib.CHANCE else solo.legal_actions()[0])
    assert solo.sheets[0].objective_points[0] == 10  # achieved in round 1
    late = setup(players=1, starts=(2,), objectives=(1, 4), solo_yellow_rounds=0)
    late.sheets[0] = late.sheets[0]._replace(visits=(0, 5, 0, 0, 0, 0, 0, 0, 0, 0))
    late.apply("ticket 4")
    while late.current_player != gamelib.CHANCE:
        late.apply(late.legal_actions()[0])
    assert late.sheets[0].objective_points[0] == 6


# --------------------------------------------------------------------------- one rule, one place
@pytest.mark.parametrize(
    "options",
    [{}, {"loops": "forced-only"}, {"shape_fit": "per-stick"}],
    ids=["text", "forced-only", "per-stick"],
)
def test_legal_actions_are_exactly_those_no_rule_refuses(options: dict[str, str]) -> None:
    """The legal actions and the refusals read the same predicates (sticks.py): at every step of
    random games, each action of the universe is either legal or refused naming a rule of the
    game (never the generic "not-legal", except a start number the map does not have), and a
    refused action leaves the state untouched."""
    for players in (1, 3, 5):
        game = gamelib.make("getonboard", players=players, options=options)
        universe = game.action_universe()
        rng = random.Random(players)
        state = game.new_game(seed=players)
        while not state.is_terminal():
            now = set(state.legal_actions())
            before = state.key()
            for action in universe:
                if action in now:
                    continue
                error = state._explain_illegal(action)
                assert error.rule != "not-legal" or str(action).startswith("deal"), (str(action), error)
            assert state.key() == before
            state.apply(
                state.sample_chance(rng) if state.is_chance_node() else rng.choice(sorted(now, key=str))
            )
