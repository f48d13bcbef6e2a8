"""A real server for the bot tests: uvicorn on 127.0.0.1, a random port, SQLite."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.server.conftest import OPEN_SIGNUPS, TABLES_TOML, running_server

from cardroom.server.settings import ServerSettings


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    tables = tmp_path / "tables.toml"
    tables.write_text(TABLES_TOML)  # the server tests' tables: holdem, stud, draw
    settings = ServerSettings(
        database_url=f"sqlite:///{tmp_path / 'bots.db'}",
        tables_file=tables,
        cheap_passwords=True,
        tick_seconds=0.05,
        web_dir=None,
        limits=OPEN_SIGNUPS,
    )
    with running_server(settings) as base:
        yield base
