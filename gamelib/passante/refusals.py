"""A Une Passante's turn: each action of a turn, its transition beside its refusal.

:class:`Refusals` is the part of :class:`~gamelib.passante.rules.PassanteState` that holds, for
every action a player takes in a turn (the start, drawing a card, moving, the Omnibus, playing a
card, laying a wish, the privileges' signals, the Policier's veto, passing between moves, ending
the turn), what it changes (``@transition``, called once the action is known to be legal) and
why it is refused (``@refusal``, naming the rule of ``docs/rules/passante.md``; it reads the
state only: nothing is half-applied).  :meth:`Refusals._refuse_now` says what holds whatever the
action (a chance outcome is due, the game stands in another phase).  The character effects'
answers are in ``effects.py``, the same way.  A rule that the legal moves test is stated once,
as a small method that the legal moves (``rules.py``) and the refusal both ask: ``_why_no_draw``
(drawing a card), ``_others_hearts`` (the characters another player's heart keeps from the
player to move), ``_moves_left`` and ``_stopped`` (two moves a turn, of different pieces, none the
Policier stopped), ``_card_stopped`` (the card the Policier stopped), ``_omnibus_has_room``,
``_boarding_floor``, ``_waiting_at_omnibus`` and ``_never_boards`` (who climbs into the
Omnibus), ``_lays`` (the wishes a seat may lay), ``_signal_left`` and ``_hand_pairs`` (one
signal a turn; what a hint or a ``call`` may name).  A refusal then only words which part of the
rule the action breaks.
"""

from __future__ import annotations

from gamelib.core.errors import IllegalAction
from gamelib.core.game import CHANCE, Action
from gamelib.core.rulebook import refusal, transition
from gamelib.passante.actions import (
    ANY_MOMENT,
    AT_LOCATION,
    LAYS,
    PLAY_BIT,
    PRIVILEGE,
    SIGNALS,
    WISH_CHARS,
    WISH_ZONE,
    Allow,
    Board,
    Call,
    CharacterCard,
    DieRoll,
    Discard,
    DrawCharacter,
    Drive,
    End,
    Hint,
    Keep,
    Lay,
    Move,
    Name,
    Pass,
    Play,
    RoundEvent,
    Send,
    Start,
    Target,
    Veto,
    WishCard,
)
from gamelib.passante.board import CHAT, ECOLE, LOCATION_TITLES, OMNIBUS, PIECE_TITLES, PLACE, POETE, POLICIER
from gamelib.passante.effects import Effects
from gamelib.passante.options import (
    BOARDING,
    CARD_DRAW,
    EFFECT,
    MAIN,
    PHASE_NAMES,
    RETURN_TURN,
    SETUP,
    VETO_PHASE,
    WINDOW,
)

_CHAT_BIT = 1 << CHAT
_HAND_BITS: dict[tuple[int, ...], int] = {}
"""A hand's wishes as a bitmask, by hand (the same hand is asked again and again until it changes)."""
_HAND_PAIRS: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = {}
"""``_hand_pairs`` by hand."""
_CHANCE_KINDS = (WishCard, CharacterCard, DieRoll, RoundEvent)
_ANYWHERE = frozenset({Pass, Veto, Allow})
"""Actions whose refusal has its own words in every phase of a turn."""
_ANSWERS = {POETE: frozenset({Discard, Keep}), POLICIER: frozenset({Send})}
"""The actions that answer each effect (the other effects wait for ``target X``)."""
_TARGET = frozenset({Target})
_WHILE_BOARDING = frozenset({Lay, Target, Send, Discard, Keep, Board, Drive, Play}) | _ANYWHERE
"""Actions whose refusal has its own words while characters board the Omnibus."""


