"""Alembic environment: runs on the connection handed over by ``cardroom.store.migrate``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from cardroom.store.models import Base

config = context.config
connection: Connection | None = config.attributes.get("connection")


def _run(conn: Connection) -> None:
    context.configure(connection=conn, target_metadata=Base.metadata, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


if connection is not None:
    _run(connection)
else:  # plain `alembic` command line with sqlalchemy.url set in the config
    with create_engine(config.get_main_option("sqlalchemy.url") or "").begin() as conn:
        _run(conn)
