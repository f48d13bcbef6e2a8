"""Which kind of table a table's settings make: the one place the server asks."""

from __future__ import annotations

from cardroom.room.chinese_room import ChineseRoomTable
from cardroom.room.settings import TableSettings
from cardroom.room.table import Table


def table_type(settings: TableSettings) -> type[Table]:
    """:class:`ChineseRoomTable` for a Chinese poker table, else :class:`Table`."""
    return Table if settings.chinese is None else ChineseRoomTable
