"""Fugitive's seats, phases, endings and rule options, each declared once (``docs/rules/fugitive.md``
quotes the seed's sentence behind every option).

Imports nothing of its own folder but the board, so every other module of the game may read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from gamelib.core.options import Between, check_declared
from gamelib.core.phases import Phase, Phases
from gamelib.fugitive.board import LAST, MIN_ESCAPE_CARD

FUGITIVE, DETECTIVE = 0, 1
PLAYER_NAMES = ("fugitive", "detective")
"""The seats' names in code and records (what a student reads comes from the wording)."""

# ---------------------------------------------------------------------------- phases
PHASES = Phases(
    Phase("setup deal", "chance"),  # the fugitive's starting cards
    Phase("fugitive draws", "fugitive", tags={"draw"}),  # draw 1|2|3
    Phase("fugitive places a hideout", "fugitive"),  # hide N or pass
    Phase("fugitive lays sprint cards", "fugitive"),  # sprint S or done
    Phase("detective draws", "detective", tags={"draw"}),  # draw 1|2|3
    Phase("detective guesses", "detective", tags={"name"}),  # guess N, add N, manhunt
    Phase("detective builds a series", "detective"),  # add N or reveal
    Phase("manhunt", "detective", tags={"name"}),  # guess N until a miss
    Phase("card dealt", "chance"),  # the card drawn from the chosen deck
    Phase("game over", "nobody"),
    actors={"fugitive": lambda state: FUGITIVE, "detective": lambda state: DETECTIVE},
)
"""Every phase in its number's order: the number is stored in states, records and tensors (append
new phases at the end)."""
SETUP, F_DRAW, F_PLACE, F_SPRINT, D_DRAW, D_GUESS, D_SERIES, HUNTING, DEALING, OVER = PHASES.numbers
SEAT_OF_PHASE: tuple[int, ...] = tuple(PHASES.who(None, phase) for phase in PHASES.numbers)
"""Who acts in each phase, read from :data:`PHASES` once: every Fugitive actor is a fixed seat,
so ``current_player`` (asked several times a step) is one tuple index."""
DRAW_PHASES = PHASES.tagged("draw")
NAMING_PHASES = PHASES.tagged("name")
"""The phases in which the detective names numbers one at a time (a guess, or the manhunt)."""

ENDINGS = {
    "escape": "the fugitive laid the escape card and no manhunt followed",
    "manhunt-miss": "the detective missed during the manhunt: the fugitive escapes",
    "caught": "every hideout was found: the detective wins",
    "max_rounds": "unfinished: the engine's round limit (option max_rounds) stopped the game before a rule ended it",
}
"""The values of ``state.ended_by`` once the game is over, and what each means."""

# ---------------------------------------------------------------------------- options
MAX_ROUNDS = 100_000
"""The largest ``max_rounds``: far beyond any real game, and small enough that
``max_game_length`` stays a 32-bit int (OpenSpiel's bound, so both libraries take the same values)."""


@dataclass(frozen=True)
class FugitiveOptions:
    """Rule options (see docs/rules/fugitive.md)."""

    edition: Literal[1, 2] = 1
    """1: first turn 1 or 2 hideouts.  2: first turn exactly 2; a pass draws an extra card."""
    max_rounds: Annotated[int, Between(1, MAX_ROUNDS)] = 100
    """Engine safety limit (not a rule): after this many detective turns the game stops unfinished
    (returns 0 for both; tournaments report it apart, never as a draw)."""
    escape_card: Annotated[int, Between(MIN_ESCAPE_CARD, LAST)] = LAST
    """The highest card (42 published).  Smaller decks (7..41) are for solvers and classrooms."""
    canonical_order: bool = False
    """Series numbers and the sprint cards under one hideout in increasing order (solvers)."""
    manhunt: Literal["choice", "immediate"] = "choice"
    """After the escape card (highest revealed at or below the threshold): ``"choice"`` (the
    text): the detective draws, then guesses, names a series or calls ``manhunt``, and the fugitive
    escapes when that turn ends; ``"immediate"`` (rules version 1): the manhunt starts at once."""
    refuse_known_numbers: bool = False
    """True: the detective may not name a number he holds or sees face up (a certain miss); for
    agents and solvers.  False (the text, « un chiffre entre 1 et 41 »): any number 1..last-1."""
    escape_sprints: Literal["shown", "hidden"] = "shown"
    """The sprint cards under the escape card, which is laid face up: ``"shown"`` (default: like the
    sprint cards of every face-up hideout, « elles sont aussi révélées ») or ``"hidden"`` (the
    peer engine's reading: face down until the end; the exact belief does not model it yet)."""

    def __post_init__(self) -> None:
        check_declared(self)  # options built by hand are held to the declarations above

    @property
    def first_turn_hideouts(self) -> int:
        """The fewest hideouts the fugitive lays on the first turn: 2 in edition 2, else 1 (he may
        lay 2 in either)."""
        return 2 if self.edition == 2 else 1
