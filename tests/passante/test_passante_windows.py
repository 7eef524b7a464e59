"""Issue 22 item 12: wishes laid « A n'importe quel moment durant la partie » (rules version 4).

Between two moves, when a wish not laid has just become visible, every seat holding wishes is
asked in seat order (``lay N`` or ``pass``); when only a card was drawn, the seats that drew;
the player whose turn goes on lays on their own turn.  Each moment has a legal and an illegal
case, the own-turn reading (``lay_wishes="choice"``) is checked against it, and records of
versions 2 and 3 replay with it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from passante_scenes import NAMES, empty_hands, give_card, give_wishes, legal, place, ready, refused

import gamelib
from gamelib import CHANCE
from gamelib.agents import RandomAgent
from gamelib.passante.agents import WishSeekerAgent
from gamelib.passante.rules import MAIN, WINDOW, PassanteGame, PassanteState


def comedienne_scene(**options: Any) -> PassanteState:
    """3 players; joueur 2 holds wish 11 (the Comédienne in the parc), joueur 3 wish 2 (the Poète at
    the école, not visible), joueur 1 (to move) wish 12; nobody wears a heart."""
    s = ready(players=3, policier_veto=False, **options)
    empty_hands(s)
    give_wishes(s, 0, 12)
    give_wishes(s, 1, 11)
    give_wishes(s, 2, 2)
    return s


def test_a_partner_lays_a_wish_shown_by_another_players_move() -> None:
    s = comedienne_scene()
    s.apply("move comedienne parc")
    assert s.phase == WINDOW and s.asking == (1, 2) and s.current_player == 1
    assert legal(s) == {"lay 11", "pass"}
    refused(s, "lay 2", "lay-wish")  # not in joueur 2's hand
    refused(s, "lay 12", "lay-wish")
    refused(s, "move poete place", "lay-window")  # the question first
    refused(s, "end", "lay-window")
    s.apply("lay 11")
    assert s.fulfilled[1] == (11,) and s.current_player == CHANCE  # the replacement card
    s.apply(s.sample_chance())
    assert s.current_player == 1 and "pass" in legal(s)  # asked again: the new card may be visible
    s.apply("pass")
    assert s.current_player == 2 and legal(s) == {"pass"}  # asked too, whatever their hand
    refused(s, "lay 2", "lay-wish")  # held, not visible
    s.apply("pass")
    assert s.phase == MAIN and s.current_player == 0 and s.moves == 1  # the turn goes on


def test_under_the_own_turn_reading_the_wish_waits() -> None:
    s = comedienne_scene(lay_wishes="choice")
    s.apply("move comedienne parc")
    assert s.phase == MAIN and s.current_player == 0
    refused(s, "lay 11", "lay-wish")  # joueur 2's card, joueur 1's turn
    refused(s, "pass", "lay-window")


def test_pass_outside_a_window_is_refused() -> None:
    s = comedienne_scene()
    refused(s, "pass", "lay-window")
    s.apply("move poete place")  # shows nothing: no window
    assert s.phase == MAIN and s.current_player == 0


def test_a_wish_still_visible_does_not_reopen_the_window() -> None:
    s = comedienne_scene()
    s.apply("move comedienne parc")
    s.apply("pass")
    s.apply("pass")
    s.apply("move policier place")
    assert s.phase == MAIN  # 11 was offered already; joueur 2 may lay it on their own turn
    s.apply("end")
    assert s.current_player == 1 and "lay 11" in legal(s)


def test_who_is_asked_tells_nothing_about_the_hands() -> None:
    shown, hidden = comedienne_scene(), comedienne_scene()
    give_wishes(hidden, 1, 13)  # joueur 2 holds 13 instead of 11: nothing to lay
    hidden.hands[1] = (13,)
    hidden.wish_deck |= 1 << 11
    hidden.invalidate()
    for s in (shown, hidden):
        s.apply("move comedienne parc")
    assert shown.asking == hidden.asking == (1, 2)
    assert shown.observation(0) == hidden.observation(0) and shown.observation(2) == hidden.observation(2)
    assert legal(hidden) == {"pass"}


def test_the_player_to_move_lays_on_their_own_turn() -> None:
    s = comedienne_scene()
    empty_hands(s)
    give_wishes(s, 0, 11)
    s.apply("move comedienne parc")
    assert s.phase == MAIN and "lay 11" in legal(s)  # nobody else holds a wish: no window


def test_a_seat_dealt_a_card_is_asked_when_a_wish_is_visible() -> None:
    s = comedienne_scene()
    s.apply("move comedienne parc")
    s.apply("pass")
    s.apply("pass")
    give_card(s, 0, "mendiante")
    s.hearts[1] = NAMES["gardien"]  # joueur 2's heart on the Gardien, in the parc by the Mendiante
    s.invalidate()
    s.apply("play mendiante")
    while s.current_player == CHANCE:
        s.apply(s.sample_chance())
    assert s.phase == WINDOW and s.asking == (1,)  # only the seat that drew: joueur 1 is to move


def test_the_last_replacement_wish_is_laid_before_the_count() -> None:
    for lay_wishes in ("anytime", "choice"):
        s = ready(players=2, final_round_event=True, policier_veto=False, lay_wishes=lay_wishes)
        empty_hands(s)
        give_wishes(s, 0, 2)
        give_wishes(s, 1, 3)
        place(s, comedienne="parc")  # wish 11 visible
        s.wish_deck = 1 << 11  # the only card left: the Poète's redraw is wish 11
        s.last_turn, s.played, s.turn_player = True, 1, 1
        s.invalidate()
        s.apply("end")
        s.apply("event poete")
        s.apply("discard 3")
        s.apply("keep")
        s.apply("wish 11")
        s.apply("discard 2")
        s.apply("keep")
        if lay_wishes == "choice":
            assert s.is_terminal() and s.hands[1] == (11,) and s.score() == 0  # lost
            continue
        assert s.phase == WINDOW and s.current_player == 1 and legal(s) == {"lay 11", "pass"}
        s.apply("lay 11")
        s.apply("pass")
        assert s.is_terminal() and s.score() == 1


def test_any_moment_privileges_are_given_between_moves() -> None:
    s = comedienne_scene()
    give_card(s, 1, "gardien")  # « à n'importe quel moment »
    give_card(s, 2, "chat")  # « à présent »: on their own turn only
    s.apply("move comedienne parc")
    assert {"knock ecole", "lay 11", "pass"} <= legal(s)
    s.apply("knock ecole")
    assert s.current_player == 1 and "knock parc" not in legal(s)
    refused(s, "knock parc", "privilege")  # once per turn
    s.apply("pass")
    assert s.current_player == 2
    refused(s, "purr", "privilege")
    assert legal(s) == {"pass"}


@pytest.mark.parametrize("version", ["2", "3"])
def test_records_of_versions_2_and_3_replay_with_the_own_turn_reading(version: str) -> None:
    old = PassanteGame.legacy_defaults[version]
    game = gamelib.make("passante", players=3, options=dict(old))
    state = gamelib.play(game, [RandomAgent()] * 3, seed=11)
    record = state.to_record()
    record["version"] = record["version"].rsplit("+", 1)[0] + f"+passante.{version}"
    record["options"] = {k: v for k, v in record["options"].items() if k not in old}
    replayed = gamelib.from_record(record)
    assert replayed == state and replayed.game.options.lay_wishes == "choice"
    assert "pass" not in {str(a) for a in replayed.history}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seekers_lay_whenever_they_can(players: int) -> None:
    game = gamelib.make("passante", players=players)
    for seed in range(3):
        state = game.new_game(seed=seed)
        assert isinstance(state, PassanteState)
        agents = [WishSeekerAgent() for _ in range(players)]
        rng = random.Random(seed)
        windows = 0
        while not state.is_terminal():
            who = state.current_player
            if who == CHANCE:
                state.apply(state.sample_chance())
                continue
            layable = [a for a in state.legal_actions() if str(a).startswith("lay ")]
            action = agents[who].act(state, who, rng)
            windows += state.phase == WINDOW
            # never leaves a visible wish behind: no pass, no end of turn, no move or card while one
            # is there (a character card may be drawn, a privilege signal given, first)
            risky = ("pass", "end", "move", "board", "drive", "play")
            assert not layable or str(action).split()[0] not in risky, (str(action), layable)
            state.apply(action)
        assert windows > 0


def test_the_holders_reading_asks_only_who_can_lay() -> None:
    s = comedienne_scene(window_asks="holders")
    s.apply("move comedienne parc")
    assert s.phase == WINDOW and s.asking == (1,)  # joueur 3's wish 2 is not on the board
    assert legal(s) == {"lay 11", "pass"}
    refused(s, "lay 2", "lay-wish")
    s.apply("pass")  # kept: everyone now knows joueur 2 holds a visible wish
    assert s.phase == MAIN and s.current_player == 0
    refused(s, "pass", "lay-window")
    hidden = comedienne_scene(window_asks="holders")
    hidden.hands[1] = (13,)
    hidden.wish_deck = hidden.wish_deck & ~(1 << 13) | 1 << 11
    hidden.invalidate()
    hidden.apply("move comedienne parc")
    assert hidden.phase == MAIN  # nobody asked: this reading shows who holds what


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_holders_reading_keeps_its_worlds_exact(players: int) -> None:
    from gamelib.core.checks import determinize_problems

    game = gamelib.make("passante", players=players, options={"window_asks": "holders"})
    rng = random.Random(players)
    for seed in range(3):
        final = gamelib.play(game, [RandomAgent()] * players, seed=seed)
        state = game.new_game(seed=seed)
        for action in final.history[: rng.randrange(len(final.history))]:
            state.apply(action)
        for p in range(players):
            assert determinize_problems(state, p, rng) == []


@pytest.mark.parametrize(
    "options",
    [{}, {"comedienne_die": "effect"}, {"window_asks": "holders"}, {"mendiante_clears_all_hearts": True}],
)
def test_what_a_window_showed_is_the_board_whenever_a_turn_goes_on(options: dict[str, Any]) -> None:
    """The turn's legal lays read ``shown`` (the wishes visible at the last moment between moves)
    instead of the board: every action that can move a piece is followed by such a moment, so at
    every turn decision ``shown`` names exactly the visible wishes of the hand (random games)."""
    checked = 0
    for players in (1, 2, 3, 4):
        game = gamelib.make("passante", players=players, options=options)
        for seed in range(12):
            state = game.new_game(seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                if state.phase == MAIN and state.current_player != CHANCE:
                    hand = state.hands[state.turn_player]
                    on_board = [w for w in hand if state.is_visible(w)]
                    assert [w for w in hand if state.shown >> w & 1] == on_board, state.history
                    checked += 1
                state.apply(
                    rng.choice(state.legal_actions())
                    if state.current_player != CHANCE
                    else state.sample_chance(rng)
                )
    assert checked > 500
