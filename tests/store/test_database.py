"""Choosing and configuring the database from a URL."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import text

from cardroom.store import DEFAULT_URL, DatabaseError, make_engine, resolve_url


def test_url_precedence(monkeypatch: Any) -> None:
    monkeypatch.delenv("CARDROOM_DATABASE_URL", raising=False)
    assert resolve_url(None) == DEFAULT_URL == "sqlite:///cardroom.db"
    monkeypatch.setenv("CARDROOM_DATABASE_URL", "sqlite:////tmp/env.db")
    assert resolve_url(None) == "sqlite:////tmp/env.db"
    assert resolve_url("sqlite:////tmp/flag.db") == "sqlite:////tmp/flag.db"


def test_plain_postgresql_urls_use_psycopg3() -> None:
    for given in ("postgresql://u@h:5432/d", "postgres://u@h:5432/d"):
        assert resolve_url(given) == "postgresql+psycopg://u@h:5432/d"


@pytest.mark.parametrize("bad", ["mysql://u@h/d", "not a url", "oracle://x"])
def test_unsupported_or_garbled_urls_are_refused(bad: str) -> None:
    with pytest.raises(DatabaseError):
        resolve_url(bad)


def test_sqlite_runs_in_wal_mode_with_foreign_keys(tmp_path: Any) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'w.db'}")
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert conn.execute(text("PRAGMA busy_timeout")).scalar() == 30_000
    engine.dispose()
