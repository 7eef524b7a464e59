"""The database under a room: SQLite (standard library, nothing to install) or PostgreSQL (psycopg).

Both speak the same small SQL (``?`` placeholders here, rewritten to ``%s`` for psycopg) and the
same schema.  The action log is the truth: ``actions`` has ``(room, number, ply)`` as its primary
key, so the move of ply ``n`` at a table is inserted once or not at all, whatever the number of
processes racing for it; the loser's INSERT fails and :meth:`Store.is_conflict` says so.

SQLite runs in WAL mode (readers never wait for the writer, a commit survives the process being
killed) with a busy timeout, so the kernels of one laptop share one file.  PostgreSQL serves kernels
running on several machines (a school's JupyterHub).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from gamelib.room.errors import RoomError

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS rooms (
        code TEXT PRIMARY KEY, game TEXT, players INTEGER, options TEXT NOT NULL, agent TEXT NOT NULL,
        seed BIGINT NOT NULL, created DOUBLE PRECISION NOT NULL, ended DOUBLE PRECISION)""",
    """CREATE TABLE IF NOT EXISTS tables (
        room TEXT NOT NULL, number INTEGER NOT NULL, seed BIGINT NOT NULL,
        started DOUBLE PRECISION, PRIMARY KEY (room, number))""",
    """CREATE TABLE IF NOT EXISTS seats (
        token TEXT PRIMARY KEY, room TEXT NOT NULL, number INTEGER NOT NULL, player INTEGER NOT NULL,
        name TEXT NOT NULL, joined DOUBLE PRECISION NOT NULL, UNIQUE (room, number, player))""",
    """CREATE TABLE IF NOT EXISTS actions (
        room TEXT NOT NULL, number INTEGER NOT NULL, ply INTEGER NOT NULL, action TEXT NOT NULL,
        player INTEGER NOT NULL, source TEXT NOT NULL, played DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (room, number, ply))""",
)

BUSY_TIMEOUT_MS = 20_000
"""How long a SQLite writer waits for another one (a class's kernels write one short row at a time)."""


class Store:
    """One connection to a room database, safe to use from several threads of one process (the
    page's polling thread and its button callbacks)."""

    def __init__(self, url: str) -> None:
        if not isinstance(url, str):
            raise RoomError(f"a room store is a URL string like 'sqlite:///class.db', got {url!r}")
        self.url = url
        self._lock = threading.RLock()
        scheme = urlparse(url).scheme
        if scheme == "sqlite":
            self.kind = "sqlite"
            self._conn: Any = _connect_sqlite(url)
            self._conflicts: tuple[type[BaseException], ...] = (sqlite3.IntegrityError,)
        elif scheme in ("postgresql", "postgres"):
            self.kind = "postgresql"
            self._conn, self._conflicts = _connect_postgres(url)
        else:
            raise RoomError(
                f"unknown room store {url!r}: use 'sqlite:///path/to/class.db' or 'postgresql://user@host/db'"
            )
        self._create_schema()

    def _create_schema(self) -> None:
        """Create the four tables if missing.  Two PostgreSQL sessions creating them at the same
        moment can collide on the catalog (a uniqueness error): the loser finds them made."""
        for attempt in range(3):
            try:
                with self.transaction():
                    for statement in SCHEMA:
                        self.execute(statement)
                return
            except Exception as exc:
                if not self.is_conflict(exc) or attempt == 2:
                    raise

    # ------------------------------------------------------------------ statements
    def _sql(self, sql: str) -> str:
        return sql.replace("?", "%s") if self.kind == "postgresql" else sql

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one SELECT."""
        with self._lock:
            cursor = self._conn.execute(self._sql(sql), tuple(params))
            rows: list[tuple[Any, ...]] = cursor.fetchall()
            return rows

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement (committed at once outside :meth:`transaction`); the rows it changed."""
        with self._lock:
            cursor = self._conn.execute(self._sql(sql), tuple(params))
            return int(cursor.rowcount)

    @contextmanager
    def transaction(self) -> Iterator[Store]:
        """Statements that commit together or not at all.  SQLite takes the write lock at once
        (``BEGIN IMMEDIATE``), so a read-then-write (seating a student) is never interleaved."""
        with self._lock:
            if self.kind == "sqlite":
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    yield self
                except BaseException:
                    self._conn.execute("ROLLBACK")
                    raise
                self._conn.execute("COMMIT")
            else:
                with self._conn.transaction():
                    yield self

    def lock_room(self, code: str) -> None:
        """Inside a transaction: serialize the writers of one room (PostgreSQL row lock; SQLite's
        ``BEGIN IMMEDIATE`` already holds the database's write lock)."""
        if self.kind == "postgresql":
            self.query("SELECT code FROM rooms WHERE code = ? FOR UPDATE", (code,))

    def is_conflict(self, error: BaseException) -> bool:
        """Whether ``error`` is a uniqueness conflict (a row with that key is already committed)."""
        return isinstance(error, self._conflicts)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __repr__(self) -> str:
        return f"<room store {self.kind}>"


def _connect_sqlite(url: str) -> sqlite3.Connection:
    """``sqlite:///relative/path``, ``sqlite:////absolute/path`` or ``sqlite:///:memory:``."""
    path = url[len("sqlite:///") :] if url.startswith("sqlite:///") else ""
    if not path:
        raise RoomError(f"a SQLite room store is 'sqlite:///path/to/class.db', got {url!r}")
    if path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(
        path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
    )
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA journal_mode = WAL")
    # WAL + NORMAL: a commit survives the process being killed (only a power cut can lose the last one).
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


def _connect_postgres(url: str) -> tuple[Any, tuple[type[BaseException], ...]]:
    try:
        import psycopg
    except ImportError:
        raise RoomError(
            "a PostgreSQL room store needs psycopg: pip install 'psycopg[binary]' (see docs/classroom.md)"
        ) from None
    try:
        conn = psycopg.connect(url, autocommit=True)
    except psycopg.OperationalError as exc:
        raise RoomError(f"cannot reach the PostgreSQL room store: {exc}".strip()) from None
    return conn, (psycopg.errors.IntegrityError,)
