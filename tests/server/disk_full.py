"""A full disk, as the database says it: inserts into one table refused with the driver's
own words for it (SQLite's ``SQLITE_FULL``, PostgreSQL's ``disk_full``, 53100)."""

from __future__ import annotations

from sqlalchemy import text

from cardroom.store import make_engine

SQLITE = """
CREATE TRIGGER disk_full BEFORE {writes} ON {table}
BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END
"""
POSTGRES = (
    """
    CREATE OR REPLACE FUNCTION disk_full() RETURNS trigger AS $$ BEGIN
    RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = '53100';
    END $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER disk_full BEFORE {writes} ON {table}
    FOR EACH ROW EXECUTE FUNCTION disk_full()
    """,
)


def disk_full(url: str, table: str, full: bool = True, writes: str = "INSERT") -> None:
    """Refuse every insert into ``table`` of the database at ``url`` as a full disk would
    (``writes`` "UPDATE": every update; ``full`` False: take the refusal away, the space
    back)."""
    sqlite = url.startswith("sqlite")
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            if not full:
                conn.execute(text("DROP TRIGGER disk_full" + ("" if sqlite else f" ON {table}")))
            elif sqlite:
                conn.execute(text(SQLITE.format(table=table, writes=writes)))
            else:
                for statement in POSTGRES:
                    conn.execute(text(statement.format(table=table, writes=writes)))
    finally:
        engine.dispose()
