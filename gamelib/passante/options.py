"""A Une Passante's phases and rule options, each declared once (``docs/rules/passante.md`` quotes
the seed's sentence behind every option)."""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Annotated, Literal

from gamelib.core.options import Between, check_declared
from gamelib.core.phases import Phase, Phases

# ---------------------------------------------------------------------------- phases
PHASES = Phases(
    Phase("choose the Passante's start", "first"),  # after the deal, joueur 1 places her
    Phase("turn", "turn", tags={"rest"}),  # draw, move, board/drive, play, signal, lay, end
    Phase("boarding the Omnibus", "turn", tags={"rest"}),  # board X or drive Z
    Phase("character card drawn", "chance"),
    Phase("character effect", "actor"),  # the effect waits for its player's choice
    Phase("Comédienne's die", "chance"),
    Phase("end-of-round card", "chance"),
    Phase("game over", "nobody", tags={"rest"}),  # the last window opens before the count
    Phase("Policier's veto", "vetoer"),  # stop the move or card just announced, or allow it
    Phase("wishes laid between moves", "asked"),  # lay N or pass, seat after seat
    actors={
        "first": lambda state: 0,
        "turn": operator.attrgetter("turn_player"),
        "actor": operator.attrgetter("actor"),
        "vetoer": operator.attrgetter("vetoer"),
        "asked": lambda state: state.asking[0],
    },
)
"""Every phase in its number's order, with who acts in it; tag ``rest``: a move is over when the
game stands there (a window between moves may open).  The number is stored in states and
tensors: append only."""
SETUP, MAIN, BOARDING, CARD_DRAW, EFFECT, DIE, EVENT, OVER, VETO_PHASE, WINDOW = PHASES.numbers
PHASE_NAMES = PHASES.names
_REST = PHASES.tagged("rest")
_WHO = PHASES.actors
"""``_WHO[phase](state)``: who acts (when no wish draw is owed), derived from :data:`PHASES`."""
# Effect kinds resolved in the EFFECT phase are the characters' own indices.
RETURN_TURN, RETURN_ROUND = 0, 1
"""Where an effect hands control back: to the turn it was played in, or to the next round."""


@dataclass(frozen=True)
class PassanteOptions:
    """Rule options: each is a reading of a seed sentence (see docs/rules/passante.md)."""

    solo_hand_size: Annotated[int, Between(1, 10)] = 5
    """Wishes dealt to a lone player (the seed lists only 4, 3 and 2 players)."""
    heart_leaves_with_card: bool = False
    """False: the heart stays pinned after its card is played (until the Passante or the
    Mendiante removes it, or its owner draws a new card).  True: playing the card unpins it."""
    omnibus_carries_controlled: bool = False
    """May the Omnibus carry a character whose heart belongs to another player?"""
    carried_counts_as_moved: bool = False
    """Does riding the Omnibus count as that character's move of the turn?"""
    must_move_twice: bool = False
    """True: a turn may end only after two moves (or when no move is possible)."""
    nearest_by_row: bool = False
    """How "le plus proche" is measured: False = on the board graph (the place joins every zone,
    so école and café are 2 apart), True = along the row of zones (école-café is 3)."""
    garcon_moves_himself: bool = False
    """May the Garçon de café's effect send the Garçon himself?"""
    effects_respect_control: bool = False
    """True: effects may not pick a character whose heart belongs to another player."""
    policier_uses_place: bool = False
    """May the Policier send characters onto the central place (it is "adjacent" to every zone)?"""
    comedienne_die: Literal["effect", "swap"] = "effect"
    """The Comédienne's fallback die: "effect" applies the rolled character's effect, "swap"
    swaps her with the rolled character if it stands elsewhere (and is not the Chat)."""
    institutrice_from_own_zone: bool = False
    """False: the copied effect works from the copied character's place, as if its card were
    played.  True: from the Institutrice's place, the Institutrice taking that character's role."""
    mendiante_clears_all_hearts: bool = False
    """False: only the hearts on the Mendiante's zone are removed; True: every heart."""
    mendiante_discards_leave_game: bool = False
    """False: the discarded character cards go under the deck; True: out of the game."""
    poete_min_discard: Annotated[int, Between(0, 3)] = 1
    """The least number of wishes the Poète's player discards ("minimum 1 Souhait")."""
    round_event: bool = True
    """Apply a random remaining character's effect at the end of every round."""
    round_event_chooser: Literal["last", "next"] = "last"
    """Who makes the end-of-round effect's choices: "last" = the player who ended the round,
    "next" = the player who starts the next one."""
    final_round_event: bool = False
    """Also at the end of the very last turn (before the count)."""
    turn_order_follows_passante: bool = True
    """Players play "dans le sens de la Passante": the order reverses when she turns back."""
    open_hands: bool = False
    """Analysis variant: every wish hand is public (perfect communication)."""
    table_talk: bool = False
    """Rules version 2's switch for the fold (``privileges="hint"``): True selects the fold
    whatever ``privileges`` says."""
    privileges: Literal["cards", "hint", "none"] = "cards"
    """The table privileges (« Vous pouvez à présent … »): "cards" (the text) = each character's
    own signal for the player whose heart is on it, once per turn on their turn (``name``,
    ``call``, ``meow``/``hiss``/``purr``, ``mime``, ``reach``, ``knock``, ``stand``/``sit``/
    ``glare``; the Policier's is the veto); "hint" = all folded into one ``hint X Z`` any player
    with a heart may give; "none" = no signal at all (rules versions 1 and 2)."""
    lay_wishes: Literal["anytime", "choice", "automatic"] = "anytime"
    """« A n'importe quel moment durant la partie, si la carte Souhait d'un joueur représente une
    situation visible … son possesseur peut la poser »: "anytime" (the text, rules version 4) = on
    their own turn between actions, and between two moves of anybody's turn when a wish has just
    become visible or a card has just been drawn: every seat holding wishes is asked in seat order
    (``lay N`` or ``pass``; see docs/rules/passante.md for what the asking reveals: nothing);
    "choice" = only on the owner's own turn (rules versions 2 and 3); "automatic" = the engine
    lays it the moment it is visible (rules version 1)."""
    window_asks: Literal["everyone", "holders"] = "everyone"
    """Who is asked between moves (``lay_wishes="anytime"``): "everyone" holding wishes (being
    asked tells nothing about a hand); "holders" = only the seats holding a wish visible now
    (shorter games, but everyone learns who holds one, even when it is kept)."""
    draw_first: bool = False
    """True: a character card is drawn only as the first action of the turn.  False (the text):
    once per turn, at any point, while holding none."""
    play_while_boarding: bool = True
    """« à n'importe quel moment durant son tour »: the card may be played while characters are
    boarding the Omnibus (False: not between ``board`` and ``drive``)."""
    omnibus_must_leave: bool = False
    """True: the Omnibus drives to another location.  False (the text, « n'importe quelle
    zone »): it may also stay where it stands (its passengers get off there)."""
    policier_veto: bool = True
    """« empêcher un joueur d'effectuer un déplacement ou jouer un personnage, une fois durant
    son tour »: the player whose heart is on the Policier may stop, once per turn of another
    player, a move or a card as it is announced (``veto`` / ``allow``)."""

    def __post_init__(self) -> None:
        check_declared(self)  # choices (Literal) and ranges (Between), declared once above
        if self.table_talk:
            object.__setattr__(self, "privileges", "hint")


HAND_SIZE = {2: 4, 3: 3, 4: 2}
"""Seed: "Selon le nombre de joueurs (4, 3 ou 2), 2, 3 ou 4 cartes Souhait"."""
