"""The errors of class play: gamelib errors (ValueErrors, like :class:`gamelib.IllegalAction`), so
a page catches ``ValueError`` and shows the message, and nothing has changed in the room."""

from __future__ import annotations

from typing import Any


class RoomError(ValueError):
    """Something a page or a teacher asked that the room refuses (bad name, unknown room, room
    ended...).  The message says what and why; the store is left as it was.

    ``key`` and ``fields`` name the same sentence in ``gamelib/room/data/words.json``, so a
    student's page says it in the page's language (the message itself is English, for logs)."""

    def __init__(self, message: str, key: str = "", **fields: Any) -> None:
        super().__init__(message)
        self.key = key
        self.fields = fields


class UnknownRoom(RoomError):
    """No room has this code in this store (a mistyped code on the join page)."""


class UnknownSeat(RoomError):
    """A token that is not a seat of this room: mistyped, forged, or another room's."""


class NotYourTurn(RoomError):
    """A seat played while another seat (or chance, or an agent) is to move."""


class StaleMove(RoomError):
    """The move was made for a ply that is no longer the table's: someone else played first (another
    tab of the same seat, a race).  ``ply`` is what the caller sent, ``current`` the table's now."""

    def __init__(self, message: str, ply: int, current: int) -> None:
        super().__init__(message, "stale")
        self.ply = ply
        self.current = current


class RoomClosed(RoomError):
    """The teacher ended the room: no more joins or moves."""
