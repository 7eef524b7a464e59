"""Rooms, tables and seats: a class playing on its own screens, over a database (see the package).

A :class:`Room` is a short code, a game with its options and table size, and the agent that plays
the seats no student took.  Students :meth:`Room.join` in arrival order and receive a
:class:`Seat` whose secret ``token`` brings them back (:meth:`Room.seat`).  Every move is one row
of the table's action log, keyed by its ply: the state of a table is rebuilt from that log (and
cached by table and ply), chance outcomes and agents' moves are written to the same log by
whichever process sees them due, so a server killed at any moment restarts where the log stops.
"""

from __future__ import annotations

import functools
import hashlib
import json
import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gamelib.core import rng as _rng
from gamelib.core.errors import IllegalAction
from gamelib.core.game import CHANCE, TERMINAL
from gamelib.core.registry import make
from gamelib.room.errors import NotYourTurn, RoomClosed, RoomError, StaleMove, UnknownRoom, UnknownSeat
from gamelib.room.store import Store
from gamelib.room.tables import TableCache, TableInfo, check_name, table_info

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from gamelib.core.game import Action, Game, InformationState, State
    from gamelib.room.results import ClassResults

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Room codes avoid letters a projector makes ambiguous (I/1, O/0)."""
CODE_LENGTH = 5
DEFAULT_AGENT = "random"
JOIN_RETRIES = 20


def token_hash(token: str) -> str:
    """What the store keeps of a token: its SHA-256, so a copy of the database seats nobody."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def open_room(
    url: str = "sqlite:///class.db", code: str | None = None, *, create: bool = True, seed: int | None = None
) -> Room:
    """Open (or create) a room in the store at ``url``.

    ``code`` names the room (case and spaces ignored); ``None`` opens the store's most recent room
    that has not ended, or a new one.  ``create=False`` (the join page) refuses a code that does
    not exist with :class:`UnknownRoom` instead of creating it.  ``seed`` fixes the chance of a
    room created here (every table's seed derives from it: a lesson replays the same deals).
    """
    store = Store(url)
    if code is None:
        rows = store.query("SELECT code FROM rooms WHERE ended IS NULL ORDER BY created DESC LIMIT 1")
        if rows:
            return Room(store, rows[0][0])
        if not create:
            store.close()
            raise UnknownRoom("this store has no open room yet", "unknown_room", code="")
        return _create(store, new_code(), seed)
    code = normalize_code(code)
    if store.query("SELECT code FROM rooms WHERE code = ?", (code,)):
        return Room(store, code)
    if not create:
        store.close()
        raise UnknownRoom(
            f"no room has the code {code!r}: check the code on the projector", "unknown_room", code=code
        )
    return _create(store, code, seed)


