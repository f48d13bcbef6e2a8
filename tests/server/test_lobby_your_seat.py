"""The lobby tells a caller where he sits (``your_seat``), so a client offers "Go to your
seat" rather than the waiting list of a full table he already sits at (RULEBOOK §10.3:
the waiting list is for a seat). Told to the caller alone, by his session: with a
connection open (the session known without the database) or not. SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from cardroom.bots.client import ProtocolClient

from .api_client import BACKENDS, Api, bearer, register, start_api
from .sessions import answer


@pytest.fixture(scope="module", params=BACKENDS)
def api(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    tmp: Path = tmp_path_factory.mktemp("lobbyseat")
    yield from start_api(request, tmp)


def _seats(client: httpx.Client | None, api: Api) -> dict[str, Any]:
    """Each table's ``your_seat`` as ``client`` (None: no session) is told it."""
    answer = (client or httpx).get((api.base if client is None else "") + "/api/tables")
    assert answer.status_code == 200, answer.text
    return {row["table_id"]: row["your_seat"] for row in answer.json()["tables"]}


def test_10_3_the_lobby_tells_a_seated_player_his_seat_and_no_one_else(api: Api) -> None:
    me, other = bearer(api, register(api)), bearer(api, register(api))
    token = me.headers["authorization"].split()[1]

    async def sit_then_look() -> tuple[dict[str, Any], dict[str, Any]]:
        client = await ProtocolClient.connect(api.base, token)
        await client.send("join", id="sit", table="stud", seat=3, amount=80)
        assert (await answer(client, "sit"))["type"] == "ok"
        connected = await asyncio.to_thread(_seats, me, api)
        await client.close()  # the seat stays: the lobby asks the session of the database
        await asyncio.sleep(0.2)
        return connected, await asyncio.to_thread(_seats, me, api)

    connected, alone = asyncio.run(sit_then_look())
    for seats in (connected, alone):
        assert seats["stud"] == 3
        assert {t: s for t, s in seats.items() if t != "stud"} == dict.fromkeys(
            set(seats) - {"stud"}
        )
    assert set(_seats(other, api).values()) == {None}  # another player's lobby
    assert set(_seats(None, api).values()) == {None}  # no session: no seat
    bad = api.client(headers={"authorization": "Bearer not-a-token"})
    assert set(_seats(bad, api).values()) == {None}
