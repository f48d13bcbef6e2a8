"""A real server for the bot tests: uvicorn on 127.0.0.1, a random port, SQLite."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.server.conftest import OPEN_SIGNUPS, TABLES_TOML, running_server

from cardroom.server.settings import ServerSettings


def bot_settings(tmp_path: Path) -> ServerSettings:
    """A server for bots: the server tests' tables (holdem, stud, draw), SQLite."""
    tables = tmp_path / "tables.toml"
    tables.write_text(TABLES_TOML)
    return ServerSettings(
        database_url=f"sqlite:///{tmp_path / 'bots.db'}",
        tables_file=tables,
        cheap_passwords=True,
        tick_seconds=0.05,
        web_dir=None,
        limits=OPEN_SIGNUPS,
    )


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    with running_server(bot_settings(tmp_path)) as base:
        yield base
