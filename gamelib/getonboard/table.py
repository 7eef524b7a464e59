"""What lies on Get on Board's table: the attributes of a position, as a new game sets them.

:class:`Table` is the base of :class:`~gamelib.getonboard.rules.GetOnBoardState`, whose
``fields`` declaration says what each attribute is (key, lists, config, derived); the rules'
parts (:mod:`~gamelib.getonboard.turns`, :mod:`~gamelib.getonboard.dealing`) build on it, so
each attribute is typed and documented once, here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamelib.core.game import CHANCE, State
from gamelib.getonboard.board import NO_HEADING, CityMap, Shape, Tables
from gamelib.getonboard.phases import P_OBJECTIVE
from gamelib.getonboard.scoring import ScoreSheet

if TYPE_CHECKING:
    from gamelib.getonboard.rules import GetOnBoardGame


class Table(State):
    """The attributes of a Get on Board position (see the module docstring)."""

    game: GetOnBoardGame

    def __init__(self, game: GetOnBoardGame, seed: int | None) -> None:
        super().__init__(game, seed)
        n = game.num_players
        self.num_players: int = n
        self.board: CityMap = game.board
        self.tables: Tables = game.tables
        self.phase: int = P_OBJECTIVE
        self.objectives: tuple[int, ...] = ()
        """Common objective ids (1-6) on the table."""
        self.flipped: tuple[bool, ...] = ()
        """Per common objective: turned to its grey side (someone achieved it in an earlier round)."""
        self.sheet_of: tuple[int, ...] = ()
        """Per player: the score sheet (0-4)."""
        self.personal: tuple[int, ...] = ()
        """Per player: index of their personal objective in the city deck."""
        self.dealt: tuple[tuple[int, ...], ...] = ()
        """Per player: the start tickets dealt (start numbers)."""
        self.start_of: tuple[int, ...] = ()
        """Per player: the start number chosen."""
        self.tickets: tuple[int, ...] = ()
        """Ticket numbers revealed so far, in order (the last is the current round's)."""
        self.turn_index: int = 0
        """Position of the player to act in this round's order (0 = the Contrôleur)."""
        self.end: list[int] = [-1] * n
        self.heading: list[int] = [NO_HEADING] * n
        self.visited: list[int] = [0] * n
        self.owned: list[int] = [0] * n
        self.routes: list[tuple[int, ...]] = [()] * n
        """Per player: the intersections of the line, in order (tuples: shared by clones)."""
        self.eliminated: list[bool] = [False] * n
        self.sheets: list[ScoreSheet] = [ScoreSheet()] * n
        # the turn in progress
        self.step: int = 0
        self.shape: Shape = self.tables.shapes[0]
        self.forced_straight: bool = False
        self.turn_start: int = 0
        """Index in the player's route where this turn began (the partial route follows it)."""
        self.turn_transfers: tuple[tuple[int, int], ...] = ()
        """(section, circles) gained this turn: drawn as transfer sections."""
        self._player: int = CHANCE
        """Who acts (``current_player``), kept by the transitions; see :data:`PHASES`."""
        self._out: int = 0
        """The cards out of the pile being dealt (a bitmask of their numbers), kept by the transitions."""
        self._taken: int = 0
        """The sections holding any player's stick (the union of ``owned``), kept by the transitions."""


__all__ = ["Table"]
