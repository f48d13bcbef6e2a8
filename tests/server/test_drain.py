"""A clean stop that lets the hands in progress finish (``cardroom serve --drain-seconds``):
no new hand is dealt, the hand in progress plays to its end and is settled, then the
table is told ``table_closed`` and the process exits 0; the next start voids nothing.
Past the limit, the hand is left to the next start, which voids it (§10.10). A real
``cardroom serve``, SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path
from typing import Any

from tests.server.sessions import first_turn, money_problems, seated_pair
from tests.server.test_crash import ServerProcess

from cardroom.bots.client import ProtocolClient
from cardroom.server.settings import ServerSettings
from cardroom.store import make_engine
from cardroom.store.tables import TableRecords


def _kinds(url: str) -> list[str]:
    engine = make_engine(url)
    try:
        return [e["type"] for _, e in TableRecords(engine).entries("holdem", 0, 100_000)]
    finally:
        engine.dispose()


async def _play_to_the_end(client: ProtocolClient, act: bool) -> dict[str, Any]:
    """Check or call every turn (``act``), until the table is closed: that message."""
    async with asyncio.timeout(60):
        while True:
            msg = await client.receive()
            if msg["type"] == "table_closed":
                return msg
            if msg["type"] == "turn" and act:
                kind = "check" if "check" in msg["legal"]["actions"] else "call"
                await client.send("act", table="holdem", turn=msg["seq"], kind=kind)


async def _stopped_mid_hand(
    server: ServerProcess, act: bool, stopped: list[float] | None = None
) -> list[dict[str, Any]]:
    """alice and bobby in a hand; SIGTERM (its ``time.monotonic()`` put in ``stopped``);
    both play on (``act``) until told."""
    a, _, b, _ = await seated_pair(server.base)
    await first_turn([a, b], "holdem")
    if stopped is not None:
        stopped.append(time.monotonic())
    server.proc.send_signal(signal.SIGTERM)
    return list(await asyncio.gather(_play_to_the_end(a, act), _play_to_the_end(b, act)))


def test_a_clean_stop_lets_the_hand_in_progress_finish_and_deals_no_other(
    settings: ServerSettings,
) -> None:
    assert settings.database_url is not None and settings.tables_file is not None
    url = settings.database_url
    server = ServerProcess(url, settings.tables_file, args=("--drain-seconds", "30"))
    try:
        told = asyncio.run(_stopped_mid_hand(server, act=True))
        assert server.proc.wait(60) == 0
    finally:
        server.gone()
    assert all(m["reason"] == "server_stopping" for m in told), told
    kinds = _kinds(url)
    assert kinds.count("HandDealt") == 1 and kinds.count("HandFinished") == 1, kinds
    ServerProcess(url, settings.tables_file).kill()  # the next start: nothing to void
    assert "HandVoided" not in _kinds(url)
    assert money_problems(url) == []


def test_a_hand_still_unfinished_at_the_drain_s_end_is_voided_at_the_next_start(
    settings: ServerSettings,
) -> None:
    assert settings.database_url is not None and settings.tables_file is not None
    url = settings.database_url
    server = ServerProcess(url, settings.tables_file, args=("--drain-seconds", "1"))
    try:
        stopped: list[float] = []
        asyncio.run(_stopped_mid_hand(server, act=False, stopped=stopped))  # 5 s a decision
        # Gone within the 1 s drain and the exit, not after the hand's decisions (timed
        # from the SIGTERM: timed from the start, a loaded machine's logins passed 4.5 s).
        assert server.proc.wait(60) == 0 and time.monotonic() - stopped[0] < 4.5
    finally:
        server.gone()
    assert "HandFinished" not in _kinds(url)
    ServerProcess(url, settings.tables_file).kill()
    assert _kinds(url).count("HandVoided") == 1
    assert money_problems(url) == []


def test_the_drain_is_off_unless_asked(tmp_path: Path) -> None:
    assert ServerSettings(tables_file=tmp_path / "t.toml").drain_seconds == 0
