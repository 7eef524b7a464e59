"""A Une Passante: every rule with a legal and an illegal case (docs/rules/passante.md)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from passante_scenes import (
    draw_pending,
    empty_hands,
    give_card,
    give_wishes,
    legal,
    place,
    ready,
    refused,
)

import gamelib
from gamelib import CHANCE, TERMINAL, IllegalAction
from gamelib.passante import board as B
from gamelib.passante.board import WishDataError, load_wishes, parse_wishes
from gamelib.passante.rules import (
    BOARDING,
    DIE,
    DIE_FACES,
    EFFECT,
    EVENT,
    MAIN,
    NUM_WISHES,
    OVER,
    WISHES,
    PassanteState,
    rating,
)


# ---------------------------------------------------------------------------- board and data
def test_board_graph_adjacency_and_distances() -> None:
    g = B.GRAPH
    assert g.has_edge(B.ECOLE, B.PARC) and g.has_edge(B.THEATRE, B.CAFE)
    assert not g.has_edge(B.ECOLE, B.THEATRE) and not g.has_edge(B.ECOLE, B.CAFE)
    assert all(g.has_edge(z, B.PLACE) for z in B.ZONES)
    assert B.GRAPH_DISTANCE[B.ECOLE][B.CAFE] == 2 and B.ROW_DISTANCE[B.ECOLE][B.CAFE] == 3
    assert B.CHAT_MOVES[B.THEATRE] == (B.ECOLE, B.PARC, B.CAFE)
    assert B.PLACE not in B.CHAT_MOVES[B.PARC]
    assert B.START_ZONE[B.CHAT] == B.THEATRE and B.START_ZONE[B.POLICIER] == B.ECOLE


def test_wish_deck_is_valid_and_balanced() -> None:
    wishes = load_wishes()
    assert len(wishes) == NUM_WISHES == 38
    for zone in B.ZONES:
        assert sum(w.zone == zone for w in wishes) >= 9
    for c in B.CHARACTERS:
        assert sum(c in w.characters for w in wishes) >= 8
    assert all(1 <= len(w.characters) <= 3 for w in wishes)
    start = gamelib.make("passante", players=2).new_game(seed=0)
    assert not any(start.is_visible(w.id) for w in wishes)


def _deck_doc() -> dict[str, Any]:
    from importlib import resources

    text = resources.files("gamelib.passante").joinpath("data/wishes.json").read_text(encoding="utf-8")
    doc: dict[str, Any] = json.loads(text)
    return doc


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["cards"].pop(), "38 cards"),
        (lambda d: d["cards"][0].update(zone="place"), "field 'zone'"),
        (lambda d: d["cards"][0].update(characters=["chat", "chien"]), "unknown character"),
        (lambda d: d["cards"][0].update(characters=["chat", "chat"]), "repeats"),
        (lambda d: d["cards"][0].update(characters=[]), "one to three"),
        (lambda d: d["cards"][0].update(title=""), "field 'title'"),
        (lambda d: d["cards"][0].update(id=7), "field 'id'"),
        (
            lambda d: d["cards"][0].update(zone="theatre", characters=["chat", "comedienne"]),
            "starting position",
        ),
    ],
)
def test_wish_deck_validation_errors(mutate: Any, message: str) -> None:
    doc = _deck_doc()
    assert len(parse_wishes(doc)) == 38  # legal
    mutate(doc)
    with pytest.raises(WishDataError, match=message):
        parse_wishes(doc)


# ---------------------------------------------------------------------------- setup
@pytest.mark.parametrize(("players", "size"), [(1, 5), (2, 4), (3, 3), (4, 2)])
def test_deal_sizes(players: int, size: int) -> None:
    state = gamelib.make("passante", players=players).new_game(seed=1)
    assert state.current_player == CHANCE
    deals = 0
    while state.current_player == CHANCE:
        outcomes = state.chance_outcomes()
        assert len(outcomes) == NUM_WISHES - deals  # a uniform draw from the deck
        state.apply(state.sample_chance())
        deals += 1
    assert [len(h) for h in state.hands] == [size] * players


def test_solo_hand_size_option() -> None:
    game = gamelib.make("passante", players=1, options={"solo_hand_size": 3})
    assert game.hand_size == 3
    with pytest.raises(ValueError, match="solo_hand_size"):
        gamelib.make("passante", players=1, options={"solo_hand_size": 0})


def test_passante_start_choice() -> None:
    state = gamelib.make("passante", players=2).new_game(seed=2)
    while state.current_player == CHANCE:
        state.apply(state.sample_chance())
    assert legal(state) == {"start ecole", "start cafe"}
    refused(state, "move chat ecole", "passante-start")
    with pytest.raises(IllegalAction, match="'ecole' or 'cafe'"):
        state.apply("start parc")
    state.apply("start cafe")
    assert state.passante == B.CAFE and state.pdir == -1
    refused(state, "start ecole", "passante-start")


# ---------------------------------------------------------------------------- a turn
def test_draw_character_card_pins_heart() -> None:
    s = ready()
    assert "draw" in legal(s)
    s.apply("draw")
    assert s.current_player == CHANCE
    assert len(s.chance_outcomes()) == 8
    s.apply("card chat")
    assert s.char_hand[0] == B.CHAT and s.hearts[0] == B.CHAT
    refused(s, "draw", "draw-character")  # holding a card


def test_draw_only_first_thing_in_turn_option() -> None:
    s = ready(draw_first=True)
    empty_hands(s)
    s.apply("move policier parc")
    refused(s, "draw", "draw-character")


def test_draw_at_any_point_of_the_turn_once_by_default() -> None:
    s = ready(policier_veto=False)
    empty_hands(s)
    s.apply("move policier parc")
    assert "draw" in legal(s)
    s.apply("draw")
    s.apply(s.sample_chance())
    card = s.char_hand[0]
    s.apply(f"play {B.PIECE_NAMES[card]}")
    while s.current_player != 0 or s.phase != MAIN:
        s.apply(s.sample_chance() if s.current_player == CHANCE else s.legal_actions()[0])
    refused(s, "draw", "draw-character")  # one draw per turn


def test_heart_controls_character() -> None:
    s = ready()
    empty_hands(s)
    give_card(s, 1, "chat")
    refused(s, "move chat ecole", "control")  # player 1's heart: player 0 may not move it
    s.apply("move poete place")
    s.apply("end")
    assert s.turn_player == 1
    s.apply("move chat ecole")  # its owner may
    assert s.pos[B.CHAT] == B.ECOLE


def test_two_moves_of_two_different_pieces() -> None:
    s = ready()
    empty_hands(s)
    s.apply("move policier parc")
    refused(s, "move policier theatre", "distinct-pieces")
    s.apply("move gardien place")
    refused(s, "move poete place", "two-moves")
    assert "end" in legal(s)


def test_must_move_twice_option() -> None:
    s = ready()
    empty_hands(s)
    s.apply("end")  # default: moves are optional
    s = ready(must_move_twice=True)
    empty_hands(s)
    refused(s, "end", "two-moves")
    s.apply("move policier parc")
    s.apply("move gardien place")
    s.apply("end")


def test_adjacent_moves_and_the_place() -> None:
    s = ready()
    empty_hands(s)
    assert "move policier parc" in legal(s) and "move policier place" in legal(s)
    refused(s, "move policier theatre", "adjacent-move")
    s.apply("move poete place")
    s.apply("end")
    s.apply("move poete ecole")  # from the place to any zone
    assert s.pos[B.POETE] == B.ECOLE


def test_chat_moves_one_or_two_zones_never_the_place() -> None:
    s = ready()
    empty_hands(s)
    s.apply("move chat ecole")  # two zones
    assert s.pos[B.CHAT] == B.ECOLE
    s2 = ready()
    empty_hands(s2)
    refused(s2, "move chat place", "chat-move")
    place(s2, chat="ecole")
    refused(s2, "move chat cafe", "chat-move")  # three zones


def test_omnibus_boarding_and_drive() -> None:
    s = ready()
    empty_hands(s)
    place(s, policier="place", gardien="place", poete="place", mendiante="place", chat="parc")
    refused(s, "board institutrice", "omnibus-board")  # not where the Omnibus stands
    s.apply("board gardien")
    assert s.phase == BOARDING
    refused(s, "move policier parc", "omnibus-boarding")
    refused(s, "board policier", "omnibus-order")
    s.apply("board poete")
    s.apply("drive cafe")
    assert s.bus == B.CAFE and s.pos[B.GARDIEN] == B.CAFE and s.pos[B.POETE] == B.CAFE
    refused(s, "drive ecole", "distinct-pieces")
    s.apply("move gardien theatre")  # a rider has not moved as a piece


def test_omnibus_capacity_and_no_chat() -> None:
    s = ready()
    empty_hands(s)
    place(s, policier="place", institutrice="place", mendiante="place", gardien="place")
    for name in ("policier", "institutrice", "mendiante"):
        s.apply(f"board {name}")
    refused(s, "board gardien", "omnibus-capacity")
    s.apply("drive parc")
    s2 = ready()
    empty_hands(s2)
    s2.apply("drive theatre")
    s2.apply("end")
    refused(s2, "board chat", "omnibus-no-chat")
    s2.apply("board comedienne")


def test_omnibus_and_riding_options() -> None:
    s = ready(carried_counts_as_moved=True)
    empty_hands(s)
    place(s, gardien="place")
    s.apply("board gardien")
    s.apply("drive cafe")
    refused(s, "move gardien theatre", "distinct-pieces")
    s = ready()
    empty_hands(s)
    give_card(s, 1, "gardien")
    place(s, gardien="place")
    refused(s, "board gardien", "control")
    s = ready(omnibus_carries_controlled=True)
    empty_hands(s)
    give_card(s, 1, "gardien")
    place(s, gardien="place")
    s.apply("board gardien")


def test_play_character_card_goes_under_deck() -> None:
    s = ready()
    empty_hands(s)
    give_card(s, 0, "gardien")
    refused(s, "play chat", "play-character")
    place(s, gardien="ecole")
    s.apply("play gardien")
    assert s.char_hand[0] == -1 and s.char_under[-1] == B.GARDIEN
    assert s.hearts[0] == B.GARDIEN  # default: the heart stays
    assert s.pos[B.POLICIER] == B.ECOLE and s.pos[B.GARDIEN] == B.PARC
    s = ready(heart_leaves_with_card=True)
    empty_hands(s)
    give_card(s, 0, "gardien")
    s.apply("play gardien")
    assert s.hearts[0] == -1


def test_passante_walk_removes_hearts_on_zone_left() -> None:
    s = ready(start="ecole")
    empty_hands(s)
    give_card(s, 0, "policier")  # on the école
    give_card(s, 1, "gardien")  # on the parc
    s.apply("end")
    assert s.passante == B.PARC
    assert s.hearts == [-1, B.GARDIEN]
    assert s.char_hand[0] == B.POLICIER  # the card stays in hand


def test_passante_leaves_board_returns_reversed_and_game_length() -> None:
    s = ready(players=2, start="ecole", round_event=False)
    empty_hands(s)
    walk = [s.passante]
    order = [s.turn_player]
    while not s.is_terminal():
        s.apply("end")
        walk.append(s.passante)
        order.append(s.turn_player)
    P = B.PLACE
    assert walk == [0, 1, 2, 3, P, 3, 2, 1, 0, P, P]
    assert s.turns == 10 == s.game.total_turns
    assert s.arrivals == 2
    assert order[:10] == [0, 1, 0, 1, 0, 1, 0, 1, 0, 1]
    assert s.current_player == TERMINAL
    refused(s, "end", "game-over")


@pytest.mark.parametrize("players", [1, 3, 4])
def test_five_turns_each(players: int) -> None:
    s = ready(players=players, round_event=False)
    empty_hands(s)
    count = [0] * players
    while not s.is_terminal():
        count[s.turn_player] += 1
        s.apply("end")
    assert count == [5] * players


def test_turn_order_follows_the_passante() -> None:
    s = ready(players=3, start="ecole", round_event=False)
    empty_hands(s)
    order = []
    while not s.is_terminal():
        order.append(s.turn_player)
        s.apply("end")
    # her direction flips as she reaches the place (after turns 4 and 9): the order reverses there,
    # and every round of three turns is still each player once
    assert order == [0, 1, 2, 0, 2, 1, 0, 2, 1, 2, 0, 1, 2, 0, 1]
    assert all(sorted(order[i : i + 3]) == [0, 1, 2] for i in range(0, 15, 3))
    s = ready(players=3, round_event=False, turn_order_follows_passante=False)
    empty_hands(s)
    order = []
    while not s.is_terminal():
        order.append(s.turn_player)
        s.apply("end")
    assert order == [0, 1, 2] * 5


def test_anticlockwise_start_reverses_turn_order() -> None:
    s = ready(players=3, start="cafe", round_event=False)
    empty_hands(s)
    s.apply("end")
    assert s.passante == B.THEATRE and s.turn_player == 2


# ---------------------------------------------------------------------------- end of round
def test_round_event_is_a_chance_node_over_the_remaining_cards() -> None:
    s = ready(players=2)
    empty_hands(s)
    give_card(s, 0, "chat")
    s.apply("end")
    s.apply("end")
    assert s.phase == EVENT and s.current_player == CHANCE
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 7 and "event chat" not in {str(a) for a, _ in outcomes}
    refused(s, "end", "chance-node")
    refused(s, "event chat", "chance-outcome")
    s.apply("event gardien")  # no choice: the Gardien sends his zone home
    assert s.phase == MAIN and s.char_under == (B.GARDIEN,)


def test_round_event_option_off() -> None:
    s = ready(players=2, round_event=False)
    empty_hands(s)
    s.apply("end")
    s.apply("end")
    assert s.phase == MAIN


def test_round_event_poete_applies_to_every_player() -> None:
    s = ready(players=2)
    s.apply("end")
    s.apply("end")
    s.apply("event poete")
    assert s.phase == EFFECT and s.current_player == 1  # the player who ended the round first
    refused(s, "keep", "poete")
    s.apply(f"discard {s.hands[1][0]}")
    s.apply("keep")
    draw_pending(s)
    assert s.current_player == 0
    s.apply(f"discard {s.hands[0][0]}")
    s.apply("keep")
    draw_pending(s)
    assert s.phase == MAIN and [len(h) for h in s.hands] == [4, 4]


def test_round_event_chooser_option() -> None:
    for chooser, expected in (("last", 1), ("next", 0)):
        s = ready(players=2, round_event_chooser=chooser)
        empty_hands(s)
        s.apply("end")
        s.apply("end")
        s.apply("event chat")
        assert s.phase == EFFECT and s.current_player == expected
    with pytest.raises(ValueError, match="round_event_chooser"):
        gamelib.make("passante", options={"round_event_chooser": "dealer"})


def test_final_turn_has_no_round_event_by_default() -> None:
    for final, expected in ((False, OVER), (True, EVENT)):
        s = ready(players=1, final_round_event=final)
        empty_hands(s)
        for _ in range(5):
            s.apply("end")
            if s.phase == EVENT and s.turns < 5:
                s.apply(s.sample_chance())
                while s.current_player != 0 or s.phase != MAIN:
                    s.apply(s.sample_chance() if s.current_player == CHANCE else s.legal_actions()[0])
        assert s.phase == expected


# ---------------------------------------------------------------------------- wishes
def test_visible_wish_is_laid_down_and_replaced() -> None:
    s = ready(lay_wishes="automatic")
    empty_hands(s)
    give_wishes(s, 0, 1)  # « Leçon de choses »: the Chat at the école
    give_wishes(s, 1, 13)  # « Ode à un moineau »: Poète and Chat at the parc
    s.apply("move chat parc")
    assert s.fulfilled == [(), ()]  # the Poète is not there: not visible yet
    s.apply("move poete place")
    s.apply("end")
    s.apply("move poete parc")
    assert s.fulfilled == [(), (13,)] and s.pending == (1,)
    s.apply(s.sample_chance())
    assert len(s.hands[1]) == 1 and s.score() == 1
    assert s.returns() == [1.0, 1.0]


def test_rating_bands() -> None:
    assert rating(38).startswith("Fondez")
    assert rating(27) == rating(32)
    assert "Des gens passent" in rating(21)
    assert "ambition" in rating(0)
    with pytest.raises(ValueError):
        rating(39)


# ---------------------------------------------------------------------------- the eight effects
def effect_state(name: str, **where: str) -> PassanteState:
    s = ready(players=2)
    empty_hands(s)
    give_card(s, 0, name)
    place(s, **where)
    return s


def test_poete_discard_then_draw() -> None:
    s = effect_state("poete")
    give_wishes(s, 0, 20, 30)
    s.apply("play poete")
    refused(s, "keep", "poete")  # at least one
    refused(s, "discard 5", "poete")  # not in hand
    refused(s, "move policier parc", "effect-pending")
    s.apply("discard 20")
    s.apply("keep")
    assert s.pending == (0,) and 20 in s.discards[0]
    draw_pending(s)
    assert len(s.hands[0]) == 2 and s.phase == MAIN


def test_poete_min_discard_option() -> None:
    s = ready(players=2, poete_min_discard=0)
    empty_hands(s)
    give_card(s, 0, "poete")
    give_wishes(s, 0, 20)
    s.apply("play poete")
    s.apply("keep")
    assert s.hands[0] == (20,)


def test_garcon_sends_a_character_of_his_zone_to_the_cafe() -> None:
    s = effect_state("garcon", garcon="ecole")
    s.apply("play garcon")
    assert legal(s) == {"target policier", "target institutrice"}
    refused(s, "target chat", "garcon")
    s.apply("target institutrice")
    assert s.pos[B.INSTITUTRICE] == B.CAFE and s.phase == MAIN


def test_garcon_fallback_nearest() -> None:
    # alone on the parc: the nearest are on the école, the théâtre and the place... here the
    # école and the théâtre (distance 1); the café's Poète is already at the café
    s = effect_state("garcon", garcon="parc", mendiante="cafe", gardien="cafe")
    s.apply("play garcon")
    assert legal(s) == {"target policier", "target institutrice", "target chat", "target comedienne"}
    refused(s, "target poete", "garcon")
    s.apply("target chat")
    assert s.pos[B.CHAT] == B.CAFE


def test_garcon_may_move_himself_option() -> None:
    s = ready(players=2, garcon_moves_himself=True)
    empty_hands(s)
    give_card(s, 0, "garcon")
    place(s, garcon="ecole")
    s.apply("play garcon")
    assert "target garcon" in legal(s)


def test_chat_attracts_two_from_adjacent_zones() -> None:
    s = effect_state("chat")  # Chat on the théâtre: parc, café and place are adjacent
    s.apply("play chat")
    assert legal(s) == {f"target {n}" for n in ("mendiante", "gardien", "poete", "garcon")}
    refused(s, "target policier", "chat")  # the école is two zones away
    refused(s, "target comedienne", "chat")  # already on his zone
    s.apply("target poete")
    s.apply("target gardien")
    assert s.pos[B.POETE] == B.THEATRE == s.pos[B.GARDIEN] and s.phase == MAIN


def test_chat_fallback_two_nearest() -> None:
    # Chat at the école; only the Policier is adjacent (parc and place empty): then the nearest
    s = effect_state(
        "chat", chat="ecole", institutrice="cafe", mendiante="theatre", gardien="theatre", policier="parc"
    )
    s.apply("play chat")
    assert legal(s) == {"target policier"}
    s.apply("target policier")
    assert legal(s) == {
        f"target {n}" for n in ("institutrice", "mendiante", "gardien", "comedienne", "poete", "garcon")
    }
    s.apply("target mendiante")
    assert s.pos[B.MENDIANTE] == B.ECOLE


def test_comedienne_swaps_never_with_the_chat() -> None:
    s = effect_state("comedienne")
    s.apply("play comedienne")
    refused(s, "target chat", "comedienne")
    s.apply("target poete")
    assert s.pos[B.COMEDIENNE] == B.CAFE and s.pos[B.POETE] == B.THEATRE


def test_comedienne_fallback_die_applies_an_effect() -> None:
    everyone = {n: "theatre" for n in B.PIECE_NAMES[:8]}
    s = effect_state("comedienne", **everyone)
    s.apply("play comedienne")
    assert s.phase == DIE and s.current_player == CHANCE
    assert {str(a) for a, _ in s.chance_outcomes()} == {f"die {B.PIECE_NAMES[c]}" for c in DIE_FACES}
    refused(s, "die comedienne", "chance-outcome")
    s.apply("die gardien")
    assert s.pos == list(B.START_ZONE)


def test_comedienne_die_swap_option() -> None:
    everyone = {n: "theatre" for n in B.PIECE_NAMES[:8]}
    s = ready(players=2, comedienne_die="swap")
    empty_hands(s)
    give_card(s, 0, "comedienne")
    place(s, **everyone)
    s.apply("play comedienne")
    s.apply("die poete")
    assert s.phase == MAIN and all(z == B.THEATRE for z in s.pos)
    with pytest.raises(ValueError, match="comedienne_die"):
        gamelib.make("passante", options={"comedienne_die": "dance"})


def test_mendiante_draws_for_hearts_on_her_zone_then_clears() -> None:
    s = effect_state("mendiante")  # Mendiante on the parc with the Gardien
    give_card(s, 1, "gardien")
    s.hearts[0] = B.MENDIANTE  # the player's heart is still on her until the card is played
    s.invalidate()
    s.apply("play mendiante")
    assert sorted(s.pending) == [0, 1]
    assert s.hearts == [-1, -1] and s.char_hand[1] == -1
    assert s.char_under[-1] == B.GARDIEN  # discarded under the deck
    draw_pending(s)
    assert [len(h) for h in s.hands] == [1, 1]


def test_mendiante_only_her_zone_unless_option() -> None:
    s = effect_state("mendiante")
    give_card(s, 1, "poete")  # on the café, away from her
    s.apply("play mendiante")
    assert s.hearts[1] == B.POETE and s.pending == (0,)
    s = ready(players=2, mendiante_clears_all_hearts=True, mendiante_discards_leave_game=True)
    empty_hands(s)
    give_card(s, 0, "mendiante")
    give_card(s, 1, "poete")
    s.hearts[0] = B.MENDIANTE
    s.apply("play mendiante")
    assert s.hearts == [-1, -1] and s.char_out == 1 << B.POETE


def test_gardien_sends_his_zone_home() -> None:
    s = effect_state("gardien", gardien="cafe", chat="cafe", policier="parc")
    s.apply("play gardien")
    assert s.pos[B.GARDIEN] == B.PARC and s.pos[B.CHAT] == B.THEATRE
    assert s.pos[B.POETE] == B.CAFE and s.pos[B.POLICIER] == B.PARC  # elsewhere: untouched
    assert s.phase == MAIN


def test_policier_spreads_his_zone_to_adjacent_zones() -> None:
    s = effect_state("policier", policier="parc", chat="parc")
    s.apply("play policier")
    # the Mendiante, Gardien and Chat share his zone: sent one by one, in list order
    assert legal(s) == {"send mendiante ecole", "send mendiante theatre"}
    refused(s, "send mendiante cafe", "policier")
    refused(s, "send gardien ecole", "policier")
    s.apply("send mendiante ecole")
    s.apply("send gardien theatre")
    s.apply("send chat ecole")
    assert (s.pos[B.MENDIANTE], s.pos[B.GARDIEN], s.pos[B.CHAT]) == (B.ECOLE, B.THEATRE, B.ECOLE)
    assert s.phase == MAIN


def test_policier_end_zone_and_place_option() -> None:
    s = effect_state("policier")  # on the école with the Institutrice
    s.apply("play policier")
    assert legal(s) == {"send institutrice parc"}
    s = ready(players=2, policier_uses_place=True)
    empty_hands(s)
    give_card(s, 0, "policier")
    s.apply("play policier")
    assert legal(s) == {"send institutrice parc", "send institutrice place"}


def test_institutrice_copies_an_effect_on_her_zone() -> None:
    s = effect_state("institutrice", gardien="ecole")
    s.apply("play institutrice")
    assert legal(s) == {"target policier", "target gardien"}
    refused(s, "target chat", "institutrice")
    s.apply("target gardien")  # the Gardien's effect, from the Gardien's zone (the école)
    assert s.pos[B.INSTITUTRICE] == B.ECOLE and s.pos[B.GARDIEN] == B.PARC
    assert s.pos[B.POLICIER] == B.ECOLE


def test_institutrice_fallback_nearest_and_chained_choice() -> None:
    s = effect_state("institutrice", institutrice="place", policier="parc")
    s.apply("play institutrice")
    assert len(legal(s)) == 7  # everyone is one step from the place
    s.apply("target chat")
    assert s.eff == B.CHAT and s.current_player == 0  # the Chat's choices follow
    s.apply("target poete")
    s.apply("target garcon")
    assert s.pos[B.POETE] == B.THEATRE and s.phase == MAIN


def test_effects_respect_control_option() -> None:
    s = ready(players=2, effects_respect_control=True)
    empty_hands(s)
    give_card(s, 0, "garcon")
    give_card(s, 1, "poete")
    place(s, garcon="ecole", poete="ecole")
    s.apply("play garcon")
    assert "target poete" not in legal(s)


# ---------------------------------------------------------------------------- hidden hands, talk
def test_observation_hides_other_hands() -> None:
    s = ready(players=3)
    obs = s.observation(1)
    assert obs.hands[1] == s.hands[1] and obs.hands[0] is None and obs.hands[2] is None
    open_state = ready(players=3, open_hands=True)
    assert all(h is not None for h in open_state.observation(1).hands)
    with pytest.raises(ValueError):
        s.observation(3)


def test_determinize_keeps_what_the_player_knows() -> None:
    rng = random.Random(0)
    s = ready(players=3, seed=4, lay_wishes="automatic")
    s.apply("move chat ecole")  # may lay a wish down
    draw_pending(s)
    for _ in range(20):
        world = s.determinize(0, rng)
        assert world.observation(0) == s.observation(0)
        assert world.hands[0] == s.hands[0]
        assert not any(world.is_visible(w) for hand in world.hands for w in hand)
        cards = sorted(
            [w for h in world.hands for w in h]
            + [w for d in world.discards for w in d]
            + [w for f in world.fulfilled for w in f]
            + [w for w in range(1, NUM_WISHES + 1) if world.wish_deck >> w & 1]
        )
        assert cards == list(range(1, NUM_WISHES + 1))


def test_determinize_varies_other_hands() -> None:
    s = ready(players=3, seed=4)
    worlds = {s.determinize(0, random.Random(i)).hands[1] for i in range(20)}
    assert len(worlds) > 5


def test_hints_only_with_table_talk_and_a_heart() -> None:
    s = ready()
    empty_hands(s)
    give_wishes(s, 0, 1)  # Chat at the école
    give_card(s, 0, "policier")
    refused(s, "hint chat ecole", "no-talking")
    s = ready(table_talk=True)
    empty_hands(s)
    give_wishes(s, 0, 1)
    refused(s, "hint chat ecole", "hint")  # no heart on any character yet
    give_card(s, 0, "policier")
    refused(s, "hint poete ecole", "hint")  # not one of the player's wishes
    s.apply("hint chat ecole")
    assert s.hints == ((0, B.CHAT, B.ECOLE),)
    refused(s, "hint chat ecole", "hint")  # once per turn


# ---------------------------------------------------------------------------- notation
@pytest.mark.parametrize(
    "text",
    [
        "start ecole",
        "wish 12",
        "card chat",
        "die gardien",
        "event poete",
        "draw",
        "move poete place",
        "board gardien",
        "drive cafe",
        "play comedienne",
        "target garcon",
        "send mendiante theatre",
        "discard 38",
        "keep",
        "hint chat parc",
        "end",
    ],
)
def test_notation_round_trip(text: str) -> None:
    game = gamelib.make("passante")
    assert str(game.parse_action(text)) == text
    assert str(game.parse_action(text.upper())) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("fly chat", "unknown action"),
        ("move chat", "takes 2"),
        ("move chien parc", "unknown piece"),
        ("move chat lune", "unknown location"),
        ("wish 39", "between 1 and 38"),
        ("move omnibus parc", "no character"),
        ("end now", "takes no argument"),
        ("reach 4", "player number must be between 1 and 3"),
        ("reach chien", "unknown piece"),
    ],
)
def test_bad_notation(text: str, message: str) -> None:
    with pytest.raises(IllegalAction, match=message) as err:
        gamelib.make("passante").parse_action(text)
    assert err.value.rule == "notation"


def test_wish_titles_render() -> None:
    assert "Leçon de choses" in str(WISHES[1])


def test_two_hearts_on_one_character_both_owners_may_move_it() -> None:
    # player 2 played the Chat's card (the heart stays) and player 3 drew it since: two hearts
    s = ready(players=3, round_event=False)
    empty_hands(s)
    give_card(s, 2, "chat")
    s.hearts[1] = B.CHAT
    s.invalidate()
    assert s.controllers(B.CHAT) == [1, 2]
    refused(s, "move chat ecole", "control")  # player 1 owns neither heart
    s.apply("end")
    s.apply("move chat cafe")  # player 2 may
    s.apply("end")
    s.apply("move chat parc")  # and so may player 3


def test_who_acts_is_derived_from_the_declared_phases() -> None:
    from gamelib.passante.rules import PHASE_NAMES, PHASES

    assert len(PHASES) == len(PHASE_NAMES) == 10 and PHASE_NAMES[9] == "wishes laid between moves"
    game = gamelib.make("passante", players=3)
    seen = set()
    for seed in range(4):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            assert isinstance(state, PassanteState)
            acts = "chance" if state.pending else PHASES[state.phase].acts
            who = state.current_player
            expected = {
                "chance": CHANCE,
                "first": 0,
                "turn": state.turn_player,
                "actor": state.actor,
                "vetoer": state.vetoer,
                "asked": state.asking[0] if state.asking else None,
            }[acts]
            assert who == expected, (PHASE_NAMES[state.phase], who)
            seen.add(acts)
            state.apply(state.sample_chance() if who == CHANCE else rng.choice(state.legal_actions()))
    assert seen >= {"chance", "first", "turn", "actor", "asked"}