def new_code() -> str:
    """A fresh short room code (5 characters: 33 million codes, read off a projector)."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def normalize_code(code: object) -> str:
    """The code as stored (upper case, no spaces); RoomError naming the problem otherwise."""
    if not isinstance(code, str):
        raise RoomError(f"a room code is text like 'K7QXP', got {type(code).__name__}", "bad_code")
    text = "".join(code.split()).upper()
    if not 1 <= len(text) <= 16 or not text.isalnum() or not text.isascii():
        raise RoomError(f"a room code is 1 to 16 letters and digits, got {code[:20]!r}", "bad_code")
    return text


def _create(store: Store, code: str, seed: int | None = None) -> Room:
    seed = _rng.fresh_seed() if seed is None else seed
    store.execute(
        "INSERT INTO rooms (code, game, players, options, agent, seed, created) VALUES (?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (code) DO NOTHING",
        (code, None, None, "{}", DEFAULT_AGENT, seed, time.time()),
    )
    return Room(store, code)


@dataclass(frozen=True)
class Settings:
    """What the teacher chose for a room: the game, its options, the table size and the agent
    that plays empty seats (a name for :func:`gamelib.agents.make_agent`)."""

    game: str | None
    players: int | None
    options: dict[str, Any]
    agent: str
    seed: int
    ended: bool

    def make_game(self) -> Game:
        if self.game is None:
            raise RoomError("this room has no game yet: the teacher chooses it (room.configure)")
        return _game(self.game, self.players, json.dumps(self.options, sort_keys=True))


@functools.lru_cache(maxsize=32)
def _game(name: str, players: int | None, options: str) -> Game:
    """Games are immutable: one per configuration and process (states of a table share it)."""
    return make(name, players=players, options=json.loads(options))


class Room:
    """One class's room in a store: settings, tables, seats (see :func:`open_room`)."""

    def __init__(self, store: Store, code: str) -> None:
        self.store = store
        self.code = code
        self._tables = TableCache(self)
        self._agents: dict[str, Any] = {}

    # ------------------------------------------------------------------ settings
    def settings(self) -> Settings:
        rows = self.store.query(
            "SELECT game, players, options, agent, seed, ended FROM rooms WHERE code = ?", (self.code,)
        )
        if not rows:
            raise UnknownRoom(f"room {self.code!r} is not in this store")
        game, players, options, agent, seed, ended = rows[0]
        return Settings(game, players, json.loads(options), agent, int(seed), ended is not None)

    def configure(
        self,
        game: str,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        agent: str = DEFAULT_AGENT,
    ) -> Settings:
        """Choose the game, table size, rule options and the agent for empty seats (before anyone sits).

        Checked at once: an unknown game, a bad option or an unknown agent is a clear error."""
        built = make(game, players=players, options=options or {})
        self._check_agent(built, agent)
        with self.store.transaction() as db:
            db.lock_room(self.code)
            if db.query("SELECT 1 FROM tables WHERE room = ? LIMIT 1", (self.code,)):
                raise RoomError("students are already seated: the game of this room can no longer change")
            db.execute(
                "UPDATE rooms SET game = ?, players = ?, options = ?, agent = ? WHERE code = ?",
                (built.name, built.num_players, json.dumps(built.option_dict()), agent, self.code),
            )
        return self.settings()

    def _check_agent(self, game: Game, agent: str) -> None:
        from gamelib.agents import make_agent

        try:
            make_agent(agent, game.name)
        except (ValueError, TypeError, KeyError) as exc:
            raise RoomError(f"unknown agent {agent!r} for {game.name}: {exc}") from None

    def agent(self, name: str) -> Any:
        """The agent called ``name`` (built once per process)."""
        found = self._agents.get(name)
        if found is None:
            from gamelib.agents import make_agent

            found = self._agents[name] = make_agent(name, self.settings().make_game().name)
        return found

    # ------------------------------------------------------------------ seats
    def join(self, game: str, name: str, **options: Any) -> Seat:
        """Seat student ``name`` at the first table with a free seat (tables fill in arrival order).

        ``game`` and ``options`` must be the room's (the first join of a room without a game
        chooses them).  A table starts when its last seat is taken."""
        name = check_name(name)
        settings = self.settings()
        if settings.ended:
            raise RoomClosed("this room has ended: ask the teacher for a new code", "room_ended")
        if settings.game is None:
            settings = self.configure(game, options=options)
        elif game != settings.game:
            raise RoomError(f"this room plays {settings.game}, not {game!r}")
        room_game = settings.make_game()
        if options and make(room_game.name, players=room_game.num_players, options=options) != room_game:
            raise RoomError(f"this room plays {settings.game} with options {settings.options}, not {options}")
        token = secrets.token_urlsafe(18)
        for _ in range(JOIN_RETRIES):
            try:
                number, player, full = self._take_seat(token, name, settings)
            except Exception as exc:  # two kernels took the same seat at once: try the next one
                if self.store.is_conflict(exc):
                    continue
                raise
            if full:
                self._tables.settle(number)
            return Seat(self, token, number, player)
        raise RoomError("the room is too busy to seat you right now: try again", "busy")

    def _take_seat(self, token: str, name: str, settings: Settings) -> tuple[int, int, bool]:
        size = settings.players or settings.make_game().num_players
        with self.store.transaction() as db:
            db.lock_room(self.code)
            rows = db.query(
                "SELECT t.number, t.started, COUNT(s.player) FROM tables t LEFT JOIN seats s"
                " ON s.room = t.room AND s.number = t.number WHERE t.room = ?"
                " GROUP BY t.number, t.started ORDER BY t.number",
                (self.code,),
            )
            free = [r[0] for r in rows if r[1] is None and r[2] < size]
            if free:
                number = free[0]
            else:
                number = 1 + max((r[0] for r in rows), default=0)
                seed = _rng.derive_seed(settings.seed, number)
                db.execute(
                    "INSERT INTO tables (room, number, seed) VALUES (?, ?, ?)", (self.code, number, seed)
                )
            taken = {
                r[0]
                for r in db.query(
                    "SELECT player FROM seats WHERE room = ? AND number = ?", (self.code, number)
                )
            }
            player = min(set(range(size)) - taken)
            db.execute(
                "INSERT INTO seats (token, room, number, player, name, joined) VALUES (?, ?, ?, ?, ?, ?)",
                (token_hash(token), self.code, number, player, name, time.time()),
            )
            full = len(taken) + 1 == size
            if full:
                db.execute(
                    "UPDATE tables SET started = ? WHERE room = ? AND number = ?",
                    (time.time(), self.code, number),
                )
        return number, player, full

    def seat(self, token: object) -> Seat:
        """The seat of ``token`` (a student back after a reload); UnknownSeat for any other token."""
        if not isinstance(token, str) or not 10 <= len(token) <= 64:
            raise UnknownSeat("this seat token is not valid: join again with the room code", "unknown_seat")
        rows = self.store.query(
            "SELECT number, player FROM seats WHERE token = ? AND room = ?", (token_hash(token), self.code)
        )
        if not rows:
            raise UnknownSeat(
                "this seat token is not one of this room's seats: join again with the room code",
                "unknown_seat",
            )
        return Seat(self, token, int(rows[0][0]), int(rows[0][1]))

    # ------------------------------------------------------------------ teacher
    def tables(self) -> list[TableInfo]:
        """Every table of the room, for the dashboard: who sits where, whose move, ply, finished."""
        numbers = [
            r[0]
            for r in self.store.query(
                "SELECT number FROM tables WHERE room = ? ORDER BY number", (self.code,)
            )
        ]
        return [table_info(self, n) for n in numbers]

    def start(self, table: int) -> None:
        """Start ``table`` now: the room's agent plays its empty seats."""
        with self.store.transaction() as db:
            changed = db.execute(
                "UPDATE tables SET started = ? WHERE room = ? AND number = ? AND started IS NULL",
                (time.time(), self.code, table),
            )
            if not changed and not db.query(
                "SELECT 1 FROM tables WHERE room = ? AND number = ?", (self.code, table)
            ):
                raise RoomError(f"there is no table {table} in this room")
        self._tables.settle(table)

    def start_all(self) -> None:
        """Start every table that is waiting for students (the end of the arrivals)."""
        for info in self.tables():
            if not info.started:
                self.start(info.number)

    def move(self, name_or_token: str, table: int, player: int) -> None:
        """Move a student (by name, or by token) to a free seat of a table that has not started."""
        with self.store.transaction() as db:
            db.lock_room(self.code)
            rows = db.query(
                "SELECT token FROM seats WHERE room = ? AND (name = ? OR token = ?)",
                (self.code, name_or_token, token_hash(name_or_token)),
            )
            if len(rows) != 1:
                raise RoomError(f"{len(rows)} students match {name_or_token!r}: give a unique name")
            target = db.query("SELECT started FROM tables WHERE room = ? AND number = ?", (self.code, table))
            if not target:
                raise RoomError(f"there is no table {table} in this room")
            if target[0][0] is not None:
                raise RoomError(f"table {table} has started: students move only to waiting tables")
            size = self.settings().make_game().num_players
            if not (isinstance(player, int) and 0 <= player < size):
                raise RoomError(f"a seat is a player between 1 and {size}, got {player!r}")
            if db.query(
                "SELECT 1 FROM seats WHERE room = ? AND number = ? AND player = ?", (self.code, table, player)
            ):
                raise RoomError(f"player {player + 1} of table {table} is taken")
            db.execute("UPDATE seats SET number = ?, player = ? WHERE token = ?", (table, player, rows[0][0]))

    def end(self) -> None:
        """End the room: no more joins or moves; unfinished tables stay as they are."""
        self.store.execute(
            "UPDATE rooms SET ended = ? WHERE code = ? AND ended IS NULL", (time.time(), self.code)
        )

    def results(self) -> ClassResults:
        """The class's games as the library's usual results (see :mod:`gamelib.room.results`)."""
        from gamelib.room.results import class_results

        return class_results(self)

    def public_figure(self, table: int, ax: Any = None) -> Figure | None:
        """A drawing of ``table`` safe for a projector, or None when the game has none.

        The games draw a seat's perspective or everything; no perspective shows only what is
        public.  So a table is drawn only when that is safe: games of perfect information, and
        finished tables (the game is over, the cards are turned up).  The dashboard shows the
        public history in words otherwise."""
        state = self._tables.state(table)
        if state.game.info.perfect_information or state.is_terminal():
            return state.draw(ax=ax, perspective=None)
        return None

    def state(self, table: int) -> State:
        """The full state of ``table`` (a copy; for the teacher's notebook, never sent to a page)."""
        return self._tables.state(table).clone()

    def close(self) -> None:
        self.store.close()

    def __repr__(self) -> str:
        return f"<room {self.code} on {self.store.kind}>"


