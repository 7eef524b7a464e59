"""Get on Board's setup and its chance: the piles dealt, the start chosen, the ticket revealed.

Each action class's transition (``@transition``) and refusal (``@refusal``) sit side by side;
core dispatches on the action's class.  A pile is dealt as a chance node, uniform over the cards
not yet out of it (the same distribution as a shuffle, with no hidden state); the cards out of
the pile being dealt are the derived bitmask ``_out``, so a node's outcomes are one lookup in a
table the game keeps for every position it plays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gamelib.core.errors import IllegalAction
from gamelib.core.game import CHANCE, Action
from gamelib.core.rulebook import refusal, transition
from gamelib.getonboard.actions import (
    DEALS,
    OBJECTIVES,
    PERSONALS,
    SHEETS,
    TICKETS,
    ChooseStart,
    DealPersonal,
    DealSheet,
    DealStart,
    DrawObjective,
    RevealTicket,
)
from gamelib.getonboard.phases import P_DEAL, P_OBJECTIVE, P_PERSONAL, P_REVEAL, P_SHEET, P_START, PHASES
from gamelib.getonboard.scoring import apply_features
from gamelib.getonboard.turns import Turns

if TYPE_CHECKING:
    from gamelib.getonboard.rules import GetOnBoardGame

Pile = tuple[list[tuple[Action, float]], list[Action]]
"""A chance node's outcomes (card, probability) and the same cards as its legal actions."""

PILE_OF: dict[type[Action], int] = {
    DrawObjective: P_OBJECTIVE,
    DealSheet: P_SHEET,
    DealPersonal: P_PERSONAL,
    DealStart: P_DEAL,
    RevealTicket: P_REVEAL,
}
"""Each chance outcome's class and the phase whose pile deals it."""


_NUMBERED: dict[int, tuple[tuple[Action, int], ...]] = {
    P_OBJECTIVE: tuple((card, card.objective) for card in OBJECTIVES),
    P_SHEET: tuple((card, card.sheet) for card in SHEETS),
    P_PERSONAL: tuple((card, card.card) for card in PERSONALS),
    P_DEAL: tuple((card, card.number) for card in DEALS),
    P_REVEAL: tuple((card, card.number) for card in TICKETS),
}
"""Every card each pile may hold, with its number in the pile's bitmask (the number its notation carries)."""


def deck(game: GetOnBoardGame, phase: int) -> tuple[tuple[Action, int], ...]:
    """Every card of the pile dealt in ``phase`` before any is dealt (in universe order), with its
    number: the city's personal objectives, the map's start numbers."""
    cards = _NUMBERED.get(phase, ())
    if phase == P_PERSONAL:
        return cards[: len(game.tables.personal[game.city])]
    if phase == P_DEAL:
        return tuple((card, number) for card, number in cards if number in game.board.starts)
    return cards


_CHANCES: dict[int, tuple[Action, float]] = {}
"""``(card, 1 / n)`` by phase, card number and ``n``: one tuple for all the pile states that hold it
(a few hundred against thousands of states), so filling the pile memo allocates two lists a state."""

_DECKS: dict[tuple[str, int], tuple[tuple[Action, int], ...]] = {}
""":func:`deck` by city and phase."""


def pile(game: GetOnBoardGame, phase: int, out: int) -> Pile:
    """The cards of ``phase``'s pile not in the bitmask ``out``, equally likely (shared lists,
    never mutated; memoised on the game under ``out << 4 | phase``: a pile of ``k`` cards has at
    most ``2**k`` states)."""
    key = out << 4 | phase
    found = game.pile_table.get(key)
    if found is None:
        cards = _DECKS.get((game.city, phase))
        if cards is None:
            cards = _DECKS[(game.city, phase)] = deck(game, phase)
        left = [(card, number) for card, number in cards if not out >> number & 1]
        n = len(left)
        chances = []
        for card, number in left:
            chance = _CHANCES.get((phase << 8 | number) << 8 | n)  # ints: an action hashes slowly
            if chance is None:
                chance = _CHANCES[(phase << 8 | number) << 8 | n] = (card, 1.0 / n)
            chances.append(chance)
        found = game.pile_table[key] = (chances, [card for card, _ in left])
    return found


