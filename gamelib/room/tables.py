"""A room's tables in one process: states rebuilt from the action log and cached by table and ply,
the log's writes (one row per ply, committed once or not at all), and the moves the room plays
itself (chance outcomes and agents in empty seats).

Chance is resolved by the room from the table's seed (``State.sample_chance()``, a pure function
of seed and ply) and an agent's move from a generator seeded by table and ply: every process that
finds a table at such a node writes the same row, and the primary key keeps exactly one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gamelib.core import rng as _rng
from gamelib.core.game import CHANCE, TERMINAL
from gamelib.core.i18n import Wording
from gamelib.room.errors import RoomError, StaleMove

if TYPE_CHECKING:
    from gamelib.core.game import Action, State
    from gamelib.room.room import Room

WORDS = Wording("gamelib.room")
MAX_NAME = 30
SETTLE_LIMIT = 10_000
"""At most this many chance and agent moves in a row (a table of agents only plays to its end)."""


def check_name(name: object) -> str:
    """A student's name as typed, trimmed; RoomError saying what is wrong otherwise."""
    if not isinstance(name, str):
        raise RoomError(f"a name is text, got {type(name).__name__}", "name_empty")
    text = " ".join(name.split())
    if not text:
        raise RoomError("type your name to join", "name_empty")
    if len(text) > MAX_NAME:
        raise RoomError(f"a name has at most {MAX_NAME} characters, got {len(text)}", "name_long", n=MAX_NAME)
    if not text.isprintable():
        raise RoomError("a name holds letters, digits and punctuation only", "name_chars")
    return text


@dataclass(frozen=True)
class TableInfo:
    """One table as the dashboard shows it: public facts only (no seat's secret)."""

    number: int
    names: tuple[str, ...]
    humans: tuple[bool, ...]
    started: bool
    ply: int
    to_move: int
    """The player to move, or :data:`gamelib.CHANCE` / :data:`gamelib.TERMINAL`."""
    public_history: tuple[str, ...]
    """The moves as every seat saw them (a step some seat could not see is shown masked)."""
    returns: tuple[float, ...] | None

    @property
    def finished(self) -> bool:
        return self.to_move == TERMINAL

    @property
    def students(self) -> int:
        return sum(self.humans)


def table_info(room: Room, number: int) -> TableInfo:
    tables = room._tables
    state = tables.state(number)
    return TableInfo(
        number=number,
        names=tables.names(number),
        humans=tuple(p in tables.humans(number) for p in range(state.game.num_players)),
        started=tables.started(number),
        ply=len(state.history),
        to_move=state.current_player,
        public_history=public_history(state),
        returns=tuple(state.returns()) if state.is_terminal() else None,
    )


def public_history(state: State) -> tuple[str, ...]:
    """The history as everyone saw it: a step any seat saw masked is shown with that mask."""
    seen = [state.public_history(p) for p in range(state.game.num_players)]
    out = []
    for i, action in enumerate(state.history):
        full = str(action)
        out.append(next((view[i] for view in seen if view[i] != full), full))
    return tuple(out)