class Refusals(Effects):
    """The turn's actions of A Une Passante (see the module docstring)."""

    # ------------------------------------------------------------------ whatever the action
    def _refuse_now(self, action: Action) -> IllegalAction | None:
        """A chance outcome is due (or is not), the Passante is not placed yet, the Policier's
        word or a window between moves comes first, an effect or a boarding is under way."""
        kind = type(action)
        if self._to_move == CHANCE or kind in _CHANCE_KINDS:
            phase_name = "wish draw" if self.pending else PHASE_NAMES[self.phase]
            if self._to_move != CHANCE:
                return IllegalAction("not-chance", f"{action} is a chance outcome; now: {phase_name}", action)
            if kind in _CHANCE_KINDS:
                return None  # the outcome's own refusal
            return IllegalAction(
                "chance-node", f"a chance outcome is due now ({phase_name}), not {action}", action
            )
        phase = self.phase
        if phase == SETUP:
            return IllegalAction(
                "passante-start", "the first player first puts the Passante on 'ecole' or 'cafe'", action
            )
        if kind is Start:
            return None
        if phase == VETO_PHASE:
            return IllegalAction(
                "policier-veto",
                f"{self.player_name(self.vetoer)} (Policier) answers {self.proposed} first: 'veto' or 'allow'",
                action,
            )
        if phase == WINDOW:
            return self._explain_window(action)
        if phase == EFFECT and kind not in _ANYWHERE and kind not in _ANSWERS.get(self.eff, _TARGET):
            return self._effect_pending(action)
        if phase == BOARDING and kind not in _WHILE_BOARDING:
            return self._still_boarding(action)
        return None

    def _still_boarding(self, action: Action) -> IllegalAction:
        return IllegalAction(
            "omnibus-boarding", "characters are boarding: 'board X' or 'drive Z' to finish the move", action
        )

    def _explain_window(self, action: Action) -> IllegalAction:
        q = self.asking[0]
        name = self.player_name(q)
        if isinstance(action, Lay):
            return self._explain_lay(action, q, name)
        if isinstance(action, SIGNALS) and self.game.options.privileges == "cards":
            char = PRIVILEGE[type(action)]
            if char not in ANY_MOMENT:
                return IllegalAction(
                    "privilege",
                    f"the {PIECE_TITLES[char]}'s privilege is used on its player's own turn, "
                    "not between the moves of another",
                    action,
                )
            if self.hearts[q] != char:
                return IllegalAction(
                    "privilege", f"{name}'s heart is not on the {PIECE_TITLES[char]}", action
                )
            if not self._signal_left(q):
                return IllegalAction("privilege", "one signal between moves per turn", action)
            return IllegalAction(
                "privilege", "'reach' and 'glare' point at another player of the game", action
            )
        asked = f"between moves, {name} is asked first: 'lay N' (a visible wish of their hand) or 'pass'"
        return IllegalAction("lay-window", asked, action)

    # ------------------------------------------------------------------ the start
    @transition(Start)
    def _start(self, action: Start) -> None:
        self.passante = action.zone
        self.pdir = 1 if action.zone == ECOLE else -1
        self._start_turn(0)

    @refusal(Start)
    def _why_not_start(self, action: Start) -> IllegalAction:
        return IllegalAction("passante-start", "the Passante's start is chosen once, before play", action)

    # ------------------------------------------------------------------ a character card
    def _why_no_draw(self) -> str | None:
        """Why the player to move may not draw a character card now (None: they may)."""
        if self.char_hand[self.turn_player] >= 0:
            return "a player holding a character card draws none"
        if self.game.options.draw_first and not self.fresh:
            return "a character card is drawn at the start of the turn"
        if self.drew:
            return "one character card drawn per turn"
        if not (self.char_deck or self.char_under):
            return "the character deck is empty"
        return None

    @transition(DrawCharacter)
    def _draw(self, action: DrawCharacter) -> None:
        self.phase = CARD_DRAW
        self.drew = True
        self.fresh = False

    @refusal(DrawCharacter)
    def _why_not_draw(self, action: DrawCharacter) -> IllegalAction:
        return IllegalAction("draw-character", self._why_no_draw() or "not now", action)

    def _card_stopped(self) -> bool:
        """Rule policier-veto: the Policier stopped the player's card this turn (bit ``PLAY_BIT``)."""
        return bool(self.vetoed >> PLAY_BIT & 1)

    @transition(Play)
    def _play(self, action: Play) -> None:
        char = action.char
        p = self.turn_player
        self.fresh = False
        self.char_hand[p] = -1
        self.char_under = (*self.char_under, char)
        if self.game.options.heart_leaves_with_card and self.hearts[p] == char:
            self.hearts[p] = -1
        self.eff_return = RETURN_TURN
        self._start_effect(char, p, char)

    @refusal(Play)
    def _why_not_play(self, action: Play) -> IllegalAction:
        p = self.turn_player
        if self.char_hand[p] == action.char:  # held, but stopped or boarding
            if self._card_stopped():
                return IllegalAction("policier-veto", "the Policier stopped this card this turn", action)
            return IllegalAction(
                "omnibus-boarding",
                "no card while characters board the Omnibus (option play_while_boarding is off)",
                action,
            )
        if self.phase == BOARDING:
            return self._still_boarding(action)
        holder = self.player_name(p)
        return IllegalAction(
            "play-character", f"{holder} does not hold the {PIECE_TITLES[action.char]} card", action
        )

    # ------------------------------------------------------------------ moves
    @transition(Move)
    def _move(self, action: Move) -> None:
        self.fresh = False
        self.pos[action.char] = action.to
        self.moved |= 1 << action.char
        self.moves += 1

    @refusal(Move)
    def _why_not_move(self, action: Move) -> IllegalAction:
        error = self._explain_piece(action, action.char)
        if error is not None:
            return error
        c = action.char
        if not self._may_move(self.turn_player, c):
            owner = self.player_name(self.controllers(c)[0])
            return IllegalAction("control", f"the {PIECE_TITLES[c]} wears {owner}'s heart", action)
        if c == CHAT:
            if action.to == PLACE:
                return IllegalAction("chat-move", "the Chat never goes to the central place", action)
            return IllegalAction("chat-move", "the Chat moves one or two zones along the row", action)
        return IllegalAction(
            "adjacent-move",
            f"from {LOCATION_TITLES[self.pos[c]]} a character goes to a neighbouring zone or the place",
            action,
        )

    def _moves_left(self) -> bool:
        """Rule two-moves: a turn has two moves (a character's, or the Omnibus's with its riders)."""
        return self.moves < 2

    def _stopped(self) -> int:
        """Rules distinct-pieces and policier-veto: the pieces that may not move again this turn,
        as a mask (bit 8: the Omnibus): those that moved, those the Policier stopped."""
        return self.moved | self.vetoed

    def _explain_piece(self, action: Action, piece: int) -> IllegalAction | None:
        """Two moves a turn, of two different pieces, none the Policier stopped."""
        if not self._moves_left():
            return IllegalAction("two-moves", "two moves per turn", action)
        if self._stopped() >> piece & 1:
            if self.moved >> piece & 1:
                return IllegalAction(
                    "distinct-pieces", f"the {PIECE_TITLES[piece]} already moved this turn", action
                )
            return IllegalAction(
                "policier-veto", f"the Policier stopped the {PIECE_TITLES[piece]} this turn", action
            )
        return None

    @transition(Board)
    def _board(self, action: Board) -> None:
        self.fresh = False
        self.boarding = (*self.boarding, action.char)
        self.phase = BOARDING

    def _omnibus_has_room(self) -> bool:
        """Rule omnibus-capacity: the Omnibus carries at most three characters."""
        return len(self.boarding) < 3

    def _boarding_floor(self) -> int:
        """Rule omnibus-order: passengers board in the order of the character list (one way to
        board each set of riders): the next one comes after the last aboard."""
        boarding = self.boarding
        return boarding[-1] + 1 if boarding else 0

    def _waiting_at_omnibus(self) -> int:
        """Rule omnibus-board: the characters standing where the Omnibus stands and not aboard
        yet, as a mask (those that may climb in, unless :meth:`_never_boards`)."""
        p0, p1, p2, p3, p4, p5, p6, p7 = self.pos
        t0, t1, t2, t3, t4, t5, t6, t7 = AT_LOCATION[self.bus]
        mask = t0[p0] | t1[p1] | t2[p2] | t3[p3] | t4[p4] | t5[p5] | t6[p6] | t7[p7]
        for c in self.boarding:
            mask &= ~(1 << c)
        return mask

    def _never_boards(self, others: int) -> int:
        """Rules omnibus-no-chat and control: the characters that never climb into the Omnibus, as
        a mask: the Chat, and (unless ``omnibus_carries_controlled``) those wearing another
        player's heart (``others``: :meth:`_others_hearts` of the player to move)."""
        if self.game.options.omnibus_carries_controlled:
            return _CHAT_BIT
        return others | _CHAT_BIT

    @refusal(Board)
    def _why_not_board(self, action: Board) -> IllegalAction:
        error = None if self.phase == BOARDING else self._explain_piece(action, OMNIBUS)
        if error is not None:
            return error
        char = action.char
        if char == CHAT:  # the Chat's bit of _never_boards
            return IllegalAction("omnibus-no-chat", "the Chat never rides the Omnibus", action)
        waiting = self._waiting_at_omnibus() >> char & 1
        if not waiting and char not in self.boarding:
            return IllegalAction(
                "omnibus-board", f"the {PIECE_TITLES[char]} is not where the Omnibus stands", action
            )
        if not self._omnibus_has_room():
            return IllegalAction("omnibus-capacity", "the Omnibus carries at most three characters", action)
        if not waiting:
            return IllegalAction("omnibus-board", f"the {PIECE_TITLES[char]} is already aboard", action)
        if char < self._boarding_floor():
            return IllegalAction(
                "omnibus-order", "passengers board in the order of the character list", action
            )
        return IllegalAction("control", f"the {PIECE_TITLES[char]} wears another player's heart", action)

    @transition(Drive)
    def _drive(self, action: Drive) -> None:
        to = action.to
        self.fresh = False
        for c in self.boarding:
            self.pos[c] = to
            if self.game.options.carried_counts_as_moved:
                self.moved |= 1 << c
        self.bus = to
        self.boarding = ()
        self.moved |= 1 << OMNIBUS
        self.moves += 1
        self.phase = MAIN

    @refusal(Drive)
    def _why_not_drive(self, action: Drive) -> IllegalAction:
        error = None if self.phase == BOARDING else self._explain_piece(action, OMNIBUS)
        return error or IllegalAction("omnibus-move", "the Omnibus must drive to another location", action)

    # ------------------------------------------------------------------ wishes laid
    def _lays(self, seat: int) -> list[Action]:
        """Rule lay-wish: the wishes ``seat`` may lay down now (``lay N``): those of its hand whose
        situation is on the board; none when wishes are laid automatically.  With
        ``lay_wishes="anytime"`` a moment between moves follows every move and no piece moves while
        one is open, so the board is what it showed then (``shown``, not laid)."""
        if self.auto_lay:
            return []
        if self.anytime:
            shown = self.shown
            hand = self.hands[seat]
            bits = _HAND_BITS.get(hand)
            if bits is None:
                if len(_HAND_BITS) >= 1024:  # small: a rollout asks the same few hands
                    _HAND_BITS.clear()
                bits = _HAND_BITS[hand] = sum(1 << w for w in hand)
            if not shown & bits:  # most of the time: nothing to list
                return []
            return [LAYS[w] for w in hand if shown >> w & 1]
        return [LAYS[w] for w in self._layable(seat)]

    @transition(Lay)
    def _lay(self, action: Lay) -> None:
        p = self.asking[0] if self.phase == WINDOW else self.turn_player
        self.hands[p] = tuple(w for w in self.hands[p] if w != action.wish)
        self.fulfilled[p] = (*self.fulfilled[p], action.wish)
        self.laid |= 1 << action.wish
        self.laid_log = (*self.laid_log, (len(self.history), p, action.wish))
        if self.wish_deck:
            self.pending = (*self.pending, p)

    @refusal(Lay)
    def _why_not_lay(self, action: Lay) -> IllegalAction:
        if self.auto_lay:
            return IllegalAction(
                "lay-wish", "wishes are laid down automatically (option lay_wishes='automatic')", action
            )
        if self.phase != MAIN:
            return IllegalAction(
                "lay-wish", "a wish is laid down between moves, not in the middle of one", action
            )
        return self._explain_lay(action, self.turn_player, "the player")

    def _explain_lay(self, action: Lay, seat: int, name: str) -> IllegalAction:
        if action.wish not in self.hands[seat]:
            return IllegalAction("lay-wish", f"wish {action.wish} is not in {name}'s hand", action)
        return IllegalAction("lay-wish", f"wish {action.wish} is not visible on the board", action)

    @transition(Pass)
    def _pass(self, action: Pass) -> None:
        self.asking = self.asking[1:]
        if not self.asking:
            self.phase = self.window_return

    @refusal(Pass)
    def _why_not_pass(self, action: Pass) -> IllegalAction:
        if not self.anytime:
            return IllegalAction(
                "lay-window",
                f"no window between moves (option lay_wishes={self.game.options.lay_wishes!r})",
                action,
            )
        return IllegalAction(
            "lay-window", "'pass' answers the question asked between moves; none is open", action
        )

    # ------------------------------------------------------------------ the privileges
    def _signal_left(self, seat: int) -> bool:
        """Rules privilege and hint: one signal a turn: the player to move gives one on their turn
        (a privilege's signal or a hint), each seat asked between moves one any-moment signal."""
        if self.phase == WINDOW:
            return not self.signalled >> seat & 1
        return not self.hinted

    def _hand_pairs(self, seat: int) -> tuple[tuple[int, int], ...]:
        """Rules hint and privilege (the Garçon's ``call``): the (character, zone) pairs that
        ``seat`` may name: a character of a wish in hand and that wish's zone, in order (made
        once per hand: the same hand is asked turn after turn)."""
        hand = self.hands[seat]
        pairs = _HAND_PAIRS.get(hand)
        if pairs is None:
            if len(_HAND_PAIRS) >= 1024:
                _HAND_PAIRS.clear()
            pairs = _HAND_PAIRS[hand] = tuple(
                sorted({(c, WISH_ZONE[w]) for w in hand for c in WISH_CHARS[w]})
            )
        return pairs

    @transition(Hint)
    def _hint(self, action: Hint) -> None:
        self.fresh = False
        self.hints = (*self.hints, (self.turn_player, action.char, action.zone))
        self.said = (*self.said, (len(self.history), self.turn_player, "call", action.char, action.zone))
        self.hinted = True

    @refusal(Hint)
    def _why_not_hint(self, action: Hint) -> IllegalAction:
        if self.game.options.privileges != "hint":
            return IllegalAction(
                "no-talking",
                "no 'hint': the privileges are not folded into one hint (option privileges='hint')",
                action,
            )
        if not self._signal_left(self.turn_player):
            return IllegalAction("hint", "one hint per turn", action)
        if self.hearts[self.turn_player] < 0:
            return IllegalAction("hint", "only a player whose heart is on a character may hint", action)
        return IllegalAction("hint", "a hint names a character and the zone of a wish in hand", action)

    @transition(*SIGNALS)
    def _signal(self, action: Action) -> None:
        if self.phase == WINDOW:
            p = self.asking[0]
            self.signalled |= 1 << p
        else:
            p = self.turn_player
            self.hinted = True
            self.fresh = False
        self.signals = (*self.signals, (p, str(action)))
        if isinstance(action, Call):
            self.hints = (*self.hints, (p, action.char, action.zone))
            self.said = (*self.said, (len(self.history), p, "call", action.char, action.zone))
        elif isinstance(action, Name):
            self.said = (*self.said, (len(self.history), p, "name", action.wish, 0))

    @refusal(*SIGNALS)
    def _why_not_signal(self, action: Action) -> IllegalAction:
        p = self.turn_player
        privileges = self.game.options.privileges
        char = PRIVILEGE[type(action)]
        verb = str(action).split()[0]
        if privileges != "cards":
            return IllegalAction(
                "no-talking",
                f"'{verb}' is the {PIECE_TITLES[char]}'s privilege; the cards' privileges are off "
                f"(option privileges={privileges!r})",
                action,
            )
        if not self._signal_left(p):
            return IllegalAction("privilege", "one signal per turn", action)
        if self.hearts[p] != char:
            return IllegalAction(
                "privilege",
                f"only the player whose heart is on the {PIECE_TITLES[char]} may '{verb}'",
                action,
            )
        if isinstance(action, Name):
            return IllegalAction("privilege", f"wish {action.wish} is not in the player's hand", action)
        if isinstance(action, Call):
            return IllegalAction(
                "privilege", "'call' names a character and the zone of a wish in hand", action
            )
        return IllegalAction("privilege", "'reach' and 'glare' point at another player of the game", action)

    # ------------------------------------------------------------------ the Policier's veto
    @transition(Veto)
    def _veto(self, action: Veto) -> None:
        """The move or card announced does not happen; the Policier's veto is spent this turn."""
        proposed = self._answered()
        self.veto_used = True
        if isinstance(proposed, Play):
            self.vetoed |= 1 << PLAY_BIT
        elif isinstance(proposed, Move):
            self.vetoed |= 1 << proposed.char
        else:
            self.vetoed |= 1 << OMNIBUS
        self._settle()

    @transition(Allow)
    def _allow(self, action: Allow) -> None:
        """The move or card announced happens now (its own transition)."""
        proposed = self._answered()
        self._transitions[type(proposed)](self, proposed)

    def _answered(self) -> Action:
        """The move or card the Policier's player answered; the turn goes on."""
        proposed = self.proposed
        assert proposed is not None
        self.proposed, self.vetoer = None, -1
        self.phase = BOARDING if self.boarding else MAIN
        return proposed

    @refusal(Veto, Allow)
    def _why_not_answer(self, action: Action) -> IllegalAction:
        if not self.game.options.policier_veto:
            return IllegalAction("policier-veto", "the Policier's veto is off (option policier_veto)", action)
        return IllegalAction(
            "policier-veto", "'veto' and 'allow' answer a move or card just announced", action
        )

    # ------------------------------------------------------------------ the end of the turn
    @transition(End)
    def _end(self, action: End) -> None:
        self._end_turn()

    @refusal(End)
    def _why_not_end(self, action: End) -> IllegalAction:
        return IllegalAction(
            "two-moves", "with must_move_twice, make two moves before ending the turn", action
        )