class Dealing(Turns):
    """The setup and the reveals of :class:`~gamelib.getonboard.rules.GetOnBoardState` (the
    turns' rules, which a reveal starts, are its base)."""

    def _pile_out(self) -> int:
        """The cards out of the pile being dealt now (after the setup: the tickets revealed)."""
        used: Any = {
            P_OBJECTIVE: self.objectives,
            P_SHEET: tuple(s + 1 for s in self.sheet_of),
            P_PERSONAL: tuple(c + 1 for c in self.personal),
            P_DEAL: tuple(t for hand in self.dealt for t in hand),
        }.get(self.phase, self.tickets)
        mask = 0
        for card in used:
            mask |= 1 << card
        return mask

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        found = self.game.pile_table.get(self._out << 4 | self.phase) or pile(
            self.game, self.phase, self._out
        )
        return list(found[0])

    def _card_out(self, number: int, pile_done: bool, then: int) -> None:
        """Card ``number`` leaves the pile being dealt; once the pile is done, phase ``then``
        follows with its own pile untouched."""
        self._out |= 1 << number
        if pile_done:
            self._begin_phase(then)

    def _begin_phase(self, phase: int) -> None:
        """A setup phase begins: its pile (if any) untouched, its actor to act."""
        self.phase = phase
        self._out = 0
        self._player = PHASES.who(self, phase)

    @transition(DrawObjective)
    def _draw_objective(self, action: DrawObjective) -> None:
        """« Préparez deux objectifs communs visibles »: the second one ends the pile, yellow sides up."""
        self.objectives = (*self.objectives, action.objective)
        if len(self.objectives) == 2:
            self.flipped = (False, False)
        self._card_out(action.objective, len(self.objectives) == 2, P_SHEET)

    @transition(DealSheet)
    def _deal_sheet(self, action: DealSheet) -> None:
        """Each player takes a sheet « dont les tracés supérieurs sont différents de ceux des autres »: without replacement."""
        self.sheet_of = (*self.sheet_of, action.sheet - 1)
        self._card_out(action.sheet, len(self.sheet_of) == self.num_players, P_PERSONAL)

    @transition(DealPersonal)
    def _deal_personal(self, action: DealPersonal) -> None:
        """A personal objective « adapté à la ville, face visible », to the next player in seat order."""
        self.personal = (*self.personal, action.card - 1)
        self._card_out(action.card, len(self.personal) == self.num_players, P_DEAL)

    @transition(DealStart)
    def _deal_start(self, action: DealStart) -> None:
        """« distribuez deux Tickets parmi les numéros autorisés »: to each player in turn, without replacement."""
        per = self.game.deals_per_player
        dealt = list(self.dealt)
        if not dealt or len(dealt[-1]) == per:
            dealt.append(())
        dealt[-1] = (*dealt[-1], action.number)
        self.dealt = tuple(dealt)
        done = len(dealt) == self.num_players and len(dealt[-1]) == per
        self._card_out(action.number, done, P_START)  # then the tickets' pile: none revealed yet

    @transition(RevealTicket)
    def _reveal_ticket(self, action: RevealTicket) -> None:
        """« Le Contrôleur révèle un Ticket »: the round begins with the Contrôleur's turn."""
        self.tickets = (*self.tickets, action.number)
        self._out |= 1 << action.number
        self.turn_index = 0
        self._begin_turn_or_skip()

    @refusal(DrawObjective, DealSheet, DealPersonal, DealStart, RevealTicket)
    def _why_not_dealt(self, action: Action) -> IllegalAction:
        """A chance outcome while chance acts (``_refuse_now`` said so) but not legal: another
        pile is being dealt, or the card is out of its pile."""
        if PILE_OF[type(action)] != self.phase:
            return IllegalAction(
                "setup-order", f"{action} does not fit: now {PHASES.names[self.phase]}", action
            )
        if isinstance(action, DealStart) and action.number not in self.board.starts:
            return IllegalAction(
                "not-legal",
                f"{self.board.title} has start tickets 1-{len(self.board.starts)}, not {action.number}",
                action,
            )
        return IllegalAction("already-dealt", f"{action}: that card is no longer in its pile", action)

    # ------------------------------------------------------------------ the start
    def start_choices(self, player: int) -> list[int]:
        """The start numbers ``player`` may keep: their dealt start tickets, in order."""
        return sorted(self.dealt[player])

    @transition(ChooseStart)
    def _choose_start(self, action: ChooseStart) -> None:
        """« laissez chaque joueur en choisir un »: the pawn goes on the start, the line begins there."""
        number = action.number
        p = len(self.start_of)
        node = self.board.starts[number]
        self.start_of = (*self.start_of, number)
        self.end[p] = node
        self.visited[p] = 1 << node
        self.routes[p] = (node,)
        if self.game.options.start_features:
            self.sheets[p] = apply_features(
                self.sheets[p], self.board.features[node], self.tables, self.game.options
            )
        if len(self.start_of) == self.num_players:
            self._begin_phase(P_REVEAL)  # every start is chosen: the first round
        else:
            self._player = p + 1

    @refusal(ChooseStart)
    def _why_not_start(self, action: ChooseStart) -> IllegalAction:
        """A start outside the setup, or one the player was not dealt."""
        if self.phase != P_START:
            return IllegalAction(
                "turn-order", f"the start is chosen during the setup; now {PHASES.names[self.phase]}", action
            )
        who = self._player
        return IllegalAction(
            "start-ticket",
            f"{self.player_name(who)} was dealt start tickets {self.start_choices(who)}, not {action.number}",
            action,
        )

    def _refuse_chance(self, action: Action) -> IllegalAction | None:
        """Whether chance or a player acts now is a refusal whatever the action's class."""
        dealt = type(action) in PILE_OF
        if dealt and self._player != CHANCE:
            return IllegalAction(
                "chance-node", f"{action} is a chance outcome; now {PHASES.names[self.phase]}", action
            )
        if not dealt and self._player == CHANCE:
            return IllegalAction(
                "chance-node", f"{action} is a player's action; now {PHASES.names[self.phase]}", action
            )
        return None


__all__ = ["PILE_OF", "Dealing", "Pile", "deck", "pile"]
