"""What ``cardroom serve`` tells its operator on stderr: ``--log-level`` sets the room's
own log too, so the start's recovery lines (docs/server.md, "Durability") reach the
operator at ``info`` (a clean stop leaves players seated; the next start stands them up
and says so, at INFO). The room's logger had no handler: only its warnings came out,
through Python's last resort, whatever ``--log-level`` said."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path

import httpx
import websockets
from tests.server.test_crash import ServerProcess

from cardroom.bots.client import account
from cardroom.server.auth import COOKIE

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


def test_log_level_debug_writes_no_session_token_and_no_message_s_cards(
    database_url: str, tmp_path: Path
) -> None:
    """At ``--log-level debug`` the WebSocket library logs every handshake header and
    every frame. A session token in the log (``authorization``, the browser's ``cookie``)
    lets whoever reads it play as the player and be sent his hole cards; a frame holds a
    player's discards, the cards he sets face down (a Fantasyland hand) and those dealt
    to him (RULEBOOK §12: nobody else sees them before they are shown). The log keeps
    the headers' names and each frame's kind and size."""
    tables = tmp_path / "tables.toml"
    tables.write_text(ONE_BOT, encoding="utf-8")
    log = tmp_path / "debug.log"
    server = ServerProcess(database_url, tables, args=("--log-level", "debug"), log=log)
    token = account(server.base, "Discarder", "a long password 1")["token"]
    draw = {"v": 1, "type": "act", "id": "d1", "table": "solo", "kind": "draw"}
    sent = [json.dumps({**draw, "cards": ["Qh", "7d"]}), '{"type":"place","cards":["9s"]}']

    async def talk(headers: dict[str, str]) -> None:
        url = server.base.replace("http://", "ws://") + "/ws"
        async with websockets.connect(url, additional_headers=headers) as ws:
            await ws.recv()  # hello
            for text in sent:
                await ws.send(text)
                await ws.recv()

    asyncio.run(talk({"Authorization": f"Bearer {token}"}))
    asyncio.run(talk({"Cookie": f"{COOKIE}={token}"}))
    server.proc.send_signal(signal.SIGINT)
    assert server.proc.wait(60) == 0
    text = log.read_text(encoding="utf-8")
    assert "authorization: [redacted]" in text and "cookie: [redacted]" in text, text[-2000:]
    assert "TEXT [" in text, text[-2000:]  # the frames are logged, their text is not
    assert token not in text
    # As the frames quote them: a bare "9s" may be in a handshake's base64 key.
    for card in ('"cards"', '"Qh"', '"7d"', '"9s"'):
        assert card not in text, card
