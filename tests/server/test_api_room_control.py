"""The operator's table commands use the room's own ``open_table`` / ``close_table`` when
the room offers them (the real room's path is tested over a server in test_api_operator)."""

from __future__ import annotations

import asyncio
from typing import Any

from cardroom.server.api_operator import close_on, open_on
from cardroom.server.tables_file import spec_from_dict


class OwnMethodsRoom:
    """A room that opens and closes tables itself."""

    def __init__(self) -> None:
        self.actors: dict[str, Any] = {}
        self.calls: list[tuple[str, str]] = []

    async def open_table(self, spec: Any) -> None:
        self.calls.append(("open", spec.settings.table_id))

    async def close_table(self, table_id: str) -> None:
        self.calls.append(("close", table_id))


def test_the_room_s_own_table_commands_are_used_when_offered() -> None:
    room = OwnMethodsRoom()
    spec = spec_from_dict({"id": "t9", "game": "holdem", "stakes": {"big_blind": 2}})
    asyncio.run(open_on(room, spec))
    asyncio.run(close_on(room, "t9"))
    assert room.calls == [("open", "t9"), ("close", "t9")]
