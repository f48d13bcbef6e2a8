"""Schema migrations (Alembic, shipped inside the package; no alembic.ini needed)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine

from cardroom.store.database import DatabaseError
from cardroom.store.errors import storage_errors

MIGRATIONS = Path(__file__).resolve().with_name("migrations")


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic config pointing at the packaged migrations (independent of the cwd)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest migration shipped with this version of cardroom."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:
        raise DatabaseError(f"no migrations found in {MIGRATIONS}")
    return str(head)


@storage_errors("reading the schema revision")
def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (``None`` for a fresh database)."""
    with engine.connect() as conn:
        rev = MigrationContext.configure(conn).get_current_revision()
    return None if rev is None else str(rev)


def refuse_newer(current: str | None) -> None:
    """Raise :class:`DatabaseError` when ``current`` is no revision this cardroom ships:
    a newer release migrated the database (a rollback), which no upgrade can help."""
    script = ScriptDirectory.from_config(alembic_config())
    if current is None or current in {s.revision for s in script.walk_revisions()}:
        return
    raise DatabaseError(
        f"the database is revision {current}, newer than this cardroom's newest"
        f" ({head_revision()}): a newer cardroom migrated it; run that release"
    )


@storage_errors("migrating the database")
def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate the database to ``revision`` (default: the newest); refused when the
    database is newer than the code (:func:`refuse_newer`)."""
    refuse_newer(current_revision(engine))
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), revision)


@storage_errors("migrating the database")
def downgrade(engine: Engine, revision: str) -> None:
    """Migrate the database back to ``revision`` (``"base"`` removes every table)."""
    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), revision)


def require_current(engine: Engine) -> None:
    """Raise :class:`DatabaseError` unless the database is at the newest revision."""
    current, head = current_revision(engine), head_revision()
    refuse_newer(current)
    if current != head:
        at = "a fresh database" if current is None else f"revision {current}"
        raise DatabaseError(
            f"the database is {at}, cardroom needs {head}: run `cardroom db upgrade`"
        )
