"""What ``cardroom serve`` tells its operator on stderr: ``--log-level`` sets the room's
own log too, so the start's recovery lines (docs/server.md, "Durability") reach the
operator at ``info`` (a clean stop leaves players seated; the next start stands them up
and says so, at INFO). The room's logger had no handler: only its warnings came out,
through Python's last resort, whatever ``--log-level`` said."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import httpx
from tests.server.test_crash import ServerProcess

ONE_BOT = """
[[table]]
id = "solo"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
bots = 1
"""


def _seated(base: str) -> None:
    deadline = time.monotonic() + 60
    while True:
        tables = httpx.get(base + "/api/tables", timeout=5).json()["tables"]
        if tables and tables[0]["seats_taken"] == 1:
            return
        assert time.monotonic() < deadline, tables
        time.sleep(0.2)


def test_log_level_info_shows_the_players_the_start_stood_up(
    database_url: str, tmp_path: Path
) -> None:
    tables = tmp_path / "tables.toml"
    tables.write_text(ONE_BOT, encoding="utf-8")
    info = ("--log-level", "info")
    first = ServerProcess(database_url, tables, bots=True, args=info)
    _seated(first.base)  # one bot: seated, no hand to deal, so none is voided
    first.proc.send_signal(signal.SIGINT)
    assert first.proc.wait(60) == 0
    log = tmp_path / "second.log"
    second = ServerProcess(database_url, tables, args=info, log=log)
    second.proc.send_signal(signal.SIGINT)
    assert second.proc.wait(60) == 0
    text = log.read_text(encoding="utf-8")
    assert "table solo recovered: 1 player(s) stood up" in text, text
