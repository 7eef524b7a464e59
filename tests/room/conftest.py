"""Every class-play test runs on both stores: SQLite (a fresh file) and PostgreSQL.

PostgreSQL's DSN comes from ``GAMELIB_TEST_POSTGRES`` (``.ci/run`` installs and starts the server
and exports it): the PostgreSQL cases are skipped only when that variable is absent.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

import gamelib.room

POSTGRES_ENV = "GAMELIB_TEST_POSTGRES"


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty store (SQLite) or of the test server (PostgreSQL; rooms get fresh codes)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'class.db'}"
    dsn = os.environ.get(POSTGRES_ENV)
    if not dsn:
        pytest.skip(f"{POSTGRES_ENV} is not set (.ci/run sets it)")
    return dsn


@pytest.fixture
def room(store_url: str) -> Iterator[gamelib.room.Room]:
    """A fresh room (its own code) in the store."""
    opened = gamelib.room.open_room(store_url, gamelib.room.new_code())
    yield opened
    opened.close()