@dataclass(frozen=True)
class SeatView:
    """What one seat may know of its table: built from that seat's information state only."""

    table: int
    player: int
    ply: int
    started: bool
    to_move: int
    """The player to move (:data:`gamelib.CHANCE`/:data:`gamelib.TERMINAL` otherwise)."""
    names: tuple[str, ...]
    information: InformationState | None
    legal: tuple[str, ...]
    returns: tuple[float, ...] | None

    @classmethod
    def of(cls, state: State, table: int, player: int, started: bool, names: tuple[str, ...]) -> SeatView:
        """The view of ``player`` at ``state``: read only through what that seat may see (its
        information state, and its legal moves when it is to move), so two states the seat
        cannot tell apart give equal views (tests check it over determinized worlds)."""
        mine = started and state.current_player == player
        return cls(
            table=table,
            player=player,
            ply=len(state.history),
            started=started,
            to_move=state.current_player,
            names=names,
            information=state.information_state(player),
            legal=tuple(str(a) for a in state.legal_actions()) if mine else (),
            returns=tuple(state.returns()) if state.is_terminal() else None,
        )

    @property
    def finished(self) -> bool:
        return self.to_move == TERMINAL

    @property
    def my_turn(self) -> bool:
        return self.started and self.to_move == self.player


class Seat:
    """A student's seat: its table, its player index, its secret token, and what it may see and do."""

    def __init__(self, room: Room, token: str, table: int, player: int) -> None:
        self.room = room
        self.token = token
        self.table = table
        self.player = player

    @property
    def name(self) -> str:
        return self.room._tables.names(self.table)[self.player]

    @property
    def ply(self) -> int:
        """The number of actions in the table's log (pass it to :meth:`apply`)."""
        return len(self.room._tables.state(self.table).history)

    def _live_state(self) -> State:
        self._check_still_here()
        return self.room._tables.state(self.table)

    def _check_still_here(self) -> None:
        rows = self.room.store.query(
            "SELECT number, player FROM seats WHERE token = ?", (token_hash(self.token),)
        )
        if not rows:
            raise UnknownSeat("this seat is no longer in the room", "unknown_seat")
        self.table, self.player = int(rows[0][0]), int(rows[0][1])

    def view(self) -> SeatView:
        """This seat's view of its table: its information state, its moves, who is to move."""
        state = self._live_state()
        tables = self.room._tables
        return SeatView.of(
            state, self.table, self.player, tables.started(self.table), tables.names(self.table)
        )

    def draw(self, ax: Any = None) -> Figure:
        """The table drawn from this seat's perspective (the game's drawing hides the others' secrets)."""
        return self._live_state().draw(ax=ax, perspective=self.player)

    def legal_actions(self) -> list[Action]:
        """This seat's legal actions now ([] when another seat, chance or an agent is to move)."""
        state = self._live_state()
        if not self.room._tables.started(self.table) or state.current_player != self.player:
            return []
        return state.legal_actions()

    def apply(self, action: Action | str, *, ply: int) -> Action:
        """Play ``action`` at ``ply`` (the ply this seat saw): committed once or not at all.

        :class:`StaleMove` if the table moved on, :class:`NotYourTurn`, :class:`gamelib.IllegalAction`
        (naming the rule) for a move the rules refuse; nothing changes in those cases."""
        if self.room.settings().ended:
            raise RoomClosed("this room has ended: no more moves", "room_ended")
        state = self._live_state()
        if isinstance(ply, bool) or not isinstance(ply, int):
            raise RoomError(f"ply must be the int this seat saw (seat.ply), got {ply!r}")
        current = len(state.history)
        if ply != current:
            raise StaleMove(
                f"the table is at ply {current}, not {ply}: the move was not played", ply, current
            )
        if not self.room._tables.started(self.table):
            raise NotYourTurn("the table has not started: waiting for players", "waiting_players")
        if state.current_player != self.player:
            raise NotYourTurn(f"it is not your turn: {self.room._tables.to_move_name(self.table, state)}")
        trial = state.clone()
        played = trial.apply(action)  # IllegalAction naming the rule; the cached state is untouched
        self.room._tables.commit(self.table, ply, played, self.player, "seat")
        self.room._tables.settle(self.table)
        return played

    def __repr__(self) -> str:
        return f"<seat: table {self.table}, player {self.player + 1}>"


__all__ = [
    "CHANCE",
    "IllegalAction",
    "Room",
    "Seat",
    "SeatView",
    "Settings",
    "open_room",
]
