"""A real server for the bot tests: uvicorn on 127.0.0.1, a random port, SQLite."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.server.conftest import running_server

from cardroom.server.settings import ServerSettings

TABLES = """
[[table]]
id = "holdem"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 6
action_seconds = 5

[[table]]
id = "stud"
game = "stud"
stakes = { small_bet = 4, big_bet = 8, ante = 1 }
seats = 6
action_seconds = 5

[[table]]
id = "draw"
game = "triple_draw_27"
stakes = { small_blind = 2, big_blind = 4, small_bet = 4, big_bet = 8 }
seats = 6
action_seconds = 5
"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    tables = tmp_path / "tables.toml"
    tables.write_text(TABLES)
    settings = ServerSettings(
        database_url=f"sqlite:///{tmp_path / 'bots.db'}",
        tables_file=tables,
        cheap_passwords=True,
        tick_seconds=0.05,
        web_dir=None,
    )
    with running_server(settings) as base:
        yield base
