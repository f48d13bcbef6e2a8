"""Secrets the server makes for itself, kept in the database (migration 0007).

A secret is made at random the first time it is asked for and stored; every
later call, in this process or another, reads the same value (two processes
asking at once: the first insert wins, the other reads it).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from cardroom.store.database import Clock, system_clock
from cardroom.store.errors import storage_errors
from cardroom.store.ledger_sql import dialect_insert
from cardroom.store.models import ServerSecret


def random_secret() -> str:
    """256 random bits, as text."""
    return secrets.token_urlsafe(32)


class ServerSecrets:
    """Named secrets over the database behind ``engine``."""

    def __init__(self, engine: Engine, clock: Clock = system_clock) -> None:
        self.engine = engine
        self.clock = clock

    @storage_errors("reading a server secret")
    def get(self, name: str) -> str | None:
        """The secret called ``name``, if it was made."""
        with Session(self.engine) as session:
            value = session.scalar(select(ServerSecret.value).where(ServerSecret.name == name))
            return None if value is None else str(value)

    @storage_errors("storing a server secret")
    def get_or_create(self, name: str, make: Callable[[], str] = random_secret) -> str:
        """The secret called ``name``, made by ``make`` and stored if it is not yet."""
        with Session(self.engine) as session, session.begin():
            statement = dialect_insert(session)(ServerSecret).values(
                name=name, value=make(), created_at=self.clock()
            )
            session.execute(statement.on_conflict_do_nothing(index_elements=["name"]))
            value = session.scalar(select(ServerSecret.value).where(ServerSecret.name == name))
        assert value is not None
        return str(value)
