"""Get on Board's rule options: each an interpretation or a variant, quoted in ``docs/rules/getonboard.md``.

Every option's default is the rule text's reading; the alternative is named (the seed's French
words are in the docs).  ``check_declared`` holds options built by hand to the same declarations
as those parsed from a record or a notebook.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from gamelib.core.options import Between, check_declared

ROUNDS = 12
"""Rounds in a game: one per ticket of the pile."""

CITY_PLAYERS = {"rome": (2, 3), "paris": (4, 5)}
"""The seed's pairing: « À deux ou trois joueurs, utilisez Rome ; à quatre ou cinq, Paris »."""


@dataclass(frozen=True)
class GetOnBoardOptions:
    """Rule options; each is an interpretation or variant quoted in ``docs/rules/getonboard.md``."""

    city: Literal["auto", "rome", "paris"] = "auto"
    """"rome", "paris", or "auto": Rome for 1-3 players, Paris for 4-5 (the seed's pairing)."""
    free_city: bool = False
    """Lift the pairing "À deux ou trois joueurs, utilisez Rome ; à quatre ou cinq, Paris"."""
    rome_fluid: Literal["round", "first-ticket"] = "round"
    """Which ticket sets Rome's fluid colour: "round" (each revealed ticket) or "first-ticket"."""
    fluid_bonus: Literal["with-transfer", "always"] = "with-transfer"
    """Rome's +1 circle on a fluid section: "with-transfer" (only where opponents' sticks lie) or "always"."""
    loops: Literal["allowed", "forced-only"] = "allowed"
    """A stick that re-enters one's own line (now, or by force later in the turn): "allowed" (the
    text: « Revenir sur un carrefour déjà visité [...] le joueur est éliminé », a legal move that
    eliminates) or "forced-only" (offered only when no other stick finishes the shape safely: a
    convenience for random baselines and searches; the default of rules version 1)."""
    shape_fit: Literal["whole-shape", "per-stick"] = "whole-shape"
    """"whole-shape" (the text: the route « du tracé demandé » is laid whole, « Le nombre de segments
    et le nombre de virages doivent être respectés », so a stick after which the rest of the shape
    cannot be laid on the map is refused, rule ``shape-fits-map``) or "per-stick" (any stick on an
    open section is offered; a line stuck mid-shape ends its turn there, the sticks left are lost)."""
    tourist_overflow: Literal["lost", "next-row"] = "lost"
    """A tourist reached when the current row is full: "lost" or "next-row"."""
    empty_destination: Literal["ignore", "close"] = "ignore"
    """A monument or restaurant reached while the current row is empty: "ignore" or "close" (the row is wasted)."""
    start_features: bool = False
    """Whether the features of one's start intersection apply when the pawn is placed."""
    rounds: Annotated[int, Between(1, ROUNDS)] = ROUNDS
    """Number of rounds (12 in the rules; fewer only for teaching and tests)."""
    solo_yellow_rounds: Annotated[int, Between(0, ROUNDS)] = 6
    """Solo: a common objective is worth 10 if achieved within this many rounds, 6 afterwards."""
    solo_affluence: bool = True
    """Solo: the map's affluence line counts as one opponent stick on each of its sections."""

    def __post_init__(self) -> None:
        check_declared(self)  # options built by hand are held to the declarations above


__all__ = ["CITY_PLAYERS", "ROUNDS", "GetOnBoardOptions"]
