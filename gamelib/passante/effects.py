"""A Une Passante: the character effects and what follows from a move without a new choice —
the board queries the effects read, each effect's answers (``target X``, ``send X Z``,
``discard N``, ``keep``, the die, the round's card: each action class's ``@transition`` beside
its ``@refusal``), the moments between moves (wishes laid at any moment), the wish deals, the
Policier's veto test, and the end of a turn and of a round.

:class:`Effects` is the part of :class:`~gamelib.passante.rules.PassanteState` that changes the
state once an action is legal; ``rules.py`` declares the fields (their annotations here only tell
the type checker) and picks the legal actions; ``refusals.py`` holds the turn's own actions.
"""

from __future__ import annotations

from collections.abc import Sequence

from gamelib.core.errors import IllegalAction
from gamelib.core.game import Action, State
from gamelib.core.rulebook import refusal, transition
from gamelib.passante.actions import (
    DISCARDS,
    KEEP,
    SENDS,
    TARGETS,
    VISIBLE_IF_AT,
    WISH_CHARS,
    WISH_MASK,
    WISH_ZONE,
    Board,
    CharacterCard,
    DieRoll,
    Discard,
    Drive,
    Keep,
    Move,
    Play,
    RoundEvent,
    Send,
    Target,
    WishCard,
)
from gamelib.passante.board import (
    CAFE,
    CHARACTERS,
    CHAT,
    COMEDIENNE,
    ECOLE,
    GARCON,
    GARDIEN,
    GRAPH_DISTANCE,
    INSTITUTRICE,
    MENDIANTE,
    PIECE_NAMES,
    PIECE_TITLES,
    PLACE,
    POETE,
    POLICIER,
    ROW_DISTANCE,
    ROW_NEIGHBOURS,
    START_ZONE,
    ZONES,
)
from gamelib.passante.options import (
    BOARDING,
    DIE,
    EFFECT,
    EVENT,
    MAIN,
    OVER,
    PHASE_NAMES,
    RETURN_ROUND,
    RETURN_TURN,
    WINDOW,
)

_BIT = tuple(1 << c for c in CHARACTERS)
_OTHERS = tuple(tuple(c for c in CHARACTERS if c != src) for src in CHARACTERS)
"""``_OTHERS[src]``: every character but ``src``, in order (the pool an effect picks from)."""
_NOT_INSTITUTRICE = tuple(tuple(c for c in others if c != INSTITUTRICE) for others in _OTHERS)
"""The Institutrice's pool: every character but ``src`` and herself (she copies another's effect)."""


