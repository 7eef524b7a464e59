"""Issue 13: the rule text's readings are the defaults, the stricter or older readings options.

Each point has a legal and an illegal case at the default and at each option value, and records
written under rules version 1 (before these defaults) still replay.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from passante_scenes import NAMES, empty_hands, give_card, give_wishes, legal, place, ready, refused

import gamelib
from gamelib import CHANCE, IllegalAction
from gamelib.agents import RandomAgent
from gamelib.passante import board as B
from gamelib.passante.rules import MAIN, OVER, VETO_PHASE, PassanteGame, PassanteState, RoundEvent, WishCard


# ------------------------------------------------------------------ final round event
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_final_round_event_serves_every_pending_draw(players: int) -> None:
    game = gamelib.make("passante", players=players, options={"final_round_event": True})
    served_after_end = 0
    for seed in range(25):
        state = gamelib.play(game, [RandomAgent()] * players, seed=seed)
        assert isinstance(state, PassanteState)
        assert state.is_terminal() and state.pending == ()
        events = [i for i, a in enumerate(state.history) if isinstance(a, RoundEvent)]
        if events:
            served_after_end += any(isinstance(a, WishCard) for a in state.history[events[-1] :])
        with pytest.raises(IllegalAction):
            state.apply("wish 1")
    assert served_after_end >= 0


def test_final_poete_event_redraws_for_every_player() -> None:
    s = ready(players=2, final_round_event=True, policier_veto=False)
    s.last_turn = True
    s.played = 1  # player 1 played this round already: player 2's turn ends the game
    s.turn_player = 1
    s.invalidate()
    s.apply("end")
    assert s.phase == 6  # the end-of-round card
    s.apply("event poete")
    for p in (1, 0):  # the player who ended the round first ("round_event_chooser")
        while s.current_player == CHANCE:
            s.apply(s.sample_chance())
        assert s.current_player == p
        s.apply(f"discard {s.hands[p][0]}")
        s.apply("keep")
    assert s.current_player == CHANCE  # the second player's redraw is owed, then the end
    while s.current_player == CHANCE:
        s.apply(s.sample_chance())
    assert s.is_terminal() and [len(h) for h in s.hands] == [4, 4]
    refused(s, "end", "game-over")


# ------------------------------------------------------------------ laying a wish down
@pytest.mark.parametrize("lay_wishes", ["anytime", "choice"])
def test_laying_a_visible_wish_is_a_choice(lay_wishes: str) -> None:
    s = ready(policier_veto=False, lay_wishes=lay_wishes)
    empty_hands(s)
    give_wishes(s, 0, 1)  # « Leçon de choses »: the Chat at the école
    give_wishes(s, 1, 2)
    refused(s, "lay 1", "lay-wish")  # not visible yet
    s.apply("move chat ecole")
    if lay_wishes == "anytime":  # the partner is asked first (test_passante_windows.py)
        assert legal(s) == {"pass"}
        s.apply("pass")
    assert s.hands[0] == (1,) and s.fulfilled == [(), ()]  # not laid by itself
    assert "lay 1" in legal(s)
    refused(s, "lay 2", "lay-wish")  # not in the player's hand
    s.apply("lay 1")
    assert s.fulfilled == [(1,), ()] and s.pending == (0,) and s.score() == 1
    s.apply(s.sample_chance())
    assert len(s.hands[0]) == 1


def test_automatic_laying_option() -> None:
    s = ready(lay_wishes="automatic")
    empty_hands(s)
    give_wishes(s, 0, 1)
    s.apply("move chat ecole")
    assert s.fulfilled == [(1,), ()] and s.pending == (0,)
    s.apply(s.sample_chance())
    refused(s, "lay 1", "lay-wish")
    with pytest.raises(gamelib.OptionError):
        gamelib.make("passante", options={"lay_wishes": "sometimes"})


# ------------------------------------------------------------------ character card timing
def test_card_while_boarding_by_default_and_option() -> None:
    for allowed in (True, False):
        s = ready(policier_veto=False, play_while_boarding=allowed)
        empty_hands(s)
        give_card(s, 0, "gardien")
        place(s, policier="place", gardien="parc")
        s.apply("board policier")
        if allowed:
            assert "play gardien" in legal(s)
            s.apply("play gardien")
            assert s.phase in (MAIN, 2)
            s.apply("drive cafe")
            assert s.pos[B.POLICIER] == B.CAFE
        else:
            refused(s, "play gardien", "omnibus-boarding")
            s.apply("drive cafe")
            s.apply("play gardien")


def test_an_effect_that_moves_a_passenger_takes_him_off_the_omnibus() -> None:
    s = ready(policier_veto=False)
    empty_hands(s)
    give_card(s, 0, "gardien")
    place(s, policier="place", gardien="place")
    s.apply("board policier")
    s.apply("play gardien")  # everyone on the place goes home: the Policier to the école
    assert s.pos[B.POLICIER] == B.ECOLE and s.boarding == () and s.phase == MAIN


def test_omnibus_may_stay_by_default_must_leave_option() -> None:
    s = ready(policier_veto=False)
    empty_hands(s)
    place(s, gardien="place")
    s.apply("board gardien")
    s.apply("drive place")  # « n'importe quelle zone »: its own too
    assert s.bus == B.PLACE and s.moves == 1
    s2 = ready(omnibus_must_leave=True, policier_veto=False)
    empty_hands(s2)
    refused(s2, "drive place", "omnibus-move")
    s2.apply("drive cafe")


# ------------------------------------------------------------------ the Policier's veto
def veto_state(**options: Any) -> PassanteState:
    s = ready(**options)
    empty_hands(s)
    give_card(s, 1, "policier")  # player 2 wears the Policier's heart
    return s


def test_policier_veto_stops_a_move_once_per_turn() -> None:
    s = veto_state()
    refused(s, "veto", "policier-veto")  # nothing announced
    s.apply("move poete theatre")
    assert s.phase == VETO_PHASE and s.current_player == 1
    assert legal(s) == {"veto", "allow"}
    refused(s, "move gardien ecole", "policier-veto")
    s.apply("veto")
    assert s.pos[B.POETE] == B.CAFE and s.current_player == 0 and s.moves == 0
    refused(s, "move poete place", "policier-veto")  # another action instead
    s.apply("move gardien ecole")  # once per turn: no second veto
    assert s.pos[B.GARDIEN] == B.ECOLE and s.phase == MAIN


def test_policier_allow_and_card_veto() -> None:
    s = veto_state()
    give_card(s, 0, "gardien")
    s.apply("move poete theatre")
    s.apply("allow")
    assert s.pos[B.POETE] == B.THEATRE and s.moves == 1
    s.apply("play gardien")
    s.apply("veto")
    refused(s, "play gardien", "policier-veto")
    assert s.char_hand[0] == NAMES["gardien"]


def test_no_veto_from_the_policier_on_his_own_turn_or_with_the_option_off() -> None:
    s = veto_state(policier_veto=False)
    s.apply("move poete theatre")
    assert s.phase == MAIN
    refused(s, "veto", "policier-veto")
    s = veto_state()
    s.hearts[1] = -1
    s.invalidate()
    s.apply("move poete theatre")  # nobody wears the Policier's heart
    assert s.phase == MAIN


# ------------------------------------------------------------------ records of version 1
def test_version_1_records_replay_with_the_old_defaults() -> None:
    old = PassanteGame.legacy_defaults["1"]
    game = gamelib.make("passante", players=3, options=dict(old))
    state = gamelib.play(game, [RandomAgent()] * 3, seed=4)
    record = state.to_record()
    record["version"] = record["version"].rsplit("+", 1)[0] + "+passante.1"
    record["options"] = {k: v for k, v in record["options"].items() if k not in old}
    replayed = gamelib.from_record(record)
    assert replayed == state and replayed.game.options.lay_wishes == "automatic"
    assert gamelib.make("passante").version == "4"


def test_random_play_reaches_every_new_action() -> None:
    game = gamelib.make("passante", players=3)
    seen: set[str] = set()
    for seed in range(30):
        state = gamelib.play(game, [RandomAgent()] * 3, seed=seed)
        seen |= {str(a).split()[0] for a in state.history}
    assert {"lay", "veto", "allow"} <= seen
    assert OVER == 7
    random.Random(0)
