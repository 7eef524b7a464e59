"""A Une Passante: why an action is not legal now, naming the rule (``docs/rules/passante.md``).

:class:`Refusals` is the part of :class:`~gamelib.passante.rules.PassanteState` that explains a
refusal; it reads the state only (nothing is half-applied: core calls it before any change).
"""

from __future__ import annotations

from gamelib.core.errors import IllegalAction
from gamelib.core.game import CHANCE, Action
from gamelib.passante.actions import (
    ANY_MOMENT,
    BOARDS,
    PLAY_BIT,
    PRIVILEGE,
    SIGNALS,
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
from gamelib.passante.board import (
    CHAT,
    COMEDIENNE,
    GARCON,
    INSTITUTRICE,
    LOCATION_TITLES,
    OMNIBUS,
    PIECE_NAMES,
    PIECE_TITLES,
    PLACE,
    POETE,
    POLICIER,
)
from gamelib.passante.effects import Effects
from gamelib.passante.options import (
    BOARDING,
    EFFECT,
    MAIN,
    PHASE_NAMES,
    SETUP,
    VETO_PHASE,
    WINDOW,
)


class Refusals(Effects):
    """The refusals of A Une Passante, one short method per kind of action."""

    def _explain_illegal(self, action: Action) -> IllegalAction:
        who = self.current_player
        phase_name = "wish draw" if self.pending else PHASE_NAMES[self.phase]
        chance_kinds = (WishCard, CharacterCard, DieRoll, RoundEvent)
        if who == CHANCE:
            if not isinstance(action, chance_kinds):
                return IllegalAction(
                    "chance-node", f"a chance outcome is due now ({phase_name}), not {action}", action
                )
            return IllegalAction(
                "chance-outcome", f"{action} is not a possible outcome of the {phase_name}", action
            )
        if isinstance(action, chance_kinds):
            return IllegalAction("not-chance", f"{action} is a chance outcome; now: {phase_name}", action)
        if self.phase == SETUP:
            return IllegalAction(
                "passante-start", "the first player first puts the Passante on 'ecole' or 'cafe'", action
            )
        if isinstance(action, Start):
            return IllegalAction("passante-start", "the Passante's start is chosen once, before play", action)
        if self.phase == VETO_PHASE:
            return IllegalAction(
                "policier-veto",
                f"{self.player_name(self.vetoer)} (Policier) answers {self.proposed} first: 'veto' or 'allow'",
                action,
            )
        if self.phase == WINDOW:
            return self._explain_window(action)
        if isinstance(action, Pass):
            if not self.anytime:
                return IllegalAction(
                    "lay-window",
                    f"no window between moves (option lay_wishes={self.game.options.lay_wishes!r})",
                    action,
                )
            return IllegalAction(
                "lay-window", "'pass' answers the question asked between moves; none is open", action
            )
        if isinstance(action, (Veto, Allow)):
            if not self.game.options.policier_veto:
                return IllegalAction(
                    "policier-veto", "the Policier's veto is off (option policier_veto)", action
                )
            return IllegalAction(
                "policier-veto", "'veto' and 'allow' answer a move or card just announced", action
            )
        if self.phase == EFFECT:
            return self._explain_effect(action)
        if isinstance(action, Lay):
            if self.auto_lay:
                return IllegalAction(
                    "lay-wish", "wishes are laid down automatically (option lay_wishes='automatic')", action
                )
            if self.phase != MAIN:
                return IllegalAction(
                    "lay-wish", "a wish is laid down between moves, not in the middle of one", action
                )
            if action.wish not in self.hands[self.turn_player]:
                return IllegalAction("lay-wish", f"wish {action.wish} is not in the player's hand", action)
            return IllegalAction("lay-wish", f"wish {action.wish} is not visible on the board", action)
        if isinstance(action, (Target, Send, Discard, Keep)):
            return IllegalAction(
                "no-effect-pending", f"{action} answers a character effect; none is pending", action
            )
        if self.phase == BOARDING:
            return self._explain_boarding(action)
        return self._explain_turn(action)

    def _explain_boarding(self, action: Action) -> IllegalAction:
        """Why an action is refused while characters board the Omnibus."""
        if isinstance(action, Board):
            return self._explain_board(action.char)
        if isinstance(action, Drive):
            return IllegalAction("omnibus-move", "the Omnibus must drive to another location", action)
        if isinstance(action, Play) and self.char_hand[self.turn_player] == action.char:
            if self.vetoed >> PLAY_BIT & 1:
                return IllegalAction("policier-veto", "the Policier stopped this card this turn", action)
            return IllegalAction(
                "omnibus-boarding",
                "no card while characters board the Omnibus (option play_while_boarding is off)",
                action,
            )
        return IllegalAction(
            "omnibus-boarding",
            "characters are boarding: 'board X' or 'drive Z' to finish the move",
            action,
        )

    def _explain_turn(self, action: Action) -> IllegalAction:
        """Why an action of the turn (draw, play, signal, move, end) is refused now."""
        p = self.turn_player
        if isinstance(action, DrawCharacter):
            if self.char_hand[p] >= 0:
                return IllegalAction("draw-character", "a player holding a character card draws none", action)
            if self.game.options.draw_first and not self.fresh:
                return IllegalAction(
                    "draw-character", "a character card is drawn at the start of the turn", action
                )
            if self.drew:
                return IllegalAction("draw-character", "one character card drawn per turn", action)
            return IllegalAction("draw-character", "the character deck is empty", action)
        if isinstance(action, Play):
            if self.char_hand[p] == action.char and self.vetoed >> PLAY_BIT & 1:
                return IllegalAction("policier-veto", "the Policier stopped this card this turn", action)
            return IllegalAction(
                "play-character",
                f"{self.player_name(p)} does not hold the {PIECE_TITLES[action.char]} card",
                action,
            )
        if isinstance(action, SIGNALS):
            return self._explain_signal(action)
        if isinstance(action, Hint):
            if self.game.options.privileges != "hint":
                return IllegalAction(
                    "no-talking",
                    "no 'hint': the privileges are not folded into one hint (option privileges='hint')",
                    action,
                )
            if self.hinted:
                return IllegalAction("hint", "one hint per turn", action)
            if self.hearts[p] < 0:
                return IllegalAction("hint", "only a player whose heart is on a character may hint", action)
            return IllegalAction("hint", "a hint names a character and the zone of a wish in hand", action)
        if isinstance(action, End):
            return IllegalAction(
                "two-moves", "with must_move_twice, make two moves before ending the turn", action
            )
        if isinstance(action, (Move, Board, Drive)):
            return self._explain_move(action)
        return IllegalAction("not-legal", f"{action} is not legal now ({PHASE_NAMES[self.phase]})", action)

    def _explain_move(self, action: Move | Board | Drive) -> IllegalAction:
        """Why a move of a piece (a character, or the Omnibus) is refused now."""
        p = self.turn_player
        if self.moves >= 2:
            return IllegalAction("two-moves", "two moves per turn", action)
        piece = action.char if isinstance(action, (Move, Board)) else OMNIBUS
        if isinstance(action, Board):
            piece = OMNIBUS
        if self.moved >> piece & 1:
            return IllegalAction(
                "distinct-pieces", f"the {PIECE_TITLES[piece]} already moved this turn", action
            )
        if self.vetoed >> piece & 1:
            return IllegalAction(
                "policier-veto", f"the Policier stopped the {PIECE_TITLES[piece]} this turn", action
            )
        if isinstance(action, Board):
            return self._explain_board(action.char)
        if isinstance(action, Drive):
            return IllegalAction("omnibus-move", "the Omnibus must drive to another location", action)
        assert isinstance(action, Move)
        c = action.char
        if not self._may_move(p, c):
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

    def _explain_window(self, action: Action) -> IllegalAction:
        q = self.asking[0]
        name = self.player_name(q)
        if isinstance(action, Lay):
            if action.wish not in self.hands[q]:
                return IllegalAction("lay-wish", f"wish {action.wish} is not in {name}'s hand", action)
            return IllegalAction("lay-wish", f"wish {action.wish} is not visible on the board", action)
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
            if self.signalled >> q & 1:
                return IllegalAction("privilege", "one signal between moves per turn", action)
            return IllegalAction(
                "privilege", "'reach' and 'glare' point at another player of the game", action
            )
        return IllegalAction(
            "lay-window",
            f"between moves, {name} is asked first: 'lay N' (a visible wish of their hand) or 'pass'",
            action,
        )

    def _explain_signal(self, action: Action) -> IllegalAction:
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
        if self.hinted:
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

    def _explain_board(self, char: int) -> IllegalAction:
        action = BOARDS[char]
        if char == CHAT:
            return IllegalAction("omnibus-no-chat", "the Chat never rides the Omnibus", action)
        if self.pos[char] != self.bus:
            return IllegalAction(
                "omnibus-board", f"the {PIECE_TITLES[char]} is not where the Omnibus stands", action
            )
        if len(self.boarding) >= 3:
            return IllegalAction("omnibus-capacity", "the Omnibus carries at most three characters", action)
        if char in self.boarding:
            return IllegalAction("omnibus-board", f"the {PIECE_TITLES[char]} is already aboard", action)
        if self.boarding and char < self.boarding[-1]:
            return IllegalAction(
                "omnibus-order", "passengers board in the order of the character list", action
            )
        return IllegalAction("control", f"the {PIECE_TITLES[char]} wears another player's heart", action)

    def _explain_effect(self, action: Action) -> IllegalAction:
        eff = self.eff
        name = PIECE_TITLES[eff]
        if eff == POETE:
            if isinstance(action, Discard):
                return IllegalAction("poete", f"wish {action.wish} is not in the player's hand", action)
            if isinstance(action, Keep):
                return IllegalAction(
                    "poete",
                    f"the Poète discards at least {self.game.options.poete_min_discard} wish(es)",
                    action,
                )
            return IllegalAction(
                "effect-pending", "the Poète's player discards ('discard N') or stops ('keep')", action
            )
        if eff == POLICIER:
            if isinstance(action, Send):
                if action.char != self.eff_queue[0]:
                    return IllegalAction(
                        "policier", f"send the {PIECE_TITLES[self.eff_queue[0]]} first (list order)", action
                    )
                return IllegalAction(
                    "policier", "the Policier sends characters to the adjacent zones", action
                )
            return IllegalAction("effect-pending", "the Policier's effect waits for 'send X Z'", action)
        if isinstance(action, Target):
            rule = {GARCON: "garcon", CHAT: "chat", COMEDIENNE: "comedienne", INSTITUTRICE: "institutrice"}[
                eff
            ]
            if eff == COMEDIENNE and action.char == CHAT:
                return IllegalAction(rule, "the Chat cannot be chosen by the Comédienne", action)
            return IllegalAction(
                rule,
                f"the {name}'s effect may pick {', '.join(PIECE_NAMES[c] for c in self._targets())} now",
                action,
            )
        return IllegalAction("effect-pending", f"the {name}'s effect waits for 'target X'", action)