class Effects(State):
    """The transitions of A Une Passante that a move sets off (see the module docstring)."""

    pos: list[int]
    bus: int
    hearts: list[int]
    char_hand: list[int]
    char_deck: int
    char_under: tuple[int, ...]
    char_out: int
    wish_deck: int
    hands: list[tuple[int, ...]]
    fulfilled: list[tuple[int, ...]]
    discards: list[tuple[int, ...]]
    pending: tuple[int, ...]
    phase: int
    turn_player: int
    played: int
    turns: int
    rounds: int
    moved: int
    moves: int
    fresh: bool
    hinted: bool
    boarding: tuple[int, ...]
    passante: int
    pdir: int
    arrivals: int
    last_turn: bool
    ended: bool
    eff: int
    actor: int
    src: int
    eff_left: int
    eff_queue: tuple[int, ...]
    eff_count: int
    eff_return: int
    drew: bool
    veto_used: bool
    vetoed: int
    proposed: Action | None
    vetoer: int
    auto_lay: bool
    anytime: bool
    shown: int
    asking: tuple[int, ...]
    dealt_to: int
    signalled: int
    window_return: int
    laid: int
    secrets: tuple[tuple[int, int], ...]
    laid_log: tuple[tuple[int, int, int], ...]
    hints: tuple[tuple[int, int, int], ...]
    signals: tuple[tuple[int, str], ...]
    said: tuple[tuple[int, int, str, int, int], ...]
    _to_move: int

    def controllers(self, char: int) -> list[int]:
        return [p for p, h in enumerate(self.hearts) if h == char]

    def _others_hearts(self, player: int) -> int:
        """The characters ``player`` may not move, as a mask: those wearing another player's heart
        and not ``player``'s own (« Aucun autre joueur ne peut déplacer ce personnage »; a
        character wearing several hearts may be moved by each of their owners)."""
        hearts = self.hearts
        own = hearts[player]
        mask = 0
        for h in hearts:
            if h >= 0 and h != own:
                mask |= 1 << h
        return mask

    def _may_move(self, player: int, char: int) -> bool:
        return not self._others_hearts(player) >> char & 1

    def distance(self, a: int, b: int) -> int:
        table = ROW_DISTANCE if self.game.options.nearest_by_row else GRAPH_DISTANCE
        return table[a][b]

    def _effect_actions(self) -> list[Action]:
        eff = self.eff
        if eff == POETE:
            hand = self.hands[self.actor]
            acts: list[Action] = [DISCARDS[w] for w in hand]
            if self.eff_count >= self.game.options.poete_min_discard or not hand:
                acts.append(KEEP)
            return acts
        if eff == POLICIER:
            c = self.eff_queue[0]
            return [SENDS[c][z] for z in self._policier_destinations(c)]
        return [TARGETS[c] for c in self._targets()]

    def _targetable(self, char: int) -> bool:
        return not self.game.options.effects_respect_control or self._may_move(self.actor, char)

    def _nearest(self, candidates: Sequence[int], origin: int, least: int = 0) -> list[int]:
        """The candidates nearest to ``origin`` among those ``least`` or more away, in order (at
        distance 0 exactly those standing on ``origin``: "le même lieu" comes first)."""
        row = (ROW_DISTANCE if self.game.options.nearest_by_row else GRAPH_DISTANCE)[origin]
        pos = self.pos
        best = len(row)  # more than any distance
        out: list[int] = []
        for c in candidates:
            d = row[pos[c]]
            if d < least or d > best:
                continue
            if d < best:
                best, out = d, [c]
            else:
                out.append(c)
        return out

    def _targets(self) -> list[int]:
        """Characters the pending effect may pick now (main case, else the "à défaut" one: those
        on the same place are the nearest ones, at distance 0)."""
        eff, src, pos = self.eff, self.src, self.pos
        here = pos[src]
        others: Sequence[int] = _OTHERS[src]
        if self.game.options.effects_respect_control:
            others = [c for c in others if self._may_move(self.actor, c)]
        if eff == GARCON:
            if self.game.options.garcon_moves_himself and here != CAFE and self._targetable(src):
                others = [src, *others]
            return self._nearest([c for c in others if pos[c] != CAFE], here)
        if eff == CHAT:
            # adjacent zones are the nearest ones; "à défaut, les deux plus proches"
            # (the Chat never stands on the central place, even when attracted there)
            if here == PLACE:
                others = [c for c in others if c != CHAT]
            return self._nearest(others, here, 1)  # those elsewhere
        if eff == COMEDIENNE:
            return [c for c in others if c != CHAT and pos[c] != here]
        if eff == INSTITUTRICE:
            return self._nearest(_NOT_INSTITUTRICE[src], here)
        return []

    def _policier_destinations(self, char: int) -> list[int]:
        here = self.pos[self.src]
        if here == PLACE:
            return list(ZONES)
        dests = list(ROW_NEIGHBOURS[here])
        if self.game.options.policier_uses_place and char != CHAT:
            dests.append(PLACE)
        return dests

    def _open_window(self) -> None:
        """« A n'importe quel moment durant la partie … son possesseur peut la poser »: a moment
        between moves.  When a wish not laid has just become visible, every seat holding wishes is
        asked in seat order; when only a card was drawn, the seats that drew; the player whose turn
        goes on lays in their own turn.  Who is asked depends on public facts only (the board,
        the wishes laid, hand sizes, who drew), so being asked tells nothing about a hand; with
        ``window_asks="holders"`` only the seats holding a visible wish are asked (that is told)."""
        p0, p1, p2, p3, p4, p5, p6, p7 = self.pos  # visible_wishes(), inlined: after every move
        t0, t1, t2, t3, t4, t5, t6, t7 = VISIBLE_IF_AT
        now = t0[p0] & t1[p1] & t2[p2] & t3[p3] & t4[p4] & t5[p5] & t6[p6] & t7[p7] & ~self.laid
        fresh = now & ~self.shown
        self.shown = now
        dealt, self.dealt_to = self.dealt_to, 0
        if not now or not (fresh or dealt):
            return
        me = -1 if self.phase == OVER else self.turn_player  # who lays in their own turn
        holders = self.game.options.window_asks == "holders"
        asked = [
            q
            for q, hand in enumerate(self.hands)
            if hand and q != me and (fresh or dealt >> q & 1) and not (holders and not self._layable(q))
        ]
        if asked:
            self.asking = tuple(asked)
            self.window_return = self.phase
            self.phase = WINDOW

    def _vetoable(self, action: Action) -> bool:
        """Is ``action`` a move or a card the Policier's player may stop now?"""
        if self.veto_used or POLICIER not in self.hearts or not self.game.options.policier_veto:
            return False
        if not isinstance(action, (Move, Play, Board, Drive)):
            return False
        if isinstance(action, (Board, Drive)) and self.phase == BOARDING:
            return False  # the Omnibus move was announced with its first boarding
        p = self.turn_player
        for q, h in enumerate(self.hearts):
            if h == POLICIER and q != p:
                self.vetoer = q
                return True
        return False

    def _settle(self) -> None:
        """Lay down every wish visible on the board; queue its owner's replacement draw."""
        if not self.auto_lay:
            if not self.wish_deck:
                self.pending = ()
            return
        occ = self.occupancy()
        for p, hand in enumerate(self.hands):
            shown = [w for w in hand if occ[WISH_ZONE[w]] & WISH_MASK[w] == WISH_MASK[w]]
            if shown:
                step = len(self.history)
                self.laid_log = (*self.laid_log, *((step, p, w) for w in shown))
                self.hands[p] = tuple(w for w in hand if w not in shown)
                self.fulfilled[p] = self.fulfilled[p] + tuple(shown)
                for w in shown:
                    self.laid |= 1 << w
                self.pending = self.pending + (p,) * len(shown)
        if not self.wish_deck:
            self.pending = ()

    @transition(WishCard)
    def _deal_wish(self, action: WishCard) -> None:
        wish = action.wish
        p = self.pending[0]
        if self.phase != WINDOW:  # a seat dealt in a window is asked again at once
            self.dealt_to |= 1 << p
        self.secrets = (*self.secrets, (len(self.history), p))
        self.pending = self.pending[1:]
        self.wish_deck &= ~(1 << wish)
        self.hands[p] = tuple(sorted((*self.hands[p], wish)))

    def _start_turn(self, player: int) -> None:
        self.turn_player = player
        self.phase = MAIN
        self.moved = 0
        self.moves = 0
        self.fresh = True
        self.hinted = False
        self.drew = False
        self.veto_used = False
        self.vetoed = 0
        self.signalled = 0

    @transition(CharacterCard)
    def _take_character(self, action: CharacterCard) -> None:
        char = action.char
        if self.char_deck:
            self.char_deck &= ~(1 << char)
        else:
            self.char_under = self.char_under[1:]
        p = self.turn_player
        self.char_hand[p] = char
        self.hearts[p] = char  # the player's one heart pin moves to the new character
        self.phase = MAIN
        self.fresh = False

    def _start_effect(self, char: int, actor: int, src: int) -> None:
        """Begin ``char``'s effect for ``actor``, working from ``src``'s place."""
        self.eff, self.actor, self.src = char, actor, src
        self.phase = EFFECT
        here = self.pos[src]
        if char == POETE:
            n = self.game.num_players
            if self.eff_return == RETURN_ROUND:  # "sur tous les joueurs": each player in turn
                self.eff_queue = tuple((actor + self._order_step() * i) % n for i in range(n))
            else:
                self.eff_queue = (actor,)
            self.eff_count = 0
            self.actor = self.eff_queue[0]
            return
        if char == MENDIANTE:
            self._mendiante(here)
            self._end_effect()
            return
        if char == GARDIEN:
            for c in CHARACTERS:
                if self.pos[c] == here:
                    self.pos[c] = START_ZONE[c]
            self._end_effect()
            return
        if char == POLICIER:
            self.eff_queue = tuple(c for c in CHARACTERS if c != src and self.pos[c] == here)
            if not self.eff_queue:
                self._end_effect()
            return
        if char == CHAT:
            self.eff_left = 2
        if not self._targets():  # the Comédienne then rolls her die; the others have no effect
            if char == COMEDIENNE:
                self.phase = DIE
            else:
                self._end_effect()

    def _mendiante(self, here: int) -> None:
        opts = self.game.options
        drawers = [p for p, h in enumerate(self.hearts) if h >= 0 and self.pos[h] == here]
        self.pending = self.pending + tuple(drawers)
        cleared = range(len(self.hearts)) if opts.mendiante_clears_all_hearts else drawers
        for p in cleared:
            char = self.hearts[p]
            if char < 0:
                continue
            self.hearts[p] = -1
            for q, card in enumerate(self.char_hand):
                if card == char:
                    self.char_hand[q] = -1
                    if opts.mendiante_discards_leave_game:
                        self.char_out |= 1 << char
                    else:
                        self.char_under = (*self.char_under, char)

    @refusal(WishCard, CharacterCard, DieRoll, RoundEvent)
    def _why_not_outcome(self, action: Action) -> IllegalAction:
        phase_name = "wish draw" if self.pending else PHASE_NAMES[self.phase]
        return IllegalAction(
            "chance-outcome", f"{action} is not a possible outcome of the {phase_name}", action
        )

    # ------------------------------------------------------------------ the effects' answers
    def _effect_pending(self, action: Action) -> IllegalAction:
        """An action that does not answer the effect under way."""
        eff = self.eff
        if eff == POETE:
            wanted = "the Poète's player discards ('discard N') or stops ('keep')"
        elif eff == POLICIER:
            wanted = "the Policier's effect waits for 'send X Z'"
        else:
            wanted = f"the {PIECE_TITLES[eff]}'s effect waits for 'target X'"
        return IllegalAction("effect-pending", wanted, action)

    def _no_effect(self, action: Action) -> IllegalAction | None:
        if self.phase == EFFECT:
            return None
        return IllegalAction(
            "no-effect-pending", f"{action} answers a character effect; none is pending", action
        )

    @transition(Target)
    def _target(self, action: Target) -> None:
        char = action.char
        eff, src = self.eff, self.src
        if eff == GARCON:
            self.pos[char] = CAFE
            self._end_effect()
        elif eff == CHAT:
            self.pos[char] = self.pos[src]
            self.eff_left -= 1
            if self.eff_left == 0 or not self._targets():
                self._end_effect()
        elif eff == COMEDIENNE:
            self.pos[src], self.pos[char] = self.pos[char], self.pos[src]
            self._end_effect()
        elif eff == INSTITUTRICE:
            new_src = src if self.game.options.institutrice_from_own_zone else char
            self._start_effect(char, self.actor, new_src)

    @refusal(Target)
    def _why_not_target(self, action: Target) -> IllegalAction:
        error = self._no_effect(action)
        if error is not None:
            return error
        eff = self.eff
        rule = {GARCON: "garcon", CHAT: "chat", COMEDIENNE: "comedienne", INSTITUTRICE: "institutrice"}[eff]
        if eff == COMEDIENNE and action.char == CHAT:
            return IllegalAction(rule, "the Chat cannot be chosen by the Comédienne", action)
        return IllegalAction(
            rule,
            f"the {PIECE_TITLES[eff]}'s effect may pick {', '.join(PIECE_NAMES[c] for c in self._targets())} now",
            action,
        )

    @transition(Send)
    def _send(self, action: Send) -> None:
        self.pos[action.char] = action.to
        self.eff_queue = self.eff_queue[1:]
        if not self.eff_queue:
            self._end_effect()

    @refusal(Send)
    def _why_not_send(self, action: Send) -> IllegalAction:
        error = self._no_effect(action)
        if error is not None:
            return error
        if action.char != self.eff_queue[0]:
            return IllegalAction(
                "policier", f"send the {PIECE_TITLES[self.eff_queue[0]]} first (list order)", action
            )
        return IllegalAction("policier", "the Policier sends characters to the adjacent zones", action)

    @transition(Discard)
    def _discard(self, action: Discard) -> None:
        p = self.actor
        self.secrets = (*self.secrets, (len(self.history), p))
        self.hands[p] = tuple(w for w in self.hands[p] if w != action.wish)
        self.discards[p] = (*self.discards[p], action.wish)
        self.eff_count += 1

    @refusal(Discard)
    def _why_not_discard(self, action: Discard) -> IllegalAction:
        error = self._no_effect(action)
        return error or IllegalAction("poete", f"wish {action.wish} is not in the player's hand", action)

    @transition(Keep)
    def _keep(self, action: Keep) -> None:
        self.pending = self.pending + (self.actor,) * self.eff_count
        self._poete_next()

    @refusal(Keep)
    def _why_not_keep(self, action: Keep) -> IllegalAction:
        error = self._no_effect(action)
        minimum = self.game.options.poete_min_discard
        return error or IllegalAction("poete", f"the Poète discards at least {minimum} wish(es)", action)

    @transition(DieRoll)
    def _die(self, action: DieRoll) -> None:
        face = action.char
        src = self.src
        if self.game.options.comedienne_die == "effect":
            self._start_effect(face, self.actor, face)
            return
        if face != src and face != CHAT and self.pos[face] != self.pos[src]:
            self.pos[src], self.pos[face] = self.pos[face], self.pos[src]
        self._end_effect()

    def _poete_next(self) -> None:
        self.eff_queue = self.eff_queue[1:]
        self.eff_count = 0
        if self.eff_queue:
            self.actor = self.eff_queue[0]
        else:
            self._end_effect()

    def _end_effect(self) -> None:
        self.eff = self.actor = self.src = -1
        self.eff_left = self.eff_count = 0
        self.eff_queue = ()
        if self.eff_return == RETURN_TURN:
            # back to the turn; passengers an effect took off the Omnibus's location get off
            if self.boarding:
                self.boarding = tuple(c for c in self.boarding if self.pos[c] == self.bus)
            self.phase = BOARDING if self.boarding else MAIN
        elif self.ended:
            self.phase = OVER
        else:
            self._start_turn(self._next_player())

    def _order_step(self) -> int:
        return self.pdir if self.game.options.turn_order_follows_passante else 1

    def _next_player(self) -> int:
        """The next player in the Passante's direction who has not played this round."""
        n = self.game.num_players
        step = self._order_step()
        p = self.turn_player
        for _ in range(n):
            p = (p + step) % n
            if not self.played >> p & 1:
                return p
        return (self.turn_player + step) % n

    def _end_turn(self) -> None:
        n = self.game.num_players
        self.turns += 1
        self.played |= 1 << self.turn_player
        round_over = self.played == (1 << n) - 1
        if round_over:
            self.rounds += 1
            self.played = 0
        opts = self.game.options
        if self.last_turn:
            self.ended = True
            if round_over and opts.round_event and opts.final_round_event and self._event_deck():
                self._begin_event()
            else:
                self.phase = OVER
            return
        self._walk_passante()
        if round_over and opts.round_event and self._event_deck():
            self._begin_event()
            return
        self._start_turn(self._next_player())

    def _event_deck(self) -> int:
        """The character cards the end-of-round card is drawn from: the deck and those under it."""
        return self.char_deck | sum(map(_BIT.__getitem__, self.char_under))

    def _begin_event(self) -> None:
        # "les cartes Personnages restantes sont mélangées": the known order is lost
        self.char_deck = self._event_deck()
        self.char_under = ()
        self.phase = EVENT

    @transition(RoundEvent)
    def _round_event(self, action: RoundEvent) -> None:
        char = action.char
        # the card is shown, its effect applied, and it goes back under the deck
        self.char_deck &= ~(1 << char)
        self.char_under = (char,)
        self.eff_return = RETURN_ROUND
        chooser = self.turn_player if self.game.options.round_event_chooser == "last" else self._next_player()
        self._start_effect(char, chooser, char)

    def _walk_passante(self) -> None:
        """Seed: the Passante moves one zone; hearts on the zone she left are removed."""
        left = self.passante
        if left == PLACE:
            self.passante = ECOLE if self.pdir == 1 else CAFE
        else:
            nxt = left + self.pdir
            if 0 <= nxt < len(ZONES):
                self.passante = nxt
            else:
                self.passante = PLACE
                self.arrivals += 1
                self.pdir = -self.pdir
                if self.arrivals >= self.game.num_players:
                    self.last_turn = True
        for p, h in enumerate(self.hearts):
            if h >= 0 and self.pos[h] == left:
                self.hearts[p] = -1

    def occupancy(self) -> list[int]:
        """Bitmask of the characters on each location."""
        occ = [0] * 5
        for c, z in enumerate(self.pos):
            occ[z] |= 1 << c
        return occ

    def visible_wishes(self) -> int:
        """Every wish whose situation is on the board now, as a bitmask (bit n: wish n)."""
        p0, p1, p2, p3, p4, p5, p6, p7 = self.pos
        t0, t1, t2, t3, t4, t5, t6, t7 = VISIBLE_IF_AT
        return t0[p0] & t1[p1] & t2[p2] & t3[p3] & t4[p4] & t5[p5] & t6[p6] & t7[p7]

    def _layable(self, player: int) -> list[int]:
        """Wishes of ``player``'s hand visible on the board now (choice mode: ``lay N``)."""
        pos = self.pos
        out = []
        for w in self.hands[player]:
            zone = WISH_ZONE[w]
            for c in WISH_CHARS[w]:
                if pos[c] != zone:
                    break
            else:
                out.append(w)
        return out
