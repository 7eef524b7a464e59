"""Class play: every student plays their own seat from their own screen, the teacher watches every table.

Pure Python over a database (no Jupyter import): the pages in ``notebooks/class/`` are built on it.

>>> import gamelib.room
>>> room = gamelib.room.open_room("sqlite:///:memory:")
>>> ana = room.join("fugitive", "Ana")
>>> bob = room.join("fugitive", "Bob")          # table 1 is full: it starts
>>> (ana.table, ana.player, bob.player)
(1, 0, 1)
>>> len(ana.token) > 20                          # the seat's secret, to rejoin with room.seat(token)
True

``seat.view()`` holds only that seat's information state; ``seat.apply(action, ply=seat.ply)``
commits a move once or not at all (:class:`StaleMove`, :class:`NotYourTurn`,
:class:`gamelib.IllegalAction`).  The action log is the truth; chance and agents' moves are
played by the room; states are rebuilt from the log.
"""

from gamelib.room.errors import NotYourTurn, RoomClosed, RoomError, StaleMove, UnknownRoom, UnknownSeat
from gamelib.room.room import Room, Seat, SeatView, Settings, new_code, open_room
from gamelib.room.tables import TableInfo, public_history

__all__ = [
    "NotYourTurn",
    "Room",
    "RoomClosed",
    "RoomError",
    "Seat",
    "SeatView",
    "Settings",
    "StaleMove",
    "TableInfo",
    "UnknownRoom",
    "UnknownSeat",
    "new_code",
    "open_room",
    "public_history",
]