class TableCache:
    """The tables of one room in this process: states by table (advanced ply by ply from the log)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self._states: dict[int, State] = {}
        self._started: set[int] = set()
        self._humans: dict[int, dict[int, str]] = {}
        self._names: dict[int, tuple[str, ...]] = {}

    # ------------------------------------------------------------------ reading
    def started(self, number: int) -> bool:
        if number in self._started:
            return True
        rows = self.room.store.query(
            "SELECT started FROM tables WHERE room = ? AND number = ?", (self.room.code, number)
        )
        if not rows:
            raise RoomError(f"there is no table {number} in this room")
        if rows[0][0] is not None:
            self._started.add(number)
            return True
        return False

    def humans(self, number: int) -> dict[int, str]:
        """The students at ``number``: player -> name (fixed once the table has started)."""
        if number in self._humans:
            return self._humans[number]
        started = self.started(number)
        rows = self.room.store.query(
            "SELECT player, name FROM seats WHERE room = ? AND number = ?", (self.room.code, number)
        )
        found = {int(p): str(n) for p, n in rows}
        if started:
            self._humans[number] = found
        return found

    def names(self, number: int) -> tuple[str, ...]:
        """Who sits at each seat: the student's name, or the agent ("random (agent)"), or "free"."""
        if number in self._names:
            return self._names[number]
        humans = self.humans(number)
        settings = self.room.settings()
        size = settings.make_game().num_players
        started = self.started(number)
        names = tuple(
            humans[p]
            if p in humans
            else WORDS("agent_seat", agent=settings.agent)
            if started
            else WORDS("free_seat")
            for p in range(size)
        )
        if started:  # the seats are fixed from now on
            self._names[number] = names
        return names

    def to_move_name(self, number: int, state: State) -> str:
        player = state.current_player
        if player == TERMINAL:
            return WORDS("finished")
        if player == CHANCE:
            return WORDS("waiting_chance")
        return WORDS("waiting_for", name=self.names(number)[player])

    def state(self, number: int) -> State:
        """The table's state at its last committed move; chance and agent moves due are played first."""
        state = self._refresh(number)
        if self._automatic(number, state):
            self.settle(number)
            state = self._refresh(number)
        return state

    def _refresh(self, number: int) -> State:
        state = self._states.get(number)
        if state is None:
            rows = self.room.store.query(
                "SELECT seed FROM tables WHERE room = ? AND number = ?", (self.room.code, number)
            )
            if not rows:
                raise RoomError(f"there is no table {number} in this room")
            state = self.room.settings().make_game().new_game(seed=int(rows[0][0]))
            self._states[number] = state
        log = self.room.store.query(
            "SELECT ply, action FROM actions WHERE room = ? AND number = ? AND ply >= ? ORDER BY ply",
            (self.room.code, number, len(state.history)),
        )
        for ply, action in log:
            if ply != len(state.history):
                raise RoomError(f"table {number}'s log has a gap at ply {len(state.history)}")
            state.apply(action)
        return state

    def _automatic(self, number: int, state: State) -> bool:
        """Whether the room itself must move at ``state`` (chance, or an agent's seat)."""
        player = state.current_player
        if player == TERMINAL or not self.started(number):
            return False
        return player == CHANCE or player not in self.humans(number)

    # ------------------------------------------------------------------ writing
    def commit(self, number: int, ply: int, action: Action, player: int, source: str) -> None:
        """Insert the row of ``ply``; StaleMove if that ply is already in the log (a race lost)."""
        try:
            self.room.store.execute(
                "INSERT INTO actions (room, number, ply, action, player, source, played)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (self.room.code, number, ply, str(action), player, source, time.time()),
            )
        except Exception as exc:
            if self.room.store.is_conflict(exc):
                raise StaleMove(
                    f"someone else played ply {ply} of table {number} first: the move was not played",
                    ply,
                    ply + 1,
                ) from None
            raise

    def settle(self, number: int) -> None:
        """Play the chance outcomes and agents' moves now due at ``number`` (until a student's turn)."""
        for _ in range(SETTLE_LIMIT):
            state = self._refresh(number)
            if not self._automatic(number, state):
                return
            ply = len(state.history)
            action = self._automatic_move(number, state)
            try:
                self.commit(
                    number, ply, action, state.current_player, "chance" if state.is_chance_node() else "agent"
                )
            except StaleMove:
                continue  # another process wrote the same row: read it and go on

    def _automatic_move(self, number: int, state: State) -> Action:
        if state.is_chance_node():
            return state.sample_chance()
        settings = self.room.settings()
        agent = self.room.agent(settings.agent)
        player = state.current_player
        rng = _rng.new_rng(state.seed, 1 + player, len(state.history))
        choice: Any = agent.act(state.clone(), player, rng)
        return state.game.parse_action(choice) if isinstance(choice, str) else choice
