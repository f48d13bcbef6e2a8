"""The room of a server process: its table actors, opened (and recovered) at start-up."""

from __future__ import annotations

from typing import Any

from cardroom.server.settings import ServerSettings
from cardroom.server.storage import Storage
from cardroom.server.tables_file import TableSpec


class Room:
    """The tables this process owns (one actor each)."""

    def __init__(self, storage: Storage, settings: ServerSettings) -> None:
        self.storage = storage
        self.settings = settings
        self.actors: dict[str, Any] = {}

    async def open(self, specs: list[TableSpec]) -> None:
        """Recover the tables that were open, then open ``specs``."""

    async def stop(self) -> None:
        """Stop every actor."""
